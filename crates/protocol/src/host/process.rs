//! The child process of an engine: started with `sh -c` in a process group of its own, its
//! pipes, a deadline on every read and write, and its end (a `quit`, a grace, then the whole
//! group killed). It knows lines, not moves.

use super::error::{Crash, Ending, Garbage, HostError};
use super::groups::{self, interrupted};
use super::log::EngineLog;
use super::pipe::{self, Event, MAX_LINE};
use super::reaper;
use crate::atsi::{EngineReply, HostCommand};
use std::collections::VecDeque;
use std::io;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use taikyoku_core::notation::shorten;

/// How long a line to the engine may wait for it to read its input (a pipe holds 64 KiB):
/// an engine that stops reading must not stop the host.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// Lines read ahead of the host before the engine is made to wait.
const QUEUE: usize = 256;
/// The most bytes of lines an engine may send between two things the host tells it (a
/// thinking engine sends a few `log` lines): more is a flood, and loses.
pub(super) const MAX_CHATTER: usize = 1 << 20;
/// How long an engine has to exit by itself after `quit`.
pub(super) const QUIT_GRACE: Duration = Duration::from_millis(300);

/// A running engine's process.
pub(super) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    ahead: VecDeque<Event>,
    pub(super) log: EngineLog,
    stopped: bool,
    /// The last line of its standard error (a shell's "not found"), to say why it crashed.
    last_stderr: Arc<Mutex<Option<String>>>,
    stderr_thread: Option<std::thread::JoinHandle<()>>,
    /// How long a write may wait for the engine to read ([`WRITE_TIMEOUT`]).
    pub(super) write_timeout: Duration,
    /// Bytes of lines read since the host last sent something ([`MAX_CHATTER`]).
    chatter: usize,
    /// The tag every process it starts inherits ([`reaper`]).
    tag: String,
}

impl Process {
    /// Starts `sh -c command` in a process group of its own, with a reader thread on each of
    /// its outputs.
    pub(super) fn launch(command: &str, log: EngineLog) -> Result<Process, HostError> {
        let log = log.limited();
        reaper::become_subreaper();
        let tag = reaper::new_tag();
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .env(reaper::TAG_VARIABLE, &tag)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let spawn_error = |source| HostError::Spawn {
            command: command.to_string(),
            source,
        };
        let mut child = cmd.spawn().map_err(spawn_error)?;
        log.note(&format!("started `{command}` (pid {})", child.id()));
        let registered = groups::register(child.id());
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let (tx, events) = sync_channel(QUEUE);
        if let Some(out) = stdout {
            std::thread::spawn(move || pipe::read_lines(out, tx));
        }
        let last_stderr = Arc::new(Mutex::new(None));
        let stderr_thread = stderr.map(|err| {
            let (log, last) = (log.clone(), last_stderr.clone());
            std::thread::spawn(move || pipe::copy_stderr(err, &log, &last))
        });
        let process = Process {
            stdin: child.stdin.take(),
            child,
            events,
            ahead: VecDeque::new(),
            log,
            stopped: false,
            last_stderr,
            stderr_thread,
            write_timeout: WRITE_TIMEOUT,
            chatter: 0,
            tag,
        };
        if !registered {
            return Err(HostError::Interrupted);
        }
        if let Some(stdin) = &process.stdin {
            pipe::set_nonblocking(stdin);
        }
        Ok(process)
    }

    /// Its process id, which is also its process group's.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `quit`, end of input, a grace to exit, then the whole process group killed.
    pub(super) fn stop(&mut self) {
        if std::mem::replace(&mut self.stopped, true) {
            return;
        }
        if self.stdin.is_some() {
            let _ = self.send_by(&HostCommand::Quit, Instant::now() + QUIT_GRACE);
            self.stdin = None;
        }
        let exited = self.wait_exit(QUIT_GRACE);
        let escaped = reaper::tagged(&self.tag, self.child.id());
        groups::kill_group(self.child.id());
        let _ = self.child.kill();
        groups::unregister(self.child.id());
        let status = match exited {
            Some(s) => Some(s),
            None => self.child.wait().ok(),
        };
        reaper::end_tagged(&self.tag, self.child.id(), escaped);
        if let Some(s) = status {
            self.log.note(&format!("stopped: {}", Ending::Exited(s)));
        }
    }

    /// The exit status, if the engine exits within `grace`.
    fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    pub(super) fn send(&mut self, command: &HostCommand) -> Result<(), HostError> {
        self.send_by(command, Instant::now() + self.write_timeout)
    }

    /// Sends a line, waiting until `deadline` at most for the engine to read its input.
    pub(super) fn send_by(
        &mut self,
        command: &HostCommand,
        deadline: Instant,
    ) -> Result<(), HostError> {
        if interrupted() {
            return Err(HostError::Interrupted);
        }
        let mut line = command.to_line();
        self.log.write('>', &line);
        self.chatter = 0;
        line.push('\n');
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(HostError::Crashed(Crash {
                ending: Ending::InputClosed,
                last_words: None,
            }));
        };
        match pipe::write_by(stdin, line.as_bytes(), deadline) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                let waited = self.write_timeout;
                self.log.note(&format!(
                    "its input was not read within {waited:.1?}: gives up"
                ));
                // What was half written cannot be taken back: nothing more goes to it.
                self.stdin = None;
                Err(HostError::NotReading(waited))
            }
            Err(_) => Err(self.crashed()),
        }
    }

    /// The engine is gone: how it ended, as far as can be told at once.
    fn crashed(&mut self) -> HostError {
        self.stdin = None;
        if interrupted() {
            return HostError::Interrupted;
        }
        let ending = match self.wait_exit(Duration::from_millis(200)) {
            Some(s) => Ending::Exited(s),
            None => Ending::ClosedOutput,
        };
        // Its last words, once its standard error has been read to the end (briefly: what
        // it started may hold the pipe open).
        let end = Instant::now() + Duration::from_millis(100);
        while self
            .stderr_thread
            .as_ref()
            .is_some_and(|t| !t.is_finished())
            && Instant::now() < end
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let last = self.last_stderr.lock().unwrap_or_else(|e| e.into_inner());
        let crash = Crash {
            ending,
            last_words: last.as_deref().map(shorten),
        };
        drop(last);
        self.log.note(&format!("crashed: {crash}"));
        HostError::Crashed(crash)
    }

    /// The next thing the engine said, before `deadline`.
    pub(super) fn next_event(&mut self, deadline: Instant) -> Option<Event> {
        if let Some(e) = self.ahead.pop_front() {
            return Some(e);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::Closed),
        }
    }

    /// Puts back what [`Process::next_event`] gave, to be read again first.
    pub(super) fn put_back(&mut self, event: Event) {
        self.ahead.push_front(event);
    }

    /// The next non-empty line before `deadline`, logged; a timeout says how long it has
    /// been since `since`.
    pub(super) fn next_line(
        &mut self,
        deadline: Instant,
        since: Instant,
        waiting_for: &'static str,
    ) -> Result<(String, Instant), HostError> {
        loop {
            match self.next_event(deadline) {
                Some(Event::Line(line, at)) => {
                    self.log.write('<', &line);
                    self.chatter += line.len() + 1;
                    if self.chatter > MAX_CHATTER {
                        self.log.note(&format!(
                            "flooded its output: {} bytes of lines without being asked anything",
                            self.chatter
                        ));
                        return Err(HostError::Flooded(self.chatter));
                    }
                    if !line.trim().is_empty() {
                        return Ok((line, at));
                    }
                }
                Some(Event::TooLong(start)) => {
                    self.log.write('<', &format!("{start}…"));
                    return Err(HostError::Garbage {
                        line: format!("{start}…"),
                        reason: Garbage::TooLong(MAX_LINE),
                    });
                }
                Some(Event::Closed) => {
                    self.put_back(Event::Closed);
                    return Err(self.crashed());
                }
                None => {
                    let after = since.elapsed();
                    self.log
                        .note(&format!("no {waiting_for} within {after:.1?}: gives up"));
                    return Err(HostError::TimedOut { waiting_for, after });
                }
            }
        }
    }

    /// Reads lines until one `want` accepts; other valid replies are logged and passed over.
    /// A timeout says how long it has been since `since` (the handshake's start, over its
    /// retries).
    pub(super) fn wait_for<T>(
        &mut self,
        (since, deadline): (Instant, Instant),
        waiting_for: &'static str,
        want: impl Fn(&EngineReply) -> Option<T>,
    ) -> Result<T, HostError> {
        loop {
            let (line, _) = self.next_line(deadline, since, waiting_for)?;
            if let Some(t) = parse_reply(&line)?.as_ref().and_then(&want) {
                return Ok(t);
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// An engine's line as a reply; `Ok(None)` for a blank one.
pub(super) fn parse_reply(line: &str) -> Result<Option<EngineReply>, HostError> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    EngineReply::parse(line)
        .map(Some)
        .map_err(|e| HostError::Garbage {
            line: shorten(line),
            reason: Garbage::Unreadable(e),
        })
}

//! An external ATSI engine as a child process, played through the protocol ([`taikyoku_protocol::atsi`])
//! with a deadline on every wait.
//!
//! The engine is started with `sh -c COMMAND` (so a command line with arguments, pipes or
//! `cd dir && ./engine` works as typed), in a process group of its own: dropping the
//! [`EngineProcess`] sends `quit`, closes its input and, after a short grace, kills the whole
//! group, so neither the shell nor anything it started outlives the host. A reader thread
//! passes the engine's lines through a bounded channel, so the host never blocks on an engine
//! that stops answering; its standard error goes to an [`EngineLog`], never to the terminal.
//!
//! Every move the engine sends is checked against the legal moves; tomatene's order (the
//! steps after the destination) is accepted with a line in the log, and from then on the
//! engine is sent the opponent's moves in that order too (tomatene reads `opmove` so). An
//! engine that crashes, closes its output, sends garbage or an illegal move, or does not move
//! in time loses: [`HostError`] says which, for the caller to show and record.

use std::collections::VecDeque;
use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_protocol::atsi::{self, AtsiMove, EngineReply, HostCommand, Order, StartPos};
use taikyoku_records::history::History;
use taikyoku_records::timecontrol::{Clocks, TimeControl};

/// How long an engine may take to start and answer `atsiinit` and `identify`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine has to answer `atsiinit v0` before it is offered `v00` (the spec's
/// spelling; ATSA's own host and tomatene use `v0`), and to answer `identify` with `info`
/// before it is named after its command.
const VERSION_RETRY: Duration = Duration::from_secs(2);
/// How long a line to the engine may wait for it to read its input (a pipe holds 64 KiB):
/// an engine that stops reading must not stop the host.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest line read from an engine; a longer one is garbage.
const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the host before the engine is made to wait.
const QUEUE: usize = 256;
/// How long an engine has to exit by itself after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(300);
/// How long the host waits after a move for the `eval` that follows it.
const EVAL_GRACE: Duration = Duration::from_millis(20);
/// The most of an engine's standard error a log keeps (the rest is read and dropped).
const MAX_STDERR: usize = 4 << 20;

/// Where an engine's conversation and standard error go: a file, a shared writer or nowhere.
/// Lines are tagged (`[black] > opmove …`: `>` to the engine, `<` from it, `!` its standard
/// error, `#` a note of the host).
#[derive(Clone)]
pub struct EngineLog {
    sink: Option<Arc<Mutex<Box<dyn Write + Send>>>>,
    tag: String,
}

impl EngineLog {
    /// Appends to `path` (created if missing).
    pub fn file(path: &Path) -> io::Result<EngineLog> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(EngineLog::writer(file))
    }

    pub fn writer(w: impl Write + Send + 'static) -> EngineLog {
        EngineLog {
            sink: Some(Arc::new(Mutex::new(Box::new(w)))),
            tag: String::new(),
        }
    }

    /// Keeps nothing.
    #[allow(dead_code)] // for the terminal game's engines
    pub fn discard() -> EngineLog {
        EngineLog {
            sink: None,
            tag: String::new(),
        }
    }

    /// The same log, its lines tagged `tag` (the engine's role, such as "game 3 black").
    pub fn tagged(&self, tag: &str) -> EngineLog {
        EngineLog {
            sink: self.sink.clone(),
            tag: tag.to_string(),
        }
    }

    fn write(&self, mark: char, text: &str) {
        if let Some(sink) = &self.sink {
            let mut w = sink.lock().unwrap_or_else(|e| e.into_inner());
            // A log that cannot be written is no reason to stop a game.
            let _ = writeln!(w, "[{}] {mark} {text}", self.tag);
            let _ = w.flush();
        }
    }

    /// A note of the host's own (`#`).
    pub fn note(&self, text: &str) {
        self.write('#', text);
    }
}

/// Why an engine lost (or could not play): shown to people and recorded as a forfeit
/// (resignation for [`HostError::Resigned`]).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("could not start `{command}`: {source}")]
    Spawn { command: String, source: io::Error },
    /// The engine exited or closed its output: how.
    #[error("crashed ({0})")]
    Crashed(String),
    #[error("sent no {waiting_for} within {after:.1?}")]
    TimedOut {
        waiting_for: &'static str,
        after: Duration,
    },
    #[error("played an illegal move {text:?}: {reason}")]
    Illegal { text: String, reason: String },
    #[error("sent garbage {line:?}: {reason}")]
    Garbage { line: String, reason: String },
    /// The host cannot tell the engine the game (ATSI knows only ATSA's pieces).
    #[error("cannot be told the game: {0}")]
    Unsupported(String),
    #[error("resigned{}", .0.as_ref().map(|r| format!(" ({r})")).unwrap_or_default())]
    Resigned(Option<String>),
    /// It answered what it was told with `log error: …` instead of moving (an engine that
    /// plays another game or rule set, or does not read our move): it will not move.
    #[error("refused what it was told ({0:?}): is it playing this game and rule set?")]
    Refused(String),
    /// Its input was full for longer than the write timeout.
    #[error("stopped reading its input (a line waited {0:.1?} to be read)")]
    NotReading(Duration),
    /// The host was interrupted (Ctrl-C): every engine was killed.
    #[error("was stopped: the host was interrupted")]
    Interrupted,
}

/// A move the engine played, checked.
#[derive(Clone, Debug)]
#[allow(dead_code)] // eval, info and order are for the terminal game to show
pub struct EngineMove {
    pub mv: Move,
    /// The engine's evaluation after its move, for the first player (Black), as it sent it.
    pub eval: Option<i32>,
    /// The last `log` line it sent while thinking (tomatene: its depth and score).
    pub info: Option<String>,
    /// From sending it the opponent's move (or the start) to reading its move.
    pub elapsed: Duration,
    /// The order its squares came in.
    pub order: Order,
}

/// How a game ended, told to an engine with `win`, `loss` or `draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Loss,
    Draw,
}

/// What the engine reads from its standard output: a line (when it arrived), a line too long
/// to keep, or the end.
enum Event {
    Line(String, Instant),
    TooLong(String),
    Closed,
}

/// The game the engine is playing: its side and how many of the game's moves it knows.
struct Playing {
    side: Side,
    known: usize,
    /// When it was last sent something to answer (startgame or opmove).
    asked: Instant,
}

/// A running ATSI engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    ahead: VecDeque<Event>,
    log: EngineLog,
    name: String,
    /// It writes (and reads) multi-leg moves with the steps after the destination.
    steps_after: bool,
    game: Option<Playing>,
    stopped: bool,
    /// The last line of its standard error (a shell's "not found"), to say why it crashed.
    last_stderr: Arc<Mutex<Option<String>>>,
    stderr_thread: Option<std::thread::JoinHandle<()>>,
    /// How long a write may wait for the engine to read ([`WRITE_TIMEOUT`]).
    write_timeout: Duration,
}

impl EngineProcess {
    /// Starts `sh -c command` and does the handshake: `atsiinit` (answered by `atsiok`), then
    /// `identify` (answered by `info NAME …`, which names the engine; without it, the
    /// command does).
    pub fn spawn(command: &str, log: EngineLog) -> Result<EngineProcess, HostError> {
        EngineProcess::spawn_with(command, log, HANDSHAKE_TIMEOUT)
    }

    /// [`EngineProcess::spawn`], the handshake given `handshake` (an engine may be slow to
    /// load, a test quick to give up).
    pub fn spawn_with(
        command: &str,
        log: EngineLog,
        handshake: Duration,
    ) -> Result<EngineProcess, HostError> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
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
        let registered = register(child.id());
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let (tx, events) = sync_channel(QUEUE);
        if let Some(out) = stdout {
            std::thread::spawn(move || read_lines(out, tx));
        }
        let last_stderr = Arc::new(Mutex::new(None));
        let stderr_thread = stderr.map(|err| {
            let (log, last) = (log.clone(), last_stderr.clone());
            std::thread::spawn(move || copy_stderr(err, &log, &last))
        });
        let mut engine = EngineProcess {
            stdin: child.stdin.take(),
            child,
            events,
            ahead: VecDeque::new(),
            log,
            name: short_name(command),
            steps_after: false,
            game: None,
            stopped: false,
            last_stderr,
            stderr_thread,
            write_timeout: WRITE_TIMEOUT,
        };
        if !registered {
            return Err(HostError::Interrupted);
        }
        if let Some(stdin) = &engine.stdin {
            set_nonblocking(stdin);
        }
        engine.handshake(handshake)?;
        Ok(engine)
    }

    /// The engine's name, from its `info` (or its command when it sent none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its process id, which is also its process group's: the terminal game kills the group
    /// when it quits while the engine thinks (a wait for a move cannot be interrupted).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), HostError> {
        let deadline = Instant::now() + timeout;
        self.send(&HostCommand::AtsiInit {
            version: "v0".into(),
        })?;
        let retry = Instant::now() + VERSION_RETRY;
        match self.wait_for(retry.min(deadline), "atsiok", |r| {
            matches!(r, EngineReply::AtsiOk).then_some(())
        }) {
            Err(HostError::TimedOut { .. }) => {
                self.log
                    .note("no atsiok to `atsiinit v0`: trying the spec's `v00`");
                self.send(&HostCommand::AtsiInit {
                    version: "v00".into(),
                })?;
                self.wait_for(deadline, "atsiok", |r| {
                    matches!(r, EngineReply::AtsiOk).then_some(())
                })?;
            }
            other => other?,
        }
        self.send(&HostCommand::Identify)?;
        // `info` comes at once or not at all (an engine that loads something has done so by
        // its `atsiok`): one that sends none is named after its command without more wait.
        let info_by = deadline.min(Instant::now() + VERSION_RETRY);
        let name = self.wait_for(info_by, "info", |r| match r {
            EngineReply::Info { name, .. } => Some(name.clone()),
            _ => None,
        });
        match name {
            Ok(name) if !name.trim().is_empty() => self.name = name.trim().to_string(),
            Ok(_) => {}
            Err(HostError::TimedOut { .. }) => self
                .log
                .note("no info in answer to identify: named after its command"),
            Err(e) => return Err(e),
        }
        if self.name.eq_ignore_ascii_case("tomatene") {
            self.use_steps_after("it is tomatene");
        }
        Ok(())
    }

    /// Starts a game from the position `history` has reached, the engine playing `side`:
    /// `player`, `time` and `startgame` (`initial` from the game's standard start, else a
    /// TSFEN). Can be called again on the same engine to start over (after an undo).
    pub fn start_game(
        &mut self,
        history: &History,
        side: Side,
        time: TimeControl,
    ) -> Result<(), HostError> {
        let rules = history.rules();
        let pos = history.position();
        let start = if *pos == rules.start_position() {
            StartPos::Initial
        } else {
            let tsfen = notation::tsfen_string(rules, pos).ok_or_else(|| {
                HostError::Unsupported(
                    "the position cannot be written as a TSFEN (a piece has no ATSA code)".into(),
                )
            })?;
            StartPos::Tsfen(tsfen)
        };
        self.send(&HostCommand::Player(side.index() as u8))?;
        self.send(&HostCommand::Time {
            base: time.base.as_secs_f64(),
            increment: time.increment.as_secs_f64(),
        })?;
        self.send(&HostCommand::StartGame(start))?;
        self.game = Some(Playing {
            side,
            known: history.point(),
            asked: Instant::now(),
        });
        Ok(())
    }

    /// Asks for the engine's move in the position `history` has reached (the engine's side
    /// to move): sends the opponent's last move with both clocks (`opmove`, unless the engine
    /// moves first after `startgame`), then reads until its `move` or `deadline`. The move
    /// returned is legal; the caller plays it.
    ///
    /// # Panics
    /// Without [`EngineProcess::start_game`], when it is not the engine's turn, or when more
    /// than one move was played since it last moved (ATSI can tell only one).
    pub fn request_move(
        &mut self,
        history: &History,
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<EngineMove, HostError> {
        let game = self.game.as_ref().expect("start_game first");
        let side = game.side;
        assert_eq!(history.position().to_move(), side, "not the engine's turn");
        let point = history.point();
        let unknown = point
            .checked_sub(game.known)
            .expect("start_game again after an undo");
        match unknown {
            0 => {}
            1 => {
                let before = history.position_at(point - 1);
                let last = &history.played()[point - 1].mv;
                let mut mv = atsi::atsi_move(history.rules(), &before, last);
                if self.steps_after && mv.squares.len() > 2 {
                    // start, steps…, destination → start, destination, steps…
                    mv.squares[1..].rotate_right(1);
                }
                // Milliseconds are plenty, and keep the line short.
                let seconds = |s: Side| (clocks.remaining(s).as_secs_f64() * 1e3).round() / 1e3;
                self.send(&HostCommand::OpMove {
                    mv,
                    time: seconds(side),
                    op_time: seconds(side.opponent()),
                })?;
                self.game.as_mut().expect("playing").asked = Instant::now();
            }
            n => panic!("{n} moves since the engine last moved; ATSI tells one at a time"),
        }
        let played = self.read_move(history, deadline)?;
        self.game.as_mut().expect("playing").known = point + 1;
        Ok(played)
    }

    /// Reads until the engine's move (checked against the legal moves) and the `eval` right
    /// after it.
    fn read_move(&mut self, history: &History, deadline: Instant) -> Result<EngineMove, HostError> {
        let asked = self.game.as_ref().expect("playing").asked;
        let (mut eval, mut info) = (None, None);
        loop {
            let (line, at) = self.next_line(deadline, asked, "move")?;
            let reply = parse_reply(&line)?;
            match reply {
                Some(EngineReply::Move(m)) => {
                    let mv = self.check_move(history, &m)?;
                    if let Some(v) = self.eval_after_move()? {
                        eval = Some(v);
                    }
                    return Ok(EngineMove {
                        mv: mv.0,
                        eval,
                        info,
                        elapsed: at.saturating_duration_since(asked),
                        order: mv.1,
                    });
                }
                Some(EngineReply::Resign(reason)) => return Err(HostError::Resigned(reason)),
                Some(EngineReply::Quit) => {
                    return Err(HostError::Resigned(Some("it quit".into())));
                }
                Some(EngineReply::Eval(v)) => eval = Some(v.round() as i32),
                // ATSI has no error reply; engines (ours) say so in a `log` and wait.
                Some(EngineReply::Log(text)) if text.starts_with("error") => {
                    return Err(HostError::Refused(notation::shorten(&text)));
                }
                Some(EngineReply::Log(text)) => info = Some(text),
                _ => {}
            }
        }
    }

    /// The legal move the engine's squares stand for.
    fn check_move(&mut self, history: &History, m: &AtsiMove) -> Result<(Move, Order), HostError> {
        let first = if self.steps_after {
            Order::StepsAfter
        } else {
            Order::Spec
        };
        let found = atsi::move_from_squares(history.rules(), history.position(), m, first);
        let (mv, order) = found.map_err(|e| HostError::Illegal {
            text: m.to_string(),
            reason: e.to_string(),
        })?;
        if order == Order::StepsAfter && !self.steps_after {
            self.use_steps_after(&format!("it wrote `{m}` so"));
        }
        Ok((mv, order))
    }

    fn use_steps_after(&mut self, why: &str) {
        self.steps_after = true;
        self.log.note(&format!(
            "multi-leg moves in tomatene's order (steps after the destination), against the spec: \
             accepted from it and written so to it, as {why}"
        ));
    }

    /// The `eval` an engine sends right after its move, if it comes at once.
    fn eval_after_move(&mut self) -> Result<Option<i32>, HostError> {
        let soon = Instant::now() + EVAL_GRACE;
        match self.next_event(soon) {
            Some(Event::Line(line, at)) => match parse_reply(&line) {
                Ok(Some(EngineReply::Eval(v))) => {
                    self.log.write('<', &line);
                    Ok(Some(v.round() as i32))
                }
                _ => {
                    self.ahead.push_front(Event::Line(line, at));
                    Ok(None)
                }
            },
            Some(other) => {
                self.ahead.push_front(other);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    /// Tells the engine how the game ended (`win`/`loss`/`draw` with the reason) and asks it
    /// to quit; it is killed if it has not exited after a short grace.
    pub fn finish(&mut self, result: GameResult, reason: &str) {
        let reason = Some(reason.to_string()).filter(|r| !r.is_empty());
        let command = match result {
            GameResult::Win => HostCommand::Win(reason),
            GameResult::Loss => HostCommand::Loss(reason),
            GameResult::Draw => HostCommand::Draw(reason),
        };
        // An engine that cannot be told has already gone (or does not read).
        let _ = self.send_by(&command, Instant::now() + QUIT_GRACE);
        self.game = None;
        self.stop();
    }

    /// `quit`, end of input, a grace to exit, then the whole process group killed.
    fn stop(&mut self) {
        if std::mem::replace(&mut self.stopped, true) {
            return;
        }
        if self.stdin.is_some() {
            let _ = self.send_by(&HostCommand::Quit, Instant::now() + QUIT_GRACE);
            self.stdin = None;
        }
        let exited = self.wait_exit(QUIT_GRACE);
        self.kill_group();
        unregister(self.child.id());
        let status = match exited {
            Some(s) => Some(s),
            None => self.child.wait().ok(),
        };
        if let Some(s) = status {
            self.log.note(&format!("stopped: {}", describe_exit(s)));
        }
    }

    fn kill_group(&mut self) {
        #[cfg(unix)]
        {
            let Ok(pgid) = libc::pid_t::try_from(self.child.id()) else {
                return;
            };
            // SAFETY: kill(2) with a negative pid signals the engine's own process group
            // (created at spawn), nothing else; an error (no such group) is harmless.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
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

    fn send(&mut self, command: &HostCommand) -> Result<(), HostError> {
        self.send_by(command, Instant::now() + self.write_timeout)
    }

    /// Sends a line, waiting until `deadline` at most for the engine to read its input.
    fn send_by(&mut self, command: &HostCommand, deadline: Instant) -> Result<(), HostError> {
        if interrupted() {
            return Err(HostError::Interrupted);
        }
        let mut line = command.to_line();
        self.log.write('>', &line);
        line.push('\n');
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(HostError::Crashed("its input is closed".into()));
        };
        match write_by(stdin, line.as_bytes(), deadline) {
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
        let mut how = match self.wait_exit(Duration::from_millis(200)) {
            Some(s) => describe_exit(s),
            None => "it closed its output".into(),
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
        if let Some(line) = last.as_deref() {
            how = format!("{how}: {}", notation::shorten(line));
        }
        drop(last);
        self.log.note(&format!("crashed: {how}"));
        HostError::Crashed(how)
    }

    fn next_event(&mut self, deadline: Instant) -> Option<Event> {
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

    /// The next non-empty line before `deadline`, logged; a timeout says how long it has
    /// been since `since`.
    fn next_line(
        &mut self,
        deadline: Instant,
        since: Instant,
        waiting_for: &'static str,
    ) -> Result<(String, Instant), HostError> {
        loop {
            match self.next_event(deadline) {
                Some(Event::Line(line, at)) => {
                    self.log.write('<', &line);
                    if !line.trim().is_empty() {
                        return Ok((line, at));
                    }
                }
                Some(Event::TooLong(start)) => {
                    self.log.write('<', &format!("{start}…"));
                    return Err(HostError::Garbage {
                        line: format!("{start}…"),
                        reason: format!("a line longer than {MAX_LINE} bytes"),
                    });
                }
                Some(Event::Closed) => {
                    self.ahead.push_front(Event::Closed);
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
    fn wait_for<T>(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        want: impl Fn(&EngineReply) -> Option<T>,
    ) -> Result<T, HostError> {
        let since = Instant::now();
        loop {
            let (line, _) = self.next_line(deadline, since, waiting_for)?;
            if let Some(t) = parse_reply(&line)?.as_ref().and_then(&want) {
                return Ok(t);
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The process groups of the engines running now, for [`interrupt`] to kill: a fixed table
/// of atomics, which a signal handler may read (a lock it may not take).
static RUNNING: [AtomicI32; 256] = [const { AtomicI32::new(0) }; 256];
/// Set once the host is interrupted: no engine starts or is written to after it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Notes an engine's process group in [`RUNNING`]; false if the host was interrupted (the
/// caller then stops it).
fn register(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return !interrupted();
    };
    // A full table only means this engine is not killed by a signal (its drop still is).
    let _ = RUNNING.iter().find(|slot| {
        slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    !interrupted()
}

fn unregister(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        RUNNING.iter().for_each(|slot| {
            let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
        });
    }
}

/// Whether the host was interrupted (every engine then fails with [`HostError::Interrupted`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Kills every running engine's process group and stops new ones: for Ctrl-C, whose signal
/// does not reach the engines (each runs in a process group of its own). Async-signal-safe:
/// atomics and kill(2) only.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    for slot in &RUNNING {
        let pid = slot.load(Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill(2) with a negative pid signals the engine's own process group
            // (made at its spawn), nothing else; an error (the group is gone) is harmless.
            #[cfg(unix)]
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

/// Makes Ctrl-C (SIGINT), SIGTERM and SIGHUP call [`interrupt`] once; a second signal acts
/// as usual (ends the host at once).
pub fn interrupt_on_signals() {
    #[cfg(unix)]
    {
        extern "C" fn on_signal(_: libc::c_int) {
            interrupt();
        }
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installs a handler that only touches atomics and calls kill(2), both
            // async-signal-safe; SA_RESETHAND restores the default after the first signal.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

/// Makes writes to the engine's input return at once when its pipe is full, so that
/// [`write_by`] can give up at a deadline.
fn set_nonblocking(stdin: &ChildStdin) {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let fd = stdin.as_raw_fd();
        // SAFETY: fcntl(2) on a descriptor this process owns, adding O_NONBLOCK to its flags.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
    }
}

/// Writes all of `bytes` to a non-blocking pipe, waiting for room until `deadline` at most
/// (then `ErrorKind::TimedOut`).
fn write_by(stdin: &mut ChildStdin, mut bytes: &[u8], deadline: Instant) -> io::Result<()> {
    while !bytes.is_empty() {
        match stdin.write(bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() || !wait_writable(stdin, left) {
                    return Err(io::ErrorKind::TimedOut.into());
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Waits up to `wait` for room in the pipe (or for its reader to close it); false if none.
fn wait_writable(stdin: &ChildStdin, wait: Duration) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd {
            fd: stdin.as_raw_fd(),
            events: libc::POLLOUT,
            revents: 0,
        };
        let ms = libc::c_int::try_from(wait.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        // SAFETY: poll(2) on one pollfd that lives through the call.
        let ready = unsafe { libc::poll(&mut fd, 1, ms) };
        ready != 0
    }
    #[cfg(not(unix))]
    {
        std::thread::sleep(wait.min(Duration::from_millis(5)));
        true
    }
}

/// An engine's line as a reply; `Ok(None)` for a blank one.
fn parse_reply(line: &str) -> Result<Option<EngineReply>, HostError> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    EngineReply::parse(line)
        .map(Some)
        .map_err(|e| HostError::Garbage {
            line: notation::shorten(line),
            reason: e.to_string(),
        })
}

/// A name for an engine that gave none: its command's program, without the path.
fn short_name(command: &str) -> String {
    let program = command.split_whitespace().next().unwrap_or(command);
    program.rsplit('/').next().unwrap_or(program).to_string()
}

fn describe_exit(s: ExitStatus) -> String {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&s) {
        return format!("killed by signal {signal}");
    }
    match s.code() {
        Some(code) => format!("exited with status {code}"),
        None => s.to_string(),
    }
}

/// The reader thread: every line of the engine's output, stamped when it arrived, until the
/// end or a line too long (after which it reads no more).
fn read_lines(out: impl Read, tx: SyncSender<Event>) {
    let mut reader = BufReader::new(out);
    loop {
        let mut buf = Vec::new();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let event = match read {
            Ok(0) | Err(_) => Event::Closed,
            Ok(_) if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') => {
                let start = String::from_utf8_lossy(&buf[..80]).into_owned();
                let _ = tx.send(Event::TooLong(start));
                return;
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                Event::Line(line, Instant::now())
            }
        };
        let closed = matches!(event, Event::Closed);
        if tx.send(event).is_err() || closed {
            return;
        }
    }
}

/// The stderr thread: the engine's standard error into the log, up to [`MAX_STDERR`], and
/// its last non-blank line into `last`.
fn copy_stderr(err: impl Read, log: &EngineLog, last: &Mutex<Option<String>>) {
    let mut kept = 0;
    for line in BufReader::new(err).split(b'\n') {
        let Ok(line) = line else { return };
        if kept < MAX_STDERR {
            kept += line.len();
            let text = String::from_utf8_lossy(&line);
            log.write('!', &text);
            if !text.trim().is_empty() {
                *last.lock().unwrap_or_else(|e| e.into_inner()) = Some(text.trim().to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taikyoku_core::game::Game;
    use taikyoku_core::piece::Piece;
    use taikyoku_core::rules::Rules;
    use taikyoku_testkit::fake_engine;

    fn atsa() -> Arc<Rules> {
        Arc::new(Rules::new(Game::builtin("taikyoku").unwrap(), "atsa").unwrap())
    }

    fn quick() -> TimeControl {
        "2+0.1".parse().unwrap()
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(2)
    }

    fn log() -> (EngineLog, Arc<Mutex<Vec<u8>>>) {
        #[derive(Clone)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let buf = Arc::new(Mutex::new(Vec::new()));
        (EngineLog::writer(Shared(buf.clone())), buf)
    }

    fn text(buf: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8_lossy(&buf.lock().unwrap()).into_owned()
    }

    /// An engine playing Black's first move from the opening, as `black_turn` says.
    fn first_move(black_turn: &str) -> (Result<EngineMove, HostError>, String) {
        let cmd = fake_engine("fake", &[black_turn], &[] as &[&str]);
        let (log, buf) = log();
        let rules = atsa();
        let h = History::new(rules.clone(), rules.start_position());
        let mut e = EngineProcess::spawn(&cmd, log).unwrap();
        assert_eq!(e.name(), "fake");
        e.start_game(&h, Side::Black, quick()).unwrap();
        let clocks = Clocks::new(quick());
        let r = e.request_move(&h, &clocks, Instant::now() + Duration::from_millis(700));
        drop(e);
        (r, text(&buf))
    }

    #[test]
    fn a_legal_move_comes_back_checked_with_its_eval_and_log() {
        let (r, log) = first_move("echo 'log depth 1'; echo 'move 19z 19y'; echo 'eval 12.6'");
        let m = r.unwrap();
        assert_eq!(m.mv.from, atsa().dims().parse_square("19.26").unwrap());
        assert_eq!(m.mv.to, atsa().dims().parse_square("19.25").unwrap());
        assert_eq!((m.eval, m.info.as_deref()), (Some(13), Some("depth 1")));
        assert_eq!(m.order, Order::Spec);
        assert!(m.elapsed < Duration::from_millis(700));
        for line in [
            "> atsiinit v0",
            "< atsiok",
            "> identify",
            "> player 0",
            "> time 2 0.1",
            "> startgame initial",
            "< move 19z 19y",
            "> quit",
        ] {
            assert!(log.contains(line), "{line} in\n{log}");
        }
    }

    #[test]
    fn each_failure_is_told_apart() {
        let (r, log) = first_move("echo 'move 19z 19w'");
        assert!(
            matches!(r, Err(HostError::Illegal { ref text, .. }) if text == "19z 19w"),
            "{r:?}"
        );
        assert!(log.contains("< move 19z 19w"));
        let (r, _) = first_move("exit 3");
        assert!(
            matches!(r, Err(HostError::Crashed(ref how)) if how == "exited with status 3"),
            "{r:?}"
        );
        let (r, _) = first_move("echo 'hello there'");
        assert!(
            matches!(r, Err(HostError::Garbage { ref line, .. }) if line == "hello there"),
            "{r:?}"
        );
        let (r, _) = first_move("echo 'log error: opmove: no such move'");
        assert!(
            matches!(r, Err(HostError::Refused(ref why)) if why == "error: opmove: no such move"),
            "{r:?}"
        );
        let (r, _) = first_move("echo 'resign tired'");
        assert!(
            matches!(r, Err(HostError::Resigned(Some(ref why))) if why == "tired"),
            "{r:?}"
        );
        let started = Instant::now();
        let (r, log) = first_move("sleep 30");
        assert!(
            matches!(
                r,
                Err(HostError::TimedOut {
                    waiting_for: "move",
                    ..
                })
            ),
            "{r:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "killed, not waited for"
        );
        assert!(log.contains("no move within"), "{log}");
        let (r, log) = first_move("echo 'oops' >&2; echo 'move 19z 19y'");
        assert!(r.is_ok());
        assert!(
            log.contains("! oops"),
            "standard error goes to the log: {log}"
        );
    }

    #[test]
    fn a_silent_or_missing_engine_fails_the_handshake() {
        let (log, _) = log();
        let r = EngineProcess::spawn("exit 0", log.clone());
        assert!(matches!(r, Err(HostError::Crashed(_))), "{:?}", r.err());
        let r = EngineProcess::spawn("/no/such/engine", log);
        // Its last words say why: the shell did not find it.
        assert!(
            matches!(r, Err(HostError::Crashed(ref how))
                if how.contains("status 127: ") && how.contains("/no/such/engine")),
            "{:?}",
            r.err()
        );
    }

    /// An engine that answers only the spec's `atsiinit v00` is offered it after a wait.
    #[test]
    fn the_spec_version_is_offered_when_v0_is_not_answered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("strict.sh");
        std::fs::write(
            &path,
            "while read -r c v; do case \"$c $v\" in 'atsiinit v00') echo atsiok;; 'identify ') echo 'info \"Strict one\"';; esac; done\n",
        )
        .unwrap();
        let (log, buf) = log();
        let e = EngineProcess::spawn(&format!("sh {}", path.display()), log).unwrap();
        assert_eq!(e.name(), "Strict one");
        assert!(text(&buf).contains("> atsiinit v00"));
        assert_eq!(short_name("/usr/local/bin/tomatene --fast"), "tomatene");
    }

    /// A lion taking two pieces, written in tomatene's order (steps after the destination),
    /// is accepted and noted; the engine is then sent such moves in that order.
    #[test]
    fn tomatene_order_is_accepted_and_spoken_back() {
        let rules = atsa();
        let d = rules.dims();
        let sq = |s: &str| d.parse_square(s).unwrap();
        let mut pos = rules.empty_position();
        let piece = |code: &str, side| Piece {
            kind: rules.catalogue().by_code(code).unwrap(),
            side,
            promoted: false,
        };
        for (s, code, side) in [
            ("18.18", "LN", Side::Black),
            ("18.17", "P", Side::White),
            ("18.16", "P", Side::White),
            ("1.36", "K", Side::Black),
            ("36.1", "K", Side::White),
            ("30.2", "LN", Side::White),
            ("30.3", "P", Side::Black),
            ("30.4", "P", Side::Black),
        ] {
            rules.put(&mut pos, sq(s), Some(piece(code, side)));
        }
        let mut h = History::new(rules.clone(), pos);
        let cmd = fake_engine("tom", &["echo 'move 18r 18p 18q'"], &[] as &[&str]);
        let (log, buf) = log();
        let mut e = EngineProcess::spawn(&cmd, log).unwrap();
        e.start_game(&h, Side::Black, quick()).unwrap();
        assert!(text(&buf).contains("> startgame "), "a TSFEN");
        assert!(!text(&buf).contains("startgame initial"));
        let clocks = Clocks::new(quick());
        let m = e.request_move(&h, &clocks, soon()).unwrap();
        assert_eq!(m.order, Order::StepsAfter);
        assert_eq!((m.mv.from, m.mv.to), (sq("18.18"), sq("18.16")));
        assert_eq!(m.mv.path(), [sq("18.17")]);
        assert!(text(&buf).contains("tomatene's order"), "{}", text(&buf));
        h.play(&m.mv).unwrap();
        // White's lion takes both black pawns: told to the engine steps last.
        let reply = rules
            .moves_from(h.position(), sq("30.2"))
            .into_iter()
            .find(|m| m.to == sq("30.4") && m.path() == [sq("30.3")])
            .unwrap();
        h.play(&reply).unwrap();
        let _ = e.request_move(&h, &clocks, Instant::now() + Duration::from_millis(100));
        assert!(
            text(&buf).contains("> opmove 30b 30d 30c "),
            "{}",
            text(&buf)
        );
    }

    /// An engine that stops reading its input does not block the host: once its pipe is
    /// full, a write gives up at its deadline and the engine loses.
    #[test]
    fn an_engine_that_stops_reading_loses_instead_of_blocking_the_host() {
        let rules = atsa();
        let mut h = History::new(rules.clone(), rules.start_position());
        for _ in 0..2 {
            let m = rules.legal_moves(h.position())[0];
            h.play(&m).unwrap();
        }
        // Its first turn (Black's, at startgame) sleeps: it reads nothing more.
        let cmd = fake_engine("deaf", &["sleep 300"], &[] as &[&str]);
        let (log, buf) = log();
        let mut e = EngineProcess::spawn(&cmd, log).unwrap();
        e.write_timeout = Duration::from_millis(200);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // Each start sends a TSFEN of about 3 KiB: the pipe's 64 KiB fill up.
            let r = (0..200).try_for_each(|_| e.start_game(&h, Side::Black, quick()));
            let _ = tx.send(r);
        });
        let r = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the host blocked on an engine that does not read");
        assert!(matches!(r, Err(HostError::NotReading(_))), "{r:?}");
        assert!(text(&buf).contains("its input was not read within"));
    }

    /// Whatever the engine started is killed with it: no orphans.
    #[test]
    fn dropping_the_engine_kills_its_whole_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let engine = fake_engine("parent", &[] as &[&str], &[] as &[&str]);
        let pid_file = dir.path().join("child.pid");
        let cmd = format!("sleep 300 & echo $! > {}; {engine}", pid_file.display());
        let (log, _) = log();
        let e = EngineProcess::spawn(&cmd, log).unwrap();
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let alive = || {
            std::process::Command::new("kill")
                .args(["-0", pid.trim()])
                .stderr(Stdio::null())
                .status()
                .unwrap()
                .success()
        };
        assert!(alive());
        drop(e);
        // The killed sleep is reaped by init; give it a moment.
        let end = Instant::now() + Duration::from_secs(2);
        while alive() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(), "the engine's child outlived it");
    }
}

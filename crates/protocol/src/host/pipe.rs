//! The engine's pipes: a reader thread for its output (lines stamped when they arrived, at
//! most [`MAX_LINE`] bytes each), one for its standard error (into the log), and writes to
//! its input that give up at a deadline instead of blocking on an engine that stops reading.

use super::log::EngineLog;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::ChildStdin;
use std::sync::Mutex;
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

/// The longest line read from an engine; a longer one is garbage.
pub(super) const MAX_LINE: usize = 64 * 1024;
/// The most of an engine's standard error a log keeps (the rest is read and dropped).
const MAX_STDERR: usize = 4 << 20;

/// What the engine reads from its standard output: a line (when it arrived), a line too long
/// to keep, or the end.
pub(super) enum Event {
    Line(String, Instant),
    TooLong(String),
    Closed,
}

/// Makes writes to the engine's input return at once when its pipe is full, so that
/// [`write_by`] can give up at a deadline.
pub(super) fn set_nonblocking(stdin: &ChildStdin) {
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
pub(super) fn write_by(
    stdin: &mut ChildStdin,
    mut bytes: &[u8],
    deadline: Instant,
) -> io::Result<()> {
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

/// The reader thread: every line of the engine's output, stamped when it arrived, until the
/// end or a line too long (after which it reads no more).
pub(super) fn read_lines(out: impl Read, tx: SyncSender<Event>) {
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
pub(super) fn copy_stderr(err: impl Read, log: &EngineLog, last: &Mutex<Option<String>>) {
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

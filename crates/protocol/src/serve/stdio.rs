//! The engine on stdin/stdout: a line per message, each at most [`MAX_MESSAGE`] bytes; log
//! lines on stderr (`taikyoku engine: …`), which the host keeps.

use super::MAX_MESSAGE;
use super::interrupt::{Interrupt, ends_search};
use super::session::{Flow, Session, SessionLog};
use super::settings::Settings;
use crate::atsi::EngineReply;
use std::io::{self, BufRead, Write};
use std::sync::{Arc, mpsc};
use taikyoku_core::rules::Rules;

/// A line the engine does not read, answered with an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("a line longer than {MAX_MESSAGE} bytes: ignored")]
    TooLong,
    #[error("a line that is not UTF-8: ignored")]
    NotUtf8,
}

/// Reads a line of at most [`MAX_MESSAGE`] bytes; a longer one is skipped to its end and
/// reported as an error, so a host cannot make the engine hold unbounded input.
fn read_line(r: &mut impl BufRead) -> io::Result<Option<Result<String, LineError>>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            if buf.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long && buf.len() + take <= MAX_MESSAGE + 1 {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            too_long = true;
            buf.clear();
        }
        r.consume(take);
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(LineError::TooLong)));
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Some(String::from_utf8(buf).map_err(|_| LineError::NotUtf8)))
}

/// The engine on stdin/stdout. A reader thread passes the lines on and stops a search when
/// the host ends the game or the session.
pub fn stdio(rules: Arc<Rules>, settings: Settings) -> io::Result<()> {
    let interrupt = Interrupt::default();
    let (tx, rx) = mpsc::channel();
    let reader = interrupt.clone();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            let line = read_line(&mut input).unwrap_or(None);
            let ends = match &line {
                None => true,
                Some(Ok(l)) => ends_search(l),
                Some(Err(_)) => false,
            };
            if ends {
                reader.raise();
            }
            let eof = line.is_none();
            if tx.send(line).is_err() || eof {
                break;
            }
        }
    });
    let mut session = Session::new(rules, settings, interrupt, SessionLog::Lines);
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    while let Ok(Some(line)) = rx.recv() {
        let mut send = |r: EngineReply| {
            if failed.is_none() {
                failed = writeln!(out, "{}", r.to_line())
                    .and_then(|()| out.flush())
                    .err();
            }
        };
        let flow = match line {
            Ok(l) => session.handle(&l, &mut send),
            Err(e) => {
                session.error(&e.to_string(), &mut send);
                Flow::Continue
            }
        };
        if let Some(e) = failed.take() {
            return Err(e);
        }
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

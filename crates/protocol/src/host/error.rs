//! Why an engine lost or could not play, each case typed.

use crate::atsi::AtsiError;
use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::time::Duration;

/// Why an engine lost (or could not play): shown to people and recorded as a forfeit
/// (resignation for [`HostError::Resigned`]).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("could not start `{command}`: {source}")]
    Spawn { command: String, source: io::Error },
    /// The engine exited or closed its output: how.
    #[error("crashed ({0})")]
    Crashed(Crash),
    #[error("sent no {waiting_for} within {after:.1?}")]
    TimedOut {
        waiting_for: &'static str,
        after: Duration,
    },
    #[error("played an illegal move {text:?}: {reason}")]
    Illegal { text: String, reason: AtsiError },
    #[error("sent garbage {line:?}: {reason}")]
    Garbage { line: String, reason: Garbage },
    /// The host cannot tell the engine the game: the position has a piece without an ATSA
    /// code, so no TSFEN (ATSI knows only ATSA's pieces).
    #[error(
        "cannot be told the game: the position cannot be written as a TSFEN (a piece has no ATSA code)"
    )]
    NoTsfen,
    /// Its reason, if it gave one.
    #[error("resigned{}", .0.as_ref().map(|r| format!(" ({r})")).unwrap_or_default())]
    Resigned(Option<String>),
    /// It answered what it was told with `log error: …` instead of moving (an engine that
    /// plays another game or rule set, or does not read our move): it will not move. Holds
    /// its log line.
    #[error("refused what it was told ({0:?}): is it playing this game and rule set?")]
    Refused(String),
    /// It announced the rule sets it can play (its `rules` parameter), and the host's is
    /// not among them: refused before the first move.
    #[error("plays the rule sets {offered}, not {rules}: this game cannot be played with it")]
    RulesMismatch { rules: String, offered: String },
    /// Its input was full for longer than the write timeout.
    #[error("stopped reading its input (a line waited {0:.1?} to be read)")]
    NotReading(Duration),
    /// The host was interrupted (Ctrl-C): every engine was killed.
    #[error("was stopped: the host was interrupted")]
    Interrupted,
}

/// How an engine went: its end and its last words on standard error (a shell's "not found").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crash {
    pub ending: Ending,
    pub last_words: Option<String>,
}

/// How an engine's process ended, as far as the host could tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Exited(ExitStatus),
    /// Its output closed and it had not exited yet.
    ClosedOutput,
    /// Its input was closed already (it stopped reading, or was stopped).
    InputClosed,
}

/// Why a line from an engine is garbage.
#[derive(Debug, thiserror::Error)]
pub enum Garbage {
    #[error(transparent)]
    Unreadable(AtsiError),
    #[error("a line longer than {0} bytes")]
    TooLong(usize),
}

impl fmt::Display for Crash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.ending)?;
        match &self.last_words {
            Some(w) => write!(f, ": {w}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Ending::Exited(s) => {
                #[cfg(unix)]
                if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&s) {
                    return write!(f, "killed by signal {signal}");
                }
                match s.code() {
                    Some(code) => write!(f, "exited with status {code}"),
                    None => write!(f, "{s}"),
                }
            }
            Ending::ClosedOutput => f.write_str("it closed its output"),
            Ending::InputClosed => f.write_str("its input is closed"),
        }
    }
}

//! The codec: ATSI's lines as typed messages and back. [`HostCommand`] is what a host sends,
//! [`EngineReply`] what an engine answers; both read one line (`parse`) and write one
//! (`to_line`). Below them, the grammar they share: a line's command word and arguments,
//! numbers, free texts, quoted words, and a move as its squares ([`AtsiMove`]).

mod command;
mod reply;

pub use command::{HostCommand, StartPos};
pub use reply::{EngineReply, ParamType};

use super::error::{AtsiError, MAX_MOVE_SQUARES, MoveProblem};
use super::square::AtsiSquare;
use std::fmt;
use taikyoku_core::notation::shorten;

/// A move as ATSI squares, in the order written, with our extension for rule sets where
/// promotion is a choice (never needed under ATSA's rules): `+` after the last square
/// promotes, `=` declines; without it the move does not promote when it may choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtsiMove {
    pub squares: Vec<AtsiSquare>,
    pub promote: Option<bool>,
}

impl fmt::Display for AtsiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        match self.promote {
            Some(true) => f.write_str("+"),
            Some(false) => f.write_str("="),
            None => Ok(()),
        }
    }
}

impl AtsiMove {
    /// Reads the squares of a `move` (or of an `opmove`, without its clocks).
    pub fn parse_tokens(tokens: &[&str]) -> Result<AtsiMove, AtsiError> {
        if tokens.len() < 2 {
            return Err(AtsiError::IllegalMove {
                text: tokens.join(" "),
                why: MoveProblem::TooFewSquares,
            });
        }
        if tokens.len() > MAX_MOVE_SQUARES {
            return Err(AtsiError::IllegalMove {
                text: shorten(&tokens.join(" ")),
                why: MoveProblem::TooManySquares,
            });
        }
        let (last, promote) = split_promotion(tokens[tokens.len() - 1]);
        let mut squares = tokens[..tokens.len() - 1]
            .iter()
            .map(|t| t.parse())
            .collect::<Result<Vec<AtsiSquare>, _>>()?;
        squares.push(last.parse()?);
        Ok(AtsiMove { squares, promote })
    }
}

impl std::str::FromStr for AtsiMove {
    type Err = AtsiError;
    fn from_str(s: &str) -> Result<AtsiMove, AtsiError> {
        AtsiMove::parse_tokens(&s.split_ascii_whitespace().collect::<Vec<_>>())
    }
}

fn split_promotion(t: &str) -> (&str, Option<bool>) {
    match t.as_bytes().last() {
        Some(b'+') => (&t[..t.len() - 1], Some(true)),
        Some(b'=') => (&t[..t.len() - 1], Some(false)),
        _ => (t, None),
    }
}

/// A finite number as ATSI writes it (`900`, `899.5`, `-1.25`).
fn number(t: &str) -> Option<f64> {
    let ok = !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    t.parse::<f64>().ok().filter(|v| ok && v.is_finite())
}

/// The command word and the rest of a line (leading and trailing white space dropped; ATSI
/// separates by one space, a `\r` of a Windows host or extra spaces are forgiven).
fn split_command(line: &str) -> Result<(&str, &str), AtsiError> {
    let line = line.trim();
    if line.is_empty() {
        return Err(AtsiError::Empty);
    }
    Ok(match line.split_once(char::is_whitespace) {
        Some((c, rest)) => (c, rest.trim()),
        None => (line, ""),
    })
}

/// The rest of a line as an optional free text (a reason, a log message).
fn text(rest: &str) -> Option<String> {
    (!rest.is_empty()).then(|| rest.to_string())
}

/// A command word with an optional free text after it (`loss time forfeit`).
fn with_text(command: &str, t: &Option<String>) -> String {
    match t {
        Some(t) => format!("{command} {t}"),
        None => command.to_string(),
    }
}

fn no_more(command: &'static str, rest: &[&str]) -> Result<(), AtsiError> {
    match rest.first() {
        None => Ok(()),
        Some(_) => Err(AtsiError::Extra {
            command,
            text: shorten(&rest.join(" ")),
        }),
    }
}

fn num_arg(command: &'static str, what: &'static str, t: Option<&&str>) -> Result<f64, AtsiError> {
    let t = t.ok_or(AtsiError::Missing { command, what })?;
    number(t).ok_or_else(|| AtsiError::BadArgument {
        command,
        what,
        expected: "a number of seconds",
        text: shorten(t),
    })
}

fn unknown(command: &str) -> AtsiError {
    AtsiError::UnknownCommand(shorten(command))
}

#[cfg(test)]
mod tests;

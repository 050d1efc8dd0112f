//! What can be wrong with a line of ATSI or with the move it names: one error type for the
//! codec and the move matching, each case typed (the offending text is kept, shortened).

use super::square::{AtsiSquare, SquareError};
use taikyoku_core::geometry::Side;

/// The most squares a move may list (start, steps, destination): ATSA's free eagle could list
/// every piece it takes along a line.
pub const MAX_MOVE_SQUARES: usize = 40;

/// What was wrong with a line or a move.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AtsiError {
    #[error("empty line")]
    Empty,
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    #[error("{command}: missing {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("{command}: unexpected {text:?} after the arguments")]
    Extra { command: &'static str, text: String },
    #[error("{command}: {what} must be {expected}, not {text:?}")]
    BadArgument {
        command: &'static str,
        what: &'static str,
        expected: &'static str,
        text: String,
    },
    #[error("unsupported ATSI version {0:?} (supported: v00, and v0 as ATSA's host sends it)")]
    UnsupportedVersion(String),
    #[error(transparent)]
    BadSquare(#[from] SquareError),
    #[error("{text:?}: {why}")]
    BadParamType { text: String, why: &'static str },
    #[error("unclosed quote in {0:?}")]
    UnclosedQuote(String),
    #[error("move {text:?}: {why}")]
    IllegalMove { text: String, why: MoveProblem },
}

/// Why squares stand for no legal move. `kind` is the piece's name in the rules' catalogue.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    #[error("a move needs at least its start and destination squares")]
    TooFewSquares,
    #[error("more than {MAX_MOVE_SQUARES} squares")]
    TooManySquares,
    #[error("there is no piece on {at}")]
    NoPiece { at: AtsiSquare },
    #[error("the game is over ({winner} won)")]
    GameOver { winner: Side },
    #[error("the {kind} on {at} is {owner}'s, and it is {to_move}'s turn")]
    NotItsTurn {
        kind: String,
        at: AtsiSquare,
        owner: Side,
        to_move: Side,
    },
    #[error("the {kind} on {at} has no legal move")]
    NoLegalMove { kind: String, at: AtsiSquare },
    /// It reaches the destination, but not by the steps given.
    #[error("the {kind} on {at} cannot reach {to} that way")]
    NotThatWay {
        kind: String,
        at: AtsiSquare,
        to: AtsiSquare,
    },
    #[error("the {kind} on {at} cannot reach {to}")]
    Unreachable {
        kind: String,
        at: AtsiSquare,
        to: AtsiSquare,
    },
}

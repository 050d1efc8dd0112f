//! ATSI v00, the Australian Taikyoku Shogi Interface (the protocol on the About page of
//! taikyoku-shogi.github.io): its squares, the host's commands, the engine's replies, and moves
//! written as ATSI square lists, matched against our legal moves.
//!
//! Pure text in, text out: the engine session (`taikyoku engine`) and the host (`taikyoku
//! match`) do the talking. Squares are `FILE RANK`: files
//! counted from the first player's right (`1`…`36`), ranks from the second player's side as
//! letters (`a`…`z`, then `aa`…`jj`). On our board that is the file of
//! [`Dims::square_name`](taikyoku_core::geometry::Dims::square_name) and its rank as a letter:
//! Black's king starts on `19jj`, White's on `18a`.
//!
//! A move is its start, its steps, its destination (`move 26z 26y 26x`). The protocol asks for
//! the steps only where paths to the destination differ in outcome (a lion taking twice, igui,
//! a hook mover crossing into the promotion zone); [`move_to_atsi`] writes them exactly then.
//! tomatene writes the steps after the destination (`18r 18p 18q`): [`move_from_atsi`] accepts
//! that order too when the spec's order fits no move, and says which it used.
//!
//! Bottom to top: [`square`] → [`error`] → [`codec`] (lines ↔ messages) → [`moves`] (squares
//! ↔ legal moves) → [`atsa_host`] (what ATSA's web host can judge).

pub mod atsa_host;
pub mod codec;
pub mod error;
pub mod moves;
pub mod square;
#[cfg(test)]
mod test_support;

/// Not in v00: the parameter an engine of this program announces (`param rules enum[…]`, the
/// rule sets of its game) and a host sets (`setparam rules NAME`) to the rule set it judges.
pub const RULES_PARAM: &str = "rules";

pub use atsa_host::AtsaHost;
pub use codec::{AtsiMove, EngineReply, HostCommand, ParamType, StartPos};
pub use error::{AtsiError, MAX_MOVE_SQUARES, MoveProblem};
pub use moves::{Order, atsi_move, move_from_atsi, move_from_squares, move_to_atsi};
pub use square::{AtsiSquare, SquareError, SquareProblem, format_square, parse_square};

//! A piece, and how a board cell holds one: 16 bits, so that the mailbox is small and a cell is
//! compared and hashed as a number.

use crate::catalogue::KindId;
use crate::geometry::Side;

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: KindId,
    pub side: Side,
    /// Promoted pieces never promote again, even when their kind also exists unpromoted.
    pub promoted: bool,
}

/// A board cell packed in 16 bits: 0 empty, `OFF` outside the board, otherwise a piece.
pub type Cell = u16;
pub const EMPTY: Cell = 0;
pub const OFF: Cell = u16::MAX;

pub fn encode(p: Piece) -> Cell {
    ((p.kind + 1) << 2) | ((p.promoted as u16) << 1) | p.side as u16
}

pub fn decode(c: Cell) -> Option<Piece> {
    (c != EMPTY && c != OFF).then(|| Piece {
        kind: (c >> 2) - 1,
        side: if c & 1 == 0 { Side::Black } else { Side::White },
        promoted: c & 2 != 0,
    })
}

pub fn cell_side(c: Cell) -> usize {
    (c & 1) as usize
}

//! A position: the pieces on the board, the side to move and how the game stands.
//!
//! The board is a mailbox with a border of off-board cells wide enough for the longest leap, so
//! the move generator never checks coordinates.

use crate::catalogue::KindId;
use crate::geometry::{Dims, Side, Square};

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: KindId,
    pub side: Side,
    /// Promoted pieces never promote again, even when their kind also exists unpromoted.
    pub promoted: bool,
}

/// A board cell packed in 16 bits: 0 empty, `OFF` outside the board, otherwise a piece.
pub(crate) type Cell = u16;
pub(crate) const EMPTY: Cell = 0;
pub(crate) const OFF: Cell = u16::MAX;

pub(crate) fn encode(p: Piece) -> Cell {
    ((p.kind + 1) << 2) | ((p.promoted as u16) << 1) | p.side as u16
}

pub(crate) fn decode(c: Cell) -> Option<Piece> {
    (c != EMPTY && c != OFF).then(|| Piece {
        kind: (c >> 2) - 1,
        side: if c & 1 == 0 { Side::Black } else { Side::White },
        promoted: c & 2 != 0,
    })
}

pub(crate) fn cell_side(c: Cell) -> usize {
    (c & 1) as usize
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser's last royal piece was captured.
    RoyalsCaptured,
    /// The loser had no legal move.
    NoLegalMove,
    Resignation,
}

impl EndReason {
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::RoyalsCaptured => "the last royal piece was captured",
            EndReason::NoLegalMove => "no legal move",
            EndReason::Resignation => "resignation",
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Side,
    pub reason: EndReason,
}

/// Pieces on a board, the side to move, and whether the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    dims: Dims,
    pad: usize,
    stride: usize,
    cells: Box<[Cell]>,
    to_move: Side,
    royals: [u16; 2],
    /// Moves played since the start position.
    pub ply: u32,
    outcome: Option<Outcome>,
}

impl Position {
    /// An empty board with Black to move. `pad` is the border width (the longest leap).
    pub(crate) fn empty(dims: Dims, pad: usize) -> Position {
        let stride = dims.files as usize + 2 * pad;
        let height = dims.ranks as usize + 2 * pad;
        let mut cells = vec![OFF; stride * height].into_boxed_slice();
        for y in 0..dims.ranks as usize {
            for x in 0..dims.files as usize {
                cells[(y + pad) * stride + x + pad] = EMPTY;
            }
        }
        Position {
            dims,
            pad,
            stride,
            cells,
            to_move: Side::Black,
            royals: [0, 0],
            ply: 0,
            outcome: None,
        }
    }

    pub fn dims(&self) -> Dims {
        self.dims
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Sets the side to move (for building positions by hand).
    pub fn set_to_move(&mut self, side: Side) {
        self.to_move = side;
    }

    /// How the game ended, if it has (royal capture or resignation; see
    /// [`crate::rules::Rules::outcome`] for "no legal move").
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub(crate) fn set_outcome(&mut self, o: Option<Outcome>) {
        self.outcome = o;
    }

    /// Royal pieces (kings, princes) a side still has.
    pub fn royals(&self, side: Side) -> u16 {
        self.royals[side.index()]
    }

    #[inline]
    pub(crate) fn index(&self, sq: Square) -> usize {
        let (x, y) = self.dims.xy(sq);
        (y as usize + self.pad) * self.stride + x as usize + self.pad
    }

    #[inline]
    pub(crate) fn square_of(&self, idx: usize) -> Square {
        let (y, x) = (idx / self.stride - self.pad, idx % self.stride - self.pad);
        Square((y * self.dims.files as usize + x) as u16)
    }

    #[inline]
    pub(crate) fn stride(&self) -> usize {
        self.stride
    }

    #[inline]
    pub(crate) fn cells(&self) -> &[Cell] {
        &self.cells
    }

    #[inline]
    pub(crate) fn cell(&self, idx: usize) -> Cell {
        self.cells[idx]
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.cells[self.index(sq)])
    }

    /// Puts a piece on a square (or empties it), keeping the royal counts; `royal` says whether
    /// a kind is royal.
    pub(crate) fn put(&mut self, sq: Square, piece: Option<Piece>, royal: &dyn Fn(KindId) -> bool) {
        let idx = self.index(sq);
        self.put_index(idx, piece.map_or(EMPTY, encode), royal);
    }

    pub(crate) fn put_index(&mut self, idx: usize, cell: Cell, royal: &dyn Fn(KindId) -> bool) {
        if let Some(old) = decode(self.cells[idx])
            && royal(old.kind)
        {
            self.royals[old.side.index()] -= 1;
        }
        if let Some(new) = decode(cell)
            && royal(new.kind)
        {
            self.royals[new.side.index()] += 1;
        }
        self.cells[idx] = cell;
    }

    /// Every piece with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.dims
            .squares()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for kind in [0u16, 1, 300, 4000] {
            for side in Side::BOTH {
                for promoted in [false, true] {
                    let p = Piece {
                        kind,
                        side,
                        promoted,
                    };
                    let c = encode(p);
                    assert_ne!(c, EMPTY);
                    assert_ne!(c, OFF);
                    assert_eq!(decode(c), Some(p));
                    assert_eq!(cell_side(c), side.index());
                }
            }
        }
    }

    #[test]
    fn border_is_off_board_and_squares_map_back() {
        let dims = Dims { files: 5, ranks: 4 };
        let p = Position::empty(dims, 2);
        for sq in dims.squares() {
            let i = p.index(sq);
            assert_eq!(p.cell(i), EMPTY);
            assert_eq!(p.square_of(i), sq);
        }
        assert_eq!(p.cells().iter().filter(|&&c| c == OFF).count(), 9 * 8 - 20);
    }
}

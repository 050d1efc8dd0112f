//! A position: the pieces on the board, the side to move and how the game stands.
//!
//! The board is a mailbox with a border of off-board cells wide enough for the longest leap, so
//! the move generator never checks coordinates.
//!
//! Beside the cells a position keeps, updated on every change: the royal counts, a Zobrist hash
//! ([`crate::zobrist`]) and, per side, the set of occupied cells. The sets are bit sets over the
//! mailbox rather than lists of squares: adding and removing are O(1), they iterate in square
//! order (so moves come out in the same order as a scan of the board), and taking a move back
//! restores them exactly with no bookkeeping. Iterating 1,936 cells' worth of bits is 31 words.

use crate::catalogue::KindId;
use crate::geometry::{Dims, Side, Square};
use crate::piece::{Cell, EMPTY, OFF, Piece, cell_side, decode, encode};
use crate::zobrist;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser's last royal piece was captured.
    RoyalsCaptured,
    /// The loser had no legal move.
    NoLegalMove,
    Resignation,
    /// The loser's time ran out (a host keeps the clocks).
    Time,
    /// The loser broke the protocol it played by: an engine that sent an illegal move or
    /// garbage, crashed or stopped answering.
    Forfeit,
}

impl EndReason {
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::RoyalsCaptured => "the last royal piece was captured",
            EndReason::NoLegalMove => "no legal move",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time forfeit",
            EndReason::Forfeit => "forfeit",
        }
    }

    /// An ending the side to move concedes, which the moves cannot show (resignation, time,
    /// forfeit): the record says it, and a replay applies it after the last move.
    pub fn is_conceded(self) -> bool {
        matches!(
            self,
            EndReason::Resignation | EndReason::Time | EndReason::Forfeit
        )
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Side,
    pub reason: EndReason,
}

/// The most moves a position may say were played (far beyond any game; the counter never
/// wraps).
pub const MAX_PLY: u32 = 1_000_000_000;

/// A position as a text describes it, before it is checked (shakmaty's `Setup`): pieces on
/// squares, the side to move, the moves played. [`crate::rules::Rules::position`] is the one
/// step that checks it against the game and its rule set and makes the [`Position`], whatever
/// format it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub pieces: Vec<(Square, Piece)>,
    pub to_move: Side,
    pub ply: u32,
}

/// Pieces on a board, the side to move, and whether the game is over.
///
/// Two positions are equal when their boards, side to move, move number and outcome are; the
/// derived data (hash, piece sets, royal counts) follows from those.
#[derive(Clone, Debug)]
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
    hash: u64,
    /// Per side, a bit per mailbox cell holding one of its pieces.
    occupied: [Box<[u64]>; 2],
    /// Pieces on the board per kind and side (index `kind * 2 + side`), sized for the
    /// catalogue when the board is made: game rules that depend on whether a kind is still on
    /// the board read it.
    counts: Box<[u16]>,
    /// The last move took a piece whose trade is restricted with a piece that is not one of
    /// them, so the counter-strike rule holds now ([`crate::params::Trade`]); always false in
    /// games without those rules.
    struck: bool,
    /// The pieces moves made with [`crate::rules::Rules::make`] removed, with their cells, so
    /// that `unmake` can put them back: one stack per position, so no allocation per move.
    pub(crate) removed: Vec<(u32, Cell)>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.dims == other.dims
            && self.to_move == other.to_move
            && self.ply == other.ply
            && self.outcome == other.outcome
            && self.struck == other.struck
            && self.cells == other.cells
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
        self.ply.hash(state);
        self.outcome.hash(state);
    }
}

impl Position {
    /// An empty board with Black to move, for a catalogue of `kinds` kinds. `pad` is the border
    /// width (the longest leap).
    pub(crate) fn empty(dims: Dims, pad: usize, kinds: usize) -> Position {
        let stride = dims.files as usize + 2 * pad;
        let height = dims.ranks as usize + 2 * pad;
        let mut cells = vec![OFF; stride * height].into_boxed_slice();
        for y in 0..dims.ranks as usize {
            for x in 0..dims.files as usize {
                cells[(y + pad) * stride + x + pad] = EMPTY;
            }
        }
        let words = cells.len().div_ceil(64);
        Position {
            dims,
            pad,
            stride,
            cells,
            to_move: Side::Black,
            royals: [0, 0],
            ply: 0,
            outcome: None,
            hash: 0,
            occupied: [vec![0; words].into(), vec![0; words].into()],
            counts: vec![0; kinds * 2].into(),
            struck: false,
            removed: Vec::new(),
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
        if side != self.to_move {
            self.hash ^= zobrist::WHITE_TO_MOVE;
        }
        self.to_move = side;
    }

    /// Whether the counter-strike rule holds now: the last move took a piece whose trade is
    /// restricted with a piece that is not one of them ([`crate::params::Trade`]).
    pub fn struck(&self) -> bool {
        self.struck
    }

    /// Sets [`Position::struck`], keeping the hash.
    pub(crate) fn set_struck(&mut self, on: bool) {
        if on != self.struck {
            self.hash ^= zobrist::STRUCK;
        }
        self.struck = on;
    }

    /// The Zobrist hash of the pieces and the side to move, kept up to date by every change.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch (to check the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let pieces = self
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != OFF)
            .fold(0, |h, (i, &c)| h ^ zobrist::key(c, i));
        let struck = if self.struck { zobrist::STRUCK } else { 0 };
        match self.to_move {
            Side::Black => pieces ^ struck,
            Side::White => pieces ^ struck ^ zobrist::WHITE_TO_MOVE,
        }
    }

    /// Whether the data kept beside the cells (hash, royal counts, piece sets) agrees with
    /// the cells, recomputed from scratch; `royal[kind]` says whether a kind is royal.
    pub(crate) fn is_consistent(&self, royal: &[bool]) -> bool {
        let mut fresh = Position::empty(self.dims, self.pad, royal.len());
        for (i, &c) in self.cells.iter().enumerate() {
            if c != OFF {
                fresh.put_index(i, c, royal);
            }
        }
        fresh.set_to_move(self.to_move);
        fresh.set_struck(self.struck);
        self.hash == self.compute_hash()
            && self.hash == fresh.hash
            && self.royals == fresh.royals
            && self.occupied == fresh.occupied
            && self.counts == fresh.counts
    }

    /// The mailbox cells holding `side`'s pieces, the most advanced first (from the far rank
    /// back): the pieces likeliest to have a move, for a test that stops at the first.
    pub(crate) fn side_cells_front_first(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        let words = &self.occupied[side.index()];
        let forward = side == Side::White;
        (0..words.len()).flat_map(move |k| {
            let w = if forward { k } else { words.len() - 1 - k };
            let mut bits = words[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = if forward {
                        bits.trailing_zeros()
                    } else {
                        63 - bits.leading_zeros()
                    };
                    bits &= !(1 << b);
                    w * 64 + b as usize
                })
            })
        })
    }

    /// Per side, a bit per mailbox cell holding one of its pieces (64 cells a word).
    #[inline]
    pub(crate) fn occupied_bits(&self, side: Side) -> &[u64] {
        &self.occupied[side.index()]
    }

    /// The mailbox cells holding `side`'s pieces, in square order.
    #[inline]
    pub fn side_cells(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        self.occupied[side.index()]
            .iter()
            .enumerate()
            .flat_map(|(w, &bits)| {
                let mut bits = bits;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let i = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        i
                    })
                })
            })
    }

    /// How the game ended, if it has (royal capture or resignation; see
    /// [`crate::rules::Rules::outcome`] for "no legal move").
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub(crate) fn set_outcome(&mut self, o: Option<Outcome>) {
        self.outcome = o;
    }

    /// How many pieces of this kind a side has on the board (a promoted piece counts as the
    /// kind it became).
    pub fn count(&self, side: Side, kind: KindId) -> u16 {
        let slot = kind as usize * 2 + side.index();
        self.counts.get(slot).copied().unwrap_or(0)
    }

    /// Whether a side has any piece of these kinds.
    pub fn has_any(&self, side: Side, kinds: &[KindId]) -> bool {
        kinds.iter().any(|&k| self.count(side, k) > 0)
    }

    /// Royal pieces (kings, princes) a side still has.
    pub fn royals(&self, side: Side) -> u16 {
        self.royals[side.index()]
    }

    #[inline]
    pub fn index(&self, sq: Square) -> usize {
        let (x, y) = self.dims.xy(sq);
        (y as usize + self.pad) * self.stride + x as usize + self.pad
    }

    pub(crate) fn square_of(&self, idx: usize) -> Square {
        let (y, x) = (idx / self.stride - self.pad, idx % self.stride - self.pad);
        Square((y * self.dims.files as usize + x) as u16)
    }

    #[inline]
    pub(crate) fn stride(&self) -> usize {
        self.stride
    }

    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    #[inline]
    pub fn cell(&self, idx: usize) -> Cell {
        self.cells[idx]
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.cells[self.index(sq)])
    }

    /// Puts a piece on a square (or empties it), keeping the royal counts; `royal[kind]` says
    /// whether a kind is royal.
    pub(crate) fn put(&mut self, sq: Square, piece: Option<Piece>, royal: &[bool]) {
        let idx = self.index(sq);
        self.put_index(idx, piece.map_or(EMPTY, encode), royal);
    }

    /// Sets a cell, keeping royal counts, hash and piece sets up to date.
    #[inline]
    pub(crate) fn put_index(&mut self, idx: usize, cell: Cell, royal: &[bool]) {
        let old = self.cells[idx];
        self.tally(old, idx, royal, 1u16.wrapping_neg());
        self.tally(cell, idx, royal, 1);
        self.hash ^= zobrist::key(old, idx) ^ zobrist::key(cell, idx);
        self.cells[idx] = cell;
    }

    /// Empties a cell holding a piece and returns the piece: [`Position::put_index`] with
    /// half the work, for make and unmake.
    #[inline(always)]
    pub(crate) fn take_index(&mut self, idx: usize, royal: &[bool]) -> Cell {
        let old = self.cells[idx];
        debug_assert!(old != EMPTY && old != OFF, "a piece to take");
        self.tally(old, idx, royal, 1u16.wrapping_neg());
        self.hash ^= zobrist::key(old, idx);
        self.cells[idx] = EMPTY;
        old
    }

    /// Puts a piece on an empty cell: [`Position::put_index`] with half the work, for make
    /// and unmake.
    #[inline(always)]
    pub(crate) fn place_index(&mut self, idx: usize, cell: Cell, royal: &[bool]) {
        debug_assert!(self.cells[idx] == EMPTY, "an empty cell to place on");
        self.tally(cell, idx, royal, 1);
        self.hash ^= zobrist::key(cell, idx);
        self.cells[idx] = cell;
    }

    /// Counts `cell` in (`delta` 1) or out (`delta` −1) of the royal counts and piece sets.
    #[inline(always)]
    fn tally(&mut self, cell: Cell, idx: usize, royal: &[bool], delta: u16) {
        if cell == EMPTY {
            return;
        }
        let side = cell_side(cell);
        let kind = ((cell >> 2) - 1) as usize;
        self.counts[kind * 2 + side] = self.counts[kind * 2 + side].wrapping_add(delta);
        if royal[kind] {
            self.royals[side] = self.royals[side].wrapping_add(delta);
        }
        self.occupied[side][idx / 64] ^= 1 << (idx % 64);
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
        let p = Position::empty(dims, 2, 1);
        for sq in dims.squares() {
            let i = p.index(sq);
            assert_eq!(p.cell(i), EMPTY);
            assert_eq!(p.square_of(i), sq);
        }
        assert_eq!(p.cells().iter().filter(|&&c| c == OFF).count(), 9 * 8 - 20);
    }
}

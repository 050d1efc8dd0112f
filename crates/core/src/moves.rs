//! A move: from, to, the stops of a multi-leg move, what it does, and every piece it removes.

use crate::betza::MAX_STOPS;
use crate::geometry::{Dims, Square};

/// The longest line a range capturer's victims are recorded on: [`Move`]'s line mask has a bit
/// per square strictly between its last stop and its destination.
pub const MAX_LINE: usize = 64;

/// A move: from, to, the intermediate stops of a multi-leg move, what it does, and every piece
/// it removes (its victims), so that playing and taking it back need nothing else.
///
/// Victims are recorded inline, not in a list: a stop's bit, a destination bit and a bit mask
/// over the straight line from the last stop (or the start) to the destination. That covers any
/// number of victims (a range capturer's flight can remove every piece on a line) without an
/// allocation or a side buffer (which every holder of a move would have to carry along), and
/// keeps a move `Copy` at 24 bytes (was 12). A side buffer would keep moves small but make a
/// lone `Move` meaningless; the generator writes about 500 moves a position, so 12 more bytes
/// each cost little next to walking the rays (`cargo bench --bench movegen`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub(crate) stops: [Square; MAX_STOPS],
    pub(crate) n_stops: u8,
    pub(crate) flags: u8,
    /// Bit `i` (< `MAX_STOPS`): stop `i` removes a piece; [`TOOK_TO`]: the destination does.
    pub(crate) took: u8,
    /// Bit `i`: stop `i` is a shot, a piece taken from afar (the mover never stands there).
    pub(crate) shot: u8,
    /// Bit `k`: the `k+1`-th square from the last stop towards `to` loses its piece.
    pub(crate) line: u64,
}

/// In [`Move::took`]: the destination held a piece, which the move removes.
pub(crate) const TOOK_TO: u8 = 1 << 7;

pub(crate) const PROMOTE: u8 = 1;
/// Flew over pieces by range capture (they are removed when the rule set says so).
pub(crate) const RANGE: u8 = 2;
/// The piece burns where it lands: [`Move::line`] is then a mask over the destination's eight
/// neighbours ([`NEIGHBOURS`]), the pieces it burns.
pub(crate) const BURN: u8 = 4;

/// The eight neighbours of a square, as (dx, dy), in the order of a burning move's mask bits.
pub(crate) const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The positions of the bits set in `mask`, lowest first.
#[inline]
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

impl Move {
    pub(crate) fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            stops: [Square(0); MAX_STOPS],
            n_stops: 0,
            flags: 0,
            took: 0,
            shot: 0,
            line: 0,
        }
    }

    /// Whether the move removes any piece (of either side).
    pub fn captures(&self) -> bool {
        self.took != 0 || self.line != 0
    }

    /// The squares whose pieces the move removes, in the order met: stops, the squares a range
    /// capturer flies over, the destination. Exactly what playing it empties (or, for the
    /// destination, replaces).
    #[inline]
    pub fn victims(&self, dims: Dims) -> impl Iterator<Item = Square> + 'static {
        let flight = if self.flags & BURN != 0 { 0 } else { self.line };
        let last = self.path().last().copied().unwrap_or(self.from);
        // Only a range flight needs the line's direction (and its divisions).
        let step = if flight == 0 {
            0
        } else {
            let ((fx, fy), (tx, ty)) = (dims.xy(last), dims.xy(self.to));
            (ty - fy).signum() * dims.files as i32 + (tx - fx).signum()
        };
        Victims {
            stops: self.stops,
            taken: self.took & !TOOK_TO,
            flight,
            last: last.0 as i32,
            step,
            burnt: self.burnt(dims),
            dest: (self.took & TOOK_TO != 0).then_some(self.to),
        }
    }

    /// The pieces the move burns: those next to where a burning piece lands.
    #[inline]
    pub fn burnt(&self, dims: Dims) -> impl Iterator<Item = Square> + 'static {
        let mask = if self.flags & BURN != 0 { self.line } else { 0 };
        let (x, y) = if mask != 0 { dims.xy(self.to) } else { (0, 0) };
        bits(mask).filter_map(move |i| dims.square(x + NEIGHBOURS[i].0, y + NEIGHBOURS[i].1))
    }

    /// Where the move stops on its way (a lion's first step, a hook mover's turn).
    pub fn path(&self) -> &[Square] {
        &self.stops[..self.n_stops as usize]
    }

    /// The squares it shoots: pieces taken from afar, in the order shot.
    pub fn shots(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.n_stops as usize)
            .filter(|&i| self.shot & (1 << i) != 0)
            .map(|i| self.stops[i])
    }

    /// Whether stop `i` of [`Move::path`] is a shot.
    pub fn is_shot(&self, i: usize) -> bool {
        self.shot & (1 << i) != 0
    }

    /// The move leg by leg, as written: every stop and the destination in the order the move
    /// makes them, each with whether it is a shot. The destination (where the piece ends) comes
    /// before the shots it fires from there, which [`Move::path`] lists last.
    pub fn legs(&self) -> impl Iterator<Item = (Square, bool)> + '_ {
        let n = self.n_stops as usize;
        let trailing = (0..n).rev().take_while(|&i| self.is_shot(i)).count();
        let before = (0..n - trailing).map(|i| (self.stops[i], self.is_shot(i)));
        let after = (n - trailing..n).map(|i| (self.stops[i], true));
        before.chain(std::iter::once((self.to, false))).chain(after)
    }

    /// Whether the piece promotes at the end of this move.
    pub fn promotes(&self) -> bool {
        self.flags & PROMOTE != 0
    }

    /// Whether the move flies over pieces by range capture.
    pub fn is_range(&self) -> bool {
        self.flags & RANGE != 0
    }

    /// Removes the stop where the piece ends, before the shots it fires from there: the
    /// destination says it.
    pub(crate) fn drop_landing(&mut self) {
        let n = self.n_stops as usize;
        let trailing = (0..n).rev().take_while(|&i| self.is_shot(i)).count();
        let Some(j) = (n - trailing).checked_sub(1) else {
            return;
        };
        if self.stops[j] != self.to || self.is_shot(j) {
            return;
        }
        let keep_low = |bits: u8| bits & ((1 << j) - 1);
        let high = |bits: u8| (bits >> (j + 1)) << j;
        self.stops.copy_within(j + 1..n, j);
        self.n_stops -= 1;
        self.took = (self.took & TOOK_TO) | keep_low(self.took) | high(self.took & !TOOK_TO);
        self.shot = keep_low(self.shot) | high(self.shot);
    }

    pub(crate) fn with_promotion(mut self, promote: bool) -> Move {
        if promote {
            self.flags |= PROMOTE;
        } else {
            self.flags &= !PROMOTE;
        }
        self
    }
}

/// [`Move::victims`]: one flat state machine rather than a chain of iterators, as the search
/// asks every capture for its victims.
struct Victims<B> {
    stops: [Square; MAX_STOPS],
    /// The stops still to yield, as [`Move::took`] bits.
    taken: u8,
    /// The flight's squares still to yield, as [`Move::line`] bits.
    flight: u64,
    /// The flight's start and step on the board.
    last: i32,
    step: i32,
    burnt: B,
    dest: Option<Square>,
}

impl<B: Iterator<Item = Square>> Iterator for Victims<B> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.taken != 0 {
            let i = self.taken.trailing_zeros() as usize;
            self.taken &= self.taken - 1;
            return Some(self.stops[i]);
        }
        if self.flight != 0 {
            let k = self.flight.trailing_zeros() as i32;
            self.flight &= self.flight - 1;
            return Some(Square((self.last + (k + 1) * self.step) as u16));
        }
        self.burnt.next().or_else(|| self.dest.take())
    }
}

//! Auras: pieces that act on enemy pieces around them without moving (Kō shōgi's nets freeze
//! the first enemy on their lines; its fogs keep enemy shooters near them from shooting).
//! Generation asks them of every piece it generates, tracing what it reads.

use crate::geometry::Square;
use crate::piece::{EMPTY, OFF, cell_side, decode};
use crate::position::Position;

/// What auras a game's kinds have, per kind: recomputed in every position, since generation
/// reads them off the board (and traces what it read).
#[derive(Clone, Debug, Default)]
pub(crate) struct Auras {
    /// Per kind, per side: the directions (octant mask) along which it freezes the first
    /// piece met, an enemy (its ranging lines; 0: it freezes nothing).
    pub freezes: Vec<[u8; 2]>,
    /// Per kind: within this many squares (king distance) no enemy piece may shoot (0: none).
    pub fog: Vec<u8>,
    /// Per kind: it shoots in a fog all the same.
    pub sees_in_fog: Vec<bool>,
    /// The largest fog radius.
    pub fog_reach: u8,
    /// A fog reaches along its eight lines only, not over the whole square around it (the
    /// rule set's `within = "lines"`).
    pub fog_lines: bool,
}

impl Auras {
    /// The enemy piece that freezes standing first on one of the eight lines from the piece
    /// on mailbox cell `origin`, facing it along a line it ranges on: that piece cannot move.
    /// Every cell read is traced. The board's marks ask the same question ([`crate::reach`]).
    #[inline(never)]
    pub(crate) fn net_holding(
        &self,
        pos: &Position,
        origin: usize,
        side: usize,
        trace: &mut Option<&mut Vec<usize>>,
    ) -> Option<usize> {
        let stride = pos.stride() as isize;
        for (o, &(dx, dy)) in OCTANTS.iter().enumerate() {
            let step = dy as isize * stride + dx as isize;
            let mut sq = origin;
            loop {
                sq = sq.wrapping_add_signed(step);
                if let Some(t) = trace {
                    t.push(sq);
                }
                let c = pos.cell(sq);
                if c == EMPTY {
                    continue;
                }
                if c != OFF
                    && cell_side(c) != side
                    && let Some(p) = decode(c)
                    && self.freezes[p.kind as usize][p.side.index()] & (1 << ((o + 4) % 8)) != 0
                {
                    return Some(sq);
                }
                break;
            }
        }
        None
    }

    /// The enemy fog within its reach of the piece of `kind` on mailbox cell `origin` (king
    /// distance; along the eight lines only when the rule set measures so): that piece may not
    /// shoot. Every cell read is traced.
    #[inline(never)]
    pub(crate) fn fog_holding(
        &self,
        pos: &Position,
        squares: &[Square],
        (origin, side, kind): (usize, usize, u16),
        trace: &mut Option<&mut Vec<usize>>,
    ) -> Option<usize> {
        if self.sees_in_fog[kind as usize] || self.fog_reach == 0 {
            return None;
        }
        let dims = pos.dims();
        let (x, y) = dims.xy(squares[origin]);
        let r = self.fog_reach as i32;
        for dy in -r..=r {
            for dx in -r..=r {
                let off_lines = dx != 0 && dy != 0 && dx.abs() != dy.abs();
                if self.fog_lines && off_lines {
                    continue;
                }
                let Some(at) = dims.square(x + dx, y + dy) else {
                    continue;
                };
                let sq = pos.index(at);
                if let Some(t) = trace {
                    t.push(sq);
                }
                let c = pos.cell(sq);
                if sq == origin || c == EMPTY {
                    continue;
                }
                if cell_side(c) != side
                    && let Some(p) = decode(c)
                    && self.fog[p.kind as usize] as i32 >= dx.abs().max(dy.abs())
                {
                    return Some(sq);
                }
            }
        }
        None
    }
}

/// The eight king directions, by octant (counter-clockwise from +x).
const OCTANTS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

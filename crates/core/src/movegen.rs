//! The one generic move generator. Each piece kind's patterns (from the Betza parser) are
//! compiled, per side, into rays on the padded mailbox; generation walks them. No piece is
//! special-cased here: lions, hook movers, range capturers and hoppers are all data.

use crate::betza::{LegKind, Mode, Pattern};
use crate::geometry::{Dims, Side, Square, Vec2};
use crate::position::{Cell, EMPTY, OFF, Piece, Position, cell_side, decode};

/// The most intermediate stops a move can have (a four-leg move).
pub const MAX_STOPS: usize = 4;

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
    stops: [Square; MAX_STOPS],
    n_stops: u8,
    flags: u8,
    /// Bit `i` (< `MAX_STOPS`): stop `i` removes a piece; [`TOOK_TO`]: the destination does.
    took: u8,
    /// Bit `i`: stop `i` is a shot, a piece taken from afar (the mover never stands there).
    shot: u8,
    /// Bit `k`: the `k+1`-th square from the last stop towards `to` loses its piece.
    line: u64,
}

/// In [`Move::took`]: the destination held a piece, which the move removes.
const TOOK_TO: u8 = 1 << 7;

const PROMOTE: u8 = 1;
/// Flew over pieces by range capture (they are removed when the rule set says so).
const RANGE: u8 = 2;
/// The piece burns where it lands: [`Move::line`] is then a mask over the destination's eight
/// neighbours ([`NEIGHBOURS`]), the pieces it burns.
const BURN: u8 = 4;

/// The eight neighbours of a square, as (dx, dy), in the order of a burning move's mask bits.
const NEIGHBOURS: [(i32, i32); 8] = [
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
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
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
    fn drop_landing(&mut self) {
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

/// The rule-set parameters the generator needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenRules {
    pub promotion: Promotion,
    pub range: RangeRules,
    /// Moves that reach the same result by different paths are one move (`false`), or
    /// distinct when they pass through different squares where they could capture (`true`).
    pub paths_distinct: bool,
    /// A promoted piece may promote again (to what its new kind promotes to).
    pub repromote: bool,
    /// How burning pieces burn.
    pub burning: Burning,
}

/// How burning pieces (`burns = true`) burn: a rule-set option for the cases Kō shōgi's
/// sources leave open. The default is EN's words: a burning piece burns every piece next to
/// where it lands, of either side, another burning piece included, and nothing else burns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Burning {
    /// A piece that ends its move next to an enemy burning piece is burnt after its move, what
    /// it took staying taken (QB, as Tenjiku's fire demon); a burning piece arriving so dies
    /// before it burns anything (QB).
    pub arrivals: bool,
    /// It burns its own side's pieces too (EN); `false`: only enemies (QB).
    pub own: bool,
    /// Burning pieces are never burnt: two may stand side by side.
    pub fireproof: bool,
}

impl Default for Burning {
    fn default() -> Burning {
        Burning {
            arrivals: false,
            own: true,
            fireproof: false,
        }
    }
}

/// When pieces promote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// On the first move that captures an enemy piece (compulsory).
    OnCapture,
    /// On a move that ends in (or, with `from_zone`, starts in) the `depth` far ranks; with
    /// `stops`, a capturing stop in the zone counts too. With `forced_where_stuck`, an optional
    /// promotion is compulsory on a move that ends where the piece could never move again
    /// (shogi's pawn or lance on the last rank, knight on the last two).
    Zone {
        depth: u8,
        optional: bool,
        from_zone: bool,
        stops: bool,
        forced_where_stuck: bool,
    },
    Never,
}

/// What a range capturer (`x`) does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeRules {
    /// Pieces flown over are removed.
    pub captures_flown_over: bool,
    /// It may end on a lower-ranked friendly piece (which is removed).
    pub end_on_friend: bool,
    /// It may capture, at the end of its flight, an enemy it could not fly over.
    pub end_on_higher: bool,
    /// Every straight move of a range capturer, not only its flights, removes what lies
    /// between its start and end (ATSA's web engine: the vice general's two-square jump
    /// removes the piece it jumps).
    pub every_move: bool,
}

/// A leg compiled for one side: the board vector, its step on the mailbox, how far.
#[derive(Clone, Debug)]
struct Ray {
    vec: Vec2,
    delta: isize,
    max: u8,
    mode: Mode,
    kind: Kind,
    /// A shot: captures where it ends, the piece staying where the leg started.
    shoot: bool,
    /// Mailbox offsets that must be empty for a lame leap.
    lame: Vec<isize>,
    /// The lame squares block only a piece of the mover's own side (`~`).
    lame_by_own: bool,
    /// Later legs, chosen relative to this one; empty for a final leg.
    next: Vec<Ray>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    Hop(u8),
    Range,
}

/// A piece kind's moves for one side, ready to walk.
#[derive(Clone, Debug, Default)]
pub(crate) struct Compiled {
    /// Single-leg rays that are blocked by the first piece (steps, slides, leaps): the bulk of
    /// every position's moves, walked by a tight loop.
    simple: Vec<Ray>,
    /// Everything else: lame leaps, hops, range capture and multi-leg moves.
    rays: Vec<Ray>,
    /// Whether two of its rays can produce the same move, so results must be de-duplicated.
    dedup: bool,
}

/// Squares the longest leg reaches in one step, for the board's border.
pub(crate) fn reach(patterns: &[Pattern]) -> usize {
    patterns
        .iter()
        .flat_map(|p| &p.legs)
        .flat_map(|l| &l.atoms)
        .map(|a| a.king_len() as usize)
        .max()
        .unwrap_or(1)
}

/// The squares a lame leap crosses: along its line, or for an oblique leap the orthogonal
/// step towards its longer component first.
fn lame_path(v: Vec2) -> Vec<Vec2> {
    if let Some(u) = v.unit() {
        (1..v.king_len()).map(|k| u.scale(k)).collect()
    } else if v.x.abs() > v.y.abs() {
        vec![Vec2::new(v.x.signum(), 0)]
    } else {
        vec![Vec2::new(0, v.y.signum())]
    }
}

fn compile_leg(
    pattern: &Pattern,
    k: usize,
    previous: Option<Vec2>,
    side: Side,
    stride: isize,
    board_max: u8,
) -> Result<Vec<Ray>, String> {
    let leg = &pattern.legs[k];
    let vectors = leg.vectors(previous)?;
    let mut out = Vec::new();
    for v in vectors {
        let vec = if previous.is_none() {
            side.orient(v)
        } else {
            v
        };
        let kind = match leg.kind {
            LegKind::Plain | LegKind::Lame | LegKind::LameByOwn => Kind::Plain,
            LegKind::Hop(n) => Kind::Hop(n.unwrap_or(u8::MAX)),
            LegKind::RangeCapture => Kind::Range,
        };
        if kind == Kind::Range && pattern.legs.len() > 1 {
            return Err("range capture (x) is supported only as a single-leg move".into());
        }
        let lame = if matches!(leg.kind, LegKind::Lame | LegKind::LameByOwn) {
            lame_path(vec)
                .into_iter()
                .map(|s| s.y as isize * stride + s.x as isize)
                .collect()
        } else {
            Vec::new()
        };
        let next = if k + 1 < pattern.legs.len() {
            compile_leg(pattern, k + 1, Some(vec), side, stride, board_max)?
        } else {
            Vec::new()
        };
        out.push(Ray {
            vec,
            delta: vec.y as isize * stride + vec.x as isize,
            max: if leg.range == 0 {
                board_max
            } else {
                leg.range.min(board_max)
            },
            mode: leg.mode,
            kind,
            shoot: leg.shoot,
            lame,
            lame_by_own: leg.kind == LegKind::LameByOwn,
            next,
        });
    }
    Ok(out)
}

impl Compiled {
    pub(crate) fn new(
        patterns: &[Pattern],
        side: Side,
        stride: usize,
        board_max: u8,
    ) -> Result<Compiled, String> {
        let mut all = Vec::new();
        for p in patterns {
            all.extend(compile_leg(p, 0, None, side, stride as isize, board_max)?);
        }
        let dedup = all.iter().any(|r| !r.next.is_empty()) || overlapping(&all);
        let (simple, rays) = all.into_iter().partition(|r| {
            r.next.is_empty() && r.kind == Kind::Plain && r.lame.is_empty() && !r.shoot
        });
        Ok(Compiled {
            simple,
            rays,
            dedup,
        })
    }
}

impl Compiled {
    /// The directions it ranges along (single-leg rides of more than one square), as a mask
    /// over [`crate::betza::octant`]s.
    pub(crate) fn ranging(&self) -> u8 {
        let rides = self.simple.iter().chain(&self.rays);
        let lines = rides.filter(|r| r.next.is_empty() && r.max > 1 && !r.shoot);
        lines
            .filter_map(|r| crate::betza::octant(r.vec))
            .fold(0, |m, o| m | 1 << o)
    }
}

/// Whether two single-leg rays can land on the same square.
fn overlapping(rays: &[Ray]) -> bool {
    if rays.iter().any(|r| r.kind != Kind::Plain) {
        return true;
    }
    let mut seen = std::collections::HashSet::new();
    for r in rays {
        for k in 1..=r.max.min(40) as i32 {
            if !seen.insert(r.vec.scale(k)) {
                return true;
            }
        }
    }
    false
}

/// Everything generation needs to know about piece kinds (indexed by kind) and the board
/// (indexed by mailbox cell).
pub(crate) struct KindTable {
    /// `[black, white]` compiled moves per kind.
    pub compiled: Vec<[Compiled; 2]>,
    pub promotes: Vec<bool>,
    /// Range-capture rank (1 highest); 255 for unranked.
    pub rank: Vec<u8>,
    /// Whether the kind has a range-capture (`x`) leg.
    pub range_piece: Vec<bool>,
    /// The square of each mailbox cell (0 off the board).
    pub squares: Vec<Square>,
    /// Per side, whether each mailbox cell is in the side's promotion zone.
    pub zone: [Vec<bool>; 2],
    /// Per kind, per side, per mailbox cell: whether the unpromoted piece alone on the board
    /// there has no move, so a move ending there must promote. Empty unless the rule set asks
    /// ([`Promotion::Zone`]'s `forced_where_stuck`).
    pub stuck: Vec<[Vec<bool>; 2]>,
    /// Per attacking kind, the kinds it may not take or pass ([`Bars`]).
    pub bars: Vec<Bars>,
    /// Per kind: it burns every piece next to where it lands.
    pub burns: Vec<bool>,
    /// Per kind: it is royal (see [`Scratch::gainful`]).
    pub royal: Vec<bool>,
    /// Per kind: it burns or may not capture some kinds, so even its single-leg rays take the
    /// general walk (the others take the tight loop).
    pub general: Vec<bool>,
    /// Auras: pieces that freeze or fog enemy pieces ([`Auras`]); `None` in games without.
    pub auras: Option<Auras>,
    /// The game's effects (promotion by capture, state-dependent moves), if it has any.
    pub effects: Option<crate::effects::EffectTable>,
}

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

/// The kinds a piece kind may not capture by moving there, may not shoot, and may not hop
/// over: bit sets over kind ids, empty when there are none (as for every Taikyoku piece).
#[derive(Clone, Debug, Default)]
pub(crate) struct Bars {
    pub capture: Vec<u64>,
    pub shoot: Vec<u64>,
    pub hop: Vec<u64>,
}

/// Whether the piece in cell `c` is one of the kinds in bit set `set`.
#[inline]
fn barred(set: &[u64], c: Cell) -> bool {
    !set.is_empty()
        && decode(c).is_some_and(|p| set[p.kind as usize / 64] >> (p.kind % 64) & 1 != 0)
}

impl Bars {
    /// A bit set over `n` kinds holding `kinds`.
    pub fn set(n: usize, kinds: impl IntoIterator<Item = u16>) -> Vec<u64> {
        let mut set = Vec::new();
        for k in kinds {
            if set.is_empty() {
                set = vec![0; n.div_ceil(64)];
            }
            set[k as usize / 64] |= 1 << (k % 64);
        }
        set
    }
}

impl KindTable {
    pub(crate) fn board_tables(
        dims: crate::geometry::Dims,
        pad: usize,
        depth: u8,
    ) -> (Vec<Square>, [Vec<bool>; 2]) {
        let stride = dims.files as usize + 2 * pad;
        let cells = stride * (dims.ranks as usize + 2 * pad);
        let mut squares = vec![Square(0); cells];
        let mut zone = [vec![false; cells], vec![false; cells]];
        for sq in dims.squares() {
            let (x, y) = dims.xy(sq);
            let i = (y as usize + pad) * stride + x as usize + pad;
            squares[i] = sq;
            for side in Side::BOTH {
                zone[side.index()][i] = dims.in_far_ranks(sq, side, depth);
            }
        }
        (squares, zone)
    }
}

/// Reusable buffers for generation.
#[derive(Default)]
pub struct Scratch {
    stamp: Vec<u32>,
    epoch: u32,
    keys: Vec<(usize, u64)>,
    /// Keep every path of a multi-leg move (for entering and checking a chosen path), not
    /// one per result.
    all_paths: bool,
    /// Emit only the moves that remove a piece (quiescence search).
    captures_only: bool,
    /// With `captures_only`, leave out a non-royal piece's captures that remove only its own
    /// pieces and do not promote ([`crate::rules::Rules::gainful_captures_into`]).
    gainful: bool,
    /// Only whether a piece has a move matters: duplicates are not removed.
    existence: bool,
}

impl Scratch {
    /// Buffers for generating every path of multi-leg moves.
    pub(crate) fn all_paths() -> Scratch {
        Scratch {
            all_paths: true,
            ..Scratch::default()
        }
    }

    /// Switches to generating only capturing moves, or back; returns the previous setting.
    pub(crate) fn set_captures_only(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.captures_only, on)
    }

    /// Switches to generating only the captures that may gain material, or back to every
    /// move.
    pub(crate) fn set_gainful(&mut self, on: bool) {
        self.captures_only = on;
        self.gainful = on;
    }

    /// Buffers for asking whether pieces have a move at all.
    pub(crate) fn existence() -> Scratch {
        Scratch {
            existence: true,
            ..Scratch::default()
        }
    }
}

struct Ctx<'a> {
    pos: &'a Position,
    rules: &'a GenRules,
    kinds: &'a KindTable,
    side: usize,
    origin: usize,
    rank: u8,
    can_promote: bool,
    /// Where it must promote ([`KindTable::stuck`]; empty: nowhere).
    stuck: &'a [bool],
    /// Its straight moves remove what they pass over (see [`RangeRules::every_move`]).
    clears_path: bool,
    /// The kinds it may not take or pass.
    bars: &'a Bars,
    /// Where the piece stands between legs (a shot leaves it there).
    at: usize,
    /// It burns the pieces next to where it lands.
    burns: bool,
    /// An enemy fog keeps it from shooting.
    fogged: bool,
    /// Squares emptied by earlier legs' captures.
    taken: [usize; MAX_STOPS],
    n_taken: usize,
    stops: [(usize, bool); MAX_STOPS],
    n_stops: usize,
    /// Bit `i`: stop `i` is a shot.
    shots: u8,
    /// The victims of the range flight being emitted ([`Move::line`]).
    line: u64,
    /// Emit only moves that remove a piece (see [`Scratch::captures_only`]).
    captures_only: bool,
    /// Of those, leave out the ones that take only own pieces and do not promote (see
    /// [`Scratch::gainful`]; never for a royal piece).
    gainful: bool,
    /// The path the move being emitted clears holds an enemy piece ([`Ctx::clear_path`];
    /// always false for [`Ctx::emit`]'s moves).
    clears_enemy: bool,
    /// When set, every mailbox cell the generation looks at is recorded here: the piece's
    /// moves depend on nothing else (used to update move counts incrementally).
    trace: Option<&'a mut Vec<usize>>,
}

impl Ctx<'_> {
    #[inline]
    fn note(&mut self, idx: usize) {
        if let Some(t) = &mut self.trace {
            t.push(idx);
        }
    }

    #[inline]
    fn cell(&mut self, idx: usize) -> Cell {
        self.note(idx);
        if idx == self.origin || self.taken[..self.n_taken].contains(&idx) {
            EMPTY
        } else {
            self.pos.cell(idx)
        }
    }

    fn rank_of(&self, c: Cell) -> u8 {
        decode(c).map_or(u8::MAX, |p| self.kinds.rank[p.kind as usize])
    }

    /// Emits the move ending at `to`; `captured` says whether it took an enemy piece anywhere.
    fn emit(
        &mut self,
        to: usize,
        captured: bool,
        range: bool,
        out: &mut Vec<Move>,
        keys: &mut Vec<(usize, u64)>,
    ) {
        let took = self.took_bits(to);
        // Only captures wanted: a move that removes nothing is dropped before it is built.
        if self.captures_only && took == 0 && self.line == 0 && !self.burns {
            return;
        }
        if self.gainful && !captured && !self.burns && !self.can_promote {
            return;
        }
        let sqs = &self.kinds.squares;
        let mut m = Move::new(sqs[self.origin], sqs[to]);
        for (i, &(s, _)) in self.stops[..self.n_stops].iter().enumerate() {
            m.stops[i] = sqs[s];
        }
        m.n_stops = self.n_stops as u8;
        m.took = took;
        m.line = self.line;
        if self.shots != 0 || self.burns {
            m = self.shoot_and_burn(m, to);
        }
        if range {
            m.flags |= RANGE;
        }
        // A multi-leg move's identity beyond its destination: the stops that took a piece or,
        // when paths are distinct, every stop where it could have. 0 = none.
        let mut key = 0u64;
        if self.n_stops > 0 {
            let mut parts = [0u64; MAX_STOPS];
            let mut n = 0;
            for &(s, capturable) in &self.stops[..self.n_stops] {
                // One move per result: the set of squares taken on the way, less the
                // destination (which the move takes anyway when it holds a piece).
                let counts = if self.rules.paths_distinct {
                    capturable
                } else {
                    s != to && self.taken[..self.n_taken].contains(&s)
                };
                if counts {
                    parts[n] = s as u64 + 1;
                    n += 1;
                }
            }
            if !self.rules.paths_distinct {
                parts[..n].sort_unstable();
            }
            for (i, &p) in parts[..n].iter().enumerate() {
                if self.rules.paths_distinct || i == 0 || parts[i - 1] != p {
                    key = key << 14 | p;
                }
            }
        }
        let zone = &self.kinds.zone[self.side];
        let stop_in_zone = || {
            self.stops[..self.n_stops]
                .iter()
                .any(|&(s, capturable)| capturable && zone[s])
        };
        self.clears_enemy = false;
        self.promote_and_push(m, key, captured, to, stop_in_zone, out, keys);
    }

    /// Marks `m`'s shots and, for a burning piece, the pieces it burns where it lands `to`
    /// (out of line: most pieces do neither). It takes and returns the move by value: a
    /// reference would keep every move the caller builds in memory, not in registers.
    #[inline(never)]
    fn shoot_and_burn(&mut self, mut m: Move, to: usize) -> Move {
        m.shot = self.shots;
        if self.shots != 0 {
            m.drop_landing();
        }
        if self.burns {
            m.flags |= BURN;
            m.line = self.burn_mask(to);
        }
        m
    }

    /// The pieces next to `to` that a burning piece landing there burns (a [`Move::line`]
    /// mask over [`NEIGHBOURS`]), as the rule set's [`Burning`] says; they are read, so they
    /// are traced.
    fn burn_mask(&mut self, to: usize) -> u64 {
        let burning = self.rules.burning;
        let stride = self.pos.stride() as isize;
        let mut mask = 0;
        for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
            let c = self.cell(to.wrapping_add_signed(dy as isize * stride + dx as isize));
            let Some(p) = decode(c) else {
                continue;
            };
            let enemy = cell_side(c) != self.side;
            if self.kinds.burns[p.kind as usize] {
                if burning.fireproof {
                    continue;
                }
                if enemy && burning.arrivals {
                    // Burnt as it arrives, before it burns anything.
                    return 0;
                }
            }
            if enemy || burning.own {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// [`Move::took`] for a move ending on `to`: the stops and destination that hold a piece
    /// (the start and a square already counted excepted).
    fn took_bits(&self, to: usize) -> u8 {
        let stops = &self.stops[..self.n_stops];
        let mut took = 0;
        for (i, &(s, _)) in stops.iter().enumerate() {
            let repeat = stops[..i].iter().any(|&(t, _)| t == s);
            if s != self.origin && s != to && !repeat && self.pos.cell(s) != EMPTY {
                took |= 1 << i;
            }
        }
        if to != self.origin && self.pos.cell(to) != EMPTY {
            took |= TOOK_TO;
        }
        took
    }

    /// The occupied squares strictly between `from` and `to` (a straight line, `unit` apart on
    /// the mailbox), as a [`Move::line`] mask; they are read, so they are traced.
    fn line_between(&mut self, from: usize, to: usize, unit: isize) -> u64 {
        let mut mask = 0;
        let mut sq = from.wrapping_add_signed(unit);
        let mut k = 0;
        while sq != to {
            if self.cell(sq) != EMPTY {
                mask |= 1 << k;
            }
            k += 1;
            sq = sq.wrapping_add_signed(unit);
        }
        mask
    }

    /// Pushes `m` with the promotion choices the rule set gives for it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn promote_and_push(
        &self,
        m: Move,
        key: u64,
        captured: bool,
        to: usize,
        stop_in_zone: impl Fn() -> bool,
        out: &mut Vec<Move>,
        keys: &mut Vec<(usize, u64)>,
    ) {
        if self.captures_only && !m.captures() {
            return;
        }
        // Taking only its own pieces, a piece gains nothing unless it promotes.
        let keep_all = !self.gainful || captured || self.clears_enemy || self.burns;
        let push = |out: &mut Vec<Move>, keys: &mut Vec<(usize, u64)>, m: Move, key| {
            if keep_all || m.promotes() {
                push(out, keys, m, key);
            }
        };
        if !self.can_promote {
            push(out, keys, m, key);
            return;
        }
        match self.rules.promotion {
            Promotion::Never => push(out, keys, m, key),
            Promotion::OnCapture => push(out, keys, m.with_promotion(captured), key),
            Promotion::Zone {
                optional,
                from_zone,
                stops,
                ..
            } => {
                let zone = &self.kinds.zone[self.side];
                let eligible =
                    zone[to] || (from_zone && zone[self.origin]) || (stops && stop_in_zone());
                if !eligible {
                    push(out, keys, m, key);
                } else if optional && !self.stuck.get(to).copied().unwrap_or(false) {
                    push(out, keys, m, key);
                    push(out, keys, m.with_promotion(true), key);
                } else {
                    push(out, keys, m.with_promotion(true), key);
                }
            }
        }
    }

    /// The tight loop for single-leg rays blocked by the first piece.
    #[inline]
    fn walk_simple(&mut self, ray: &Ray, out: &mut Vec<Move>, keys: &mut Vec<(usize, u64)>) {
        let cells = self.pos.cells();
        // Most rays end at once, on the edge or on one of the piece's own: say so before
        // setting up the loop.
        let first = self.origin.wrapping_add_signed(ray.delta);
        let c = cells[first];
        if c == OFF || (c != EMPTY && cell_side(c) == self.side && !ray.mode.own) {
            self.note(first);
            return;
        }
        let from = self.kinds.squares[self.origin];
        let mut sq = self.origin;
        for _ in 0..ray.max {
            sq = sq.wrapping_add_signed(ray.delta);
            let c = cells[sq];
            self.note(sq);
            let captured = if c == EMPTY {
                // Only a range capturer's path clearing makes a move to an empty square
                // capture.
                if !ray.mode.quiet || (self.captures_only && !self.clears_path) {
                    continue;
                }
                false
            } else if c == OFF {
                return;
            } else {
                let enemy = cell_side(c) != self.side;
                if !((enemy && ray.mode.capture) || (!enemy && ray.mode.own)) {
                    return;
                }
                enemy
            };
            let mut m = Move::new(from, self.kinds.squares[sq]);
            if c != EMPTY {
                m.took = TOOK_TO;
            }
            if self.clears_path {
                m = self.clear_path(m, ray, sq);
            }
            self.promote_and_push(m, 0, captured, sq, || false, out, keys);
            if c != EMPTY {
                return;
            }
        }
    }

    /// Marks a range capturer's straight move ending on `to` as a flight, with what it removes
    /// on the way where the rule set says so. Out of line, so that the tight loop of the other
    /// pieces does not set up for it on every ray (and by value, as [`Ctx::shoot_and_burn`]).
    #[inline(never)]
    fn clear_path(&mut self, mut m: Move, ray: &Ray, to: usize) -> Move {
        self.clears_enemy = false;
        if let Some(u) = ray.vec.unit()
            && ray.vec.king_len() > 1
        {
            m.flags |= RANGE;
            if self.rules.range.captures_flown_over {
                let unit = u.y as isize * self.pos.stride() as isize + u.x as isize;
                m.line = self.line_between(self.origin, to, unit);
                let at = |k: usize| self.origin.wrapping_add_signed((k as isize + 1) * unit);
                let enemy = |k| cell_side(self.pos.cell(at(k))) != self.side;
                self.clears_enemy = self.gainful && bits(m.line).any(enemy);
            }
        }
        m
    }

    /// Walks one leg from `from`; emits moves for final legs and recurses for the others.
    fn walk(
        &mut self,
        from: usize,
        ray: &Ray,
        out: &mut Vec<Move>,
        keys: &mut Vec<(usize, u64)>,
        captured: bool,
    ) {
        for &d in &ray.lame {
            let c = self.cell(from.wrapping_add_signed(d));
            if c != EMPTY && (!ray.lame_by_own || c == OFF || cell_side(c) == self.side) {
                return;
            }
        }
        if ray.shoot && self.fogged {
            return;
        }
        let final_leg = ray.next.is_empty();
        let mut hops_left = match ray.kind {
            Kind::Hop(n) => n,
            _ => 0,
        };
        let mut flew = false;
        let mut flew_enemy = false;
        let mut line = 0u64;
        let mut sq = from;
        for step in 0..ray.max {
            sq = sq.wrapping_add_signed(ray.delta);
            let c = self.cell(sq);
            if c == OFF {
                return;
            }
            self.line = line;
            if c == EMPTY {
                if ray.mode.quiet {
                    let took = flew_enemy && self.rules.range.captures_flown_over;
                    self.land(sq, ray, false, out, keys, captured || took, flew, final_leg);
                }
                continue;
            }
            let enemy = cell_side(c) != self.side;
            match ray.kind {
                Kind::Plain | Kind::Hop(_) => {
                    let bars = if ray.shoot {
                        &self.bars.shoot
                    } else {
                        &self.bars.capture
                    };
                    if ((enemy && ray.mode.capture) || (!enemy && ray.mode.own)) && !barred(bars, c)
                    {
                        let took = captured || enemy;
                        self.land(sq, ray, true, out, keys, took, false, final_leg);
                    }
                    // A rider stops at the first piece; a hopper may pass a few, not those it
                    // may not hop over.
                    if hops_left == 0 || barred(&self.bars.hop, c) {
                        return;
                    }
                    if hops_left != u8::MAX {
                        hops_left -= 1;
                    }
                }
                Kind::Range => {
                    let lower = self.rank_of(c) > self.rank;
                    let may_land = if lower {
                        (enemy && ray.mode.capture) || (!enemy && self.rules.range.end_on_friend)
                    } else {
                        enemy && ray.mode.capture && self.rules.range.end_on_higher
                    };
                    let took_enemy = flew_enemy && self.rules.range.captures_flown_over;
                    if may_land {
                        self.land(
                            sq,
                            ray,
                            true,
                            out,
                            keys,
                            captured || enemy || took_enemy,
                            flew,
                            final_leg,
                        );
                    }
                    if !lower {
                        return;
                    }
                    flew = true;
                    flew_enemy |= enemy;
                    if self.rules.range.captures_flown_over {
                        line |= 1 << step;
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn land(
        &mut self,
        sq: usize,
        ray: &Ray,
        occupied: bool,
        out: &mut Vec<Move>,
        keys: &mut Vec<(usize, u64)>,
        captured: bool,
        range: bool,
        final_leg: bool,
    ) {
        if ray.shoot {
            self.land_shot(sq, ray, out, keys, captured, final_leg);
            return;
        }
        if final_leg {
            self.emit(sq, captured, range, out, keys);
            return;
        }
        if self.n_stops == MAX_STOPS {
            return;
        }
        if occupied {
            self.taken[self.n_taken] = sq;
            self.n_taken += 1;
        }
        let capturable = ray.mode.capture || ray.mode.own;
        let at = std::mem::replace(&mut self.at, sq);
        for next in &ray.next {
            // The stop is part of the move where the piece could capture, or where it turns
            // or shoots; a stop on the way straight on is only a waypoint.
            let recorded = capturable || next.shoot || next.vec.unit() != ray.vec.unit();
            if recorded {
                self.stops[self.n_stops] = (sq, capturable);
                self.n_stops += 1;
            }
            self.walk(sq, next, out, keys, captured);
            if recorded {
                self.n_stops -= 1;
            }
        }
        self.at = at;
        if occupied {
            self.n_taken -= 1;
        }
    }

    /// A shot hits the piece on `sq`: it is a stop that takes it, and the piece stays where
    /// it stands ([`Ctx::at`]) to end the move there or go on from there.
    fn land_shot(
        &mut self,
        sq: usize,
        ray: &Ray,
        out: &mut Vec<Move>,
        keys: &mut Vec<(usize, u64)>,
        captured: bool,
        final_leg: bool,
    ) {
        if self.n_stops == MAX_STOPS {
            return;
        }
        let captured = captured || cell_side(self.pos.cell(sq)) != self.side;
        self.taken[self.n_taken] = sq;
        self.n_taken += 1;
        self.stops[self.n_stops] = (sq, true);
        self.shots |= 1 << self.n_stops;
        self.n_stops += 1;
        if final_leg {
            self.emit(self.at, captured, false, out, keys);
        } else {
            for next in &ray.next {
                self.walk(self.at, next, out, keys, captured);
            }
        }
        self.n_stops -= 1;
        self.shots &= !(1 << self.n_stops);
        self.n_taken -= 1;
    }
}

#[inline]
fn push(out: &mut Vec<Move>, keys: &mut Vec<(usize, u64)>, m: Move, key: u64) {
    if m.n_stops > 0 {
        keys.push((out.len(), key));
    }
    out.push(m);
}

/// Appends the moves of the piece on mailbox cell `idx` (which must belong to `side`).
pub(crate) fn piece_moves(
    pos: &Position,
    idx: usize,
    rules: &GenRules,
    kinds: &KindTable,
    scratch: &mut Scratch,
    out: &mut Vec<Move>,
) {
    piece_moves_traced(pos, idx, rules, kinds, scratch, out, None);
}

/// [`piece_moves`], recording in `trace` (when given) every cell the moves depend on,
/// the piece's own cell first.
pub(crate) fn piece_moves_traced(
    pos: &Position,
    idx: usize,
    rules: &GenRules,
    kinds: &KindTable,
    scratch: &mut Scratch,
    out: &mut Vec<Move>,
    mut trace: Option<&mut Vec<usize>>,
) {
    if let Some(t) = &mut trace {
        t.push(idx);
    }
    let Some(piece) = decode(pos.cell(idx)) else {
        return;
    };
    let side = piece.side.index();
    let fx = kinds.effects.as_ref();
    let own = &kinds.compiled[piece.kind as usize][side];
    let (compiled, can_promote) = match fx {
        Some(fx) => under_effects(fx, pos, piece, own),
        None => (
            own,
            kinds.promotes[piece.kind as usize] && (!piece.promoted || rules.repromote),
        ),
    };
    let start = out.len();
    let mut keys = std::mem::take(&mut scratch.keys);
    keys.clear();
    let mut ctx = Ctx {
        pos,
        rules,
        kinds,
        side,
        origin: idx,
        rank: kinds.rank[piece.kind as usize],
        can_promote,
        stuck: kinds
            .stuck
            .get(piece.kind as usize)
            .map_or(&[][..], |s| &s[side][..]),
        clears_path: rules.range.every_move && kinds.range_piece[piece.kind as usize],
        bars: &kinds.bars[piece.kind as usize],
        at: idx,
        burns: kinds.burns[piece.kind as usize],
        fogged: false,
        taken: [0; MAX_STOPS],
        n_taken: 0,
        stops: [(0, false); MAX_STOPS],
        n_stops: 0,
        shots: 0,
        line: 0,
        captures_only: scratch.captures_only,
        gainful: scratch.gainful && !kinds.royal[piece.kind as usize],
        clears_enemy: false,
        trace,
    };
    if let Some(auras) = &kinds.auras {
        if auras.net_holding(pos, idx, side, &mut ctx.trace).is_some() {
            scratch.keys = keys;
            return;
        }
        let at = (idx, side, piece.kind);
        ctx.fogged = auras
            .fog_holding(pos, &kinds.squares, at, &mut ctx.trace)
            .is_some();
    }
    // When only existence matters, stop after the first ray that yields a move.
    let done = |out: &Vec<Move>| scratch.existence && out.len() > start;
    if kinds.general[piece.kind as usize] {
        // A burning move needs its landing's neighbours, which only `emit` looks at, and only
        // `walk` knows immunities: the tight loop stays as tight as it was.
        for ray in &compiled.simple {
            if done(out) {
                break;
            }
            ctx.walk(idx, ray, out, &mut keys, false);
        }
    } else {
        for ray in &compiled.simple {
            if done(out) {
                break;
            }
            ctx.walk_simple(ray, out, &mut keys);
        }
    }
    for ray in &compiled.rays {
        if done(out) {
            break;
        }
        ctx.walk(idx, ray, out, &mut keys, false);
    }
    if compiled.dedup && !scratch.existence {
        dedup(out, start, &keys, scratch);
    }
    if let Some(fx) = fx {
        adjust(fx, pos, piece, out, start);
    }
    scratch.keys = keys;
}

/// The movement `piece` has under the game's effects (`own` unless they change it), and
/// whether it may promote in the zone now. Out of line, as [`adjust`]: most games have no
/// effects, and their generation should not pay for the code.
#[inline(never)]
fn under_effects<'a>(
    fx: &'a crate::effects::EffectTable,
    pos: &Position,
    piece: Piece,
    own: &'a Compiled,
) -> (&'a Compiled, bool) {
    let compiled = fx.alternative(pos, piece).unwrap_or(own);
    (compiled, fx.may_promote_in_zone(pos, piece))
}

/// The game's effects on the moves `piece` generated, `out[start..]` (promotion by capture).
#[inline(never)]
fn adjust(
    fx: &crate::effects::EffectTable,
    pos: &Position,
    piece: Piece,
    out: &mut Vec<Move>,
    start: usize,
) {
    fx.adjust(pos, piece, out, start);
}

/// Removes later duplicates among `out[start..]`, keeping the first of each. Moves are the
/// same when they have the same destination and flags and, for multi-leg moves, the same key
/// (see [`Ctx::emit`]); a multi-leg move with key 0 is the same as the plain move to its
/// destination.
fn dedup(out: &mut Vec<Move>, start: usize, keys: &[(usize, u64)], scratch: &mut Scratch) {
    scratch.epoch = scratch.epoch.wrapping_add(1);
    if scratch.epoch == 0 {
        scratch.stamp.iter_mut().for_each(|s| *s = 0);
        scratch.epoch = 1;
    }
    let needed = out[start..]
        .iter()
        .map(|m| m.to.0 as usize + 1)
        .max()
        .unwrap_or(0)
        * 4;
    if scratch.stamp.len() < needed {
        scratch.stamp.resize(needed, 0);
    }
    let mut multi: Vec<(Square, u8, u64)> = Vec::new();
    let mut keys = keys.iter().peekable();
    let mut write = start;
    for read in start..out.len() {
        let m = out[read];
        let key = if m.n_stops > 0 {
            while keys.peek().is_some_and(|&&(i, _)| i < read) {
                keys.next();
            }
            if scratch.all_paths {
                m.path()
                    .iter()
                    .fold(0u64, |k, s| k << 14 | (s.0 as u64 + 1))
            } else {
                keys.peek()
                    .filter(|&&&(i, _)| i == read)
                    .map_or(0, |&&(_, k)| k)
            }
        } else {
            0
        };
        let keep = if key == 0 {
            let slot = m.to.0 as usize * 4 + (m.flags & (PROMOTE | RANGE)) as usize;
            let fresh = scratch.stamp[slot] != scratch.epoch;
            scratch.stamp[slot] = scratch.epoch;
            fresh
        } else {
            let id = (m.to, m.flags, key);
            let fresh = !multi.contains(&id);
            if fresh {
                multi.push(id);
            }
            fresh
        };
        if keep {
            out[write] = m;
            write += 1;
        }
    }
    out.truncate(write);
}

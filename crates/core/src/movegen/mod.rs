//! The one generic move generator. Each piece kind's patterns are compiled, per side, into
//! rays on the padded mailbox ([`crate::compile`]); generation walks them ([`walk`]). No piece
//! is special-cased here: lions, hook movers, range capturers and hoppers are all data.
//!
//! These functions work on the compiled tables; [`crate::rules::Rules`] is their façade.

mod trading;
mod walk;

use crate::compile::Compiled;
use crate::effects::EffectTable;
use crate::geometry::{Side, Square};
use crate::moves::{Move, PROMOTE, RANGE};
use crate::piece::Piece;
use crate::position::Position;
use crate::tables::Tables;
use walk::Ctx;

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
    /// Leave the trade rules aside (while judging whether a piece is protected).
    trade_free: bool,
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

/// Appends the moves of the piece on mailbox cell `idx`, as if it were its side's turn.
pub(crate) fn piece_moves(
    pos: &Position,
    idx: usize,
    kinds: &Tables,
    scratch: &mut Scratch,
    out: &mut Vec<Move>,
) {
    piece_moves_traced(pos, idx, kinds, scratch, out, None);
}

/// [`piece_moves`], recording in `trace` (when given) every cell the moves depend on,
/// the piece's own cell first.
pub(crate) fn piece_moves_traced(
    pos: &Position,
    idx: usize,
    kinds: &Tables,
    scratch: &mut Scratch,
    out: &mut Vec<Move>,
    mut trace: Option<&mut Vec<usize>>,
) {
    if let Some(t) = &mut trace {
        t.push(idx);
    }
    let rules = &kinds.params;
    let Some(piece) = crate::piece::decode(pos.cell(idx)) else {
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
    let mut ctx = Ctx::new(pos, idx, kinds, piece, can_promote, scratch, trace);
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
    let mut ctx_trace = ctx.trace.take();
    if compiled.dedup && !scratch.existence {
        dedup(out, start, &keys, scratch);
    }
    if let Some(fx) = fx {
        adjust(fx, pos, piece, out, start);
    }
    if let Some(trade) = &kinds.trade
        && !scratch.trade_free
    {
        trading::filter(kinds, trade, pos, piece, out, start);
        // Whether a piece is protected reads the whole board.
        if let Some(t) = &mut ctx_trace {
            t.extend(kinds.dims.squares().map(|sq| kinds.cell_index(sq)));
        }
    }
    scratch.keys = keys;
}

/// The movement `piece` has under the game's effects (`own` unless they change it), and
/// whether it may promote in the zone now. Out of line, as [`adjust`]: most games have no
/// effects, and their generation should not pay for the code.
#[inline(never)]
fn under_effects<'a>(
    fx: &'a EffectTable,
    pos: &Position,
    piece: Piece,
    own: &'a Compiled,
) -> (&'a Compiled, bool) {
    let compiled = fx.alternative(pos, piece).unwrap_or(own);
    (compiled, fx.may_promote_in_zone(pos, piece))
}

/// The game's effects on the moves `piece` generated, `out[start..]` (promotion by capture).
#[inline(never)]
fn adjust(fx: &EffectTable, pos: &Position, piece: Piece, out: &mut Vec<Move>, start: usize) {
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

/// The moves of every piece of `side`, whoever is to move, appended to `out`.
pub(crate) fn side_moves(
    pos: &Position,
    side: Side,
    kinds: &Tables,
    scratch: &mut Scratch,
    out: &mut Vec<Move>,
) {
    for idx in pos.side_cells(side) {
        piece_moves(pos, idx, kinds, scratch, out);
    }
}

/// Whether the side to move has a move. Cheap: generation stops at the first piece that has
/// one, as cozy-chess's `status()` does, trying the most advanced pieces first (at the opening
/// the back ranks are blocked in).
pub(crate) fn has_move(pos: &Position, kinds: &Tables) -> bool {
    let mut scratch = Scratch::existence();
    let mut out = Vec::with_capacity(64);
    pos.side_cells_front_first(pos.to_move()).any(|idx| {
        piece_moves(pos, idx, kinds, &mut scratch, &mut out);
        !out.is_empty()
    })
}

/// Whether the piece on mailbox cell `idx` could capture one of `side`'s royals (the pieces
/// the end rule counts) if it were its turn. `buf` is scratch space.
pub(crate) fn threatens_royal(
    pos: &Position,
    idx: usize,
    side: Side,
    kinds: &Tables,
    scratch: &mut Scratch,
    buf: &mut Vec<Move>,
) -> bool {
    buf.clear();
    let was = scratch.set_captures_only(true);
    piece_moves(pos, idx, kinds, scratch, buf);
    scratch.set_captures_only(was);
    buf.iter().any(|m| {
        m.victims(kinds.dims).any(|sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.side == side && kinds.vital[p.kind as usize])
        })
    })
}

/// Per kind that promotes, per side, per mailbox cell: whether the piece, unpromoted and
/// alone on the board there, has no move ([`Tables::stuck`]).
pub(crate) fn stuck_squares(kinds: &Tables, empty: &Position) -> Vec<[Vec<bool>; 2]> {
    let cells = empty.cells().len();
    (0..kinds.promotes.len())
        .map(|kind| {
            let mut table = [vec![false; cells], vec![false; cells]];
            if !kinds.promotes[kind] {
                return table;
            }
            for side in Side::BOTH {
                for sq in kinds.dims.squares() {
                    let mut pos = empty.clone();
                    let piece = Piece {
                        kind: kind as u16,
                        side,
                        promoted: false,
                    };
                    pos.put(sq, Some(piece), &kinds.vital);
                    let mut out = Vec::new();
                    let idx = kinds.cell_index(sq);
                    piece_moves(&pos, idx, kinds, &mut Scratch::default(), &mut out);
                    table[side.index()][idx] = out.is_empty();
                }
            }
            table
        })
        .collect()
}

/// The moves of the piece on `sq`, every path of a multi-leg move or one per result.
pub(crate) fn moves_from(pos: &Position, sq: Square, kinds: &Tables, all_paths: bool) -> Vec<Move> {
    let mut out = Vec::new();
    let mut scratch = match all_paths {
        true => Scratch::all_paths(),
        false => Scratch::default(),
    };
    piece_moves(pos, kinds.cell_index(sq), kinds, &mut scratch, &mut out);
    out
}

//! Making and unmaking moves: [`make`] plays a move in place and returns an [`Undo`] token;
//! [`unmake`] takes it back, restoring the position exactly (cells, side to move, move number,
//! royal counts, outcome, hash, piece sets). A search walks the tree with these instead of
//! copying the 1,936-cell board at every node. They work on the compiled tables; the façade,
//! [`crate::rules::Rules`], offers them as methods.

use crate::geometry::Side;
use crate::moves::Move;
use crate::piece::{Cell, decode, encode};
use crate::position::Position;
use crate::position::{EndReason, Outcome};
use crate::tables::Tables;

/// What [`unmake`] needs besides the position: the move, the piece that made it (before
/// promotion), the outcome before it, and how many removed pieces the position's stack held
/// before it (the move's victims are above that mark; there is no limit to their number), and
/// after them (the cells the game's effects changed are above that one).
#[derive(Clone, Copy, Debug)]
#[must_use = "unmake needs the token"]
pub struct Undo {
    m: Move,
    mover: Cell,
    mark: u32,
    effects_mark: u32,
    outcome: Option<Outcome>,
    /// [`Position::struck`] before the move.
    struck: bool,
}

impl Undo {
    /// The cells the game's effects changed after the move's own squares (Kō shōgi's linked
    /// promotions, reversions), each once with its contents before the first change, oldest
    /// first: read from the position the move left, before anything else is made or unmade.
    pub fn effect_changes<'a>(
        &self,
        pos: &'a Position,
    ) -> impl Iterator<Item = (usize, Cell)> + 'a {
        let all = pos.removed.get(self.effects_mark as usize..).unwrap_or(&[]);
        all.iter()
            .enumerate()
            .filter(move |&(k, &(i, _))| all[..k].iter().all(|&(j, _)| j != i))
            .map(|(_, &(i, old))| (i as usize, old))
    }

    /// How many cells the game's effects changed (see [`Undo::effect_changes`]).
    pub fn effects_changed(&self, pos: &Position) -> usize {
        self.effect_changes(pos).count()
    }
}

/// Plays `m` (one of the position's legal moves) in place; [`unmake`] with the
/// returned token takes it back. Moves must be unmade in the reverse order they were made.
pub(crate) fn make(t: &Tables, pos: &mut Position, m: &Move) -> Undo {
    let from = t.cell_index(m.from);
    let to = t.cell_index(m.to);
    let mut undo = Undo {
        m: *m,
        mover: pos.cell(from),
        mark: pos.removed.len() as u32,
        effects_mark: 0,
        outcome: pos.outcome(),
        struck: pos.struck(),
    };
    let mut strikes = false;
    for sq in m.victims(t.dims) {
        let i = t.cell_index(sq);
        let victim = pos.take_index(i, &t.vital);
        strikes |= t
            .trade
            .as_ref()
            .is_some_and(|tr| tr.strikes(undo.mover, victim));
        pos.removed.push((i as u32, victim));
    }
    pos.set_struck(strikes);
    // The destination is empty now: a piece there was a victim (or the mover itself).
    pos.take_index(from, &t.vital);
    pos.place_index(to, arriving(t, undo.mover, m), &t.vital);
    undo.effects_mark = pos.removed.len() as u32;
    let changed = t.effects.as_ref().is_some_and(|fx| {
        let mover = decode(undo.mover).expect("a move starts from a piece");
        fx.after_move(pos, mover, m, &|pos, i, cell| {
            pos.removed.push((i as u32, pos.cell(i)));
            pos.put_index(i, cell, &t.vital);
        })
    });
    pos.set_to_move(pos.to_move().opponent());
    pos.ply += 1;
    // Only a capture, a promotion or an effect changes which pieces each side has.
    if m.captures() || m.promotes() || changed {
        judge(t, pos);
    }
    undo
}

/// The piece `mover` as it stands after `m`: promoted if the move promotes it.
fn arriving(t: &Tables, mover: Cell, m: &Move) -> Cell {
    let mut piece = decode(mover).expect("a move starts from a piece");
    if m.promotes()
        && let Some(k) = t.promotes_to[piece.kind as usize]
    {
        piece.kind = k;
        piece.promoted = true;
    }
    encode(piece)
}

/// Takes back the move [`make`] returned `undo` for (it must be the last one made
/// and not yet unmade).
pub(crate) fn unmake(t: &Tables, pos: &mut Position, undo: Undo) {
    // First what the effects changed, newest first: the position as the move left it.
    while pos.removed.len() > undo.effects_mark as usize {
        let (i, cell) = pos.removed.pop().expect("above the mark");
        pos.put_index(i as usize, cell, &t.vital);
    }
    pos.take_index(t.cell_index(undo.m.to), &t.vital);
    pos.place_index(t.cell_index(undo.m.from), undo.mover, &t.vital);
    while pos.removed.len() > undo.mark as usize {
        let (i, cell) = pos.removed.pop().expect("above the mark");
        pos.place_index(i as usize, cell, &t.vital);
    }
    pos.set_to_move(pos.to_move().opponent());
    pos.ply -= 1;
    pos.set_struck(undo.struck);
    pos.set_outcome(undo.outcome);
}

/// Plays a move known to be legal, for good.
pub(crate) fn play_unchecked(t: &Tables, pos: &mut Position, m: &Move) {
    let undo = make(t, pos, m);
    pos.removed.truncate(undo.mark as usize);
}

/// Judges the game after a change: lost by the side that no longer has what the end rule asks
/// (a conceded game stays conceded).
pub(crate) fn judge(t: &Tables, pos: &mut Position) {
    if pos.outcome().is_some_and(|o| o.reason.is_conceded()) {
        return;
    }
    let lost = |side| !survives(t, pos, side);
    pos.set_outcome(match (lost(Side::Black), lost(Side::White)) {
        (true, true) | (false, false) => None,
        (true, false) => Some(Outcome {
            winner: Side::White,
            reason: EndReason::RoyalsCaptured,
        }),
        (false, true) => Some(Outcome {
            winner: Side::Black,
            reason: EndReason::RoyalsCaptured,
        }),
    });
}

/// Whether a side still has what the game's end rule asks: the count of the pieces it
/// involves decides, unless the rule needs several kinds at once.
fn survives(t: &Tables, pos: &Position, side: Side) -> bool {
    if pos.royals(side) == 0 {
        return false;
    }
    t.end.is_any_piece() || t.end.survives(|k| pos.count(side, k) > 0)
}

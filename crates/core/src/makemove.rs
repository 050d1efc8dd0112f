//! Making and unmaking moves: [`Rules::make`] plays a move in place and returns an [`Undo`]
//! token; [`Rules::unmake`] takes it back, restoring the position exactly (cells, side to move,
//! move number, royal counts, outcome, hash, piece sets). A search walks the tree with these
//! instead of copying the 1,936-cell board at every node.

use crate::movegen::Move;
use crate::position::{Cell, Position, decode, encode};
use crate::rules::Rules;

/// What [`Rules::unmake`] needs besides the position: the move, the piece that made it (before
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
    outcome: Option<crate::position::Outcome>,
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

impl Rules {
    /// Plays `m` (one of the position's legal moves) in place; [`Rules::unmake`] with the
    /// returned token takes it back. Moves must be unmade in the reverse order they were made.
    pub fn make(&self, pos: &mut Position, m: &Move) -> Undo {
        let from = self.cell_index(m.from);
        let to = self.cell_index(m.to);
        let mut undo = Undo {
            m: *m,
            mover: pos.cell(from),
            mark: pos.removed.len() as u32,
            effects_mark: 0,
            outcome: pos.outcome(),
        };
        for sq in m.victims(self.dims()) {
            let i = self.cell_index(sq);
            let victim = pos.take_index(i, &self.vital);
            pos.removed.push((i as u32, victim));
        }
        // The destination is empty now: a piece there was a victim (or the mover itself).
        pos.take_index(from, &self.vital);
        pos.place_index(to, self.arriving(undo.mover, m), &self.vital);
        undo.effects_mark = pos.removed.len() as u32;
        let changed = self.kinds.effects.as_ref().is_some_and(|fx| {
            let mover = decode(undo.mover).expect("a move starts from a piece");
            fx.after_move(pos, mover, m, &|pos, i, cell| {
                pos.removed.push((i as u32, pos.cell(i)));
                pos.put_index(i, cell, &self.vital);
            })
        });
        pos.set_to_move(pos.to_move().opponent());
        pos.ply += 1;
        // Only a capture, a promotion or an effect changes which pieces each side has.
        if m.captures() || m.promotes() || changed {
            self.update_outcome(pos);
        }
        undo
    }

    /// The piece `mover` as it stands after `m`: promoted if the move promotes it.
    fn arriving(&self, mover: crate::position::Cell, m: &Move) -> crate::position::Cell {
        let mut piece = decode(mover).expect("a move starts from a piece");
        if m.promotes()
            && let Some(k) = self.readings[piece.kind as usize].promotes_to
        {
            piece.kind = k;
            piece.promoted = true;
        }
        encode(piece)
    }

    /// Takes back the move [`Rules::make`] returned `undo` for (it must be the last one made
    /// and not yet unmade).
    pub fn unmake(&self, pos: &mut Position, undo: Undo) {
        // First what the effects changed, newest first: the position as the move left it.
        while pos.removed.len() > undo.effects_mark as usize {
            let (i, cell) = pos.removed.pop().expect("above the mark");
            pos.put_index(i as usize, cell, &self.vital);
        }
        pos.take_index(self.cell_index(undo.m.to), &self.vital);
        pos.place_index(self.cell_index(undo.m.from), undo.mover, &self.vital);
        while pos.removed.len() > undo.mark as usize {
            let (i, cell) = pos.removed.pop().expect("above the mark");
            pos.place_index(i as usize, cell, &self.vital);
        }
        pos.set_to_move(pos.to_move().opponent());
        pos.ply -= 1;
        pos.set_outcome(undo.outcome);
    }

    /// Whether the position's hash, royal counts and piece sets agree with its board (for
    /// tests and debugging: it recomputes them all).
    pub fn is_consistent(&self, pos: &Position) -> bool {
        pos.is_consistent(&self.vital)
    }

    /// Plays a move known to be legal, for good.
    pub fn play_unchecked(&self, pos: &mut Position, m: &Move) {
        let undo = self.make(pos, m);
        pos.removed.truncate(undo.mark as usize);
    }
}

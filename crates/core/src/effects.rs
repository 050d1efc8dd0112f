//! Game-level rules beyond a piece's own movement ("effects"), all data (`[effects]` of a game
//! file, Kō shōgi's): promotion triggered by capturing certain kinds, promotion linked to
//! another piece's (which may also remove enemy pieces), movements and promotion that depend
//! on whether some kind of one's own is still on the board, and reversion of promoted pieces
//! (when a kind they depend on is gone, or near certain enemy pieces).
//!
//! Two hooks apply them: the generator asks which moves promote ([`EffectTable::may_promote`],
//! [`EffectTable::adjust`]) and which movement a piece has now ([`EffectTable::alternative`]);
//! [`EffectTable::after_move`] makes the changes a move causes beyond its own squares, recording
//! every changed cell on the position's undo stack so that unmake restores them exactly (and
//! with them the hash, counts and piece sets).

use crate::betza::{LegError, Pattern};
use crate::catalogue::{Catalogue, KindId};
use crate::compile::Compiled;
use crate::geometry::{Dims, Side, Square};
use crate::moves::Move;
use crate::params::{Effects, Link, Params, Within};
use crate::piece::{Cell, EMPTY, Piece, decode, encode};
use crate::position::Position;

/// A movement compiled for both sides, `[black, white]`.
type Both = [Compiled; 2];

/// Compiles a movement for both sides.
pub(crate) type Compile<'a> = &'a dyn Fn(&[Pattern]) -> Result<Both, LegError>;

/// Why a game's effects do not compile under a rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EffectError {
    #[error("effects: movement {betza:?}: {error}")]
    Movement { betza: String, error: LegError },
    #[error("effects: revert_near: {code} must be what exactly one kind promotes to")]
    RevertNear { code: String },
}

/// While a side has none of the first kinds, its promoted pieces of each pair's first kind
/// revert to the second.
type Reversion = (Vec<KindId>, Vec<(KindId, KindId)>);

/// The effects compiled for one game under one rule set, indexed by kind.
#[derive(Debug)]
pub(crate) struct EffectTable {
    /// Per capturer kind, per victim kind: whether the capture promotes the capturer.
    promoting: Vec<Vec<bool>>,
    /// Per kind: the kinds of which its side must keep one for it to promote.
    needs: Vec<Vec<KindId>>,
    zone_exempt: Vec<bool>,
    /// Per kind: its other movement, and the kinds whose absence selects it.
    alternative: Vec<Option<(Vec<KindId>, Both)>>,
    links: Vec<Link>,
    /// `(alive, [(promoted kind, the kind it reverts to)])`.
    reversions: Vec<Reversion>,
    /// `(piece kind, the kind it reverts to, enemy kinds, distance)`.
    near: Vec<(KindId, KindId, Vec<KindId>, u8)>,
    within: Within,
    /// Per kind: what it promotes to under the rule set.
    promotes_to: Vec<Option<KindId>>,
    repromote: bool,
    dims: Dims,
    /// Per kind: it burns; `None` unless a piece arriving next to an enemy one is burnt.
    burnt_on_arrival: Option<Vec<bool>>,
    fireproof: bool,
}

/// What [`EffectTable::build`] needs from the rule set.
pub(crate) struct Build<'a> {
    pub catalogue: &'a Catalogue,
    pub promotes_to: Vec<Option<KindId>>,
    pub params: &'a Params,
    pub dims: Dims,
    /// Compiles a movement for both sides.
    pub compile: Compile<'a>,
}

impl EffectTable {
    /// Compiles a game's effects; `None` when it has none (and no option asks for anything).
    pub(crate) fn build(fx: &Effects, b: Build) -> Result<Option<EffectTable>, EffectError> {
        let n = b.catalogue.len();
        let burns: Vec<bool> = b.catalogue.kinds.iter().map(|k| k.burns).collect();
        let passive = b.params.burning.arrivals && burns.contains(&true);
        if fx.is_empty() && b.params.zone_exempt.is_empty() && !passive {
            return Ok(None);
        }
        let mut promoting = vec![vec![false; n]; n];
        for rule in &fx.promote_on_capture {
            let all: Vec<KindId> = (0..n as KindId).collect();
            for &c in rule.capturers.as_ref().unwrap_or(&all) {
                for &v in &rule.victims {
                    promoting[c as usize][v as usize] = true;
                }
            }
        }
        let mut needs = vec![Vec::new(); n];
        let mut reversions = Vec::new();
        for d in &fx.depends_on {
            let mut back = Vec::new();
            for &k in &d.pieces {
                needs[k as usize].extend(&d.alive);
                if let Some(p) = b.promotes_to[k as usize] {
                    back.push((p, k));
                }
            }
            reversions.push((d.alive.clone(), back));
        }
        let mut alternative: Vec<Option<(Vec<KindId>, Both)>> = (0..n).map(|_| None).collect();
        for a in &fx.moves_while_absent {
            let compiled = (b.compile)(&a.patterns).map_err(|error| EffectError::Movement {
                betza: a.betza.clone(),
                error,
            })?;
            for &k in &a.pieces {
                alternative[k as usize] = Some((a.absent.clone(), compiled.clone()));
            }
        }
        let mut near = Vec::new();
        for p in &fx.revert_near {
            for &k in &p.pieces {
                let from = promoter(&b.promotes_to, k).ok_or_else(|| EffectError::RevertNear {
                    code: b.catalogue.kind(k).code.clone(),
                })?;
                near.push((k, from, p.enemy.clone(), p.within));
            }
        }
        let mut zone_exempt = vec![false; n];
        for &k in &b.params.zone_exempt {
            zone_exempt[k as usize] = true;
        }
        Ok(Some(EffectTable {
            promoting,
            needs,
            zone_exempt,
            alternative,
            links: fx.linked_promotion.clone(),
            reversions,
            near,
            within: b.params.within,
            promotes_to: b.promotes_to,
            repromote: b.params.repromote,
            dims: b.dims,
            burnt_on_arrival: passive.then_some(burns),
            fireproof: b.params.burning.fireproof,
        }))
    }

    /// The kinds whose presence on the board (per side) generation reads: those a kind needs
    /// to promote and those whose absence gives a kind its other movement. Nothing else a
    /// piece's moves depend on lies off the cells its generation reads ([`crate::attacks`]).
    pub(crate) fn watched_kinds(&self) -> Vec<KindId> {
        let absent = self.alternative.iter().flatten().map(|(a, _)| a);
        let mut kinds: Vec<KindId> = self.needs.iter().chain(absent).flatten().copied().collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }

    /// Whether `piece` may promote now: it has a promotion, has not promoted (unless the rule
    /// set allows promoting again), and its side keeps what it depends on.
    pub(crate) fn may_promote(&self, pos: &Position, piece: Piece) -> bool {
        let k = piece.kind as usize;
        self.promotes_to[k].is_some()
            && (!piece.promoted || self.repromote)
            && (self.needs[k].is_empty() || pos.has_any(piece.side, &self.needs[k]))
    }

    /// Whether `piece` may promote by entering the zone now.
    pub(crate) fn may_promote_in_zone(&self, pos: &Position, piece: Piece) -> bool {
        !self.zone_exempt[piece.kind as usize] && self.may_promote(pos, piece)
    }

    /// The movement `piece` has now, if not its own.
    pub(crate) fn alternative(&self, pos: &Position, piece: Piece) -> Option<&Compiled> {
        let (absent, compiled) = self.alternative[piece.kind as usize].as_ref()?;
        (!pos.has_any(piece.side, absent)).then(|| &compiled[piece.side.index()])
    }

    /// Marks as promoting the moves of `piece` in `out[start..]` that capture a kind whose
    /// capture promotes it, and drops the duplicates that leaves (an optional zone promotion
    /// offered both ways becomes compulsory).
    pub(crate) fn adjust(&self, pos: &Position, piece: Piece, out: &mut Vec<Move>, start: usize) {
        let promoting = &self.promoting[piece.kind as usize];
        if !promoting.contains(&true) || !self.may_promote(pos, piece) {
            return;
        }
        let mut changed = false;
        for m in &mut out[start..] {
            if !m.promotes() && self.capture_promotes(pos, piece, m, promoting) {
                *m = m.with_promotion(true);
                changed = true;
            }
        }
        if changed {
            let mut write = start;
            for read in start..out.len() {
                let m = out[read];
                if !out[start..write].contains(&m) {
                    out[write] = m;
                    write += 1;
                }
            }
            out.truncate(write);
        }
    }

    fn capture_promotes(&self, pos: &Position, piece: Piece, m: &Move, promoting: &[bool]) -> bool {
        m.victims(self.dims).any(|sq| {
            pos.piece_at(sq)
                .is_some_and(|v| v.side != piece.side && promoting[v.kind as usize])
        })
    }

    /// Makes what move `m` (just played by `mover`, as it stood before the move) causes beyond
    /// its own squares. Every cell changed is pushed on `pos.removed` with its old contents.
    /// Returns whether anything changed.
    pub(crate) fn after_move(
        &self,
        pos: &mut Position,
        mover: Piece,
        m: &Move,
        set: &dyn Fn(&mut Position, usize, Cell),
    ) -> bool {
        let mut changed = false;
        if self.burnt_on_arrival(pos, m) {
            // It never stands there promoted: nothing is linked to its promotion.
            set(pos, pos.index(m.to), EMPTY);
            changed = true;
        } else if m.promotes() {
            changed |= self.linked(pos, mover, set);
        }
        changed |= self.revert_dependents(pos, set);
        changed |= self.revert_near(pos, set);
        changed
    }

    /// Whether the piece that just arrived on `m.to` stands next to an enemy burning piece
    /// that burns it (the rule set's `burning.arrivals`).
    fn burnt_on_arrival(&self, pos: &Position, m: &Move) -> bool {
        let Some(burns) = &self.burnt_on_arrival else {
            return false;
        };
        let Some(me) = pos.piece_at(m.to) else {
            return false;
        };
        if self.fireproof && burns[me.kind as usize] {
            return false;
        }
        let (x, y) = self.dims.xy(m.to);
        (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
            .filter_map(|(dx, dy)| self.dims.square(x + dx, y + dy))
            .filter_map(|sq| pos.piece_at(sq))
            .any(|p| p.side != me.side && burns[p.kind as usize])
    }

    fn linked(
        &self,
        pos: &mut Position,
        mover: Piece,
        set: &dyn Fn(&mut Position, usize, Cell),
    ) -> bool {
        let mut changed = false;
        for link in self.links.iter().filter(|l| l.piece == mover.kind) {
            let (own, enemy) = (mover.side, mover.side.opponent());
            for idx in cells_of(pos, own, &link.promote) {
                let p = decode(pos.cell(idx)).expect("an own piece");
                if self.may_promote(pos, p) {
                    let to = self.promotes_to[p.kind as usize].expect("may promote");
                    set(pos, idx, with_kind(p, to, true));
                    changed = true;
                }
            }
            for idx in cells_of(pos, enemy, &link.kill) {
                set(pos, idx, EMPTY);
                changed = true;
            }
        }
        changed
    }

    fn revert_dependents(
        &self,
        pos: &mut Position,
        set: &dyn Fn(&mut Position, usize, Cell),
    ) -> bool {
        let mut changed = false;
        for (alive, back) in &self.reversions {
            for side in Side::BOTH {
                let promoted: Vec<KindId> = back.iter().map(|&(p, _)| p).collect();
                if pos.has_any(side, alive) || !pos.has_any(side, &promoted) {
                    continue;
                }
                for idx in cells_of(pos, side, &promoted) {
                    let p = decode(pos.cell(idx)).expect("an own piece");
                    let &(_, to) = back.iter().find(|&&(k, _)| k == p.kind).expect("listed");
                    set(pos, idx, with_kind(p, to, false));
                    changed = true;
                }
            }
        }
        changed
    }

    fn revert_near(&self, pos: &mut Position, set: &dyn Fn(&mut Position, usize, Cell)) -> bool {
        let mut changed = false;
        for (kind, back, enemy, n) in &self.near {
            for side in Side::BOTH {
                let other = side.opponent();
                if !pos.has_any(side, &[*kind]) || !pos.has_any(other, enemy) {
                    continue;
                }
                let theirs: Vec<Square> = pos
                    .pieces()
                    .filter(|(_, p)| p.side == other && enemy.contains(&p.kind))
                    .map(|(sq, _)| sq)
                    .collect();
                for idx in cells_of(pos, side, &[*kind]) {
                    let sq = pos.square_of(idx);
                    if theirs
                        .iter()
                        .any(|&t| self.within.near(self.dims, sq, t, *n))
                    {
                        let p = decode(pos.cell(idx)).expect("an own piece");
                        set(pos, idx, with_kind(p, *back, false));
                        changed = true;
                    }
                }
            }
        }
        changed
    }
}

/// What a move's effects do beyond the move's own victims (which [`Move::victims`] lists): the
/// pieces they remove and the pieces they change into another kind, as the position after the
/// move shows them. For previews (`moves --json`, the terminal game): a move's consequences
/// there are not local, so they are read off the move played on a copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EffectChanges {
    /// Squares whose piece an effect removed (a linked promotion's kills, say), in order.
    pub removed: Vec<Square>,
    /// Squares whose piece an effect turned into another (a linked promotion, a reversion),
    /// with what it became.
    pub changed: Vec<(Square, Piece)>,
}

impl EffectChanges {
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.changed.is_empty()
    }
}

/// The kind that promotes to `kind`, if exactly one does.
fn promoter(promotes_to: &[Option<KindId>], kind: KindId) -> Option<KindId> {
    let mut from = promotes_to
        .iter()
        .enumerate()
        .filter(|(_, p)| **p == Some(kind))
        .map(|(k, _)| k as KindId);
    let first = from.next()?;
    from.next().is_none().then_some(first)
}

fn with_kind(p: Piece, kind: KindId, promoted: bool) -> Cell {
    encode(Piece {
        kind,
        side: p.side,
        promoted,
    })
}

/// The mailbox cells of `side`'s pieces of these kinds.
fn cells_of(pos: &Position, side: Side, kinds: &[KindId]) -> Vec<usize> {
    pos.side_cells(side)
        .filter(|&i| decode(pos.cell(i)).is_some_and(|p| kinds.contains(&p.kind)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_reverts_only_to_its_one_promoter() {
        let promotes_to = [Some(2), Some(2), None, Some(4), None];
        assert_eq!(promoter(&promotes_to, 4), Some(3));
        assert_eq!(promoter(&promotes_to, 2), None);
        assert_eq!(promoter(&promotes_to, 0), None);
    }
}

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

use crate::betza::{self, Pattern};
use crate::catalogue::{Catalogue, KindId};
use crate::error::{DataError, Source};
use crate::geometry::{Dims, Side, Square};
use crate::movegen::{Compiled, Move};
use crate::position::{Cell, EMPTY, Piece, Position, decode, encode};
use crate::rules::Rules;
use serde::Deserialize;
use toml::Spanned;

type Codes = Vec<Spanned<String>>;

/// A movement compiled for both sides, `[black, white]`.
type Both = [Compiled; 2];

/// Compiles a movement for both sides.
pub(crate) type Compile<'a> = &'a dyn Fn(&[Pattern]) -> Result<Both, String>;

/// While a side has none of the first kinds, its promoted pieces of each pair's first kind
/// revert to the second.
type Reversion = (Vec<KindId>, Vec<(KindId, KindId)>);

/// `[effects]` as written in a game file.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEffects {
    #[serde(default)]
    promote_on_capture: Vec<RawCapturePromotion>,
    #[serde(default)]
    linked_promotion: Vec<RawLink>,
    #[serde(default)]
    depends_on: Vec<RawDependence>,
    #[serde(default)]
    moves_while_absent: Vec<RawAltMove>,
    #[serde(default)]
    revert_near: Vec<RawProximity>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCapturePromotion {
    victims: Codes,
    capturers: Option<Codes>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    piece: Spanned<String>,
    #[serde(default)]
    promote: Codes,
    #[serde(default)]
    kill: Codes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDependence {
    pieces: Codes,
    alive: Codes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAltMove {
    pieces: Codes,
    absent: Codes,
    betza: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProximity {
    pieces: Codes,
    enemy: Codes,
    within: Spanned<u8>,
}

/// A capture that promotes the capturer: an enemy piece of one of `victims` taken by a piece
/// of one of `capturers` (any kind when `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturePromotion {
    pub victims: Vec<KindId>,
    pub capturers: Option<Vec<KindId>>,
}

/// When a piece of kind `piece` promotes, its side's pieces of `promote` promote too and the
/// enemy's pieces of `kill` are removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub piece: KindId,
    pub promote: Vec<KindId>,
    pub kill: Vec<KindId>,
}

/// While a side has no piece of `alive`, its `pieces` cannot promote, and those already
/// promoted revert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependence {
    pub pieces: Vec<KindId>,
    pub alive: Vec<KindId>,
}

/// While a side has no piece of `absent`, its `pieces` move as `betza` instead.
#[derive(Clone, Debug)]
pub struct AltMove {
    pub pieces: Vec<KindId>,
    pub absent: Vec<KindId>,
    pub betza: String,
    pub patterns: Vec<Pattern>,
}

/// A piece of `pieces` within `within` points of an enemy piece of `enemy` reverts to the kind
/// that promotes to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proximity {
    pub pieces: Vec<KindId>,
    pub enemy: Vec<KindId>,
    pub within: u8,
}

/// A game's effects, as data (empty for games without any).
#[derive(Clone, Debug, Default)]
pub struct Effects {
    pub promote_on_capture: Vec<CapturePromotion>,
    pub linked_promotion: Vec<Link>,
    pub depends_on: Vec<Dependence>,
    pub moves_while_absent: Vec<AltMove>,
    pub revert_near: Vec<Proximity>,
}

fn codes(src: &Source, catalogue: &Catalogue, list: &Codes) -> Result<Vec<KindId>, DataError> {
    list.iter().map(|c| code(src, catalogue, c)).collect()
}

fn code(src: &Source, catalogue: &Catalogue, c: &Spanned<String>) -> Result<KindId, DataError> {
    catalogue.by_code(c.get_ref()).ok_or_else(|| {
        src.error_span(
            &c.span(),
            format!("effects: {:?} is not a piece code of the game", c.get_ref()),
        )
    })
}

impl Effects {
    pub fn is_empty(&self) -> bool {
        self.promote_on_capture.is_empty()
            && self.linked_promotion.is_empty()
            && self.depends_on.is_empty()
            && self.moves_while_absent.is_empty()
            && self.revert_near.is_empty()
    }

    pub(crate) fn parse(
        src: &Source,
        raw: RawEffects,
        catalogue: &Catalogue,
    ) -> Result<Effects, DataError> {
        let mut fx = Effects::default();
        for r in &raw.promote_on_capture {
            let capturers = match &r.capturers {
                Some(c) => Some(codes(src, catalogue, c)?),
                None => None,
            };
            fx.promote_on_capture.push(CapturePromotion {
                victims: codes(src, catalogue, &r.victims)?,
                capturers,
            });
        }
        for r in &raw.linked_promotion {
            fx.linked_promotion.push(Link {
                piece: code(src, catalogue, &r.piece)?,
                promote: codes(src, catalogue, &r.promote)?,
                kill: codes(src, catalogue, &r.kill)?,
            });
        }
        for r in &raw.depends_on {
            fx.depends_on.push(Dependence {
                pieces: codes(src, catalogue, &r.pieces)?,
                alive: codes(src, catalogue, &r.alive)?,
            });
        }
        for r in &raw.moves_while_absent {
            let patterns = betza::parse(r.betza.get_ref()).map_err(|e| {
                src.error_span(
                    &r.betza.span(),
                    format!("effects: movement {:?}: {}", r.betza.get_ref(), e.message),
                )
            })?;
            fx.moves_while_absent.push(AltMove {
                pieces: codes(src, catalogue, &r.pieces)?,
                absent: codes(src, catalogue, &r.absent)?,
                betza: r.betza.get_ref().clone(),
                patterns,
            });
        }
        for r in &raw.revert_near {
            if *r.within.get_ref() == 0 {
                return Err(src.error_span(&r.within.span(), "effects: within must be 1 or more"));
            }
            fx.revert_near.push(Proximity {
                pieces: codes(src, catalogue, &r.pieces)?,
                enemy: codes(src, catalogue, &r.enemy)?,
                within: *r.within.get_ref(),
            });
        }
        Ok(fx)
    }
}

/// How "within N points" is measured (a rule-set option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    /// Anywhere in the square of side 2N+1 around the piece (Chebyshev distance; QB).
    Square,
    /// Along the eight lines from the piece, N points at most (JA).
    Lines,
}

impl Within {
    pub fn parse(s: &str) -> Option<Within> {
        match s {
            "square" => Some(Within::Square),
            "lines" => Some(Within::Lines),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Within::Square => "square",
            Within::Lines => "lines",
        }
    }

    /// Whether squares `a` and `b` are within `n` points of each other.
    pub fn near(self, dims: Dims, a: Square, b: Square, n: u8) -> bool {
        let ((ax, ay), (bx, by)) = (dims.xy(a), dims.xy(b));
        let (dx, dy) = ((ax - bx).abs(), (ay - by).abs());
        let close = dx.max(dy) <= n as i32;
        match self {
            Within::Square => close,
            Within::Lines => close && (dx == 0 || dy == 0 || dx == dy),
        }
    }
}

/// The rule-set options the effects read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EffectOptions {
    /// Kinds that do not promote by entering the zone (they still promote by capture or link).
    pub zone_exempt: Vec<KindId>,
    pub within: Within,
}

impl Default for EffectOptions {
    fn default() -> EffectOptions {
        EffectOptions {
            zone_exempt: Vec::new(),
            within: Within::Lines,
        }
    }
}

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
    pub options: &'a EffectOptions,
    pub repromote: bool,
    pub dims: Dims,
    pub burning: crate::movegen::Burning,
    /// Compiles a movement for both sides.
    pub compile: Compile<'a>,
}

impl EffectTable {
    /// Compiles a game's effects; `None` when it has none (and no option asks for anything).
    pub(crate) fn build(fx: &Effects, b: Build) -> Result<Option<EffectTable>, String> {
        let n = b.catalogue.len();
        let burns: Vec<bool> = b.catalogue.kinds.iter().map(|k| k.burns).collect();
        let passive = b.burning.arrivals && burns.contains(&true);
        if fx.is_empty() && b.options.zone_exempt.is_empty() && !passive {
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
            let compiled = (b.compile)(&a.patterns)
                .map_err(|e| format!("effects: movement {:?}: {e}", a.betza))?;
            for &k in &a.pieces {
                alternative[k as usize] = Some((a.absent.clone(), compiled.clone()));
            }
        }
        let mut near = Vec::new();
        for p in &fx.revert_near {
            for &k in &p.pieces {
                let from = promoter(&b.promotes_to, k).ok_or_else(|| {
                    format!(
                        "effects: revert_near: {} must be what exactly one kind promotes to",
                        b.catalogue.kind(k).code
                    )
                })?;
                near.push((k, from, p.enemy.clone(), p.within));
            }
        }
        let mut zone_exempt = vec![false; n];
        for &k in &b.options.zone_exempt {
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
            within: b.options.within,
            promotes_to: b.promotes_to,
            repromote: b.repromote,
            dims: b.dims,
            burnt_on_arrival: passive.then_some(burns),
            fireproof: b.burning.fireproof,
        }))
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

impl Rules {
    /// What legal move `m` in `pos` makes happen beyond its own victims (nothing in a game
    /// without effects).
    pub fn effect_changes(&self, pos: &Position, m: &Move) -> EffectChanges {
        let mut out = EffectChanges::default();
        if !self.has_effects() {
            return out;
        }
        let mut after = pos.clone();
        let undo = self.make(&mut after, m);
        for (i, old) in undo.effect_changes(&after) {
            let sq = after.square_of(i);
            match (decode(old), decode(after.cell(i))) {
                (Some(_), None) => out.removed.push(sq),
                (before, Some(p)) if before != Some(p) => out.changed.push((sq, p)),
                _ => {}
            }
        }
        out
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
    fn within_n_points_along_lines_or_in_a_square() {
        let dims = Dims {
            files: 19,
            ranks: 19,
        };
        let sq = |x, y| dims.square(x, y).unwrap();
        let c = sq(9, 9);
        for (x, y, lines, square) in [
            (14, 9, true, true),
            (15, 9, false, false),
            (4, 4, true, true),
            (3, 3, false, false),
            (13, 14, false, true),
            (10, 11, false, true),
            (9, 9, true, true),
        ] {
            assert_eq!(Within::Lines.near(dims, c, sq(x, y), 5), lines, "{x},{y}");
            assert_eq!(Within::Square.near(dims, c, sq(x, y), 5), square, "{x},{y}");
        }
    }

    #[test]
    fn a_piece_reverts_only_to_its_one_promoter() {
        let promotes_to = [Some(2), Some(2), None, Some(4), None];
        assert_eq!(promoter(&promotes_to, 4), Some(3));
        assert_eq!(promoter(&promotes_to, 2), None);
        assert_eq!(promoter(&promotes_to, 0), None);
    }
}

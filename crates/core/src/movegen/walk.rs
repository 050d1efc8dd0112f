//! The walker: follows one piece's compiled rays over the mailbox and emits its moves, leg by
//! leg (stops, shots, range flights, burning, promotion choices), tracing every cell it reads
//! when asked. It is the generator's inner loop: one tight loop for plain single-leg rays, one
//! general walk for the rest.

use crate::betza::MAX_STOPS;
use crate::compile::{Kind, Ray};
use crate::moves::{BURN, Move, NEIGHBOURS, RANGE, TOOK_TO, bits};
use crate::params::{Params, Promotion};
use crate::piece::{Cell, EMPTY, OFF, Piece, cell_side, decode};
use crate::position::Position;
use crate::tables::{Bars, Tables, barred};

pub(super) struct Ctx<'a> {
    pub(super) pos: &'a Position,
    pub(super) rules: &'a Params,
    pub(super) kinds: &'a Tables,
    pub(super) side: usize,
    pub(super) origin: usize,
    pub(super) rank: u8,
    pub(super) can_promote: bool,
    /// Where it must promote ([`KindTable::stuck`]; empty: nowhere).
    pub(super) stuck: &'a [bool],
    /// Its straight moves remove what they pass over (see [`RangeRules::every_move`]).
    pub(super) clears_path: bool,
    /// The kinds it may not take or pass.
    pub(super) bars: &'a Bars,
    /// Where the piece stands between legs (a shot leaves it there).
    pub(super) at: usize,
    /// It burns the pieces next to where it lands.
    pub(super) burns: bool,
    /// The move being emitted burns an enemy piece ([`Ctx::burn_mask`]).
    pub(super) burns_enemy: bool,
    /// An enemy fog keeps it from shooting.
    pub(super) fogged: bool,
    /// Squares emptied by earlier legs' captures.
    pub(super) taken: [usize; MAX_STOPS],
    pub(super) n_taken: usize,
    pub(super) stops: [(usize, bool); MAX_STOPS],
    pub(super) n_stops: usize,
    /// Bit `i`: stop `i` is a shot.
    pub(super) shots: u8,
    /// The victims of the range flight being emitted ([`Move::line`]).
    pub(super) line: u64,
    /// Emit only moves that remove a piece (see [`Scratch::captures_only`]).
    pub(super) captures_only: bool,
    /// Of those, leave out the ones that take only own pieces and do not promote (see
    /// [`Scratch::gainful`]; never for a royal piece).
    pub(super) gainful: bool,
    /// The path the move being emitted clears holds an enemy piece ([`Ctx::clear_path`];
    /// always false for [`Ctx::emit`]'s moves).
    pub(super) clears_enemy: bool,
    /// When set, every mailbox cell the generation looks at is recorded here: the piece's
    /// moves depend on nothing else (used to update move counts incrementally).
    pub(super) trace: Option<&'a mut Vec<usize>>,
}

impl<'a> Ctx<'a> {
    /// The walk of `piece`'s moves from mailbox cell `origin`.
    pub(super) fn new(
        pos: &'a Position,
        origin: usize,
        kinds: &'a Tables,
        piece: Piece,
        can_promote: bool,
        scratch: &super::Scratch,
        trace: Option<&'a mut Vec<usize>>,
    ) -> Ctx<'a> {
        let (side, idx, rules) = (piece.side.index(), origin, &kinds.params);
        Ctx {
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
            burns_enemy: false,
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
        }
    }
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
    pub(super) fn emit(
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
        self.burns_enemy = false;
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
                    self.burns_enemy = false;
                    return 0;
                }
            }
            if enemy || burning.own {
                mask |= 1 << i;
                self.burns_enemy |= enemy;
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
        // Taking (or burning) only its own pieces, a piece gains nothing unless it promotes.
        let keep_all = !self.gainful || captured || self.clears_enemy || self.burns_enemy;
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
                entering,
                ..
            } => {
                let zone = &self.kinds.zone[self.side];
                let (start, end) = (zone[self.origin], zone[to]);
                let eligible = if entering {
                    // Entering, or capturing where it starts or ends.
                    (start || end) && (captured || !start)
                } else {
                    end || (from_zone && start)
                } || (stops && stop_in_zone());
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
    pub(super) fn walk_simple(
        &mut self,
        ray: &Ray,
        out: &mut Vec<Move>,
        keys: &mut Vec<(usize, u64)>,
    ) {
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
    pub(super) fn walk(
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
pub(super) fn push(out: &mut Vec<Move>, keys: &mut Vec<(usize, u64)>, m: Move, key: u64) {
    if m.n_stops > 0 {
        keys.push((out.len(), key));
    }
    out.push(m);
}

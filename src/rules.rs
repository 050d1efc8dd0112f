//! Rules: [`Rules`] is one game under one rule set, compiled and ready to generate moves.

use crate::catalogue::{Catalogue, KindId, Reading};
use crate::game::{Game, RuleSet};
use crate::geometry::{Dims, Side, Square};
use crate::movegen::{self, Compiled, KindTable, Move, Promotion, Scratch};
use crate::position::{EMPTY, EndReason, Outcome, Piece, Position, decode, encode};

/// An error from building rules or playing a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown rule set {name:?}; the rule sets are: {known}")]
    UnknownRuleSet { name: String, known: String },
    #[error("piece {code}: {message}")]
    Piece { code: String, message: String },
    #[error("illegal move: {0}")]
    Illegal(String),
}

/// One game under one rule set: the piece readings compiled for both sides.
pub struct Rules {
    pub game: Game,
    pub rule_set: RuleSet,
    pub readings: Vec<Reading>,
    kinds: KindTable,
    /// Per kind, whether the game's end rule counts it (the position keeps their count).
    vital: Vec<bool>,
    pad: usize,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({}, {})", self.game.name, self.rule_set.name)
    }
}

impl Rules {
    pub fn new(game: Game, rule_set: &str) -> Result<Rules, RulesError> {
        let rs = game
            .rule_set(rule_set)
            .cloned()
            .ok_or_else(|| RulesError::UnknownRuleSet {
                name: rule_set.to_string(),
                known: game
                    .rule_sets
                    .iter()
                    .map(|r| r.name.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let dims = game.dims;
        let readings: Vec<Reading> = game
            .catalogue
            .kinds
            .iter()
            .map(|k| game.reading(k, &rs))
            .collect();
        let pad = readings
            .iter()
            .map(|r| movegen::reach(&r.patterns))
            .max()
            .unwrap_or(1);
        let stride = dims.files as usize + 2 * pad;
        let board_max = dims.files.max(dims.ranks);
        let mut compiled = Vec::with_capacity(readings.len());
        for (k, r) in game.catalogue.kinds.iter().zip(&readings) {
            let c = |side| {
                Compiled::new(&r.patterns, side, stride, board_max).map_err(|message| {
                    RulesError::Piece {
                        code: k.code.clone(),
                        message: format!("movement {:?}: {message}", r.betza),
                    }
                })
            };
            if r.betza.contains('x') && k.rank.is_none() {
                return Err(RulesError::Piece {
                    code: k.code.clone(),
                    message: "a range capturer (x) needs a rank".into(),
                });
            }
            compiled.push([c(Side::Black)?, c(Side::White)?]);
        }
        let depth = match rs.params.promotion {
            Promotion::Zone { depth, .. } => depth,
            _ => 0,
        };
        let (squares, zone) = KindTable::board_tables(dims, pad, depth);
        let kinds = KindTable {
            compiled,
            promotes: readings.iter().map(|r| r.promotes_to.is_some()).collect(),
            rank: game
                .catalogue
                .kinds
                .iter()
                .map(|k| k.rank.unwrap_or(u8::MAX))
                .collect(),
            range_piece: readings
                .iter()
                .map(|r| {
                    r.patterns
                        .iter()
                        .flat_map(|p| &p.legs)
                        .any(|l| l.kind == crate::betza::LegKind::RangeCapture)
                })
                .collect(),
            squares,
            zone,
            stuck: Vec::new(),
        };
        let vital = (0..game.catalogue.len() as KindId)
            .map(|k| game.end.involves(k))
            .collect();
        let forced = matches!(
            rs.params.promotion,
            Promotion::Zone {
                forced_where_stuck: true,
                ..
            }
        );
        let mut rules = Rules {
            game,
            rule_set: rs,
            readings,
            kinds,
            vital,
            pad,
        };
        if forced {
            rules.kinds.stuck = rules.stuck_tables();
        }
        Ok(rules)
    }

    /// A built-in game (by id, such as `sho`) under the named rule set.
    pub fn builtin(game: &str, rule_set: &str) -> Result<Rules, Box<dyn std::error::Error>> {
        Ok(Rules::new(Game::builtin(game)?, rule_set)?)
    }

    /// Per kind that promotes, per side, per mailbox cell: whether the piece, unpromoted and
    /// alone on the board there, has no move ([`KindTable::stuck`]).
    fn stuck_tables(&self) -> Vec<[Vec<bool>; 2]> {
        let cells = self.empty_position().cells().len();
        (0..self.catalogue().len() as KindId)
            .map(|kind| {
                let mut table = [vec![false; cells], vec![false; cells]];
                if !self.kinds.promotes[kind as usize] {
                    return table;
                }
                for side in Side::BOTH {
                    for sq in self.dims().squares() {
                        let mut pos = self.empty_position();
                        let piece = Piece {
                            kind,
                            side,
                            promoted: false,
                        };
                        self.put(&mut pos, sq, Some(piece));
                        table[side.index()][pos.index(sq)] = self.moves_from(&pos, sq).is_empty();
                    }
                }
                table
            })
            .collect()
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.game.catalogue
    }

    pub fn dims(&self) -> Dims {
        self.game.dims
    }

    fn is_royal(&self) -> impl Fn(KindId) -> bool + '_ {
        |k| self.vital[k as usize]
    }

    /// An empty board of this game, Black to move.
    pub fn empty_position(&self) -> Position {
        Position::empty(self.dims(), self.pad)
    }

    /// The standard start position.
    pub fn start_position(&self) -> Position {
        let mut p = self.empty_position();
        for &(sq, piece) in &self.game.setup.pieces {
            self.put(&mut p, sq, Some(piece));
        }
        p
    }

    /// Puts (or removes) a piece, keeping the position's royal count and outcome up to date.
    pub fn put(&self, pos: &mut Position, sq: Square, piece: Option<Piece>) {
        pos.put(sq, piece, &self.is_royal());
        self.update_outcome(pos);
    }

    pub(crate) fn update_outcome(&self, pos: &mut Position) {
        if matches!(pos.outcome(), Some(o) if o.reason == EndReason::Resignation) {
            return;
        }
        let lost = |side| !self.survives(pos, side);
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
    fn survives(&self, pos: &Position, side: Side) -> bool {
        if pos.royals(side) == 0 {
            return false;
        }
        let end = &self.game.end;
        end.is_any_piece() || {
            let mut has = vec![false; self.vital.len()];
            for (_, p) in pos.pieces().filter(|(_, p)| p.side == side) {
                has[p.kind as usize] = true;
            }
            end.survives(|k| has[k as usize])
        }
    }

    /// Every legal move of the side to move (none once the game is over), appended to `out`.
    pub fn legal_moves_into(&self, pos: &Position, scratch: &mut Scratch, out: &mut Vec<Move>) {
        if pos.outcome().is_some() {
            return;
        }
        let side = pos.to_move().index();
        let cells = pos.cells();
        for (idx, &c) in cells.iter().enumerate() {
            if c != EMPTY && c != crate::position::OFF && crate::position::cell_side(c) == side {
                movegen::piece_moves(pos, idx, &self.rule_set.params, &self.kinds, scratch, out);
            }
        }
    }

    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(pos, &mut Scratch::default(), &mut out);
        out
    }

    /// The moves of the piece on `sq` as if it were its side's turn, whoever is to move and
    /// even after the game has ended (for inspecting pieces).
    pub fn moves_from(&self, pos: &Position, sq: Square) -> Vec<Move> {
        let mut out = Vec::new();
        movegen::piece_moves(
            pos,
            pos.index(sq),
            &self.rule_set.params,
            &self.kinds,
            &mut Scratch::default(),
            &mut out,
        );
        out
    }

    /// [`Rules::moves_from`] with every path of a multi-leg move, not one per result: a hook
    /// move turning on either corner, a pass through any empty neighbour. For entering moves
    /// leg by leg; every one of them is a legal move.
    pub fn moves_from_all_paths(&self, pos: &Position, sq: Square) -> Vec<Move> {
        let mut out = Vec::new();
        let mut scratch = Scratch::all_paths();
        movegen::piece_moves(
            pos,
            pos.index(sq),
            &self.rule_set.params,
            &self.kinds,
            &mut scratch,
            &mut out,
        );
        out
    }

    /// The squares a move removes pieces from, in the order met.
    pub fn captures(&self, pos: &Position, m: &Move) -> Vec<Square> {
        let mut out = Vec::new();
        movegen::for_each_capture(
            pos,
            m,
            self.rule_set.params.range.captures_flown_over,
            |i| out.push(pos.square_of(i)),
        );
        out
    }

    /// Plays a move known to be legal.
    pub fn play_unchecked(&self, pos: &mut Position, m: &Move) {
        let royal = self.is_royal();
        let from = pos.index(m.from);
        let to = pos.index(m.to);
        let mover = pos.cell(from);
        let mut removed: [usize; 40] = [0; 40];
        let mut n = 0;
        movegen::for_each_capture(
            pos,
            m,
            self.rule_set.params.range.captures_flown_over,
            |i| {
                if n < removed.len() {
                    removed[n] = i;
                    n += 1;
                }
            },
        );
        for &i in &removed[..n] {
            pos.put_index(i, EMPTY, &royal);
        }
        pos.put_index(from, EMPTY, &royal);
        let mut piece = decode(mover).expect("a move starts from a piece");
        if m.promotes()
            && let Some(k) = self.readings[piece.kind as usize].promotes_to
        {
            piece.kind = k;
            piece.promoted = true;
        }
        pos.put_index(to, encode(piece), &royal);
        pos.set_to_move(pos.to_move().opponent());
        pos.ply += 1;
        self.update_outcome(pos);
    }

    /// Plays a move after checking that it is one of the legal moves.
    pub fn play(&self, pos: &mut Position, m: &Move) -> Result<(), RulesError> {
        if let Some(o) = pos.outcome() {
            return Err(RulesError::Illegal(format!(
                "the game is over: {} won ({})",
                o.winner,
                o.reason.describe()
            )));
        }
        let own = pos
            .piece_at(m.from)
            .is_some_and(|p| p.side == pos.to_move());
        if !own || !self.moves_from_all_paths(pos, m.from).contains(m) {
            return Err(RulesError::Illegal("not one of the legal moves".into()));
        }
        self.play_unchecked(pos, m);
        Ok(())
    }

    /// How the game stands: over by royal capture or resignation, or because the side to move
    /// has no legal move (it loses).
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        pos.outcome().or_else(|| {
            self.legal_moves(pos).is_empty().then(|| Outcome {
                winner: pos.to_move().opponent(),
                reason: EndReason::NoLegalMove,
            })
        })
    }

    /// Resigns for the side to move.
    pub fn resign(&self, pos: &mut Position) {
        pos.set_outcome(Some(Outcome {
            winner: pos.to_move().opponent(),
            reason: EndReason::Resignation,
        }));
    }

    /// The number of leaf move sequences of `depth` moves.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::new()).collect();
        let mut scratch = Scratch::default();
        self.perft_inner(pos, depth, &mut bufs, &mut scratch)
    }

    fn perft_inner(
        &self,
        pos: &Position,
        depth: u32,
        bufs: &mut [Vec<Move>],
        scratch: &mut Scratch,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        buf.clear();
        self.legal_moves_into(pos, scratch, buf);
        match depth {
            1 => buf.len() as u64,
            2 => self.count_replies(pos, buf, scratch),
            _ => {
                let mut total = 0;
                let mut child = pos.clone();
                for m in buf.iter() {
                    child.clone_from(pos);
                    self.play_unchecked(&mut child, m);
                    total += self.perft_inner(&child, depth - 1, rest, scratch);
                }
                total
            }
        }
    }

    /// The total number of replies to every move of `moves`, found incrementally: the
    /// opponent's moves are generated once here, recording which cells each piece's moves
    /// depend on; after each move only the opponent pieces that depend on a changed cell are
    /// generated again.
    fn count_replies(&self, pos: &Position, moves: &[Move], scratch: &mut Scratch) -> u64 {
        let them = pos.to_move().opponent().index();
        let cells = pos.cells();
        let mut count = vec![0u32; cells.len()];
        // watchers[cell] = opponent pieces whose moves depend on the cell (CSR layout).
        let mut reads: Vec<(usize, usize)> = Vec::new();
        let mut trace = Vec::new();
        let mut out = Vec::new();
        let mut base = 0u64;
        for (idx, &c) in cells.iter().enumerate() {
            if c != EMPTY && c != crate::position::OFF && crate::position::cell_side(c) == them {
                out.clear();
                trace.clear();
                movegen::piece_moves_traced(
                    pos,
                    idx,
                    &self.rule_set.params,
                    &self.kinds,
                    scratch,
                    &mut out,
                    Some(&mut trace),
                );
                count[idx] = out.len() as u32;
                base += out.len() as u64;
                reads.extend(trace.iter().map(|&r| (r, idx)));
            }
        }
        reads.sort_unstable();
        reads.dedup();
        let mut start = vec![0usize; cells.len() + 1];
        for &(r, _) in &reads {
            start[r + 1] += 1;
        }
        for i in 0..cells.len() {
            start[i + 1] += start[i];
        }
        let mut seen = vec![0u32; cells.len()];
        let mut epoch = 0u32;
        let mut changed: Vec<usize> = Vec::new();
        let mut child = pos.clone();
        let mut total = 0u64;
        for m in moves {
            child.clone_from(pos);
            changed.clear();
            changed.push(pos.index(m.from));
            changed.push(pos.index(m.to));
            movegen::for_each_capture(
                pos,
                m,
                self.rule_set.params.range.captures_flown_over,
                |i| changed.push(i),
            );
            self.play_unchecked(&mut child, m);
            if child.outcome().is_some() {
                continue;
            }
            epoch += 1;
            let mut n = base as i64;
            for &c in &changed {
                for &(_, piece) in &reads[start[c]..start[c + 1]] {
                    if seen[piece] == epoch {
                        continue;
                    }
                    seen[piece] = epoch;
                    n -= count[piece] as i64;
                    if child.cell(piece) == cells[piece] {
                        out.clear();
                        movegen::piece_moves(
                            &child,
                            piece,
                            &self.rule_set.params,
                            &self.kinds,
                            scratch,
                            &mut out,
                        );
                        n += out.len() as i64;
                    }
                }
            }
            total += n as u64;
        }
        total
    }

    /// Perft per first move: `(move, leaf count)`.
    pub fn perft_divide(&self, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves(pos);
        moves
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                self.play_unchecked(&mut child, &m);
                let n = if depth <= 1 {
                    1
                } else {
                    self.perft(&child, depth - 1)
                };
                (m, n)
            })
            .collect()
    }
}

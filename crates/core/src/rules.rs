//! Rules: [`Rules`] is one game under one rule set, compiled and ready to generate moves.

use crate::catalogue::{Catalogue, KindId, Reading};
use crate::effects::{self, EffectTable};
use crate::game::{Game, RuleSet};
use crate::geometry::{Dims, Side, Square};
use crate::movegen::{self, Compiled, KindTable, Move, Promotion, Scratch};
use crate::position::{Cell, EMPTY, EndReason, Outcome, Piece, Position, cell_side, decode};

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
    pub(crate) kinds: KindTable,
    /// Per kind, whether the game's end rule counts it (the position keeps their count).
    pub(crate) vital: Vec<bool>,
    /// Per square, its mailbox cell (a lookup instead of [`Position::index`]'s division).
    cell_of: Vec<u32>,
    pad: usize,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({}, {})", self.game.name, self.rule_set.name)
    }
}

/// The game's auras, read off its kinds (`None` when no kind has one: no cost in generation).
fn auras(game: &Game, rs: &RuleSet, compiled: &[[Compiled; 2]]) -> Option<movegen::Auras> {
    let kinds = &game.catalogue.kinds;
    if !kinds.iter().any(|k| k.freezes || k.fog > 0) {
        return None;
    }
    Some(movegen::Auras {
        freezes: kinds
            .iter()
            .zip(compiled)
            .map(|(k, c)| match k.freezes {
                true => [c[0].ranging(), c[1].ranging()],
                false => [0, 0],
            })
            .collect(),
        fog: kinds.iter().map(|k| k.fog).collect(),
        sees_in_fog: kinds.iter().map(|k| k.sees_in_fog).collect(),
        fog_reach: kinds.iter().map(|k| k.fog).max().unwrap_or(0),
        fog_lines: rs.options.within == effects::Within::Lines,
    })
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
        let alternatives = game.effects.moves_while_absent.iter().map(|a| &a.patterns);
        let pad = readings
            .iter()
            .map(|r| &r.patterns)
            .chain(alternatives)
            .map(|p| movegen::reach(p))
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
            if r.betza.contains('x') && board_max as usize > movegen::MAX_LINE {
                return Err(RulesError::Piece {
                    code: k.code.clone(),
                    message: format!(
                        "a range capturer (x) needs a board of at most {} squares a side",
                        movegen::MAX_LINE
                    ),
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
            bars: game
                .catalogue
                .kinds
                .iter()
                .map(|k| {
                    let n = game.catalogue.len();
                    let set = |ids: &[KindId]| movegen::Bars::set(n, ids.iter().copied());
                    movegen::Bars {
                        capture: set(&k.cannot.capture),
                        shoot: set(&k.cannot.shoot),
                        hop: set(&k.cannot.hop),
                    }
                })
                .collect(),
            effects: None,
            burns: game.catalogue.kinds.iter().map(|k| k.burns).collect(),
            royal: game.catalogue.kinds.iter().map(|k| k.royal).collect(),
            general: Vec::new(),
            auras: None,
        };
        let kinds = KindTable {
            auras: auras(&game, &rs, &kinds.compiled),
            general: (kinds.burns.iter().zip(&kinds.bars))
                .map(|(&burns, bars)| burns || !bars.capture.is_empty())
                .collect(),
            ..kinds
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
        let mut kinds = kinds;
        kinds.effects = EffectTable::build(
            &game.effects,
            effects::Build {
                catalogue: &game.catalogue,
                promotes_to: readings.iter().map(|r| r.promotes_to).collect(),
                options: &rs.options,
                repromote: rs.params.repromote,
                dims,
                burning: rs.params.burning,
                compile: &|patterns| {
                    let c = |side| Compiled::new(patterns, side, stride, board_max);
                    Ok([c(Side::Black)?, c(Side::White)?])
                },
            },
        )
        .map_err(|message| RulesError::Piece {
            code: "-".into(),
            message,
        })?;
        let mut rules = Rules {
            game,
            rule_set: rs,
            readings,
            kinds,
            vital,
            cell_of: Vec::new(),
            pad,
        };
        let empty = rules.empty_position();
        rules.cell_of = dims.squares().map(|sq| empty.index(sq) as u32).collect();
        if forced {
            rules.kinds.stuck = rules.stuck_tables();
        }
        Ok(rules)
    }

    /// Whether the game has rules that reach beyond the squares a move changes (effects): then
    /// a move's consequences, and which moves pieces have, are not local.
    pub fn has_effects(&self) -> bool {
        self.kinds.effects.is_some()
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

    /// The mailbox cell of a square.
    #[inline]
    pub fn cell_index(&self, sq: Square) -> usize {
        self.cell_of[sq.0 as usize] as usize
    }

    /// An empty board of this game, Black to move.
    pub fn empty_position(&self) -> Position {
        Position::empty(self.dims(), self.pad, self.vital.len())
    }

    /// The standard start position: the rule set's setup, or the game's.
    pub fn start_position(&self) -> Position {
        let mut p = self.empty_position();
        let setup = self.rule_set.setup.as_ref().unwrap_or(&self.game.setup);
        for &(sq, piece) in &setup.pieces {
            self.put(&mut p, sq, Some(piece));
        }
        p
    }

    /// Puts (or removes) a piece, keeping the position's royal count and outcome up to date.
    pub fn put(&self, pos: &mut Position, sq: Square, piece: Option<Piece>) {
        pos.put(sq, piece, &self.vital);
        self.update_outcome(pos);
    }

    /// Puts (or removes) a piece without judging the outcome: for probes that put a piece and
    /// take it away again (the outcome is judged by [`Rules::put`]).
    pub fn put_unjudged(&self, pos: &mut Position, sq: Square, piece: Option<Piece>) {
        pos.put(sq, piece, &self.vital);
    }

    pub(crate) fn update_outcome(&self, pos: &mut Position) {
        if pos.outcome().is_some_and(|o| o.reason.is_conceded()) {
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
        end.is_any_piece() || end.survives(|k| pos.count(side, k) > 0)
    }

    /// Every legal move of the side to move (none once the game is over), appended to `out`.
    pub fn legal_moves_into(&self, pos: &Position, scratch: &mut Scratch, out: &mut Vec<Move>) {
        if pos.outcome().is_some() {
            return;
        }
        self.side_moves_into(pos, pos.to_move(), scratch, out);
    }

    /// The moves of every piece of `side`, whoever is to move, appended to `out`.
    pub(crate) fn side_moves_into(
        &self,
        pos: &Position,
        side: Side,
        scratch: &mut Scratch,
        out: &mut Vec<Move>,
    ) {
        for idx in pos.side_cells(side) {
            movegen::piece_moves(pos, idx, &self.rule_set.params, &self.kinds, scratch, out);
        }
    }

    /// The legal moves of the side to move that remove a piece (for a quiescence search):
    /// the same as filtering [`Rules::legal_moves`] by [`Move::captures`], without emitting
    /// the others.
    pub fn capture_moves_into(&self, pos: &Position, scratch: &mut Scratch, out: &mut Vec<Move>) {
        let was = scratch.set_captures_only(true);
        self.legal_moves_into(pos, scratch, out);
        scratch.set_captures_only(was);
    }

    /// The captures of the side to move that may gain material (for a quiescence search):
    /// [`Rules::capture_moves_into`] less a non-royal piece's captures that remove only its
    /// own pieces and do not promote (a range capturer's flight over its own men). Such a
    /// capture changes the material by what its piece's place gains (a few ranks and files)
    /// less the pieces it removes, each worth more than that: it never gains.
    pub fn gainful_captures_into(
        &self,
        pos: &Position,
        scratch: &mut Scratch,
        out: &mut Vec<Move>,
    ) {
        scratch.set_gainful(true);
        self.legal_moves_into(pos, scratch, out);
        scratch.set_gainful(false);
    }

    /// Whether `m`, a capture of the side to move, is one [`Rules::gainful_captures_into`]
    /// lists (to filter a list of every move the same way).
    pub fn is_gainful_capture(&self, pos: &Position, m: &Move) -> bool {
        self.is_gainful_on(pos.cells(), pos.to_move(), m)
    }

    /// [`Rules::is_gainful_capture`] for a move of `side` on the mailbox `cells`.
    pub(crate) fn is_gainful_on(&self, cells: &[Cell], side: Side, m: &Move) -> bool {
        let enemy = |sq| {
            let c = cells[self.cell_index(sq)];
            c != EMPTY && cell_side(c) != side.index()
        };
        let royal = decode(cells[self.cell_index(m.from)])
            .is_none_or(|p| self.kinds.royal[p.kind as usize]);
        m.captures() && (m.promotes() || royal || m.victims(self.dims()).any(enemy))
    }

    /// Whether some piece of `side`'s opponent (only the one on `by`, when given) could
    /// capture one of `side`'s royals (those the end rule counts) if it were its turn; stops
    /// at the first such move. For a search that must not stand pat with its last royal en
    /// prise. `buf` is scratch space.
    pub fn royal_threatened(
        &self,
        pos: &Position,
        side: Side,
        by: Option<Square>,
        scratch: &mut Scratch,
        buf: &mut Vec<Move>,
    ) -> bool {
        let was = scratch.set_captures_only(true);
        let dims = self.dims();
        let them = side.opponent();
        let mut threatens = |idx: usize| {
            buf.clear();
            movegen::piece_moves(pos, idx, &self.rule_set.params, &self.kinds, scratch, buf);
            buf.iter().any(|m| {
                m.victims(dims).any(|sq| {
                    pos.piece_at(sq)
                        .is_some_and(|p| p.side == side && self.vital[p.kind as usize])
                })
            })
        };
        let found = match by {
            Some(sq) => {
                pos.piece_at(sq).is_some_and(|p| p.side == them) && threatens(pos.index(sq))
            }
            None => pos.side_cells(them).any(threatens),
        };
        scratch.set_captures_only(was);
        found
    }

    /// The moves of the side not to move that would capture a royal piece (one the game's end
    /// rule counts) of the side to move if it were their turn: what threatens its royals.
    pub fn royal_threats(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        if pos.outcome().is_some() {
            return out;
        }
        let them = pos.to_move().opponent();
        let mut scratch = Scratch::default();
        scratch.set_captures_only(true);
        self.side_moves_into(pos, them, &mut scratch, &mut out);
        let dims = self.dims();
        out.retain(|m| {
            m.victims(dims).any(|sq| {
                pos.piece_at(sq)
                    .is_some_and(|p| p.side != them && self.vital[p.kind as usize])
            })
        });
        out
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

    /// The squares a move removes pieces from, in the order met (its [`Move::victims`]).
    pub fn captures(&self, _pos: &Position, m: &Move) -> Vec<Square> {
        m.victims(self.dims()).collect()
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
    /// has no legal move (it loses). Cheap: generation stops at the first piece that has a
    /// move, as cozy-chess's `status()` does, trying the most advanced pieces first (at the
    /// opening the back ranks are blocked in).
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        pos.outcome().or_else(|| {
            (!self.has_legal_move(pos)).then(|| Outcome {
                winner: pos.to_move().opponent(),
                reason: EndReason::NoLegalMove,
            })
        })
    }

    /// Whether the side to move has a move (the game's outcome aside).
    fn has_legal_move(&self, pos: &Position) -> bool {
        let mut scratch = Scratch::existence();
        let mut out = Vec::with_capacity(64);
        pos.side_cells_front_first(pos.to_move()).any(|idx| {
            movegen::piece_moves(
                pos,
                idx,
                &self.rule_set.params,
                &self.kinds,
                &mut scratch,
                &mut out,
            );
            !out.is_empty()
        })
    }

    /// Takes back a concession (resignation, time, forfeit): the game stands as its board says.
    pub fn withdraw_concession(&self, pos: &mut Position) {
        pos.set_outcome(None);
        self.update_outcome(pos);
    }

    /// Resigns for the side to move.
    pub fn resign(&self, pos: &mut Position) {
        self.concede(pos, EndReason::Resignation);
    }

    /// The side to move loses for `reason`, one the moves cannot show (resignation, time,
    /// forfeit).
    pub fn concede(&self, pos: &mut Position, reason: EndReason) {
        pos.set_outcome(Some(Outcome {
            winner: pos.to_move().opponent(),
            reason,
        }));
    }
}

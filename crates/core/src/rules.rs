//! Rules: [`Rules`] is one game under one rule set, compiled and ready to generate and play
//! moves. It is the core's façade: every question about moves and positions is asked here, and
//! each answer delegates to the module that knows ([`crate::tables`] compiles, [`crate::movegen`]
//! generates, [`crate::makemove`] plays). Above it, [`crate::movecache`], [`crate::reach`],
//! [`crate::perft`] and [`crate::notation`] use it.

use crate::catalogue::{Catalogue, Reading};
use crate::effects::EffectChanges;
use crate::game::{Game, RuleSet};
use crate::geometry::{Dims, Side, Square};
use crate::makemove::{self, Undo};
use crate::movegen::{self, Scratch};
use crate::moves::Move;
use crate::params::Promotion;
use crate::piece::{Cell, EMPTY, Piece, cell_side, decode};
use crate::position::{EndReason, MAX_PLY, Outcome, Placement, Position};
use crate::tables::{CompileError, Tables};

/// An error from building rules or playing a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown rule set {name:?}; the rule sets are: {known}")]
    UnknownRuleSet { name: String, known: String },
    #[error(transparent)]
    Compile(#[from] CompileError),
    #[error("illegal move: {0}")]
    Illegal(#[from] Illegal),
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over: {} won ({})", .0.winner, .0.reason.describe())]
    GameOver(Outcome),
    #[error("not one of the legal moves")]
    NotLegal,
}

/// Why a [`Placement`] is not a position of the game under its rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(
        "a promoted {name} ({code}): nothing promotes to it under the {rules} rules (a promoted \
         piece is written with the code of the kind it became)"
    )]
    PromotedNothing {
        name: String,
        code: String,
        rules: String,
    },
    #[error("two pieces on {0}")]
    Occupied(String),
    #[error("the number of moves played, {0}, is more than {MAX_PLY}")]
    TooManyMoves(u32),
    #[error("neither side has a royal piece (king or prince): there is no game to play")]
    NoRoyal,
}

/// One game under one rule set: the piece readings compiled for both sides.
pub struct Rules {
    pub game: Game,
    pub rule_set: RuleSet,
    pub readings: Vec<Reading>,
    pub(crate) tables: Tables,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({}, {})", self.game.name, self.rule_set.name)
    }
}

impl Rules {
    /// Compiles `game` under the rule set called `rule_set`.
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
        let readings: Vec<Reading> = (game.catalogue.kinds.iter())
            .map(|k| game.reading(k, &rs))
            .collect();
        let mut tables = Tables::build(&game, &rs, &readings)?;
        if matches!(
            rs.params.promotion,
            Promotion::Zone {
                forced_where_stuck: true,
                ..
            }
        ) {
            let empty = Position::empty(game.dims, tables.pad, tables.vital.len());
            tables.stuck = movegen::stuck_squares(&tables, &empty);
        }
        Ok(Rules {
            game,
            rule_set: rs,
            readings,
            tables,
        })
    }

    /// A built-in game (by id, such as `sho`) under the named rule set.
    pub fn builtin(game: &str, rule_set: &str) -> Result<Rules, Box<dyn std::error::Error>> {
        Ok(Rules::new(Game::builtin(game)?, rule_set)?)
    }

    /// Whether the game has rules that reach beyond the squares a move changes (effects): then
    /// a move's consequences, and which moves pieces have, are not local.
    pub fn has_effects(&self) -> bool {
        self.tables.effects.is_some() || self.tables.trade.is_some()
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
        self.tables.cell_index(sq)
    }

    /// An empty board of this game, Black to move.
    pub fn empty_position(&self) -> Position {
        Position::empty(self.dims(), self.tables.pad, self.tables.vital.len())
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

    /// Checks a placement and makes it a position: every piece one the rule set has (a piece
    /// marked promoted must be of a kind something promotes to), one piece a square, a move
    /// count in range, a royal piece on the board; the outcome judged. The one checking step
    /// of every position read, whatever its format.
    pub fn position(&self, p: &Placement) -> Result<Position, SetupError> {
        let mut pos = self.empty_position();
        for &(sq, piece) in &p.pieces {
            self.check_piece(piece)?;
            if pos.piece_at(sq).is_some() {
                return Err(SetupError::Occupied(self.dims().square_name(sq)));
            }
            pos.put(sq, Some(piece), &self.tables.vital);
        }
        if p.ply > MAX_PLY {
            return Err(SetupError::TooManyMoves(p.ply));
        }
        pos.set_to_move(p.to_move);
        pos.ply = p.ply;
        makemove::judge(&self.tables, &mut pos);
        if pos.royals(Side::Black) == 0 && pos.royals(Side::White) == 0 {
            return Err(SetupError::NoRoyal);
        }
        Ok(pos)
    }

    /// Whether the rule set has `piece`: one marked promoted must be of a kind something
    /// promotes to (the flag means "it became this by promoting"; it never promotes again).
    pub fn check_piece(&self, piece: Piece) -> Result<(), SetupError> {
        let promoted_to = |r: &Reading| r.promotes_to == Some(piece.kind);
        if !piece.promoted || self.readings.iter().any(promoted_to) {
            return Ok(());
        }
        let k = self.catalogue().kind(piece.kind);
        Err(SetupError::PromotedNothing {
            name: k.name.clone(),
            code: k.code.clone(),
            rules: self.rule_set.name.clone(),
        })
    }

    /// Puts (or removes) a piece, keeping the position's royal count and outcome up to date.
    pub fn put(&self, pos: &mut Position, sq: Square, piece: Option<Piece>) {
        pos.put(sq, piece, &self.tables.vital);
        makemove::judge(&self.tables, pos);
    }

    /// Puts (or removes) a piece without judging the outcome: for probes that put a piece and
    /// take it away again (the outcome is judged by [`Rules::put`]).
    pub fn put_unjudged(&self, pos: &mut Position, sq: Square, piece: Option<Piece>) {
        pos.put(sq, piece, &self.tables.vital);
    }

    /// Every legal move of the side to move (none once the game is over), appended to `out`.
    pub fn legal_moves_into(&self, pos: &Position, scratch: &mut Scratch, out: &mut Vec<Move>) {
        if pos.outcome().is_some() {
            return;
        }
        movegen::side_moves(pos, pos.to_move(), &self.tables, scratch, out);
    }

    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(pos, &mut Scratch::default(), &mut out);
        out
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
    pub fn is_gainful_on(&self, cells: &[Cell], side: Side, m: &Move) -> bool {
        let enemy = |sq| {
            let c = cells[self.cell_index(sq)];
            c != EMPTY && cell_side(c) != side.index()
        };
        let royal = decode(cells[self.cell_index(m.from)])
            .is_none_or(|p| self.tables.royal[p.kind as usize]);
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
        let them = side.opponent();
        let mut threatens =
            |idx| movegen::threatens_royal(pos, idx, side, &self.tables, scratch, buf);
        match by {
            Some(sq) => {
                pos.piece_at(sq).is_some_and(|p| p.side == them) && threatens(pos.index(sq))
            }
            None => pos.side_cells(them).any(threatens),
        }
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
        movegen::side_moves(pos, them, &self.tables, &mut scratch, &mut out);
        let dims = self.dims();
        out.retain(|m| {
            m.victims(dims).any(|sq| {
                pos.piece_at(sq)
                    .is_some_and(|p| p.side != them && self.tables.vital[p.kind as usize])
            })
        });
        out
    }

    /// The moves of the piece on `sq` as if it were its side's turn, whoever is to move and
    /// even after the game has ended (for inspecting pieces).
    pub fn moves_from(&self, pos: &Position, sq: Square) -> Vec<Move> {
        movegen::moves_from(pos, sq, &self.tables, false)
    }

    /// [`Rules::moves_from`] with every path of a multi-leg move, not one per result: a hook
    /// move turning on either corner, a pass through any empty neighbour. For entering moves
    /// leg by leg; every one of them is a legal move.
    pub fn moves_from_all_paths(&self, pos: &Position, sq: Square) -> Vec<Move> {
        movegen::moves_from(pos, sq, &self.tables, true)
    }

    /// The squares a move removes pieces from, in the order met (its [`Move::victims`]).
    pub fn captures(&self, _pos: &Position, m: &Move) -> Vec<Square> {
        m.victims(self.dims()).collect()
    }

    /// Whether `m` is one of the legal moves in `pos` (by any of its paths).
    pub fn check(&self, pos: &Position, m: &Move) -> Result<(), Illegal> {
        if let Some(o) = pos.outcome() {
            return Err(Illegal::GameOver(o));
        }
        let own = pos
            .piece_at(m.from)
            .is_some_and(|p| p.side == pos.to_move());
        if !own || !self.moves_from_all_paths(pos, m.from).contains(m) {
            return Err(Illegal::NotLegal);
        }
        Ok(())
    }

    /// Plays a move after checking that it is one of the legal moves.
    pub fn play(&self, pos: &mut Position, m: &Move) -> Result<(), RulesError> {
        self.check(pos, m)?;
        self.play_unchecked(pos, m);
        Ok(())
    }

    /// Plays a move known to be legal, for good.
    pub fn play_unchecked(&self, pos: &mut Position, m: &Move) {
        makemove::play_unchecked(&self.tables, pos, m);
    }

    /// Plays `m` (one of the position's legal moves) in place; [`Rules::unmake`] with the
    /// returned token takes it back. Moves must be unmade in the reverse order they were made.
    #[inline]
    pub fn make(&self, pos: &mut Position, m: &Move) -> Undo {
        makemove::make(&self.tables, pos, m)
    }

    /// Takes back the move [`Rules::make`] returned `undo` for (it must be the last one made
    /// and not yet unmade).
    #[inline]
    pub fn unmake(&self, pos: &mut Position, undo: Undo) {
        makemove::unmake(&self.tables, pos, undo)
    }

    /// Whether the position's hash, royal counts and piece sets agree with its board (for
    /// tests and debugging: it recomputes them all).
    pub fn is_consistent(&self, pos: &Position) -> bool {
        pos.is_consistent(&self.tables.vital)
    }

    /// What legal move `m` in `pos` makes happen beyond its own victims (nothing in a game
    /// without effects): read off the move played on a copy.
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

    /// How the game stands: over by royal capture or resignation, or because the side to move
    /// has no legal move (it loses).
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        pos.outcome().or_else(|| {
            (!movegen::has_move(pos, &self.tables)).then(|| Outcome {
                winner: pos.to_move().opponent(),
                reason: EndReason::NoLegalMove,
            })
        })
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

    /// Takes back a concession (resignation, time, forfeit): the game stands as its board says.
    pub fn withdraw_concession(&self, pos: &mut Position) {
        pos.set_outcome(None);
        makemove::judge(&self.tables, pos);
    }
}

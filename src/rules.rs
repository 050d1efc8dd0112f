//! Games and rule sets: `rules/<game>.toml` names the catalogue and the setup and defines the
//! rule sets; [`Rules`] is one game under one rule set, compiled and ready to generate moves.

use crate::catalogue::{Catalogue, PieceKind, Reading};
use crate::error::{DataError, Source, utf8_text};
use crate::geometry::{Dims, Side, Square};
use crate::movegen::{self, Compiled, GenRules, KindTable, Move, Promotion, RangeRules, Scratch};
use crate::position::{EndReason, Outcome, Piece, Position};
use crate::setup::Setup;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The data files of the games, built into the program and optionally read from a directory.
#[derive(Clone, Debug)]
pub enum DataDir {
    Embedded,
    Dir(PathBuf),
}

const EMBEDDED: &[(&str, &str)] = &[
    (
        "rules/taikyoku.toml",
        include_str!("../rules/taikyoku.toml"),
    ),
    ("pieces.toml", include_str!("../pieces.toml")),
    (
        "setups/taikyoku.toml",
        include_str!("../setups/taikyoku.toml"),
    ),
];

impl DataDir {
    /// Reads a data file by its path relative to the data directory.
    pub fn read(&self, rel: &str) -> Result<(String, String), DataError> {
        match self {
            DataDir::Embedded => EMBEDDED
                .iter()
                .find(|(n, _)| *n == rel)
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .ok_or_else(|| DataError {
                    file: rel.to_string(),
                    line: 1,
                    column: 1,
                    message: "no such data file is built into the program".into(),
                }),
            DataDir::Dir(dir) => {
                let path = dir.join(rel);
                let name = path.display().to_string();
                let bytes = std::fs::read(&path).map_err(|e| DataError {
                    file: name.clone(),
                    line: 1,
                    column: 1,
                    message: format!("cannot read: {e}"),
                })?;
                let text = utf8_text(&name, bytes)?;
                Ok((name, text))
            }
        }
    }

    pub fn dir(path: impl AsRef<Path>) -> DataDir {
        DataDir::Dir(path.as_ref().to_path_buf())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    name: String,
    pieces: String,
    setup: String,
    default: Spanned<String>,
    #[serde(default)]
    end: Option<Spanned<String>>,
    rules: BTreeMap<String, Spanned<RawRuleSet>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleSet {
    summary: String,
    #[serde(default)]
    readings: Vec<Spanned<String>>,
    promotion: RawPromotion,
    range_capture: RawRange,
    #[serde(default)]
    distinct_paths: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPromotion {
    trigger: Spanned<String>,
    depth: Option<u8>,
    #[serde(default)]
    optional: bool,
    #[serde(default)]
    from_zone: bool,
    #[serde(default)]
    stops: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRange {
    flown_over: Spanned<String>,
    end_on_friend: bool,
    end_on_higher: bool,
    #[serde(default)]
    every_move: bool,
}

/// A named rule set of a game.
#[derive(Clone, Debug)]
pub struct RuleSet {
    pub name: String,
    pub summary: String,
    /// The `[piece.rules.NAME]` overrides it applies, in order.
    pub readings: Vec<String>,
    pub params: GenRules,
}

/// A game: its catalogue, setup, and rule sets.
#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub catalogue: Catalogue,
    pub setup: Setup,
    pub rule_sets: Vec<RuleSet>,
    pub default_rules: String,
    /// `sha256:…` of the game file, catalogue and setup texts as loaded: records store it so
    /// a game replayed under changed rules data can say so.
    pub fingerprint: String,
}

impl Game {
    /// Loads a game definition such as `rules/taikyoku.toml` and the files it names.
    pub fn load(data: &DataDir, game_file: &str) -> Result<Game, DataError> {
        let (name, text) = data.read(game_file)?;
        let src = Source::new(&name, &text);
        let raw: RawGame = src.parse_toml()?;
        if let Some(end) = &raw.end
            && end.get_ref() != "last_royal_captured"
        {
            return Err(src.error_span(
                &end.span(),
                format!(
                    "unknown end rule {:?}: expected \"last_royal_captured\"",
                    end.get_ref()
                ),
            ));
        }
        let (pname, ptext) = data.read(&raw.pieces)?;
        let catalogue = Catalogue::parse(&Source::new(&pname, &ptext))?;
        let (sname, stext) = data.read(&raw.setup)?;
        let setup = Setup::parse(&Source::new(&sname, &stext), &catalogue)?;
        let fingerprint = fingerprint(&[&text, &ptext, &stext]);
        let mut rule_sets = Vec::new();
        for (rs_name, rs) in raw.rules {
            let span = rs.span();
            let rs = rs.into_inner();
            let promotion = match rs.promotion.trigger.get_ref().as_str() {
                "capture" => Promotion::OnCapture,
                "never" => Promotion::Never,
                "zone" => Promotion::Zone {
                    depth: rs.promotion.depth.ok_or_else(|| {
                        src.error_span(
                            &span,
                            format!("rule set {rs_name}: a zone promotion needs depth"),
                        )
                    })?,
                    optional: rs.promotion.optional,
                    from_zone: rs.promotion.from_zone,
                    stops: rs.promotion.stops,
                },
                other => {
                    return Err(src.error_span(
                        &rs.promotion.trigger.span(),
                        format!("unknown promotion trigger {other:?}: expected \"capture\", \"zone\" or \"never\""),
                    ));
                }
            };
            let captures_flown_over = match rs.range_capture.flown_over.get_ref().as_str() {
                "captured" => true,
                "kept" => false,
                other => {
                    return Err(src.error_span(
                        &rs.range_capture.flown_over.span(),
                        format!("unknown value {other:?}: expected \"captured\" or \"kept\""),
                    ));
                }
            };
            let mut readings = Vec::new();
            for r in rs.readings {
                let used = catalogue
                    .kinds
                    .iter()
                    .any(|k| k.overrides.contains_key(r.get_ref()));
                if !used {
                    return Err(src.error_span(
                        &r.span(),
                        format!(
                            "rule set {rs_name}: no piece in {pname} has [piece.rules.{}]",
                            r.get_ref()
                        ),
                    ));
                }
                readings.push(r.into_inner());
            }
            rule_sets.push(RuleSet {
                name: rs_name,
                summary: rs.summary,
                readings,
                params: GenRules {
                    promotion,
                    range: RangeRules {
                        captures_flown_over,
                        end_on_friend: rs.range_capture.end_on_friend,
                        end_on_higher: rs.range_capture.end_on_higher,
                        every_move: rs.range_capture.every_move,
                    },
                    paths_distinct: rs.distinct_paths,
                },
            });
        }
        // Every override must belong to a rule set that reads it.
        for k in &catalogue.kinds {
            for (name, o) in &k.overrides {
                if !rule_sets.iter().any(|r| r.readings.contains(name)) {
                    let mut e = o.location.clone().unwrap_or_else(|| src.error_at(0, ""));
                    e.message = format!(
                        "piece {}: [piece.rules.{name}] is not read by any rule set of {} (rule sets: {})",
                        k.code,
                        raw.name,
                        rule_sets
                            .iter()
                            .map(|r| r.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    return Err(e);
                }
            }
        }
        if !rule_sets.iter().any(|r| &r.name == raw.default.get_ref()) {
            return Err(src.error_span(
                &raw.default.span(),
                format!(
                    "default rule set {:?} is not defined",
                    raw.default.get_ref()
                ),
            ));
        }
        Ok(Game {
            name: raw.name,
            catalogue,
            setup,
            rule_sets,
            default_rules: raw.default.into_inner(),
            fingerprint,
        })
    }

    /// The built-in Taikyoku shogi.
    pub fn taikyoku() -> Result<Game, DataError> {
        Game::load(&DataDir::Embedded, "rules/taikyoku.toml")
    }

    pub fn rule_set(&self, name: &str) -> Option<&RuleSet> {
        self.rule_sets.iter().find(|r| r.name == name)
    }

    /// A piece's reading under a rule set: its overrides applied in order.
    pub fn reading(&self, kind: &PieceKind, rs: &RuleSet) -> Reading {
        let mut r = kind.base.clone();
        for name in &rs.readings {
            if kind.overrides.contains_key(name) {
                let o = kind.reading(name);
                r = Reading {
                    note: o.note.or(r.note),
                    ..o
                };
            }
        }
        r
    }
}

/// `sha256:` and the hex digest of the texts, each preceded by its length so that moving text
/// from one file to the next changes the digest.
fn fingerprint(texts: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for t in texts {
        h.update((t.len() as u64).to_le_bytes());
        h.update(t.as_bytes());
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

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
    /// Per kind, whether it is royal.
    pub(crate) royal: Vec<bool>,
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
        let dims = game.setup.dims;
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
        };
        let royal = game.catalogue.kinds.iter().map(|k| k.royal).collect();
        Ok(Rules {
            game,
            rule_set: rs,
            readings,
            kinds,
            royal,
            pad,
        })
    }

    /// Taikyoku shogi under the named rule set, from the built-in data.
    pub fn taikyoku(rule_set: &str) -> Result<Rules, Box<dyn std::error::Error>> {
        Ok(Rules::new(Game::taikyoku()?, rule_set)?)
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.game.catalogue
    }

    pub fn dims(&self) -> Dims {
        self.game.setup.dims
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
        pos.put(sq, piece, &self.royal);
        self.update_outcome(pos);
    }

    pub(crate) fn update_outcome(&self, pos: &mut Position) {
        if matches!(pos.outcome(), Some(o) if o.reason == EndReason::Resignation) {
            return;
        }
        let (b, w) = (pos.royals(Side::Black), pos.royals(Side::White));
        pos.set_outcome(match (b, w) {
            (0, 0) | (1.., 1..) => None,
            (0, _) => Some(Outcome {
                winner: Side::White,
                reason: EndReason::RoyalsCaptured,
            }),
            (_, 0) => Some(Outcome {
                winner: Side::Black,
                reason: EndReason::RoyalsCaptured,
            }),
        });
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

    /// The moves of the side not to move that would capture a royal piece of the side to move
    /// if it were their turn: what threatens the side to move's royals.
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
                    .is_some_and(|p| p.side != them && self.royal[p.kind as usize])
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
    /// move, as cozy-chess's `status()` does.
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
        pos.side_cells(pos.to_move()).any(|idx| {
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

    /// Resigns for the side to move.
    pub fn resign(&self, pos: &mut Position) {
        pos.set_outcome(Some(Outcome {
            winner: pos.to_move().opponent(),
            reason: EndReason::Resignation,
        }));
    }
}

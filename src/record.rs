//! Game records: a versioned, human-readable TOML file of a game's moves, read back by
//! replaying (and so re-validating) every move.
//!
//! ```toml
//! format = "taikyoku-record"
//! version = 1
//! game = "Taikyoku shogi"
//! rules = "wikipedia"
//! rules_fingerprint = "sha256:…"
//! start = "standard"
//! black = ""
//! white = ""
//! started = "2026-11-30T15:00:00Z"
//! updated = "2026-11-30T15:02:10Z"
//! result = ""
//! termination = ""
//! moves = [
//!   "P19.26-19.25",
//! ]
//! ```
//!
//! `moves` comes last and is required, so a file cut off anywhere fails to load instead of
//! loading part of a game. Files are written by [`crate::store`].

use crate::error::{DataError, Source, utf8_text};
use crate::game::{DataDir, Game, GameError};
use crate::geometry::{Side, Square};
use crate::movegen::Move;
use crate::notation::{self, NotationError};
use crate::position::{EndReason, Outcome, Position};
use crate::rules::{Rules, RulesError};
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::fmt;
use std::path::Path;
use std::time::SystemTime;
use toml::Spanned;

/// The `format` value of every record.
pub const FORMAT: &str = "taikyoku-record";
/// The format version this program writes and reads.
pub const VERSION: i64 = 1;
/// The `start` value for the game's standard setup.
pub const STANDARD_START: &str = "standard";

/// A game record: its header and its moves in notation.
#[derive(Clone, Debug)]
pub struct Record {
    /// The game's name (`name` in `rules/<game>.toml`).
    pub game: String,
    /// The rule set the game is played under.
    pub rules: String,
    /// [`Game::fingerprint`] of the rules data the game was played under (may be empty).
    pub rules_fingerprint: String,
    /// [`STANDARD_START`] or a position string.
    pub start: String,
    pub black: String,
    pub white: String,
    /// RFC 3339 UTC dates (may be empty in hand-written records).
    pub started: String,
    pub updated: String,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
    moves: Vec<String>,
    places: Places,
}

/// Where a record's values stand in the file it was read from, for error messages.
#[derive(Clone, Debug)]
struct Places {
    file: String,
    game: Place,
    rules: Place,
    start: Place,
    /// One per move; `None` for moves added since the file was read.
    moves: Vec<Option<Place>>,
}

type Place = (usize, usize);

/// The first line and column, for values that were not read from a file.
const TOP: Place = (1, 1);

impl Default for Places {
    fn default() -> Self {
        Places {
            file: String::new(),
            game: TOP,
            rules: TOP,
            start: TOP,
            moves: Vec::new(),
        }
    }
}

/// The header fields read first, so that a record of another format or version is reported
/// as such rather than as unknown fields.
#[derive(Deserialize)]
struct Probe {
    format: Option<Spanned<String>>,
    version: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    // Checked by the probe; required here too so that they are not unknown fields.
    #[serde(rename = "format")]
    _format: IgnoredAny,
    #[serde(rename = "version")]
    _version: IgnoredAny,
    game: Spanned<String>,
    rules: Spanned<String>,
    #[serde(default)]
    rules_fingerprint: String,
    start: Spanned<String>,
    #[serde(default)]
    black: String,
    #[serde(default)]
    white: String,
    #[serde(default)]
    started: Option<Spanned<String>>,
    #[serde(default)]
    updated: Option<Spanned<String>>,
    #[serde(default)]
    result: Option<Spanned<String>>,
    #[serde(default)]
    termination: Option<Spanned<String>>,
    moves: Vec<Spanned<String>>,
}

/// A move of a record that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The record's file name (empty for a record not read from a file).
    pub file: String,
    /// 1-based, counted from the record's start.
    pub number: usize,
    pub text: String,
    /// Line and column of the move in the file; `None` for a move not read from the file.
    pub place: Option<(usize, usize)>,
    pub reason: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.as_str(), self.place) {
            ("", _) => {}
            (file, Some((line, column))) => write!(f, "{file}:{line}:{column}: ")?,
            (file, None) => write!(f, "{file}: ")?,
        }
        write!(f, "move {} {:?}: {}", self.number, self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

/// Why a record could not be read, replayed or written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// A syntax, type or value error at a place in the file.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A move that cannot be played.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The rule set's data cannot be compiled.
    #[error(transparent)]
    Rules(RulesError),
    #[error("{file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    /// Saving would replace a file that exists (and no overwrite was asked for).
    #[error("{file}: the file already exists; not overwriting it")]
    Exists { file: String },
    /// Saving would replace changes another program made since this one read or wrote it.
    #[error(
        "{file}: the file was changed by another program since this game was loaded or saved; not overwriting it"
    )]
    Changed { file: String },
    /// Saving would replace a file that is not a record, which may be someone's data.
    #[error("{file}: the file exists and is not a game record, so it is not overwritten: {reason}")]
    NotARecord { file: String, reason: DataError },
}

/// A problem a replay found that does not stop the game from loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// The rules data differs from the data the game was played under: the moves were
    /// re-validated under the current data.
    RulesChanged { recorded: String, current: String },
    /// The record's result is not what its moves give; the moves win.
    ResultDiffers {
        recorded: Option<Outcome>,
        replayed: Option<Outcome>,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::RulesChanged { recorded, current } => write!(
                f,
                "the rules data has changed since this game was recorded (fingerprint {}…, now {}…); \
                 every move was checked again under the current rules",
                short(recorded),
                short(current)
            ),
            Warning::ResultDiffers { recorded, replayed } => write!(
                f,
                "the record says {}, but its moves give {}",
                describe_outcome(*recorded),
                describe_outcome(*replayed)
            ),
        }
    }
}

/// Enough of a fingerprint to tell two apart.
fn short(fingerprint: &str) -> &str {
    fingerprint.get(..19).unwrap_or(fingerprint)
}

/// "black won (resignation)", or "no result" while the game goes on.
pub fn describe_outcome(o: Option<Outcome>) -> String {
    match o {
        Some(o) => format!("{} won ({})", o.winner, o.reason.describe()),
        None => "no result".into(),
    }
}

/// The `termination` value of an end reason.
fn termination_name(r: EndReason) -> &'static str {
    match r {
        EndReason::RoyalsCaptured => "royals captured",
        EndReason::Resignation => "resignation",
        EndReason::NoLegalMove => "no legal move",
    }
}

const TERMINATIONS: [EndReason; 3] = [
    EndReason::RoyalsCaptured,
    EndReason::Resignation,
    EndReason::NoLegalMove,
];

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// A TOML basic string, escaped by the TOML writer.
fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

impl Record {
    /// A record of a new game under `rules` from `start` (written `standard` when it is the
    /// game's setup), dated now.
    pub fn new(rules: &Rules, start: &Position) -> Record {
        let start_text = if *start == rules.start_position() {
            STANDARD_START.to_string()
        } else {
            notation::position_string(rules, start)
        };
        let now = now();
        Record {
            game: rules.game.name.clone(),
            rules: rules.rule_set.name.clone(),
            rules_fingerprint: rules.game.fingerprint.clone(),
            start: start_text,
            black: String::new(),
            white: String::new(),
            started: now.clone(),
            updated: now,
            outcome: rules.outcome(start),
            moves: Vec::new(),
            places: Places::default(),
        }
    }

    /// The moves in notation, as read or recorded.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The name of the file the record was read from (empty for a new record).
    pub fn file(&self) -> &str {
        &self.places.file
    }

    /// Reads a record from a file, which must be UTF-8 (a bad byte is reported where it is).
    pub fn load(path: &Path) -> Result<Record, RecordError> {
        let name = path.display().to_string();
        let bytes = crate::store::read_file(path).map_err(|source| RecordError::Io {
            file: name.clone(),
            source,
        })?;
        let text = utf8_text(&name, bytes)?;
        Ok(Record::parse(&name, &text)?)
    }

    /// Reads a record's text. Checks the format and version first, then every field; the moves
    /// are only checked by [`Record::replay`].
    pub fn parse(name: &str, text: &str) -> Result<Record, DataError> {
        let src = Source::new(name, text);
        let probe: Probe = src.parse_toml()?;
        let end = text.len();
        match probe.format {
            Some(f) if f.get_ref() == FORMAT => {}
            Some(f) => {
                return Err(src.error_span(
                    &f.span(),
                    format!(
                        "format {:?} is not a game record of this program (format = {FORMAT:?})",
                        f.get_ref()
                    ),
                ));
            }
            None => {
                return Err(src.error_at(
                    0,
                    format!("not a game record: it has no `format = {FORMAT:?}`"),
                ));
            }
        }
        match probe.version {
            Some(v) if *v.get_ref() == VERSION => {}
            Some(v) => {
                let newer = if *v.get_ref() > VERSION {
                    " (written by a newer taikyoku?)"
                } else {
                    ""
                };
                return Err(src.error_span(
                    &v.span(),
                    format!(
                        "record format version {} is not supported{newer}; this program reads version {VERSION}",
                        v.get_ref()
                    ),
                ));
            }
            None => return Err(src.error_at(0, "the record has no `version`")),
        }
        let raw: RawRecord = src.parse_toml().map_err(|mut e| {
            if e.message.contains("missing field `moves`") {
                // `moves` is the last field: a file without it was most likely cut off.
                let (line, column) = src.line_col(end);
                e.line = line;
                e.column = column;
                e.message = "the record ends before its `moves`: is the file cut off?".into();
            }
            e
        })?;
        let place = |s: &Spanned<String>| src.line_col(s.span().start);
        for date in [&raw.started, &raw.updated].into_iter().flatten() {
            if !date.get_ref().is_empty() && humantime::parse_rfc3339_weak(date.get_ref()).is_err()
            {
                return Err(src.error_span(
                    &date.span(),
                    format!(
                        "{:?} is not a date; expected RFC 3339 such as 2026-11-30T15:00:00Z",
                        date.get_ref()
                    ),
                ));
            }
        }
        let outcome = parse_outcome(&src, raw.result.as_ref(), raw.termination.as_ref())?;
        Ok(Record {
            game: raw.game.get_ref().clone(),
            rules: raw.rules.get_ref().clone(),
            rules_fingerprint: raw.rules_fingerprint,
            start: raw.start.get_ref().clone(),
            black: raw.black,
            white: raw.white,
            started: raw.started.map(Spanned::into_inner).unwrap_or_default(),
            updated: raw.updated.map(Spanned::into_inner).unwrap_or_default(),
            outcome,
            places: Places {
                file: name.to_string(),
                game: place(&raw.game),
                rules: place(&raw.rules),
                start: place(&raw.start),
                moves: src
                    .line_cols(raw.moves.iter().map(|m| m.span().start))
                    .into_iter()
                    .map(Some)
                    .collect(),
            },
            moves: raw.moves.into_iter().map(Spanned::into_inner).collect(),
        })
    }

    /// The record as TOML: a fixed layout, one move per line, `moves` last.
    pub fn to_toml(&self) -> String {
        let (result, termination) = match self.outcome {
            Some(o) => (o.winner.name(), termination_name(o.reason)),
            None => ("", ""),
        };
        let mut s =
            String::with_capacity(400 + self.moves.iter().map(|m| m.len() + 5).sum::<usize>());
        // The game's name from the header, on one line whatever it holds.
        let game: String = self.game.chars().filter(|c| !c.is_control()).collect();
        s.push_str(&format!(
            "# A {game} game record (see \"Game records\" in the taikyoku README).\n"
        ));
        s.push_str("# One move per line; `taikyoku check FILE` replays and checks every move.\n");
        s.push_str(&format!(
            "format = {}\nversion = {VERSION}\n",
            quote(FORMAT)
        ));
        for (key, value) in [
            ("game", self.game.as_str()),
            ("rules", &self.rules),
            ("rules_fingerprint", &self.rules_fingerprint),
            ("start", &self.start),
            ("black", &self.black),
            ("white", &self.white),
            ("started", &self.started),
            ("updated", &self.updated),
            ("result", result),
            ("termination", termination),
        ] {
            s.push_str(&format!("{key} = {}\n", quote(value)));
        }
        if self.moves.is_empty() {
            s.push_str("moves = []\n");
        } else {
            s.push_str("moves = [\n");
            for m in &self.moves {
                s.push_str(&format!("  {},\n", quote(m)));
            }
            s.push_str("]\n");
        }
        s
    }

    /// Sets `updated` to now.
    pub fn touch(&mut self) {
        self.updated = now();
    }

    fn error_at(&self, place: Place, message: String) -> DataError {
        DataError {
            file: self.places.file.clone(),
            line: place.0,
            column: place.1,
            message,
        }
    }

    /// The error for the move at `index` (0-based) whose text could not be played.
    fn move_error(&self, index: usize, text: &str, e: NotationError) -> MoveError {
        // parse_move quotes the text itself; the number and text are said once, in front.
        let prefix = format!("{text:?}: ");
        let reason = e.0.strip_prefix(&prefix).unwrap_or(&e.0).to_string();
        MoveError {
            file: self.places.file.clone(),
            number: index + 1,
            text: text.to_string(),
            place: self.places.moves.get(index).copied().flatten(),
            reason,
        }
    }

    /// The start position under `rules`.
    pub fn start_position(&self, rules: &Rules) -> Result<Position, DataError> {
        if self.start == STANDARD_START {
            return Ok(rules.start_position());
        }
        notation::parse_position_string(rules, &self.start).map_err(|e| {
            self.error_at(
                self.places.start,
                format!("start: {e} (expected \"{STANDARD_START}\" or a position string)"),
            )
        })
    }

    /// The game the record names (`game`, by its name or id), loaded from `data`; an unknown
    /// game is reported at its place in the file.
    pub fn find_game(&self, data: &DataDir) -> Result<Game, RecordError> {
        Game::find(data, &self.game).map_err(|e| match e {
            GameError::Data(e) => RecordError::Data(e),
            e @ GameError::Unknown { .. } => {
                RecordError::Data(self.error_at(self.places.game, format!("game: {e}")))
            }
        })
    }

    /// Replays the game under `game`'s data: builds its rule set, sets up the start and
    /// re-validates every move, stopping at the first that cannot be played.
    pub fn replay(&self, game: &Game) -> Result<Replay, RecordError> {
        if !game.is_called(&self.game) {
            return Err(self
                .error_at(
                    self.places.game,
                    format!(
                        "this is a record of {:?}; the rules data is of {:?}",
                        self.game, game.name
                    ),
                )
                .into());
        }
        let rules = Rules::new(game.clone(), &self.rules).map_err(|e| match e {
            RulesError::UnknownRuleSet { .. } => {
                RecordError::Data(self.error_at(self.places.rules, e.to_string()))
            }
            e => RecordError::Rules(e),
        })?;
        let start = self.start_position(&rules)?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut checkpoints = vec![start.clone()];
        for (i, text) in self.moves.iter().enumerate() {
            let m = notation::parse_move(&rules, &pos, text)
                .map_err(|e| self.move_error(i, text, e))?;
            rules.play_unchecked(&mut pos, &m);
            moves.push(m);
            if moves.len().is_multiple_of(CHECKPOINT_EVERY) {
                checkpoints.push(pos.clone());
            }
        }
        let mut warnings = Vec::new();
        if !self.rules_fingerprint.is_empty() && self.rules_fingerprint != game.fingerprint {
            warnings.push(Warning::RulesChanged {
                recorded: self.rules_fingerprint.clone(),
                current: game.fingerprint.clone(),
            });
        }
        // A resignation is the one ending the moves cannot show.
        if pos.outcome().is_none()
            && let Some(o) = self.outcome.filter(|o| o.reason == EndReason::Resignation)
        {
            pos.set_outcome(Some(o));
        }
        let outcome = rules.outcome(&pos);
        if outcome != self.outcome {
            warnings.push(Warning::ResultDiffers {
                recorded: self.outcome,
                replayed: outcome,
            });
        }
        Ok(Replay {
            rules,
            moves,
            checkpoints,
            final_position: pos,
            outcome,
            warnings,
        })
    }

    /// Plays a legal move on `pos` (the position the record has reached) and records it,
    /// with the result when it ends the game.
    pub fn push_move(
        &mut self,
        rules: &Rules,
        pos: &mut Position,
        m: &Move,
    ) -> Result<(), RulesError> {
        let text = notation::move_string(rules, pos, m);
        rules.play(pos, m)?;
        self.played(rules, pos, text);
        Ok(())
    }

    /// Reads a move typed in notation, plays it on `pos` and records it, written out in full.
    pub fn push_text(
        &mut self,
        rules: &Rules,
        pos: &mut Position,
        text: &str,
    ) -> Result<Move, MoveError> {
        let m = notation::parse_move(rules, pos, text)
            .map_err(|e| self.move_error(self.moves.len(), text, e))?;
        let full = notation::move_string(rules, pos, &m);
        rules.play_unchecked(pos, &m);
        self.played(rules, pos, full);
        Ok(m)
    }

    /// Records a move already played: `text` is its notation in the position before, `pos` the
    /// position after (for the result).
    pub fn played(&mut self, rules: &Rules, pos: &Position, text: String) {
        self.moves.push(text);
        self.places.moves.push(None);
        self.outcome = rules.outcome(pos);
        self.touch();
    }

    /// The side to move in `pos` resigns (nothing happens once the game is over).
    pub fn resign(&mut self, rules: &Rules, pos: &mut Position) {
        if rules.outcome(pos).is_some() {
            return;
        }
        rules.resign(pos);
        self.outcome = pos.outcome();
        self.touch();
    }

    /// Takes back the moves after the first `n` (undo), and any result with them.
    pub fn truncate(&mut self, n: usize) {
        self.moves.truncate(n);
        self.places.moves.truncate(n);
        self.outcome = None;
        self.touch();
    }

    /// Records a resignation by `loser` without a position to play it on.
    pub fn set_resigned(&mut self, loser: Side) {
        self.outcome = Some(Outcome {
            winner: loser.opponent(),
            reason: EndReason::Resignation,
        });
        self.touch();
    }

    /// A new game that starts like this one and continues from its first `n` moves (all of
    /// them when `n` is larger), dated now and without a result.
    pub fn branch(&self, n: usize) -> Record {
        let n = n.min(self.moves.len());
        let now = now();
        Record {
            started: now.clone(),
            updated: now,
            outcome: None,
            moves: self.moves[..n].to_vec(),
            places: Places::default(),
            ..self.clone()
        }
    }
}

fn value(s: Option<&Spanned<String>>) -> &str {
    s.map_or("", |s| s.get_ref().as_str())
}

fn parse_outcome(
    src: &Source,
    result: Option<&Spanned<String>>,
    termination: Option<&Spanned<String>>,
) -> Result<Option<Outcome>, DataError> {
    let winner = match value(result) {
        "" => None,
        "black" => Some(Side::Black),
        "white" => Some(Side::White),
        r => {
            return Err(src.error_span(
                &result.expect("a value").span(),
                format!("result {r:?}: expected \"\", \"black\" or \"white\""),
            ));
        }
    };
    let reason = match value(termination) {
        "" => None,
        t => Some(
            TERMINATIONS
                .into_iter()
                .find(|&r| termination_name(r) == t)
                .ok_or_else(|| {
                    src.error_span(
                        &termination.expect("a value").span(),
                        format!(
                            "termination {t:?}: expected \"\", {}",
                            TERMINATIONS
                                .map(|r| format!("{:?}", termination_name(r)))
                                .join(", ")
                        ),
                    )
                })?,
        ),
    };
    match (winner, reason) {
        (None, None) => Ok(None),
        (Some(winner), Some(reason)) => Ok(Some(Outcome { winner, reason })),
        (Some(_), None) => Err(src.error_span(
            &result.expect("a value").span(),
            "a result needs a termination (how the game ended)",
        )),
        (None, Some(_)) => Err(src.error_span(
            &termination.expect("a value").span(),
            "a termination needs a result (who won)",
        )),
    }
}

/// How often a replay keeps a copy of the position: jumping to any move then plays at most
/// this many moves.
const CHECKPOINT_EVERY: usize = 32;

/// A replayed game: its rules, moves and every position on the way (kept as a copy every
/// [`CHECKPOINT_EVERY`] moves and played forward from there on demand).
#[derive(Debug)]
pub struct Replay {
    pub rules: Rules,
    pub moves: Vec<Move>,
    checkpoints: Vec<Position>,
    /// The position after the last move (with the resignation, if the game ended so).
    pub final_position: Position,
    /// How the game ended, by its moves (or the record's resignation).
    pub outcome: Option<Outcome>,
    pub warnings: Vec<Warning>,
}

impl Replay {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.checkpoints[0]
    }

    /// The position after `n` moves (0: the start); `n` past the end gives the final position.
    pub fn position_at(&self, n: usize) -> Position {
        if n >= self.moves.len() {
            return self.final_position.clone();
        }
        let k = n / CHECKPOINT_EVERY;
        let mut pos = self.checkpoints[k].clone();
        for m in &self.moves[k * CHECKPOINT_EVERY..n] {
            self.rules.play_unchecked(&mut pos, m);
        }
        pos
    }

    /// Move `n` (1-based) in full notation.
    pub fn move_text(&self, n: usize) -> String {
        notation::move_string(&self.rules, &self.position_at(n - 1), &self.moves[n - 1])
    }

    /// The squares move `n` (1-based) removes pieces from.
    pub fn captures(&self, n: usize) -> Vec<Square> {
        self.rules
            .captures(&self.position_at(n - 1), &self.moves[n - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules::new(Game::builtin("taikyoku").unwrap(), "wikipedia").unwrap()
    }

    #[test]
    fn a_new_record_round_trips_through_toml() {
        let r = rules();
        let mut pos = r.start_position();
        let mut rec = Record::new(&r, &pos);
        rec.black = "Sente \"the bold\" \\ 先手".into();
        assert_eq!(rec.start, "standard");
        rec.push_text(&r, &mut pos, "19.26-19.25").unwrap();
        rec.push_text(&r, &mut pos, "P18.11-18.12").unwrap();
        assert_eq!(rec.moves(), ["P19.26-19.25", "P18.11-18.12"]);
        let text = rec.to_toml();
        assert!(text.contains("moves = [\n  \"P19.26-19.25\",\n  \"P18.11-18.12\",\n]\n"));
        let back = Record::parse("g.toml", &text).unwrap();
        assert_eq!(back.to_toml(), text);
        assert_eq!(back.black, rec.black);
        let replay = back.replay(&r.game).unwrap();
        assert_eq!(replay.final_position, pos);
        assert!(replay.warnings.is_empty(), "{:?}", replay.warnings);
    }

    #[test]
    fn jumping_to_any_move_gives_the_position_played_to_there() {
        let r = rules();
        let mut pos = r.start_position();
        let mut rec = Record::new(&r, &pos);
        let mut seen = vec![pos.clone()];
        for _ in 0..70 {
            // The first non-capturing move, to keep the game going.
            let m = r
                .legal_moves(&pos)
                .into_iter()
                .find(|m| r.captures(&pos, m).is_empty())
                .unwrap();
            rec.push_move(&r, &mut pos, &m).unwrap();
            seen.push(pos.clone());
        }
        let replay = Record::parse("g", &rec.to_toml())
            .unwrap()
            .replay(&r.game)
            .unwrap();
        for (n, p) in seen.iter().enumerate() {
            assert_eq!(&replay.position_at(n), p, "after {n} moves");
        }
        assert_eq!(replay.move_text(3), rec.moves()[2]);
    }

    #[test]
    fn resignation_is_kept_and_replayed() {
        let r = rules();
        let mut pos = r.start_position();
        let mut rec = Record::new(&r, &pos);
        rec.push_text(&r, &mut pos, "19.26-19.25").unwrap();
        rec.resign(&r, &mut pos);
        let text = rec.to_toml();
        assert!(text.contains("result = \"black\"\ntermination = \"resignation\"\n"));
        let replay = Record::parse("g", &text).unwrap().replay(&r.game).unwrap();
        assert_eq!(replay.outcome, rec.outcome);
        assert!(replay.warnings.is_empty());
        // No move after the end.
        let e = rec.push_text(&r, &mut pos, "P18.11-18.12").unwrap_err();
        assert!(e.reason.contains("the game is over"), "{e}");
    }

    #[test]
    fn a_branch_keeps_the_first_moves_only() {
        let r = rules();
        let mut pos = r.start_position();
        let mut rec = Record::new(&r, &pos);
        rec.push_text(&r, &mut pos, "19.26-19.25").unwrap();
        rec.push_text(&r, &mut pos, "18.11-18.12").unwrap();
        rec.resign(&r, &mut pos);
        let b = rec.branch(1);
        assert_eq!(b.moves(), ["P19.26-19.25"]);
        assert_eq!(b.outcome, None);
        assert_eq!(b.rules, "wikipedia");
    }

    #[test]
    fn header_errors_say_where() {
        let e = Record::parse("g", "format = \"taikyoku-record\"\nversion = 7\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.column, 11);
        assert!(e.message.contains("version 7 is not supported"), "{e}");
        let e = Record::parse("g", "format = \"chess\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 10));
        let e = Record::parse("g", "a = 1\n").unwrap_err();
        assert!(e.message.contains("not a game record"), "{e}");
        let r = rules();
        let rec = Record::new(&r, &r.start_position());
        let text = rec.to_toml();
        let extra = text.replace("black = ", "colour = \"red\"\nblack = ");
        let e = Record::parse("g", &extra).unwrap_err();
        assert!(e.message.contains("unknown field `colour`"), "{e}");
        let cut = &text[..text.find("moves").unwrap()];
        let e = Record::parse("g", cut).unwrap_err();
        assert!(e.message.contains("cut off"), "{e}");
        let bad = text.replace("result = \"\"", "result = \"black\"");
        let e = Record::parse("g", &bad).unwrap_err();
        assert!(e.message.contains("needs a termination"), "{e}");
        let bad = text.replace("termination = \"\"", "termination = \"boredom\"");
        let e = Record::parse("g", &bad).unwrap_err();
        assert!(e.message.contains("\"resignation\""), "{e}");
        let bad = text.replace(&rec.started, "yesterday");
        let e = Record::parse("g", &bad).unwrap_err();
        assert!(e.message.contains("not a date"), "{e}");
    }
}

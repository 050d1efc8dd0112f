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

use crate::history::History;
use crate::timecontrol::{Clocks, TimeControl};
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::fmt;
use std::path::Path;
use std::time::{Duration, SystemTime};
use taikyoku_core::error::{DataError, Source, utf8_text};
use taikyoku_core::game::{DataDir, Game, GameError};
use taikyoku_core::geometry::Side;
use taikyoku_core::notation;
use taikyoku_core::position::{EndReason, Outcome, Position};
use taikyoku_core::rules::{Rules, RulesError};
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
    /// Who played each side when it was not a person at the keyboard: `computer:LEVEL` or
    /// `engine:COMMAND` (empty: a person, as in every record written before these fields).
    pub black_player: String,
    pub white_player: String,
    /// The clocks of a timed game: its time control and the time each side had left after
    /// the last move (`time`, `black_clock`, `white_clock`; a side that plays without a
    /// clock has none; none at all in an untimed game, as in every record written before
    /// them).
    pub clock: Option<Clocks>,
    /// RFC 3339 UTC dates (may be empty in hand-written records).
    pub started: String,
    pub updated: String,
    /// How the game ended, if it has a winner.
    pub outcome: Option<Outcome>,
    /// How the game ended without a winner, if it did (the rules know no draw: a host
    /// that stops a game does).
    pub draw: Option<DrawReason>,
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
    black_player: String,
    #[serde(default)]
    white_player: String,
    #[serde(default)]
    time: Option<Spanned<String>>,
    #[serde(default)]
    black_clock: Option<Spanned<f64>>,
    #[serde(default)]
    white_clock: Option<Spanned<f64>>,
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

/// Why a record could not be read or replayed (saving has its own [`crate::store::StoreError`]).
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
    /// The record says the game was drawn, but its moves end it with a winner.
    DrawDiffers { draw: DrawReason, replayed: Outcome },
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
            Warning::DrawDiffers { draw, replayed } => write!(
                f,
                "the record says the game was drawn ({}), but its moves give {}",
                draw.name(),
                describe_outcome(Some(*replayed))
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
        EndReason::Time => "time forfeit",
        EndReason::Forfeit => "forfeit",
    }
}

const TERMINATIONS: [EndReason; 5] = [
    EndReason::RoyalsCaptured,
    EndReason::Resignation,
    EndReason::NoLegalMove,
    EndReason::Time,
    EndReason::Forfeit,
];

/// Why a game ended in a draw (`result = "draw"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// A host stopped the game at its move limit.
    MoveLimit,
}

impl DrawReason {
    /// The `termination` value.
    pub fn name(self) -> &'static str {
        match self {
            DrawReason::MoveLimit => "move limit",
        }
    }
}

const DRAW_REASONS: [DrawReason; 1] = [DrawReason::MoveLimit];

/// The `result` value of a draw.
const DRAW: &str = "draw";

/// How a record says its game ended: "black won (resignation)", "draw (move limit)", or "no
/// result" while the game goes on.
pub fn describe_result(outcome: Option<Outcome>, draw: Option<DrawReason>) -> String {
    match draw {
        Some(d) if outcome.is_none() => format!("draw ({})", d.name()),
        _ => describe_outcome(outcome),
    }
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// A TOML basic string, escaped by the TOML writer.
fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

impl Record {
    /// A record of `history`'s game (its moves up to its point), dated now.
    pub fn new(history: &History) -> Record {
        let rules = history.rules();
        let start = history.start();
        let start_text = if *start == rules.start_position() {
            STANDARD_START.to_string()
        } else {
            notation::position_string(rules, start)
        };
        let now = now();
        let mut record = Record {
            game: rules.game.name.clone(),
            rules: rules.rule_set.name.clone(),
            rules_fingerprint: rules.game.fingerprint.clone(),
            start: start_text,
            black: String::new(),
            white: String::new(),
            black_player: String::new(),
            white_player: String::new(),
            clock: None,
            started: now.clone(),
            updated: now,
            outcome: None,
            draw: None,
            moves: Vec::new(),
            places: Places::default(),
        };
        record.update(history);
        record
    }

    /// Takes the moves and the result of `history` (the game this record is of, as it now
    /// stands: its moves up to its point), dated now.
    pub fn update(&mut self, history: &History) {
        let played = history.played();
        // Moves read from the file keep their place for messages; the rest have none.
        let same = self
            .moves
            .iter()
            .zip(played)
            .take_while(|(a, b)| **a == b.text)
            .count();
        self.places.moves.truncate(same);
        self.places.moves.resize(played.len(), None);
        self.moves = played.iter().map(|p| p.text.clone()).collect();
        self.outcome = history.outcome();
        self.touch();
    }

    /// A record of a new game played on from `history` (a branch of this record's game):
    /// the same header, dated now.
    pub fn branch(&self, history: &History) -> Record {
        let now = now();
        let mut record = Record {
            started: now.clone(),
            updated: now,
            moves: Vec::new(),
            places: Places::default(),
            ..self.clone()
        };
        record.update(history);
        record
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
        let bytes = taikyoku_core::files::read_file(path).map_err(|source| RecordError::Io {
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
        // A file that is not TOML is first of all not a record, unless it names the format
        // (a damaged record: its TOML error says where).
        let probe: Probe = src.parse_toml().map_err(|mut e| {
            if !text.contains(FORMAT) {
                e.message = format!("not a game record (not TOML): {}", e.message);
            }
            e
        })?;
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
        let (outcome, draw) = parse_outcome(&src, raw.result.as_ref(), raw.termination.as_ref())?;
        let clock = parse_clock(&src, &raw)?;
        Ok(Record {
            game: raw.game.get_ref().clone(),
            rules: raw.rules.get_ref().clone(),
            rules_fingerprint: raw.rules_fingerprint,
            start: raw.start.get_ref().clone(),
            black: raw.black,
            white: raw.white,
            black_player: raw.black_player,
            white_player: raw.white_player,
            clock,
            started: raw.started.map(Spanned::into_inner).unwrap_or_default(),
            updated: raw.updated.map(Spanned::into_inner).unwrap_or_default(),
            outcome,
            draw,
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
        let (result, termination) = match (self.outcome, self.draw) {
            (Some(o), _) => (o.winner.name(), termination_name(o.reason)),
            (None, Some(d)) => (DRAW, d.name()),
            (None, None) => ("", ""),
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
            ("black_player", &self.black_player),
            ("white_player", &self.white_player),
            ("started", &self.started),
            ("updated", &self.updated),
            ("result", result),
            ("termination", termination),
        ] {
            // Who played is written only for a computer or engine: a hot-seat record stays
            // as older programs wrote (and read) it.
            if value.is_empty() && key.ends_with("_player") {
                continue;
            }
            s.push_str(&format!("{key} = {}\n", quote(value)));
        }
        if let Some(c) = &self.clock {
            // Seconds to the millisecond; `{:?}` keeps a float a float (`60.0`).
            // A side that plays without a clock has none written.
            s.push_str(&format!("time = {}\n", quote(&c.control.to_string())));
            for side in Side::BOTH.into_iter().filter(|s| c.is_timed(*s)) {
                let left = (c.remaining(side).as_secs_f64() * 1e3).round() / 1e3;
                s.push_str(&format!("{}_clock = {left:?}\n", side.name()));
            }
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
    pub fn move_error(&self, index: usize, text: &str, e: notation::MoveError) -> MoveError {
        // The number and text are said once, in front; an ambiguity says the text itself.
        let reason = match e.problem {
            notation::MoveProblem::Ambiguous(_) => e.to_string(),
            p => p.to_string(),
        };
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
        let mut history = History::new(rules, start);
        for (i, text) in self.moves.iter().enumerate() {
            history
                .play_text(text)
                .map_err(|e| self.move_error(i, text, e))?;
        }
        let mut warnings = Vec::new();
        if !self.rules_fingerprint.is_empty() && self.rules_fingerprint != game.fingerprint {
            warnings.push(Warning::RulesChanged {
                recorded: self.rules_fingerprint.clone(),
                current: game.fingerprint.clone(),
            });
        }
        // Resignation, time and forfeit are the endings the moves cannot show.
        if let Some(o) = self.outcome.filter(|o| o.reason.is_conceded()) {
            history.concede(o.reason);
        }
        let outcome = history.outcome();
        if let (Some(draw), Some(replayed)) = (self.draw, outcome) {
            warnings.push(Warning::DrawDiffers { draw, replayed });
        } else if outcome != self.outcome {
            warnings.push(Warning::ResultDiffers {
                recorded: self.outcome,
                replayed: outcome,
            });
        }
        Ok(Replay { history, warnings })
    }
}
fn value(s: Option<&Spanned<String>>) -> &str {
    s.map_or("", |s| s.get_ref().as_str())
}

/// The clocks of a timed game: `time` (BASE+INC), and the seconds each side had left; a side
/// whose clock is left out plays without one (both left out: both start with the base);
/// clocks without a time control are refused.
fn parse_clock(src: &Source, raw: &RawRecord) -> Result<Option<Clocks>, DataError> {
    let sides = [&raw.black_clock, &raw.white_clock];
    let Some(time) = &raw.time else {
        return match sides.into_iter().flatten().next() {
            Some(c) => Err(src.error_span(
                &c.span(),
                "a clock without `time` (its time control, such as \"60+1\")",
            )),
            None => Ok(None),
        };
    };
    let control: TimeControl = time
        .get_ref()
        .parse()
        .map_err(|e| src.error_span(&time.span(), format!("`time`: {e}")))?;
    if sides.iter().all(|c| c.is_none()) {
        return Ok(Some(Clocks::new(control)));
    }
    let mut left = [None; 2];
    for (slot, clock) in left.iter_mut().zip(sides) {
        if let Some(c) = clock {
            *slot = Duration::try_from_secs_f64(*c.get_ref())
                .ok()
                .filter(|d| *d <= Duration::from_secs(1 << 32))
                .ok_or_else(|| {
                    src.error_span(
                        &c.span(),
                        format!("{} is not a number of seconds left on a clock", c.get_ref()),
                    )
                })
                .map(Some)?;
        }
    }
    Ok(Some(Clocks::resumed(control, left)))
}

/// The `result` and `termination` values: a winner and how, a draw and why, or neither.
fn parse_outcome(
    src: &Source,
    result: Option<&Spanned<String>>,
    termination: Option<&Spanned<String>>,
) -> Result<(Option<Outcome>, Option<DrawReason>), DataError> {
    let at = |s: Option<&Spanned<String>>, message: String| {
        src.error_span(&s.expect("a value").span(), message)
    };
    let expected = |names: Vec<&str>| {
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (r, t) = (value(result), value(termination));
    match (r, t) {
        ("", "") => Ok((None, None)),
        ("", _) => Err(at(
            termination,
            "a termination needs a result (who won)".into(),
        )),
        (_, "") => Err(at(
            result,
            "a result needs a termination (how the game ended)".into(),
        )),
        (DRAW, t) => {
            let draw = DRAW_REASONS.into_iter().find(|d| d.name() == t);
            let names = DRAW_REASONS.map(DrawReason::name).to_vec();
            draw.map(|d| (None, Some(d))).ok_or_else(|| {
                at(
                    termination,
                    format!("termination {t:?} of a draw: expected {}", expected(names)),
                )
            })
        }
        (r, t) => {
            let winner = match r {
                "black" => Side::Black,
                "white" => Side::White,
                r => {
                    return Err(at(
                        result,
                        format!("result {r:?}: expected \"\", \"black\", \"white\" or \"draw\""),
                    ));
                }
            };
            let reason = TERMINATIONS.into_iter().find(|&e| termination_name(e) == t);
            let names = TERMINATIONS.map(termination_name).to_vec();
            let reason = reason.ok_or_else(|| {
                at(
                    termination,
                    format!("termination {t:?}: expected {}", expected(names)),
                )
            })?;
            Ok((Some(Outcome { winner, reason }), None))
        }
    }
}

/// A record read back: its game, and what replaying it noticed.
#[derive(Debug)]
pub struct Replay {
    /// The game at its end (with the record's resignation, if it ended so).
    pub history: History,
    pub warnings: Vec<Warning>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules::new(Game::builtin("taikyoku").unwrap(), "wikipedia").unwrap()
    }

    fn game(moves: &[&str]) -> History {
        let r = rules();
        let start = r.start_position();
        let mut h = History::new(r, start);
        for m in moves {
            h.play_text(m).unwrap();
        }
        h
    }

    #[test]
    fn a_new_record_round_trips_through_toml() {
        let h = game(&["19.26-19.25", "P18.11-18.12"]);
        let mut rec = Record::new(&h);
        rec.black = "Sente \"the bold\" \\ 先手".into();
        assert_eq!(rec.start, "standard");
        assert_eq!(rec.moves(), ["P19.26-19.25", "P18.11-18.12"]);
        let text = rec.to_toml();
        assert!(text.contains("moves = [\n  \"P19.26-19.25\",\n  \"P18.11-18.12\",\n]\n"));
        let back = Record::parse("g.toml", &text).unwrap();
        assert_eq!(back.to_toml(), text);
        assert_eq!(back.black, rec.black);
        let replay = back.replay(&h.rules().game).unwrap();
        assert_eq!(replay.history.position(), h.position());
        assert_eq!(replay.history.line(), h.line());
        assert!(replay.warnings.is_empty(), "{:?}", replay.warnings);
    }

    #[test]
    fn the_record_is_of_the_moves_up_to_the_point() {
        let mut h = game(&["19.26-19.25", "P18.11-18.12"]);
        let mut rec = Record::new(&h);
        h.undo();
        rec.update(&h);
        assert_eq!(rec.moves(), ["P19.26-19.25"]);
        h.resign();
        rec.update(&h);
        assert_eq!(
            rec.outcome,
            Some(Outcome {
                winner: Side::Black,
                reason: EndReason::Resignation
            })
        );
    }

    #[test]
    fn resignation_is_kept_and_replayed() {
        let mut h = game(&["19.26-19.25"]);
        h.resign();
        let rec = Record::new(&h);
        let text = rec.to_toml();
        assert!(text.contains("result = \"black\"\ntermination = \"resignation\"\n"));
        let mut replay = Record::parse("g", &text)
            .unwrap()
            .replay(&h.rules().game)
            .unwrap();
        assert_eq!(replay.history.outcome(), rec.outcome);
        assert!(replay.warnings.is_empty());
        // No move after the end.
        let e = replay.history.play_text("P18.11-18.12").unwrap_err();
        assert!(e.to_string().contains("the game is over"), "{e}");
    }

    #[test]
    fn a_draw_is_kept_and_replayed() {
        let h = game(&["19.26-19.25"]);
        let mut rec = Record::new(&h);
        rec.draw = Some(DrawReason::MoveLimit);
        let text = rec.to_toml();
        assert!(text.contains("result = \"draw\"\ntermination = \"move limit\"\n"));
        let back = Record::parse("g", &text).unwrap();
        assert_eq!(
            (back.outcome, back.draw),
            (None, Some(DrawReason::MoveLimit))
        );
        assert_eq!(
            describe_result(back.outcome, back.draw),
            "draw (move limit)"
        );
        assert!(back.replay(&h.rules().game).unwrap().warnings.is_empty());
        let bad = text.replace("\"move limit\"", "\"resignation\"");
        let e = Record::parse("g", &bad).unwrap_err();
        assert!(
            e.message.contains("of a draw: expected \"move limit\""),
            "{e}"
        );
    }

    #[test]
    fn a_forfeit_and_the_players_are_kept_and_old_records_still_load() {
        let mut h = game(&["19.26-19.25"]);
        assert_eq!(h.concede(EndReason::Forfeit), Some(Side::White));
        let mut rec = Record::new(&h);
        rec.white = "computer (easy)".into();
        rec.white_player = "computer:easy".into();
        let text = rec.to_toml();
        assert!(text.contains("result = \"black\"\ntermination = \"forfeit\"\n"));
        assert!(
            text.contains("white_player = \"computer:easy\"\n"),
            "{text}"
        );
        assert!(
            !text.contains("black_player"),
            "a person is not written: {text}"
        );
        let back = Record::parse("g", &text).unwrap();
        assert_eq!(
            (back.black_player.as_str(), back.white_player.as_str()),
            ("", "computer:easy")
        );
        let replay = back.replay(&h.rules().game).unwrap();
        assert_eq!(replay.history.outcome(), rec.outcome);
        assert!(replay.warnings.is_empty(), "{:?}", replay.warnings);
        // A record written before the players were recorded reads as two people.
        let old = text.replace("white_player = \"computer:easy\"\n", "");
        let back = Record::parse("g", &old).unwrap();
        assert_eq!(back.white_player, "");
        assert_eq!(back.white, "computer (easy)");
    }

    /// A timed game's clocks are kept to the millisecond; a record without them (every
    /// record written before them) is untimed; bad clocks are refused where they stand.
    #[test]
    fn the_clocks_of_a_timed_game_are_kept() {
        let h = game(&["19.26-19.25", "18.11-18.12"]);
        let mut rec = Record::new(&h);
        assert!(!rec.to_toml().contains("clock"), "untimed: no clock fields");
        let control: TimeControl = "60+1".parse().unwrap();
        let left = [Duration::from_millis(58_251), Duration::from_secs(61)];
        rec.clock = Some(Clocks::resumed(control, left.map(Some)));
        let text = rec.to_toml();
        assert!(
            text.contains("time = \"60+1\"\nblack_clock = 58.251\nwhite_clock = 61.0\n"),
            "{text}"
        );
        let back = Record::parse("g", &text).unwrap();
        assert_eq!(back.clock, rec.clock);
        // A side without its clock plays without one (a person against an engine); with
        // neither, both start with the base.
        let untimed = text.replace("black_clock = 58.251\n", "");
        let c = Record::parse("g", &untimed).unwrap().clock.unwrap();
        assert!(!c.is_timed(Side::Black) && c.is_timed(Side::White));
        let mut again = rec.clone();
        again.clock = Some(c);
        assert_eq!(again.to_toml(), untimed, "written back as it was");
        let base_only = untimed.replace("white_clock = 61.0\n", "");
        let c = Record::parse("g", &base_only).unwrap().clock.unwrap();
        assert_eq!(c, Clocks::new(control));
        let e = Record::parse("g", &text.replace("time = \"60+1\"\n", "")).unwrap_err();
        assert!(e.to_string().contains("a clock without `time`"), "{e}");
        let e = Record::parse("g", &text.replace("58.251", "-3.0")).unwrap_err();
        assert!(
            e.to_string().contains("-3 is not a number of seconds"),
            "{e}"
        );
        let e = Record::parse("g", &text.replace("60+1", "soon")).unwrap_err();
        assert!(e.to_string().contains("`time`:"), "{e}");
    }

    #[test]
    fn a_branch_keeps_the_first_moves_only() {
        let mut h = game(&["19.26-19.25", "18.11-18.12"]);
        h.resign();
        let rec = Record::new(&h);
        let b = rec.branch(&h.branch(1));
        assert_eq!(b.moves(), ["P19.26-19.25"]);
        assert_eq!(b.outcome, None);
        assert_eq!(b.rules, "wikipedia");
        assert_eq!(rec.moves().len(), 2, "the original stays as it was");
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
        let rec = Record::new(&game(&[]));
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
        let bad = text.replace(
            "result = \"\"\ntermination = \"\"",
            "result = \"white\"\ntermination = \"boredom\"",
        );
        let e = Record::parse("g", &bad).unwrap_err();
        assert!(e.message.contains("\"resignation\""), "{e}");
        let bad = text.replace(&rec.started, "yesterday");
        let e = Record::parse("g", &bad).unwrap_err();
        assert!(e.message.contains("not a date"), "{e}");
    }
}

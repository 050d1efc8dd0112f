//! ATSI v00, the Australian Taikyoku Shogi Interface (the protocol on the About page of
//! taikyoku-shogi.github.io): its squares, the host's commands, the engine's replies, and moves
//! written as ATSI square lists, matched against our legal moves.
//!
//! Pure text in, text out: the engine (`taikyoku engine`) and the host (`taikyoku match`) do
//! the talking. Squares are `FILE RANK`: files counted from the first player's right (`1`…`36`),
//! ranks from the second player's side as letters (`a`…`z`, then `aa`…`jj`). On our board that
//! is the file of [`Dims::square_name`] and its rank as a letter: Black's king starts on `19jj`,
//! White's on `18a`.
//!
//! A move is its start, its steps, its destination (`move 26z 26y 26x`). The protocol asks for
//! the steps only where paths to the destination differ in outcome (a lion taking twice, igui,
//! a hook mover crossing into the promotion zone); [`move_to_atsi`] writes them exactly then.
//! tomatene writes the steps after the destination (`18r 18p 18q`): [`move_from_atsi`] accepts
//! that order too when the spec's order fits no move, and says which it used.

use std::fmt;
use taikyoku_core::catalogue::KindId;
use taikyoku_core::geometry::{Dims, Side, Square, Vec2};
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// What was wrong with a line or a move.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AtsiError {
    #[error("empty line")]
    Empty,
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    #[error("{command}: missing {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("{command}: unexpected {text:?} after the arguments")]
    Extra { command: &'static str, text: String },
    #[error("{command}: {what} must be {expected}, not {text:?}")]
    BadArgument {
        command: &'static str,
        what: &'static str,
        expected: &'static str,
        text: String,
    },
    #[error("unsupported ATSI version {0:?} (supported: v00, and v0 as ATSA's host sends it)")]
    UnsupportedVersion(String),
    #[error("{text:?} is not a square: {why}")]
    BadSquare { text: String, why: String },
    #[error("{text:?}: {why}")]
    BadParamType { text: String, why: &'static str },
    #[error("unclosed quote in {0:?}")]
    UnclosedQuote(String),
    #[error("move {text:?}: {why}")]
    IllegalMove { text: String, why: String },
}

/// A square as ATSI writes it: `file` from 1 (the first player's right), `rank` from 1 (the
/// second player's side; written `a`…`z`, `aa`…`zz`, `aaa`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtsiSquare {
    pub file: u16,
    pub rank: u16,
}

impl AtsiSquare {
    /// The square on a board of `dims`.
    pub fn of(sq: Square, dims: Dims) -> AtsiSquare {
        let (x, y) = dims.xy(sq);
        AtsiSquare {
            file: (dims.files as i32 - x) as u16,
            rank: (dims.ranks as i32 - y) as u16,
        }
    }

    /// The board square, if it is on a board of `dims`.
    pub fn square(self, dims: Dims) -> Option<Square> {
        dims.square(
            dims.files as i32 - self.file as i32,
            dims.ranks as i32 - self.rank as i32,
        )
    }
}

impl fmt::Display for AtsiSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.rank.saturating_sub(1);
        let letter = char::from(b'a' + (i % 26) as u8);
        write!(f, "{}", self.file)?;
        for _ in 0..=i / 26 {
            write!(f, "{letter}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for AtsiSquare {
    type Err = AtsiError;

    /// Reads `FILE RANK` with no space between: digits without a leading zero, then one
    /// lower-case letter repeated (`a`, `jj`).
    fn from_str(s: &str) -> Result<AtsiSquare, AtsiError> {
        let bad = |why: &str| AtsiError::BadSquare {
            text: taikyoku_core::notation::shorten(s),
            why: why.to_string(),
        };
        let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (file, rank) = s.split_at(digits);
        if file.is_empty() || file.starts_with('0') || file.len() > 3 {
            return Err(bad("it starts with its file, a number from 1"));
        }
        let mut letters = rank.chars();
        let first = letters
            .next()
            .filter(char::is_ascii_lowercase)
            .ok_or_else(|| {
                bad("its file is followed by its rank, a lower-case letter (a…z, aa…jj)")
            })?;
        if rank.len() > 3 || letters.any(|c| c != first) {
            return Err(bad("a rank is one letter, or one letter repeated (aa…jj)"));
        }
        Ok(AtsiSquare {
            file: file.parse().map_err(|_| bad("bad file"))?,
            rank: (first as u16 - 'a' as u16 + 1) + 26 * (rank.len() as u16 - 1),
        })
    }
}

/// The ATSI name of a square: `1a` is the corner on the first player's far right, `36jj` on a
/// 36×36 board the corner at the first player's near left.
pub fn format_square(sq: Square, dims: Dims) -> String {
    AtsiSquare::of(sq, dims).to_string()
}

/// Reads an ATSI square of a board of `dims`.
pub fn parse_square(s: &str, dims: Dims) -> Result<Square, AtsiError> {
    on_board(s.parse()?, dims)
}

fn on_board(a: AtsiSquare, dims: Dims) -> Result<Square, AtsiError> {
    a.square(dims).ok_or_else(|| AtsiError::BadSquare {
        text: a.to_string(),
        why: format!(
            "off the board (files 1…{}, ranks a…{})",
            dims.files,
            AtsiSquare {
                file: 1,
                rank: dims.ranks as u16
            }
            .to_string()
            .trim_start_matches('1')
        ),
    })
}

/// The most squares a move may list (start, steps, destination): ATSA's free eagle could list
/// every piece it takes along a line.
pub const MAX_MOVE_SQUARES: usize = 40;

/// A move as ATSI squares, in the order written, with our extension for rule sets where
/// promotion is a choice (never needed under ATSA's rules): `+` after the last square
/// promotes, `=` declines; without it the move does not promote when it may choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtsiMove {
    pub squares: Vec<AtsiSquare>,
    pub promote: Option<bool>,
}

impl fmt::Display for AtsiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        match self.promote {
            Some(true) => f.write_str("+"),
            Some(false) => f.write_str("="),
            None => Ok(()),
        }
    }
}

impl AtsiMove {
    /// Reads the squares of a `move` (or of an `opmove`, without its clocks).
    pub fn parse_tokens(tokens: &[&str]) -> Result<AtsiMove, AtsiError> {
        if tokens.len() < 2 {
            return Err(AtsiError::IllegalMove {
                text: tokens.join(" "),
                why: "a move needs at least its start and destination squares".into(),
            });
        }
        if tokens.len() > MAX_MOVE_SQUARES {
            return Err(AtsiError::IllegalMove {
                text: taikyoku_core::notation::shorten(&tokens.join(" ")),
                why: format!("more than {MAX_MOVE_SQUARES} squares"),
            });
        }
        let (last, promote) = split_promotion(tokens[tokens.len() - 1]);
        let mut squares = tokens[..tokens.len() - 1]
            .iter()
            .map(|t| t.parse())
            .collect::<Result<Vec<AtsiSquare>, _>>()?;
        squares.push(last.parse()?);
        Ok(AtsiMove { squares, promote })
    }
}

impl std::str::FromStr for AtsiMove {
    type Err = AtsiError;
    fn from_str(s: &str) -> Result<AtsiMove, AtsiError> {
        AtsiMove::parse_tokens(&s.split_ascii_whitespace().collect::<Vec<_>>())
    }
}

fn split_promotion(t: &str) -> (&str, Option<bool>) {
    match t.as_bytes().last() {
        Some(b'+') => (&t[..t.len() - 1], Some(true)),
        Some(b'=') => (&t[..t.len() - 1], Some(false)),
        _ => (t, None),
    }
}

/// Where a game starts: ATSA's opening, or a TSFEN (its move counter says who moves first).
#[derive(Clone, Debug, PartialEq)]
pub enum StartPos {
    Initial,
    Tsfen(String),
}

/// A message from the host to an engine.
#[derive(Clone, Debug, PartialEq)]
pub enum HostCommand {
    /// `atsiinit v00` (ATSA's host sends `v0`; both are accepted, the text is kept).
    AtsiInit {
        version: String,
    },
    Identify,
    /// `time BASE [INC]`: seconds for the game and added after each move.
    Time {
        base: f64,
        increment: f64,
    },
    /// `player 0|1`: 0 plays the first player's pieces (sente, Black), 1 the second's.
    Player(u8),
    StartGame(StartPos),
    /// The opponent's move, then the seconds left on our clock and on theirs.
    OpMove {
        mv: AtsiMove,
        time: f64,
        op_time: f64,
    },
    Win(Option<String>),
    Loss(Option<String>),
    Draw(Option<String>),
    /// `setparam NAME VALUE` (the value is the rest of the line).
    SetParam {
        name: String,
        value: String,
    },
    /// Not in v00: asks the engine to send `eval` for the position now.
    Eval,
    Quit,
}

/// A message from an engine to the host.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineReply {
    AtsiOk,
    /// `info NAME [DESCRIPTION [VERSION [AUTHOR [LOGO]]]]`; arguments with spaces are quoted.
    Info {
        name: String,
        description: Option<String>,
        version: Option<String>,
        author: Option<String>,
        logo: Option<String>,
    },
    Param {
        name: String,
        ty: ParamType,
    },
    Move(AtsiMove),
    Resign(Option<String>),
    /// The evaluation after the engine's move, for the first player (positive: good for them).
    Eval(f64),
    /// `log TEXT`: not in v00, but ATSA's host and tomatene use it for messages to people.
    Log(String),
    Quit,
}

/// The type of an engine parameter, as `param` announces it.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamType {
    String,
    Bool,
    Number { range: Option<(f64, f64)> },
    Int { range: Option<(i64, i64)> },
    Enum(Vec<String>),
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::String => f.write_str("string"),
            ParamType::Bool => f.write_str("bool"),
            ParamType::Number { range: None } => f.write_str("number"),
            ParamType::Number {
                range: Some((a, b)),
            } => write!(f, "number[{a}, {b}]"),
            ParamType::Int { range: None } => f.write_str("int"),
            ParamType::Int {
                range: Some((a, b)),
            } => write!(f, "int[{a}, {b}]"),
            ParamType::Enum(values) => {
                let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
                write!(f, "enum[{}]", quoted.join("|"))
            }
        }
    }
}

impl std::str::FromStr for ParamType {
    type Err = AtsiError;
    fn from_str(s: &str) -> Result<ParamType, AtsiError> {
        let bad = |why| AtsiError::BadParamType {
            text: taikyoku_core::notation::shorten(s),
            why,
        };
        let s = s.trim();
        let (head, args) = match s.split_once('[') {
            Some((h, rest)) => (
                h.trim(),
                Some(rest.strip_suffix(']').ok_or_else(|| bad("missing ]"))?),
            ),
            None => (s, None),
        };
        let bounds = |a: &str| -> Result<(String, String), AtsiError> {
            let (lo, hi) = a
                .split_once(',')
                .ok_or_else(|| bad("bounds are [MIN, MAX]"))?;
            Ok((lo.trim().to_string(), hi.trim().to_string()))
        };
        Ok(match (head, args) {
            ("string", None) => ParamType::String,
            ("bool", None) => ParamType::Bool,
            ("number", None) => ParamType::Number { range: None },
            ("int", None) => ParamType::Int { range: None },
            ("number", Some(a)) => {
                let (lo, hi) = bounds(a)?;
                let num = |t: &str| number(t).ok_or_else(|| bad("bounds must be numbers"));
                ParamType::Number {
                    range: Some((num(&lo)?, num(&hi)?)),
                }
            }
            ("int", Some(a)) => {
                let (lo, hi) = bounds(a)?;
                let int = |t: &str| t.parse().map_err(|_| bad("bounds must be integers"));
                ParamType::Int {
                    range: Some((int(&lo)?, int(&hi)?)),
                }
            }
            ("enum", Some(a)) => ParamType::Enum(
                a.split('|')
                    .map(|v| {
                        let v = v.trim();
                        v.strip_prefix('"')
                            .and_then(|v| v.strip_suffix('"'))
                            .map(str::to_string)
                            .ok_or_else(|| bad("enum values are quoted: enum[\"a\"|\"b\"]"))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            _ => {
                return Err(bad(
                    "a type is string, bool, number, int (with [MIN, MAX]) or enum[…]",
                ));
            }
        })
    }
}

/// A finite number as ATSI writes it (`900`, `899.5`, `-1.25`).
fn number(t: &str) -> Option<f64> {
    let ok = !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    t.parse::<f64>().ok().filter(|v| ok && v.is_finite())
}

/// The command word and the rest of a line (leading and trailing white space dropped; ATSI
/// separates by one space, a `\r` of a Windows host or extra spaces are forgiven).
fn split_command(line: &str) -> Result<(&str, &str), AtsiError> {
    let line = line.trim();
    if line.is_empty() {
        return Err(AtsiError::Empty);
    }
    Ok(match line.split_once(char::is_whitespace) {
        Some((c, rest)) => (c, rest.trim()),
        None => (line, ""),
    })
}

/// The rest of a line as an optional free text (a reason, a log message).
fn text(rest: &str) -> Option<String> {
    (!rest.is_empty()).then(|| rest.to_string())
}

fn no_more(command: &'static str, rest: &[&str]) -> Result<(), AtsiError> {
    match rest.first() {
        None => Ok(()),
        Some(_) => Err(AtsiError::Extra {
            command,
            text: taikyoku_core::notation::shorten(&rest.join(" ")),
        }),
    }
}

fn num_arg(command: &'static str, what: &'static str, t: Option<&&str>) -> Result<f64, AtsiError> {
    let t = t.ok_or(AtsiError::Missing { command, what })?;
    number(t).ok_or_else(|| AtsiError::BadArgument {
        command,
        what,
        expected: "a number of seconds",
        text: taikyoku_core::notation::shorten(t),
    })
}

impl HostCommand {
    /// Reads one line from the host.
    pub fn parse(line: &str) -> Result<HostCommand, AtsiError> {
        let (command, rest) = split_command(line)?;
        let args: Vec<&str> = rest.split_ascii_whitespace().collect();
        let bare = |c: HostCommand, name| no_more(name, &args).map(|()| c);
        match command {
            "atsiinit" => {
                let version = *args.first().ok_or(AtsiError::Missing {
                    command: "atsiinit",
                    what: "the protocol version (v00)",
                })?;
                if !matches!(version, "v00" | "v0") {
                    return Err(AtsiError::UnsupportedVersion(
                        taikyoku_core::notation::shorten(version),
                    ));
                }
                no_more("atsiinit", &args[1..])?;
                Ok(HostCommand::AtsiInit {
                    version: version.to_string(),
                })
            }
            "identify" => bare(HostCommand::Identify, "identify"),
            "eval" => bare(HostCommand::Eval, "eval"),
            "quit" => bare(HostCommand::Quit, "quit"),
            "time" => {
                let base = num_arg("time", "the starting time", args.first())?;
                let increment = match args.get(1) {
                    Some(t) => num_arg("time", "the increment", Some(t))?,
                    None => 0.0,
                };
                no_more("time", args.get(2..).unwrap_or(&[]))?;
                if base < 0.0 || increment < 0.0 {
                    return Err(AtsiError::BadArgument {
                        command: "time",
                        what: "a time",
                        expected: "zero or more seconds",
                        text: rest.to_string(),
                    });
                }
                Ok(HostCommand::Time { base, increment })
            }
            "player" => {
                let t = args.first().ok_or(AtsiError::Missing {
                    command: "player",
                    what: "0 or 1",
                })?;
                let p = match *t {
                    "0" => 0,
                    "1" => 1,
                    _ => {
                        return Err(AtsiError::BadArgument {
                            command: "player",
                            what: "the player",
                            expected: "0 (first) or 1 (second)",
                            text: taikyoku_core::notation::shorten(t),
                        });
                    }
                };
                no_more("player", &args[1..])?;
                Ok(HostCommand::Player(p))
            }
            "startgame" => match rest {
                "" => Err(AtsiError::Missing {
                    command: "startgame",
                    what: "the position (initial or a TSFEN)",
                }),
                "initial" => Ok(HostCommand::StartGame(StartPos::Initial)),
                tsfen => Ok(HostCommand::StartGame(StartPos::Tsfen(tsfen.to_string()))),
            },
            "opmove" => {
                if args.len() < 4 {
                    return Err(AtsiError::Missing {
                        command: "opmove",
                        what: "squares and clocks (opmove FROM [STEPS…] TO TIME OP_TIME)",
                    });
                }
                let n = args.len();
                let time = num_arg("opmove", "our time left", args.get(n - 2))?;
                let op_time = num_arg("opmove", "the opponent's time left", args.get(n - 1))?;
                let mv = AtsiMove::parse_tokens(&args[..n - 2])?;
                Ok(HostCommand::OpMove { mv, time, op_time })
            }
            "win" => Ok(HostCommand::Win(text(rest))),
            "loss" => Ok(HostCommand::Loss(text(rest))),
            "draw" => Ok(HostCommand::Draw(text(rest))),
            "setparam" => {
                let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                if name.is_empty() {
                    return Err(AtsiError::Missing {
                        command: "setparam",
                        what: "the parameter's name",
                    });
                }
                Ok(HostCommand::SetParam {
                    name: name.to_string(),
                    value: value.trim().to_string(),
                })
            }
            other => Err(AtsiError::UnknownCommand(taikyoku_core::notation::shorten(
                other,
            ))),
        }
    }

    /// The line to send (without its `\n`).
    pub fn to_line(&self) -> String {
        match self {
            HostCommand::AtsiInit { version } => format!("atsiinit {version}"),
            HostCommand::Identify => "identify".into(),
            HostCommand::Time { base, increment } => format!("time {base} {increment}"),
            HostCommand::Player(p) => format!("player {p}"),
            HostCommand::StartGame(StartPos::Initial) => "startgame initial".into(),
            HostCommand::StartGame(StartPos::Tsfen(t)) => format!("startgame {t}"),
            HostCommand::OpMove { mv, time, op_time } => format!("opmove {mv} {time} {op_time}"),
            HostCommand::Win(r) => with_text("win", r),
            HostCommand::Loss(r) => with_text("loss", r),
            HostCommand::Draw(r) => with_text("draw", r),
            HostCommand::SetParam { name, value } => format!("setparam {name} {value}"),
            HostCommand::Eval => "eval".into(),
            HostCommand::Quit => "quit".into(),
        }
    }
}

fn with_text(command: &str, t: &Option<String>) -> String {
    match t {
        Some(t) => format!("{command} {t}"),
        None => command.to_string(),
    }
}

/// Splits `info`'s arguments: words, or `"quoted text"` (as tomatene sends them).
fn quoted_words(rest: &str) -> Result<Vec<String>, AtsiError> {
    let mut out = Vec::new();
    let mut s = rest.trim_start();
    while !s.is_empty() {
        if let Some(q) = s.strip_prefix('"') {
            let end = q
                .find('"')
                .ok_or_else(|| AtsiError::UnclosedQuote(taikyoku_core::notation::shorten(rest)))?;
            out.push(q[..end].to_string());
            s = &q[end + 1..];
        } else {
            let end = s.find(char::is_whitespace).unwrap_or(s.len());
            out.push(s[..end].to_string());
            s = &s[end..];
        }
        s = s.trim_start();
    }
    Ok(out)
}

/// A word of `info`, quoted when it holds spaces, is empty or starts with a quote.
fn quote(w: &str) -> String {
    if w.is_empty() || w.contains(char::is_whitespace) || w.starts_with('"') {
        format!("\"{}\"", w.replace('"', "'"))
    } else {
        w.to_string()
    }
}

impl EngineReply {
    /// Reads one line from an engine.
    pub fn parse(line: &str) -> Result<EngineReply, AtsiError> {
        let (command, rest) = split_command(line)?;
        let args: Vec<&str> = rest.split_ascii_whitespace().collect();
        match command {
            "atsiok" => no_more("atsiok", &args).map(|()| EngineReply::AtsiOk),
            "quit" => no_more("quit", &args).map(|()| EngineReply::Quit),
            "info" => {
                let mut words = quoted_words(rest)?.into_iter();
                let name = words.next().ok_or(AtsiError::Missing {
                    command: "info",
                    what: "the engine's name",
                })?;
                let reply = EngineReply::Info {
                    name,
                    description: words.next(),
                    version: words.next(),
                    author: words.next(),
                    logo: words.next(),
                };
                let more: Vec<String> = words.collect();
                no_more("info", &more.iter().map(String::as_str).collect::<Vec<_>>())?;
                Ok(reply)
            }
            "param" => {
                let (name, ty) =
                    rest.split_once(char::is_whitespace)
                        .ok_or(AtsiError::Missing {
                            command: "param",
                            what: "a name and a type",
                        })?;
                Ok(EngineReply::Param {
                    name: name.to_string(),
                    ty: ty.parse()?,
                })
            }
            "move" => Ok(EngineReply::Move(AtsiMove::parse_tokens(&args)?)),
            "resign" => Ok(EngineReply::Resign(text(rest))),
            "eval" => {
                let v = num_arg("eval", "the evaluation", args.first())?;
                no_more("eval", &args[1..])?;
                Ok(EngineReply::Eval(v))
            }
            "log" => Ok(EngineReply::Log(rest.to_string())),
            other => Err(AtsiError::UnknownCommand(taikyoku_core::notation::shorten(
                other,
            ))),
        }
    }

    /// The line to send (without its `\n`).
    pub fn to_line(&self) -> String {
        match self {
            EngineReply::AtsiOk => "atsiok".into(),
            EngineReply::Info {
                name,
                description,
                version,
                author,
                logo,
            } => {
                let mut words = vec![quote(name)];
                let optional = [description, version, author, logo];
                let n = optional
                    .iter()
                    .rposition(|w| w.is_some())
                    .map_or(0, |i| i + 1);
                words.extend(
                    optional[..n]
                        .iter()
                        .map(|w| quote(w.as_deref().unwrap_or(""))),
                );
                format!("info {}", words.join(" "))
            }
            EngineReply::Param { name, ty } => format!("param {name} {ty}"),
            EngineReply::Move(m) => format!("move {m}"),
            EngineReply::Resign(r) => with_text("resign", r),
            EngineReply::Eval(v) => format!("eval {v}"),
            EngineReply::Log(t) => format!("log {t}"),
            EngineReply::Quit => "quit".into(),
        }
    }
}

/// Which order a move's squares came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The spec's: start, steps, destination.
    Spec,
    /// tomatene's: start, destination, steps.
    StepsAfter,
}

/// What a move does, for telling apart paths that end alike: the destination, the squares it
/// empties (sorted) and whether it promotes.
fn outcome(m: &Move, dims: Dims) -> (Square, Vec<Square>, bool) {
    let mut v: Vec<Square> = m.victims(dims).collect();
    v.sort_unstable();
    (m.to, v, m.promotes())
}

/// The moves of the piece on a square: as listed (one per result, or per path where the rule
/// set counts paths), then every other path.
struct PieceMoves {
    listed: Vec<Move>,
    all: Vec<Move>,
}

impl PieceMoves {
    fn of(rules: &Rules, pos: &Position, from: Square) -> PieceMoves {
        PieceMoves {
            listed: rules.moves_from(pos, from),
            all: rules.moves_from_all_paths(pos, from),
        }
    }

    /// The move `from [steps] to` stands for: with steps, the path that stops exactly there
    /// (or, failing that, the path that empties exactly the steps: a list of what it takes);
    /// without, a move without stops if there is one, else one whose stops take nothing.
    /// Where promotion is a choice, `promote` picks, else the move that does not promote.
    fn resolve(
        &self,
        dims: Dims,
        to: Square,
        steps: &[Square],
        promote: Option<bool>,
    ) -> Option<Move> {
        let ends = || self.listed.iter().chain(&self.all).filter(|m| m.to == to);
        let fits: Vec<&Move> = if steps.is_empty() {
            let plain: Vec<&Move> = ends().filter(|m| m.path().is_empty()).collect();
            if plain.is_empty() {
                ends()
                    .filter(|m| m.path().iter().all(|s| !m.victims(dims).any(|v| v == *s)))
                    .collect()
            } else {
                plain
            }
        } else {
            let exact: Vec<&Move> = ends().filter(|m| m.path() == steps).collect();
            if exact.is_empty() {
                let mut want = steps.to_vec();
                want.sort_unstable();
                want.dedup();
                ends()
                    .filter(|m| {
                        let mut v: Vec<Square> = m.victims(dims).filter(|&v| v != to).collect();
                        v.sort_unstable();
                        v == want
                    })
                    .collect()
            } else {
                exact
            }
        };
        let wanted = promote.unwrap_or(false);
        fits.iter()
            .find(|m| m.promotes() == wanted)
            .or_else(|| promote.is_none().then(|| fits.first()).flatten())
            .map(|m| **m)
    }
}

/// A move as ATSI writes it: its start, the steps only where the destination alone would
/// stand for another outcome or the move comes back to its start (ATSA's host takes every
/// step listed as a square emptied and promotes on a step in the zone, so they are never
/// written without need), its destination, and `+`/`=` only where promotion is a choice and
/// the default would be wrong.
pub fn move_to_atsi(rules: &Rules, pos: &Position, m: &Move) -> String {
    atsi_move(rules, pos, m).to_string()
}

/// [`move_to_atsi`] as squares.
pub fn atsi_move(rules: &Rules, pos: &Position, m: &Move) -> AtsiMove {
    let dims = pos.dims();
    let moves = PieceMoves::of(rules, pos, m.from);
    let want = outcome(m, dims);
    let same = |steps: &[Square], promote| {
        moves
            .resolve(dims, m.to, steps, promote)
            .is_some_and(|r| outcome(&r, dims) == want)
    };
    let suffix = Some(m.promotes());
    // A move back to its start (igui, a pass) always names its step: ATSA's host reads
    // `A A` as taking the piece on A, its own.
    let returns = m.from == m.to && !m.path().is_empty();
    let (steps, promote) = [
        (&[][..], None),
        (&[][..], suffix),
        (m.path(), None),
        (m.path(), suffix),
    ]
    .into_iter()
    .filter(|(s, _)| !(returns && s.is_empty()))
    .find(|&(s, p)| same(s, p))
    .unwrap_or((m.path(), suffix));
    let squares = std::iter::once(m.from)
        .chain(steps.iter().copied())
        .chain(std::iter::once(m.to))
        .map(|s| AtsiSquare::of(s, dims))
        .collect();
    AtsiMove { squares, promote }
}

/// Finds the legal move (of the side to move) that ATSI text stands for. The spec's order is
/// tried first; a text with steps that fits no move that way is read in tomatene's order
/// (steps after the destination). Returns which order was used.
pub fn move_from_atsi(
    rules: &Rules,
    pos: &Position,
    text: &str,
) -> Result<(Move, Order), AtsiError> {
    let mv: AtsiMove = text.parse()?;
    move_from_squares(rules, pos, &mv, Order::Spec)
}

/// [`move_from_atsi`] for parsed squares, trying the order `first` before the other (a host
/// that knows its engine writes tomatene's order passes [`Order::StepsAfter`]).
pub fn move_from_squares(
    rules: &Rules,
    pos: &Position,
    mv: &AtsiMove,
    first: Order,
) -> Result<(Move, Order), AtsiError> {
    let dims = pos.dims();
    let illegal = |why: String| AtsiError::IllegalMove {
        text: mv.to_string(),
        why,
    };
    let squares = mv
        .squares
        .iter()
        .map(|&a| on_board(a, dims))
        .collect::<Result<Vec<Square>, _>>()?;
    let from = squares[0];
    let name = |s: Square| format_square(s, dims);
    let piece = pos
        .piece_at(from)
        .ok_or_else(|| illegal(format!("there is no piece on {}", name(from))))?;
    let kind = &rules.catalogue().kind(piece.kind).name;
    if let Some(o) = pos.outcome() {
        return Err(illegal(format!("the game is over ({} won)", o.winner)));
    }
    if piece.side != pos.to_move() {
        return Err(illegal(format!(
            "the {kind} on {} is {}'s, and it is {}'s turn",
            name(from),
            piece.side,
            pos.to_move()
        )));
    }
    let moves = PieceMoves::of(rules, pos, from);
    let read = |order| {
        let (to, steps) = match order {
            Order::Spec => (squares[squares.len() - 1], &squares[1..squares.len() - 1]),
            Order::StepsAfter => (squares[1], &squares[2..]),
        };
        moves
            .resolve(dims, to, steps, mv.promote)
            .map(|m| (m, order))
    };
    let second = match first {
        Order::Spec => Order::StepsAfter,
        Order::StepsAfter => Order::Spec,
    };
    let found = read(first).or_else(|| (squares.len() > 2).then(|| read(second)).flatten());
    found.ok_or_else(|| {
        let to = squares[squares.len() - 1];
        illegal(if moves.all.is_empty() {
            format!("the {kind} on {} has no legal move", name(from))
        } else if moves.all.iter().any(|m| m.to == to) {
            format!(
                "the {kind} on {} cannot reach {} that way",
                name(from),
                name(to)
            )
        } else {
            format!("the {kind} on {} cannot reach {}", name(from), name(to))
        })
    })
}

/// A piece kind as ATSA's host (their web site's `GameHost`) sees it, read off its one-leg
/// movements: the directions it steps or slides in, the vectors it leaps, the directions it
/// slides jumping over up to three pieces (their triple-slashed arrow: our hops), and whether
/// it range-captures (their host does not check those moves at all).
#[derive(Clone, Debug, Default)]
struct HostView {
    slides: Vec<Vec2>,
    jumps: Vec<Vec2>,
    hops: Vec<Vec2>,
    range: bool,
}

/// Tells which legal moves ATSA's host can judge. Their host checks a move by its start and
/// end alone: an end that is one of the piece's leaps is fine; else, if the piece slides in
/// the direction of the end (the signs of the displacement), it walks that line from the start
/// and refuses the move at the first piece in the way (the fourth, along a triple-slashed
/// arrow), and never ends the walk when the end is not on the line. So it refuses a
/// jump-then-slide over a piece (a free eagle jumping a piece and sliding on) and hangs or
/// refuses a bent path (a diagonal hook mover's turn). Derived from the move's start and end
/// and the piece's movement data, never from piece names.
#[derive(Default)]
pub struct AtsaHost {
    views: std::collections::HashMap<(KindId, Side), HostView>,
}

impl AtsaHost {
    pub fn new() -> AtsaHost {
        AtsaHost::default()
    }

    /// Whether ATSA's host would accept this legal move of the side to move.
    pub fn judges(&mut self, rules: &Rules, pos: &Position, m: &Move) -> bool {
        let Some(piece) = pos.piece_at(m.from) else {
            return true;
        };
        let dims = pos.dims();
        let ((fx, fy), (tx, ty)) = (dims.xy(m.from), dims.xy(m.to));
        let d = Vec2::new(tx - fx, ty - fy);
        let view = self
            .views
            .entry((piece.kind, piece.side))
            .or_insert_with(|| host_view(rules, piece.kind, piece.side));
        let u = Vec2::new(d.x.signum(), d.y.signum());
        if view.range || view.jumps.contains(&d) || !view.slides.contains(&u) {
            return true;
        }
        if d.unit() != Some(u) {
            return false;
        }
        let threshold = if view.hops.contains(&u) { 3 } else { 0 };
        let in_the_way = (1..d.king_len())
            .filter_map(|k| dims.square(fx + k * u.x, fy + k * u.y))
            .filter(|&s| pos.piece_at(s).is_some())
            .count();
        in_the_way <= threshold
    }

    /// The legal moves of the side to move that ATSA's host can judge.
    pub fn judged_moves(&mut self, rules: &Rules, pos: &Position) -> Vec<Move> {
        let mut moves = rules.legal_moves(pos);
        moves.retain(|m| self.judges(rules, pos, m));
        moves
    }
}

/// Reads a kind's one-leg movements as ATSA's parser sorts them.
fn host_view(rules: &Rules, kind: KindId, side: Side) -> HostView {
    use taikyoku_core::betza::LegKind;
    let mut view = HostView::default();
    let one_leg = rules.readings[kind as usize]
        .patterns
        .iter()
        .filter_map(|p| match &p.legs[..] {
            [leg] => Some(leg),
            _ => None,
        });
    for leg in one_leg {
        for v in leg.vectors(None).unwrap_or_default() {
            let v = side.orient(v);
            let (list, v) = match leg.kind {
                LegKind::RangeCapture => {
                    view.range = true;
                    continue;
                }
                LegKind::Hop(_) => (&mut view.hops, v.unit().unwrap_or(v)),
                _ if v.king_len() == 1 => (&mut view.slides, v),
                _ if leg.range == 1 => (&mut view.jumps, v),
                _ => continue,
            };
            list.push(v);
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;
    use taikyoku_core::piece::Piece;

    const D36: Dims = Dims {
        files: 36,
        ranks: 36,
    };

    fn rules(name: &str) -> &'static Rules {
        static ALL: OnceLock<Vec<Rules>> = OnceLock::new();
        let all = ALL.get_or_init(|| {
            ["atsa", "wikipedia", "umebayashi"]
                .iter()
                .map(|n| Rules::builtin("taikyoku", n).unwrap())
                .collect()
        });
        all.iter().find(|r| r.rule_set.name == name).unwrap()
    }

    fn sq(s: &str) -> Square {
        parse_square(s, D36).unwrap()
    }

    /// A position with these `(code, side, square)` pieces and both kings in corners.
    fn position(r: &Rules, to_move: Side, pieces: &[(&str, Side, &str)]) -> Position {
        let mut p = r.empty_position();
        let kings = [("K", Side::Black, "36jj"), ("K", Side::White, "1a")];
        for &(code, side, at) in pieces.iter().chain(&kings) {
            let kind = r.catalogue().by_code(code).unwrap();
            let piece = Piece {
                kind,
                side,
                promoted: false,
            };
            r.put(&mut p, sq(at), Some(piece));
        }
        p.set_to_move(to_move);
        p
    }

    #[test]
    fn squares_follow_the_spec_and_atsas_opening() {
        let r = rules("atsa");
        let start = r.start_position();
        let at = |s: &str| {
            let p = start.piece_at(sq(s)).unwrap();
            (
                r.catalogue().kind(p.kind).atsa_code.clone().unwrap(),
                p.side,
            )
        };
        // Their initial TSFEN: row 1 holds the second player's king on its 19th cell (file
        // 36 - 18 = 18), the first player's free eagle stands on file 18 of row 29 (cc).
        assert_eq!(at("18a"), ("K".into(), Side::White));
        assert_eq!(at("19jj"), ("K".into(), Side::Black));
        assert_eq!(at("18cc"), ("FE".into(), Side::Black));
        assert_eq!(at("19h"), ("FE".into(), Side::White));
        // 1a: the top right corner from the first player's view; 36jj: the bottom left.
        assert_eq!(D36.xy(sq("1a")), (35, 35));
        assert_eq!(D36.xy(sq("36jj")), (0, 0));
        assert_eq!(format_square(D36.square(10, 10).unwrap(), D36), "26z");
        assert_eq!(format_square(D36.square(10, 9).unwrap(), D36), "26aa");
        for s in D36.squares() {
            assert_eq!(parse_square(&format_square(s, D36), D36), Ok(s));
        }
        let sho = Dims { files: 9, ranks: 9 };
        assert_eq!(format_square(sho.square(0, 0).unwrap(), sho), "9i");
        assert!(parse_square("1j", sho).is_err());
    }

    #[test]
    fn bad_squares_say_why() {
        for bad in [
            "", "a1", "0a", "01a", "1", "1A", "1ab", "1aaaa", "18 a", "1a1", "x",
        ] {
            let e = parse_square(bad, D36).unwrap_err();
            assert!(matches!(e, AtsiError::BadSquare { .. }), "{bad}: {e}");
        }
        let e = parse_square("37a", D36).unwrap_err().to_string();
        assert!(e.contains("off the board (files 1…36, ranks a…jj)"), "{e}");
        assert!(parse_square("1kk", D36).is_err());
    }

    #[test]
    fn host_commands_read_as_atsas_host_sends_them() {
        use HostCommand as H;
        let cases = [
            (
                "atsiinit v0",
                H::AtsiInit {
                    version: "v0".into(),
                },
            ),
            (
                "atsiinit v00",
                H::AtsiInit {
                    version: "v00".into(),
                },
            ),
            ("identify", H::Identify),
            (
                "time 900 1",
                H::Time {
                    base: 900.0,
                    increment: 1.0,
                },
            ),
            (
                "time 60",
                H::Time {
                    base: 60.0,
                    increment: 0.0,
                },
            ),
            ("player 1", H::Player(1)),
            ("startgame initial", H::StartGame(StartPos::Initial)),
            ("win", H::Win(None)),
            ("loss time forfeit", H::Loss(Some("time forfeit".into()))),
            ("draw", H::Draw(None)),
            ("quit", H::Quit),
            ("eval", H::Eval),
            (
                "setparam policy greedy",
                H::SetParam {
                    name: "policy".into(),
                    value: "greedy".into(),
                },
            ),
        ];
        for (line, want) in cases {
            assert_eq!(H::parse(line), Ok(want.clone()), "{line}");
            assert_eq!(H::parse(&want.to_line()), Ok(want), "{line}");
        }
        // Their host writes its clocks as JavaScript numbers, and may send a \r.
        let H::OpMove { mv, time, op_time } =
            H::parse("opmove 18i 18m 899.2345678 -0.5\r").unwrap()
        else {
            panic!()
        };
        assert_eq!(mv.to_string(), "18i 18m");
        assert_eq!((time, op_time), (899.2345678, -0.5));
        let H::StartGame(StartPos::Tsfen(t)) = H::parse("startgame 36/36 1").unwrap() else {
            panic!()
        };
        assert_eq!(t, "36/36 1");
    }

    #[test]
    fn malformed_host_lines_get_typed_errors() {
        use AtsiError as E;
        let err = |l: &str| HostCommand::parse(l).unwrap_err();
        assert_eq!(err(""), E::Empty);
        assert_eq!(err("   "), E::Empty);
        assert_eq!(err("hello"), E::UnknownCommand("hello".into()));
        assert_eq!(err("atsiinit v1"), E::UnsupportedVersion("v1".into()));
        assert!(matches!(
            err("atsiinit"),
            E::Missing {
                command: "atsiinit",
                ..
            }
        ));
        assert!(matches!(
            err("time"),
            E::Missing {
                command: "time",
                ..
            }
        ));
        assert!(matches!(
            err("time ten"),
            E::BadArgument {
                command: "time",
                ..
            }
        ));
        assert!(matches!(
            err("time NaN"),
            E::BadArgument {
                command: "time",
                ..
            }
        ));
        assert!(matches!(
            err("time -5"),
            E::BadArgument {
                command: "time",
                ..
            }
        ));
        assert!(matches!(
            err("time 1 2 3"),
            E::Extra {
                command: "time",
                ..
            }
        ));
        assert!(matches!(
            err("player 2"),
            E::BadArgument {
                command: "player",
                ..
            }
        ));
        assert!(matches!(
            err("identify me"),
            E::Extra {
                command: "identify",
                ..
            }
        ));
        assert!(matches!(
            err("startgame"),
            E::Missing {
                command: "startgame",
                ..
            }
        ));
        assert!(matches!(
            err("opmove 18i 18m 5"),
            E::Missing {
                command: "opmove",
                ..
            }
        ));
        assert!(matches!(
            err("opmove 18i 18m x 5"),
            E::BadArgument {
                command: "opmove",
                ..
            }
        ));
        assert!(matches!(err("opmove 18i z9 5 5"), E::BadSquare { .. }));
        assert!(matches!(
            err("setparam"),
            E::Missing {
                command: "setparam",
                ..
            }
        ));
        let many = format!("opmove {} 1 1", vec!["1a"; 50].join(" "));
        assert!(matches!(err(&many), E::IllegalMove { .. }));
        assert!(err(&"x".repeat(10_000)).to_string().len() < 200);
    }

    #[test]
    fn engine_replies_read_as_tomatene_sends_them() {
        use EngineReply as R;
        let info = R::parse(r#"info "tomatene" "A taikyoku engine" "someone" "1.0""#).unwrap();
        assert_eq!(
            info,
            R::Info {
                name: "tomatene".into(),
                description: Some("A taikyoku engine".into()),
                version: Some("someone".into()),
                author: Some("1.0".into()),
                logo: None
            }
        );
        assert_eq!(R::parse(&info.to_line()), Ok(info));
        assert_eq!(
            R::parse("move 18r 18p 18q").unwrap().to_line(),
            "move 18r 18p 18q"
        );
        assert_eq!(R::parse("eval -350"), Ok(R::Eval(-350.0)));
        assert_eq!(R::parse("log LION STEP"), Ok(R::Log("LION STEP".into())));
        assert_eq!(R::parse("resign"), Ok(R::Resign(None)));
        assert_eq!(
            R::parse("param hash int[1, 4096]"),
            Ok(R::Param {
                name: "hash".into(),
                ty: ParamType::Int {
                    range: Some((1, 4096))
                }
            })
        );
        assert_eq!(
            R::parse(r#"param policy enum["search"|"greedy"]"#),
            Ok(R::Param {
                name: "policy".into(),
                ty: ParamType::Enum(vec!["search".into(), "greedy".into()])
            })
        );
        for bad in [
            "info",
            r#"info "x"#,
            "eval",
            "eval x",
            "move 1a",
            "param x int[1]",
            "param x float",
            "atsiok now",
        ] {
            assert!(R::parse(bad).is_err(), "{bad}");
        }
    }

    fn word() -> impl Strategy<Value = String> {
        "[a-zA-Z0-9_.:/-]{1,12}"
    }

    fn clock() -> impl Strategy<Value = f64> {
        prop_oneof![(-1e6..1e6f64), (0u32..100_000).prop_map(f64::from)]
    }

    fn atsi_move() -> impl Strategy<Value = AtsiMove> {
        let square = (1u16..=36, 1u16..=36).prop_map(|(file, rank)| AtsiSquare { file, rank });
        (
            proptest::collection::vec(square, 2..6),
            proptest::option::of(any::<bool>()),
        )
            .prop_map(|(squares, promote)| AtsiMove { squares, promote })
    }

    fn host_command() -> impl Strategy<Value = HostCommand> {
        use HostCommand as H;
        let reason = proptest::option::of("[a-z]{1,8}( [a-z]{1,8}){0,3}");
        prop_oneof![
            prop_oneof![Just("v0"), Just("v00")].prop_map(|v| H::AtsiInit { version: v.into() }),
            Just(H::Identify),
            Just(H::Eval),
            Just(H::Quit),
            (0.0..1e5f64, 0.0..100f64).prop_map(|(base, increment)| H::Time { base, increment }),
            (0u8..2).prop_map(H::Player),
            Just(H::StartGame(StartPos::Initial)),
            (atsi_move(), clock(), clock()).prop_map(|(mv, time, op_time)| H::OpMove {
                mv,
                time,
                op_time
            }),
            reason.clone().prop_map(H::Win),
            reason.clone().prop_map(H::Loss),
            reason.prop_map(H::Draw),
            (word(), word()).prop_map(|(name, value)| H::SetParam { name, value }),
        ]
    }

    fn engine_reply() -> impl Strategy<Value = EngineReply> {
        use EngineReply as R;
        let text = "[a-zA-Z0-9\"]{1,8}( [a-zA-Z0-9]{1,8}){0,3}";
        let ty = prop_oneof![
            Just(ParamType::String),
            Just(ParamType::Bool),
            proptest::option::of((-1e3..1e3f64, -1e3..1e3f64))
                .prop_map(|range| ParamType::Number { range }),
            proptest::option::of((any::<i64>(), any::<i64>()))
                .prop_map(|range| ParamType::Int { range }),
            proptest::collection::vec(word(), 1..4).prop_map(ParamType::Enum),
        ];
        prop_oneof![
            Just(R::AtsiOk),
            Just(R::Quit),
            (
                word(),
                proptest::collection::vec(proptest::option::of("[a-z]{0,5}( [a-z]{1,5})?"), 4)
            )
                .prop_map(|(name, o)| {
                    // Only trailing fields may be left out: a gap reads as an empty word.
                    let n = o.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
                    let f = |i: usize| {
                        if i < n {
                            Some(o[i].clone().unwrap_or_default())
                        } else {
                            None
                        }
                    };
                    R::Info {
                        name,
                        description: f(0),
                        version: f(1),
                        author: f(2),
                        logo: f(3),
                    }
                }),
            (word(), ty).prop_map(|(name, ty)| R::Param { name, ty }),
            atsi_move().prop_map(R::Move),
            proptest::option::of(text).prop_map(R::Resign),
            clock().prop_map(R::Eval),
            text.prop_map(R::Log),
        ]
    }

    proptest! {
        #[test]
        fn host_commands_round_trip(c in host_command()) {
            prop_assert_eq!(HostCommand::parse(&c.to_line()), Ok(c));
        }

        #[test]
        fn engine_replies_round_trip(r in engine_reply()) {
            prop_assert_eq!(EngineReply::parse(&r.to_line()), Ok(r));
        }

        #[test]
        fn any_line_is_read_or_refused_without_panic(line in "\\PC{0,80}") {
            let _ = HostCommand::parse(&line);
            let _ = EngineReply::parse(&line);
        }
    }

    /// Every legal move, written and read back, is itself (same destination, victims and
    /// promotion), read in the spec's order.
    fn round_trips(r: &Rules, p: &Position) {
        for m in r.legal_moves(p) {
            let text = move_to_atsi(r, p, &m);
            let (back, order) = move_from_atsi(r, p, &text).unwrap();
            assert_eq!(order, Order::Spec, "{text}");
            assert_eq!(outcome(&back, p.dims()), outcome(&m, p.dims()), "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(6))]

        /// Positions of random games: every legal move survives writing and reading back.
        #[test]
        fn moves_of_random_games_round_trip(seed in any::<u64>(), plies in 0usize..300, set in 0usize..3) {
            let r = rules(["atsa", "wikipedia", "umebayashi"][set]);
            let mut p = r.start_position();
            let mut rng = seed | 1;
            for _ in 0..plies {
                let moves = r.legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                r.play_unchecked(&mut p, &moves[(rng % moves.len() as u64) as usize]);
            }
            round_trips(r, &p);
        }
    }

    #[test]
    fn the_opening_round_trips_under_every_rule_set() {
        for name in ["atsa", "wikipedia", "umebayashi"] {
            let r = rules(name);
            round_trips(r, &r.start_position());
        }
    }

    #[test]
    fn a_lion_writes_its_step_only_where_it_matters() {
        let r = rules("atsa");
        let p = position(
            r,
            Side::Black,
            &[
                ("LN", Side::Black, "18r"),
                ("P", Side::White, "18q"),
                ("P", Side::White, "18p"),
            ],
        );
        let text = |from: &str, to: &str, path: &[&str]| {
            let path: Vec<Square> = path.iter().map(|s| sq(s)).collect();
            let m = r
                .legal_moves(&p)
                .into_iter()
                .find(|m| m.from == sq(from) && m.to == sq(to) && m.path() == path)
                .unwrap();
            move_to_atsi(r, &p, &m)
        };
        // Two captures, igui and a plain step or jump.
        assert_eq!(text("18r", "18p", &["18q"]), "18r 18q 18p");
        assert_eq!(text("18r", "18r", &["18q"]), "18r 18q 18r");
        assert_eq!(text("18r", "18q", &[]), "18r 18q");
        assert_eq!(text("18r", "18p", &[]), "18r 18p");
        // A step through an empty square to where a jump goes: the same outcome.
        assert_eq!(text("18r", "18t", &["18s"]), "18r 18t");
        // Read back; and tomatene's order, steps after the destination.
        let (m, o) = move_from_atsi(r, &p, "18r 18q 18p").unwrap();
        assert_eq!((m.path(), o), (&[sq("18q")][..], Order::Spec));
        let (m, o) = move_from_atsi(r, &p, "18r 18p 18q").unwrap();
        assert_eq!(
            (m.to, m.path(), o),
            (sq("18p"), &[sq("18q")][..], Order::StepsAfter)
        );
        round_trips(r, &p);
    }

    #[test]
    fn illegal_and_foreign_moves_say_why() {
        let r = rules("atsa");
        let p = r.start_position();
        let why = |t: &str| move_from_atsi(r, &p, t).unwrap_err().to_string();
        assert!(
            why("18r 18q").contains("no piece on 18r"),
            "{}",
            why("18r 18q")
        );
        assert!(
            why("18k 18l").contains("it is black's turn"),
            "{}",
            why("18k 18l")
        );
        assert!(
            why("18z 18t").contains("cannot reach 18t"),
            "{}",
            why("18z 18t")
        );
        assert!(why("18z").contains("at least its start and destination"));
        assert!(why("18z 99y").contains("not a square"));
        assert_eq!(move_from_atsi(r, &p, "18z 18y").unwrap().1, Order::Spec);
    }

    #[test]
    fn a_hook_mover_may_name_its_turn() {
        let r = rules("atsa");
        let p = position(r, Side::Black, &[("LO", Side::Black, "18r")]);
        let m = move_from_atsi(r, &p, "18r 16p 14r").unwrap().0;
        assert_eq!(m.path(), &[sq("16p")]);
        assert_eq!(move_from_atsi(r, &p, "18r 14r").unwrap().0.to, sq("14r"));
        assert!(move_from_atsi(r, &p, "18r 17q 14r").is_err());
        round_trips(r, &p);
    }

    #[test]
    fn optional_promotion_is_written_only_when_declined_is_not_the_default() {
        let r = rules("umebayashi");
        let p = position(r, Side::Black, &[("R", Side::Black, "18m")]);
        let moves = r.legal_moves(&p);
        let into_zone: Vec<&Move> = moves.iter().filter(|m| m.to == sq("18k")).collect();
        assert_eq!(into_zone.len(), 2);
        for m in into_zone {
            let t = move_to_atsi(r, &p, m);
            assert_eq!(t, if m.promotes() { "18m 18k+" } else { "18m 18k" });
        }
        round_trips(r, &p);
    }

    /// Whether a move ends on a line (orthogonal or diagonal) through its start.
    fn on_line(m: &Move) -> bool {
        let ((fx, fy), (tx, ty)) = (D36.xy(m.from), D36.xy(m.to));
        Vec2::new(tx - fx, ty - fy).unit().is_some()
    }

    #[test]
    fn atsas_host_cannot_judge_a_jump_then_slide_over_a_piece() {
        let r = rules("atsa");
        let mut host = AtsaHost::new();
        let blocked = position(
            r,
            Side::Black,
            &[("FE", Side::Black, "18r"), ("P", Side::Black, "18q")],
        );
        let clear = position(r, Side::Black, &[("FE", Side::Black, "18r")]);
        let to = |p: &Position, t: &str| -> Vec<Move> {
            r.legal_moves(p)
                .into_iter()
                .filter(|m| m.to == sq(t))
                .collect()
        };
        // 18r to 18n: a jump of 2 or 3, then a slide on; over the pawn on 18q their host
        // walks the line and refuses.
        let over = to(&blocked, "18n");
        assert!(!over.is_empty());
        assert!(over.iter().all(|m| !host.judges(r, &blocked, m)));
        assert!(to(&clear, "18n").iter().all(|m| host.judges(r, &clear, m)));
        // A plain jump (18r to 18o) is judged as a jump, even over the pawn.
        let jump = to(&blocked, "18o");
        assert!(
            jump.iter()
                .any(|m| m.path().is_empty() && host.judges(r, &blocked, m))
        );
        // Igui and the pass through an adjacent square are fine, written with their step.
        for m in to(&blocked, "18r") {
            assert_eq!(move_to_atsi(r, &blocked, &m).split(' ').count(), 3);
        }
        assert!(
            to(&blocked, "18r")
                .iter()
                .all(|m| host.judges(r, &blocked, m))
        );
        let judged = host.judged_moves(r, &blocked);
        assert!(judged.len() < r.legal_moves(&blocked).len());
    }

    #[test]
    fn atsas_host_cannot_judge_a_diagonal_hook_movers_bent_path() {
        let r = rules("atsa");
        let mut host = AtsaHost::new();
        let p = position(r, Side::Black, &[("LO", Side::Black, "18r")]);
        let moves = r.legal_moves(&p);
        let (bent, straight): (Vec<&Move>, Vec<&Move>) = moves.iter().partition(|m| !on_line(m));
        assert!(!bent.is_empty() && !straight.is_empty());
        assert!(bent.iter().all(|m| !host.judges(r, &p, m)));
        assert!(straight.iter().all(|m| host.judges(r, &p, m)));
        // An orthogonal hook mover has no diagonal step: their host leaves its turns alone.
        let hm = position(r, Side::Black, &[("HM", Side::Black, "18r")]);
        let turns: Vec<Move> = r
            .legal_moves(&hm)
            .into_iter()
            .filter(|m| !on_line(m))
            .collect();
        assert!(!turns.is_empty() && turns.iter().all(|m| host.judges(r, &hm, m)));
    }

    #[test]
    fn atsas_host_judges_a_lions_double_moves_as_jumps() {
        let r = rules("atsa");
        let mut host = AtsaHost::new();
        let p = position(
            r,
            Side::Black,
            &[
                ("LN", Side::Black, "18r"),
                ("P", Side::White, "18q"),
                ("P", Side::White, "17q"),
            ],
        );
        let moves = r.legal_moves(&p);
        assert!(moves.iter().any(|m| m.path().len() == 1 && m.from != m.to));
        assert!(moves.iter().all(|m| host.judges(r, &p, m)));
    }
}

//! What people and other programs read and write: the one-line position string, JSON
//! positions, and move notation.
//!
//! **Squares** are `file.rank` (see [`crate::geometry::Dims::square_name`]).
//!
//! **Moves** are the moving piece's code, then its squares: the start, every stop of a
//! multi-leg move, and the destination, joined by `-` (moves to) or `x` (captures there), then
//! `+` when the piece promotes or `=` when it declines an optional promotion:
//! `P19.26-19.25`, `LN18.24x18.23-18.22` (capture, then step on), `LN18.24x18.23-18.24`
//! (igui), `HM17.30-17.20-10.20` (hook move turning at 17.20). A shot is `!` and the square
//! shot, after the square the piece shoots from (its destination, or a stop it goes on from):
//! `BOW10.10-9.9!9.6`. When typing, the code and the separators are optional and checked only
//! for what they say, except `!`, which marks the squares the piece does not go to.
//!
//! **Positions** are one line: the ranks from White's side (rank 1) to Black's (last), `/`
//! between ranks, `,` between cells, a number for a run of empty squares, Black's pieces in
//! upper case and White's in lower case, `+` before a promoted piece; then the side to move
//! (`b` or `w`) and optionally the number of moves played: `…/3,p,32 w 12`.

use crate::catalogue::Lookup;
use crate::geometry::{Side, Square};
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::{MAX_PLY, Outcome, Placement, Position};
use crate::rules::{Rules, SetupError};
use serde::Deserialize;

/// A problem with a position or a move typed or loaded.
#[derive(Clone, Debug, thiserror::Error)]
pub enum NotationError {
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// Why a position (a position string, a TSFEN, JSON, or a file of one) could not be read.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PositionError {
    #[error("empty position")]
    Empty,
    #[error("expected the side to move, b or w, after the board; found {0:?}")]
    SideToMove(String),
    #[error("expected the side to move (b or w) after the board")]
    NoSideToMove,
    #[error(
        "expected the side to move (b or w) after the board, before the move number (to read \
         this as an ATSA TSFEN, where lower case is Black, write tsfen: before it)"
    )]
    NoSideBeforeNumber,
    #[error("unexpected {0:?} after the move number")]
    AfterMoveNumber(String),
    #[error("the number of moves played, {0}, is more than {MAX_PLY}")]
    TooManyMoves(String),
    #[error("expected the number of moves played (digits only); found {0:?}")]
    MoveNumber(String),
    #[error("expected {expected} rows separated by '/', found {found}")]
    Rows { expected: u8, found: usize },
    /// A cell of a board row (`row_name` says which format's row: "rank", "TSFEN row").
    #[error("{row_name} {row}, cell {cell} {text:?}: {problem}")]
    Cell {
        row_name: &'static str,
        row: usize,
        cell: usize,
        /// The cell as written, shortened ([`shorten`]).
        text: String,
        problem: Box<CellProblem>,
    },
    #[error("{row_name} {row}: {squares} squares; expected {files}")]
    RowLength {
        row_name: &'static str,
        row: usize,
        squares: u32,
        files: u8,
    },
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("{name}:{line}:{column}: {message}")]
    Json {
        name: String,
        line: usize,
        column: usize,
        /// What the JSON reader said.
        message: String,
    },
    #[error("{name}: to_move must be \"black\" or \"white\", not {found:?}")]
    JsonToMove { name: String, found: String },
    #[error("{name}: pieces[{index}]: {problem}")]
    JsonPiece {
        name: String,
        index: usize,
        problem: Box<PieceProblem>,
    },
    #[error("{name}: ply {ply} is more than {MAX_PLY}")]
    JsonPly { name: String, ply: u32 },
    #[error("a TSFEN has two fields: the board and the move counter")]
    TsfenFields,
    #[error("TSFEN: {0}")]
    TsfenCounter(Box<PositionError>),
    /// A position file named on the command line.
    #[error("{path}: {problem}")]
    File { path: String, problem: FileProblem },
    #[error(transparent)]
    Data(#[from] crate::error::DataError),
}

/// What is wrong with one cell of a board row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellProblem {
    #[error("an empty cell (two commas in a row?)")]
    Empty,
    #[error("a run of empty squares must be a number from 1 to the number of files")]
    Run,
    #[error("{0:?} mixes cases; Black's codes are upper case, White's lower case")]
    MixedCase(String),
    #[error("unknown piece code {0:?}")]
    UnknownCode(String),
    #[error("{0:?}: a count must be a number from 1 to the number of files")]
    TsfenCount(String),
    #[error("{0:?} mixes cases; Black's codes are lower case in a TSFEN, White's upper case")]
    TsfenMixedCase(String),
    #[error("unknown ATSA code {0:?}")]
    UnknownAtsaCode(String),
    #[error("the row has more than {0} squares")]
    RowTooLong(u8),
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// What is wrong with one piece of a JSON position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PieceProblem {
    #[error("{name:?} could be {codes}")]
    Ambiguous { name: String, codes: String },
    #[error("unknown piece {name:?}{}", suggest(.close))]
    Unknown { name: String, close: Vec<String> },
    #[error("side must be \"black\" or \"white\", not {0:?}")]
    Side(String),
    #[error("square [{x}, {y}] is off the board (x 0..{max_x}, y 0..{max_y})")]
    OffBoard {
        x: i64,
        y: i64,
        max_x: u8,
        max_y: u8,
    },
    #[error("square [{x}, {y}] already has a piece")]
    Occupied { x: i64, y: i64 },
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// Why a position file could not be read.
#[derive(Clone, Debug, thiserror::Error)]
pub enum FileProblem {
    #[error(
        "no such file (and not a position string, which has {ranks} ranks and the side to move)"
    )]
    NotFound { ranks: u8 },
    #[error("{0}")]
    Io(std::sync::Arc<std::io::Error>),
    /// What is in it is not a position.
    #[error("{0}")]
    Position(Box<PositionError>),
}

/// Why a typed move was not read: `text` as typed, and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub text: String,
    pub problem: MoveProblem,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.problem {
            MoveProblem::Ambiguous(_) => write!(f, "{:?} {}", self.text, self.problem),
            p => write!(f, "{:?}: {p}", self.text),
        }
    }
}

impl std::error::Error for MoveError {}

/// What is wrong with a typed move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    #[error("expected squares such as 19.26-19.25")]
    NoSquares,
    #[error(
        "{part:?} is not a square; squares are file.rank, files 1..{files} from Black's right, \
         ranks 1..{ranks} from White's side"
    )]
    NotASquare { part: String, files: u8, ranks: u8 },
    #[error("a move needs at least a start and a destination")]
    TooFewSquares,
    #[error("there is no piece on {0}")]
    NoPiece(String),
    #[error("the piece on {at} is a {name} ({code}), not {typed}")]
    OtherPiece {
        at: String,
        name: String,
        code: String,
        typed: String,
    },
    #[error("the {name} on {at} is {side}'s, and it is {to_move}'s turn")]
    NotItsTurn {
        name: String,
        at: String,
        side: Side,
        to_move: Side,
    },
    #[error("the game is over ({} won: {})", .0.winner, .0.reason.describe())]
    GameOver(Outcome),
    #[error("illegal: the {name} on {at}: {why}")]
    Illegal {
        name: String,
        at: String,
        why: Unreachable,
    },
    #[error("this move does not promote")]
    DoesNotPromote,
    #[error("this move must promote")]
    MustPromote,
    #[error("add + to promote or = to decline")]
    PromotionChoice,
    /// The moves it could be, in notation.
    #[error("is ambiguous: {}", .0.join(", "))]
    Ambiguous(Vec<String>),
}

/// Why the piece of a typed move cannot make it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreachable {
    #[error("it has no legal move")]
    NoMove,
    #[error("it cannot reach {0} that way")]
    NotThatWay(String),
    #[error("it cannot reach {0}")]
    Destination(String),
}

/// The one-line form of a position.
pub fn position_string(rules: &Rules, pos: &Position) -> String {
    let dims = pos.dims();
    let mut rows = Vec::new();
    for y in (0..dims.ranks as i32).rev() {
        let mut cells: Vec<String> = Vec::new();
        let mut empty = 0;
        for x in 0..dims.files as i32 {
            let sq = dims.square(x, y).expect("on the board");
            match pos.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        cells.push(empty.to_string());
                        empty = 0;
                    }
                    let code = &rules.catalogue().kind(p.kind).code;
                    let code = match p.side {
                        Side::Black => code.clone(),
                        Side::White => code.to_ascii_lowercase(),
                    };
                    cells.push(if p.promoted { format!("+{code}") } else { code });
                }
            }
        }
        if empty > 0 {
            cells.push(empty.to_string());
        }
        rows.push(cells.join(","));
    }
    let side = match pos.to_move() {
        Side::Black => "b",
        Side::White => "w",
    };
    format!("{} {} {}", rows.join("/"), side, pos.ply)
}

/// Reads a position string (see the module documentation).
pub fn parse_position_string(rules: &Rules, s: &str) -> Result<Position, PositionError> {
    let mut fields = s.split_whitespace();
    let board = fields.next().ok_or(PositionError::Empty)?;
    let to_move = match fields.next() {
        Some("b") => Side::Black,
        Some("w") => Side::White,
        Some(other) => return Err(PositionError::SideToMove(other.to_string())),
        None => return Err(PositionError::NoSideToMove),
    };
    let ply = match fields.next() {
        Some(n) => move_number(n)?,
        None => 0,
    };
    if let Some(extra) = fields.next() {
        return Err(PositionError::AfterMoveNumber(extra.to_string()));
    }
    let pieces = read_board(rules, board, "rank", |cell| position_cell(rules, cell))?;
    Ok(rules.position(&Placement {
        pieces,
        to_move,
        ply,
    })?)
}

/// A position's number of moves played.
fn move_number(n: &str) -> Result<u32, PositionError> {
    match count(n) {
        Some(ply) if ply <= MAX_PLY => Ok(ply),
        Some(_) => Err(PositionError::TooManyMoves(n.to_string())),
        None => Err(PositionError::MoveNumber(n.to_string())),
    }
}

/// A count written in decimal digits only (no sign); `None` for anything else or above u32.
fn count(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A cell of a position string: a run of empty squares, or a piece code (upper case for
/// Black, lower case for White, `+` before a promoted piece).
fn position_cell(rules: &Rules, cell: &str) -> Result<Cells, CellProblem> {
    if cell.bytes().all(|b| b.is_ascii_digit()) {
        return match count(cell) {
            Some(n @ 1..) => Ok(Cells::Empty(n)),
            _ => Err(CellProblem::Run),
        };
    }
    let (promoted, code) = match cell.strip_prefix('+') {
        Some(c) => (true, c),
        None => (false, cell),
    };
    let side = if code.chars().all(|c| !c.is_ascii_lowercase()) {
        Side::Black
    } else if code.chars().all(|c| !c.is_ascii_uppercase()) {
        Side::White
    } else {
        return Err(CellProblem::MixedCase(cell.to_string()));
    };
    let kind = rules
        .catalogue()
        .by_code(&code.to_ascii_uppercase())
        .ok_or_else(|| CellProblem::UnknownCode(code.to_string()))?;
    let piece = Piece {
        kind,
        side,
        promoted,
    };
    rules.check_piece(piece)?;
    Ok(Cells::Pieces(piece, 1))
}

/// What one comma-separated cell of a board row stands for.
enum Cells {
    Empty(u32),
    Pieces(Piece, u32),
}

/// Reads rows separated by `/` (from White's side), cells separated by `,` (from Black's
/// left), each cell read by `cell`, into the pieces they place. `row_name` names a row in
/// errors ("rank 3").
fn read_board(
    rules: &Rules,
    board: &str,
    row_name: &'static str,
    cell: impl Fn(&str) -> Result<Cells, CellProblem>,
) -> Result<Vec<(Square, Piece)>, PositionError> {
    let dims = rules.dims();
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != dims.ranks as usize {
        return Err(PositionError::Rows {
            expected: dims.ranks,
            found: rows.len(),
        });
    }
    let mut pieces = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let y = dims.ranks as i32 - 1 - r as i32;
        let mut x = 0u32;
        for (c, text) in row.split(',').enumerate() {
            let here = |problem| PositionError::Cell {
                row_name,
                row: r + 1,
                cell: c + 1,
                text: shorten(text),
                problem: Box::new(problem),
            };
            if text.is_empty() {
                return Err(here(CellProblem::Empty));
            }
            let (piece, n) = match cell(text).map_err(here)? {
                Cells::Empty(n) => (None, n),
                Cells::Pieces(p, n) => (Some(p), n),
            };
            if n > u32::from(dims.files) - x {
                return Err(here(CellProblem::RowTooLong(dims.files)));
            }
            for _ in 0..n {
                if let Some(p) = piece {
                    let sq = dims.square(x as i32, y).expect("checked against the files");
                    pieces.push((sq, p));
                }
                x += 1;
            }
        }
        if x != u32::from(dims.files) {
            return Err(PositionError::RowLength {
                row_name,
                row: r + 1,
                squares: x,
                files: dims.files,
            });
        }
    }
    Ok(pieces)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonPosition {
    to_move: String,
    pieces: Vec<JsonPiece>,
    #[serde(default)]
    ply: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonPiece {
    piece: String,
    side: String,
    at: [i64; 2],
    #[serde(default)]
    promoted: bool,
}

/// Reads a JSON position: `{"to_move": "black", "pieces": [{"piece": NAME, "side": "white",
/// "at": [x, y], "promoted": false}]}`; NAME as for a piece lookup (code, name, alias, kanji).
pub fn parse_position_json(
    rules: &Rules,
    name: &str,
    text: &str,
) -> Result<Position, PositionError> {
    let raw: JsonPosition = serde_json::from_str(text).map_err(|e| PositionError::Json {
        name: name.to_string(),
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })?;
    let to_move = Side::parse(&raw.to_move).ok_or_else(|| PositionError::JsonToMove {
        name: name.to_string(),
        found: raw.to_move.clone(),
    })?;
    let mut pieces: Vec<(Square, Piece)> = Vec::with_capacity(raw.pieces.len());
    for (index, p) in raw.pieces.iter().enumerate() {
        let placed = json_piece(rules, p, &pieces).map_err(|problem| PositionError::JsonPiece {
            name: name.to_string(),
            index,
            problem: Box::new(problem),
        })?;
        pieces.push(placed);
    }
    if raw.ply > MAX_PLY {
        return Err(PositionError::JsonPly {
            name: name.to_string(),
            ply: raw.ply,
        });
    }
    Ok(rules.position(&Placement {
        pieces,
        to_move,
        ply: raw.ply,
    })?)
}

/// One piece of a JSON position, where it stands; `placed`: the pieces before it.
fn json_piece(
    rules: &Rules,
    p: &JsonPiece,
    placed: &[(Square, Piece)],
) -> Result<(Square, Piece), PieceProblem> {
    let kind = match rules.catalogue().lookup(&p.piece) {
        Lookup::Found(k) => k,
        Lookup::Ambiguous(ks) => {
            let codes = ks.iter().map(|&k| rules.catalogue().kind(k).code.as_str());
            return Err(PieceProblem::Ambiguous {
                name: p.piece.clone(),
                codes: codes.collect::<Vec<_>>().join(" or "),
            });
        }
        Lookup::NotFound(close) => {
            return Err(PieceProblem::Unknown {
                name: p.piece.clone(),
                close,
            });
        }
    };
    let side = Side::parse(&p.side).ok_or_else(|| PieceProblem::Side(p.side.clone()))?;
    let dims = rules.dims();
    let [x, y] = p.at;
    let sq = i32::try_from(x)
        .ok()
        .zip(i32::try_from(y).ok())
        .and_then(|(x, y)| dims.square(x, y))
        .ok_or(PieceProblem::OffBoard {
            x,
            y,
            max_x: dims.files - 1,
            max_y: dims.ranks - 1,
        })?;
    if placed.iter().any(|&(at, _)| at == sq) {
        return Err(PieceProblem::Occupied { x, y });
    }
    let piece = Piece {
        kind,
        side,
        promoted: p.promoted,
    };
    rules.check_piece(piece)?;
    Ok((sq, piece))
}

fn strip_position(s: &str) -> String {
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// Text quoted back in an error, cut to its first 60 characters (a pasted megabyte is not
/// worth echoing).
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// ", did you mean …?" from lookup suggestions.
pub fn suggest(close: &[String]) -> String {
    if close.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", close.join(", "))
    }
}

/// Reads a TSFEN position of the ATSA programs (taikyoku-shogi.github.io): 36 rows from
/// White's back rank, cells by `,`, runs of empty squares as numbers, pieces by their ATSA
/// codes (`atsa_code` in the catalogue) in lower case for Black (sente) and upper case for
/// White, a count after a code for a run of equal pieces (`p36`), then the number of moves
/// played (even: Black to move). TSFEN has no promoted flag: no piece is marked promoted.
pub fn parse_tsfen(rules: &Rules, s: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [board, counter] = fields[..] else {
        return Err(PositionError::TsfenFields);
    };
    let ply = move_number(counter).map_err(|e| PositionError::TsfenCounter(Box::new(e)))?;
    let pieces = read_board(rules, board, "TSFEN row", |cell| tsfen_cell(rules, cell))?;
    let to_move = if ply.is_multiple_of(2) {
        Side::Black
    } else {
        Side::White
    };
    Ok(rules.position(&Placement {
        pieces,
        to_move,
        ply,
    })?)
}

/// Writes a position as an ATSA TSFEN (see [`parse_tsfen`]), or `None` when a piece has no
/// ATSA code (a game or piece their programs do not know). A promoted piece is written as
/// the kind it became: TSFEN cannot say it promoted. The move counter is the number of moves
/// played, made odd or even to say who moves.
pub fn tsfen_string(rules: &Rules, pos: &Position) -> Option<String> {
    let dims = pos.dims();
    let mut rows = Vec::with_capacity(dims.ranks as usize);
    for y in (0..dims.ranks as i32).rev() {
        let mut cells: Vec<String> = Vec::new();
        let mut empty = 0;
        for x in 0..dims.files as i32 {
            let sq = dims.square(x, y).expect("on the board");
            let Some(p) = pos.piece_at(sq) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                cells.push(empty.to_string());
                empty = 0;
            }
            let code = rules.catalogue().kind(p.kind).atsa_code.as_deref()?;
            cells.push(match p.side {
                Side::Black => code.to_ascii_lowercase(),
                Side::White => code.to_ascii_uppercase(),
            });
        }
        if empty > 0 {
            cells.push(empty.to_string());
        }
        rows.push(cells.join(","));
    }
    let white = u32::from(pos.to_move() == Side::White);
    let counter = pos.ply + ((pos.ply % 2) ^ white);
    Some(format!("{} {counter}", rows.join("/")))
}

/// A cell of a TSFEN: a run of empty squares, or an ATSA code (lower case for Black) with an
/// optional count of equal pieces.
fn tsfen_cell(rules: &Rules, cell: &str) -> Result<Cells, CellProblem> {
    let digits = cell.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let letters = &cell[..cell.len() - digits.len()];
    let n = match digits {
        "" => 1,
        d => match count(d) {
            Some(n @ 1..) => n,
            _ => return Err(CellProblem::TsfenCount(d.to_string())),
        },
    };
    if letters.is_empty() {
        return Ok(Cells::Empty(n));
    }
    let side = if letters.chars().all(|c| c.is_ascii_lowercase()) {
        Side::Black
    } else if letters.chars().all(|c| c.is_ascii_uppercase()) {
        Side::White
    } else {
        return Err(CellProblem::TsfenMixedCase(letters.to_string()));
    };
    let code = letters.to_ascii_uppercase();
    let kind = rules
        .catalogue()
        .kinds
        .iter()
        .find(|k| k.atsa_code.as_deref() == Some(code.as_str()))
        .map(|k| k.id)
        .ok_or_else(|| CellProblem::UnknownAtsaCode(letters.to_string()))?;
    let piece = Piece {
        kind,
        side,
        promoted: false,
    };
    Ok(Cells::Pieces(piece, n))
}

/// Reads `--position`: a path to a JSON or position-string file, or a position string. A
/// path that exists is read as a file (and refused clearly if it is not a regular file); an
/// argument without a comma or a space cannot be a position, so it is taken as a file name.
pub fn load_position(rules: &Rules, arg: &str) -> Result<Position, PositionError> {
    let path = std::path::Path::new(arg);
    let looks_like_a_file = !arg.contains(',') && !arg.trim().contains(char::is_whitespace);
    if looks_like_a_file || std::fs::symlink_metadata(path).is_ok() {
        let file = |problem| PositionError::File {
            path: arg.to_string(),
            problem,
        };
        let bytes = crate::files::read_file(path).map_err(|e| {
            file(match e.kind() {
                std::io::ErrorKind::NotFound => FileProblem::NotFound {
                    ranks: rules.dims().ranks,
                },
                _ => FileProblem::Io(std::sync::Arc::new(e)),
            })
        })?;
        let text = crate::error::utf8_text(arg, bytes)?;
        if text.trim_start().starts_with('{') {
            return parse_position_json(rules, arg, &text);
        }
        return parse_text_position(rules, text.trim())
            .map_err(|e| file(FileProblem::Position(Box::new(e))));
    }
    if arg.trim_start().starts_with('{') {
        return parse_position_json(rules, "position", arg);
    }
    parse_text_position(rules, arg)
}

/// A position string, or an ATSA TSFEN (`tsfen:` before it, or told apart by its second
/// field: a number). A board that reads as a position string followed by a number is a
/// position string without its side to move, not a TSFEN with the colours swapped.
fn parse_text_position(rules: &Rules, s: &str) -> Result<Position, PositionError> {
    if let Some(t) = s.strip_prefix("tsfen:") {
        return parse_tsfen(rules, t);
    }
    let mut fields = s.split_whitespace();
    let board = fields.next().unwrap_or("");
    let second = fields.next();
    if !second.is_some_and(|f| f.chars().all(|c| c.is_ascii_digit())) {
        return parse_position_string(rules, s);
    }
    let ours = board.contains('+')
        || read_board(rules, board, "rank", |cell| position_cell(rules, cell)).is_ok();
    if ours {
        return Err(PositionError::NoSideBeforeNumber);
    }
    parse_tsfen(rules, s)
}

/// A move in notation, for the position it is played in.
pub fn move_string(rules: &Rules, pos: &Position, m: &Move) -> String {
    write_move(rules, pos, m, &rules.moves_from(pos, m.from))
}

/// Many moves of one position in notation. Each piece's moves are generated once (to tell
/// whether declining promotion is a choice), not once per move: linear in the moves.
pub fn move_strings(rules: &Rules, pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut listed: std::collections::HashMap<Square, Vec<Move>> = Default::default();
    moves
        .iter()
        .map(|m| {
            let from = listed
                .entry(m.from)
                .or_insert_with(|| rules.moves_from(pos, m.from));
            write_move(rules, pos, m, from)
        })
        .collect()
}

/// A move in notation; `listed`: the moves of its piece.
fn write_move(rules: &Rules, pos: &Position, m: &Move, listed: &[Move]) -> String {
    let dims = pos.dims();
    let code = pos.piece_at(m.from).map_or(String::new(), |p| {
        rules.catalogue().kind(p.kind).code.clone()
    });
    let captured = rules.captures(pos, m);
    let mut s = code;
    s.push_str(&dims.square_name(m.from));
    for (sq, shot) in m.legs() {
        s.push(if shot {
            '!'
        } else if captured.contains(&sq) {
            'x'
        } else {
            '-'
        });
        s.push_str(&dims.square_name(sq));
    }
    if m.promotes() {
        s.push('+');
    } else if listed.contains(&m.with_promotion(true)) {
        // The same move also exists promoting: declining is a choice.
        s.push('=');
    }
    s
}

/// Finds the legal move a person typed. Stops may be left out when only one move fits.
pub fn parse_move(rules: &Rules, pos: &Position, text: &str) -> Result<Move, MoveError> {
    read_move(rules, pos, text).map(|(m, _)| m)
}

/// Reads a move as [`parse_move`] does, and writes it out in full (as [`move_string`] would,
/// without generating the piece's moves again).
pub fn read_move(rules: &Rules, pos: &Position, text: &str) -> Result<(Move, String), MoveError> {
    let fail = |problem| MoveError {
        text: text.to_string(),
        problem,
    };
    let typed = Typed::parse(pos.dims(), text).map_err(fail)?;
    typed.check_mover(rules, pos).map_err(fail)?;
    let listed = rules.moves_from(pos, typed.from);
    let m = typed.choose(rules, pos, &listed).map_err(fail)?;
    Ok((m, write_move(rules, pos, &m, &listed)))
}

/// A move as typed: the code (may be empty), its squares, and `+`/`=` if given.
struct Typed {
    code: String,
    from: Square,
    to: Square,
    /// The stops between, shots last (as [`Move::path`] lists them).
    stops: Vec<Square>,
    promote: Option<bool>,
}

impl Typed {
    /// Reads the text: code, squares joined by separators, a final `+` or `=`. White space
    /// is ignored.
    fn parse(dims: crate::geometry::Dims, text: &str) -> Result<Typed, MoveProblem> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let (t, promote) = match t.as_bytes().last() {
            Some(b'+') => (&t[..t.len() - 1], Some(true)),
            Some(b'=') => (&t[..t.len() - 1], Some(false)),
            _ => (&t[..], None),
        };
        let code_len = t
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(t.len());
        let (code, squares) = t.split_at(code_len);
        if squares.is_empty() {
            return Err(MoveProblem::NoSquares);
        }
        let (sqs, shot_after) = typed_squares(dims, squares)?;
        if sqs.len() < 2 {
            return Err(MoveProblem::TooFewSquares);
        }
        // `A!B`: a shot without moving first, the same as `A-A!B`.
        let last = shot_after.unwrap_or(0);
        let stops = (sqs[1..last.max(1)].iter().chain(&sqs[last + 1..]))
            .copied()
            .collect();
        Ok(Typed {
            code: code.to_string(),
            from: sqs[0],
            to: sqs[last],
            stops,
            promote,
        })
    }

    /// Whether the piece on the start square may move now, and is the one the code names.
    fn check_mover(&self, rules: &Rules, pos: &Position) -> Result<(), MoveProblem> {
        let at = pos.dims().square_name(self.from);
        let Some(piece) = pos.piece_at(self.from) else {
            return Err(MoveProblem::NoPiece(at));
        };
        let kind = rules.catalogue().kind(piece.kind);
        if !self.code.is_empty() && !self.code.eq_ignore_ascii_case(&kind.code) {
            return Err(MoveProblem::OtherPiece {
                at,
                name: kind.name.clone(),
                code: kind.code.clone(),
                typed: self.code.clone(),
            });
        }
        if piece.side != pos.to_move() {
            return Err(MoveProblem::NotItsTurn {
                name: kind.name.clone(),
                at,
                side: piece.side,
                to_move: pos.to_move(),
            });
        }
        match pos.outcome() {
            Some(o) => Err(MoveProblem::GameOver(o)),
            None => Ok(()),
        }
    }

    /// The one legal move that fits (`listed`: the piece's moves, one per result). Any path
    /// the piece can take is accepted; without stops, the move as listed.
    fn choose(&self, rules: &Rules, pos: &Position, listed: &[Move]) -> Result<Move, MoveProblem> {
        let all = rules.moves_from_all_paths(pos, self.from);
        let mut fits: Vec<Move> = if self.stops.is_empty() {
            listed.iter().copied().filter(|m| m.to == self.to).collect()
        } else {
            (all.iter().copied())
                .filter(|m| m.to == self.to && m.path() == self.stops)
                .collect()
        };
        if fits.is_empty() {
            return Err(self.unreachable(rules, pos, &all));
        }
        if self.stops.is_empty() && fits.iter().any(|m| m.path().is_empty()) {
            // A one-leg move is what someone means who types only start and destination.
            fits.retain(|m| m.path().is_empty());
        }
        self.choose_promotion(&mut fits)?;
        if fits.len() > 1 {
            let options = fits.iter().map(|m| move_string(rules, pos, m)).collect();
            return Err(MoveProblem::Ambiguous(options));
        }
        Ok(fits[0])
    }

    /// Keeps the moves that promote as typed; without `+` or `=`, a choice is an error.
    fn choose_promotion(&self, fits: &mut Vec<Move>) -> Result<(), MoveProblem> {
        match self.promote {
            Some(p) => {
                fits.retain(|m| m.promotes() == p);
                if fits.is_empty() {
                    return Err(match p {
                        true => MoveProblem::DoesNotPromote,
                        false => MoveProblem::MustPromote,
                    });
                }
            }
            None if fits.iter().any(|m| m.promotes()) && fits.iter().any(|m| !m.promotes()) => {
                return Err(MoveProblem::PromotionChoice);
            }
            None => {}
        }
        Ok(())
    }

    /// Why no move of the piece fits (`all`: its moves by every path).
    fn unreachable(&self, rules: &Rules, pos: &Position, all: &[Move]) -> MoveProblem {
        let dims = pos.dims();
        let kind = rules
            .catalogue()
            .kind(pos.piece_at(self.from).expect("checked").kind);
        let to = dims.square_name(self.to);
        let why = if all.is_empty() {
            Unreachable::NoMove
        } else if all.iter().any(|m| m.to == self.to) {
            Unreachable::NotThatWay(to)
        } else {
            Unreachable::Destination(to)
        };
        MoveProblem::Illegal {
            name: kind.name.clone(),
            at: dims.square_name(self.from),
            why,
        }
    }
}

/// The squares of a typed move, and after how many of them the shots start (a shot, `!`, is
/// a stop the piece does not go to: the destination is the last square that is not shot).
fn typed_squares(
    dims: crate::geometry::Dims,
    squares: &str,
) -> Result<(Vec<Square>, Option<usize>), MoveProblem> {
    let mut sqs: Vec<Square> = Vec::new();
    let mut shot_after = None;
    let parts = squares.split(['-', 'x', 'X', '*', '!']);
    let seps = squares.matches(['-', 'x', 'X', '*', '!']);
    let mut shots = std::iter::once(false).chain(seps.map(|sep| sep == "!"));
    for part in parts {
        if shots.next() == Some(false) {
            shot_after = Some(sqs.len());
        }
        let sq = dims
            .parse_square(part)
            .ok_or_else(|| MoveProblem::NotASquare {
                part: part.to_string(),
                files: dims.files,
                ranks: dims.ranks,
            })?;
        sqs.push(sq);
    }
    Ok((sqs, shot_after))
}

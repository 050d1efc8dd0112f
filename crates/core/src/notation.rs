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
use crate::position::Position;
use crate::rules::Rules;
use serde::Deserialize;

/// A problem with a position or a move typed or loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

fn err<T>(s: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(s.into()))
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
pub fn parse_position_string(rules: &Rules, s: &str) -> Result<Position, NotationError> {
    let mut fields = s.split_whitespace();
    let board = fields
        .next()
        .ok_or_else(|| NotationError("empty position".into()))?;
    let side = match fields.next() {
        Some("b") => Side::Black,
        Some("w") => Side::White,
        Some(other) => {
            return err(format!(
                "expected the side to move, b or w, after the board; found {other:?}"
            ));
        }
        None => return err("expected the side to move (b or w) after the board"),
    };
    let ply = match fields.next() {
        Some(n) => move_number(n)?,
        None => 0,
    };
    if let Some(extra) = fields.next() {
        return err(format!("unexpected {extra:?} after the move number"));
    }
    let mut pos = read_board(rules, board, "rank", |cell| position_cell(rules, cell))?;
    finish(rules, &mut pos, side, ply)?;
    Ok(pos)
}

/// The most moves a position may say were played (far beyond any game; the counter never
/// wraps).
pub const MAX_PLY: u32 = 1_000_000_000;

/// A position's number of moves played.
fn move_number(n: &str) -> Result<u32, NotationError> {
    match count(n) {
        Some(ply) if ply <= MAX_PLY => Ok(ply),
        Some(_) => err(format!(
            "the number of moves played, {n}, is more than {MAX_PLY}"
        )),
        None => err(format!(
            "expected the number of moves played (digits only); found {n:?}"
        )),
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
fn position_cell(rules: &Rules, cell: &str) -> Result<Cells, NotationError> {
    if cell.bytes().all(|b| b.is_ascii_digit()) {
        return match count(cell) {
            Some(n @ 1..) => Ok(Cells::Empty(n)),
            _ => err("a run of empty squares must be a number from 1 to the number of files"),
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
        return err(format!(
            "{cell:?} mixes cases; Black's codes are upper case, White's lower case"
        ));
    };
    let kind = rules
        .catalogue()
        .by_code(&code.to_ascii_uppercase())
        .ok_or_else(|| NotationError(format!("unknown piece code {code:?}")))?;
    let piece = Piece {
        kind,
        side,
        promoted,
    };
    check_promoted(rules, piece)?;
    Ok(Cells::Pieces(piece, 1))
}

/// A piece marked promoted must be of a kind something promotes to under the rule set: the
/// flag means "it became this by promoting" (it never promotes again).
fn check_promoted(rules: &Rules, piece: Piece) -> Result<(), NotationError> {
    if !piece.promoted
        || rules
            .readings
            .iter()
            .any(|r| r.promotes_to == Some(piece.kind))
    {
        return Ok(());
    }
    let k = rules.catalogue().kind(piece.kind);
    err(format!(
        "a promoted {} ({}): nothing promotes to it under the {} rules (a promoted piece is \
         written with the code of the kind it became)",
        k.name, k.code, rules.rule_set.name
    ))
}

/// What one comma-separated cell of a board row stands for.
enum Cells {
    Empty(u32),
    Pieces(Piece, u32),
}

/// Reads rows separated by `/` (from White's side), cells separated by `,` (from Black's
/// left), each cell read by `cell`. `row_name` names a row in errors ("rank 3").
fn read_board(
    rules: &Rules,
    board: &str,
    row_name: &str,
    cell: impl Fn(&str) -> Result<Cells, NotationError>,
) -> Result<Position, NotationError> {
    let dims = rules.dims();
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != dims.ranks as usize {
        return err(format!(
            "expected {} rows separated by '/', found {}",
            dims.ranks,
            rows.len()
        ));
    }
    let mut pos = rules.empty_position();
    for (r, row) in rows.iter().enumerate() {
        let y = dims.ranks as i32 - 1 - r as i32;
        let mut x = 0u32;
        for (c, text) in row.split(',').enumerate() {
            let here = |e: NotationError| {
                NotationError(format!(
                    "{row_name} {}, cell {} {:?}: {}",
                    r + 1,
                    c + 1,
                    shorten(text),
                    e.0
                ))
            };
            if text.is_empty() {
                return Err(here(NotationError(
                    "an empty cell (two commas in a row?)".into(),
                )));
            }
            let (piece, n) = match cell(text).map_err(here)? {
                Cells::Empty(n) => (None, n),
                Cells::Pieces(p, n) => (Some(p), n),
            };
            if n > u32::from(dims.files) - x {
                return Err(here(NotationError(format!(
                    "the row has more than {} squares",
                    dims.files
                ))));
            }
            for _ in 0..n {
                if let Some(p) = piece {
                    let sq = dims.square(x as i32, y).expect("checked against the files");
                    rules.put(&mut pos, sq, Some(p));
                }
                x += 1;
            }
        }
        if x != u32::from(dims.files) {
            return Err(NotationError(format!(
                "{row_name} {}: {x} squares; expected {}",
                r + 1,
                dims.files
            )));
        }
    }
    Ok(pos)
}

fn finish(rules: &Rules, pos: &mut Position, side: Side, ply: u32) -> Result<(), NotationError> {
    pos.set_to_move(side);
    pos.ply = ply;
    rules.withdraw_concession(pos);
    if pos.royals(Side::Black) == 0 && pos.royals(Side::White) == 0 {
        return err("neither side has a royal piece (king or prince): there is no game to play");
    }
    Ok(())
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
) -> Result<Position, NotationError> {
    let raw: JsonPosition = serde_json::from_str(text).map_err(|e| {
        NotationError(format!(
            "{name}:{}:{}: {}",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        ))
    })?;
    let side = Side::parse(&raw.to_move).ok_or_else(|| {
        NotationError(format!(
            "{name}: to_move must be \"black\" or \"white\", not {:?}",
            raw.to_move
        ))
    })?;
    let dims = rules.dims();
    let mut pos = rules.empty_position();
    for (i, p) in raw.pieces.iter().enumerate() {
        let at = format!("{name}: pieces[{i}]");
        let kind = match rules.catalogue().lookup(&p.piece) {
            Lookup::Found(k) => k,
            Lookup::Ambiguous(ks) => {
                return err(format!(
                    "{at}: {:?} could be {}",
                    p.piece,
                    ks.iter()
                        .map(|&k| rules.catalogue().kind(k).code.as_str())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ));
            }
            Lookup::NotFound(close) => {
                return err(format!(
                    "{at}: unknown piece {:?}{}",
                    p.piece,
                    suggest(&close)
                ));
            }
        };
        let side = Side::parse(&p.side).ok_or_else(|| {
            NotationError(format!(
                "{at}: side must be \"black\" or \"white\", not {:?}",
                p.side
            ))
        })?;
        let sq = i32::try_from(p.at[0])
            .ok()
            .zip(i32::try_from(p.at[1]).ok())
            .and_then(|(x, y)| dims.square(x, y))
            .ok_or_else(|| {
                NotationError(format!(
                    "{at}: square [{}, {}] is off the board (x 0..{}, y 0..{})",
                    p.at[0],
                    p.at[1],
                    dims.files - 1,
                    dims.ranks - 1
                ))
            })?;
        if pos.piece_at(sq).is_some() {
            return err(format!(
                "{at}: square [{}, {}] already has a piece",
                p.at[0], p.at[1]
            ));
        }
        let piece = Piece {
            kind,
            side,
            promoted: p.promoted,
        };
        check_promoted(rules, piece).map_err(|e| NotationError(format!("{at}: {}", e.0)))?;
        rules.put(&mut pos, sq, Some(piece));
    }
    if raw.ply > MAX_PLY {
        return err(format!("{name}: ply {} is more than {MAX_PLY}", raw.ply));
    }
    finish(rules, &mut pos, side, raw.ply)?;
    Ok(pos)
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
pub fn parse_tsfen(rules: &Rules, s: &str) -> Result<Position, NotationError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [board, counter] = fields[..] else {
        return err("a TSFEN has two fields: the board and the move counter");
    };
    let moves = move_number(counter).map_err(|e| NotationError(format!("TSFEN: {}", e.0)))?;
    let mut pos = read_board(rules, board, "TSFEN row", |cell| tsfen_cell(rules, cell))?;
    let side = if moves.is_multiple_of(2) {
        Side::Black
    } else {
        Side::White
    };
    finish(rules, &mut pos, side, moves)?;
    Ok(pos)
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
fn tsfen_cell(rules: &Rules, cell: &str) -> Result<Cells, NotationError> {
    let digits = cell.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let letters = &cell[..cell.len() - digits.len()];
    let n = match digits {
        "" => 1,
        d => match count(d) {
            Some(n @ 1..) => n,
            _ => {
                return err(format!(
                    "{d:?}: a count must be a number from 1 to the number of files"
                ));
            }
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
        return err(format!(
            "{letters:?} mixes cases; Black's codes are lower case in a TSFEN, White's upper case"
        ));
    };
    let code = letters.to_ascii_uppercase();
    let kind = rules
        .catalogue()
        .kinds
        .iter()
        .find(|k| k.atsa_code.as_deref() == Some(code.as_str()))
        .map(|k| k.id)
        .ok_or_else(|| NotationError(format!("unknown ATSA code {letters:?}")))?;
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
pub fn load_position(rules: &Rules, arg: &str) -> Result<Position, NotationError> {
    let path = std::path::Path::new(arg);
    let looks_like_a_file = !arg.contains(',') && !arg.trim().contains(char::is_whitespace);
    if looks_like_a_file || std::fs::symlink_metadata(path).is_ok() {
        let file = |e: String| NotationError(format!("{arg}: {e}"));
        let bytes = crate::files::read_file(path).map_err(|e| {
            file(match e.kind() {
                std::io::ErrorKind::NotFound => format!(
                    "no such file (and not a position string, which has {} ranks and the side to move)",
                    rules.dims().ranks
                ),
                _ => e.to_string(),
            })
        })?;
        let text = crate::error::utf8_text(arg, bytes).map_err(|e| NotationError(e.to_string()))?;
        if text.trim_start().starts_with('{') {
            return parse_position_json(rules, arg, &text);
        }
        return parse_text_position(rules, text.trim()).map_err(|e| file(e.0));
    }
    if arg.trim_start().starts_with('{') {
        return parse_position_json(rules, "position", arg);
    }
    parse_text_position(rules, arg)
}

/// A position string, or an ATSA TSFEN (`tsfen:` before it, or told apart by its second
/// field: a number). A board that reads as a position string followed by a number is a
/// position string without its side to move, not a TSFEN with the colours swapped.
fn parse_text_position(rules: &Rules, s: &str) -> Result<Position, NotationError> {
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
        return err(
            "expected the side to move (b or w) after the board, before the move number \
             (to read this as an ATSA TSFEN, where lower case is Black, write tsfen: before it)",
        );
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
pub fn parse_move(rules: &Rules, pos: &Position, text: &str) -> Result<Move, NotationError> {
    read_move(rules, pos, text).map(|(m, _)| m)
}

/// Reads a move as [`parse_move`] does, and writes it out in full (as [`move_string`] would,
/// without generating the piece's moves again).
pub fn read_move(
    rules: &Rules,
    pos: &Position,
    text: &str,
) -> Result<(Move, String), NotationError> {
    let dims = pos.dims();
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (t, promo) = match t.as_bytes().last() {
        Some(b'+') => (&t[..t.len() - 1], Some(true)),
        Some(b'=') => (&t[..t.len() - 1], Some(false)),
        _ => (&t[..], None),
    };
    let code_len = t
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let (code, squares) = t.split_at(code_len);
    if squares.is_empty() {
        return err(format!("{text:?}: expected squares such as 19.26-19.25"));
    }
    let mut sqs: Vec<Square> = Vec::new();
    // A shot (`!`) is a stop the piece does not go to: the destination is the last square
    // that is not shot, and the shots after it are the path's last stops (see `Move::legs`).
    let mut shot_after = None;
    let parts = squares.split(['-', 'x', 'X', '*', '!']);
    let seps = squares.matches(['-', 'x', 'X', '*', '!']);
    let mut shots = std::iter::once(false).chain(seps.map(|sep| sep == "!"));
    for part in parts {
        if shots.next() == Some(false) {
            shot_after = Some(sqs.len());
        }
        let sq = dims.parse_square(part).ok_or_else(|| {
            NotationError(format!(
                "{text:?}: {part:?} is not a square; squares are file.rank, files 1..{} from Black's right, ranks 1..{} from White's side",
                dims.files, dims.ranks
            ))
        })?;
        sqs.push(sq);
    }
    if sqs.len() < 2 {
        return err(format!(
            "{text:?}: a move needs at least a start and a destination"
        ));
    }
    // `A!B`: a shot without moving first, the same as `A-A!B`.
    let last = shot_after.unwrap_or(0);
    let (from, to) = (sqs[0], sqs[last]);
    let stops: Vec<Square> = sqs[1..last.max(1)]
        .iter()
        .chain(&sqs[last + 1..])
        .copied()
        .collect();
    let stops = &stops[..];
    let Some(piece) = pos.piece_at(from) else {
        return err(format!(
            "{text:?}: there is no piece on {}",
            dims.square_name(from)
        ));
    };
    let kind = rules.catalogue().kind(piece.kind);
    if !code.is_empty() && !code.eq_ignore_ascii_case(&kind.code) {
        return err(format!(
            "{text:?}: the piece on {} is a {} ({}), not {code}",
            dims.square_name(from),
            kind.name,
            kind.code
        ));
    }
    if piece.side != pos.to_move() {
        return err(format!(
            "{text:?}: the {} on {} is {}'s, and it is {}'s turn",
            kind.name,
            dims.square_name(from),
            piece.side,
            pos.to_move()
        ));
    }
    if let Some(o) = pos.outcome() {
        return err(format!(
            "{text:?}: the game is over ({} won: {})",
            o.winner,
            o.reason.describe()
        ));
    }
    // Any path the piece can take is accepted; without stops, the move as listed.
    let all = rules.moves_from_all_paths(pos, from);
    let listed = rules.moves_from(pos, from);
    let mut fits: Vec<Move> = if stops.is_empty() {
        listed.iter().copied().filter(|m| m.to == to).collect()
    } else {
        all.iter()
            .copied()
            .filter(|m| m.to == to && m.path() == stops)
            .collect()
    };
    if fits.is_empty() {
        let why = if all.is_empty() {
            "it has no legal move".to_string()
        } else if all.iter().any(|m| m.to == to) {
            format!("it cannot reach {} that way", dims.square_name(to))
        } else {
            format!("it cannot reach {}", dims.square_name(to))
        };
        return err(format!(
            "{text:?}: illegal: the {} on {}: {why}",
            kind.name,
            dims.square_name(from)
        ));
    }
    if stops.is_empty() && fits.iter().any(|m| m.path().is_empty()) {
        // A one-leg move is what someone means who types only start and destination.
        fits.retain(|m| m.path().is_empty());
    }
    if let Some(p) = promo {
        let wanted: Vec<Move> = fits.iter().copied().filter(|m| m.promotes() == p).collect();
        if wanted.is_empty() {
            return err(if p {
                format!("{text:?}: this move does not promote")
            } else {
                format!("{text:?}: this move must promote")
            });
        }
        fits = wanted;
    } else if fits.iter().any(|m| m.promotes()) && fits.iter().any(|m| !m.promotes()) {
        return err(format!("{text:?}: add + to promote or = to decline"));
    }
    if fits.len() > 1 {
        let options: Vec<String> = fits.iter().map(|m| move_string(rules, pos, m)).collect();
        return err(format!("{text:?} is ambiguous: {}", options.join(", ")));
    }
    Ok((fits[0], write_move(rules, pos, &fits[0], &listed)))
}

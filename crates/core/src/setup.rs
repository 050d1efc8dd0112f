//! Start positions (`setups/*.toml`): each side's array, written as rows of piece codes the way
//! a player sees their own side, on the board of the game (`rules/<game>.toml`).

use crate::catalogue::Catalogue;
use crate::error::{DataError, Source};
use crate::geometry::{Dims, Side, Square};
use crate::piece::Piece;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A start position: which piece stands where.
#[derive(Clone, Debug)]
pub struct Setup {
    pub name: String,
    pub dims: Dims,
    pub pieces: Vec<(Square, Piece)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
    name: String,
    /// The board size may be repeated here; it must then be the game's.
    files: Option<Spanned<u8>>,
    ranks: Option<Spanned<u8>>,
    #[serde(default)]
    check_counts: bool,
    black: Spanned<String>,
    white: Spanned<String>,
}

impl Setup {
    /// Reads a setup for a board of `dims` (the game's).
    pub fn parse(src: &Source, catalogue: &Catalogue, dims: Dims) -> Result<Setup, DataError> {
        let raw: RawSetup = src.parse_toml()?;
        let (files, ranks) = (dims.files, dims.ranks);
        for (v, s, what) in [(files, &raw.files, "files"), (ranks, &raw.ranks, "ranks")] {
            if let Some(s) = s
                && *s.get_ref() != v
            {
                return Err(src.error_span(
                    &s.span(),
                    format!(
                        "{what} = {}, but the game's board has {what} = {v}",
                        s.get_ref()
                    ),
                ));
            }
        }
        let mut pieces: Vec<(Square, Piece)> = Vec::new();
        let black = Setup::array(src, catalogue, dims, &raw.black)?;
        let white: Vec<(i32, i32, u16, usize)> = if raw.white.get_ref().trim() == "rotate" {
            black
                .iter()
                .map(|&(x, y, k, at)| (files as i32 - 1 - x, ranks as i32 - 1 - y, k, at))
                .collect()
        } else if raw.white.get_ref().contains('\n') {
            // Written as White sees it: turn it round onto the board.
            Setup::array(src, catalogue, dims, &raw.white)?
                .into_iter()
                .map(|(x, y, k, at)| (files as i32 - 1 - x, ranks as i32 - 1 - y, k, at))
                .collect()
        } else {
            return Err(src.error_span(
                &raw.white.span(),
                "white must be \"rotate\" (Black's array turned 180°) or an array of rows",
            ));
        };
        let mut taken: BTreeMap<Square, usize> = BTreeMap::new();
        for (side, list) in [(Side::Black, &black), (Side::White, &white)] {
            for &(x, y, kind, at) in list {
                let sq = dims
                    .square(x, y)
                    .expect("rows were checked against the board");
                if taken.insert(sq, at).is_some() {
                    return Err(src.error_at(
                        at,
                        format!(
                            "square {} is already taken by the other side",
                            dims.square_name(sq)
                        ),
                    ));
                }
                pieces.push((
                    sq,
                    Piece {
                        kind,
                        side,
                        promoted: false,
                    },
                ));
            }
        }
        if raw.check_counts {
            for k in &catalogue.kinds {
                let n = black.iter().filter(|p| p.2 == k.id).count();
                if n != k.count as usize {
                    return Err(src.error_span(
                        &raw.black.span(),
                        format!(
                            "the array has {n} {} ({}) per side, but the catalogue says count = {}",
                            k.name, k.code, k.count
                        ),
                    ));
                }
            }
        }
        pieces.sort_by_key(|&(sq, _)| sq);
        Ok(Setup {
            name: raw.name,
            dims,
            pieces,
        })
    }

    /// Reads rows of codes (`.` = empty), first row farthest from the side's back rank, files
    /// from the side's left. Returns `(x, y, kind, byte offset)` in the side's own frame.
    fn array(
        src: &Source,
        catalogue: &Catalogue,
        dims: Dims,
        s: &Spanned<String>,
    ) -> Result<Vec<(i32, i32, u16, usize)>, DataError> {
        let offsets = src.string_offsets(s.span().start);
        let text = s.get_ref();
        let mut rows: Vec<Vec<(usize, &str)>> = Vec::new();
        let mut line_start = 0;
        for line in text.split_inclusive('\n') {
            let mut tokens = Vec::new();
            let mut i = 0;
            let b = line.as_bytes();
            while i < b.len() {
                if b[i].is_ascii_whitespace() {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
                tokens.push((offsets.file_offset(line_start + start), &line[start..i]));
            }
            if !tokens.is_empty() {
                rows.push(tokens);
            }
            line_start += line.len();
        }
        if rows.is_empty() || rows.len() > dims.ranks as usize {
            return Err(src.error_span(
                &s.span(),
                format!(
                    "expected 1 to {} rows of pieces, found {}",
                    dims.ranks,
                    rows.len()
                ),
            ));
        }
        let n = rows.len();
        let mut out = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            if row.len() != dims.files as usize {
                return Err(src.error_at(
                    row[0].0,
                    format!(
                        "this row has {} squares; expected {} (one code or '.' per file)",
                        row.len(),
                        dims.files
                    ),
                ));
            }
            let y = (n - 1 - r) as i32;
            for (x, &(at, code)) in row.iter().enumerate() {
                if code == "." {
                    continue;
                }
                let kind = catalogue.by_code(code).ok_or_else(|| {
                    src.error_at(
                        at,
                        format!(
                            "unknown piece code {code:?}; expected a code from the catalogue or '.'"
                        ),
                    )
                })?;
                out.push((x as i32, y, kind, at));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAT: &str = r#"
[[piece]]
code = "K"
name = "King"
kanji = "玉将"
label = "玉"
count = 1
betza = "K"
royal = true

[[piece]]
code = "P"
name = "Pawn"
kanji = "歩兵"
label = "歩"
count = 2
betza = "fW"
"#;

    fn cat() -> Catalogue {
        Catalogue::parse(&Source::new("p.toml", CAT)).unwrap()
    }

    fn setup_on(text: &str, files: u8, ranks: u8) -> Result<Setup, DataError> {
        Setup::parse(&Source::new("s.toml", text), &cat(), Dims { files, ranks })
    }

    fn setup(text: &str) -> Result<Setup, DataError> {
        setup_on(text, 3, 4)
    }

    const GOOD: &str = "name = \"tiny\"\nfiles = 3\nranks = 4\ncheck_counts = true\nblack = '''\nP . P\n. K .\n'''\nwhite = \"rotate\"\n";

    #[test]
    fn reads_an_array_and_turns_it_for_white() {
        let s = setup(GOOD).unwrap();
        assert_eq!(s.pieces.len(), 6);
        let d = s.dims;
        let at = |x, y| {
            s.pieces
                .iter()
                .find(|p| p.0 == d.square(x, y).unwrap())
                .map(|p| p.1)
        };
        assert_eq!(at(1, 0).unwrap().side, Side::Black);
        assert_eq!(at(0, 1).unwrap().kind, 1);
        assert_eq!(at(1, 3).unwrap().side, Side::White);
        assert_eq!(at(2, 2).unwrap().kind, 1);
    }

    #[test]
    fn errors_name_the_place() {
        let e = setup(&GOOD.replace("P . P", "P . Q")).unwrap_err();
        assert_eq!((e.line, e.column), (6, 5));
        assert!(e.message.contains("unknown piece code \"Q\""), "{e}");
        let e = setup(&GOOD.replace("P . P", "P P")).unwrap_err();
        assert!(e.message.contains("has 2 squares; expected 3"), "{e}");
        assert_eq!(e.line, 6);
        let e = setup(&GOOD.replace("P . P", "P . .")).unwrap_err();
        assert!(
            e.message
                .contains("has 1 Pawn (P) per side, but the catalogue says count = 2"),
            "{e}"
        );
        let e = setup(&GOOD.replace("ranks = 4", "ranks = 3")).unwrap_err();
        assert!(
            e.message
                .contains("ranks = 3, but the game's board has ranks = 4"),
            "{e}"
        );
        assert_eq!((e.line, e.column), (3, 9));
        let e = setup_on(&GOOD.replace("ranks = 4\n", ""), 3, 3).unwrap_err();
        assert!(e.message.contains("already taken"), "{e}");
        let e = setup(&GOOD.replace("\"rotate\"", "\"spin\"")).unwrap_err();
        assert!(e.message.contains("rotate"), "{e}");
        let e = setup(&GOOD.replace("files = 3", "files = 300")).unwrap_err();
        assert_eq!(e.line, 2);
    }
}

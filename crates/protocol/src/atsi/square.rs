//! ATSI's squares: `FILE RANK`, files counted from the first player's right (`1`…`36`), ranks
//! from the second player's side as letters (`a`…`z`, then `aa`…`jj`). The bottom of the
//! protocol: it knows only the board's dimensions.

use std::fmt;
use taikyoku_core::geometry::{Dims, Square};
use taikyoku_core::notation::shorten;

/// A square as ATSI writes it: `file` from 1 (the first player's right), `rank` from 1 (the
/// second player's side; written `a`…`z`, `aa`…`zz`, `aaa`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtsiSquare {
    pub file: u16,
    pub rank: u16,
}

/// Why a text is not an ATSI square (of a board).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareProblem {
    #[error("it starts with its file, a number from 1")]
    NoFile,
    #[error("its file is followed by its rank, a lower-case letter (a…z, aa…jj)")]
    NoRank,
    #[error("a rank is one letter, or one letter repeated (aa…jj)")]
    MixedRank,
    #[error("bad file")]
    BadFile,
    /// A square of ATSI, but not of this board (of `files` × `ranks`).
    #[error("off the board (files 1…{files}, ranks a…{})", rank_letters(*ranks))]
    OffBoard { files: u8, ranks: u8 },
}

/// A text that is not a square, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a square: {problem}")]
pub struct SquareError {
    /// The text (shortened).
    pub text: String,
    pub problem: SquareProblem,
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

    /// The board square, or why it is not one of a board of `dims`.
    pub fn on_board(self, dims: Dims) -> Result<Square, SquareError> {
        self.square(dims).ok_or_else(|| SquareError {
            text: self.to_string(),
            problem: SquareProblem::OffBoard {
                files: dims.files,
                ranks: dims.ranks,
            },
        })
    }
}

/// A rank's letters: `a` for 1, `z` for 26, `aa` for 27, `jj` for 36.
fn rank_letters(rank: u8) -> String {
    let i = usize::from(rank.max(1) - 1);
    let letter = char::from(b'a' + (i % 26) as u8);
    std::iter::repeat_n(letter, i / 26 + 1).collect()
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
    type Err = SquareError;

    /// Reads `FILE RANK` with no space between: digits without a leading zero, then one
    /// lower-case letter repeated (`a`, `jj`).
    fn from_str(s: &str) -> Result<AtsiSquare, SquareError> {
        let bad = |problem| SquareError {
            text: shorten(s),
            problem,
        };
        let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (file, rank) = s.split_at(digits);
        if file.is_empty() || file.starts_with('0') || file.len() > 3 {
            return Err(bad(SquareProblem::NoFile));
        }
        let mut letters = rank.chars();
        let first = letters
            .next()
            .filter(char::is_ascii_lowercase)
            .ok_or_else(|| bad(SquareProblem::NoRank))?;
        if rank.len() > 3 || letters.any(|c| c != first) {
            return Err(bad(SquareProblem::MixedRank));
        }
        Ok(AtsiSquare {
            file: file.parse().map_err(|_| bad(SquareProblem::BadFile))?,
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
pub fn parse_square(s: &str, dims: Dims) -> Result<Square, SquareError> {
    s.parse::<AtsiSquare>()?.on_board(dims)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsi::test_support::{D36, sq};
    use taikyoku_core::geometry::Side;
    use taikyoku_testkit::rules;

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
            assert!(
                !matches!(e.problem, SquareProblem::OffBoard { .. }),
                "{bad}: {e}"
            );
        }
        let e = parse_square("37a", D36).unwrap_err().to_string();
        assert!(e.contains("off the board (files 1…36, ranks a…jj)"), "{e}");
        assert!(parse_square("1kk", D36).is_err());
        let sho = Dims { files: 9, ranks: 9 };
        let e = parse_square("1j", sho).unwrap_err().to_string();
        assert_eq!(
            e,
            "\"1j\" is not a square: off the board (files 1…9, ranks a…i)"
        );
    }
}

//! Board geometry: sides, squares, vectors and the person-facing square notation.
//!
//! Coordinates are `(x, y)`: `x` counts files from Black's left (0-based), `y` counts ranks from
//! Black's back rank (0-based), and Black moves towards larger `y`. People read and type squares
//! in the shogi convention instead: files counted from Black's right and ranks from White's side,
//! both 1-based, written `file.rank` (see [`Dims::square_name`]).

use std::fmt;

/// One of the two players. Black (sente) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Black, Side::White];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// The side's forward direction on the board (`+y` for Black).
    pub fn forward(self) -> Vec2 {
        match self {
            Side::Black => Vec2::new(0, 1),
            Side::White => Vec2::new(0, -1),
        }
    }

    /// Turns a vector in the piece's own frame (x = its right, y = its forward) into a board vector.
    pub fn orient(self, v: Vec2) -> Vec2 {
        match self {
            Side::Black => v,
            Side::White => Vec2::new(-v.x, -v.y),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    pub fn parse(s: &str) -> Option<Side> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "sente" => Some(Side::Black),
            "white" | "w" | "gote" => Some(Side::White),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A displacement on the board, or a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vec2 {
    pub x: i32,
    pub y: i32,
}

impl Vec2 {
    pub const fn new(x: i32, y: i32) -> Vec2 {
        Vec2 { x, y }
    }

    pub fn dot(self, o: Vec2) -> i32 {
        self.x * o.x + self.y * o.y
    }

    /// The vector turned 90° clockwise: the "right" of a piece facing `self`.
    pub fn right(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }

    pub fn scale(self, k: i32) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }

    /// The unit step along this vector when it lies on an orthogonal or diagonal line.
    pub fn unit(self) -> Option<Vec2> {
        let (ax, ay) = (self.x.abs(), self.y.abs());
        if (ax == 0) != (ay == 0) || ax == ay && ax != 0 {
            Some(Vec2::new(self.x.signum(), self.y.signum()))
        } else {
            None
        }
    }

    /// Chebyshev length: the number of king steps the vector spans.
    pub fn king_len(self) -> i32 {
        self.x.abs().max(self.y.abs())
    }
}

impl std::ops::Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

/// A square of a board, numbered `y * files + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u16);

/// The most files or ranks a board may have.
pub const MAX_SIDE: u8 = 64;

/// The size of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dims {
    pub files: u8,
    pub ranks: u8,
}

impl Dims {
    pub fn len(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn contains(self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.files as i32 && y < self.ranks as i32
    }

    pub fn square(self, x: i32, y: i32) -> Option<Square> {
        self.contains(x, y)
            .then(|| Square((y * self.files as i32 + x) as u16))
    }

    pub fn xy(self, sq: Square) -> (i32, i32) {
        let f = self.files as i32;
        (sq.0 as i32 % f, sq.0 as i32 / f)
    }

    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.len() as u16).map(Square)
    }

    /// The person-facing name of a square: `file.rank`, files from Black's right, ranks from
    /// White's side, both from 1. Black's back-rank left corner is `36.36` on a 36×36 board.
    pub fn square_name(self, sq: Square) -> String {
        let (x, y) = self.xy(sq);
        format!("{}.{}", self.files as i32 - x, self.ranks as i32 - y)
    }

    /// Parses `file.rank` (see [`Dims::square_name`]).
    pub fn parse_square(self, s: &str) -> Option<Square> {
        let (f, r) = s.trim().split_once('.')?;
        let file: i32 = f.parse().ok()?;
        let rank: i32 = r.parse().ok()?;
        self.square(self.files as i32 - file, self.ranks as i32 - rank)
    }

    /// Whether `sq` lies in the `depth` ranks farthest from `side`'s own back rank.
    pub fn in_far_ranks(self, sq: Square, side: Side, depth: u8) -> bool {
        let (_, y) = self.xy(sq);
        match side {
            Side::Black => y >= self.ranks as i32 - depth as i32,
            Side::White => y < depth as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: Dims = Dims {
        files: 36,
        ranks: 36,
    };

    #[test]
    fn square_names_follow_the_shogi_convention() {
        let black_left_corner = D.square(0, 0).unwrap();
        assert_eq!(D.square_name(black_left_corner), "36.36");
        let white_left_corner = D.square(35, 35).unwrap();
        assert_eq!(D.square_name(white_left_corner), "1.1");
        let king = D.square(17, 0).unwrap();
        assert_eq!(D.square_name(king), "19.36");
        for sq in D.squares() {
            assert_eq!(D.parse_square(&D.square_name(sq)), Some(sq));
        }
        assert_eq!(D.parse_square("0.5"), None);
        assert_eq!(D.parse_square("37.1"), None);
        assert_eq!(D.parse_square("5"), None);
    }

    #[test]
    fn white_sees_the_board_turned_round() {
        assert_eq!(Side::White.orient(Vec2::new(1, 2)), Vec2::new(-1, -2));
        assert_eq!(Side::Black.forward().right(), Vec2::new(1, 0));
        assert_eq!(Side::White.forward().right(), Vec2::new(-1, 0));
    }

    #[test]
    fn promotion_zone_is_counted_from_the_far_side() {
        let far = D.square(3, 35).unwrap();
        let near = D.square(3, 0).unwrap();
        assert!(D.in_far_ranks(far, Side::Black, 11));
        assert!(!D.in_far_ranks(near, Side::Black, 11));
        assert!(D.in_far_ranks(near, Side::White, 11));
        assert!(D.in_far_ranks(D.square(0, 25).unwrap(), Side::Black, 11));
        assert!(!D.in_far_ranks(D.square(0, 24).unwrap(), Side::Black, 11));
    }

    #[test]
    fn unit_exists_only_on_lines() {
        assert_eq!(Vec2::new(0, 2).unit(), Some(Vec2::new(0, 1)));
        assert_eq!(Vec2::new(-3, 3).unit(), Some(Vec2::new(-1, 1)));
        assert_eq!(Vec2::new(2, 1).unit(), None);
        assert_eq!(Vec2::new(0, 0).unit(), None);
    }
}

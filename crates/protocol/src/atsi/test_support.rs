//! Helpers of the protocol's unit tests: squares and positions written as ATSI squares.

use super::square::parse_square;
use taikyoku_core::geometry::{Dims, Side, Square};
use taikyoku_core::piece::Piece;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

pub const D36: Dims = Dims {
    files: 36,
    ranks: 36,
};

/// A square of Taikyoku's board, written as ATSI writes it.
pub fn sq(s: &str) -> Square {
    parse_square(s, D36).unwrap()
}

/// A position with these `(code, side, square)` pieces and both kings in corners.
pub fn position(r: &Rules, to_move: Side, pieces: &[(&str, Side, &str)]) -> Position {
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

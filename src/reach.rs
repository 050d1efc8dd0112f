//! What a piece's generated moves reach, square by square: the one summary of a set of moves
//! that the board's move marks are drawn from, while hovering over a piece and while entering
//! a move leg by leg alike.

use crate::geometry::{Square, Vec2};
use crate::movegen::Move;
use crate::position::Position;
use crate::rules::Rules;

/// What reaching a square involves, as flags (several moves may reach one square).
pub mod mark {
    /// A move ends here without taking the piece here (or the square is empty).
    pub const QUIET: u16 = 1;
    /// A move ends here and takes the piece here.
    pub const CAPTURE: u16 = 2;
    /// A move ends here by jumping: over pieces, or a leap off the lines.
    pub const JUMP: u16 = 4;
    /// A piece taken on the way (lion step, igui) rather than at the destination.
    pub const TAKEN_ON_WAY: u16 = 8;
    /// A piece a range capturer flies over and removes.
    pub const RANGE_VICTIM: u16 = 16;
    /// A move that ends here promotes.
    pub const PROMOTE: u16 = 32;
    /// A multi-leg move can stop here and go on.
    pub const STOP: u16 = 64;
    /// A piece a move shoots: taken from afar, the mover never going there.
    pub const SHOT: u16 = 128;
    /// A piece a move burns (it is next to where a burning piece lands), of either side.
    pub const BURNT: u16 = 256;
}

/// The flags of every square the `moves` (of one piece, in `pos`) reach, after `legs` of their
/// stops have been chosen (0 while hovering): the next stop or the destination of each, and
/// the pieces each would remove (those on stops already chosen too). The start square counts as a destination only
/// when a chosen leg has left it (a move coming back to it: igui, pass).
pub fn reach<'a>(
    rules: &Rules,
    pos: &Position,
    moves: impl IntoIterator<Item = &'a Move>,
    legs: usize,
) -> Vec<(Square, u16)> {
    let mut out = Vec::new();
    for m in moves {
        let path = m.path();
        if path.len() < legs {
            continue;
        }
        let captures = rules.captures(pos, m);
        let burnt: Vec<Square> = m.burnt(rules.dims()).collect();
        // A shot is no stop to choose: its target is marked with what the move takes.
        let next_stop = path.get(legs).copied().filter(|_| !m.is_shot(legs));
        match next_stop {
            Some(s) => out.push((s, mark::STOP)),
            None if m.to != m.from || legs > 0 => {
                let last = path.last().copied().unwrap_or(m.from);
                let mut f = if captures.contains(&m.to) {
                    mark::CAPTURE
                } else {
                    mark::QUIET
                };
                if is_jump(pos, last, m.to) {
                    f |= mark::JUMP;
                }
                if m.promotes() {
                    f |= mark::PROMOTE;
                }
                out.push((m.to, f));
            }
            None => {}
        }
        for &c in captures.iter().filter(|&&c| c != m.to) {
            let on_way = path.iter().position(|&s| s == c);
            // A chosen stop that takes a piece stays marked: it is taken whatever comes next.
            match on_way {
                _ if burnt.contains(&c) => out.push((c, mark::BURNT)),
                Some(i) if m.is_shot(i) => out.push((c, mark::SHOT)),
                Some(_) => out.push((c, mark::TAKEN_ON_WAY)),
                None => out.push((c, mark::RANGE_VICTIM)),
            }
        }
    }
    out
}

/// Whether going from `a` to `b` passes over a piece or is not along a line (a leap).
fn is_jump(pos: &Position, a: Square, b: Square) -> bool {
    let dims = pos.dims();
    let (ax, ay) = dims.xy(a);
    let (bx, by) = dims.xy(b);
    let v = Vec2::new(bx - ax, by - ay);
    match v.unit() {
        None => v.king_len() > 0,
        Some(u) => (1..v.king_len()).any(|k| {
            dims.square(ax + u.x * k, ay + u.y * k)
                .is_some_and(|s| pos.piece_at(s).is_some())
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Side;
    use crate::position::Piece;

    fn put(r: &Rules, pos: &mut Position, code: &str, side: Side, x: i32, y: i32) -> Square {
        let kind = r.catalogue().by_code(code).unwrap();
        let sq = r.dims().square(x, y).unwrap();
        let piece = Piece {
            kind,
            side,
            promoted: false,
        };
        r.put(pos, sq, Some(piece));
        sq
    }

    fn flags(marks: &[(Square, u16)], sq: Square) -> u16 {
        marks.iter().filter(|m| m.0 == sq).fold(0, |f, m| f | m.1)
    }

    #[test]
    fn a_lion_next_to_an_enemy_can_take_it_on_the_way_and_come_back() {
        let r = Rules::builtin("taikyoku", "wikipedia").unwrap();
        let mut pos = r.empty_position();
        let lion = put(&r, &mut pos, "LN", Side::Black, 10, 10);
        let pawn = put(&r, &mut pos, "P", Side::White, 10, 11);
        let moves = r.moves_from_all_paths(&pos, lion);
        let hover = reach(&r, &pos, &moves, 0);
        let f = flags(&hover, pawn);
        assert_eq!(
            f & (mark::CAPTURE | mark::TAKEN_ON_WAY | mark::STOP),
            mark::CAPTURE | mark::TAKEN_ON_WAY | mark::STOP
        );
        assert_eq!(flags(&hover, lion), 0, "not its own destination yet");
        // After the first leg onto the pawn, coming back (igui) is marked.
        let after: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.path().first() == Some(&pawn))
            .collect();
        let next = reach(&r, &pos, &after, 1);
        assert_ne!(flags(&next, lion) & mark::QUIET, 0);
        assert_eq!(
            flags(&next, pawn) & (mark::TAKEN_ON_WAY | mark::STOP),
            mark::TAKEN_ON_WAY,
            "chosen: taken whatever comes next, no longer a stop to choose"
        );
    }

    #[test]
    fn a_range_capture_marks_what_it_flies_over() {
        let r = Rules::builtin("taikyoku", "wikipedia").unwrap();
        let mut pos = r.empty_position();
        let gg = put(&r, &mut pos, "GG", Side::Black, 10, 10);
        let pawn = put(&r, &mut pos, "P", Side::White, 10, 12);
        let beyond = r.dims().square(10, 14).unwrap();
        let moves = r.moves_from_all_paths(&pos, gg);
        let marks = reach(&r, &pos, &moves, 0);
        assert_ne!(flags(&marks, pawn) & mark::CAPTURE, 0);
        assert_ne!(flags(&marks, pawn) & mark::RANGE_VICTIM, 0);
        assert_ne!(
            flags(&marks, beyond) & mark::JUMP,
            0,
            "it flies over the pawn"
        );
    }
}

//! What a piece's generated moves reach, square by square: the one summary of a set of moves
//! that the board's move marks are drawn from, while hovering over a piece and while entering
//! a move leg by leg alike.

use crate::geometry::{Dims, Square, Vec2};
use crate::moves::Move;
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
    /// With the landing chosen: a piece the move can shoot next (choose it to shoot).
    pub const NEXT_SHOT: u16 = 512;
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
        let (path, _) = split(m);
        if path.len() < legs {
            continue;
        }
        let captures = rules.captures(pos, m);
        // A shot is no stop to go on from: its target is marked with what the move takes.
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
        victims(rules.dims(), m, &captures, &mut out);
    }
    out
}

/// Marks what `m` takes besides its destination: shot (`SHOT`), burnt (`BURNT`), taken on
/// the way (a chosen stop that takes a piece stays marked: it is taken whatever comes next)
/// or flown over by a range capture.
fn victims(dims: Dims, m: &Move, captures: &[Square], out: &mut Vec<(Square, u16)>) {
    let burnt: Vec<Square> = m.burnt(dims).collect();
    for &c in captures.iter().filter(|&&c| c != m.to) {
        let on_way = m.path().iter().position(|&s| s == c);
        match on_way {
            _ if burnt.contains(&c) => out.push((c, mark::BURNT)),
            Some(i) if m.is_shot(i) => out.push((c, mark::SHOT)),
            Some(_) => out.push((c, mark::TAKEN_ON_WAY)),
            None => out.push((c, mark::RANGE_VICTIM)),
        }
    }
}

/// A move split where the piece lands: the stops before (shots on the way included), then the
/// shots it fires from where it ends, in order. A player enters the first part, the landing,
/// then picks the shots one by one.
pub fn split(m: &Move) -> (&[Square], &[Square]) {
    let path = m.path();
    let trailing = (0..path.len()).rev().take_while(|&i| m.is_shot(i)).count();
    path.split_at(path.len() - trailing)
}

/// The marks while a move's shots are chosen: `moves` all land on one square and first shoot
/// `fired`. The landing is marked where a move may stop shooting (`QUIET`), the pieces a move
/// could shoot next `SHOT | NEXT_SHOT`, the pieces already shot `TAKEN_ON_WAY`, and what the
/// moves take besides as [`reach`] marks it.
pub fn reach_shots<'a>(
    rules: &Rules,
    pos: &Position,
    moves: impl IntoIterator<Item = &'a Move>,
    fired: &[Square],
) -> Vec<(Square, u16)> {
    let mut out = Vec::new();
    for m in moves {
        let (_, tail) = split(m);
        if !tail.starts_with(fired) {
            continue;
        }
        match tail.get(fired.len()) {
            Some(&next) => out.push((next, mark::SHOT | mark::NEXT_SHOT)),
            None => out.push((
                m.to,
                mark::QUIET | if m.promotes() { mark::PROMOTE } else { 0 },
            )),
        }
        // The shots chosen are taken whatever comes next: marked as taken on the way.
        out.extend(fired.iter().map(|&s| (s, mark::TAKEN_ON_WAY)));
        let captures = rules.captures(pos, m);
        let before: Vec<Square> = captures
            .iter()
            .copied()
            .filter(|c| !tail.contains(c))
            .collect();
        victims(rules.dims(), m, &before, &mut out);
    }
    out
}

/// How an enemy piece's aura holds a piece (Kō shōgi's nets and fog).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// An enemy net stands first on one of its lines, ranging back along it: it cannot move.
    Frozen { by: Square },
    /// A shooter within an enemy fog's reach: it moves, but cannot shoot.
    Silenced { by: Square },
}

/// Every piece of `pos` an enemy aura holds, with the piece holding it; empty in a game
/// without auras. It asks the generator's own questions ([`crate::movegen`]'s `Auras`), so the
/// board's marks agree with it: a frozen piece has no move, a silenced one no shot.
pub fn held(rules: &Rules, pos: &Position) -> Vec<(Square, Held)> {
    let Some(auras) = &rules.tables.auras else {
        return Vec::new();
    };
    let squares = &rules.tables.squares;
    let mut out = Vec::new();
    for (sq, p) in pos.pieces() {
        let (idx, side) = (pos.index(sq), p.side.index());
        if let Some(by) = auras.net_holding(pos, idx, side, &mut None) {
            out.push((sq, Held::Frozen { by: squares[by] }));
            continue;
        }
        let shoots = rules.readings[p.kind as usize]
            .patterns
            .iter()
            .any(|pat| pat.legs.iter().any(|l| l.shoot));
        if let Some(by) = auras
            .fog_holding(pos, squares, (idx, side, p.kind), &mut None)
            .filter(|_| shoots)
        {
            out.push((sq, Held::Silenced { by: squares[by] }));
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
    use crate::piece::Piece;

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

    #[test]
    fn a_net_freezes_the_first_enemy_on_its_ranging_lines_and_a_fog_silences_shooters() {
        let r = Rules::builtin("koshogi", "standard").unwrap();
        let mut pos = r.empty_position();
        // A Black skyward net ranges sideways: the first White piece to its left is frozen,
        // the one behind it is not; its own pieces never are.
        let net = put(&r, &mut pos, "SN", Side::Black, 9, 9);
        let first = put(&r, &mut pos, "P", Side::White, 5, 9);
        let behind = put(&r, &mut pos, "P", Side::White, 3, 9);
        let own = put(&r, &mut pos, "P", Side::Black, 12, 9);
        // Straight ahead it only steps back: a piece in front is not on a ranging line.
        let ahead = put(&r, &mut pos, "P", Side::White, 9, 13);
        // A White fog two squares from a Black bow silences it; a priest shoots all the same.
        let fog = put(&r, &mut pos, "FOG", Side::White, 16, 3);
        let bow = put(&r, &mut pos, "LB", Side::Black, 16, 5);
        let priest = put(&r, &mut pos, "TP", Side::Black, 14, 3);
        let held = held(&r, &pos);
        assert_eq!(
            held.iter().find(|h| h.0 == first).map(|h| h.1),
            Some(Held::Frozen { by: net })
        );
        assert_eq!(
            held.iter().find(|h| h.0 == bow).map(|h| h.1),
            Some(Held::Silenced { by: fog })
        );
        for free in [behind, own, ahead, priest, net, fog] {
            assert!(
                held.iter().all(|h| h.0 != free),
                "{free:?} is held: {held:?}"
            );
        }
        // What the generator does: the frozen piece has no move, the silenced bow no shot,
        // and the free ones move.
        let target = put(&r, &mut pos, "P", Side::White, 15, 8);
        let shots = |pos: &Position| {
            r.moves_from(pos, bow)
                .iter()
                .any(|m| m.shots().next() == Some(target))
        };
        assert!(!shots(&pos));
        let mut white = pos.clone();
        white.set_to_move(Side::White);
        assert!(r.moves_from(&white, first).is_empty());
        assert!(!r.moves_from(&white, behind).is_empty());
        r.put(&mut pos, fog, None);
        assert!(shots(&pos), "without the fog the bow shoots");
    }

    #[test]
    fn the_board_marks_a_silenced_shooter_as_the_rule_set_measures_the_fog() {
        for (set, silenced) in [("standard", true), ("lines", false)] {
            let r = Rules::builtin("koshogi", set).unwrap();
            let mut pos = r.empty_position();
            let fog = put(&r, &mut pos, "FOG", Side::White, 16, 3);
            // Two squares from the fog, off its eight lines.
            let bow = put(&r, &mut pos, "LB", Side::Black, 14, 4);
            let target = put(&r, &mut pos, "P", Side::White, 13, 7);
            let marked = held(&r, &pos).contains(&(bow, Held::Silenced { by: fog }));
            let shoots = r
                .moves_from(&pos, bow)
                .iter()
                .any(|m| m.shots().next() == Some(target));
            assert_eq!((marked, shoots), (silenced, !silenced), "{set}");
        }
    }
}

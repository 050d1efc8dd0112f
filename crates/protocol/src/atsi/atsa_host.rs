//! The quirks of ATSA's web host (the `GameHost` of taikyoku-shogi.github.io): which of our
//! legal moves it can judge, so that `taikyoku engine` with `atsa_host_safe` plays only those.

use std::collections::HashMap;
use taikyoku_core::catalogue::KindId;
use taikyoku_core::geometry::{Side, Vec2};
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

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
    views: HashMap<(KindId, Side), HostView>,
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
    use crate::atsi::moves::move_to_atsi;
    use crate::atsi::test_support::{D36, position, sq};
    use taikyoku_testkit::rules;

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

//! Piece values from data: every kind's value comes from one formula over its generated
//! moves (no piece is named here).
//!
//! **The formula.** A kind's power is its average mobility over a few seeded sample boards that
//! are about as crowded as a middlegame: a lone piece of the kind is put on random squares of a
//! board filled to a third with blockers of both sides, and its generated moves are counted.
//! A quiet move counts 1, a move that captures counts 1 plus a half per piece it removes (a
//! lion's double capture, a range capturer's flight over a line of enemies). That one number
//! already holds range (a slider's reach stops at the first blocker), jumping power (a jumper is
//! not stopped), range capture (it flies over blockers and removes them) and lion power (more
//! destinations, two captures a move). The value is `BASE * power^EXPONENT`, a diminishing
//! return as in the chess values (a rook moves ~2.1 times as much as a king and is worth ~1.7
//! times as much). A royal piece gets [`ROYAL_BONUS`] on top: losing the last one loses the
//! game, which the search sees by itself, but a spare one is worth keeping. A kind that promotes
//! is worth a fraction of what promotion adds ([`PROMOTION_SHARE`]).
//!
//! **Overrides.** A `value = N` field in a piece's `[[piece]]` table replaces the formula's
//! value for that kind (in centipawn-like units, a pawn ≈ 100).

use crate::rng::Rng;
use taikyoku_core::catalogue::KindId;
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::piece::Piece;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// The value of a power-1 piece.
pub const BASE: f64 = 100.0;
/// How value grows with power (below 1: diminishing returns).
pub const EXPONENT: f64 = 0.8;
/// Added to a royal piece's value.
pub const ROYAL_BONUS: i32 = 1000;
/// The share of its promotion's gain an unpromoted piece is worth ahead of it, in percent.
pub const PROMOTION_SHARE: i32 = 10;
/// Sample boards and squares per board the power is averaged over.
const BOARDS: usize = 4;
const SQUARES_PER_BOARD: usize = 12;
/// A third of the board holds blockers.
const DENSITY_PER_MILLE: u64 = 330;

/// One kind's value and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct KindValue {
    pub kind: KindId,
    /// Average weighted number of moves on the sample boards.
    pub power: f64,
    /// The value the formula gives (royal bonus and promotion share included).
    pub derived: i32,
    /// The value used: the data's `value` if it has one, else `derived`.
    pub value: i32,
    pub overridden: bool,
}

/// The kind used as a blocker on the sample boards: the lowest-ranked one (most pieces are
/// unranked, and range capturers fly over those).
fn blocker(rules: &Rules) -> KindId {
    let kinds = &rules.catalogue().kinds;
    (0..kinds.len())
        .max_by_key(|&k| {
            (
                kinds[k].rank.map_or(u16::MAX, u16::from),
                std::cmp::Reverse(k),
            )
        })
        .unwrap_or(0) as KindId
}

/// The sample boards: blockers of both sides on about a third of the squares.
fn sample_boards(rules: &Rules) -> Vec<Position> {
    let kind = blocker(rules);
    let mut rng = Rng(0x7661_6c75_6573_0000);
    (0..BOARDS)
        .map(|_| {
            let mut pos = rules.empty_position();
            for sq in rules.dims().squares() {
                if rng.next_u64() % 1000 < DENSITY_PER_MILLE {
                    let side = if rng.next_u64() & 1 == 0 {
                        Side::Black
                    } else {
                        Side::White
                    };
                    rules.put_unjudged(
                        &mut pos,
                        sq,
                        Some(Piece {
                            kind,
                            side,
                            promoted: false,
                        }),
                    );
                }
            }
            pos
        })
        .collect()
}

/// A kind's power: its weighted moves averaged over the sample boards and squares.
fn power(rules: &Rules, boards: &mut [Position], kind: KindId, rng: &mut Rng) -> f64 {
    let dims = rules.dims();
    let piece = Piece {
        kind,
        side: Side::Black,
        promoted: rules.readings[kind as usize].promotes_to.is_none(),
    };
    let mut total = 0.0;
    for pos in boards.iter_mut() {
        for _ in 0..SQUARES_PER_BOARD {
            let sq = Square(rng.below(dims.len()) as u16);
            let old = pos.piece_at(sq);
            rules.put_unjudged(pos, sq, Some(piece));
            let mut seen = std::collections::HashSet::new();
            for m in rules.moves_from(pos, sq) {
                // A promotion choice is the same move twice: count it once.
                if !seen.insert((m.to, m.path().to_vec(), m.captures())) {
                    continue;
                }
                let removed = m.victims(dims).count();
                total += 1.0 + 0.5 * removed as f64;
            }
            rules.put_unjudged(pos, sq, old);
        }
    }
    total / (boards.len() * SQUARES_PER_BOARD) as f64
}

/// Every kind's value under the rules, in kind order.
pub fn kind_values(rules: &Rules) -> Vec<KindValue> {
    let mut boards = sample_boards(rules);
    let mut rng = Rng(0x0070_6f77_6572);
    let kinds = &rules.catalogue().kinds;
    let powers: Vec<f64> = (0..kinds.len())
        .map(|k| power(rules, &mut boards, k as KindId, &mut rng))
        .collect();
    let base: Vec<i32> = (0..kinds.len())
        .map(|k| {
            (BASE * powers[k].max(0.1).powf(EXPONENT)).round() as i32
                + if kinds[k].royal { ROYAL_BONUS } else { 0 }
        })
        .collect();
    let used = |k: usize| kinds[k].value.unwrap_or(base[k]);
    (0..kinds.len())
        .map(|k| {
            let share = rules.readings[k].promotes_to.map_or(0, |to| {
                (used(to as usize) - used(k)).max(0) * PROMOTION_SHARE / 100
            });
            let derived = base[k] + share;
            KindValue {
                kind: k as KindId,
                power: powers[k],
                derived,
                value: kinds[k].value.unwrap_or(derived),
                overridden: kinds[k].value.is_some(),
            }
        })
        .collect()
}

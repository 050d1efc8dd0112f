//! Dai shogi: the game as data (board, setup, perft from the opening) under Chu shogi's rules
//! with a five-rank zone, and its own eight kinds on hand-built positions.

mod common;

use common::{B, W, position, sq};
use std::collections::BTreeSet;
use std::sync::OnceLock;
use taikyoku_core::perft;
use taikyoku_core::rules::Rules;

fn dai() -> &'static Rules {
    static DAI: OnceLock<Rules> = OnceLock::new();
    DAI.get_or_init(|| Rules::builtin("dai", "standard").expect("the built-in data loads"))
}

#[test]
fn the_board_setup_and_perft_from_the_opening() {
    let r = dai();
    assert_eq!((r.dims().files, r.dims().ranks), (15, 15));
    let p = r.start_position();
    assert_eq!(p.pieces().count(), 130);
    // The earlier draft's figures; HaChu plays these openings too (tools/hachu_oracle.py).
    let counts: Vec<u64> = (1..=2).map(|d| perft::perft(r, &p, d)).collect();
    assert_eq!(counts, [71, 5_041]);
}

/// Where the piece on `from` may go (squares as (x, y)).
fn targets(
    r: &Rules,
    p: &taikyoku_core::position::Position,
    from: (i32, i32),
) -> BTreeSet<(i32, i32)> {
    (r.moves_from(p, sq(r, from.0, from.1)).iter())
        .map(|m| r.dims().xy(m.to))
        .collect()
}

#[test]
fn the_violent_ox_and_flying_dragon_range_two_squares_and_are_blocked() {
    let r = dai();
    let p = position(
        r,
        B,
        &[
            ("K", B, 0, 0),
            ("K", W, 14, 14),
            ("VO", B, 7, 7),
            ("P", B, 7, 8),
            ("P", W, 6, 7),
            ("FD", B, 2, 2),
            ("P", B, 3, 3),
        ],
    );
    // Forward blocked by its own pawn; leftwards it takes the enemy pawn and stops.
    let ox = targets(r, &p, (7, 7));
    let want: BTreeSet<_> = [(7, 6), (7, 5), (8, 7), (9, 7), (6, 7)].into();
    assert_eq!(ox, want);
    let dragon = targets(r, &p, (2, 2));
    // Blocked by its own king and pawn next to it; two squares along the other diagonals.
    let want: BTreeSet<_> = [(1, 1), (1, 3), (0, 4), (3, 1), (4, 0)].into();
    assert_eq!(dragon, want);
}

#[test]
fn dais_own_kinds_promote_to_gold_in_the_five_far_ranks() {
    let r = dai();
    let p = position(
        r,
        B,
        &[
            ("K", B, 0, 0),
            ("K", W, 14, 14),
            ("ST", B, 5, 9),
            ("ST", B, 9, 8),
        ],
    );
    let promotes = |from: (i32, i32)| {
        r.moves_from(&p, sq(r, from.0, from.1))
            .iter()
            .any(|m| m.promotes())
    };
    assert!(promotes((5, 9)), "entering the zone (y 10 to 14)");
    assert!(!promotes((9, 8)), "not reaching it");
    let m = (r.moves_from(&p, sq(r, 5, 9)).into_iter())
        .find(|m| m.promotes())
        .unwrap();
    let mut q = p.clone();
    r.play(&mut q, &m).unwrap();
    let gold = q.piece_at(m.to).unwrap();
    assert_eq!(r.catalogue().kind(gold.kind).code, "G");
    assert!(gold.promoted);
}

//! Chu shogi: the game as data (board, setup, perft from the opening), its promotion on
//! entering the zone or capturing in it, and the lion-trading rules, on hand-built positions.

mod common;

use common::{B, W, position, sq};
use std::sync::OnceLock;
use taikyoku_core::perft;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

fn chu() -> &'static Rules {
    static CHU: OnceLock<Rules> = OnceLock::new();
    CHU.get_or_init(|| Rules::builtin("chu", "standard").expect("the built-in data loads"))
}

/// Whether the piece on `from` may go to `to`, not promoting and promoting.
fn choices(r: &Rules, p: &Position, from: (i32, i32), to: (i32, i32)) -> (bool, bool) {
    let moves = r.moves_from(p, sq(r, from.0, from.1));
    let to = sq(r, to.0, to.1);
    let has = |promotes| moves.iter().any(|m| m.to == to && m.promotes() == promotes);
    (has(false), has(true))
}

fn play(r: &Rules, p: &mut Position, from: (i32, i32), to: (i32, i32)) {
    let m = r
        .moves_from(p, sq(r, from.0, from.1))
        .into_iter()
        .find(|m| m.to == sq(r, to.0, to.1) && !m.promotes())
        .unwrap_or_else(|| panic!("no move {from:?}-{to:?}"));
    r.play(p, &m).unwrap();
}

#[test]
fn the_board_setup_and_perft_from_the_opening() {
    let r = chu();
    assert_eq!((r.dims().files, r.dims().ranks), (12, 12));
    let p = r.start_position();
    assert_eq!(p.pieces().count(), 92);
    // Agrees with the earlier draft's figures and with HaChu's move lists from the opening.
    let counts: Vec<u64> = (1..=3).map(|d| perft::perft(r, &p, d)).collect();
    assert_eq!(counts, [36, 1_296, 48_315]);
}

#[test]
fn a_non_capture_promotes_only_on_entering_the_zone() {
    let r = chu();
    // Black's zone is the four far ranks (y 8 to 11).
    let p = position(
        r,
        B,
        &[
            ("K", B, 0, 0),
            ("K", W, 11, 11),
            ("S", B, 2, 7),
            ("S", B, 6, 8),
            ("G", W, 5, 9),
            ("G", W, 7, 7),
        ],
    );
    // Entering: either.
    assert_eq!(choices(r, &p, (2, 7), (2, 8)), (true, true));
    // Outside the zone: no promotion.
    assert_eq!(choices(r, &p, (2, 7), (1, 6)), (true, false));
    // Inside, having declined: a step on does not promote, a capture may.
    assert_eq!(choices(r, &p, (6, 8), (6, 9)), (true, false));
    assert_eq!(choices(r, &p, (6, 8), (5, 9)), (true, true));
    // Leaving: only a capture may promote.
    assert_eq!(choices(r, &p, (6, 8), (5, 7)), (true, false));
    assert_eq!(choices(r, &p, (6, 8), (7, 7)), (true, true));
}

#[test]
fn a_lion_may_not_take_a_protected_lion_from_afar() {
    let r = chu();
    let lions = |extra: &[(&str, taikyoku_core::geometry::Side, i32, i32)]| {
        let mut pieces = vec![
            ("K", B, 0, 0),
            ("K", W, 11, 11),
            ("LN", B, 5, 3),
            ("LN", W, 5, 5),
        ];
        pieces.extend_from_slice(extra);
        position(r, B, &pieces)
    };
    // Unprotected: taken by a jump.
    assert!(choices(r, &lions(&[]), (5, 3), (5, 5)).0);
    // Protected by a gold behind it: not from two squares away.
    let p = lions(&[("G", W, 5, 6)]);
    assert!(!choices(r, &p, (5, 3), (5, 5)).0);
    // ...nor by taking a pawn on the way (no bridge), but a silver on the way is a bridge.
    let p = lions(&[("G", W, 5, 6), ("P", W, 5, 4)]);
    assert!(!choices(r, &p, (5, 3), (5, 5)).0);
    let p = lions(&[("G", W, 5, 6), ("S", W, 5, 4)]);
    assert!(choices(r, &p, (5, 3), (5, 5)).0);
    // Next to it, a protected lion may be taken.
    let p = position(
        r,
        B,
        &[
            ("K", B, 0, 0),
            ("K", W, 11, 11),
            ("LN", B, 5, 4),
            ("LN", W, 5, 5),
            ("G", W, 5, 6),
        ],
    );
    assert!(choices(r, &p, (5, 4), (5, 5)).0);
    // A promoted kirin is a lion too.
    let p = lions(&[("G", W, 5, 6), ("+LN", W, 5, 5)]);
    assert!(!choices(r, &p, (5, 3), (5, 5)).0);
}

/// Black's rook takes White's lion (a non-lion takes a lion); Black's lion on (8, 3) faces
/// White's rook on (8, 10); `extra` pieces besides.
fn after_a_counter_strike(
    r: &Rules,
    extra: &[(&str, taikyoku_core::geometry::Side, i32, i32)],
) -> Position {
    let mut pieces = vec![
        ("K", B, 0, 0),
        ("K", W, 11, 11),
        ("R", B, 2, 2),
        ("LN", W, 2, 8),
        ("LN", B, 8, 3),
        ("R", W, 8, 10),
    ];
    pieces.extend_from_slice(extra);
    let mut p = position(r, B, &pieces);
    play(r, &mut p, (2, 2), (2, 8));
    p
}

#[test]
fn after_a_lion_is_taken_by_a_non_lion_no_lion_is_taken_by_a_non_lion() {
    let r = chu();
    let mut p = after_a_counter_strike(r, &[("LN", W, 9, 5), ("P", W, 0, 8)]);
    assert!(p.struck());
    // White's rook may not take Black's lion now; White's lion may.
    assert!(!choices(r, &p, (8, 10), (8, 3)).0);
    assert!(choices(r, &p, (9, 5), (8, 3)).0);
    // One move later the rule no longer holds.
    play(r, &mut p, (0, 8), (0, 7));
    assert!(!p.struck());
    play(r, &mut p, (0, 0), (0, 1));
    assert!(choices(r, &p, (8, 10), (8, 3)).0);
}

#[test]
fn the_okazaki_rule_allows_the_counter_strike_on_an_unprotected_lion() {
    let r = Rules::builtin("chu", "okazaki").unwrap();
    let p = after_a_counter_strike(&r, &[]);
    assert!(choices(&r, &p, (8, 10), (8, 3)).0, "unprotected: allowed");
    let p = after_a_counter_strike(&r, &[("G", B, 8, 2)]);
    assert!(
        !choices(&r, &p, (8, 10), (8, 3)).0,
        "protected: not allowed"
    );
    // The standard rules forbid both.
    let p = after_a_counter_strike(chu(), &[]);
    assert!(!choices(chu(), &p, (8, 10), (8, 3)).0);
}

#[test]
fn the_games_command_lists_every_game_with_its_board_pieces_and_rule_sets() {
    let out = common::ok(&["games"]);
    let chu = out
        .lines()
        .find(|l| l.starts_with("chu "))
        .expect("chu is listed");
    assert!(chu.contains("Chu shogi"), "{chu}");
    assert!(
        chu.contains("12×12, 92 pieces (46 a side), 30 kinds"),
        "{chu}"
    );
    assert!(
        chu.contains("rule sets: standard (default), okazaki"),
        "{chu}"
    );
    let sho = out
        .lines()
        .find(|l| l.starts_with("sho "))
        .expect("sho is listed");
    assert!(
        sho.contains("9×9, 42 pieces (21 a side), 16 kinds"),
        "{sho}"
    );
    let dai = out
        .lines()
        .find(|l| l.starts_with("dai "))
        .expect("dai is listed");
    assert!(
        dai.contains("15×15, 130 pieces (65 a side), 38 kinds"),
        "{dai}"
    );
    assert_eq!(out.lines().count(), 5, "{out}");
}

#[test]
fn the_cli_plays_chu() {
    let out = common::ok(&["--game", "chu", "perft", "2"]);
    assert!(out.contains("1296"), "{out}");
    let out = common::ok(&["--game", "chu", "piece", "LN"]);
    assert!(out.contains("獅子"), "{out}");
}

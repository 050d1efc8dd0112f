//! The movement grammar beyond Taikyoku on hand-built positions: shots (`!`), immunities
//! (`cannot_capture`, `captures_only`, `cannot_shoot`, `cannot_hop`), with the blocked, edge
//! and immune cases. The pieces are the test game's in `tests/data/lab` (one mechanic each).

mod common;
use common::*;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use taikyoku_core::game::{DataDir, Game};
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

fn lab() -> &'static Rules {
    static LAB: OnceLock<Rules> = OnceLock::new();
    LAB.get_or_init(|| {
        let dir = DataDir::dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lab"));
        let game = Game::load(&dir, "lab").expect("the lab game loads");
        Rules::new(game, "standard").expect("the lab compiles")
    })
}

/// A lab position with kings in two corners, so that the game is on.
fn lab_position(
    to_move: taikyoku_core::geometry::Side,
    pieces: &[(&str, taikyoku_core::geometry::Side, i32, i32)],
) -> Position {
    let mut all = pieces.to_vec();
    all.push(("K", B, 0, 0));
    all.push(("K", W, 18, 18));
    position(lab(), to_move, &all)
}

fn xy(m: &Move) -> (i32, i32) {
    lab().dims().xy(m.to)
}

fn shots(m: &Move) -> Vec<(i32, i32)> {
    m.shots().map(|s| lab().dims().xy(s)).collect()
}

/// A move as its destination and some of its squares (those it shoots, or takes).
type Shooting = ((i32, i32), Vec<(i32, i32)>);

/// `taikyoku moves --json` for a lab position, parsed: what a user of the command line sees.
fn lab_moves_json(r: &Rules, p: &Position) -> serde_json::Value {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lab");
    let text = notation::position_string(r, p);
    let out = ok(&[
        "--data",
        dir,
        "--game",
        "lab",
        "moves",
        "--json",
        "--position",
        &text,
    ]);
    serde_json::from_str(&out).unwrap()
}

/// Every move of the piece on (x, y) as (destination, shots), sorted.
fn shot_moves(p: &Position, x: i32, y: i32) -> BTreeSet<Shooting> {
    moves_at(lab(), p, x, y)
        .iter()
        .map(|m| (xy(m), shots(m)))
        .collect()
}

/// Plays `m` and takes it back, checking the position after it and that unmaking restores it.
fn make_unmake(p: &Position, m: &Move, check: impl Fn(&Position)) {
    let r = lab();
    let mut q = p.clone();
    let undo = r.make(&mut q, m);
    assert!(r.is_consistent(&q), "hash and piece sets after the move");
    check(&q);
    r.unmake(&mut q, undo);
    assert_eq!(&q, p);
    assert!(r.is_consistent(&q));
}

fn at(p: &Position, x: i32, y: i32) -> Option<String> {
    p.piece_at(sq(lab(), x, y))
        .map(|pc| lab().catalogue().kind(pc.kind).code.clone())
}

#[test]
fn a_bow_steps_then_may_shoot_the_first_piece_within_three_squares() {
    let p = lab_position(
        B,
        &[
            ("BOW", B, 9, 9),
            ("P", W, 10, 13),
            ("P", W, 10, 14),
            ("P", W, 13, 10),
        ],
    );
    let all = shot_moves(&p, 9, 9);
    // The four plain steps, each without a shot.
    for d in [(8, 8), (10, 8), (8, 10), (10, 10)] {
        assert!(all.contains(&(d, vec![])), "{d:?}");
    }
    // From 10,10: the pawn three squares up and the one three squares right; not the one four
    // squares up (out of range), not twice the same.
    assert!(all.contains(&((10, 10), vec![(10, 13)])));
    assert!(all.contains(&((10, 10), vec![(13, 10)])));
    assert!(!all.iter().any(|(_, s)| s.contains(&(10, 14))));
    assert_eq!(all.len(), 6, "{all:?}");
    // It never steps onto a piece: the step is move-only.
    let p = lab_position(B, &[("BOW", B, 9, 9), ("P", W, 10, 10)]);
    assert!(!shot_moves(&p, 9, 9).iter().any(|(d, _)| *d == (10, 10)));
}

#[test]
fn a_shot_is_blocked_by_the_first_piece_and_cannot_hit_its_own_side() {
    let p = lab_position(
        B,
        &[
            ("BOW", B, 9, 9),
            ("P", B, 10, 11),
            ("P", W, 10, 12),
            ("P", B, 12, 12),
        ],
    );
    let all = shot_moves(&p, 9, 9);
    assert!(
        !all.contains(&((10, 10), vec![(10, 12)])),
        "behind a friend"
    );
    assert!(
        all.contains(&((8, 10), vec![(10, 12)])),
        "seen diagonally from 8,10"
    );
    let own = [(10, 11), (12, 12)];
    assert!(
        !all.iter().any(|(_, s)| s.iter().any(|x| own.contains(x))),
        "{all:?}"
    );
}

#[test]
fn a_shot_leaves_the_shooter_where_it_stepped_and_removes_only_its_target() {
    let r = lab();
    let p = lab_position(B, &[("BOW", B, 9, 9), ("P", W, 10, 13)]);
    let m = *moves_at(r, &p, 9, 9)
        .iter()
        .find(|m| m.shots().count() == 1)
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(10, 13)]);
    assert!(m.captures());
    make_unmake(&p, &m, |q| {
        assert_eq!(at(q, 10, 10).as_deref(), Some("BOW"));
        assert_eq!(at(q, 9, 9), None);
        assert_eq!(at(q, 10, 13), None);
    });
    // Written with `!` before the square shot, after where the piece ends; read back.
    let text = notation::move_string(r, &p, &m);
    let (to, shot) = (
        r.dims().square_name(m.to),
        r.dims().square_name(sq(r, 10, 13)),
    );
    assert!(text.ends_with(&format!("-{to}!{shot}")), "{text}");
    assert_eq!(notation::parse_move(r, &p, &text).unwrap(), m);
    // Without the shot, the same text means the plain step.
    let plain = text.split('!').next().unwrap();
    let step = notation::parse_move(r, &p, plain).unwrap();
    assert_eq!(step.shots().count(), 0);
    assert_eq!(step.to, m.to);
}

#[test]
fn immune_kinds_cannot_be_shot_and_still_block_the_line() {
    // A shield (immune to the bow) two squares away hides the pawn behind it.
    let p = lab_position(
        B,
        &[
            ("BOW", B, 9, 9),
            ("SH", W, 10, 12),
            ("P", W, 10, 13),
            ("P", W, 12, 12),
        ],
    );
    let all = shot_moves(&p, 9, 9);
    assert!(
        !all.iter().any(|(_, s)| s.contains(&(10, 12))),
        "the shield is immune"
    );
    assert!(
        !all.iter().any(|(_, s)| s.contains(&(10, 13))),
        "behind the shield"
    );
    assert!(
        all.contains(&((10, 10), vec![(12, 12)])),
        "the diagonal is open"
    );
    // The cannon may shoot the shield (not in its list).
    let p = lab_position(B, &[("CN", B, 9, 9), ("SH", W, 10, 12)]);
    assert!(shot_moves(&p, 9, 9).contains(&((10, 10), vec![(10, 12)])));
}

#[test]
fn a_cannon_shoots_over_pieces_except_the_kinds_that_stop_it() {
    // Over a friend and an enemy to a pawn five squares up; not six.
    let p = lab_position(
        B,
        &[
            ("CN", B, 9, 9),
            ("P", B, 10, 11),
            ("P", W, 10, 12),
            ("P", W, 10, 15),
            ("P", W, 10, 16),
        ],
    );
    let all = shot_moves(&p, 9, 9);
    assert!(all.contains(&((10, 10), vec![(10, 12)])));
    assert!(all.contains(&((10, 10), vec![(10, 15)])));
    assert!(!all.iter().any(|(_, s)| s.contains(&(10, 16))), "range 5");
    assert!(
        !all.iter().any(|(_, s)| s.contains(&(10, 11))),
        "not its own"
    );
    // A wall (of either side) stops the cannon's shot: it can be neither shot nor passed.
    for side in [B, W] {
        let p = lab_position(
            B,
            &[("CN", B, 9, 9), ("WA", side, 10, 12), ("P", W, 10, 14)],
        );
        let all = shot_moves(&p, 9, 9);
        assert!(!all.iter().any(|(_, s)| !s.is_empty()), "{all:?}");
    }
}

#[test]
fn two_shots_may_hit_a_piece_behind_the_first_and_each_result_is_one_move() {
    let r = lab();
    let p = lab_position(
        B,
        &[
            ("FC", B, 9, 9),
            ("P", W, 10, 12),
            ("P", W, 10, 14),
            ("P", W, 12, 10),
        ],
    );
    let all = shot_moves(&p, 9, 9);
    let from = (10, 10);
    // One shot, or two: behind the first on the same line, or in another direction.
    assert!(all.contains(&(from, vec![(10, 12)])));
    assert!(
        !all.contains(&(from, vec![(10, 14)])),
        "hidden until the first is shot"
    );
    let two: Vec<_> = all
        .iter()
        .filter(|(d, s)| *d == from && s.len() == 2)
        .map(|(_, s)| s.iter().copied().collect::<BTreeSet<_>>())
        .collect();
    // Shooting 12,10 first and 10,12 second is the same result as the other order: one move.
    // 10,14 and 12,10 cannot both go: 10,12 hides 10,14 unless it is shot.
    let expected: Vec<BTreeSet<(i32, i32)>> =
        vec![[(10, 12), (10, 14)].into(), [(10, 12), (12, 10)].into()];
    for e in &expected {
        assert_eq!(
            two.iter().filter(|s| *s == e).count(),
            1,
            "{e:?} once: {two:?}"
        );
    }
    assert_eq!(two.len(), 2);
    let m = *moves_at(r, &p, 9, 9)
        .iter()
        .find(|m| shots(m) == vec![(10, 12), (10, 14)])
        .unwrap();
    make_unmake(&p, &m, |q| {
        assert_eq!(at(q, 10, 12), None);
        assert_eq!(at(q, 10, 14), None);
        assert_eq!(at(q, 12, 10).as_deref(), Some("P"));
    });
    let text = notation::move_string(r, &p, &m);
    assert_eq!(text.matches('!').count(), 2, "{text}");
    assert_eq!(notation::parse_move(r, &p, &text).unwrap(), m);
}

#[test]
fn cannot_capture_keeps_a_kind_safe_from_displacement_and_it_blocks() {
    let p = lab_position(B, &[("CH", B, 5, 5), ("WA", W, 5, 8), ("P", W, 8, 5)]);
    let d = rel(lab(), &p, 5, 5);
    assert!(d.contains(&(0, 2)) && !d.contains(&(0, 3)) && !d.contains(&(0, 4)));
    assert!(d.contains(&(3, 0)), "a pawn is fair game");
}

#[test]
fn captures_only_limits_displacement_to_the_kinds_listed_not_shots() {
    let r = lab();
    let p = lab_position(
        B,
        &[
            ("PR", B, 9, 9),
            ("PR", W, 9, 11),
            ("P", W, 11, 11),
            ("P", W, 12, 10),
        ],
    );
    let all = shot_moves(&p, 9, 9);
    assert!(
        all.contains(&((9, 11), vec![])),
        "takes the enemy priest by moving"
    );
    assert!(!all.iter().any(|(d, _)| *d == (11, 11)), "not the pawn");
    // Jumping to 11,9 it may shoot the pawn next to it (11,10? no: 12,10 is adjacent).
    assert!(all.contains(&((11, 9), vec![(12, 10)])), "{all:?}");
    // From 9,11 (on the priest) no shot follows: the shot legs follow a move-only jump.
    assert!(!all.iter().any(|(d, s)| *d == (9, 11) && !s.is_empty()));
    let m = *moves_at(r, &p, 9, 9)
        .iter()
        .find(|m| xy(m) == (11, 9) && !shots(m).is_empty())
        .unwrap();
    make_unmake(&p, &m, |q| {
        assert_eq!(at(q, 11, 9).as_deref(), Some("PR"));
        assert_eq!(at(q, 12, 10), None);
    });
}

#[test]
fn a_shot_without_moving_first_keeps_the_piece_on_its_square() {
    let r = lab();
    let p = lab_position(B, &[("TW", B, 4, 4), ("P", W, 4, 7), ("P", W, 4, 8)]);
    let all = shot_moves(&p, 4, 4);
    assert_eq!(all, [((4, 4), vec![(4, 7)])].into());
    let m = moves_at(r, &p, 4, 4)[0];
    assert_eq!(m.from, m.to);
    let text = notation::move_string(r, &p, &m);
    let (a, b) = (
        r.dims().square_name(m.from),
        r.dims().square_name(sq(r, 4, 7)),
    );
    assert_eq!(text, format!("TW{a}-{a}!{b}"));
    assert_eq!(notation::parse_move(r, &p, &text).unwrap(), m);
    assert_eq!(notation::parse_move(r, &p, &format!("{a}!{b}")).unwrap(), m);
    make_unmake(&p, &m, |q| {
        assert_eq!(at(q, 4, 4).as_deref(), Some("TW"));
        assert_eq!(at(q, 4, 7), None);
        assert_eq!(at(q, 4, 8).as_deref(), Some("P"));
    });
    // At the board's edge nothing to shoot beyond it.
    let p = lab_position(B, &[("TW", B, 18, 4)]);
    assert!(shot_moves(&p, 18, 4).is_empty());
}

#[test]
fn a_move_is_still_24_bytes() {
    assert_eq!(std::mem::size_of::<Move>(), 24);
}

#[test]
fn the_board_marks_a_shot_target_apart_from_a_capture() {
    use taikyoku_core::reach::{mark, reach};
    let r = lab();
    let p = lab_position(B, &[("BOW", B, 9, 9), ("P", W, 10, 13)]);
    let moves = r.moves_from_all_paths(&p, sq(r, 9, 9));
    let marks = reach(r, &p, &moves, 0);
    let flags = |x, y| {
        marks
            .iter()
            .filter(|m| m.0 == sq(r, x, y))
            .fold(0, |f, m| f | m.1)
    };
    assert_eq!(
        flags(10, 13),
        mark::SHOT,
        "shot, never a stop or a capture there"
    );
    assert_eq!(flags(10, 10) & mark::QUIET, mark::QUIET);
}

#[test]
fn a_card_says_what_a_piece_shoots_and_how_far() {
    use taikyoku_core::explain::Movement;
    let r = lab();
    let words = |code: &str| Movement::of(r, r.catalogue().by_code(code).unwrap());
    let bow = words("BOW");
    let shot = bow.words.iter().find(|w| w.starts_with("shoots")).unwrap();
    assert!(shot.contains("one enemy piece after moving"), "{shot}");
    assert!(
        shot.contains("up to 3 squares in every direction"),
        "{shot}"
    );
    assert!(!shot.contains("over pieces"), "{shot}");
    assert!(bow.captures.contains("by shooting"), "{}", bow.captures);
    assert!(!bow.captures.contains("moving onto"), "{}", bow.captures);
    let cannon = words("CN");
    assert!(cannon.words.iter().any(|w| w.contains("over pieces")));
    let fc = words("FC");
    assert!(fc.words.iter().any(|w| w.contains("up to 2 enemy pieces")));
    let tower = words("TW");
    let shot = tower
        .words
        .iter()
        .find(|w| w.starts_with("shoots"))
        .unwrap();
    assert!(
        shot.contains("where it stands") && shot.contains("orthogonally"),
        "{shot}"
    );
}

#[test]
fn moves_json_lists_shots_apart_from_the_path() {
    let r = lab();
    let p = lab_position(B, &[("FC", B, 9, 9), ("P", W, 10, 12), ("P", W, 10, 14)]);
    let v = lab_moves_json(r, &p);
    let two = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["shots"].as_array().unwrap().len() == 2)
        .unwrap();
    assert_eq!(two["to"], serde_json::json!([10, 10]));
    assert_eq!(two["shots"], serde_json::json!([[10, 12], [10, 14]]));
    assert_eq!(two["path"], serde_json::json!([]));
    assert_eq!(two["captures"].as_array().unwrap().len(), 2);
    assert!(two["notation"].as_str().unwrap().contains('!'));
}

/// The sets of squares each move of the piece on (x, y) removes, with its destination.
fn results(p: &Position, x: i32, y: i32) -> Vec<Shooting> {
    moves_at(lab(), p, x, y)
        .iter()
        .map(|m| (xy(m), caps(lab(), p, m)))
        .collect()
}

#[test]
fn a_burning_piece_removes_every_piece_next_to_where_it_lands_of_both_sides() {
    let r = lab();
    let p = lab_position(
        B,
        &[
            ("FL", B, 9, 9),
            ("P", W, 10, 11),
            ("P", B, 8, 10),
            ("P", W, 9, 12),
            ("P", W, 10, 8),
        ],
    );
    let m = *moves_at(r, &p, 9, 9)
        .iter()
        .find(|m| xy(m) == (9, 10))
        .unwrap();
    let burnt: Vec<_> = m.burnt(r.dims()).map(|s| r.dims().xy(s)).collect();
    assert_eq!(
        burnt,
        vec![(8, 10), (10, 11)],
        "not its own start, nor 9,12 or 10,8"
    );
    assert_eq!(caps(r, &p, &m), vec![(8, 10), (10, 11)]);
    make_unmake(&p, &m, |q| {
        assert_eq!(at(q, 9, 10).as_deref(), Some("FL"));
        for (x, y) in [(8, 10), (10, 11)] {
            assert_eq!(at(q, x, y), None);
        }
        assert_eq!(at(q, 9, 12).as_deref(), Some("P"));
    });
    // Capturing too: the piece taken and its neighbours.
    let p = lab_position(B, &[("FL", B, 9, 9), ("P", W, 9, 10), ("P", W, 9, 11)]);
    let m = *moves_at(r, &p, 9, 9)
        .iter()
        .find(|m| xy(m) == (9, 10))
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(9, 10), (9, 11)]);
    // At the edge only the neighbours on the board.
    let p = lab_position(B, &[("FL", B, 0, 17), ("P", W, 1, 18)]);
    let m = *moves_at(r, &p, 0, 17)
        .iter()
        .find(|m| xy(m) == (0, 18))
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(1, 18)]);
    // The board marks them, and moves --json lists them.
    let marks = taikyoku_core::reach::reach(r, &p, &[m], 0);
    assert!(marks.contains(&(sq(r, 1, 18), taikyoku_core::reach::mark::BURNT)));
    let v = lab_moves_json(r, &p);
    let burning = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["to"] == serde_json::json!([0, 18]))
        .unwrap();
    assert_eq!(burning["burnt"], serde_json::json!([[1, 18]]));
}

#[test]
fn exactly_five_steps_turning_freely_capture_on_every_step_one_move_per_result() {
    let p = lab_position(B, &[("TH", B, 9, 9)]);
    let d = rel(lab(), &p, 9, 9);
    // Odd distances only, up to five: 4 + 12 + 20 squares, each once.
    assert!(
        d.iter()
            .all(|&(x, y)| (x.abs() + y.abs()) % 2 == 1 && x.abs() + y.abs() <= 5)
    );
    assert_eq!(d.len(), 36);
    assert_eq!(
        moves_at(lab(), &p, 9, 9).len(),
        36,
        "one move per destination"
    );
    // Two enemies on its way: one move takes both and ends beyond; results are never repeated.
    let p = lab_position(
        B,
        &[
            ("TH", B, 9, 9),
            ("P", W, 9, 10),
            ("P", W, 9, 11),
            ("P", B, 8, 9),
        ],
    );
    let all = results(&p, 9, 9);
    let unique: BTreeSet<_> = all.iter().cloned().collect();
    assert_eq!(unique.len(), all.len(), "no duplicate results");
    assert!(all.contains(&((9, 14), vec![(9, 10), (9, 11)])));
    assert!(
        !all.iter().any(|(_, c)| c.contains(&(8, 9))),
        "never its own piece"
    );
    assert!(!all.iter().any(|(d, _)| *d == (8, 9)));
}

#[test]
fn up_to_five_straight_steps_capture_every_enemy_and_stop_at_a_friend() {
    let p = lab_position(
        B,
        &[
            ("FW", B, 9, 9),
            ("P", W, 9, 11),
            ("P", W, 9, 12),
            ("P", B, 9, 13),
        ],
    );
    let all = results(&p, 9, 9);
    let up: BTreeSet<_> = all
        .iter()
        .filter(|(d, _)| d.0 == 9 && d.1 > 9)
        .cloned()
        .collect();
    let expected: BTreeSet<_> = [
        ((9, 10), vec![]),
        ((9, 11), vec![(9, 11)]),
        ((9, 12), vec![(9, 11), (9, 12)]),
    ]
    .into();
    assert_eq!(up, expected);
    // Open lines: five squares each way, no turn.
    let p = lab_position(B, &[("FW", B, 9, 9)]);
    let d = rel(lab(), &p, 9, 9);
    assert_eq!(d.len(), 20);
    assert!(d.iter().all(|&(x, y)| x == 0 || y == 0));
}

#[test]
fn a_cavalry_jumps_twice_in_the_same_orthogonal_sense_or_back() {
    let p = lab_position(B, &[("CV", B, 9, 9)]);
    let d = rel(lab(), &p, 9, 9);
    let singles = [
        (1, 2),
        (-1, 2),
        (1, -2),
        (-1, -2),
        (2, 1),
        (-2, 1),
        (2, -1),
        (-2, -1),
    ];
    let doubles = [
        (2, 4),
        (0, 4),
        (-2, 4),
        (2, -4),
        (0, -4),
        (-2, -4),
        (4, 2),
        (4, 0),
        (4, -2),
        (-4, 2),
        (-4, 0),
        (-4, -2),
    ];
    let mut expected = set(&singles);
    expected.extend(doubles);
    expected.insert((0, 0));
    assert_eq!(d, expected, "no (1,2) then (2,1): not the same sense");
    // Igui: out onto an enemy and back.
    let p = lab_position(B, &[("CV", B, 9, 9), ("P", W, 10, 11)]);
    assert!(results(&p, 9, 9).contains(&((9, 9), vec![(10, 11)])));
    // A friend on the first square: neither a stop nor a way back.
    let p = lab_position(B, &[("CV", B, 9, 9), ("P", B, 10, 11)]);
    let all = results(&p, 9, 9);
    assert!(!all.iter().any(|(d, _)| *d == (11, 13)), "{all:?}");
    assert!(
        all.iter().any(|(d, _)| *d == (9, 9)),
        "back through another square"
    );
}

#[test]
fn a_net_freezes_the_first_enemy_on_each_line_it_ranges_along() {
    let r = lab();
    let none = |p: &Position, x, y| moves_at(r, p, x, y).is_empty();
    // Sideways (sR) and forward diagonals (fB) are its ranging lines; forward is not.
    let p = lab_position(
        W,
        &[
            ("NET", B, 9, 9),
            ("P", W, 12, 9),
            ("P", W, 13, 9),
            ("P", W, 11, 11),
            ("P", W, 9, 12),
            ("P", W, 7, 7),
        ],
    );
    assert!(none(&p, 12, 9), "first on the line to its right");
    assert!(!none(&p, 13, 9), "behind the first");
    assert!(none(&p, 11, 11), "on a forward diagonal");
    assert!(!none(&p, 9, 12), "straight ahead is no ranging line");
    assert!(!none(&p, 7, 7), "a backward diagonal neither");
    // A piece between shields it; its own side's pieces are never frozen.
    let p = lab_position(W, &[("NET", B, 9, 9), ("P", B, 10, 9), ("P", W, 12, 9)]);
    assert!(!none(&p, 12, 9));
    assert!(!none(&p, 10, 9));
    // It is recomputed after every move: the net steps back, the pawn is free.
    let p = lab_position(B, &[("NET", B, 9, 9), ("P", W, 12, 9)]);
    let back = *moves_at(r, &p, 9, 9)
        .iter()
        .find(|m| xy(m) == (9, 8))
        .unwrap();
    let mut q = p.clone();
    r.play_unchecked(&mut q, &back);
    assert!(!none(&q, 12, 9));
    check_incremental(&p, &back);
}

#[test]
fn a_fog_keeps_enemy_shooters_within_five_squares_from_shooting() {
    let r = lab();
    let shoots = |p: &Position, x, y| moves_at(r, p, x, y).iter().any(|m| m.shots().count() > 0);
    let p = lab_position(B, &[("BOW", B, 9, 9), ("P", W, 10, 12), ("FOG", W, 14, 14)]);
    assert!(!shoots(&p, 9, 9), "the fog is five squares away");
    assert!(!moves_at(r, &p, 9, 9).is_empty(), "it still steps");
    let p = lab_position(B, &[("BOW", B, 9, 9), ("P", W, 10, 12), ("FOG", W, 13, 14)]);
    assert!(!shoots(&p, 9, 9), "in the square, off the fog's lines");
    let p = lab_position(B, &[("BOW", B, 9, 9), ("P", W, 10, 12), ("FOG", W, 15, 14)]);
    assert!(shoots(&p, 9, 9), "six squares away");
    let p = lab_position(B, &[("BOW", B, 9, 9), ("P", W, 10, 12), ("FOG", B, 12, 12)]);
    assert!(shoots(&p, 9, 9), "its own side's fog");
    // The priest family shoots in a fog.
    let p = lab_position(B, &[("PR", B, 9, 9), ("P", W, 12, 10), ("FOG", W, 11, 13)]);
    assert!(shoots(&p, 9, 9));
    // The fog moving into reach: incremental generation sees it.
    let p = lab_position(W, &[("BOW", B, 9, 9), ("P", W, 10, 12), ("FOG", W, 15, 15)]);
    let near = *moves_at(r, &p, 15, 15)
        .iter()
        .find(|m| xy(m) == (13, 13))
        .unwrap();
    check_incremental(&p, &near);
    let mut q = p.clone();
    r.play_unchecked(&mut q, &near);
    assert!(!shoots(&q, 9, 9));
}

/// Incremental generation after `m` agrees with generating afresh (auras read far away).
fn check_incremental(p: &Position, m: &Move) {
    let r = lab();
    let mut cache = taikyoku_core::movecache::MoveCache::new();
    cache.build(r, p, p.to_move().opponent());
    let mut q = p.clone();
    let undo = r.make(&mut q, m);
    let mut after = Vec::new();
    cache.moves_after(r, &q, m, &mut after);
    assert_eq!(after, r.legal_moves(&q));
    assert_eq!(cache.count_after(r, &q, m), after.len() as u64);
    r.unmake(&mut q, undo);
}

#[test]
fn a_friend_lame_jump_is_blocked_by_its_own_piece_only_and_on_its_first_leg_only() {
    let r = lab();
    // Its own pawn in front, an enemy pawn to its right, nothing to its left or behind.
    let p = lab_position(B, &[("JM", B, 9, 9), ("P", B, 9, 10), ("P", W, 10, 9)]);
    let ends = dests(r, &p, 9, 9);
    // Forward: the own pawn blocks the jump, and the double moves through it (the squares
    // beside (9, 11) are still reached by way of (7, 9) and (11, 9)).
    assert!(!ends.contains(&(9, 11)) && !ends.contains(&(9, 13)));
    let through = |m: &Move| path(r, m).contains(&(9, 11));
    assert!(!moves_at(r, &p, 9, 9).iter().any(through));
    // Right: the enemy is leaped, not taken; left and back are free.
    for end in [(11, 9), (7, 9), (9, 7), (13, 9), (11, 11), (11, 7)] {
        assert!(ends.contains(&end), "{end:?}");
    }
    let right = moves_at(r, &p, 9, 9)
        .into_iter()
        .find(|m| xy(m) == (11, 9))
        .unwrap();
    assert!(caps(r, &p, &right).is_empty());
    // The second leg's jump leaps anything: out to the left, then forward over an own pawn
    // (the way through (9, 11) is shut by the pawn in front).
    let q = lab_position(B, &[("JM", B, 9, 9), ("P", B, 9, 10), ("P", B, 7, 10)]);
    let two = moves_at(r, &q, 9, 9)
        .into_iter()
        .filter(|m| xy(m) == (7, 11))
        .collect::<Vec<_>>();
    assert_eq!(two.len(), 1);
    assert_eq!(path(r, &two[0]), [(7, 9)]);
    // An own piece on the first landing square is no stop (nor capture); an enemy one is.
    let c = lab_position(B, &[("JM", B, 9, 9), ("P", B, 11, 9), ("P", W, 9, 11)]);
    let ends = dests(r, &c, 9, 9);
    assert!(!ends.contains(&(11, 9)) && !ends.contains(&(13, 9)));
    assert!(ends.contains(&(9, 11)) && ends.contains(&(9, 13)));
}

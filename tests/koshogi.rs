//! Kō shōgi, the third built-in game: its data (catalogue, setup, board), its game-level rules
//! (promotion in the 6-rank camp, the end rule) on hand-built positions, and perft from the
//! opening as regression numbers.

mod common;

use common::{B, W, ko, position, sq};
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::perft;
use taikyoku_core::position::{EndReason, Outcome, Position};
use taikyoku_core::rules::Rules;

#[test]
fn the_board_setup_and_catalogue_come_from_the_data() {
    let r = ko("standard");
    assert_eq!((r.dims().files, r.dims().ranks), (19, 19));
    assert_eq!(r.game.name, "Ko shogi");
    let p = r.start_position();
    assert_eq!(p.pieces().filter(|(_, p)| p.side == B).count(), 90);
    assert_eq!(p.pieces().filter(|(_, p)| p.side == W).count(), 90);
    let setup_kinds = r.catalogue().kinds.iter().filter(|k| k.count > 0).count();
    assert_eq!((setup_kinds, r.catalogue().len()), (34, 57));
    let code = |x, y| {
        let piece = p.piece_at(sq(r, x, y)).unwrap();
        (r.catalogue().kind(piece.kind).code.as_str(), piece.side)
    };
    // Black's general on its back rank, middle file; the vanguard alone on rank 7; the
    // advance guard behind the rear guard in the corners; White's the same turned round.
    assert_eq!(code(9, 0), ("GE", B));
    assert_eq!(code(9, 6), ("VG", B));
    assert_eq!([code(0, 0), code(0, 1)], [("AG", B), ("RG", B)]);
    assert_eq!([code(1, 0), code(17, 0)], [("SM", B), ("TP", B)]);
    assert_eq!(code(9, 18), ("GE", W));
    assert_eq!(code(1, 18), ("TP", W));
    // Rank 5: patrol units on files 2, 10 and 18 (counted from Black's left).
    assert_eq!([code(1, 4).0, code(9, 4).0, code(17, 4).0], ["PU"; 3]);
}

#[test]
fn a_side_survives_with_its_general_a_governor_or_middle_troop_and_banner() {
    let r = ko("standard");
    let lone = |pieces: &[(&str, Side, i32, i32)]| {
        let mut all = pieces.to_vec();
        all.push(("GE", W, 18, 18));
        position(r, B, &all).outcome()
    };
    let lost = Some(Outcome {
        winner: W,
        reason: EndReason::RoyalsCaptured,
    });
    assert_eq!(lone(&[("GE", B, 0, 0)]), None);
    assert_eq!(lone(&[("+GV", B, 0, 0)]), None);
    assert_eq!(lone(&[("MT", B, 0, 0), ("BN", B, 1, 0)]), None);
    assert_eq!(lone(&[("MT", B, 0, 0)]), lost);
    assert_eq!(lone(&[("BN", B, 0, 0), ("DR", B, 2, 0)]), lost);
    // A promoted banner is a flag waver, no longer a banner.
    assert_eq!(lone(&[("MT", B, 0, 0), ("+FW", B, 1, 0)]), lost);
}

#[test]
fn capturing_the_general_without_a_governor_ends_the_game() {
    let r = ko("standard");
    let mut p = position(
        r,
        B,
        &[
            ("GE", B, 0, 0),
            ("CH", B, 5, 5),
            ("GE", W, 5, 9),
            ("MT", W, 0, 18),
        ],
    );
    let m = r
        .moves_from(&p, sq(r, 5, 5))
        .into_iter()
        .find(|m| m.to == sq(r, 5, 9))
        .unwrap();
    r.play(&mut p, &m).unwrap();
    assert_eq!(p.outcome().map(|o| o.winner), Some(B));
}

#[test]
fn perft_from_the_opening() {
    // Regression numbers with every mechanic in (depth 3 below, ignored: it is slow in debug). Before shots:
    // 222, 49 178, 10 986 877; with shots, before double moves: 222, 49 180, 10 987 759.
    let r = ko("standard");
    let p = r.start_position();
    assert_eq!(perft::perft(r, &p, 1), 224);
    assert_eq!(perft::perft(r, &p, 2), 50_072);
    // Making and unmaking every leaf counts the same.
    assert_eq!(perft::perft_no_bulk(r, &p, 2), 50_072);
    // Shooting without moving first adds moves from the second ply on.
    let st = ko("stationary");
    assert_eq!(perft::perft(st, &st.start_position(), 2), 50_074);
    // Optional promotion: a chariot unit can take the enemy's in its camp, promoting or not.
    let opt = ko("optional");
    assert_eq!(perft::perft(opt, &opt.start_position(), 1), 226);
}

// ---------------------------------------------------------------------------------------------
// Game-level rules (src/effects.rs) on hand-built positions. Coordinates are (x, y) from
// Black's left and Black's back rank; Black's camp (promotion zone) is y >= 13, White's y <= 5.

type Spec<'a> = (&'a str, Side, i32, i32);

/// A position with `pieces` and a general for each side (Black's on (0, 0), White's on
/// (18, 18)), so that the game is on.
fn game(r: &Rules, to_move: Side, pieces: &[Spec]) -> Position {
    let mut all = pieces.to_vec();
    all.push(("GE", B, 0, 0));
    all.push(("GE", W, 18, 18));
    position(r, to_move, &all)
}

/// The moves of the piece on `from` that end on `to`.
fn moves(r: &Rules, p: &Position, from: (i32, i32), to: (i32, i32)) -> Vec<Move> {
    r.moves_from(p, sq(r, from.0, from.1))
        .into_iter()
        .filter(|m| m.to == sq(r, to.0, to.1))
        .collect()
}

/// Whether each move from `from` to `to` promotes, in order.
fn promotions(r: &Rules, p: &Position, from: (i32, i32), to: (i32, i32)) -> Vec<bool> {
    moves(r, p, from, to).iter().map(|m| m.promotes()).collect()
}

/// Plays the move from `from` to `to` that promotes (or not), checking that make/unmake
/// restores the position exactly; returns the undo-checked position after it.
fn play(r: &Rules, p: &mut Position, from: (i32, i32), to: (i32, i32), promotes: bool) {
    let m = moves(r, p, from, to)
        .into_iter()
        .find(|m| m.promotes() == promotes)
        .unwrap_or_else(|| panic!("no move {from:?}-{to:?} promoting {promotes}"));
    let before = p.clone();
    let undo = r.make(p, &m);
    assert!(r.is_consistent(p));
    r.unmake(p, undo);
    assert_eq!(*p, before);
    assert_eq!(p.hash(), before.hash());
    assert!(r.is_consistent(p));
    r.play(p, &m).unwrap();
}

/// The piece on (x, y): its code, side and promoted flag.
fn at(r: &Rules, p: &Position, x: i32, y: i32) -> Option<(String, Side, bool)> {
    p.piece_at(sq(r, x, y))
        .map(|q| (r.catalogue().kind(q.kind).code.clone(), q.side, q.promoted))
}

fn piece(code: &str, side: Side, promoted: bool) -> Option<(String, Side, bool)> {
    Some((code.to_string(), side, promoted))
}

#[test]
fn entering_the_camp_promotes_compulsorily_or_optionally_by_rule_set() {
    let pieces = [
        ("CH", B, 4, 10),
        ("CH", B, 6, 14),
        ("SW", B, 8, 12),
        ("EL", B, 11, 10),
    ];
    let std = ko("standard");
    let p = game(std, B, &pieces);
    assert_eq!(promotions(std, &p, (4, 10), (4, 13)), [true]);
    assert_eq!(promotions(std, &p, (4, 10), (4, 12)), [false]);
    // Starting in the camp counts too (`from_zone`).
    assert_eq!(promotions(std, &p, (6, 14), (6, 9)), [true]);
    // The sumo wrestler and the elephant never promote.
    assert_eq!(promotions(std, &p, (8, 12), (8, 14)), [false]);
    assert_eq!(promotions(std, &p, (11, 10), (14, 13)), [false]);
    let opt = ko("optional");
    let p = game(opt, B, &pieces);
    assert_eq!(promotions(opt, &p, (4, 10), (4, 13)), [false, true]);
    assert_eq!(promotions(opt, &p, (4, 10), (4, 12)), [false]);
    // White's camp is Black's first six ranks.
    let p = game(std, W, &[("CH", W, 4, 8)]);
    assert_eq!(promotions(std, &p, (4, 8), (4, 5)), [true]);
    assert_eq!(promotions(std, &p, (4, 8), (4, 6)), [false]);
}

#[test]
fn a_promoted_piece_promotes_again_only_under_the_chained_rule_set() {
    let pieces = [("+CU", B, 4, 10), ("CH", B, 8, 10), ("+PU", B, 12, 12)];
    let std = ko("standard");
    let p = game(std, B, &pieces);
    assert_eq!(promotions(std, &p, (4, 10), (4, 13)), [false]);
    assert_eq!(promotions(std, &p, (12, 12), (12, 15)), [false]);
    let chained = ko("chained");
    let mut p = game(chained, B, &pieces);
    assert_eq!(promotions(chained, &p, (4, 10), (4, 13)), [true]);
    play(chained, &mut p, (4, 10), (4, 13), true);
    assert_eq!(at(chained, &p, 4, 13), piece("ML", B, true));
    // One step of the chain per move: the chariot becomes a chariot unit, not a millenary.
    play(chained, &mut p, (18, 18), (18, 17), false);
    play(chained, &mut p, (8, 10), (8, 13), true);
    assert_eq!(at(chained, &p, 8, 13), piece("CU", B, true));
}

#[test]
fn the_strict_rule_set_keeps_the_cavalryman_and_guards_out_of_zone_promotion() {
    let pieces = [("CM", B, 4, 11), ("AG", B, 8, 10), ("FC", W, 6, 12)];
    let strict = ko("strict");
    let p = game(strict, B, &pieces);
    assert_eq!(promotions(strict, &p, (4, 11), (3, 13)), [false]);
    assert_eq!(promotions(strict, &p, (8, 10), (8, 15)), [false]);
    // Its own trigger still promotes it.
    assert_eq!(promotions(strict, &p, (4, 11), (6, 12)), [true]);
    let std = ko("standard");
    let p = game(std, B, &pieces);
    assert_eq!(promotions(std, &p, (4, 11), (3, 13)), [true]);
    assert_eq!(promotions(std, &p, (8, 10), (8, 15)), [true]);
}

#[test]
fn capturing_the_general_middle_troop_banner_or_drum_promotes_the_capturer() {
    let r = ko("standard");
    let mut p = game(
        r,
        B,
        &[
            ("CH", B, 4, 4),
            ("DR", W, 4, 7),
            ("CH", B, 6, 4),
            ("SH", W, 6, 7),
            ("TP", W, 15, 15),
        ],
    );
    // Outside the camp: the capture alone promotes; another capture does not.
    assert_eq!(promotions(r, &p, (4, 4), (4, 7)), [true]);
    assert_eq!(promotions(r, &p, (6, 4), (6, 7)), [false]);
    let m = moves(r, &p, (4, 4), (4, 7))[0];
    assert!(
        taikyoku_core::notation::move_string(r, &p, &m).ends_with('+'),
        "{}",
        taikyoku_core::notation::move_string(r, &p, &m)
    );
    play(r, &mut p, (4, 4), (4, 7), true);
    assert_eq!(at(r, &p, 4, 7), piece("CU", B, true));
    // The general does not promote; a promoted piece does not promote again.
    let p = game(
        r,
        B,
        &[
            ("GE", B, 9, 9),
            ("MT", W, 9, 10),
            ("+CU", B, 2, 4),
            ("BN", W, 2, 8),
            ("CU", B, 12, 4),
            ("MT", W, 12, 8),
        ],
    );
    assert_eq!(promotions(r, &p, (9, 9), (9, 10)), [false]);
    assert_eq!(promotions(r, &p, (2, 4), (2, 8)), [false]);
    assert_eq!(promotions(r, &p, (12, 4), (12, 8)), [true]);
    // Under optional promotion a capture-triggered promotion in the camp stays compulsory:
    // one move, not a choice.
    let opt = ko("optional");
    let p = game(opt, B, &[("CH", B, 4, 10), ("DR", W, 4, 14)]);
    assert_eq!(promotions(opt, &p, (4, 10), (4, 14)), [true]);
}

#[test]
fn only_one_step_pieces_promote_by_capturing_a_wrestler_dragon_flag_waver_or_thunderclap() {
    let r = ko("standard");
    let p = game(
        r,
        B,
        &[
            ("P", B, 2, 4),
            ("SW", W, 2, 5),
            ("CH", B, 5, 2),
            ("SW", W, 5, 5),
            ("SH", B, 8, 4),
            ("+TC", W, 9, 5),
            ("LB", B, 12, 4),
            ("+DA", W, 11, 5),
            ("DR", B, 14, 4),
            ("+FW", W, 15, 5),
            ("TP", B, 17, 1),
        ],
    );
    assert_eq!(promotions(r, &p, (2, 4), (2, 5)), [true]);
    assert_eq!(promotions(r, &p, (5, 2), (5, 5)), [false]);
    assert_eq!(promotions(r, &p, (8, 4), (9, 5)), [true]);
    assert_eq!(promotions(r, &p, (14, 4), (15, 5)), [true]);
    // The longbow is on the list, but moves only to empty points until it can shoot.
    assert!(moves(r, &p, (12, 4), (11, 5)).is_empty());
}

#[test]
fn a_cavalryman_promotes_by_capturing_the_frankish_cannon() {
    let r = ko("standard");
    let mut p = game(
        r,
        B,
        &[
            ("CM", B, 4, 4),
            ("FC", W, 5, 6),
            ("SH", B, 8, 5),
            ("FC", W, 9, 6),
        ],
    );
    assert_eq!(promotions(r, &p, (4, 4), (5, 6)), [true]);
    // (A shield: the pawn has no forward step without its drum.)
    assert_eq!(promotions(r, &p, (8, 5), (9, 6)), [false]);
    play(r, &mut p, (4, 4), (5, 6), true);
    assert_eq!(at(r, &p, 5, 6), piece("CV", B, true));
}

#[test]
fn the_clerks_promotion_promotes_its_guards_and_kills_the_enemy_flames() {
    let pieces = [
        ("CL", B, 4, 12),
        ("AG", B, 1, 1),
        ("RG", B, 2, 1),
        ("+SN", B, 3, 1),
        ("AG", W, 5, 17),
        ("+PF", W, 10, 10),
        ("PF", W, 12, 9),
        ("+PF", B, 14, 2),
    ];
    let r = ko("standard");
    let mut p = game(r, B, &pieces);
    play(r, &mut p, (4, 12), (5, 13), true);
    assert_eq!(at(r, &p, 5, 13), piece("MA", B, true));
    assert_eq!(at(r, &p, 1, 1), piece("SN", B, true));
    assert_eq!(at(r, &p, 2, 1), piece("EN", B, true));
    assert_eq!(at(r, &p, 3, 1), piece("SN", B, true));
    // The enemy's guards stay; the enemy's flames die, one's own stay.
    assert_eq!(at(r, &p, 5, 17), piece("AG", W, false));
    assert_eq!(at(r, &p, 10, 10), None);
    assert_eq!(at(r, &p, 12, 9), None);
    assert_eq!(at(r, &p, 14, 2), piece("PF", B, true));
    // A clerk that declines an optional promotion links nothing.
    let opt = ko("optional");
    let mut p = game(opt, B, &pieces);
    play(opt, &mut p, (4, 12), (5, 13), false);
    assert_eq!(at(opt, &p, 1, 1), piece("AG", B, false));
    assert_eq!(at(opt, &p, 10, 10), piece("PF", W, true));
}

#[test]
fn a_moves_effects_are_listed_apart_from_its_victims_and_in_moves_json() {
    let r = ko("standard");
    let pieces = [
        ("CL", B, 4, 12),
        ("AG", B, 1, 1),
        ("+PF", W, 10, 10),
        ("PF", W, 12, 9),
        ("P", W, 5, 13),
    ];
    let p = game(r, B, &pieces);
    let clerk = |to: (i32, i32)| moves(r, &p, (4, 12), to)[0];
    // Promoting (taking the pawn as it enters the camp): the guard promotes, the flames die.
    let fx = r.effect_changes(&p, &clerk((5, 13)));
    assert_eq!(r.captures(&p, &clerk((5, 13))), [sq(r, 5, 13)]);
    let mut removed = fx.removed.clone();
    removed.sort();
    assert_eq!(removed, [sq(r, 12, 9), sq(r, 10, 10)]);
    let changed: Vec<_> = fx
        .changed
        .iter()
        .map(|&(s, q)| (s, r.catalogue().kind(q.kind).code.as_str(), q.side))
        .collect();
    assert_eq!(changed, [(sq(r, 1, 1), "SN", B)]);
    // A quiet move outside the camp changes nothing beyond itself; nor does a game without
    // effects.
    assert!(r.effect_changes(&p, &clerk((3, 11))).is_empty());
    let sho = common::sho();
    let start = sho.start_position();
    assert!(
        sho.legal_moves(&start)
            .iter()
            .all(|m| sho.effect_changes(&start, m).is_empty())
    );
    // A reversion is a change: the light coming within 5 points turns the fog back.
    let q = game(r, W, &[("+FOG", B, 4, 4), ("+IL", W, 10, 4)]);
    let m = moves(r, &q, (10, 4), (8, 4))[0];
    let fx = r.effect_changes(&q, &m);
    assert!(fx.removed.is_empty());
    assert_eq!(fx.changed.len(), 1);
    assert_eq!(fx.changed[0].0, sq(r, 4, 4));
    assert_eq!(r.catalogue().kind(fx.changed[0].1.kind).code, "TP");
    // `moves --json` lists them.
    let text = taikyoku_core::notation::position_string(r, &p);
    let out = common::ok(&["--game", "koshogi", "moves", "--json", "--position", &text]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let listed = v["moves"].as_array().unwrap();
    let promoting = listed
        .iter()
        .find(|m| m["from"] == serde_json::json!([4, 12]) && m["to"] == serde_json::json!([5, 13]))
        .unwrap();
    let mut kills: Vec<_> = promoting["removed_by_effects"].as_array().unwrap().clone();
    kills.sort_by_key(|k| k.to_string());
    assert_eq!(
        kills,
        [serde_json::json!([10, 10]), serde_json::json!([12, 9])]
    );
    assert_eq!(
        promoting["changed_by_effects"],
        serde_json::json!([{ "at": [1, 1], "becomes": "SN" }])
    );
    assert_eq!(promoting["captures"], serde_json::json!([[5, 13]]));
    let quiet = listed
        .iter()
        .find(|m| m["from"] == serde_json::json!([4, 12]) && m["to"] == serde_json::json!([3, 11]))
        .unwrap();
    assert_eq!(quiet["removed_by_effects"], serde_json::json!([]));
}

#[test]
fn the_master_at_arms_may_not_leap_its_own_piece_on_its_first_move() {
    let r = ko("standard");
    // Its own pawn in front, an enemy pawn to its right.
    let pieces = [("+MA", B, 9, 9), ("P", B, 9, 10), ("P", W, 10, 9)];
    let p = game(r, B, &pieces);
    let ends = common::dests(r, &p, 9, 9);
    // The jump forward would leap its own pawn: not as a move of its own (two diagonal steps
    // still reach (9, 11)), nor as the first of two ((9, 13) is reached no other way).
    assert!(!ends.contains(&(9, 13)));
    let forward = moves(r, &p, (9, 9), (9, 11));
    assert!(!forward.is_empty() && forward.iter().all(|m| m.path().len() == 1));
    assert!(
        !r.moves_from(&p, sq(r, 9, 9))
            .iter()
            .any(|m| m.path().contains(&sq(r, 9, 11)))
    );
    // The enemy is leaped, not taken, and the move may go on from there.
    assert!(ends.contains(&(11, 9)) && ends.contains(&(13, 9)) && ends.contains(&(11, 11)));
    let right = moves(r, &p, (9, 9), (11, 9));
    assert_eq!(right.len(), 1);
    assert!(r.captures(&p, &right[0]).is_empty());
    // (That its second jump leaps anything is tests/grammar.rs's `~D` test.)
    // The clerk itself leaps anything (FD).
    let c = game(r, B, &[("CL", B, 9, 9), ("P", B, 9, 10)]);
    assert!(common::dests(r, &c, 9, 9).contains(&(9, 11)));
}

#[test]
fn pawns_lose_their_forward_step_once_their_drum_is_dead() {
    let r = ko("standard");
    let forward = |p: &Position| !moves(r, p, (4, 4), (4, 5)).is_empty();
    let others = |p: &Position| {
        [(3, 4), (5, 4), (4, 3)]
            .iter()
            .all(|&to| moves(r, p, (4, 4), to).len() == 1)
    };
    let with = |extra: &[Spec]| {
        let mut pieces = vec![("P", B, 4, 4), ("P", W, 10, 10)];
        pieces.extend_from_slice(extra);
        game(r, B, &pieces)
    };
    let p = with(&[("DR", B, 9, 1)]);
    assert!(forward(&p) && others(&p));
    // A drum promoted to thunderclap is the drum still alive.
    let p = with(&[("+TC", B, 9, 1)]);
    assert!(forward(&p));
    let p = with(&[]);
    assert!(!forward(&p) && others(&p));
    // The enemy's drum does not count; nor does White's pawn care about Black's drum.
    let p = with(&[("DR", W, 9, 17)]);
    assert!(!forward(&p));
    let mut p = with(&[("DR", B, 9, 1), ("CU", W, 9, 8)]);
    p.set_to_move(W);
    assert!(moves(r, &p, (10, 10), (10, 9)).is_empty());
    // Capturing the drum takes the step away at once.
    play(r, &mut p, (9, 8), (9, 1), true);
    assert!(!forward(&p) && others(&p));
}

#[test]
fn drum_and_banner_cannot_promote_and_revert_while_their_priest_is_dead() {
    let r = ko("standard");
    let drum = |extra: &[Spec]| {
        let mut pieces = vec![("DR", B, 4, 12), ("BN", W, 8, 7), ("DR", B, 7, 6)];
        pieces.extend_from_slice(extra);
        game(r, B, &pieces)
    };
    // With its priest (or the priest promoted to a fog), entering the camp or capturing the
    // banner promotes the drum; without, neither does.
    for priest in [("TP", B, 17, 1), ("+FOG", B, 17, 1)] {
        let p = drum(&[priest]);
        assert_eq!(promotions(r, &p, (4, 12), (5, 13)), [true]);
        assert_eq!(promotions(r, &p, (7, 6), (8, 7)), [true]);
    }
    for other in [vec![], vec![("SM", B, 17, 1)], vec![("TP", W, 17, 17)]] {
        let p = drum(&other);
        assert_eq!(promotions(r, &p, (4, 12), (5, 13)), [false]);
        assert_eq!(promotions(r, &p, (7, 6), (8, 7)), [false]);
    }
    // Capturing the priest reverts the promoted drum and banner at once; unmake restores them.
    let mut p = game(
        r,
        W,
        &[
            ("+TC", B, 4, 4),
            ("+FW", B, 6, 4),
            ("TP", B, 10, 2),
            ("CH", W, 10, 6),
            ("+TC", W, 12, 12),
        ],
    );
    // (The chariot ends in White's camp, so it promotes.)
    play(r, &mut p, (10, 6), (10, 2), true);
    assert_eq!(at(r, &p, 4, 4), piece("DR", B, false));
    assert_eq!(at(r, &p, 6, 4), piece("BN", B, false));
    // White's thunderclap depends on White's priest, which it does not have: it reverted with
    // the first move too.
    assert_eq!(at(r, &p, 12, 12), piece("DR", W, false));
}

#[test]
fn a_fog_reverts_near_an_enemy_light_measured_as_the_rule_set_says() {
    // The light 4 files and 5 ranks off: within the 11×11 square, not on one of the 8 lines.
    let pieces = [("+FOG", B, 4, 4), ("+IL", W, 8, 9), ("+IL", W, 14, 4)];
    for (name, reverts) in [("lines", false), ("standard", true)] {
        let r = ko(name);
        let mut p = game(r, B, &pieces);
        play(r, &mut p, (0, 0), (0, 1), false);
        let expected = if reverts {
            piece("TP", B, false)
        } else {
            piece("FOG", B, true)
        };
        assert_eq!(at(r, &p, 4, 4), expected, "{name}");
    }
    // The light jumping to 4 points on the same rank reverts it under either reading.
    for name in ["standard", "lines"] {
        let r = ko(name);
        let mut p = game(r, W, &[("+FOG", B, 4, 4), ("+IL", W, 10, 4)]);
        play(r, &mut p, (10, 4), (8, 4), false);
        assert_eq!(at(r, &p, 4, 4), piece("TP", B, false), "{name}");
    }
    // Six points away on a line is too far; a friendly light does not count.
    let r = ko("standard");
    let mut p = game(
        r,
        W,
        &[("+FOG", B, 4, 4), ("+IL", W, 10, 12), ("+IL", B, 5, 5)],
    );
    play(r, &mut p, (10, 12), (10, 10), false);
    assert_eq!(at(r, &p, 4, 4), piece("FOG", B, true));
}

#[test]
fn a_fog_keeps_shooters_from_shooting_within_5_points_measured_as_the_rule_set_says() {
    let shoots = |r: &Rules, p: &Position, x, y| {
        r.moves_from(p, sq(r, x, y))
            .iter()
            .any(|m| m.shots().next().is_some())
    };
    // White's fog on (4, 4); Black's longbow on (8, 9) is 4 files and 5 ranks off it (in the
    // 11×11 square, on none of its 8 lines), with a White pawn to shoot.
    let off_line = [("+FOG", W, 4, 4), ("LB", B, 8, 9), ("P", W, 9, 12)];
    // On one of its lines, 5 points off: (9, 4); 6 points off: (10, 4).
    let on_line = [("+FOG", W, 4, 4), ("LB", B, 9, 4), ("P", W, 10, 7)];
    let six = [("+FOG", W, 4, 4), ("LB", B, 10, 4), ("P", W, 11, 7)];
    for (name, square) in [("standard", true), ("lines", false)] {
        let r = ko(name);
        assert_eq!(
            shoots(r, &game(r, B, &off_line), 8, 9),
            !square,
            "{name}: off the lines"
        );
        assert!(!shoots(r, &game(r, B, &on_line), 9, 4), "{name}: on a line");
        assert!(shoots(r, &game(r, B, &six), 10, 4), "{name}: six points");
    }
    // Under `lines`, the fog jumping (twice) from off the longbow's lines onto one, 3 points
    // below it, fogs it, and the incremental generator sees it.
    let r = ko("lines");
    let p = game(r, W, &off_line);
    let m = moves(r, &p, (4, 4), (8, 6))[0];
    let mut cache = taikyoku_core::movecache::MoveCache::new();
    cache.build(r, &p, B);
    let mut q = p.clone();
    let _undo = r.make(&mut q, &m);
    let mut after = Vec::new();
    cache.moves_after(r, &q, &m, &mut after);
    assert_eq!(after, r.legal_moves(&q));
    assert!(!shoots(r, &q, 8, 9));
}

#[test]
fn the_governor_keeps_a_side_in_the_game_after_its_general_falls() {
    let r = ko("standard");
    let mut p = position(
        r,
        B,
        &[
            ("GE", B, 0, 0),
            ("MT", B, 9, 12),
            ("GE", W, 18, 18),
            ("CH", W, 3, 14),
            ("CU", W, 0, 8),
        ],
    );
    // The middle troop enters the camp and becomes a governor: a second general.
    play(r, &mut p, (9, 12), (9, 13), true);
    assert_eq!(at(r, &p, 9, 13), piece("GV", B, true));
    // (The chariot unit takes the general in White's camp, so it promotes.)
    play(r, &mut p, (0, 8), (0, 0), true);
    assert_eq!(p.outcome(), None);
    play(r, &mut p, (9, 13), (9, 14), false);
    play(r, &mut p, (3, 14), (8, 14), false);
    play(r, &mut p, (9, 14), (9, 15), false);
    play(r, &mut p, (8, 14), (8, 15), false);
    assert_eq!(p.outcome(), None);
    play(r, &mut p, (9, 15), (10, 15), false);
    play(r, &mut p, (8, 15), (10, 15), false);
    assert_eq!(p.outcome().map(|o| o.winner), Some(W));
}

#[test]
fn cazauxs_array_has_a_pawn_on_file_2_of_rank_5() {
    let r = ko("cazaux");
    let p = r.start_position();
    assert_eq!(at(r, &p, 1, 4), piece("P", B, false));
    assert_eq!(at(r, &p, 9, 4), piece("PU", B, false));
    assert_eq!(at(r, &p, 17, 14), piece("P", W, false));
    let count = |code: &str| {
        let k = r.catalogue().by_code(code).unwrap();
        (p.count(B, k), p.count(W, k))
    };
    assert_eq!((count("P"), count("PU")), ((7, 7), (2, 2)));
    let std = ko("standard").start_position();
    assert_eq!(p.pieces().count(), std.pieces().count());
}

#[test]
fn effects_naming_an_unknown_piece_are_reported_where_written() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/games"));
    for sub in ["rules", "pieces", "setups"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    for f in [
        "pieces/koshogi.toml",
        "setups/koshogi.toml",
        "setups/koshogi-cazaux.toml",
    ] {
        std::fs::copy(root.join(f), dir.path().join(f)).unwrap();
    }
    std::fs::write(
        dir.path().join("rules/games.toml"),
        "games = [\"koshogi\"]\n",
    )
    .unwrap();
    let text = std::fs::read_to_string(root.join("rules/koshogi.toml")).unwrap();
    let bad = text.replace("absent = [\"DR\", \"TC\"]", "absent = [\"DR\", \"XX\"]");
    std::fs::write(dir.path().join("rules/koshogi.toml"), &bad).unwrap();
    let data = taikyoku_core::game::DataDir::dir(dir.path());
    let e = taikyoku_core::game::Game::load(&data, "koshogi")
        .unwrap_err()
        .to_string();
    let line = bad.lines().position(|l| l.contains("\"XX\"")).unwrap() + 1;
    assert!(
        e.contains(&format!("koshogi.toml:{line}:")) && e.contains("\"XX\" is not a piece code"),
        "{e}"
    );
    let bad = text.replace("within = \"lines\"", "within = \"circle\"");
    std::fs::write(dir.path().join("rules/koshogi.toml"), &bad).unwrap();
    let e = taikyoku_core::game::Game::load(&data, "koshogi")
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected \"lines\" or \"square\""), "{e}");
    // A misspelt burning option is named, at its line.
    let bad = text.replace(
        "burning = { fireproof = true }",
        "burning = { fireprof = true }",
    );
    std::fs::write(dir.path().join("rules/koshogi.toml"), &bad).unwrap();
    let e = taikyoku_core::game::Game::load(&data, "koshogi")
        .unwrap_err()
        .to_string();
    let line = bad.lines().position(|l| l.contains("fireprof ")).unwrap() + 1;
    assert!(
        e.contains("fireprof") && e.contains(&format!("koshogi.toml:{line}:")),
        "{e}"
    );
}

/// Random games under every rule set: make/unmake restores the position, its hash and piece
/// counts exactly, the incremental hash is the hash from scratch, and a game's record read
/// back replays to the same position. Bounded to a few seconds in debug.
#[test]
fn random_games_keep_make_unmake_hash_and_records_exact() {
    let sets = [
        "standard",
        "optional",
        "lines",
        "koshogifu",
        "chained",
        "strict",
        "cazaux",
        "stationary",
        "passive",
        "fireproof",
        "mustshoot",
        "displace",
    ];
    for (seed, name) in sets.iter().enumerate() {
        let r = ko(name);
        let mut rng = common::Rng::new(seed as u64 + 1);
        let mut history = common::history(r);
        for _ in 0..120 {
            let pos = history.position().clone();
            let moves = r.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            for m in moves
                .iter()
                .filter(|m| m.captures() || m.promotes())
                .take(12)
            {
                let mut p = pos.clone();
                let undo = r.make(&mut p, m);
                assert!(r.is_consistent(&p), "{name}: after {m:?}");
                r.unmake(&mut p, undo);
                assert_eq!(p, pos, "{name}: restored after {m:?}");
                assert_eq!(p.hash(), pos.hash());
                assert!(r.is_consistent(&p));
            }
            // Captures and promotions first, to reach the effects.
            let eventful: Vec<&Move> = moves
                .iter()
                .filter(|m| m.captures() || m.promotes())
                .collect();
            let m = if !eventful.is_empty() && rng.below(3) > 0 {
                *eventful[rng.below(eventful.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            history.play(&m).unwrap();
            if history.position().outcome().is_some() {
                break;
            }
        }
        let record = taikyoku_records::record::Record::new(&history);
        let text = record.to_toml();
        let back = taikyoku_records::record::Record::parse("game.toml", &text).unwrap();
        let replay = back.replay(&r.game).unwrap();
        assert_eq!(replay.history.position(), history.position(), "{name}");
    }
}

#[test]
fn the_shooters_immunities_are_the_sources_lists() {
    let r = ko("standard");
    let shots = |p: &Position, from: (i32, i32)| -> Vec<(i32, i32)> {
        let mut v: Vec<(i32, i32)> = r
            .moves_from(p, sq(r, from.0, from.1))
            .iter()
            .flat_map(|m| r.captures(p, m))
            .map(|s| r.dims().xy(s))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    // A longbow stepping to (5, 5) can shoot the pawn 3 points up, not the shield, chariot or
    // gun carriage as close, nor the pawn 4 points away.
    let p = game(
        r,
        B,
        &[
            ("LB", B, 4, 4),
            ("P", W, 5, 8),
            ("SH", W, 8, 5),
            ("CH", W, 2, 5),
            ("+GC", W, 7, 8),
            ("P", W, 9, 5),
        ],
    );
    assert_eq!(shots(&p, (4, 4)), [(5, 8)]);
    // A cannon shoots over a pawn (at the drum behind it), cannot shoot a shield unit nor
    // over one (at the pawn behind it), and cannot shoot a fog (6 points from where the cannon
    // stands, so its aura does not stop the cannon; 5 from where it shoots).
    let mut pieces = vec![
        ("CN", B, 4, 4),
        ("P", W, 5, 6),
        ("DR", W, 5, 8),
        ("SU", W, 3, 7),
        ("P", W, 3, 9),
        ("+FOG", W, 10, 10),
    ];
    let p = game(r, B, &pieces);
    assert_eq!(shots(&p, (4, 4)), [(5, 6), (5, 8)]);
    // Within 5 points of the enemy fog, the cannon cannot shoot at all.
    pieces[5] = ("+FOG", W, 9, 9);
    let p = game(r, B, &pieces);
    assert_eq!(shots(&p, (4, 4)), Vec::<(i32, i32)>::new());
    // Chariots cannot take a heavenly fortress by displacement; a priest takes by displacement
    // only its own family, but shoots anything adjacent.
    let p = game(
        r,
        B,
        &[
            ("CH", B, 4, 4),
            ("+HF", W, 4, 7),
            ("TP", B, 10, 4),
            ("SM", W, 12, 4),
            ("P", W, 10, 6),
            ("P", W, 13, 7),
        ],
    );
    assert_eq!(shots(&p, (4, 4)), Vec::<(i32, i32)>::new());
    assert!(shots(&p, (10, 4)).contains(&(12, 4)));
    assert!(
        !moves(r, &p, (10, 4), (10, 6))
            .iter()
            .any(|m| m.to == sq(r, 10, 6))
    );
    assert!(shots(&p, (10, 4)).contains(&(13, 7)));
}

#[test]
fn a_shot_at_the_drum_promotes_the_shooter() {
    let r = ko("standard");
    let mut p = game(r, B, &[("CB", B, 4, 4), ("DR", W, 5, 9)]);
    let m = r
        .moves_from(&p, sq(r, 4, 4))
        .into_iter()
        .find(|m| r.captures(&p, m) == [sq(r, 5, 9)])
        .expect("the crossbow steps to (5, 5) and shoots");
    assert!(m.promotes());
    r.play(&mut p, &m).unwrap();
    assert_eq!(at(r, &p, 5, 5), piece("CC", B, true));
    assert_eq!(at(r, &p, 5, 9), None);
}

#[test]
fn the_thunderclap_takes_five_steps_freely_or_as_the_koshogifu_says() {
    let ends = |name: &str| {
        let r = ko(name);
        let p = game(r, B, &[("+TC", B, 9, 9), ("TP", B, 17, 1)]);
        common::rel(r, &p, 9, 9)
    };
    let free = ends("standard");
    // Exactly five steps: an odd number of points away, at most five.
    assert!(
        free.iter()
            .all(|&(x, y)| (x.abs() + y.abs()) % 2 == 1 && x.abs() + y.abs() <= 5)
    );
    assert!(
        [(0, 5), (1, 0), (3, 2), (2, -1)]
            .iter()
            .all(|e| free.contains(e))
    );
    let book = ends("koshogifu");
    let zebra: std::collections::BTreeSet<(i32, i32)> = [
        (2, 3),
        (3, 2),
        (3, -2),
        (2, -3),
        (-2, -3),
        (-3, -2),
        (-3, 2),
        (-2, 3),
    ]
    .into_iter()
    .collect();
    assert_eq!(book, zebra);
}

#[test]
fn the_poison_flame_burns_and_the_cavalry_jumps_twice_the_same_way() {
    let r = ko("standard");
    let mut p = game(
        r,
        B,
        &[
            ("+PF", B, 4, 4),
            ("P", W, 3, 6),
            ("P", B, 5, 6),
            ("SH", W, 8, 8),
        ],
    );
    play(r, &mut p, (4, 4), (4, 5), false);
    assert_eq!((at(r, &p, 3, 6), at(r, &p, 5, 6)), (None, None));
    assert_eq!(at(r, &p, 8, 8), piece("SH", W, false));
    let p = game(r, B, &[("CV", B, 9, 9)]);
    let ends = common::rel(r, &p, 9, 9);
    assert!(ends.contains(&(2, 4)) && ends.contains(&(0, 4)) && ends.contains(&(4, 0)));
    assert!(!ends.contains(&(3, 3)) && !ends.contains(&(1, 3)));
}

/// What stands on each of `squares` after playing `from`-`to` under the rule set (make and
/// unmake checked on the way).
fn after(
    name: &str,
    to_move: Side,
    pieces: &[Spec],
    from: (i32, i32),
    to: (i32, i32),
    squares: &[(i32, i32)],
) -> Vec<Option<(String, Side, bool)>> {
    let r = ko(name);
    let mut p = game(r, to_move, pieces);
    play(r, &mut p, from, to, false);
    squares.iter().map(|&(x, y)| at(r, &p, x, y)).collect()
}

#[test]
fn a_piece_arriving_next_to_an_enemy_flame_is_burnt_only_under_passive() {
    // White's pawn takes Black's shield on (5, 6), next to Black's flame on (4, 5) (White's
    // drum keeps its pawns' forward step).
    let pieces = [
        ("+PF", B, 4, 5),
        ("SH", B, 5, 6),
        ("P", W, 5, 7),
        ("DR", W, 15, 15),
    ];
    let flame = piece("PF", B, true);
    // Standard (EN's words): it stands there.
    let std = after("standard", W, &pieces, (5, 7), (5, 6), &[(5, 6), (4, 5)]);
    assert_eq!(std, [piece("P", W, false), flame.clone()]);
    // Passive (QB): it dies after its move; the shield it took stays taken, the flame stays.
    let qb = after("passive", W, &pieces, (5, 7), (5, 6), &[(5, 6), (4, 5)]);
    assert_eq!(qb, [None, flame.clone()]);
    // One's own flame does not burn an arriving piece: White's general steps next to its own.
    let own = [("+PF", W, 17, 16)];
    let safe = after("passive", W, &own, (18, 18), (18, 17), &[(18, 17)]);
    assert_eq!(safe, [piece("GE", W, false)]);
    // And the pieces burnt on arrival are in the move's effects, not its victims.
    let r = ko("passive");
    let p = game(r, W, &pieces);
    let m = moves(r, &p, (5, 7), (5, 6))[0];
    assert_eq!(r.captures(&p, &m), [sq(r, 5, 6)]);
    assert_eq!(r.effect_changes(&p, &m).removed, [sq(r, 5, 6)]);
}

#[test]
fn two_flames_meeting_follow_the_rule_sets_burning_options() {
    // Black's flame steps to (8, 8): White's flame on (9, 9) and a White pawn on (7, 9) are
    // next to it, and so are Black's own flame on (7, 7) and a Black pawn on (9, 7).
    let pieces = [
        ("+PF", B, 8, 7),
        ("+PF", W, 9, 9),
        ("P", W, 7, 9),
        ("+PF", B, 7, 7),
        ("P", B, 9, 7),
    ];
    let squares = [(8, 8), (9, 9), (7, 9), (7, 7), (9, 7)];
    let (bf, wf) = (piece("PF", B, true), piece("PF", W, true));
    let (bp, wp) = (piece("P", B, false), piece("P", W, false));
    let run = |name| after(name, B, &pieces, (8, 7), (8, 8), &squares);
    // Standard: it burns every neighbour, both flames included, and stands.
    assert_eq!(run("standard"), [bf.clone(), None, None, None, None]);
    // Passive: arriving next to White's flame it dies before burning anything.
    assert_eq!(
        run("passive"),
        [None, wf.clone(), wp.clone(), bf.clone(), bp.clone()]
    );
    // Fireproof: the flames stay, the rest burns.
    assert_eq!(
        run("fireproof"),
        [bf.clone(), wf.clone(), None, bf.clone(), None]
    );
    // Passive with no enemy flame near: it burns the enemies only.
    let alone = [("+PF", B, 8, 7), ("P", W, 7, 9), ("P", B, 9, 7)];
    let burnt = after(
        "passive",
        B,
        &alone,
        (8, 7),
        (8, 8),
        &[(8, 8), (7, 9), (9, 7)],
    );
    assert_eq!(burnt, [bf, None, bp]);
}

#[test]
fn a_shooter_moves_without_shooting_and_captures_by_displacement_as_the_rule_set_says() {
    // Black's longbow on (9, 9): an enemy pawn diagonally next to it on (10, 10), another
    // to shoot from (8, 10) at (8, 12).
    let pieces = [("LB", B, 9, 9), ("P", W, 10, 10), ("P", W, 8, 12)];
    let summary = |name: &str| {
        let r = ko(name);
        let p = game(r, B, &pieces);
        let all = r.moves_from(&p, sq(r, 9, 9));
        let steps = all.iter().filter(|m| m.shots().next().is_none()).count();
        let takes = moves(r, &p, (9, 9), (10, 10)).len();
        let shots = all.len() - steps;
        (steps, takes, shots > 0)
    };
    // Standard: it steps to the 3 empty diagonal points, with or without a shot, and cannot
    // take the pawn next to it by stepping there.
    assert_eq!(summary("standard"), (3, 0, true));
    // Displace: the step may take it.
    assert_eq!(summary("displace"), (4, 1, true));
    // Mustshoot: every move shoots.
    assert_eq!(summary("mustshoot"), (0, 0, true));
    // With nothing to shoot it has no move at all under mustshoot.
    let r = ko("mustshoot");
    let alone = game(r, B, &[("LB", B, 9, 9)]);
    assert!(r.moves_from(&alone, sq(r, 9, 9)).is_empty());
    // Displacement keeps the immunities: the gun carriage cannot take a heavenly fortress.
    let r = ko("displace");
    let p = game(
        r,
        B,
        &[("+GC", B, 9, 9), ("+HF", W, 9, 12), ("P", W, 12, 9)],
    );
    assert!(moves(r, &p, (9, 9), (9, 12)).is_empty());
    assert_eq!(moves(r, &p, (9, 9), (12, 9)).len(), 1);
}

/// Depth 3 (about 30 s of CPU in a debug build since the auras are recomputed in every
/// position): `cargo test --test koshogi -- --ignored`.
#[test]
#[ignore]
fn perft_3_from_the_opening() {
    let r = ko("standard");
    assert_eq!(perft::perft(r, &r.start_position(), 3), 11_292_397);
}

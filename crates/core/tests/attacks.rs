//! The incremental attack information ([`Attacks`]) against recomputation: along random games
//! of every game and rule set (with short lines made and unmade from every position, as a
//! search walks them), and on hand-built positions for each mechanic whose reach is not the
//! piece's own lines: range capture, a lion's double move, a hook mover's turn, shooting,
//! burning, auras (a net's freeze, a fog), and the effects' global fallback.

use std::sync::OnceLock;
use taikyoku_core::attacks::Attacks;
use taikyoku_core::game::{DataDir, Game};
use taikyoku_core::geometry::Side;
use taikyoku_core::makemove::Undo;
use taikyoku_core::movegen::Scratch;
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_testkit::*;

/// The test game of one mechanic a piece (`tests/data/lab` of the root package).
fn lab() -> &'static Rules {
    static LAB: OnceLock<Rules> = OnceLock::new();
    LAB.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/lab");
        let game = Game::load(&DataDir::dir(dir), "lab").expect("the lab game loads");
        Rules::new(game, "standard").expect("the lab compiles")
    })
}

/// Every Kō shōgi rule set.
fn ko_sets() -> Vec<&'static Rules> {
    let names: Vec<String> = (ko("standard").game.rule_sets.iter())
        .map(|s| s.name.clone())
        .collect();
    names.iter().map(|n| ko(n)).collect()
}

/// The kept data against a fresh computation and full generation, and the queries against
/// the rules' own answers for the side to move.
fn verify(a: &mut Attacks, r: &Rules, pos: &Position, context: &str) {
    if let Err(e) = a.check(r, pos) {
        panic!("{}, {context}: {e}", r.rule_set.name);
    }
    let us = pos.to_move();
    let mut moves = Vec::new();
    a.moves_into(r, pos, us, &mut moves);
    assert_eq!(moves, r.legal_moves(pos), "{context}: moves");
    assert_eq!(a.mobility(r, pos, us), moves.len() as u64, "{context}");
    let (mut caps, mut gainful) = (Vec::new(), Vec::new());
    a.captures_into(r, pos, us, &mut caps);
    r.gainful_captures_into(pos, &mut Scratch::default(), &mut gainful);
    assert_eq!(caps, gainful, "{context}: captures");
    for side in Side::BOTH {
        let threatened = r.royal_threatened(pos, side, None, &mut Scratch::default(), &mut moves);
        assert_eq!(
            a.royal_attacked(r, pos, side),
            threatened,
            "{context}: royal"
        );
    }
}

/// A random move, a capture three times in four when there is one.
fn pick(moves: &[Move], rng: &mut Rng) -> Move {
    let captures: Vec<&Move> = moves.iter().filter(|m| m.captures()).collect();
    if !captures.is_empty() && rng.below(4) > 0 {
        *captures[rng.below(captures.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// A search's walk from `pos`: `steps` random makes and unmakes, at most `depth` moves deep,
/// all taken back at the end; the data is checked after a random half of them (so that one
/// update also covers several moves, and an unmake undoes part of one).
fn probe(
    a: &mut Attacks,
    r: &Rules,
    pos: &mut Position,
    rng: &mut Rng,
    steps: usize,
    depth: usize,
) {
    let start = pos.clone();
    let mut undos: Vec<Undo> = Vec::new();
    for step in 0..steps {
        let moves = if pos.outcome().is_none() && undos.len() < depth {
            r.legal_moves(pos)
        } else {
            Vec::new()
        };
        let what = if moves.is_empty() || (!undos.is_empty() && rng.below(3) == 0) {
            let Some(u) = undos.pop() else { break };
            a.unmake(r, pos, u);
            "unmake"
        } else {
            undos.push(a.make(r, pos, &pick(&moves, rng)));
            "make"
        };
        if rng.below(2) == 0 {
            verify(
                a,
                r,
                pos,
                &format!("probe step {step} ({what}), depth {}", undos.len()),
            );
        }
    }
    while let Some(u) = undos.pop() {
        a.unmake(r, pos, u);
    }
    assert_eq!(*pos, start);
    verify(a, r, pos, "probe taken back");
}

/// A random game of up to `plies` moves kept along one [`Attacks`], probed at every ply.
fn random_game(r: &Rules, seed: u64, plies: usize, steps: usize) {
    let mut rng = Rng::new(seed);
    let mut pos = r.start_position();
    let mut a = Attacks::new(r, &pos);
    verify(&mut a, r, &pos, "the start");
    for ply in 0..plies {
        probe(&mut a, r, &mut pos, &mut rng, steps, 4);
        let moves = r.legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let _played = a.make(r, &mut pos, &pick(&moves, &mut rng));
        verify(&mut a, r, &pos, &format!("seed {seed}, ply {ply}"));
    }
}

#[test]
fn taikyoku_attacks_stay_exact_along_random_games() {
    for name in ["wikipedia", "umebayashi", "atsa"] {
        random_game(rules(name), 7, 20, 6);
    }
}

#[test]
fn sho_attacks_stay_exact_along_random_games_to_their_end() {
    for seed in 1..=12 {
        random_game(sho(), seed, 200, 4);
    }
}

#[test]
fn ko_attacks_stay_exact_along_random_games_under_every_rule_set() {
    for (k, r) in ko_sets().into_iter().enumerate() {
        random_game(r, 11 + k as u64, 12, 4);
    }
}

#[test]
fn lab_attacks_stay_exact_along_random_games() {
    for seed in 1..=4 {
        random_game(lab(), seed, 40, 4);
    }
}

/// The long run: `cargo test --release -p taikyoku-core --test attacks -- --ignored`.
#[test]
#[ignore]
fn many_random_games_keep_the_attacks_exact() {
    for seed in 100..110 {
        for name in ["wikipedia", "umebayashi", "atsa"] {
            random_game(rules(name), seed, 300, 8);
        }
        for r in ko_sets() {
            random_game(r, seed, 300, 8);
        }
        random_game(lab(), seed, 300, 8);
    }
    for seed in 100..1100 {
        random_game(sho(), seed, 300, 8);
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-built positions: a move away from a piece's own lines changes what it attacks.

/// The squares of `side`'s pieces that attack (x, y), as (x, y).
fn attackers(
    a: &mut Attacks,
    r: &Rules,
    p: &Position,
    x: i32,
    y: i32,
    side: Side,
) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    a.attackers_into(r, p, sq(r, x, y), side, &mut out);
    out.iter().map(|&s| r.dims().xy(s)).collect()
}

/// How a move changes the attackers of a square.
struct Case<'a> {
    /// The move, from and to.
    play: [(i32, i32); 2],
    /// The square, and the side whose attackers are asked.
    target: (i32, i32),
    by: Side,
    before: &'a [(i32, i32)],
    after: &'a [(i32, i32)],
}

/// Checks `case` on `p`: the attackers before the move, after it (when `also` asks more),
/// and again once it is unmade, the data verified after each step.
fn expect(r: &Rules, mut p: Position, case: Case, also: impl Fn(&mut Attacks, &Position)) {
    let mut a = Attacks::new(r, &p);
    verify(&mut a, r, &p, "the start");
    let ((x, y), by) = (case.target, case.by);
    assert_eq!(attackers(&mut a, r, &p, x, y, by), case.before, "before");
    let [from, to] = case.play;
    let m = (r.moves_from(&p, sq(r, from.0, from.1)).into_iter())
        .find(|m| m.to == sq(r, to.0, to.1))
        .unwrap_or_else(|| panic!("no move {from:?}-{to:?}"));
    let undo = a.make(r, &mut p, &m);
    verify(&mut a, r, &p, &format!("after {from:?}-{to:?}"));
    assert_eq!(attackers(&mut a, r, &p, x, y, by), case.after, "after");
    also(&mut a, &p);
    a.unmake(r, &mut p, undo);
    verify(&mut a, r, &p, "unmade");
    assert_eq!(attackers(&mut a, r, &p, x, y, by), case.before, "unmade");
}

#[test]
fn a_range_capturer_stops_attacking_the_king_when_a_peer_lands_on_its_line() {
    let r = rules("wikipedia");
    let pieces = [
        ("GG", B, 10, 10),
        ("P", W, 10, 12),
        ("P", B, 10, 14),
        ("K", W, 10, 20),
        ("GG", W, 14, 16),
        ("K", B, 0, 0),
    ];
    let p = position(r, W, &pieces);
    assert!(Attacks::new(r, &p).royal_attacked(r, &p, W));
    // It flies over both pawns to the king, until White's great general, of its rank, lands
    // between: that it cannot fly over.
    let case = Case {
        play: [(14, 16), (10, 16)],
        target: (10, 20),
        by: B,
        before: &[(10, 10)],
        after: &[],
    };
    expect(r, p, case, |a, p| {
        assert_eq!(attackers(a, r, p, 10, 16, B), [(10, 10)]);
        assert!(!a.royal_attacked(r, p, W));
    });
}

#[test]
fn a_lion_attacks_both_pieces_of_its_double_capture() {
    let r = rules("wikipedia");
    let pieces = [
        ("LN", B, 10, 10),
        ("P", W, 11, 11),
        ("P", W, 12, 13),
        ("K", B, 0, 0),
        ("K", W, 35, 35),
    ];
    // The pawn on (12, 13), out of reach, steps within it.
    let case = Case {
        play: [(12, 13), (12, 12)],
        target: (12, 12),
        by: B,
        before: &[],
        after: &[(10, 10)],
    };
    expect(r, position(r, W, &pieces), case, |a, p| {
        assert_eq!(attackers(a, r, p, 11, 11, B), [(10, 10)]);
        let double =
            (a.moves_from(r, p, sq(r, 10, 10)).iter()).any(|m| m.victims(r.dims()).count() == 2);
        assert!(double, "takes (11, 11) on the way to (12, 12)");
    });
}

#[test]
fn a_hook_mover_loses_the_king_when_its_turned_leg_is_blocked() {
    let r = rules("wikipedia");
    let pieces = [
        ("HM", B, 10, 10),
        ("P", B, 14, 12),
        ("K", W, 14, 14),
        ("G", W, 12, 15),
        ("K", B, 0, 0),
    ];
    // Up to (10, 14), then right (the other way round is blocked on (14, 12)); the gold
    // steps onto the turned leg, off the hook mover's own lines.
    let case = Case {
        play: [(12, 15), (12, 14)],
        target: (14, 14),
        by: B,
        before: &[(10, 10)],
        after: &[],
    };
    expect(r, position(r, W, &pieces), case, |a, p| {
        assert_eq!(attackers(a, r, p, 12, 14, B), [(10, 10)]);
        assert!(!a.royal_attacked(r, p, W));
    });
}

/// A Kō position with a general each (Black's on (0, 0), White's on (18, 18)).
fn ko_game(r: &Rules, to_move: Side, pieces: &[(&str, Side, i32, i32)]) -> Position {
    let mut all = pieces.to_vec();
    all.push(("GE", B, 0, 0));
    all.push(("GE", W, 18, 18));
    position(r, to_move, &all)
}

#[test]
fn a_shot_hits_the_first_piece_that_steps_onto_its_line() {
    let r = ko("standard");
    // The longbow steps to (8, 10) and shoots up to three points: (8, 13) only that way,
    // until White's drum steps in front of it.
    let pieces = [("LB", B, 9, 9), ("P", W, 8, 13), ("DR", W, 9, 13)];
    let case = Case {
        play: [(9, 13), (8, 12)],
        target: (8, 13),
        by: B,
        before: &[(9, 9)],
        after: &[],
    };
    expect(r, ko_game(r, W, &pieces), case, |a, p| {
        assert_eq!(attackers(a, r, p, 8, 12, B), [(9, 9)]);
    });
}

#[test]
fn a_flame_burns_next_to_where_it_lands_until_the_landing_is_taken() {
    let r = ko("standard");
    // The flame lands on (5, 5), next to White's pawn on (6, 6), which it cannot step to,
    // until Black's own pawn takes the landing square.
    let pieces = [
        ("+PF", B, 4, 4),
        ("P", W, 6, 6),
        ("P", B, 5, 4),
        ("DR", B, 16, 1),
    ];
    let case = Case {
        play: [(5, 4), (5, 5)],
        target: (6, 6),
        by: B,
        before: &[(4, 4)],
        after: &[],
    };
    expect(r, ko_game(r, B, &pieces), case, |_, _| {});
}

#[test]
fn a_net_freezes_the_enemy_its_line_opens_to() {
    let r = ko("standard");
    // The skyward net ranges sideways; Black's pawn on (11, 9) shields White's on (14, 9),
    // which attacks Black's pawn on (14, 8), until it steps off the line.
    let pieces = [
        ("SN", B, 9, 9),
        ("P", B, 11, 9),
        ("P", W, 14, 9),
        ("P", B, 14, 8),
        ("DR", B, 16, 1),
        ("DR", W, 2, 17),
    ];
    let p = ko_game(r, B, &pieces);
    let before = Attacks::new(r, &p).mobility(r, &p, W);
    let case = Case {
        play: [(11, 9), (11, 10)],
        target: (14, 8),
        by: W,
        before: &[(14, 9)],
        after: &[],
    };
    expect(r, p, case, |a, p| {
        assert!(a.moves_from(r, p, sq(r, 14, 9)).is_empty(), "frozen");
        assert!(a.mobility(r, p, W) < before);
    });
}

#[test]
fn a_fog_coming_near_stops_a_shooter() {
    let r = ko("lines");
    // The fog jumps onto one of the longbow's lines, three points below it.
    let pieces = [("+FOG", W, 4, 4), ("LB", B, 8, 9), ("P", W, 9, 12)];
    let case = Case {
        play: [(4, 4), (8, 6)],
        target: (9, 12),
        by: B,
        before: &[(8, 9)],
        after: &[],
    };
    expect(r, ko_game(r, W, &pieces), case, |_, _| {});
}

#[test]
fn taking_the_last_drum_changes_every_pawn_far_away() {
    let r = ko("standard");
    // White's pawns step forward only while White has a drum.
    let pieces = [
        ("P", W, 10, 12),
        ("P", B, 10, 11),
        ("DR", W, 15, 15),
        ("SH", B, 14, 14),
    ];
    let case = Case {
        play: [(14, 14), (15, 15)],
        target: (10, 11),
        by: W,
        before: &[(10, 12)],
        after: &[],
    };
    expect(r, ko_game(r, B, &pieces), case, |_, _| {});
}

#[test]
fn a_flame_burning_only_its_own_pieces_is_no_capture_that_may_gain() {
    let r = ko("standard");
    // Landing on (4, 5), the flame burns only Black's pawn on (5, 5).
    let pieces = [("+PF", B, 4, 4), ("P", B, 5, 5), ("DR", B, 16, 1)];
    let p = ko_game(r, B, &pieces);
    let mut caps = Vec::new();
    r.capture_moves_into(&p, &mut Scratch::default(), &mut caps);
    let burns_own = |m: &&Move| m.from == sq(r, 4, 4) && m.to == sq(r, 4, 5);
    assert!(caps.iter().any(|m| burns_own(&m)), "a capture all the same");
    let mut gainful = Vec::new();
    r.gainful_captures_into(&p, &mut Scratch::default(), &mut gainful);
    assert!(!gainful.iter().any(|m| burns_own(&m)));
    let kept: Vec<Move> = (caps.iter().copied())
        .filter(|m| r.is_gainful_capture(&p, m))
        .collect();
    assert_eq!(gainful, kept);
}

//! The rules core the search stands on, checked over random games under every rule set:
//! make/unmake restores the position exactly, the incremental hash equals the hash computed
//! from scratch, a move's victims are what playing it removes, the incremental move list
//! equals full generation, capture-only generation equals the capturing moves, and the cheap
//! outcome equals the definition.

use std::collections::BTreeSet;
use taikyoku_core::geometry::Square;
use taikyoku_core::movecache::MoveCache;
use taikyoku_core::movegen::Scratch;
use taikyoku_core::moves::Move;
use taikyoku_core::perft;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_search::eval;
use taikyoku_testkit::*;

const SETS: [&str; 3] = ["wikipedia", "umebayashi", "atsa"];

/// What a move removes, worked out from the board (the generator's old way): occupied stops,
/// what a range capturer flies over when the rule set removes it, an occupied destination.
fn oracle_victims(r: &Rules, pos: &Position, m: &Move) -> Vec<Square> {
    let dims = pos.dims();
    let occupied = |s: Square| pos.piece_at(s).is_some();
    let path = m.path();
    let mut out: Vec<Square> = (0..path.len())
        .filter(|&k| {
            let s = path[k];
            s != m.from && s != m.to && occupied(s) && !path[..k].contains(&s)
        })
        .map(|k| path[k])
        .collect();
    if m.is_range() && r.rule_set.params.range.captures_flown_over {
        let last = path.last().copied().unwrap_or(m.from);
        let ((fx, fy), (tx, ty)) = (dims.xy(last), dims.xy(m.to));
        let (sx, sy) = ((tx - fx).signum(), (ty - fy).signum());
        let (mut x, mut y) = (fx + sx, fy + sy);
        while (x, y) != (tx, ty) {
            let s = dims.square(x, y).unwrap();
            if occupied(s) {
                out.push(s);
            }
            (x, y) = (x + sx, y + sy);
        }
    }
    if m.to != m.from && occupied(m.to) {
        out.push(m.to);
    }
    out
}

/// The squares that lost their piece between `before` and `after` (the destination counts
/// when something else stood there).
fn removed(before: &Position, after: &Position, m: &Move) -> BTreeSet<Square> {
    before
        .pieces()
        .map(|(s, _)| s)
        .filter(|&s| s != m.from && (s == m.to || after.piece_at(s).is_none()))
        .collect()
}

/// Make/unmake of `m` in `pos`: victims, hash, consistency, exact restoration. `deep` adds the
/// costlier checks (board diff, from-scratch hash).
fn check_make_unmake(r: &Rules, pos: &mut Position, m: &Move, deep: bool) {
    let victims: Vec<Square> = m.victims(r.dims()).collect();
    assert_eq!(victims, oracle_victims(r, pos, m), "victims of {m:?}");
    let (before, hash) = (deep.then(|| pos.clone()), pos.hash());
    let undo = r.make(pos, m);
    if let Some(before) = &before {
        let set: BTreeSet<Square> = victims.iter().copied().collect();
        assert_eq!(removed(before, pos, m), set, "removed by {m:?}");
        assert!(r.is_consistent(pos), "after {m:?}");
    }
    r.unmake(pos, undo);
    assert_eq!(pos.hash(), hash, "hash restored after {m:?}");
    if let Some(before) = &before {
        assert_eq!(pos, before, "position restored after {m:?}");
        assert_eq!(pos.royals(B), before.royals(B));
        assert_eq!(pos.royals(W), before.royals(W));
        assert!(r.is_consistent(pos), "after unmaking {m:?}");
    }
}

/// The reply list from the cache equals generating every reply.
fn check_incremental(r: &Rules, cache: &mut MoveCache, pos: &mut Position, m: &Move) {
    let undo = r.make(pos, m);
    let mut replies = Vec::new();
    cache.moves_after(r, pos, m, &mut replies);
    assert_eq!(replies, r.legal_moves(pos), "replies after {m:?}");
    assert_eq!(cache.count_after(r, pos, m), replies.len() as u64);
    r.unmake(pos, undo);
}

/// A cache used three plies down (as a search reuses one when the parent has none): after
/// `m`, a reply and a move again, its list and its captures that may gain equal generating
/// them.
fn check_line(r: &Rules, cache: &mut MoveCache, pos: &mut Position, m: &Move) {
    let mut line = vec![*m];
    let mut undos = vec![r.make(pos, m)];
    for _ in 0..2 {
        let Some(next) = r.legal_moves(pos).into_iter().max_by_key(|m| m.captures()) else {
            break;
        };
        undos.push(r.make(pos, &next));
        line.push(next);
    }
    if line.len() == 3 {
        let mut moves = Vec::new();
        cache.moves_after_line(r, pos, &line, &mut moves);
        assert_eq!(moves, r.legal_moves(pos), "moves after {line:?}");
        let (mut caps, mut expected) = (Vec::new(), Vec::new());
        cache.captures_after(r, pos, &line, &mut caps);
        r.gainful_captures_into(pos, &mut Scratch::default(), &mut expected);
        assert_eq!(caps, expected, "captures after {line:?}");
    }
    for u in undos.into_iter().rev() {
        r.unmake(pos, u);
    }
}

/// Capture-only generation, the cheap outcome and the royal threats against their
/// definitions.
fn check_generation_queries(r: &Rules, pos: &Position, moves: &[Move]) {
    let mut caps = Vec::new();
    r.capture_moves_into(pos, &mut Scratch::default(), &mut caps);
    let expected: Vec<Move> = moves.iter().copied().filter(Move::captures).collect();
    assert_eq!(caps, expected);
    // The captures that may gain: the same filter generated or applied to a list, and what
    // they leave out never gains material (so the quiescence search may skip it).
    let mut gainful = Vec::new();
    r.gainful_captures_into(pos, &mut Scratch::default(), &mut gainful);
    let (kept, left): (Vec<Move>, Vec<Move>) =
        caps.iter().partition(|m| r.is_gainful_capture(pos, m));
    assert_eq!(gainful, kept);
    let eval = eval::shared_eval(r);
    for m in &left {
        assert!(eval.move_gain(r, pos, m) <= 0, "{m:?} gains");
    }
    let old = pos.outcome().is_some() || moves.is_empty();
    assert_eq!(r.outcome(pos).is_some(), old);
    let mut them = pos.clone();
    them.set_to_move(pos.to_move().opponent());
    let threats: Vec<Move> = r
        .legal_moves(&them)
        .into_iter()
        .filter(|m| {
            m.victims(r.dims()).any(|s| {
                pos.piece_at(s)
                    .is_some_and(|p| p.side == pos.to_move() && r.catalogue().kind(p.kind).royal)
            })
        })
        .collect();
    assert_eq!(r.royal_threats(pos), threats);
}

/// A random game of `plies` moves (captures preferred, to reach range captures and the end of
/// the game), checking every move's make/unmake and victims, moves with several victims and about `sample`
/// moves per ply deeply and incrementally, and the generation queries every fourth ply.
/// Returns how many moves with several victims it checked.
fn check_random_game(r: &Rules, seed: u64, plies: usize, sample: usize) -> usize {
    let mut several = 0;
    let mut rng = Rng::new(seed);
    let mut pos = r.start_position();
    let mut cache = MoveCache::new();
    for ply in 0..plies {
        let moves = r.legal_moves(&pos);
        if ply % 4 == 0 || moves.len() < 50 {
            check_generation_queries(r, &pos, &moves);
        }
        if moves.is_empty() {
            break;
        }
        cache.build(r, &pos, pos.to_move().opponent());
        for (i, m) in moves.iter().enumerate() {
            let many = m.victims(r.dims()).nth(1).is_some();
            several += many as usize;
            let deep = many || rng.below(moves.len()) < sample;
            check_make_unmake(r, &mut pos, m, deep);
            if deep || i == 0 {
                check_incremental(r, &mut cache, &mut pos, m);
            }
            if i == 0 || (many && i % 16 == 0) {
                check_line(r, &mut cache, &mut pos, m);
            }
        }
        let captures: Vec<&Move> = moves.iter().filter(|m| m.captures()).collect();
        let m = match captures.len() {
            0 => &moves[rng.below(moves.len())],
            n => captures[rng.below(n)],
        };
        r.play_unchecked(&mut pos, m);
        assert!(r.is_consistent(&pos));
    }
    several
}

#[test]
fn random_games_keep_the_core_invariants() {
    for name in SETS {
        let several = check_random_game(rules(name), 1, 150, 1);
        if name != "umebayashi" {
            assert!(several > 0, "{name}: no move with several victims met");
        }
    }
}

/// Sho shogi's small board lets the random games run to their end (royals captured, the
/// drunk elephant's prince as a second royal).
#[test]
fn random_sho_games_keep_the_core_invariants() {
    let several: usize = (1..=60)
        .map(|seed| check_random_game(sho(), seed, 200, 3))
        .sum();
    assert!(several == 0, "sho has no move with several victims");
}

/// Walking the tree with make/unmake counts what bulk counting counts.
#[test]
fn perft_without_bulk_counting_agrees() {
    for name in SETS {
        let r = rules(name);
        let p = r.start_position();
        assert_eq!(
            perft::perft_no_bulk(r, &p, 2),
            perft::perft(r, &p, 2),
            "{name}"
        );
    }
    let p = sho().start_position();
    assert_eq!(
        perft::perft_no_bulk(sho(), &p, 4),
        perft::perft(sho(), &p, 4)
    );
}

/// The long run: `cargo test --release --test core -- --ignored`.
#[test]
#[ignore]
fn many_random_games_keep_the_core_invariants() {
    for name in SETS {
        for seed in 100..1100 {
            let _ = check_random_game(rules(name), seed, 400, 4);
        }
    }
    for seed in 100..10_100 {
        let _ = check_random_game(sho(), seed, 300, 10);
    }
}

//! Move generation and perft from the opening, per rule set; make/unmake against copying the
//! board, incremental against full generation, and the outcome test against generating every
//! move (the old way), on the opening and on a position 80 random moves in.
//! The incremental attack information against computing it afresh after every move (`attacks_`).
//! Run with `cargo bench --bench movegen`.

use divan::Bencher;
use divan::counter::ItemsCount;
use taikyoku_core::attacks::Attacks;
use taikyoku_core::game::Game;
use taikyoku_core::movecache::MoveCache;
use taikyoku_core::movegen::Scratch;
use taikyoku_core::moves::Move;
use taikyoku_core::perft;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

fn main() {
    divan::main();
}

fn rules(name: &str) -> Rules {
    Rules::new(Game::builtin("taikyoku").expect("built-in data"), name).expect("rule set")
}

const SETS: [&str; 3] = ["wikipedia", "umebayashi", "atsa"];

#[divan::bench(args = SETS)]
fn legal_moves_opening(bencher: Bencher, name: &str) {
    let r = rules(name);
    let p = r.start_position();
    bencher.bench_local(|| r.legal_moves(divan::black_box(&p)).len());
}

#[divan::bench(args = SETS)]
fn perft_2_opening(bencher: Bencher, name: &str) {
    let r = rules(name);
    let p = r.start_position();
    bencher.bench_local(|| perft::perft(&r, divan::black_box(&p), 2));
}

#[divan::bench(args = ["wikipedia", "atsa"], sample_count = 5, sample_size = 1)]
fn perft_3_opening(bencher: Bencher, name: &str) {
    let r = rules(name);
    let p = r.start_position();
    bencher.bench_local(|| perft::perft(&r, divan::black_box(&p), 3));
}

#[divan::bench]
fn load_and_compile(bencher: Bencher) {
    bencher.bench_local(|| rules("wikipedia"));
}

/// The opening, or the position after `plies` seeded random moves (captures preferred).
fn position(r: &Rules, plies: usize) -> Position {
    let mut p = r.start_position();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..plies {
        let moves = r.legal_moves(&p);
        let captures: Vec<&Move> = moves.iter().filter(|m| m.captures()).collect();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = (seed >> 33) as usize;
        let m = match captures.len() {
            0 => &moves[pick % moves.len()],
            n => captures[pick % n],
        };
        r.play_unchecked(&mut p, m);
    }
    p
}

const PLACES: [usize; 2] = [0, 80];

/// Make and unmake every legal move.
#[divan::bench(consts = PLACES)]
fn make_unmake_every_move<const PLIES: usize>(bencher: Bencher) {
    let r = rules("atsa");
    let mut p = position(&r, PLIES);
    let moves = r.legal_moves(&p);
    bencher.bench_local(|| {
        for m in &moves {
            let undo = r.make(&mut p, m);
            r.unmake(&mut p, undo);
        }
    });
}

/// The old way to try every move: copy the position and play the move on the copy.
#[divan::bench(consts = PLACES)]
fn copy_and_play_every_move<const PLIES: usize>(bencher: Bencher) {
    let r = rules("atsa");
    let p = position(&r, PLIES);
    let moves = r.legal_moves(&p);
    let mut child = p.clone();
    bencher.bench_local(|| {
        for m in &moves {
            child.clone_from(&p);
            r.play_unchecked(&mut child, m);
        }
    });
}

/// Makes each legal move of the position `plies` in, lists the replies with `replies` into a
/// reused buffer, and unmakes it.
fn every_reply(
    bencher: Bencher,
    plies: usize,
    mut replies: impl FnMut(&Rules, &Position, &Move, &mut Vec<Move>),
) {
    let r = rules("atsa");
    let mut p = position(&r, plies);
    let moves = r.legal_moves(&p);
    let mut out = Vec::new();
    bencher.bench_local(|| {
        for m in &moves {
            let undo = r.make(&mut p, m);
            out.clear();
            replies(&r, &p, m, &mut out);
            r.unmake(&mut p, undo);
        }
    });
}

/// Every move's reply list, from the move cache (only the pieces that read a changed square
/// are generated again).
#[divan::bench(consts = PLACES)]
fn replies_incremental<const PLIES: usize>(bencher: Bencher) {
    let r = rules("atsa");
    let p = position(&r, PLIES);
    let mut cache = MoveCache::new();
    cache.build(&r, &p, p.to_move().opponent());
    every_reply(bencher, PLIES, |r, p, m, out| {
        cache.moves_after(r, p, m, out)
    });
}

/// Every move's reply list, generated in full.
#[divan::bench(consts = PLACES)]
fn replies_full<const PLIES: usize>(bencher: Bencher) {
    let mut scratch = Scratch::default();
    every_reply(bencher, PLIES, |r, p, _, out| {
        r.legal_moves_into(p, &mut scratch, out)
    });
}

/// Whether the game is over: stops at the first piece with a move.
#[divan::bench(consts = PLACES)]
fn outcome<const PLIES: usize>(bencher: Bencher) {
    let r = rules("atsa");
    let p = position(&r, PLIES);
    bencher.bench_local(|| r.outcome(divan::black_box(&p)));
}

/// The old outcome test: generate every move and see whether there is one.
#[divan::bench(consts = PLACES)]
fn outcome_by_full_generation<const PLIES: usize>(bencher: Bencher) {
    let r = rules("atsa");
    let p = position(&r, PLIES);
    bencher
        .bench_local(|| divan::black_box(&p).outcome().is_none() && r.legal_moves(&p).is_empty());
}

/// Only the capturing moves (for a quiescence search).
#[divan::bench(consts = PLACES)]
fn capture_moves<const PLIES: usize>(bencher: Bencher) {
    let r = rules("atsa");
    let p = position(&r, PLIES);
    let (mut scratch, mut out) = (Scratch::default(), Vec::new());
    bencher.bench_local(|| {
        out.clear();
        r.capture_moves_into(divan::black_box(&p), &mut scratch, &mut out);
        out.len()
    });
}

#[divan::bench(args = ["atsa"], sample_count = 5, sample_size = 1)]
fn perft_2_no_bulk(bencher: Bencher, name: &str) {
    let r = rules(name);
    let p = r.start_position();
    bencher.bench_local(|| perft::perft_no_bulk(&r, divan::black_box(&p), 2));
}

const MIDGAME: [usize; 3] = [0, 80, 200];

/// Per legal move of the `atsa` position `plies` in: `each` (which makes and unmakes it) with
/// the state `start` makes, counted per move.
fn per_move<T>(
    bencher: Bencher,
    plies: usize,
    start: impl FnOnce(&Rules, &Position) -> T,
    mut each: impl FnMut(&Rules, &mut Position, &mut T, &Move),
) {
    let r = rules("atsa");
    let mut p = position(&r, plies);
    let moves = r.legal_moves(&p);
    let mut state = start(&r, &p);
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| {
            for m in &moves {
                each(&r, &mut p, &mut state, m);
            }
        });
}

/// Make the move, bring the attack information up to date (both sides' every piece, as a
/// query needs it), unmake it (the information restored).
#[divan::bench(consts = MIDGAME)]
fn attacks_update_per_move<const PLIES: usize>(bencher: Bencher) {
    per_move(bencher, PLIES, Attacks::new, |r, p, a, m| {
        let undo = a.make(r, p, m);
        a.update(r, p);
        a.unmake(r, p, undo);
    });
}

/// Make the move, compute the attack information afresh, unmake it.
#[divan::bench(consts = MIDGAME, sample_count = 10)]
fn attacks_rebuild_per_move<const PLIES: usize>(bencher: Bencher) {
    per_move(bencher, PLIES, Attacks::new, |r, p, a, m| {
        let undo = r.make(p, m);
        a.build(r, p);
        r.unmake(p, undo);
    });
}

/// Make the move, list the replier's captures that may gain from the attack information,
/// unmake it (a quiescence node's generation).
#[divan::bench(consts = MIDGAME)]
fn attacks_captures_per_move<const PLIES: usize>(bencher: Bencher) {
    let start = |r: &Rules, p: &Position| (Attacks::new(r, p), Vec::new());
    per_move(bencher, PLIES, start, |r, p, (a, out), m| {
        let undo = a.make(r, p, m);
        out.clear();
        a.captures_into(r, p, p.to_move(), out);
        a.unmake(r, p, undo);
    });
}

/// The same from the move cache, as the search does it today: built for the replier (here
/// once for all the moves), then per move the captures that may gain.
#[divan::bench(consts = MIDGAME)]
fn movecache_captures_per_move<const PLIES: usize>(bencher: Bencher) {
    let start = |r: &Rules, p: &Position| {
        let mut cache = MoveCache::new();
        cache.build(r, p, p.to_move().opponent());
        (cache, Vec::new())
    };
    per_move(bencher, PLIES, start, |r, p, (cache, out), m| {
        let undo = r.make(p, m);
        out.clear();
        cache.captures_after(r, p, std::slice::from_ref(m), out);
        r.unmake(p, undo);
    });
}

/// The same generated in full after each move.
#[divan::bench(consts = MIDGAME)]
fn generated_captures_per_move<const PLIES: usize>(bencher: Bencher) {
    let start = |_: &Rules, _: &Position| (Scratch::default(), Vec::new());
    per_move(bencher, PLIES, start, |r, p, (scratch, out), m| {
        let undo = r.make(p, m);
        out.clear();
        r.gainful_captures_into(p, scratch, out);
        r.unmake(p, undo);
    });
}

/// Building the move cache for the replier, which the search does at every node with a
/// second child to search (the attack information never needs it).
#[divan::bench(consts = MIDGAME)]
fn movecache_build<const PLIES: usize>(bencher: Bencher) {
    let r = rules("atsa");
    let p = position(&r, PLIES);
    let mut cache = MoveCache::new();
    bencher.bench_local(|| cache.build(&r, divan::black_box(&p), p.to_move().opponent()));
}

//! The search's speed in Taikyoku, in the opening and in a crowded middlegame (100 seeded
//! random moves in): nodes per second under a fixed node budget (every run searches the same
//! tree single-threaded; divan's items/s column is nodes/s), and the time to finish a fixed
//! depth with 1 and 2 threads (Lazy SMP: what the helper thread buys is the ratio of the two
//! times). Run with `cargo bench --bench search`; on a loaded machine run it at high priority
//! (`nice -n -10`), as the threads compete with everything else for the cores.

use divan::Bencher;
use divan::counter::ItemsCount;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_search::{Limits, SearchOptions, Searcher, players};

fn main() {
    divan::main();
}

/// Nodes per measured search.
const NODES: u64 = 20_000;

fn rules() -> Arc<Rules> {
    Arc::new(Rules::builtin("taikyoku", "wikipedia").expect("built-in data"))
}

/// The opening, or the position after `plies` seeded random moves.
fn position(r: &Rules, plies: u64) -> Position {
    let mut p = r.start_position();
    for s in 0..plies {
        match players::random_move(r, &p, s) {
            Some(m) => r.play_unchecked(&mut p, &m),
            None => break,
        }
    }
    p
}

/// Searches the position `plies` in with a fresh searcher of `threads` threads, each sample.
fn bench_search(bencher: Bencher, plies: u64, threads: usize, limits: Limits) {
    let r = rules();
    let p = position(&r, plies);
    let opts = SearchOptions {
        hash_mb: 16,
        threads,
        seed: 1,
    };
    let stop = AtomicBool::new(false);
    bencher
        .with_inputs(|| Searcher::new(r.clone(), opts))
        .bench_local_values(|mut s| s.search(&p, &limits, &stop, &mut |_| {}).nodes);
}

/// Single thread: the opening (0) and 100 random moves in.
#[divan::bench(args = [0, 100], sample_count = 5, sample_size = 1)]
fn nodes_per_second(bencher: Bencher, plies: u64) {
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    bench_search(bencher.counter(ItemsCount::new(NODES)), plies, 1, limits);
}

/// The depth [`time_to_depth`] searches.
const DEPTH: u32 = 5;

/// The time to complete depth [`DEPTH`] with `THREADS` threads, in the opening (0) and 100
/// random moves in: the Lazy SMP speed-up is the 1-thread time over the 2-thread time.
#[divan::bench(consts = [1, 2], args = [0, 100], sample_count = 3, sample_size = 1)]
fn time_to_depth<const THREADS: usize>(bencher: Bencher, plies: u64) {
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    bench_search(bencher, plies, THREADS, limits);
}

//! The search's speed: nodes per second, single thread, in the Taikyoku opening and in a
//! crowded middlegame (100 seeded random moves in), with a fixed node budget so every run
//! searches the same tree (divan's items/s column is nodes/s). Run with
//! `cargo bench --bench search`.

use divan::Bencher;
use divan::counter::ItemsCount;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use taikyoku::position::Position;
use taikyoku::rules::Rules;
use taikyoku::search::{self, Limits, SearchOptions, Searcher};

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
        match search::random_move(r, &p, s) {
            Some(m) => r.play_unchecked(&mut p, &m),
            None => break,
        }
    }
    p
}

fn search_nodes(bencher: Bencher, plies: u64, threads: usize) {
    let r = rules();
    let p = position(&r, plies);
    let opts = SearchOptions {
        hash_mb: 16,
        threads,
        seed: 1,
    };
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    bencher
        .counter(ItemsCount::new(NODES))
        .with_inputs(|| Searcher::new(r.clone(), opts))
        .bench_local_values(|mut s| s.search(&p, &limits, &stop, &mut |_| {}).nodes);
}

/// Single thread: the opening (0) and 100 random moves in.
#[divan::bench(args = [0, 100], sample_count = 5, sample_size = 1)]
fn nodes_per_second(bencher: Bencher, plies: u64) {
    search_nodes(bencher, plies, 1);
}

//! Move generation and perft from the opening, per rule set.
//! Run with `cargo bench --bench movegen`.

use divan::Bencher;
use taikyoku::game::Game;
use taikyoku::rules::Rules;

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
    bencher.bench_local(|| r.perft(divan::black_box(&p), 2));
}

#[divan::bench(args = ["wikipedia", "atsa"], sample_count = 5, sample_size = 1)]
fn perft_3_opening(bencher: Bencher, name: &str) {
    let r = rules(name);
    let p = r.start_position();
    bencher.bench_local(|| r.perft(divan::black_box(&p), 3));
}

#[divan::bench]
fn load_and_compile(bencher: Bencher) {
    bencher.bench_local(|| rules("wikipedia"));
}

//! Checking a long game record: parse and replay a 2,000-move game (the target is at most
//! 50 ms). Run with `cargo bench --bench record`.
//!
//! The game is random but reproducible (seeded), and quiet (non-capturing moves where there are
//! any) so that it runs its full length without ending.

use taikyoku_testkit as common;

use divan::Bencher;
use std::sync::OnceLock;
use taikyoku_core::game::Game;
use taikyoku_records::record::Record;

fn main() {
    divan::main();
}

const MOVES: usize = 2000;
const SETS: [&str; 3] = ["wikipedia", "umebayashi", "atsa"];

/// The record's text under a rule set, made once.
fn record_text(name: &str) -> &'static str {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        SETS.iter()
            .map(|&n| {
                let (record, _) = common::random_game(common::rules(n), 2026, MOVES, true);
                assert_eq!(record.moves().len(), MOVES);
                assert_eq!(record.outcome, None);
                record.to_toml()
            })
            .collect()
    });
    &texts[SETS.iter().position(|&n| n == name).expect("a rule set")]
}

/// `taikyoku check`'s work once the game data is loaded: parse, compile the rule set, replay.
#[divan::bench(args = SETS)]
fn check_2000_moves(bencher: Bencher, name: &str) {
    let text = record_text(name);
    let game = Game::builtin("taikyoku").expect("built-in data");
    bencher.bench_local(|| {
        let record = Record::parse("bench.toml", divan::black_box(text)).expect("a record");
        record.replay(&game).expect("legal moves").history.point()
    });
}

/// The same, loading the built-in game data too: all of `taikyoku check` but reading the file.
#[divan::bench(args = ["wikipedia"])]
fn check_2000_moves_with_data(bencher: Bencher, name: &str) {
    let text = record_text(name);
    bencher.bench_local(|| {
        let game = Game::builtin("taikyoku").expect("built-in data");
        let record = Record::parse("bench.toml", divan::black_box(text)).expect("a record");
        record.replay(&game).expect("legal moves").history.point()
    });
}

/// Parsing alone.
#[divan::bench(args = ["wikipedia"])]
fn parse_2000_moves(bencher: Bencher, name: &str) {
    let text = record_text(name);
    bencher.bench_local(|| Record::parse("bench.toml", divan::black_box(text)).expect("a record"));
}

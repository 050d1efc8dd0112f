//! Naming moves: `taikyoku moves` on a position of 60 lions and hook movers (11,624 moves)
//! must cost about what generating them costs, not once per move more. Run with
//! `cargo bench --bench notation`.

use taikyoku_testkit as common;

use divan::Bencher;
use taikyoku_core::notation;
use taikyoku_core::position::Position;

fn main() {
    divan::main();
}

/// 30 lions and 30 hook movers of Black's in the middle of the board, and the two kings.
fn crowd() -> Position {
    let r = common::rules("wikipedia");
    let mut pieces = Vec::new();
    for (n, (y, x)) in (0..12)
        .flat_map(|row| (0..11).map(move |col| (6 + 2 * row, 2 + 3 * col)))
        .take(60)
        .enumerate()
    {
        pieces.push((if n % 2 == 0 { "LN" } else { "HM" }, common::B, x, y));
    }
    common::with_kings(r, common::B, &pieces)
}

/// Every legal move, generated.
#[divan::bench]
fn generate(bencher: Bencher) {
    let r = common::rules("wikipedia");
    let pos = crowd();
    bencher.bench_local(|| r.legal_moves(divan::black_box(&pos)).len());
}

/// Every legal move, generated and named (what `taikyoku moves` prints).
#[divan::bench]
fn generate_and_name(bencher: Bencher) {
    let r = common::rules("wikipedia");
    let pos = crowd();
    bencher.bench_local(|| {
        let moves = r.legal_moves(divan::black_box(&pos));
        notation::move_strings(r, &pos, &moves).len()
    });
}

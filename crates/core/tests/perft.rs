//! Perft regression numbers from the opening, and the incremental leaf count checked against
//! plain move generation on positions from random games.

use taikyoku_core::perft;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_testkit::*;

/// Numbers computed by this program; the atsa ones agree with ATSA's own engine (their
/// TypeScript engine, snapshot 48ffcf7 of 2025-12-26, run on the same position regenerating
/// every piece's moves: 488; 237,797; 124,697,474).
#[test]
fn perft_from_the_opening() {
    for (name, expected) in [
        ("wikipedia", [265u64, 70_201]),
        ("umebayashi", [301, 88_672]),
        ("atsa", [488, 237_797]),
    ] {
        let r = rules(name);
        let p = r.start_position();
        assert_eq!(perft::perft(r, &p, 1), expected[0], "{name} perft 1");
        assert_eq!(perft::perft(r, &p, 2), expected[1], "{name} perft 2");
    }
}

#[test]
fn perft_3_from_the_opening() {
    let r = rules("atsa");
    assert_eq!(perft::perft(r, &r.start_position(), 3), 124_697_474);
    let r = rules("wikipedia");
    assert_eq!(perft::perft(r, &r.start_position(), 3), WIKIPEDIA_PERFT_3);
}

const WIKIPEDIA_PERFT_3: u64 = 23_454_170;

/// Sho shogi from the opening: regression numbers computed by this program. Depth 1 by hand:
/// modern shogi's opening has 30 moves (9 pawns, 2 lances, 2 per silver, 3 per gold, 3 for the
/// king, 6 for the rook: 5 to its left and 1 to its right; no knight or bishop move). The drunk
/// elephant on 5.8 takes 5.8 from the king and both golds (−3) and cuts the rook's slide left
/// at 4.8 (−3), and has 2 moves itself (sideways to 4.8 and 6.8; every other step is blocked
/// by its own side): 30 − 6 + 2 = 26. Depth 2 is 26 × 26: no first move changes the other
/// side's replies.
#[test]
fn sho_perft_from_the_opening() {
    let r = sho();
    let p = r.start_position();
    assert_eq!(perft::perft(r, &p, 1), 26);
    assert_eq!(perft::perft(r, &p, 2), 676);
    assert_eq!(perft::perft(r, &p, 3), 17_368);
}

/// A small deterministic generator for reproducible random games.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn random_game(r: &Rules, seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = Lcg(seed);
    let mut p = r.start_position();
    let mut seen = vec![p.clone()];
    for _ in 0..plies {
        let moves = r.legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        r.play_unchecked(&mut p, &m);
        seen.push(p.clone());
    }
    seen
}

#[test]
fn incremental_leaf_count_equals_generation() {
    for name in ["wikipedia", "umebayashi", "atsa"] {
        let r = rules(name);
        for seed in 1..=3 {
            for (i, p) in random_game(r, seed, 300).iter().enumerate().step_by(37) {
                let mut plain = 0u64;
                for m in r.legal_moves(p) {
                    let mut c = p.clone();
                    r.play_unchecked(&mut c, &m);
                    plain += r.legal_moves(&c).len() as u64;
                }
                assert_eq!(perft::perft(r, p, 2), plain, "{name} seed {seed} ply {i}");
            }
        }
    }
}

/// Positions from random games of ATSA's own engine, with its move counts and perft 2
/// (tests/data/atsa_positions.txt): the atsa rule set must give the same numbers.
#[test]
fn atsa_agrees_with_their_engine_on_random_positions() {
    let r = rules("atsa");
    let data = include_str!("data/atsa_positions.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = line.splitn(3, ' ');
        let moves: usize = f.next().unwrap().parse().unwrap();
        let perft2: u64 = f.next().unwrap().parse().unwrap();
        let tsfen = f.next().unwrap();
        let p = taikyoku_core::notation::parse_tsfen(r, tsfen).unwrap();
        assert_eq!(r.legal_moves(&p).len(), moves, "{tsfen}");
        assert_eq!(perft::perft(r, &p, 2), perft2, "{tsfen}");
        checked += 1;
    }
    assert_eq!(checked, 18);
}

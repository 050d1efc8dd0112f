//! Chu and Dai shogi against HaChu 0.21 (H. G. Muller's XBoard engine, Debian package
//! `hachu`), run locally by `tools/hachu_oracle.py` and never needed here: games HaChu played
//! (with random moves of ours mixed in), and our move lists at sampled plies of them, each
//! move sent to HaChu, which took all of them but those listed after `|` (the file's header
//! says why). `tests/data/chu_hachu.txt`, `tests/data/dai_hachu.txt`.
//!
//! `game G MOVE…`: game G's moves from the opening, in our notation; every move HaChu chose
//! in it was one of ours. `at G PLY COUNT DIGEST [| REFUSED…]`: after PLY moves of game G, the
//! number of our moves and the 64-bit FNV-1a hash of their sorted notations joined by single
//! spaces, and the moves HaChu refused. The games are replayed, not read from position
//! strings, so that state beyond the board (the counter-strike) is as it was.

use std::collections::BTreeMap;
use taikyoku_core::notation;
use taikyoku_core::rules::Rules;

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Checks every sampled ply of `data` under `game`'s default rules; returns how many.
fn check(game: &str, data: &str) -> usize {
    let r = Rules::builtin(game, "standard").unwrap();
    let mut games: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut checked = 0;
    // The game being replayed, how far, and its position there (samples come in order).
    let (mut current, mut played, mut p) = ("", 0, r.start_position());
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (head, refused) = line.split_once(" | ").unwrap_or((line, ""));
        let words: Vec<&str> = head.split(' ').collect();
        match words[0] {
            "game" => {
                games.insert(words[1], words[2..].to_vec());
            }
            "at" => {
                let ply: usize = words[2].parse().unwrap();
                if current != words[1] || played > ply {
                    (current, played, p) = (words[1], 0, r.start_position());
                }
                for m in &games[words[1]][played..ply] {
                    let mv = notation::parse_move(&r, &p, m).unwrap();
                    r.play(&mut p, &mv).unwrap();
                }
                played = ply;
                let mut names = notation::move_strings(&r, &p, &r.legal_moves(&p));
                names.sort();
                let at = format!("game {} ply {ply}", words[1]);
                assert_eq!(names.len().to_string(), words[3], "{at}");
                let digest = u64::from_str_radix(words[4], 16).unwrap();
                assert_eq!(fnv1a(&names.join(" ")), digest, "{at}: {names:?}");
                for m in refused.split_whitespace() {
                    assert!(names.iter().any(|n| n == m), "{at}: {m} is not ours");
                }
                checked += 1;
            }
            other => panic!("unknown line {other:?}"),
        }
    }
    checked
}

#[test]
fn our_chu_move_lists_are_those_hachu_was_asked_about() {
    let checked = check("chu", include_str!("data/chu_hachu.txt"));
    assert!(checked >= 1000, "{checked} positions");
}

#[test]
fn our_dai_move_lists_are_those_hachu_was_asked_about() {
    let checked = check("dai", include_str!("data/dai_hachu.txt"));
    assert!(checked >= 500, "{checked} positions");
}

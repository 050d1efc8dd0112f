//! Chu shogi against HaChu 0.21 (H. G. Muller's XBoard engine, Debian package `hachu`), run
//! locally by `tools/hachu_oracle.py` and never needed here: the move lists we generated on
//! positions of games HaChu played (`tests/data/chu_hachu.txt`), each move sent to HaChu,
//! which took all of them but those the line lists after `|` (the file's header says why).
//!
//! Each line is `COUNT DIGEST POSITION [| REFUSED…]`: the number of our moves, the 64-bit
//! FNV-1a hash of their sorted notations joined by single spaces, the position string, and
//! the moves HaChu refused. A change to Chu's move generation changes a digest here.

use taikyoku_core::notation;
use taikyoku_core::rules::Rules;

const DATA: &str = include_str!("data/chu_hachu.txt");

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn our_chu_move_lists_are_those_hachu_was_asked_about() {
    let r = Rules::builtin("chu", "standard").unwrap();
    let mut checked = 0;
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (head, refused) = line.split_once(" | ").unwrap_or((line, ""));
        let mut parts = head.splitn(3, ' ');
        let count: usize = parts.next().unwrap().parse().unwrap();
        let digest = u64::from_str_radix(parts.next().unwrap(), 16).unwrap();
        let text = parts.next().unwrap();
        let p = notation::parse_position_string(&r, text).unwrap();
        let mut names = notation::move_strings(&r, &p, &r.legal_moves(&p));
        names.sort();
        assert_eq!(names.len(), count, "{text}");
        assert_eq!(fnv1a(&names.join(" ")), digest, "{text}: {names:?}");
        for m in refused.split_whitespace() {
            assert!(names.iter().any(|n| n == m), "{text}: {m} is not ours");
        }
        checked += 1;
    }
    assert!(checked >= 1000, "{checked} positions");
}

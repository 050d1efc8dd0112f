//! Zobrist hashing: a position's 64-bit hash is the XOR of a key per (piece, square) and a key
//! for the side to move, so a move updates it with a few XORs.
//!
//! The keys are computed, not tabled: a table for every piece code (kind × side × promoted) on
//! every mailbox cell would be 301 × 4 × 1,936 keys (18 MB) for Taikyoku and miss the cache on
//! every update. Instead a key is a fixed seed mixed with the piece code and the cell by
//! splitmix64's finaliser, a bijection on 64 bits: distinct (piece, cell) pairs get distinct,
//! well-spread keys, the same on every run and machine, for any board size and catalogue.

use crate::piece::{Cell, EMPTY};

/// The fixed seed: hashes are reproducible (tests, transposition tables saved to disk).
const SEED: u64 = 0x7461_696b_796f_6b75;

/// XORed in when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;

/// XORed in while the counter-strike rule holds ([`crate::position::Position::struck`]).
pub(crate) const STRUCK: u64 = 0x5851_f42d_4c95_7f2d;

/// splitmix64's finaliser.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The key of the piece encoded as `cell` on mailbox cell `idx`; 0 for an empty cell.
#[inline]
pub(crate) fn key(cell: Cell, idx: usize) -> u64 {
    if cell == EMPTY {
        0
    } else {
        mix(SEED ^ ((cell as u64) << 32) ^ idx as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_and_empty_is_zero() {
        let mut seen = std::collections::HashSet::new();
        for cell in 1..2000u16 {
            for idx in [0, 1, 43, 1935] {
                assert!(seen.insert(key(cell, idx)));
            }
        }
        assert_eq!(key(EMPTY, 5), 0);
        assert!(!seen.contains(&WHITE_TO_MOVE));
        assert!(!seen.contains(&STRUCK));
    }
}

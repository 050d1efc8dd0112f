//! The transposition table: what the search learnt about a position, one packed word per
//! entry, shared by every thread without a lock; a move is stored as its [`fingerprint`].

use std::hash::Hasher;
use std::sync::atomic::{AtomicU64, Ordering};
use taikyoku_core::moves::Move;

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// A table entry, packed into one word: the score (25 bits, offset), the depth (7 bits), the
/// bound (2 bits, 0 in an empty slot), the generation (6 bits) and the move's
/// [`fingerprint`] (24 bits, 0 for none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub mv: u32,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub generation: u8,
}

const SCORE_OFFSET: i64 = 1 << 24;
/// Searches are numbered modulo this (an entry of an older search may be replaced).
pub(crate) const GENERATIONS: u8 = 64;

impl Entry {
    fn pack(self) -> u64 {
        let score = (self.score as i64 + SCORE_OFFSET).clamp(0, 2 * SCORE_OFFSET - 1) as u64;
        score
            | (self.depth.clamp(0, 127) as u64) << 25
            | (self.bound as u64) << 32
            | ((self.generation % GENERATIONS) as u64) << 34
            | (self.mv as u64 & 0xff_ffff) << 40
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 32) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: (data >> 40) as u32,
            score: ((data & 0x1ff_ffff) as i64 - SCORE_OFFSET) as i32,
            depth: ((data >> 25) & 127) as i32,
            bound,
            generation: ((data >> 34) & 63) as u8,
        })
    }
}

/// A move's fingerprint in the table (a [`Move`] is 24 bytes, an entry 16): its destination
/// (11 bits, compared first as it is cheap) and 13 bits of a hash of the whole move; never 0.
/// A collision can only misorder moves: the fingerprint is matched against generated moves.
pub(crate) fn fingerprint(m: &Move) -> u32 {
    let mut h = Fx(0);
    std::hash::Hash::hash(m, &mut h);
    ((m.to.0 as u32 & 0x7ff) << 13 | (h.0 >> 51) as u32).max(1)
}

/// Whether `m` is the move a table entry names by its fingerprint `fp`.
pub(crate) fn is_move(fp: u32, m: &Move) -> bool {
    fp != 0 && fp >> 13 == m.to.0 as u32 & 0x7ff && fingerprint(m) == fp
}

/// A fast hasher for fingerprints (multiply and rotate, as in rustc's FxHash).
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(b as u64));
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }

    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// The transposition table, shared by every thread of a search without a lock: a slot is two
/// words, the key XORed with the packed entry and the entry, so that a slot torn by two
/// threads writing at once reads back under another key and is ignored. One entry per slot,
/// replaced by deeper or newer results.
pub(crate) struct Table {
    slots: Box<[[AtomicU64; 2]]>,
}

impl Table {
    /// A table of about `mb` MiB.
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>();
        Table::with_slots(n.max(1))
    }

    fn with_slots(n: usize) -> Table {
        Table {
            slots: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    /// The entry in `slot` and the key it was stored under.
    fn read(slot: &[AtomicU64; 2]) -> Option<(u64, Entry)> {
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        Entry::unpack(data).map(|e| (check ^ data, e))
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        Self::read(self.slot(key)).and_then(|(k, e)| (k == key).then_some(e))
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let replace = Self::read(slot).is_none_or(|(k, old)| {
            k == key || old.generation != entry.generation || entry.depth >= old.depth
        });
        if replace {
            let data = entry.pack();
            slot[0].store(key ^ data, Ordering::Relaxed);
            slot[1].store(data, Ordering::Relaxed);
        }
    }

    /// Empties every slot (a new game).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use taikyoku_core::rules::Rules;

    fn entry(score: i32, depth: i32, bound: Bound, generation: u8, mv: u32) -> Entry {
        Entry {
            mv,
            score,
            depth,
            bound,
            generation,
        }
    }

    #[test]
    fn an_entry_packs_into_one_word_and_back() {
        let mate = crate::worker::MATE;
        for (score, depth, bound, generation, mv) in [
            (mate, 63, Bound::Exact, 0, 0xff_ffff),
            (-mate, 1, Bound::Upper, 63, 1),
            (0, 0, Bound::Lower, 17, 0),
            (-123, 9, Bound::Exact, 5, 0x12_3456),
        ] {
            let e =
                Entry::unpack(entry(score, depth, bound, generation, mv).pack()).expect("entry");
            assert_eq!(
                (e.score, e.depth, e.bound, e.generation, e.mv),
                (score, depth, bound, generation, mv)
            );
        }
        assert!(Entry::unpack(0).is_none(), "an empty slot holds nothing");
    }

    #[test]
    fn the_table_finds_what_it_stored_and_ignores_a_torn_slot() {
        let t = Table::new(1);
        assert!(t.probe(0).is_none(), "key 0 in an empty table");
        let (a, b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        t.store(a, entry(42, 3, Bound::Lower, 1, 7));
        assert_eq!(t.probe(a).map(|e| e.score), Some(42));
        assert!(t.probe(b).is_none());
        // A slot written half by one thread and half by another: the check word of one entry
        // with the data of another reads back under neither key.
        let slot = t.slot(a);
        let other = entry(-5, 9, Bound::Exact, 1, 9).pack();
        slot[1].store(other, Ordering::Relaxed);
        assert!(t.probe(a).is_none());
        assert!(t.probe(b).is_none());
    }

    /// Threads storing into a table small enough that they collide all the time: whatever a
    /// probe returns was stored under the key it asked for (the score is derived from the key).
    #[test]
    fn threads_sharing_the_table_never_read_another_keys_entry() {
        let t = &Table::with_slots(8);
        let score = |k: u64| (k % 1_000_000) as i32;
        std::thread::scope(|s| {
            for seed in 0..3u64 {
                s.spawn(move || {
                    let mut rng = Rng(seed);
                    let mut found = 0;
                    for _ in 0..100_000 {
                        let k = rng.next_u64() % 64;
                        let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        if let Some(e) = t.probe(key) {
                            assert_eq!(e.score, score(key));
                            found += 1;
                        }
                        t.store(key, entry(score(key), 1, Bound::Exact, 0, 0));
                    }
                    assert!(found > 0);
                });
            }
        });
    }

    #[test]
    fn a_fingerprint_names_one_move_among_a_positions_moves() {
        let r = Rules::builtin("taikyoku", "wikipedia").expect("loads");
        let moves = r.legal_moves(&r.start_position());
        for m in &moves {
            let fp = fingerprint(m);
            assert!(is_move(fp, m));
            let same: Vec<&Move> = moves.iter().filter(|o| is_move(fp, o)).collect();
            assert_eq!(same, [m], "{m:?}");
        }
        assert!(!is_move(0, &moves[0]), "0 names no move");
    }
}

//! Move ordering: the root's order, ordering keys at a node (the table's move, captures by what
//! they gain, killers, history), the killers and the history the search fills in, and picking
//! the next move to search.

use crate::eval::Eval;
use crate::rng::Rng;
use crate::tt;
use taikyoku_core::movegen::Scratch;
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// The history table's size (hashed by from and to squares).
const HISTORY: usize = 1 << 16;

/// Credit for quiet moves that refuted, by from and to square (hashed), across the search.
pub(crate) struct History(Vec<i32>);

impl History {
    pub fn new() -> History {
        History(vec![0; HISTORY])
    }

    fn slot(m: &Move) -> usize {
        (m.from.0 as usize * 2039 + m.to.0 as usize) & (HISTORY - 1)
    }

    fn get(&self, m: &Move) -> i32 {
        self.0[History::slot(m)]
    }

    /// Credits `m`, which refuted at `depth`.
    pub fn reward(&mut self, m: &Move, depth: i32) {
        let h = &mut self.0[History::slot(m)];
        *h = (*h + depth * depth).min(1 << 20);
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|h| *h = 0);
    }
}

/// The last two quiet moves that refuted at a ply, newest first.
#[derive(Clone, Copy, Default)]
pub(crate) struct Killers([Option<Move>; 2]);

impl Killers {
    pub fn push(&mut self, m: Move) {
        if self.0[0] != Some(m) {
            self.0[1] = self.0[0];
            self.0[0] = Some(m);
        }
    }

    pub fn contains(&self, m: &Move) -> bool {
        self.0.contains(&Some(*m))
    }
}

/// What orders a node's moves beyond the moves themselves.
pub(crate) struct Hints<'a> {
    /// The table's move's [`tt::fingerprint`] (0 for none).
    pub tt_move: u32,
    pub killers: &'a Killers,
    pub history: &'a History,
}

/// A capture's key among captures: what it gains, cheaper movers first.
#[inline]
pub(crate) fn capture_key(gain: i32, mover: i32) -> i32 {
    gain * 16 - mover / 16
}

/// Ordering keys below the root: the hash move, then captures by what they gain (cheaper
/// movers first), killers, and quiet moves by history.
pub(crate) fn score_moves(
    eval: &Eval,
    rules: &Rules,
    pos: &Position,
    moves: &[Move],
    hints: Hints,
    scored: &mut Vec<(i32, Move)>,
) {
    scored.clear();
    let killers = hints.killers.0;
    for m in moves {
        let s = if tt::is_move(hints.tt_move, m) {
            1 << 30
        } else if m.captures() || m.promotes() {
            let gain = eval.move_gain(rules, pos, m);
            let mover = eval.mover_value(rules, pos, m);
            if gain > 0 && gain >= mover {
                (1 << 26) + capture_key(gain, mover)
            } else if gain > 0 {
                // It may lose the mover: after the killers (a static exchange evaluation's
                // bad captures, without one).
                (1 << 24) + capture_key(gain, mover)
            } else {
                gain
            }
        } else if killers[0] == Some(*m) {
            1 << 25
        } else if killers[1] == Some(*m) {
            (1 << 25) - 1
        } else {
            hints.history.get(m)
        };
        scored.push((s, *m));
    }
}

/// Ordering keys at the root, whose list is already ordered: `reversed` (odd helper threads)
/// takes it from the end after the best move so far, so that the main thread finds the moves
/// it comes to last already searched.
pub(crate) fn score_root(moves: &[Move], reversed: bool, scored: &mut Vec<(i32, Move)>) {
    scored.clear();
    for (i, m) in moves.iter().enumerate() {
        let s = if reversed && i > 0 {
            -((moves.len() - i) as i32)
        } else {
            -(i as i32)
        };
        scored.push((s, *m));
    }
}

/// Moves the best-scored of `scored[i..]` to `i`: a selection for the first few (most nodes
/// need only those), then one sort of the rest.
pub(crate) fn pick(scored: &mut [(i32, Move)], i: usize) {
    const SELECT: usize = 4;
    if i < SELECT {
        let mut best = i;
        for j in i + 1..scored.len() {
            if scored[j].0 > scored[best].0 {
                best = j;
            }
        }
        scored.swap(i, best);
    } else if i == SELECT {
        scored[i..].sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    }
}

/// The legal moves at the root (only those in `only` if given), captures first and the rest
/// shuffled by the seed.
pub(crate) fn root_moves(
    rules: &Rules,
    eval: &Eval,
    pos: &Position,
    scratch: &mut Scratch,
    only: Option<&[Move]>,
    seed: u64,
) -> Vec<Move> {
    let mut moves = Vec::new();
    rules.legal_moves_into(pos, scratch, &mut moves);
    if let Some(only) = only {
        moves.retain(|m| only.contains(m));
    }
    let mut rng = Rng(seed ^ pos.hash());
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let gains: Vec<i32> = moves
        .iter()
        .map(|m| eval.move_gain(rules, pos, m))
        .collect();
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(gains[i]));
    order.into_iter().map(|i| moves[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_brings_the_best_remaining_forward_in_order() {
        let r = Rules::builtin("sho", "standard").expect("loads");
        let moves = r.legal_moves(&r.start_position());
        let mut scored: Vec<(i32, Move)> = (moves.iter().enumerate())
            .map(|(i, m)| (((i * 7) % 11) as i32, *m))
            .collect();
        let mut keys: Vec<i32> = scored.iter().map(|s| s.0).collect();
        keys.sort_by_key(|&k| std::cmp::Reverse(k));
        for i in 0..scored.len() {
            pick(&mut scored, i);
        }
        assert_eq!(scored.iter().map(|s| s.0).collect::<Vec<_>>(), keys);
    }

    #[test]
    fn a_killer_is_remembered_once_newest_first() {
        let r = Rules::builtin("sho", "standard").expect("loads");
        let moves = r.legal_moves(&r.start_position());
        let mut k = Killers::default();
        k.push(moves[0]);
        k.push(moves[0]);
        k.push(moves[1]);
        assert_eq!(k.0, [Some(moves[1]), Some(moves[0])]);
        assert!(k.contains(&moves[0]) && !k.contains(&moves[2]));
    }
}

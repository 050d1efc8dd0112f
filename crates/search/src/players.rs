//! The baseline players at the bottom of the strength ladder: a random mover and a one-ply
//! capturer.

use crate::eval::shared_eval;
use crate::rng::Rng;
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// A uniformly random legal move (the bottom of the strength ladder).
pub fn random_move(rules: &Rules, pos: &Position, seed: u64) -> Option<Move> {
    let moves = rules.legal_moves(pos);
    (!moves.is_empty()).then(|| moves[Rng(seed ^ pos.hash()).below(moves.len())])
}

/// A one-ply capturer: the move that gains the most material (a random one among equals).
pub fn greedy_move(rules: &Rules, pos: &Position, seed: u64) -> Option<Move> {
    let eval = shared_eval(rules);
    let moves = rules.legal_moves(pos);
    let gains: Vec<i32> = moves
        .iter()
        .map(|m| eval.move_gain(rules, pos, m))
        .collect();
    let best = *gains.iter().max()?;
    let top: Vec<Move> = moves
        .iter()
        .zip(&gains)
        .filter(|&(_, &g)| g == best)
        .map(|(m, _)| *m)
        .collect();
    Some(top[Rng(seed ^ pos.hash()).below(top.len())])
}

//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator, walked with make/unmake and the incremental [`MoveCache`].

use crate::movecache::MoveCache;
use crate::movegen::Scratch;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

/// Per ply of the walk: the replies' cache and the reply list, reused at every node.
#[derive(Default)]
struct Ply {
    cache: MoveCache,
    replies: Vec<Move>,
}

/// The number of leaf move sequences of `depth` moves. The last ply is counted, not played
/// ("bulk" counting): the moves one ply up are counted incrementally.
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    walk(rules, pos, depth, true)
}

/// [`perft`] that makes and unmakes every leaf move, as a search walks the tree.
pub fn perft_no_bulk(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    walk(rules, pos, depth, false)
}

fn walk(rules: &Rules, pos: &Position, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut pos = pos.clone();
    let mut plies: Vec<Ply> = (0..depth).map(|_| Ply::default()).collect();
    let mut moves = Vec::new();
    rules.legal_moves_into(&pos, &mut Scratch::default(), &mut moves);
    node(rules, &mut pos, &moves, depth, bulk, &mut plies)
}

/// Leaves below `pos`, whose legal moves are `moves`. Each node builds the cache of the
/// replying side once; each child's move list then comes from it incrementally.
fn node(
    rules: &Rules,
    pos: &mut Position,
    moves: &[Move],
    depth: u32,
    bulk: bool,
    plies: &mut [Ply],
) -> u64 {
    if depth == 1 {
        if !bulk {
            for m in moves {
                let undo = rules.make(pos, m);
                rules.unmake(pos, undo);
            }
        }
        return moves.len() as u64;
    }
    let (ply, rest) = plies.split_first_mut().expect("one ply each");
    ply.cache.build(rules, pos, pos.to_move().opponent());
    let mut total = 0;
    for m in moves {
        let undo = rules.make(pos, m);
        if depth == 2 && bulk {
            total += ply.cache.count_after(rules, pos, m);
        } else {
            ply.replies.clear();
            ply.cache.moves_after(rules, pos, m, &mut ply.replies);
            total += node(rules, pos, &ply.replies, depth - 1, bulk, rest);
        }
        rules.unmake(pos, undo);
    }
    total
}

/// Perft per first move: `(move, leaf count)`.
pub fn divide(rules: &Rules, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut child = pos.clone();
    rules
        .legal_moves(pos)
        .into_iter()
        .map(|m| {
            let undo = rules.make(&mut child, &m);
            let n = perft(rules, &child, depth.saturating_sub(1));
            rules.unmake(&mut child, undo);
            (m, n)
        })
        .collect()
}

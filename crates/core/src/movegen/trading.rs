//! The rules that keep some pieces from being traded ([`crate::params::Trade`], Chu shogi's
//! lions), applied to the moves a piece generated: a capture they forbid is dropped. Whether
//! a piece is protected is judged after the move, as H. G. Muller reads it (a recapture must
//! be possible: an x-ray protector behind the capturer counts, a protector the move takes
//! does not), from the enemy's moves in the position the move leaves.

use super::Scratch;
use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::{Cell, Piece, cell_side, encode};
use crate::position::Position;
use crate::tables::{Tables, TradeTable, barred};

/// Drops from `out[start..]` the captures of `piece` the trade rules forbid.
pub(super) fn filter(
    t: &Tables,
    trade: &TradeTable,
    pos: &Position,
    piece: Piece,
    out: &mut Vec<Move>,
    start: usize,
) {
    let mover = encode(piece);
    let mut write = start;
    for read in start..out.len() {
        let m = out[read];
        if allowed(t, trade, pos, mover, &m) {
            out[write] = m;
            write += 1;
        }
    }
    out.truncate(write);
}

/// Whether the trade rules allow `m`, a move of the piece `mover`.
fn allowed(t: &Tables, trade: &TradeTable, pos: &Position, mover: Cell, m: &Move) -> bool {
    if !m.captures() {
        return true;
    }
    let enemy = |sq: Square| {
        let c = pos.cell(t.cell_index(sq));
        (c != crate::piece::EMPTY && cell_side(c) != cell_side(mover)).then_some(c)
    };
    let victims: Vec<(Square, Cell)> = m
        .victims(t.dims)
        .filter_map(|sq| enemy(sq).map(|c| (sq, c)))
        .collect();
    let Some(&(at, _)) = victims.iter().find(|&&(_, c)| trade.protects(c)) else {
        return true;
    };
    let rules = &trade.rules;
    if trade.protects(mover) {
        let near = t.dims.xy(at);
        let from = t.dims.xy(m.from);
        let adjacent = (near.0 - from.0).abs() <= 1 && (near.1 - from.1).abs() <= 1;
        let bridge =
            (victims.iter()).any(|&(_, c)| !trade.protects(c) && !barred(&trade.bridge_not, c));
        adjacent || !rules.afar || bridge || !protected(t, pos, m)
    } else if rules.counter_strike && pos.struck() {
        rules.okazaki && !protected(t, pos, m)
    } else {
        true
    }
}

/// Whether, after `m`, an enemy piece could take the capturer where it ends (the trade rules
/// themselves left aside). The move is played on a copy by hand: make/unmake sit beside the
/// generator on the ladder, not below it.
fn protected(t: &Tables, pos: &Position, m: &Move) -> bool {
    let mut after = pos.clone();
    let from = t.cell_index(m.from);
    let mover = after.cell(from);
    for sq in m.victims(t.dims) {
        after.take_index(t.cell_index(sq), &t.vital);
    }
    after.take_index(from, &t.vital);
    after.place_index(t.cell_index(m.to), mover, &t.vital);
    let them = pos.to_move().opponent();
    if after.royals(them) == 0 {
        return false;
    }
    let mut scratch = Scratch {
        captures_only: true,
        trade_free: true,
        ..Scratch::default()
    };
    let mut out = Vec::new();
    super::side_moves(&after, them, t, &mut scratch, &mut out);
    out.iter().any(|r| r.victims(t.dims).any(|sq| sq == m.to))
}

//! What was taken, and the balance: the pieces each side's moves removed, by kind and count,
//! the pieces each side has left, and the material balance by the computer's piece values
//! ([`taikyoku_search::values`]). The terminal game's panel and `taikyoku check` both show it.
//!
//! A piece is counted for the side whose move removed it: captured, shot or burnt, or killed
//! by the move's effects. A move can remove its own side's pieces too (a range capture flying
//! over them, a flame burning them); those are counted apart, as the side's own losses.

use std::sync::{Arc, Mutex, OnceLock};
use taikyoku_core::catalogue::KindId;
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::piece::Piece;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_records::history::History;

/// The pieces `m` (legal in `pos`) removes: its victims, then what its effects kill.
pub fn removed(rules: &Rules, pos: &Position, m: &Move) -> Vec<Piece> {
    let fx = rules.effect_changes(pos, m).removed;
    m.victims(rules.dims())
        .chain(fx)
        .filter_map(|s| pos.piece_at(s))
        .collect()
}

/// What was taken and what is left, at one point of a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Per side (Black, White): the enemy kinds its moves removed and how many of each, most
    /// first (then in kind order).
    pub took: [Vec<(KindId, usize)>; 2],
    /// Per side: how many of its own pieces its moves removed.
    pub own: [usize; 2],
    /// Per side: its pieces on the board.
    pub left: [usize; 2],
    /// Per side: the value of its pieces on the board.
    pub material: [i64; 2],
}

impl Tally {
    /// The tally of `pos`, reached by moves that removed `removed` (the side that moved, and
    /// a piece its move removed).
    pub fn new(
        rules: &Rules,
        pos: &Position,
        removed: impl IntoIterator<Item = (Side, Piece)>,
    ) -> Tally {
        let values = values(rules);
        let mut t = Tally::default();
        let kinds = rules.catalogue().kinds.len();
        let mut counts = [vec![0usize; kinds], vec![0usize; kinds]];
        for (mover, p) in removed {
            match p.side == mover {
                true => t.own[mover.index()] += 1,
                false => counts[mover.index()][p.kind as usize] += 1,
            }
        }
        for side in Side::BOTH {
            let c = &counts[side.index()];
            let mut took: Vec<(KindId, usize)> = (0..kinds)
                .filter(|&k| c[k] > 0)
                .map(|k| (k as KindId, c[k]))
                .collect();
            took.sort_by_key(|&(k, n)| (std::cmp::Reverse(n), k));
            t.took[side.index()] = took;
        }
        for sq in rules.dims().squares() {
            if let Some(p) = pos.piece_at(sq) {
                t.left[p.side.index()] += 1;
                t.material[p.side.index()] += i64::from(values[p.kind as usize]);
            }
        }
        t
    }

    /// Black's material minus White's, in the computer's units (a pawn is about 100).
    pub fn balance(&self) -> i64 {
        self.material[0] - self.material[1]
    }

    /// How many pieces `side`'s moves took from the other side.
    pub fn taken(&self, side: Side) -> usize {
        self.took[side.index()].iter().map(|&(_, n)| n).sum()
    }

    /// "2 Pawn, 1 Lance" (`short`: by code, "2 P, 1 L"), "none": what `side` took, then
    /// "(and 8 of its own)" when its moves removed some of its own pieces.
    pub fn took_text(&self, rules: &Rules, side: Side, short: bool) -> String {
        let cat = rules.catalogue();
        let parts: Vec<String> = self.took[side.index()]
            .iter()
            .map(|&(k, n)| {
                let kind = cat.kind(k);
                format!("{n} {}", if short { &kind.code } else { &kind.name })
            })
            .collect();
        let took = match parts.is_empty() {
            true => "none".into(),
            false => parts.join(", "),
        };
        match self.own[side.index()] {
            0 => took,
            n => format!("{took} (and {n} of its own)"),
        }
    }

    /// "black +2.30", "even": who is ahead in material, and by how much (in pawns).
    pub fn balance_text(&self) -> String {
        let b = self.balance();
        let pawns = |v: i64| format!("{:.2}", v.unsigned_abs() as f64 / 100.0);
        match b {
            0 => "even".into(),
            b if b > 0 => format!("black +{}", pawns(b)),
            b => format!("white +{}", pawns(b)),
        }
    }

    /// The lines `taikyoku check` prints.
    pub fn check_lines(&self, rules: &Rules) -> Vec<String> {
        let mut lines: Vec<String> = Side::BOTH
            .iter()
            .map(|&s| format!("taken by {s}: {}", self.took_text(rules, s, false)))
            .collect();
        lines.push(format!(
            "pieces left: black {}, white {}",
            self.left[0], self.left[1]
        ));
        lines.push(format!(
            "material: {} (by the computer's piece values)",
            self.balance_text()
        ));
        lines
    }
}

/// Every kind's value under `rules`, found once per rule set (the derivation generates
/// thousands of sample moves).
pub fn values(rules: &Rules) -> Arc<Vec<i32>> {
    type Cache = Mutex<Vec<((String, String, usize), Arc<Vec<i32>>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let id = (
        rules.game.name.clone(),
        rules.rule_set.name.clone(),
        rules.catalogue().kinds.len(),
    );
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, v)) = cache.iter().find(|(k, _)| *k == id) {
        return v.clone();
    }
    let v: Arc<Vec<i32>> = Arc::new(
        taikyoku_search::values::kind_values(rules)
            .iter()
            .map(|v| v.value)
            .collect(),
    );
    cache.push((id, v.clone()));
    v
}

/// The pieces every move of a game's line removed, kept up to date as the line changes (only
/// the moves after the first change are played again).
#[derive(Clone, Debug, Default)]
pub struct Captures {
    /// The line's moves as last seen, and per move its mover and what it removed.
    moves: Vec<Move>,
    removed: Vec<(Side, Vec<Piece>)>,
}

impl Captures {
    /// Catches up with `h`'s line; whether anything changed.
    pub fn sync(&mut self, h: &History) -> bool {
        let line = h.line();
        let same = self
            .moves
            .iter()
            .zip(line)
            .take_while(|(a, b)| **a == b.mv)
            .count();
        if same == line.len() && same == self.moves.len() {
            return false;
        }
        self.moves.truncate(same);
        self.removed.truncate(same);
        let rules = h.rules();
        let mut pos = h.position_at(same);
        for p in &line[same..] {
            self.removed.push((p.side, removed(rules, &pos, &p.mv)));
            self.moves.push(p.mv);
            rules.play_unchecked(&mut pos, &p.mv);
        }
        true
    }

    /// The tally at `h`'s point (after [`Captures::sync`]).
    pub fn tally(&self, h: &History) -> Tally {
        let upto = &self.removed[..h.point().min(self.removed.len())];
        let removed = upto
            .iter()
            .flat_map(|(side, pieces)| pieces.iter().map(move |p| (*side, *p)));
        Tally::new(h.rules(), h.position(), removed)
    }
}

/// The tally of `h` at its point, from scratch.
pub fn tally(h: &History) -> Tally {
    let mut c = Captures::default();
    c.sync(h);
    c.tally(h)
}

//! Incremental move generation. A [`MoveCache`] holds one side's moves in a position together
//! with the cells each piece's moves were read from; after a move changes a few cells, only
//! the pieces that read one of them are generated again, the others' moves are copied.
//!
//! A search uses it one ply ahead: at a node, build the cache for the side that will reply
//! (the opponent of the side to move), then after each [`Rules::make`] ask it for the reply
//! list ([`MoveCache::moves_after`]) or just its length ([`MoveCache::count_after`]). The
//! result equals full generation in the new position, move for move and in the same order.

use crate::geometry::Side;
use crate::movegen::{self, Scratch};
use crate::moves::Move;
use crate::piece::{Cell, EMPTY, cell_side};
use crate::position::Position;
use crate::rules::Rules;

/// One side's moves in a base position, by piece, with what each piece's moves depend on.
#[derive(Default)]
pub struct MoveCache {
    side: Option<Side>,
    /// The base position's cells.
    base: Vec<Cell>,
    moves: Vec<Move>,
    /// Per mailbox cell: the range of `moves` made by the piece there.
    range: Vec<(u32, u32)>,
    /// Per mailbox cell `c`, `watchers[watch_start[c]..watch_start[c + 1]]` are the pieces
    /// (mailbox cells) whose moves read `c`.
    watch_start: Vec<u32>,
    watchers: Vec<u32>,
    /// `(cell read, piece)` pairs, kept to reuse the allocation.
    reads: Vec<(u32, u32)>,
    trace: Vec<usize>,
    /// Per mailbox cell: the `epoch` in which it was last marked (dirty piece or seen cell).
    stamp: Vec<u32>,
    epoch: u32,
    scratch: Scratch,
    buf: Vec<Move>,
    /// The captures that may gain among `moves` ([`Rules::gainful_captures_into`]), with
    /// their range per mailbox cell as `range`: filled on the first
    /// [`MoveCache::captures_after`] after a build (`gains_ready`).
    gains: Vec<Move>,
    gain_range: Vec<(u32, u32)>,
    gains_ready: bool,
}

impl MoveCache {
    pub fn new() -> MoveCache {
        MoveCache::default()
    }

    /// Generates `side`'s moves in `pos` (whoever is to move), tracing what they depend on.
    pub fn build(&mut self, rules: &Rules, pos: &Position, side: Side) {
        let cells = pos.cells().len();
        self.side = Some(side);
        self.base.clear();
        self.base.extend_from_slice(pos.cells());
        self.moves.clear();
        self.range.clear();
        self.range.resize(cells, (0, 0));
        self.reads.clear();
        self.gains_ready = false;
        for idx in pos.side_cells(side) {
            self.trace.clear();
            let start = self.moves.len() as u32;
            movegen::piece_moves_traced(
                pos,
                idx,
                &rules.tables,
                &mut self.scratch,
                &mut self.moves,
                Some(&mut self.trace),
            );
            self.range[idx] = (start, self.moves.len() as u32);
            self.reads
                .extend(self.trace.iter().map(|&r| (r as u32, idx as u32)));
        }
        self.index_reads(cells);
        if self.stamp.len() < cells {
            self.stamp = vec![0; cells];
            self.epoch = 0;
        }
    }

    /// Builds the cell → watching pieces index from `reads` (a counting sort, no sorting).
    fn index_reads(&mut self, cells: usize) {
        self.watch_start.clear();
        self.watch_start.resize(cells + 1, 0);
        for &(r, _) in &self.reads {
            self.watch_start[r as usize + 1] += 1;
        }
        for i in 0..cells {
            self.watch_start[i + 1] += self.watch_start[i];
        }
        self.watchers.clear();
        self.watchers.resize(self.reads.len(), 0);
        let mut fill = self.watch_start.clone();
        for &(r, piece) in &self.reads {
            self.watchers[fill[r as usize] as usize] = piece;
            fill[r as usize] += 1;
        }
    }

    /// The side's moves in the base position, in square order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The side whose moves it holds (`None` before the first build).
    pub fn side(&self) -> Option<Side> {
        self.side
    }

    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        self.epoch
    }

    /// Marks (with a fresh epoch) every base piece whose moves read a cell the moves of
    /// `line` change.
    fn mark_dirty(&mut self, rules: &Rules, line: &[Move]) -> u32 {
        let epoch = self.next_epoch();
        for m in line {
            let changed = [m.from, m.to].into_iter().chain(m.victims(rules.dims()));
            for c in changed.map(|sq| rules.cell_index(sq)) {
                let (a, b) = (self.watch_start[c], self.watch_start[c + 1]);
                for &p in &self.watchers[a as usize..b as usize] {
                    self.stamp[p as usize] = epoch;
                }
            }
        }
        epoch
    }

    /// Appends to `out` the side's moves in `pos`, the base position after move `m`: equal to
    /// generating all of them there (none once the game is over).
    pub fn moves_after(&mut self, rules: &Rules, pos: &Position, m: &Move, out: &mut Vec<Move>) {
        self.moves_after_line(rules, pos, std::slice::from_ref(m), out);
    }

    /// [`MoveCache::moves_after`] where `pos` is the base position after the moves of `line`,
    /// oldest first (a search reuses a cache built a few plies up).
    pub fn moves_after_line(
        &mut self,
        rules: &Rules,
        pos: &Position,
        line: &[Move],
        out: &mut Vec<Move>,
    ) {
        self.after(rules, pos, line, out, false);
    }

    /// The captures that may gain ([`Rules::gainful_captures_into`]) in `pos`, the base
    /// position after the moves of `line`, appended to `out`: for a quiescence search.
    pub fn captures_after(
        &mut self,
        rules: &Rules,
        pos: &Position,
        line: &[Move],
        out: &mut Vec<Move>,
    ) {
        if !self.gains_ready {
            self.sort_gains(rules);
        }
        self.after(rules, pos, line, out, true);
    }

    /// Fills `gains` and `gain_range` from `moves`.
    fn sort_gains(&mut self, rules: &Rules) {
        let side = self.side.expect("built");
        self.gains.clear();
        self.gain_range.clear();
        self.gain_range.resize(self.range.len(), (0, 0));
        for (idx, &(a, b)) in self.range.iter().enumerate() {
            if a == b {
                continue;
            }
            let start = self.gains.len() as u32;
            let moves = self.moves[a as usize..b as usize].iter();
            let base = &self.base;
            (self.gains).extend(moves.filter(|m| rules.is_gainful_on(base, side, m)));
            self.gain_range[idx] = (start, self.gains.len() as u32);
        }
        self.gains_ready = true;
    }

    /// The side's moves in `pos` after the moves of `line` (only the captures that may gain
    /// if `gainful`): the clean pieces' copied, the others generated.
    fn after(
        &mut self,
        rules: &Rules,
        pos: &Position,
        line: &[Move],
        out: &mut Vec<Move>,
        gainful: bool,
    ) {
        if pos.outcome().is_some() {
            return;
        }
        let side = self.side.expect("built");
        self.scratch.set_gainful(gainful);
        if rules.has_effects() {
            // A move's effects reach beyond its squares: generate everything afresh.
            movegen::side_moves(pos, side, &rules.tables, &mut self.scratch, out);
        } else {
            let epoch = self.mark_dirty(rules, line);
            for idx in pos.side_cells(side) {
                if self.stamp[idx] != epoch && pos.cell(idx) == self.base[idx] {
                    let ((a, b), moves) = match gainful {
                        true => (self.gain_range[idx], &self.gains),
                        false => (self.range[idx], &self.moves),
                    };
                    out.extend_from_slice(&moves[a as usize..b as usize]);
                } else {
                    self.generate(rules, pos, idx, out);
                }
            }
        }
        self.scratch.set_gainful(false);
    }

    fn generate(&mut self, rules: &Rules, pos: &Position, idx: usize, out: &mut Vec<Move>) {
        movegen::piece_moves(pos, idx, &rules.tables, &mut self.scratch, out);
    }

    /// The number of the side's moves in `pos`, the base position after move `m` (the length
    /// of [`MoveCache::moves_after`]): the base count, corrected for the changed cells and the
    /// pieces that read them.
    pub fn count_after(&mut self, rules: &Rules, pos: &Position, m: &Move) -> u64 {
        if pos.outcome().is_some() {
            return 0;
        }
        if rules.has_effects() {
            let mut buf = std::mem::take(&mut self.buf);
            buf.clear();
            self.moves_after(rules, pos, m, &mut buf);
            let n = buf.len() as u64;
            self.buf = buf;
            return n;
        }
        let epoch = self.next_epoch();
        let mut n = self.moves.len() as i64;
        let changed = [m.from, m.to].into_iter().chain(m.victims(rules.dims()));
        for c in changed.map(|sq| rules.cell_index(sq)) {
            n += self.recount(rules, pos, c, epoch);
            let (a, b) = (
                self.watch_start[c] as usize,
                self.watch_start[c + 1] as usize,
            );
            for k in a..b {
                let p = self.watchers[k] as usize;
                n += self.recount(rules, pos, p, epoch);
            }
        }
        n as u64
    }

    /// Once per epoch and cell: the number of moves of the side's piece now on `x` (if any)
    /// minus that of the base position's.
    fn recount(&mut self, rules: &Rules, pos: &Position, x: usize, epoch: u32) -> i64 {
        if self.stamp[x] == epoch {
            return 0;
        }
        self.stamp[x] = epoch;
        let (a, b) = self.range[x];
        let cell = pos.cell(x);
        let side = self.side.expect("built").index();
        if cell == EMPTY || cell_side(cell) != side {
            return a as i64 - b as i64;
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.generate(rules, pos, x, &mut buf);
        let n = buf.len() as i64;
        self.buf = buf;
        n - (b - a) as i64
    }
}

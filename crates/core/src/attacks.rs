//! Attack information kept up to date along make and unmake: [`Attacks`] holds every piece's
//! moves, which pieces attack each square, each side's captures and how many moves each side
//! has, and after a move regenerates only the pieces the move can have changed. A move
//! changes a handful of cells, and the pieces that read them lie on the lines through those
//! cells: the work per move grows with the board's edge, not its area.
//!
//! # Design
//!
//! HaChu (H. G. Muller's engine for the large shogi variants) is built on the same idea: an
//! attack map and mobility kept per square and colour, which it meant to update along the rays
//! through the squares a move changes (its source says the update "does not work" yet and maps
//! from scratch at every node, with per-piece code for each kind of jump). Here the update is
//! generic and exact, because it rests on the one generator's trace, not on a model of the
//! pieces:
//!
//! - Per mailbox cell, an *entry* in two tiers. The first: the piece's captures that may gain
//!   material ([`Rules::gainful_captures_into`]; every move that removes an enemy piece is
//!   one), generated with the trace ([`crate::movegen`] records every cell it looks at: the
//!   rays, lame legs, a lion's second steps, a hook's turns, a range flight's line, a burning
//!   piece's landing neighbours, the lines and squares an enemy net or fog is looked for on),
//!   the set of cells it read (a bit each) and the cells whose pieces those captures remove.
//!   The second: its full move list (those of full generation, in its order), generated
//!   without a trace only when a query asks for the side's moves or mobility, and marked
//!   stale whenever the first tier is generated again. Most nodes of a search ask for
//!   captures only, and the pieces that read a changed cell are the long-range ones with the
//!   longest move lists. Generating only captures reads the same cells as generating every
//!   move (the walk is the same; only what it emits differs), so the first tier's cells say
//!   when the second is out of date.
//! - Two bit matrices, a row per cell with a bit per cell: `watch[c]`, the pieces whose
//!   generation read `c`; `hit[c]`, the pieces with a move that removes the piece on `c`. The
//!   attackers of a square by a side are `hit[c]` and the side's piece set, in square order.
//! - The cells of pieces with a gainful capture; the cells of the pieces the end rule counts
//!   (royals); the cells whose move list is stale. Mobility is the sum of the side's lists.
//!
//! **Why it is exact.** Generating a piece's moves is a deterministic function of the cells it
//! reads, in the order it reads them. If no cell a piece read changed, it reads the same cells
//! with the same contents and makes the same moves. So after a move that changed the cells
//! `C` (its start and destination, its victims, what the game's effects changed), only the
//! pieces on `C` and those in `watch[c]` for some `c` in `C` are generated again (*dirty*);
//! every other entry stands. Two things a piece's moves depend on are not cells:
//!
//! - **Effects** ([`crate::effects`]) read whether a side still has some kinds on the board (a
//!   kind that needs another to promote, a movement that holds while some kind is absent).
//!   Before and after every move the presence of those kinds is compared; when it flips, every
//!   piece is generated again (the one fallback to full recomputation; it happens when the last
//!   piece of such a kind is taken, or the first appears). The cells effects change (linked
//!   promotions, kills, reversions, a piece burnt on arrival) are in `C` like any other.
//! - **The side to move and the game's outcome** change no piece's moves (generation is as if
//!   it were the piece's turn); the queries that list moves answer nothing once the game is
//!   over, as [`Rules::legal_moves`] does. A null move (only the side to move changes) needs
//!   nothing.
//!
//! **Lazily, per side, and undone from a log.** [`Attacks::make`] plays the move and records
//! its changed cells. The first query after it marks the dirty pieces stale, for every move
//! since the last query at once (the union of their changed cells, against the entries of that
//! state: the same argument holds), and generates again only what it needs: the queried
//! side's entries for its captures or attackers, the opponent's for royal danger, a side's
//! move lists for its moves or mobility. A search leaf that stands pat pays nothing for its
//! parent's move, and a quiescence node only for the pieces of the side to move. A stale
//! entry's old rows stay in the matrices, harmless: it is dirty already, and every query
//! filters the rows by the side's pieces on the board now, after generating that side's
//! stale entries. Every mark and every regeneration is logged with what it replaced (moved,
//! not copied); [`Attacks::unmake`] of a move that an update covered puts the log back to the
//! update's start and keeps the earlier moves of that update pending, so unmake restores the
//! exact state. An entry generated again the same is not re-indexed; the matrices' rows
//! change only by the cells that entered or left a piece's lists.
//!
//! [`Attacks::check`] compares everything with a fresh computation and with full generation
//! (the property tests call it after every make and unmake along random games).

use crate::catalogue::KindId;
use crate::geometry::{Side, Square};
use crate::makemove::Undo;
use crate::movegen::{self, Scratch};
use crate::moves::Move;
use crate::piece::{Cell, EMPTY, OFF, decode};
use crate::position::Position;
use crate::rules::Rules;

/// In the changed-cell stack: every cell counts as changed (a global effect state flipped).
const EVERYTHING: u32 = u32::MAX;

/// The first tier of what the generator made for the piece on one cell: its captures, what
/// they remove, what its generation read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Entry {
    /// The cell's contents the entry was generated for ([`EMPTY`]: none).
    cell: Cell,
    /// Its captures that may gain ([`Rules::is_gainful_on`]), in generation order.
    captures: Vec<Move>,
    /// The on-board cells its generation read, a bit each (empty for an empty cell).
    reads: Vec<u64>,
    /// The cells whose pieces its captures that may gain remove, each once (every move that
    /// removes an enemy piece is one).
    hits: Vec<u32>,
}

impl Entry {
    fn clear(&mut self) {
        self.cell = EMPTY;
        self.captures.clear();
        self.reads.clear();
        self.hits.clear();
    }

    /// Whether two entries are equal.
    fn same_attacks(&self, other: &Entry) -> bool {
        self.cell == other.cell
            && self.hits == other.hits
            && self.captures == other.captures
            && self.reads == other.reads
    }
}

/// A square bit matrix over the mailbox cells: row `c`, bit `p`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Rows {
    words: usize,
    bits: Vec<u64>,
}

impl Rows {
    fn new(cells: usize) -> Rows {
        let words = cells.div_ceil(64);
        Rows {
            words,
            bits: vec![0; cells * words],
        }
    }

    #[inline]
    fn row(&self, c: usize) -> &[u64] {
        &self.bits[c * self.words..(c + 1) * self.words]
    }

    #[inline]
    fn flip(&mut self, c: usize, p: usize) {
        self.bits[c * self.words + p / 64] ^= 1 << (p % 64);
    }
}

/// Sets or clears bit `p` of a bit set.
#[inline]
fn set_bit(bits: &mut [u64], p: usize, on: bool) {
    let (w, b) = (p / 64, 1u64 << (p % 64));
    if on {
        bits[w] |= b;
    } else {
        bits[w] &= !b;
    }
}

/// The positions of the bits set in `a & b`, lowest first.
fn both<'a>(a: &'a [u64], b: &'a [u64]) -> impl Iterator<Item = usize> + 'a {
    (a.iter().zip(b).enumerate()).flat_map(|(w, (&x, &y))| bit_cells(w, x & y))
}

/// Per-cell stamps for "seen in this pass", without clearing between passes.
#[derive(Clone, Debug, Default)]
struct Marks {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Marks {
    /// `n` fresh consecutive epochs; the first is returned.
    fn fresh(&mut self, n: u32) -> u32 {
        if self.epoch >= u32::MAX - n {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 0;
        }
        let first = self.epoch + 1;
        self.epoch += n;
        first
    }

    /// Marks cell `c` with `epoch`; whether it was not marked so yet.
    #[inline]
    fn mark(&mut self, c: usize, epoch: u32) -> bool {
        let fresh = self.stamp[c] != epoch;
        self.stamp[c] = epoch;
        fresh
    }
}

/// Everything kept beside the entries, derived from them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Index {
    /// Row `c`: the pieces whose generation read `c`.
    watch: Rows,
    /// Row `c`: the pieces with a move that removes the piece on `c`.
    hit: Rows,
    /// The pieces with a capture that may gain.
    capturing: Vec<u64>,
}

impl Index {
    fn new(cells: usize) -> Index {
        let words = cells.div_ceil(64);
        Index {
            watch: Rows::new(cells),
            hit: Rows::new(cells),
            capturing: vec![0; words],
        }
    }

    /// Accounts for the piece on cell `p` now having entry `new` instead of `old`.
    fn replace(&mut self, marks: &mut Marks, p: usize, old: &Entry, new: &Entry) {
        flip_changed(&mut self.watch, p, &old.reads, &new.reads);
        diff(&mut self.hit, marks, p, &old.hits, &new.hits);
        set_bit(&mut self.capturing, p, !new.captures.is_empty());
    }
}

/// Changes column `p` of `rows` from the cell set `old` to the cell set `new` (bit sets, an
/// empty one meaning no cell): only the bits of cells in one and not the other flip.
fn flip_changed(rows: &mut Rows, p: usize, old: &[u64], new: &[u64]) {
    if old == new {
        return;
    }
    for w in 0..old.len().max(new.len()) {
        let x = old.get(w).copied().unwrap_or(0) ^ new.get(w).copied().unwrap_or(0);
        for c in bit_cells(w, x) {
            rows.flip(c, p);
        }
    }
}

/// Changes column `p` of `rows` from the cells `old` to the cells `new` (each list without
/// repeats): only the bits of cells in one list and not the other flip.
fn diff(rows: &mut Rows, marks: &mut Marks, p: usize, old: &[u32], new: &[u32]) {
    if old == new {
        return;
    }
    let only_old = marks.fresh(2);
    let kept = only_old + 1;
    for &c in old {
        marks.stamp[c as usize] = only_old;
    }
    for &c in new {
        if marks.stamp[c as usize] == only_old {
            marks.stamp[c as usize] = kept;
        } else {
            rows.flip(c as usize, p);
        }
    }
    for &c in old {
        if marks.stamp[c as usize] == only_old {
            rows.flip(c as usize, p);
        }
    }
}

/// One update (`Attacks::sync`): the first move it covered, and where its entries in the
/// undo log start.
#[derive(Clone, Copy, Debug)]
struct Group {
    first: u32,
    log: u32,
}

/// What the undo log puts back, besides a cell's stale marks.
#[derive(Debug)]
enum Undone {
    /// Only the marks (the cell was marked out of date).
    Marks,
    /// The entry a regeneration replaced.
    Entry(Entry),
    /// The move list a regeneration replaced.
    Moves(Vec<Move>),
}

/// A cell's two stale marks, as the undo log keeps them.
const STALE_ENTRY: u8 = 1;
const STALE_MOVES: u8 = 2;

/// Where [`Attacks::check`] found the kept data different from a fresh computation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Drift {
    #[error(
        "the moves, captures or read cells of the piece on square {0:?} differ from generating them"
    )]
    Piece(Square),
    #[error("the attack or read index differs from one built afresh")]
    Index,
    #[error("{0:?}'s captures that may gain differ from generating them")]
    Captures(Side),
    #[error("the attackers of square {0:?} differ from those full generation shows")]
    Attackers(Square),
}

/// Every piece's moves and who attacks what, for one position kept up to date along
/// [`Attacks::make`] and [`Attacks::unmake`] (see the [module](self) for how). Changing the
/// position any other way (putting pieces, [`Rules::make`] directly) needs
/// [`Attacks::build`] again; [`Position::set_to_move`] (a null move) does not.
#[derive(Default)]
pub struct Attacks {
    entries: Vec<Entry>,
    /// Per cell, its piece's full move list (the second tier).
    moves: Vec<Vec<Move>>,
    index: Index,
    /// The cells whose entry, and those whose move list, is out of date: generated again
    /// when a query needs them.
    stale_entry: Vec<u64>,
    stale_moves: Vec<u64>,
    /// The cells holding a piece the end rule counts (kept from the cells a move changes).
    vital: Vec<u64>,
    /// The on-board cells.
    board: Vec<u32>,
    /// The kinds whose presence effects read ([`crate::effects::EffectTable::watched_kinds`]).
    watched: Vec<KindId>,
    /// Their presence before the move being made, per side.
    presence: Vec<bool>,
    /// Per move made: where its changed cells start in `changed`.
    frames: Vec<u32>,
    changed: Vec<u32>,
    /// How many of `frames` the marks reflect.
    applied: usize,
    groups: Vec<Group>,
    /// What each update and the regenerations after it changed, with the cells' stale marks
    /// before, to put back on unmake.
    log: Vec<(u32, u8, Undone)>,
    pool: Vec<Entry>,
    marks: Marks,
    dirty: Vec<u32>,
    /// For the full move lists, and for the captures that may gain.
    scratch: Scratch,
    captures_scratch: Scratch,
    trace: Vec<usize>,
}

impl Attacks {
    /// The attack information of `pos`, computed in full.
    pub fn new(rules: &Rules, pos: &Position) -> Attacks {
        let mut a = Attacks::default();
        a.build(rules, pos);
        a
    }

    /// Computes the first tier afresh for `pos` (the move lists when first asked for),
    /// forgetting the moves made.
    pub fn build(&mut self, rules: &Rules, pos: &Position) {
        let cells = pos.cells().len();
        self.clear(cells);
        self.board = (0..cells as u32)
            .filter(|&c| pos.cell(c as usize) != OFF)
            .collect();
        self.watched = (rules.tables.effects.as_ref()).map_or(Vec::new(), |fx| fx.watched_kinds());
        self.captures_scratch.set_gainful(true);
        for d in 0..cells {
            if pos.cell(d) == EMPTY || pos.cell(d) == OFF {
                continue;
            }
            let new = self.generate(rules, pos, d);
            (self.index).replace(&mut self.marks, d, &Entry::default(), &new);
            self.entries[d] = new;
            set_bit(&mut self.stale_moves, d, true);
            set_bit(&mut self.vital, d, is_vital(rules, pos, d));
        }
    }

    /// Empties everything for a mailbox of `cells` cells.
    fn clear(&mut self, cells: usize) {
        let words = cells.div_ceil(64);
        self.pool.append(&mut self.entries);
        for (_, _, undone) in self.log.drain(..) {
            if let Undone::Entry(e) = undone {
                self.pool.push(e);
            }
        }
        self.entries.resize_with(cells, Entry::default);
        self.moves.resize_with(cells, Vec::new);
        self.moves.iter_mut().for_each(Vec::clear);
        self.index = Index::new(cells);
        (self.stale_entry, self.stale_moves) = (vec![0; words], vec![0; words]);
        self.vital = vec![0; words];
        self.frames.clear();
        self.changed.clear();
        self.groups.clear();
        self.applied = 0;
        self.marks = Marks {
            stamp: vec![0; cells],
            epoch: 0,
        };
    }

    /// Plays `m` (a legal move) as [`Rules::make`] does and records what it changed.
    pub fn make(&mut self, rules: &Rules, pos: &mut Position, m: &Move) -> Undo {
        self.note_presence(pos);
        let undo = rules.make(pos, m);
        let start = self.changed.len();
        self.frames.push(start as u32);
        let cell = |sq| rules.cell_index(sq) as u32;
        self.changed.extend([cell(m.from), cell(m.to)]);
        self.changed.extend(m.victims(rules.dims()).map(cell));
        self.changed
            .extend(undo.effect_changes(pos).map(|(i, _)| i as u32));
        self.note_vital(rules, pos, start);
        if self.presence_flipped(pos) {
            self.changed.push(EVERYTHING);
        }
        undo
    }

    /// Takes back the last move made, as [`Rules::unmake`] does, and restores the attack
    /// information to what it was before it.
    pub fn unmake(&mut self, rules: &Rules, pos: &mut Position, undo: Undo) {
        rules.unmake(pos, undo);
        let start = self.frames.pop().expect("a move made with Attacks::make") as usize;
        if self.applied > self.frames.len() {
            let g = self.groups.pop().expect("the update that covered the move");
            while self.log.len() > g.log as usize {
                let (d, marks, undone) = self.log.pop().expect("above the mark");
                self.put_back(d as usize, marks, undone);
            }
            self.applied = g.first as usize;
        }
        self.note_vital(rules, pos, start);
        self.changed.truncate(start);
    }

    /// Undoes one entry of the undo log.
    fn put_back(&mut self, d: usize, marks: u8, undone: Undone) {
        set_bit(&mut self.stale_entry, d, marks & STALE_ENTRY != 0);
        set_bit(&mut self.stale_moves, d, marks & STALE_MOVES != 0);
        match undone {
            Undone::Marks => {}
            Undone::Entry(old) => {
                let cur = std::mem::replace(&mut self.entries[d], old);
                (self.index).replace(&mut self.marks, d, &cur, &self.entries[d]);
                self.pool.push(cur);
            }
            Undone::Moves(old) => self.moves[d] = old,
        }
    }

    /// The stale marks of cell `d`.
    fn marks_of(&self, d: usize) -> u8 {
        let bit = |b: &[u64]| (b[d / 64] >> (d % 64)) as u8 & 1;
        bit(&self.stale_entry) * STALE_ENTRY + bit(&self.stale_moves) * STALE_MOVES
    }

    /// Sets the royals' bits of the cells changed from `changed[start..]` as `pos` has them.
    fn note_vital(&mut self, rules: &Rules, pos: &Position, start: usize) {
        for &c in &self.changed[start..] {
            if c != EVERYTHING {
                set_bit(
                    &mut self.vital,
                    c as usize,
                    is_vital(rules, pos, c as usize),
                );
            }
        }
    }

    /// Records, per side, whether it has each watched kind (before a move).
    fn note_presence(&mut self, pos: &Position) {
        self.presence.clear();
        for &k in &self.watched {
            self.presence
                .extend(Side::BOTH.map(|s| pos.count(s, k) > 0));
        }
    }

    /// Whether a watched kind's presence differs from the one noted.
    fn presence_flipped(&self, pos: &Position) -> bool {
        let now = self
            .watched
            .iter()
            .flat_map(|&k| Side::BOTH.map(|s| pos.count(s, k) > 0));
        !now.eq(self.presence.iter().copied())
    }

    /// Marks out of date every piece the moves made since the last update can have changed
    /// (the pieces on the changed cells and those that read one): the queries do it first,
    /// then generate again what they need.
    fn sync(&mut self) {
        if self.applied == self.frames.len() {
            return;
        }
        let start = self.frames[self.applied] as usize;
        self.groups.push(Group {
            first: self.applied as u32,
            log: self.log.len() as u32,
        });
        self.collect_dirty(start);
        for i in 0..self.dirty.len() {
            let d = self.dirty[i] as usize;
            let marks = self.marks_of(d);
            if marks != STALE_ENTRY | STALE_MOVES {
                self.log.push((d as u32, marks, Undone::Marks));
                set_bit(&mut self.stale_entry, d, true);
                set_bit(&mut self.stale_moves, d, true);
            }
        }
        self.applied = self.frames.len();
    }

    /// The cells to generate again for the changes from `changed[start..]`: the changed cells
    /// and every piece that read one, each once.
    fn collect_dirty(&mut self, start: usize) {
        self.dirty.clear();
        if self.changed[start..].contains(&EVERYTHING) {
            self.dirty.extend_from_slice(&self.board);
            return;
        }
        let epoch = self.marks.fresh(1);
        for &c in &self.changed[start..] {
            let c = c as usize;
            if self.marks.mark(c, epoch) {
                self.dirty.push(c as u32);
            }
            let readers = self.index.watch.row(c);
            for p in both(readers, readers) {
                if self.marks.mark(p, epoch) {
                    self.dirty.push(p as u32);
                }
            }
        }
    }

    /// Brings every piece's captures and attacks up to date (the queries bring what they need
    /// themselves; this is the whole update, for measuring it).
    pub fn update(&mut self, rules: &Rules, pos: &Position) {
        self.fresh_entries(rules, pos, None);
    }

    /// Brings `side`'s captures and attacks up to date now: a search calls it at a node
    /// before making the moves whose replies it will ask for, so that what the moves above
    /// changed is generated once here, not again under every one of them (each reply's
    /// update is undone with its move).
    pub fn prepare(&mut self, rules: &Rules, pos: &Position, side: Side) {
        self.fresh_entries(rules, pos, Some(side));
    }

    /// Generates again the stale entries of `side`'s pieces (`None`: every stale entry).
    fn fresh_entries(&mut self, rules: &Rules, pos: &Position, side: Option<Side>) {
        self.sync();
        let mut stale = std::mem::take(&mut self.dirty);
        stale.clear();
        match side {
            Some(side) => {
                stale.extend(both(&self.stale_entry, pos.occupied_bits(side)).map(|d| d as u32))
            }
            None => stale.extend(both(&self.stale_entry, &self.stale_entry).map(|d| d as u32)),
        }
        for &d in &stale {
            self.fresh_entry(rules, pos, d as usize);
        }
        self.dirty = stale;
    }

    /// Generates cell `d`'s stale entry again; logs the one it replaces.
    fn fresh_entry(&mut self, rules: &Rules, pos: &Position, d: usize) {
        let marks = self.marks_of(d);
        let new = self.generate(rules, pos, d);
        set_bit(&mut self.stale_entry, d, false);
        if new.same_attacks(&self.entries[d]) {
            self.pool.push(new);
            self.log.push((d as u32, marks, Undone::Marks));
            return;
        }
        let old = std::mem::replace(&mut self.entries[d], new);
        (self.index).replace(&mut self.marks, d, &old, &self.entries[d]);
        self.log.push((d as u32, marks, Undone::Entry(old)));
    }

    /// The entry of cell `d` in `pos`: its captures that may gain, generated with their
    /// trace.
    fn generate(&mut self, rules: &Rules, pos: &Position, d: usize) -> Entry {
        let mut e = self.pool.pop().unwrap_or_default();
        e.clear();
        if decode(pos.cell(d)).is_none() {
            return e;
        }
        e.cell = pos.cell(d);
        self.trace.clear();
        let tables = &rules.tables;
        let (scratch, trace) = (&mut self.captures_scratch, &mut self.trace);
        movegen::piece_moves_traced(pos, d, tables, scratch, &mut e.captures, Some(trace));
        e.reads.resize(self.index.watch.words, 0);
        for &c in &self.trace {
            if pos.cell(c) != OFF {
                e.reads[c / 64] |= 1 << (c % 64);
            }
        }
        let hit = self.marks.fresh(1);
        for m in &e.captures {
            for v in m.victims(rules.dims()).map(|sq| rules.cell_index(sq)) {
                if self.marks.mark(v, hit) {
                    e.hits.push(v as u32);
                }
            }
        }
        e
    }

    /// Generates the full move list of the piece on `d` if it is stale; logs the one it
    /// replaces.
    fn fresh_moves(&mut self, rules: &Rules, pos: &Position, d: usize) {
        let marks = self.marks_of(d);
        if marks & STALE_MOVES == 0 {
            return;
        }
        let mut moves = Vec::new();
        movegen::piece_moves(pos, d, &rules.tables, &mut self.scratch, &mut moves);
        let old = std::mem::replace(&mut self.moves[d], moves);
        set_bit(&mut self.stale_moves, d, false);
        if !self.groups.is_empty() {
            self.log.push((d as u32, marks, Undone::Moves(old)));
        }
    }

    /// Brings `side`'s full move lists up to date.
    fn fresh_side(&mut self, rules: &Rules, pos: &Position, side: Side) {
        self.sync();
        let stale: Vec<usize> = both(&self.stale_moves, pos.occupied_bits(side)).collect();
        for d in stale {
            self.fresh_moves(rules, pos, d);
        }
    }
}

/// Whether the piece on cell `d` is one the end rule counts.
fn is_vital(rules: &Rules, pos: &Position, d: usize) -> bool {
    decode(pos.cell(d)).is_some_and(|p| rules.tables.vital[p.kind as usize])
}

/// The cells of the bits set in word `w` of a bit set.
#[inline]
fn bit_cells(w: usize, mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            i
        })
    })
}

/// The queries, each answered from the kept data (what they need generated again first).
impl Attacks {
    /// Appends `side`'s moves in `pos` (none once the game is over): equal to
    /// [`Rules::legal_moves_into`] for that side, move for move and in the same order.
    pub fn moves_into(&mut self, rules: &Rules, pos: &Position, side: Side, out: &mut Vec<Move>) {
        if pos.outcome().is_some() {
            return;
        }
        self.fresh_side(rules, pos, side);
        for d in pos.side_cells(side) {
            out.extend_from_slice(&self.moves[d]);
        }
    }

    /// Appends `side`'s captures that may gain material (none once the game is over): equal
    /// to [`Rules::gainful_captures_into`] for that side.
    pub fn captures_into(
        &mut self,
        rules: &Rules,
        pos: &Position,
        side: Side,
        out: &mut Vec<Move>,
    ) {
        if pos.outcome().is_some() {
            return;
        }
        self.fresh_entries(rules, pos, Some(side));
        self.raw_captures(pos, side, out);
    }

    fn raw_captures(&self, pos: &Position, side: Side, out: &mut Vec<Move>) {
        for d in both(&self.index.capturing, pos.occupied_bits(side)) {
            out.extend_from_slice(&self.entries[d].captures);
        }
    }

    /// How many moves `side` has in `pos` (0 once the game is over).
    pub fn mobility(&mut self, rules: &Rules, pos: &Position, side: Side) -> u64 {
        if pos.outcome().is_some() {
            return 0;
        }
        self.fresh_side(rules, pos, side);
        let moves = pos.side_cells(side).map(|d| self.moves[d].len());
        moves.sum::<usize>() as u64
    }

    /// The moves of the piece on `sq` as if it were its side's turn (none on an empty square).
    pub fn moves_from(&mut self, rules: &Rules, pos: &Position, sq: Square) -> &[Move] {
        self.sync();
        let d = rules.cell_index(sq);
        self.fresh_moves(rules, pos, d);
        &self.moves[d]
    }

    /// Appends the squares of `side`'s pieces with a move that removes the piece on `sq`, an
    /// enemy's, in square order (none when `sq` is empty; on `side`'s own piece, those whose
    /// captures that may gain remove it on the way).
    pub fn attackers_into(
        &mut self,
        rules: &Rules,
        pos: &Position,
        sq: Square,
        side: Side,
        out: &mut Vec<Square>,
    ) {
        self.fresh_entries(rules, pos, Some(side));
        let row = self.index.hit.row(rules.cell_index(sq));
        let squares = &rules.tables.squares;
        out.extend(both(row, pos.occupied_bits(side)).map(|d| squares[d]));
    }

    /// Whether one of `side`'s pieces has a move that removes the piece on `sq` (an enemy's;
    /// see [`Attacks::attackers_into`]).
    pub fn is_attacked(&mut self, rules: &Rules, pos: &Position, sq: Square, side: Side) -> bool {
        self.fresh_entries(rules, pos, Some(side));
        let row = self.index.hit.row(rules.cell_index(sq));
        both(row, pos.occupied_bits(side)).next().is_some()
    }

    /// Whether an enemy piece has a move that removes one of `side`'s royals (the pieces the
    /// end rule counts): [`Rules::royal_threatened`] without a `by`.
    pub fn royal_attacked(&mut self, rules: &Rules, pos: &Position, side: Side) -> bool {
        self.fresh_entries(rules, pos, Some(side.opponent()));
        let enemy = pos.occupied_bits(side.opponent());
        both(&self.vital, pos.occupied_bits(side))
            .any(|v| both(self.index.hit.row(v), enemy).next().is_some())
    }
}

/// The self-check the property tests run.
impl Attacks {
    /// Compares the kept data with a fresh computation for `pos` and with full generation:
    /// every entry and the index, every move list not stale, the royals, both sides' gainful
    /// captures, every square's attackers. It generates the stale entries first (that is
    /// logged as a query's would be) but leaves stale move lists stale.
    pub fn check(&mut self, rules: &Rules, pos: &Position) -> Result<(), Drift> {
        self.fresh_entries(rules, pos, None);
        let fresh = Attacks::new(rules, pos);
        let squares = &rules.tables.squares;
        let mut scratch = Scratch::default();
        let mut moves = Vec::new();
        for &c in &self.board {
            let c = c as usize;
            let stale = self.marks_of(c) & STALE_MOVES != 0;
            moves.clear();
            movegen::piece_moves(pos, c, &rules.tables, &mut scratch, &mut moves);
            if !self.entries[c].same_attacks(&fresh.entries[c])
                || (!stale && self.moves[c] != moves)
            {
                return Err(Drift::Piece(squares[c]));
            }
        }
        if self.index != fresh.index || self.vital != fresh.vital {
            return Err(Drift::Index);
        }
        for side in Side::BOTH {
            self.check_captures(rules, pos, side)?;
        }
        self.check_attackers(rules, pos)
    }

    /// `side`'s gainful captures against generating them.
    fn check_captures(&self, rules: &Rules, pos: &Position, side: Side) -> Result<(), Drift> {
        let (mut kept, mut full) = (Vec::new(), Vec::new());
        let mut scratch = Scratch::default();
        self.raw_captures(pos, side, &mut kept);
        scratch.set_gainful(true);
        movegen::side_moves(pos, side, &rules.tables, &mut scratch, &mut full);
        if kept != full {
            return Err(Drift::Captures(side));
        }
        Ok(())
    }

    /// Every square's attackers against the victims of the gainful captures generation makes.
    fn check_attackers(&self, rules: &Rules, pos: &Position) -> Result<(), Drift> {
        let mut expected = vec![Vec::new(); pos.cells().len()];
        let (mut scratch, mut moves) = (Scratch::default(), Vec::new());
        scratch.set_gainful(true);
        for side in Side::BOTH {
            for d in pos.side_cells(side) {
                moves.clear();
                movegen::piece_moves(pos, d, &rules.tables, &mut scratch, &mut moves);
                for v in moves.iter().flat_map(|m| m.victims(rules.dims())) {
                    expected[rules.cell_index(v)].push(d);
                }
            }
        }
        for (c, mut want) in expected.into_iter().enumerate() {
            want.sort_unstable();
            want.dedup();
            let row = self.index.hit.row(c);
            let got: Vec<usize> = both(row, row).collect();
            if got != want {
                return Err(Drift::Attackers(rules.tables.squares[c]));
            }
        }
        Ok(())
    }
}

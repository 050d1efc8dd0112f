//! The computer player: an iterative-deepening principal-variation search with a
//! transposition table, move ordering (hash move, captures by the value they remove, killers,
//! history), a bounded quiescence search on captures and a time manager. It plays any game and
//! rule set: the evaluation ([`crate::eval`]) is derived from the data.
//!
//! A game ends when a side loses what its end rule needs (its last royal) or has no legal
//! move; the search scores such an end as [`MATE`] minus the distance to it, so it prefers the
//! quickest win and the slowest loss. Single-threaded, the search is deterministic for a given
//! position, seed and node limit; with more threads it is not (they race through one table).

use crate::eval::{Eval, Rng};
use std::hash::Hasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use taikyoku_core::movecache::MoveCache;
use taikyoku_core::movegen::Scratch;
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// The score of a won game (minus the plies to reach it).
pub const MATE: i32 = 10_000_000;
/// Scores beyond this are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 10_000;
const INF: i32 = MATE + 1;
/// The deepest the search goes (quiescence included).
const MAX_PLY: usize = 64;
/// The quiescence search looks at most this many captures deep.
const QUIESCENCE_DEPTH: u32 = 4;

/// What limits a search; with none, it runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// A hard budget for this move.
    pub movetime: Option<Duration>,
    /// The clock: the time manager picks the budget.
    pub clock: Option<Clock>,
    /// Search only these moves (like UCI's `searchmoves`).
    pub root_moves: Option<Vec<Move>>,
}

/// The mover's clock.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    pub opponent: Option<Duration>,
}

/// Progress, reported after every completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    /// Centipawn-like, from the side to move's view.
    pub score: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    pub elapsed: Duration,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when there is no legal move (or the game is over).
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Settings of a [`Searcher`].
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    pub threads: usize,
    /// Breaks ties between equal moves: games against the engine vary with it.
    pub seed: u64,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            hash_mb: 64,
            threads: 1,
            seed: 0,
        }
    }
}

/// Threads for a computer player that has the machine to itself: two where there are two
/// cores or more (a helper thread shortens the time to a depth: `cargo bench --bench search`;
/// more were not measured), else one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(2))
}

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// A table entry, packed into one word: the score (25 bits, offset), the depth (7 bits), the
/// bound (2 bits, 0 in an empty slot), the generation (6 bits) and the move's
/// [`fingerprint`] (24 bits, 0 for none).
#[derive(Clone, Copy, Debug)]
struct Entry {
    mv: u32,
    score: i32,
    depth: i32,
    bound: Bound,
    generation: u8,
}

const SCORE_OFFSET: i64 = 1 << 24;
const GENERATIONS: u8 = 64;

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
fn fingerprint(m: &Move) -> u32 {
    let mut h = Fx(0);
    std::hash::Hash::hash(m, &mut h);
    ((m.to.0 as u32 & 0x7ff) << 13 | (h.0 >> 51) as u32).max(1)
}

/// Whether `m` is the move a table entry names by its fingerprint `fp`.
fn is_move(fp: u32, m: &Move) -> bool {
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
struct Table {
    slots: Box<[[AtomicU64; 2]]>,
}

impl Table {
    fn new(mb: usize) -> Table {
        let n = (mb.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>();
        Table {
            slots: (0..n.max(1))
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

    fn probe(&self, key: u64) -> Option<Entry> {
        Self::read(self.slot(key)).and_then(|(k, e)| (k == key).then_some(e))
    }

    fn store(&self, key: u64, entry: Entry) {
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

    fn clear(&self) {
        for s in self.slots.iter() {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }
}

/// Per ply of the search: buffers reused at every node.
#[derive(Default)]
struct Ply {
    moves: Vec<Move>,
    /// The moves with their ordering keys, best first once picked.
    scored: Vec<(i32, Move)>,
    pv: Vec<Move>,
    killers: [Option<Move>; 2],
    /// The replying side's moves, built once a node has more than one child to search: each
    /// child then gets its list incrementally ([`MoveCache::moves_after`]).
    cache: MoveCache,
    cached: bool,
    /// The move being searched from this node (what the child's list follows from).
    current: Option<Move>,
    /// The number of moves the side to move has here, once generated (the mobility term).
    mobility: Option<u64>,
}

/// Scores of mate found `ply` plies from the root, stored relative to the node in the table.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The history table's size (hashed by from and to squares).
const HISTORY: usize = 1 << 16;

fn history_slot(m: &Move) -> usize {
    (m.from.0 as usize * 2039 + m.to.0 as usize) & (HISTORY - 1)
}

/// What the threads of a search share: the table, and how many nodes the helpers searched.
struct Shared {
    table: Table,
    helper_nodes: AtomicU64,
}

/// The engine: owns its tables across the moves of a game. With `threads` above 1 it searches
/// with helper threads (Lazy SMP): they search the same root with their own move ordering
/// (odd helpers take the root moves from the end, even ones search a ply deeper) and share the
/// transposition table, so the main thread finds more of its tree there; they stop when it
/// stops, and its result is returned. Two threads measured (`cargo bench --bench search`).
pub struct Searcher {
    opts: SearchOptions,
    shared: Arc<Shared>,
    generation: u8,
    main: Worker,
    helpers: Vec<Worker>,
}

/// One thread's search: its own history, killers, buffers and counters.
struct Worker {
    rules: Arc<Rules>,
    /// The evaluation as configured; `eval` is it readied for the current root.
    base: Arc<Eval>,
    eval: Arc<Eval>,
    shared: Arc<Shared>,
    /// 0 for the main thread.
    id: usize,
    generation: u8,
    history: Vec<i32>,
    plies: Vec<Ply>,
    scratch: Scratch,
    // The current search.
    nodes: u64,
    /// A helper's nodes already added to [`Shared::helper_nodes`].
    published: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    root_moves: Vec<Move>,
    root_best: Option<(Move, i32)>,
    /// The depth of the current iteration (bounds the extensions).
    root_depth: i32,
    /// Scratch space for [`Rules::royal_threatened`].
    threat_buf: Vec<Move>,
    /// The moves played since the cache [`Worker::generate`] reads ([`Worker::cache_above`]).
    line: Vec<Move>,
    /// Which of the search's refinements are on.
    tuning: Tuning,
    /// The score of the last completed iteration (the next one's aspiration window).
    last_score: Option<i32>,
}

/// Refinements of the search that can be switched on or off, to measure what each is worth.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Tuning {
    /// A node whose side to move has its last royal attacked (by the piece that just moved)
    /// is searched a ply deeper. Off: it lost in Sho self-play at equal time in all three
    /// forms tried (every node 2–8–10, only at the horizon 3–5–12, 20 games each at 5+0.1),
    /// and in Taikyoku's middlegame the search rarely gets deep enough for it to matter.
    pub extend: bool,
    /// Each iteration first searches a narrow window around the last one's score. Off: it won
    /// in Sho self-play (7–4–9 at 5+0.1, 8–4–18 at 30,000 nodes a move) but in Taikyoku it
    /// took 1.12× the nodes to a depth (geometric mean of 8 positions, one of them 2.9×),
    /// and there the search seldom gets past depth 3 in the middlegame.
    pub aspiration: bool,
}

/// The aspiration window's half-width at first (about half a pawn); it grows fourfold each
/// time the score falls outside.
const ASPIRATION: i32 = 60;

/// One search, as every thread sees it.
struct Job<'a> {
    pos: &'a Position,
    limits: &'a Limits,
    start: Instant,
    generation: u8,
    seed: u64,
}

impl Job<'_> {
    fn max_depth(&self) -> u32 {
        self.limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1)
    }
}

/// Evaluation tables, computed once per rule set and shared (their derivation generates
/// thousands of sample moves).
pub fn shared_eval(rules: &Rules) -> Arc<Eval> {
    type Cache = Mutex<Vec<(String, String, usize, Arc<Eval>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let id = (
        rules.game.name.clone(),
        rules.rule_set.name.clone(),
        rules.catalogue().kinds.len(),
    );
    let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((.., e)) = guard
        .iter()
        .find(|(g, r, n, _)| (g, r, n) == (&id.0, &id.1, &id.2))
    {
        return e.clone();
    }
    let e = Arc::new(Eval::new(rules));
    guard.push((id.0, id.1, id.2, e.clone()));
    e
}

impl Searcher {
    pub fn new(rules: Arc<Rules>, opts: SearchOptions) -> Searcher {
        let eval = shared_eval(&rules);
        let shared = Arc::new(Shared {
            table: Table::new(opts.hash_mb),
            helper_nodes: AtomicU64::new(0),
        });
        let worker = |id| Worker::new(rules.clone(), eval.clone(), shared.clone(), id);
        Searcher {
            main: worker(0),
            helpers: (1..opts.threads.max(1)).map(worker).collect(),
            opts,
            shared,
            generation: 0,
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.shared.table.clear();
        std::iter::once(&mut self.main)
            .chain(&mut self.helpers)
            .for_each(Worker::forget);
    }

    /// Switches the search's refinements on or off (all off by default, as measured: see
    /// [`Tuning`]); for tests and for measuring what each is worth.
    #[doc(hidden)]
    pub fn set_tuning(&mut self, tuning: Tuning) {
        std::iter::once(&mut self.main)
            .chain(&mut self.helpers)
            .for_each(|w| w.tuning = tuning);
    }

    /// The evaluation the search uses.
    pub fn eval(&self) -> &Eval {
        &self.main.eval
    }

    /// Sets the weights of the evaluation's terms (A/B matches switch terms off with it).
    pub fn set_weights(&mut self, weights: crate::eval::Weights) {
        let mut e = (*self.main.base).clone();
        e.weights = weights;
        let e = Arc::new(e);
        for w in std::iter::once(&mut self.main).chain(&mut self.helpers) {
            w.base = e.clone();
            w.eval = e.clone();
        }
    }

    /// Searches `pos` (unchanged from the caller's view) within `limits` or until `stop` is
    /// set, reporting each completed depth to `on_info`; returns the best move found. With
    /// helper threads the node limit counts the main thread's nodes, the nodes reported are
    /// every thread's.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.generation = (self.generation + 1) % GENERATIONS;
        self.shared.helper_nodes.store(0, Ordering::Relaxed);
        let job = Job {
            pos,
            limits,
            start: Instant::now(),
            generation: self.generation,
            seed: self.opts.seed,
        };
        if self.helpers.is_empty() {
            return self.main.think(&job, stop, on_info);
        }
        let halt = AtomicBool::new(false);
        std::thread::scope(|s| {
            let (job, halt) = (&job, &halt);
            let handles: Vec<_> = (self.helpers.iter_mut())
                .map(|w| s.spawn(move || w.help(job, halt)))
                .collect();
            let mut result = self.main.think(job, stop, on_info);
            halt.store(true, Ordering::Relaxed);
            for h in handles {
                h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
            result.nodes += self.shared.helper_nodes.load(Ordering::Relaxed);
            result
        })
    }
}

impl Worker {
    fn new(rules: Arc<Rules>, eval: Arc<Eval>, shared: Arc<Shared>, id: usize) -> Worker {
        Worker {
            rules,
            base: eval.clone(),
            eval,
            shared,
            id,
            generation: 0,
            history: vec![0; HISTORY],
            plies: (0..MAX_PLY + 1).map(|_| Ply::default()).collect(),
            scratch: Scratch::default(),
            nodes: 0,
            published: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            root_moves: Vec::new(),
            root_best: None,
            root_depth: 0,
            threat_buf: Vec::new(),
            line: Vec::new(),
            tuning: Tuning::default(),
            last_score: None,
        }
    }

    /// Forgets the history and killers (a new game).
    fn forget(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.plies.iter_mut().for_each(|p| p.killers = [None; 2]);
    }

    /// Readies this thread for `job`: its counters and root moves; returns its copy of the
    /// position and the material balance from the side to move's view.
    fn begin(&mut self, job: &Job) -> (Position, i32) {
        self.nodes = 0;
        self.published = 0;
        self.last_score = None;
        self.stopped = false;
        self.generation = job.generation;
        // The helpers order the root differently (and so, soon, everything else).
        let seed = job.seed ^ (self.id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.eval = Arc::new(self.base.for_position(&self.rules, job.pos));
        self.root_moves = self.ordered_root_moves(job.pos, job.limits, seed);
        let material = self.eval.material(job.pos);
        let mat = if job.pos.to_move().index() == 0 {
            material
        } else {
            -material
        };
        (job.pos.clone(), mat)
    }

    /// The main thread's iterative deepening: stops at the limits, reports every depth.
    fn think(
        &mut self,
        job: &Job,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let (mut pos, mat) = self.begin(job);
        self.node_limit = job.limits.nodes.unwrap_or(u64::MAX);
        let (soft, hard) = budget(job.limits);
        self.deadline = hard.map(|h| job.start + h);
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let Some(&first) = self.root_moves.first() else {
            return result;
        };
        result.best = Some(first);
        result.pv = vec![first];
        for depth in 1..=job.max_depth() {
            let score = self.iterate(&mut pos, depth, mat, stop);
            if let Some((m, s)) = self.root_best {
                result.best = Some(m);
                result.score = if self.stopped { s } else { score };
                result.pv = self.plies[0].pv.clone();
                if result.pv.first() != Some(&m) {
                    result.pv = vec![m];
                }
            }
            if self.stopped {
                break;
            }
            result.depth = depth;
            let elapsed = job.start.elapsed();
            on_info(&Info {
                depth,
                score: result.score,
                nodes: self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed),
                pv: result.pv.clone(),
                elapsed,
            });
            let decided = score.abs() > MATE_BOUND && (MATE - score.abs()) as u32 <= depth;
            if decided
                || self.root_moves.len() == 1 && (soft.is_some() || hard.is_some())
                || soft.is_some_and(|s| elapsed >= s)
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = job.start.elapsed();
        result
    }

    /// A helper thread's iterative deepening until `halt`: odd helpers search the root moves
    /// in reverse order, even ones a ply deeper.
    fn help(&mut self, job: &Job, halt: &AtomicBool) {
        let (mut pos, mat) = self.begin(job);
        self.node_limit = u64::MAX;
        self.deadline = None;
        if !self.root_moves.is_empty() {
            let offset = (self.id > 0 && self.id.is_multiple_of(2)) as u32;
            for depth in 1..=job.max_depth() {
                self.iterate(&mut pos, (depth + offset).min(job.max_depth()), mat, halt);
                if self.stopped {
                    break;
                }
            }
        }
        self.publish();
    }

    /// One iteration at `depth`: its score; the best move goes first for the next one.
    /// After the first iterations it searches a window around the last score first, and
    /// widens it on the side the score fell out of until the score lies within.
    fn iterate(&mut self, pos: &mut Position, depth: u32, mat: i32, stop: &AtomicBool) -> i32 {
        self.root_best = None;
        self.root_depth = depth as i32;
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = match self.last_score {
            Some(last) if self.tuning.aspiration && depth >= 3 && last.abs() < MATE_BOUND => {
                (last - delta, last + delta)
            }
            _ => (-INF, INF),
        };
        let score = loop {
            let score = self.node(pos, depth as i32, alpha, beta, 0, mat, stop);
            delta = delta.saturating_mul(4);
            if self.stopped {
                break score;
            } else if score <= alpha && alpha > -INF {
                alpha = score.saturating_sub(delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = score.saturating_add(delta).min(INF);
            } else {
                self.last_score = Some(score);
                break score;
            }
        };
        if let Some((m, _)) = self.root_best
            && let Some(i) = self.root_moves.iter().position(|r| *r == m)
        {
            self.root_moves[..=i].rotate_right(1);
        }
        score
    }

    /// Adds a helper's new nodes to the shared count.
    fn publish(&mut self) {
        let new = self.nodes - self.published;
        self.shared.helper_nodes.fetch_add(new, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// The legal moves at the root (only `limits.root_moves` if given), captures first and
    /// the rest shuffled by the seed.
    fn ordered_root_moves(&mut self, pos: &Position, limits: &Limits, seed: u64) -> Vec<Move> {
        let mut moves = Vec::new();
        self.rules
            .legal_moves_into(pos, &mut self.scratch, &mut moves);
        if let Some(only) = &limits.root_moves {
            moves.retain(|m| only.contains(m));
        }
        let mut rng = Rng(seed ^ pos.hash());
        for i in (1..moves.len()).rev() {
            moves.swap(i, rng.below(i + 1));
        }
        let gains: Vec<i32> = moves
            .iter()
            .map(|m| self.eval.move_gain(&self.rules, pos, m))
            .collect();
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(gains[i]));
        order.into_iter().map(|i| moves[i]).collect()
    }

    /// Whether to stop now: the flag, the node limit or the deadline.
    #[inline]
    fn check_stop(&mut self, stop: &AtomicBool) -> bool {
        if self.stopped {
            return true;
        }
        if self.id > 0 && self.nodes - self.published >= 1024 {
            self.publish();
        }
        if self.nodes >= self.node_limit
            || stop.load(Ordering::Relaxed)
            || (self.nodes & 31 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the side to move is down to one royal and an enemy piece attacks it: below
    /// the root, only the piece that just moved is asked (a discovered attack is missed; asking
    /// every enemy piece at every node cost a fifth of the search's speed).
    fn last_royal_threatened(&mut self, pos: &Position, ply: usize) -> bool {
        let us = pos.to_move();
        if !self.tuning.extend || pos.royals(us) != 1 {
            return false;
        }
        let by = match ply {
            0 => None,
            _ => match self.plies[ply - 1].current {
                Some(m) => Some(m.to),
                None => return false,
            },
        };
        (self.rules).royal_threatened(pos, us, by, &mut self.scratch, &mut self.threat_buf)
    }

    /// The score of a finished game for the side to move, `ply` plies from the root.
    fn terminal(pos: &Position, ply: usize) -> Option<i32> {
        pos.outcome().map(|o| {
            if o.winner == pos.to_move() {
                MATE - ply as i32
            } else {
                -(MATE - ply as i32)
            }
        })
    }

    /// Principal-variation search of `pos` to `depth`; `mat` is the material balance from the
    /// side to move's view.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        mat: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.plies[ply].pv.clear();
        self.plies[ply].mobility = None;
        if let Some(s) = Self::terminal(pos, ply) {
            return s;
        }
        // A side whose last royal is attacked must answer (losing it loses the game): it
        // cannot stand pat, so such a node is searched a ply deeper, up to twice the
        // iteration's depth from the root.
        let threatened = (ply as i32) < 2 * self.root_depth && self.last_royal_threatened(pos, ply);
        let depth = depth + threatened as i32;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, alpha, beta, ply, mat, 0, stop);
        }
        self.nodes += 1;
        if self.check_stop(stop) {
            return 0;
        }
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        let key = pos.hash();
        let hit = self.shared.table.probe(key);
        if let Some(e) = hit
            && !root
            && !pv_node
            && e.depth >= depth
        {
            let s = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        // Null move: if passing still fails high, a real move will too.
        if !root && !pv_node && !threatened && depth >= 3 && mat >= beta && beta.abs() < MATE_BOUND
        {
            let side = pos.to_move();
            self.plies[ply].current = None;
            pos.set_to_move(side.opponent());
            let r = 2 + depth / 4;
            let s = -self.node(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, -mat, stop);
            pos.set_to_move(side);
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return beta;
            }
        }
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        if root {
            moves.extend_from_slice(&self.root_moves);
        } else {
            self.generate(pos, ply, false, &mut moves);
        }
        if moves.is_empty() {
            self.plies[ply].moves = moves;
            return -(MATE - ply as i32);
        }
        self.plies[ply].mobility = Some(moves.len() as u64);
        let tt_move = hit.map_or(0, |e| e.mv);
        let mut scored = std::mem::take(&mut self.plies[ply].scored);
        self.score_moves(pos, ply, &moves, &mut scored, tt_move, root);
        self.plies[ply].moves = moves;
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0;
        for i in 0..scored.len() {
            pick(&mut scored, i);
            let m = scored[i].1;
            let gain = self.eval.move_gain(&self.rules, pos, &m);
            let quiet = !m.captures() && !m.promotes();
            // Futility: near the leaves a quiet move cannot lift a hopeless score.
            if !pv_node
                && !threatened
                && quiet
                && searched > 0
                && depth <= 2
                && mat + 150 * depth <= alpha
            {
                continue;
            }
            // The replies' cache; above the leaves from the first move on, as the mobility
            // term counts the leaves' moves from it.
            let leaves =
                depth == 1 && self.eval.weights.mobility != 0 && self.eval.weights.exact != 0;
            if (searched == 1 || leaves) && !self.plies[ply].cached {
                let them = pos.to_move().opponent();
                self.plies[ply].cache.build(&self.rules, pos, them);
                self.plies[ply].cached = true;
            }
            let killer = self.plies[ply].killers.contains(&Some(m));
            self.plies[ply].current = Some(m);
            let undo = self.rules.make(pos, &m);
            let child = -(mat + gain + self.eval.effects_gain(pos, &undo));
            let mut s;
            if searched == 0 {
                s = -self.node(pos, depth - 1, -beta, -alpha, ply + 1, child, stop);
            } else {
                let r = if depth >= 3 && searched >= 3 && quiet && !killer && !threatened {
                    (1 + searched / 12 + depth / 6).min(depth - 2)
                } else {
                    0
                };
                s = -self.node(pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1, child, stop);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.node(pos, depth - 1, -alpha - 1, -alpha, ply + 1, child, stop);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.node(pos, depth - 1, -beta, -alpha, ply + 1, child, stop);
                }
            }
            self.rules.unmake(pos, undo);
            if self.stopped {
                break;
            }
            searched += 1;
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if root {
                        self.root_best = Some((m, s));
                    }
                    if s >= beta {
                        if quiet {
                            self.reward(ply, &m, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.plies[ply].scored = scored;
        self.plies[ply].cached = false;
        if self.stopped {
            return best.max(alpha0);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            mv: best_move.map_or(0, |m| fingerprint(&m)),
            score: to_table(best, ply),
            depth,
            bound,
            generation: self.generation,
        };
        self.shared.table.store(key, entry);
        best
    }

    /// The moves of the side to move at `ply` (only captures that may gain if `captures`: the
    /// others fail the quiescence search's `gain <= 0` test anyway): from a cache a few plies
    /// up when there is one, else generated.
    fn generate(&mut self, pos: &Position, ply: usize, captures: bool, out: &mut Vec<Move>) {
        let mut line = std::mem::take(&mut self.line);
        if let Some(j) = self.cache_above(pos, ply, &mut line) {
            let cache = &mut self.plies[j].cache;
            if captures {
                cache.captures_after(&self.rules, pos, &line, out);
            } else {
                cache.moves_after_line(&self.rules, pos, &line, out);
            }
        } else if captures {
            self.rules
                .gainful_captures_into(pos, &mut self.scratch, out);
        } else {
            self.rules.legal_moves_into(pos, &mut self.scratch, out);
        }
        self.line = line;
    }

    /// The nearest of the few plies above `ply` whose cache holds the moves of the side to
    /// move at `ply`, with the moves played since in `line`, oldest first (a null move plays
    /// none). Usually the parent; else three plies up (the first child of a node has no cache
    /// at its parent, which builds one only for its second).
    fn cache_above(&self, pos: &Position, ply: usize, line: &mut Vec<Move>) -> Option<usize> {
        const REACH: usize = 3;
        let side = Some(pos.to_move());
        let j = (ply.saturating_sub(REACH)..ply)
            .rev()
            .find(|&j| self.plies[j].cached && self.plies[j].cache.side() == side)?;
        line.clear();
        line.extend(self.plies[j..ply].iter().filter_map(|p| p.current));
        Some(j)
    }

    /// The mobility term at a leaf, the side to move's view ([`Eval::mobility`]): its moves
    /// (counted from the parent's cache with [`crate::eval::Weights::exact`], else as the
    /// grandparent counted them) against the parent's; 0 where a count is missing (a null
    /// move's reply).
    fn leaf_mobility(&mut self, pos: &Position, ply: usize) -> i32 {
        if self.eval.weights.mobility == 0 || ply < 2 {
            return 0;
        }
        let own = if self.eval.weights.exact == 0 {
            // The side to move's count two plies up: free, one of its moves old.
            self.plies[ply - 2].mobility
        } else {
            let parent = &mut self.plies[ply - 1];
            match (parent.cached, parent.current) {
                (true, Some(m)) => Some(parent.cache.count_after(&self.rules, pos, &m)),
                _ => None,
            }
        };
        match (own, self.plies[ply - 1].mobility) {
            (Some(own), Some(theirs)) => self.eval.mobility(own, theirs),
            _ => 0,
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.plies.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(m);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// A quiet move that refuted: a killer at this ply, and history credit.
    fn reward(&mut self, ply: usize, m: &Move, depth: i32) {
        let k = &mut self.plies[ply].killers;
        if k[0] != Some(*m) {
            k[1] = k[0];
            k[0] = Some(*m);
        }
        let h = &mut self.history[history_slot(m)];
        *h = (*h + depth * depth).min(1 << 20);
    }

    /// Ordering keys: the hash move, then captures by what they gain (cheaper movers first),
    /// killers, and quiet moves by history.
    fn score_moves(
        &self,
        pos: &Position,
        ply: usize,
        moves: &[Move],
        scored: &mut Vec<(i32, Move)>,
        tt_move: u32,
        root: bool,
    ) {
        scored.clear();
        let killers = self.plies[ply].killers;
        for (i, m) in moves.iter().enumerate() {
            let s = if root {
                // The root list is already ordered; odd helpers take it from the end (after
                // the best move so far), so that the main thread finds the moves it comes to
                // last already searched.
                if self.id % 2 == 1 && i > 0 {
                    -((moves.len() - i) as i32)
                } else {
                    -(i as i32)
                }
            } else if is_move(tt_move, m) {
                1 << 30
            } else if m.captures() || m.promotes() {
                let gain = self.eval.move_gain(&self.rules, pos, m);
                if gain > 0 {
                    (1 << 26) + gain * 16 - self.eval.mover_value(&self.rules, pos, m) / 16
                } else {
                    gain
                }
            } else if killers[0] == Some(*m) {
                1 << 25
            } else if killers[1] == Some(*m) {
                (1 << 25) - 1
            } else {
                self.history[history_slot(m)]
            };
            scored.push((s, *m));
        }
    }

    /// Captures only, until the position is quiet or the depth cap; the side to move may
    /// always stand pat on its material.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        mat: i32,
        qdepth: u32,
        stop: &AtomicBool,
    ) -> i32 {
        self.plies[ply].pv.clear();
        if let Some(s) = Self::terminal(pos, ply) {
            return s;
        }
        self.nodes += 1;
        if self.check_stop(stop) {
            return 0;
        }
        // Standing pat: the material kept move by move, the mobility (counted at the leaf,
        // then kept through the captures) and the royals' safety.
        let mat = if qdepth == 0 {
            mat + self.leaf_mobility(pos, ply)
        } else {
            mat
        };
        let stand = mat + self.eval.royal_safety(pos, mat);
        if stand >= beta || qdepth >= QUIESCENCE_DEPTH || ply >= MAX_PLY - 1 {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        self.generate(pos, ply, true, &mut moves);
        let mut scored = std::mem::take(&mut self.plies[ply].scored);
        scored.clear();
        for m in &moves {
            let gain = self.eval.move_gain(&self.rules, pos, m);
            // Delta pruning: even winning this for free would not reach alpha.
            if gain <= 0 || stand + gain + 200 <= alpha {
                continue;
            }
            // Beyond the first capture, only those that gain even if the mover is taken back
            // (a cheap stand-in for a static exchange evaluation).
            let mover = self.eval.mover_value(&self.rules, pos, m);
            if qdepth == 0 || gain >= mover {
                scored.push((gain * 16 - mover / 16, *m));
            }
        }
        self.plies[ply].moves = moves;
        for i in 0..scored.len() {
            pick(&mut scored, i);
            let m = scored[i].1;
            let gain = self.eval.move_gain(&self.rules, pos, &m);
            if i == 1 && scored.len() > 2 && qdepth + 1 < QUIESCENCE_DEPTH {
                let them = pos.to_move().opponent();
                self.plies[ply].cache.build(&self.rules, pos, them);
                self.plies[ply].cached = true;
            }
            self.plies[ply].current = Some(m);
            let undo = self.rules.make(pos, &m);
            let gain = gain + self.eval.effects_gain(pos, &undo);
            let s = -self.quiesce(pos, -beta, -alpha, ply + 1, -(mat + gain), qdepth + 1, stop);
            self.rules.unmake(pos, undo);
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.plies[ply].scored = scored;
        self.plies[ply].cached = false;
        best
    }
}

/// Moves the best-scored of `scored[i..]` to `i`: a selection for the first few (most nodes
/// need only those), then one sort of the rest.
fn pick(scored: &mut [(i32, Move)], i: usize) {
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

/// The time manager: (soft, hard) budgets. No new iteration starts after the soft one; the
/// search stops at the hard one. With a clock: about a thirtieth of the time left plus most
/// of the increment, never more than a quarter of what is left, and a margin for the reply.
fn budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    let margin = |d: Duration| d.saturating_sub((d / 20).min(Duration::from_millis(50)));
    let mut hard = limits.movetime.map(margin);
    let mut soft = hard.map(|h| h / 2);
    if let Some(c) = limits.clock {
        let left = c.remaining.saturating_sub(Duration::from_millis(30));
        let target = (left / 30 + c.increment * 3 / 4).min(left / 4);
        let cap = (target * 3).min(left / 3);
        hard = Some(hard.map_or(cap, |h| h.min(cap)));
        soft = Some(soft.map_or(target / 2, |s| s.min(target / 2)));
    }
    (soft, hard)
}

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

#[cfg(test)]
mod tests {
    use super::*;

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
        for (score, depth, bound, generation, mv) in [
            (MATE, 63, Bound::Exact, 0, 0xff_ffff),
            (-MATE, 1, Bound::Upper, 63, 1),
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
        let t = &Table {
            slots: (0..8)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        };
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

//! The search proper: each thread's iterative deepening, the principal-variation node search
//! (transposition table, null move, futility, late-move reductions) and a bounded quiescence
//! search on captures. It plays any game and rule set: the evaluation ([`crate::eval`]) is
//! derived from the data.
//!
//! A game ends when a side loses what its end rule needs (its last royal) or has no legal
//! move; the search scores such an end as [`MATE`] minus the distance to it, so it prefers the
//! quickest win and the slowest loss. Single-threaded, the search is deterministic for a given
//! position, seed and node limit; with more threads it is not (they race through one table).

use crate::eval::Eval;
use crate::movepick::{self, Hints, History, Killers};
use crate::timeman::{Limits, budget};
use crate::tt::{Bound, Entry, Table, fingerprint};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use taikyoku_core::attacks::Attacks;
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

/// Progress, reported after every completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    /// Centipawn-like, from the side to move's view.
    pub score: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    pub elapsed: Duration,
    /// The main thread's counters since the search began.
    pub stats: Stats,
}

/// How the main thread's tree looked, counted since the search began (`bestmove --stats`
/// prints them per depth): the shape of the tree, to see where it grows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Every node, the quiescence search's included.
    pub nodes: u64,
    /// The quiescence search's nodes.
    pub qnodes: u64,
    /// Table probes of the main search, and those that found an entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Main-search nodes that failed high, and those whose first move did.
    pub cuts: u64,
    pub first_cuts: u64,
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

/// Per ply of the search: buffers reused at every node.
#[derive(Default)]
struct Ply {
    moves: Vec<Move>,
    /// The moves with their ordering keys, best first once picked.
    scored: Vec<(i32, Move)>,
    pv: Vec<Move>,
    killers: Killers,
    /// The replying side's moves, built once a node has more than one child to search: each
    /// child then gets its list incrementally ([`MoveCache::moves_after`]).
    cache: MoveCache,
    cached: bool,
    /// The move being searched from this node (what the child's list follows from).
    current: Option<Move>,
    /// The number of moves the side to move has here, once generated (the mobility term).
    mobility: Option<u64>,
}

/// The plies to the end of the game a score announces: positive for a win of the side it is
/// scored for (it takes the last royal, or leaves no move, in that many plies), negative for
/// a loss; `None` for a score that is not a game's end.
pub fn plies_to_end(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// How many moves a node `depth` plies from the leaves searches before late-move pruning
/// ([`Worker::prunes`]) skips its quiet moves: more the more moves it has.
fn late_moves(depth: i32, moves: usize) -> usize {
    (6 + moves / 12) * (depth * depth) as usize
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

/// A node as the parts of [`Worker::node`] see it.
#[derive(Clone, Copy)]
struct Node {
    /// The depth left, the extension included.
    depth: i32,
    /// The window the node was called with.
    alpha: i32,
    beta: i32,
    ply: usize,
    /// The material balance from the side to move's view.
    mat: i32,
    /// The side to move's last royal is attacked: nothing is pruned.
    threatened: bool,
    root: bool,
    /// An open window (a principal-variation node): nothing is pruned.
    pv: bool,
}

impl Node {
    /// The table's score, if the entry `e` settles the node without a search.
    fn table_cut(&self, e: &Entry) -> Option<i32> {
        if self.root || self.pv || e.depth < self.depth {
            return None;
        }
        let s = from_table(e.score, self.ply);
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= self.beta,
            Bound::Upper => s <= self.alpha,
        };
        cut.then_some(s)
    }
}

/// What a node's move loop carries from one move to the next.
struct Best {
    /// The window's lower end, raised by every better move.
    alpha: i32,
    score: i32,
    mv: Option<Move>,
    /// The moves searched so far.
    searched: i32,
}

/// What the threads of a search share: the table, and how many nodes the helpers searched.
pub(crate) struct Shared {
    pub table: Table,
    pub helper_nodes: AtomicU64,
}

/// One thread's search: its own history, killers, buffers and counters.
pub(crate) struct Worker {
    rules: Arc<Rules>,
    /// The evaluation as configured; `eval` is it readied for the current root.
    pub base: Arc<Eval>,
    pub eval: Arc<Eval>,
    shared: Arc<Shared>,
    /// 0 for the main thread.
    id: usize,
    generation: u8,
    history: History,
    plies: Vec<Ply>,
    scratch: Scratch,
    /// The attack information of the position searched, kept along every move: the
    /// quiescence search's captures come from it.
    attacks: Attacks,
    // The current search.
    nodes: u64,
    stats: Stats,
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
    pub tuning: Tuning,
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
pub(crate) struct Job<'a> {
    pub pos: &'a Position,
    pub limits: &'a Limits,
    pub start: Instant,
    pub generation: u8,
    pub seed: u64,
}

impl Job<'_> {
    fn max_depth(&self) -> u32 {
        self.limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1)
    }
}

impl Worker {
    pub fn new(rules: Arc<Rules>, eval: Arc<Eval>, shared: Arc<Shared>, id: usize) -> Worker {
        Worker {
            rules,
            base: eval.clone(),
            eval,
            shared,
            id,
            generation: 0,
            history: History::new(),
            plies: (0..MAX_PLY + 1).map(|_| Ply::default()).collect(),
            scratch: Scratch::default(),
            attacks: Attacks::default(),
            nodes: 0,
            stats: Stats::default(),
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
    pub fn forget(&mut self) {
        self.history.clear();
        self.plies
            .iter_mut()
            .for_each(|p| p.killers = Killers::default());
    }

    /// Readies this thread for `job`: its counters and root moves; returns its copy of the
    /// position and the material balance from the side to move's view.
    fn begin(&mut self, job: &Job) -> (Position, i32) {
        self.nodes = 0;
        self.stats = Stats::default();
        self.published = 0;
        self.last_score = None;
        self.stopped = false;
        self.generation = job.generation;
        // The helpers order the root differently (and so, soon, everything else).
        let seed = job.seed ^ (self.id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.eval = Arc::new(self.base.for_position(&self.rules, job.pos));
        let only = job.limits.root_moves.as_deref();
        self.root_moves = movepick::root_moves(
            &self.rules,
            &self.eval,
            job.pos,
            &mut self.scratch,
            only,
            seed,
        );
        self.attacks.build(&self.rules, job.pos);
        let material = self.eval.material(job.pos);
        let mat = if job.pos.to_move().index() == 0 {
            material
        } else {
            -material
        };
        (job.pos.clone(), mat)
    }

    /// The main thread's iterative deepening: stops at the limits, reports every depth.
    pub fn think(
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
                // An unfinished iteration counts only where it found another best move (its
                // score and depth are then that deeper search's); else the last finished one
                // stands, as its report said it.
                let finished = !self.stopped;
                if finished || result.depth == 0 || result.best != Some(m) {
                    result.best = Some(m);
                    result.score = if finished { score } else { s };
                    result.pv = self.plies[0].pv.clone();
                    if result.pv.first() != Some(&m) {
                        result.pv = vec![m];
                    }
                    if !finished && result.depth > 0 {
                        result.depth = depth;
                    }
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
                stats: Stats {
                    nodes: self.nodes,
                    ..self.stats
                },
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
    pub fn help(&mut self, job: &Job, halt: &AtomicBool) {
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
        alpha: i32,
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
        let n = Node {
            depth,
            alpha,
            beta,
            ply,
            mat,
            threatened,
            root: ply == 0,
            pv: beta - alpha > 1,
        };
        let key = pos.hash();
        let hit = self.shared.table.probe(key);
        self.stats.tt_probes += 1;
        self.stats.tt_hits += hit.is_some() as u64;
        if let Some(s) = hit.and_then(|e| n.table_cut(&e)) {
            return s;
        }
        if let Some(s) = self.null_move(pos, &n, stop) {
            return s;
        }
        let Some(mut scored) = self.ordered_moves(pos, &n, hit.map_or(0, |e| e.mv)) else {
            return -(MATE - ply as i32);
        };
        let best = self.search_moves(pos, &n, &mut scored, stop);
        self.plies[ply].scored = scored;
        self.plies[ply].cached = false;
        if self.stopped {
            return best.score.max(alpha);
        }
        self.store(key, &n, &best);
        best.score
    }

    /// Null move: if passing still fails high, a real move will too. The node's score if it
    /// settles the node (0 if the search stopped meanwhile).
    fn null_move(&mut self, pos: &mut Position, n: &Node, stop: &AtomicBool) -> Option<i32> {
        let Node {
            depth,
            beta,
            ply,
            mat,
            ..
        } = *n;
        if n.root || n.pv || n.threatened || depth < 3 || mat < beta || beta.abs() >= MATE_BOUND {
            return None;
        }
        let side = pos.to_move();
        self.plies[ply].current = None;
        pos.set_to_move(side.opponent());
        let r = 2 + depth / 4;
        let s = -self.node(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, -mat, stop);
        pos.set_to_move(side);
        if self.stopped {
            Some(0)
        } else {
            (s >= beta).then_some(beta)
        }
    }

    /// The node's moves with their ordering keys (`tt_move`: the table's move's fingerprint);
    /// none when the side to move has no move (it loses).
    fn ordered_moves(
        &mut self,
        pos: &Position,
        n: &Node,
        tt_move: u32,
    ) -> Option<Vec<(i32, Move)>> {
        let ply = n.ply;
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        if n.root {
            moves.extend_from_slice(&self.root_moves);
        } else {
            self.generate(pos, ply, false, &mut moves);
        }
        if moves.is_empty() {
            self.plies[ply].moves = moves;
            return None;
        }
        self.plies[ply].mobility = Some(moves.len() as u64);
        let mut scored = std::mem::take(&mut self.plies[ply].scored);
        if n.root {
            movepick::score_root(&moves, self.id % 2 == 1, &mut scored);
        } else {
            let hints = Hints {
                tt_move,
                killers: &self.plies[ply].killers,
                history: &self.history,
            };
            movepick::score_moves(&self.eval, &self.rules, pos, &moves, hints, &mut scored);
        }
        self.plies[ply].moves = moves;
        Some(scored)
    }

    /// Searches the node's moves, best-ordered first, until one fails high (a quiet one that
    /// does is rewarded); futility skips hopeless quiet moves near the leaves.
    fn search_moves(
        &mut self,
        pos: &mut Position,
        n: &Node,
        scored: &mut [(i32, Move)],
        stop: &AtomicBool,
    ) -> Best {
        let mut best = Best {
            alpha: n.alpha,
            score: -INF,
            mv: None,
            searched: 0,
        };
        for i in 0..scored.len() {
            movepick::pick(scored, i);
            let m = scored[i].1;
            let quiet = !m.captures() && !m.promotes();
            // A capture of only the mover's own men (a range capturer's flight: most of
            // Taikyoku's moves) gains nothing: pruned as a quiet move is.
            let idle = quiet || !m.promotes() && !self.rules.is_gainful_capture(pos, &m);
            if idle && best.searched > 0 && self.prunes(n, &best, scored.len()) {
                continue;
            }
            let gain = self.eval.move_gain(&self.rules, pos, &m);
            // The replies' cache; above the leaves from the first move on, as the mobility
            // term counts the leaves' moves from it.
            let leaves =
                n.depth == 1 && self.eval.weights.mobility != 0 && self.eval.weights.exact != 0;
            if (best.searched == 1 || leaves) && !self.plies[n.ply].cached {
                self.cache_replies(pos, n.ply);
            }
            let s = self.search_move(pos, n, &best, m, gain, stop);
            if self.stopped {
                break;
            }
            best.searched += 1;
            if s > best.score {
                best.score = s;
                best.mv = Some(m);
                if s > best.alpha {
                    best.alpha = s;
                    self.update_pv(n.ply, m);
                    if n.root {
                        self.root_best = Some((m, s));
                    }
                    if s >= n.beta {
                        self.stats.cuts += 1;
                        self.stats.first_cuts += (best.searched == 1) as u64;
                        if quiet {
                            self.reward(n.ply, &m, n.depth);
                        }
                        break;
                    }
                }
            }
        }
        best
    }

    /// Whether node `n` (of `moves` moves), at `best`, skips its next quiet move near the
    /// leaves: futility (a quiet move cannot lift a hopeless score) and late-move pruning
    /// (after the first [`late_moves`] moves, in the order of the killers and the history,
    /// the rest are not searched: in Taikyoku most of a node's hundreds of quiet moves are
    /// far from the action, and searching them all made the tree grow twentyfold a ply).
    fn prunes(&self, n: &Node, best: &Best, moves: usize) -> bool {
        // A won or lost game in the window: a quiet move may reach it sooner or later.
        let won = |s: i32| s.abs() > MATE_BOUND && s.abs() <= MATE;
        let decided = won(best.alpha) || won(n.beta);
        if n.pv || n.threatened || n.depth > 2 || decided {
            return false;
        }
        n.mat + 150 * n.depth <= best.alpha || best.searched as usize >= late_moves(n.depth, moves)
    }

    /// Searches move `m` (gaining `gain`) of node `n`, the loop being at `best`: the first
    /// move with the whole window, the others with a null window (reduced when late and
    /// quiet), searched again in full if they rise above alpha.
    fn search_move(
        &mut self,
        pos: &mut Position,
        n: &Node,
        best: &Best,
        m: Move,
        gain: i32,
        stop: &AtomicBool,
    ) -> i32 {
        let (depth, alpha, beta, ply) = (n.depth, best.alpha, n.beta, n.ply);
        let quiet = !m.captures() && !m.promotes();
        let killer = self.plies[ply].killers.contains(&m);
        self.plies[ply].current = Some(m);
        let undo = self.attacks.make(&self.rules, pos, &m);
        let child = -(n.mat + gain + self.eval.effects_gain(pos, &undo));
        let searched = best.searched;
        let mut s;
        if searched == 0 {
            s = -self.node(pos, depth - 1, -beta, -alpha, ply + 1, child, stop);
        } else {
            let r = if depth >= 3 && searched >= 3 && quiet && !killer && !n.threatened {
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
        self.attacks.unmake(&self.rules, pos, undo);
        s
    }

    /// Builds the cache of the replies to the moves at `ply`: each child then gets its list
    /// incrementally.
    fn cache_replies(&mut self, pos: &Position, ply: usize) {
        let them = pos.to_move().opponent();
        self.plies[ply].cache.build(&self.rules, pos, them);
        self.plies[ply].cached = true;
        self.attacks.prepare(&self.rules, pos, them);
    }

    /// Stores what node `n` found in the table.
    fn store(&self, key: u64, n: &Node, best: &Best) {
        let bound = if best.score >= n.beta {
            Bound::Lower
        } else if best.score > n.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            mv: best.mv.map_or(0, |m| fingerprint(&m)),
            score: to_table(best.score, n.ply),
            depth: n.depth,
            bound,
            generation: self.generation,
        };
        self.shared.table.store(key, entry);
    }

    /// The moves of the side to move at `ply` (only captures that may gain if `captures`: the
    /// others fail the quiescence search's `gain <= 0` test anyway): the captures from the
    /// attack information; the moves from a cache a few plies up when there is one, else
    /// generated.
    fn generate(&mut self, pos: &Position, ply: usize, captures: bool, out: &mut Vec<Move>) {
        if captures {
            (self.attacks).captures_into(&self.rules, pos, pos.to_move(), out);
            return;
        }
        let mut line = std::mem::take(&mut self.line);
        if let Some(j) = self.cache_above(pos, ply, &mut line) {
            let cache = &mut self.plies[j].cache;
            cache.moves_after_line(&self.rules, pos, &line, out);
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
        self.plies[ply].killers.push(*m);
        self.history.reward(m, depth);
    }

    /// The captures a quiescence node standing pat at `stand` searches, with their ordering
    /// keys: those that might lift it above `alpha`, and beyond the first capture only those
    /// that gain even if the mover is taken back (a cheap stand-in for a static exchange
    /// evaluation).
    fn captures(
        &mut self,
        pos: &Position,
        ply: usize,
        stand: i32,
        alpha: i32,
        qdepth: u32,
    ) -> Vec<(i32, Move)> {
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        self.generate(pos, ply, true, &mut moves);
        let mut scored = std::mem::take(&mut self.plies[ply].scored);
        scored.clear();
        for m in &moves {
            let mover = self.eval.mover_value(&self.rules, pos, m);
            // The tests below on a bound of the gain first: most captures fail them.
            let hopeless = |gain: i32| {
                // Delta pruning: even winning this for free would not reach alpha.
                gain <= 0 || stand + gain + 200 <= alpha || (qdepth > 0 && gain < mover)
            };
            let royal = self.eval.takes_last_royal(&self.rules, pos, m);
            if !m.promotes() && !royal && hopeless(self.eval.gain_bound(&self.rules, pos, m)) {
                continue;
            }
            let gain = self.eval.move_gain(&self.rules, pos, m);
            if royal || !hopeless(gain) {
                // Those that gain even if the mover is taken back first.
                let safe = if gain >= mover { 1 << 26 } else { 0 };
                scored.push((safe + movepick::capture_key(gain, mover), *m));
            }
        }
        self.plies[ply].moves = moves;
        scored
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
        self.stats.qnodes += 1;
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
        let mut scored = self.captures(pos, ply, stand, alpha, qdepth);
        for i in 0..scored.len() {
            movepick::pick(&mut scored, i);
            let m = scored[i].1;
            let gain = self.eval.move_gain(&self.rules, pos, &m);
            if i == 1 && qdepth + 1 < QUIESCENCE_DEPTH {
                // The replies' captures: what the moves above changed, generated once here.
                self.attacks
                    .prepare(&self.rules, pos, pos.to_move().opponent());
            }
            self.plies[ply].current = Some(m);
            let undo = self.attacks.make(&self.rules, pos, &m);
            let gain = gain + self.eval.effects_gain(pos, &undo);
            let s = -self.quiesce(pos, -beta, -alpha, ply + 1, -(mat + gain), qdepth + 1, stop);
            self.attacks.unmake(&self.rules, pos, undo);
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

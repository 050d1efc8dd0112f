//! Lazy SMP: the searcher, its settings and its helper threads, which search the same root
//! with their own move ordering and share the transposition table.

use crate::eval::{Eval, Weights, shared_eval};
use crate::timeman::Limits;
use crate::tt::{GENERATIONS, Table};
use crate::worker::{Info, Job, SearchResult, Shared, Tuning, Worker};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// Settings of a [`Searcher`].
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    pub threads: usize,
    /// Breaks ties between equal moves: games against the computer vary with it.
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

/// The search of one computer player: owns its tables across the moves of a game. With `threads` above 1 it searches
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
    pub fn set_weights(&mut self, weights: Weights) {
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

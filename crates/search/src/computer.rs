//! The computer: one way for a program to think about a position (as Stockfish's `Engine`).
//! It owns the search — its table, its helper threads and the threads it thinks in — and
//! callers give a position, limits, what stops it early, and callbacks for the progress and
//! the best move. [`Computer::go`] thinks in the background, [`Computer::think`] in the
//! caller's thread (a command that waits for the answer anyway); both search the same way.
//!
//! What stops a search is the caller's [`Stop`], not the computer's alone: the terminal game
//! gives each search its own (a search it dropped must not stop the next one), an ATSI session
//! one that its input reader raises when the host ends the game, even before the search
//! begins. [`Computer::stop`] raises every running search's.

use crate::eval::Weights;
use crate::threads::{SearchOptions, Searcher};
use crate::timeman::Limits;
use crate::worker::{Info, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// What stops a search early: raised (from any thread), the search plays its best move so
/// far at once. Its clones are the same switch.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Lowers it again, for the searches still to come.
    pub fn lower(&self) {
        self.0.store(false, Ordering::SeqCst);
    }

    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// A search started in the background: what stops it, and its thread.
struct Running {
    stop: Stop,
    thread: JoinHandle<()>,
}

/// The computer player of one game: its searcher (kept across the moves of the game) and the
/// searches it runs in the background. Searches take turns: one started while another runs
/// waits for it to end. Dropped, it stops its searches and waits for their threads.
pub struct Computer {
    searcher: Arc<Mutex<Searcher>>,
    running: Vec<Running>,
}

impl Computer {
    /// A computer playing by `rules` with a table of `opts.hash_mb` and `opts.threads`.
    pub fn new(rules: Arc<Rules>, opts: SearchOptions) -> Computer {
        Computer {
            searcher: Arc::new(Mutex::new(Searcher::new(rules, opts))),
            running: Vec::new(),
        }
    }

    /// Sets the weights of the evaluation's terms (after a running search).
    pub fn set_weights(&mut self, weights: Weights) {
        self.searcher().set_weights(weights);
    }

    /// Forgets what it learnt (a new game), after a running search.
    pub fn new_game(&mut self) {
        self.searcher().new_game();
    }

    /// Thinks about `pos` in a background thread, within `limits` or until `stop` is raised:
    /// `on_info` hears of every completed depth, `on_best` gets the result.
    pub fn go(
        &mut self,
        pos: Position,
        limits: Limits,
        stop: &Stop,
        mut on_info: impl FnMut(&Info) + Send + 'static,
        on_best: impl FnOnce(SearchResult) + Send + 'static,
    ) {
        let searcher = self.searcher.clone();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            // A search started while another runs waits here for the searcher.
            let mut s = searcher.lock().unwrap_or_else(|e| e.into_inner());
            on_best(s.search(&pos, &limits, &flag.0, &mut on_info));
        });
        self.running.retain(|r| !r.thread.is_finished());
        self.running.push(Running {
            stop: stop.clone(),
            thread,
        });
    }

    /// Thinks about `pos` in this thread, within `limits` or until `stop` is raised (by
    /// another thread), telling `on_info` of every completed depth; the result.
    pub fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Stop,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.searcher().search(pos, limits, &stop.0, on_info)
    }

    /// Stops every search running in the background: each gives its best move so far.
    pub fn stop(&self) {
        self.running.iter().for_each(|r| r.stop.raise());
    }

    /// Waits until the searches running in the background have ended (a panic in one goes
    /// on here).
    pub fn wait(&mut self) {
        for r in self.running.drain(..) {
            r.thread
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    }

    /// The searcher, once no background search holds it.
    fn searcher(&self) -> MutexGuard<'_, Searcher> {
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Computer {
    fn drop(&mut self) {
        self.stop();
        for r in self.running.drain(..) {
            let _ = r.thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    fn sho() -> Arc<Rules> {
        Arc::new(Rules::builtin("sho", "standard").expect("sho loads"))
    }

    fn opts() -> SearchOptions {
        SearchOptions {
            hash_mb: 4,
            ..SearchOptions::default()
        }
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// In the background or in this thread, at a fixed depth: the same move, score and nodes
    /// as the searcher's own, and every depth reported on the way.
    #[test]
    fn go_and_think_find_what_the_searcher_finds() {
        let r = sho();
        let pos = r.start_position();
        let stop = Stop::default();
        let alone = Searcher::new(r.clone(), opts()).search(
            &pos,
            &depth(4),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let mut c = Computer::new(r.clone(), opts());
        let mut depths = Vec::new();
        let thought = c.think(&pos, &depth(4), &stop, &mut |i| depths.push(i.depth));
        assert_eq!(depths, [1, 2, 3, 4]);
        let (tx, rx) = mpsc::channel();
        let (info_tx, info_rx) = mpsc::channel();
        let mut fresh = Computer::new(r, opts());
        fresh.go(
            pos,
            depth(4),
            &stop,
            move |i| info_tx.send(i.depth).expect("listening"),
            move |res| tx.send(res).expect("listening"),
        );
        let went = rx.recv().expect("a result");
        fresh.wait();
        assert_eq!(info_rx.iter().collect::<Vec<_>>(), [1, 2, 3, 4]);
        for res in [&thought, &went] {
            assert_eq!(
                (res.best, res.score, res.nodes, &res.pv),
                (alone.best, alone.score, alone.nodes, &alone.pv)
            );
        }
    }

    /// A search with no limit ends when its stop is raised, by its caller or by the computer;
    /// a later search with its own stop runs on.
    #[test]
    fn stop_ends_a_background_search_and_only_that_one() {
        let r = sho();
        let mut c = Computer::new(r.clone(), opts());
        let (tx, rx) = mpsc::channel();
        let first = Stop::default();
        let tx1 = tx.clone();
        c.go(
            r.start_position(),
            Limits::default(),
            &first,
            |_| {},
            move |res| tx1.send((1, res)).expect("listening"),
        );
        std::thread::sleep(Duration::from_millis(50));
        let stopped = Instant::now();
        c.stop();
        assert!(first.is_raised());
        let second = Stop::default();
        c.go(
            r.start_position(),
            depth(2),
            &second,
            |_| {},
            move |res| tx.send((2, res)).expect("listening"),
        );
        let (n, res) = rx.recv().expect("the first ends");
        assert_eq!(n, 1);
        assert!(res.best.is_some());
        assert!(stopped.elapsed() < Duration::from_secs(2));
        let (n, res) = rx.recv().expect("the second ends");
        assert_eq!((n, res.depth), (2, 2), "the second was not stopped");
        c.wait();
    }
}

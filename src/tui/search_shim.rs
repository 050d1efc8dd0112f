#![allow(dead_code)]
//! A stand-in for `taikyoku::search` (the search helper's module, not landed yet) with the
//! agreed interface: it plays a random legal move after a short think. Removed once the real
//! search is on main.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use taikyoku::movegen::Move;
use taikyoku::position::Position;
use taikyoku::rules::Rules;

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
}

#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    pub elapsed: Duration,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub seed: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 16,
            threads: 1,
            seed: 0,
        }
    }
}

pub struct Searcher {
    rules: Arc<Rules>,
    seed: u64,
}

impl Searcher {
    pub fn new(rules: Arc<Rules>, opts: SearchOptions) -> Searcher {
        Searcher {
            rules,
            seed: opts.seed,
        }
    }

    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let started = Instant::now();
        let moves = self.rules.legal_moves(pos);
        self.seed = self.seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let best = (!moves.is_empty()).then(|| moves[(self.seed >> 33) as usize % moves.len()]);
        let budget = limits.movetime.unwrap_or(Duration::from_millis(300));
        let mut depth = 0;
        while started.elapsed() < budget && !stop.load(Ordering::Relaxed) {
            depth += 1;
            on_info(&Info {
                depth,
                score: 0,
                nodes: depth as u64 * 1000,
                pv: best.into_iter().collect(),
                elapsed: started.elapsed(),
            });
            std::thread::sleep(Duration::from_millis(20).min(budget));
        }
        SearchResult {
            best,
            score: 0,
            depth,
            pv: best.into_iter().collect(),
            nodes: depth as u64 * 1000,
            elapsed: started.elapsed(),
        }
    }
}

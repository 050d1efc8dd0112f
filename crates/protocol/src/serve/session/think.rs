//! How the engine thinks in a session: the moves ATSA's host can judge (with
//! `atsa_host_safe`), a policy's move, or a search within the settings' limits and the
//! host's clocks.

use super::Session;
use crate::serve::settings::Policy;
use std::time::Duration;
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_search::{Clock, Computer, Limits, SearchOptions, Stop, players};

/// The time a move takes when neither a clock nor a limit is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(2);

impl Session {
    /// The move to play and, for a search, its score for the side to move.
    pub(super) fn choose(&mut self, pos: &Position) -> Option<(Move, Option<i32>)> {
        let s = &self.settings;
        let seed = s.seed;
        let safe = s
            .host_safe
            .then(|| self.host.judged_moves(&self.rules, pos));
        if safe.as_ref().is_some_and(Vec::is_empty) {
            self.log("atsa_host_safe: no move ATSA's host can judge; playing any move");
        }
        let allowed = safe.filter(|m| !m.is_empty());
        let fits = |m: &Move| allowed.as_ref().is_none_or(|a| a.contains(m));
        match self.settings.policy {
            Policy::Random => match &allowed {
                Some(a) => Some((
                    a[taikyoku_search::rng::Rng(seed ^ pos.hash()).below(a.len())],
                    None,
                )),
                None => players::random_move(&self.rules, pos, seed).map(|m| (m, None)),
            },
            Policy::Greedy => match players::greedy_move(&self.rules, pos, seed) {
                Some(m) if fits(&m) => Some((m, None)),
                Some(_) => self.search(pos, allowed, Some(1)),
                None => None,
            },
            Policy::Search => self.search(pos, allowed, None),
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        root_moves: Option<Vec<Move>>,
        depth: Option<u32>,
    ) -> Option<(Move, Option<i32>)> {
        let s = self.settings.clone();
        let clock = self.clock();
        let limits = Limits {
            depth: depth.or(s.depth),
            nodes: s.nodes,
            movetime: s.movetime.or_else(|| {
                (s.depth.is_none() && s.nodes.is_none() && clock.is_none())
                    .then_some(DEFAULT_MOVETIME)
            }),
            clock,
            root_moves,
        };
        let stop = self.interrupt.stop().clone();
        let result = self.computer().think(pos, &limits, &stop, &mut |_| {});
        self.log(&format!(
            "depth {} score {} nodes {} in {:.2} s",
            result.depth,
            result.score,
            result.nodes,
            result.elapsed.as_secs_f64()
        ));
        result.best.map(|m| (m, Some(result.score)))
    }

    /// The clock the time manager reads: ours and the opponent's as the host last said.
    fn clock(&self) -> Option<Clock> {
        let (base, increment) = self.time?;
        let (ours, theirs) = self.game.as_ref()?.clocks.unwrap_or((base, base));
        let secs = |s: f64| Duration::from_secs_f64(s.clamp(0.0, 1e7));
        Some(Clock {
            remaining: secs(ours),
            increment: secs(increment),
            opponent: Some(secs(theirs)),
        })
    }

    fn computer(&mut self) -> &mut Computer {
        let s = &self.settings;
        let opts = SearchOptions {
            hash_mb: s.hash,
            threads: s.threads,
            seed: s.seed,
        };
        let weights = s.weights;
        self.computer.get_or_insert_with(|| {
            let mut computer = Computer::new(self.rules.clone(), opts);
            computer.set_weights(weights);
            computer
        })
    }

    /// The evaluation of a position for the first player (a short search).
    pub(super) fn score(&mut self, pos: &Position) -> i32 {
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = self
            .computer()
            .think(pos, &limits, &Stop::default(), &mut |_| {});
        if pos.to_move() == Side::Black {
            r.score
        } else {
            -r.score
        }
    }
}

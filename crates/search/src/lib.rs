//! The computer player. From the bottom up: [`rng`] (seeded choices), [`values`] (every kind's
//! value derived from its movement), [`eval`] (a position's score), [`tt`] (the transposition
//! table), [`timeman`] (limits and time budgets), [`movepick`] (move ordering), [`worker`] (the
//! search proper), [`threads`] (Lazy SMP), [`players`] (the random and greedy baselines), and
//! at the top [`computer`]: the one way a program asks the search to think.

pub mod computer;
pub mod eval;
mod movepick;
pub mod players;
pub mod rng;
pub mod threads;
pub mod timeman;
mod tt;
pub mod values;
pub mod worker;

pub use computer::{Computer, Stop};
pub use threads::{SearchOptions, Searcher, default_threads};
pub use timeman::{Clock, Limits};
pub use worker::{Info, MATE, MATE_BOUND, SearchResult, Stats, Tuning, plies_to_end};

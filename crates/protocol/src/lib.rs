//! Talking to other programs. Bottom to top: [`atsi`] is the ATSI v00 protocol as a library
//! (squares, the host's commands and the engine's replies, moves matched against the legal
//! moves, what ATSA's web host can judge); [`elo`] is match statistics as cutechess-cli
//! computes them; [`host`] runs an external engine as a child process and plays it through
//! ATSI; [`matches`] plays games between two such engines, saves their records and keeps the
//! table; [`serve`] is this program as an engine (`taikyoku engine`), the search answering a
//! host's ATSI session.
//!
//! "Engine" means one thing here: a program that plays over a protocol. Ours is served by
//! [`serve`]; others are run by the [`host`]. The search is never "the engine".

pub mod atsi;
pub mod elo;
pub mod host;
pub mod matches;
pub mod serve;
mod text;

//! Talking to other programs. Bottom to top: [`atsi`] is the ATSI v00 protocol as a library
//! (squares, the host's commands and the engine's replies, moves matched against the legal
//! moves, what ATSA's web host can judge); [`elo`] is match statistics as cutechess-cli
//! computes them; [`host`] runs an external engine as a child process and plays it through
//! ATSI; [`matches`] plays games between two such engines, saves their records and keeps the
//! table.

pub mod atsi;
pub mod elo;
pub mod host;
pub mod matches;

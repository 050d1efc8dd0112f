//! Talking to other programs: [`atsi`] is the ATSI v00 protocol as a library (squares, the
//! host's commands and the engine's replies, moves matched against the legal moves);
//! [`elo`] is match statistics as cutechess-cli computes them.

pub mod atsi;
pub mod elo;

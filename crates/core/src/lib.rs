//! The rules core of taikyoku: a data-driven rules engine for Taikyoku shōgi and other large
//! shogi variants.
//!
//! It knows nothing of terminals, command lines or networks. [`game::Game`] loads a game's data
//! (catalogue, setup, rule sets); [`rules::Rules`] compiles one rule set and generates and plays
//! moves on a [`position::Position`]; [`notation`] writes and reads squares, moves and positions.

pub mod betza;
pub mod card;
pub mod catalogue;
pub mod effects;
pub mod error;
pub mod explain;
pub mod files;
pub mod game;
pub mod geometry;
pub mod makemove;
pub mod movecache;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod reach;
pub mod rules;
pub mod setup;
pub mod zobrist;

//! The rules core of taikyoku: a data-driven rules engine for Taikyoku shōgi and other large
//! shogi variants.
//!
//! It knows nothing of terminals, command lines or networks. [`game::Game`] loads a game's data
//! (catalogue, setup, rule sets); [`rules::Rules`] compiles one rule set and generates and plays
//! moves on a [`position::Position`]; [`notation`] writes and reads squares, moves and positions.

pub mod attacks;
pub mod auras;
pub mod betza;
pub mod card;
pub mod catalogue;
pub mod compile;
pub mod effects;
pub mod error;
pub mod explain;
pub mod files;
pub mod game;
pub mod geometry;
pub mod makemove;
pub mod movecache;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod params;
pub mod perft;
pub mod piece;
pub mod position;
pub mod reach;
pub mod rules;
pub mod setup;
pub mod tables;
pub mod zobrist;

//! taikyoku: a data-driven rules engine for Taikyoku shōgi and other large shogi variants.
//!
//! The library has no terminal code. [`game::Game`] loads a game's data (catalogue, setup, rule
//! sets); [`rules::Rules`] compiles one rule set and generates and plays moves on a
//! [`position::Position`]. [`history::History`] is a game as it is played (undo, redo, branches, its result);
//! [`record::Record`] is how a game is written down; [`store`] writes records
//! safely and finds autosaves.

pub mod atsi;
pub mod betza;
pub mod card;
pub mod catalogue;
pub mod effects;
pub mod elo;
pub mod error;
pub mod eval;
pub mod explain;
pub mod game;
pub mod geometry;
pub mod history;
pub mod makemove;
pub mod movecache;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod reach;
pub mod record;
pub mod rules;
pub mod search;
pub mod setup;
pub mod store;
pub mod timecontrol;
pub mod zobrist;

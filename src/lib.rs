//! The `taikyoku` program as a library: its command line ([`cli`]) and its terminal game
//! ([`tui`]), with the text helpers they share ([`text`]); `src/main.rs` only runs the command
//! line. The rules, records, search and protocol are the workspace's crates below it; nothing
//! here decides a rule.
//!
//! Bottom to top: [`text`] → [`tui`] → [`cli`].

pub mod atsi_engine;
pub mod cli;
pub mod text;
pub mod tui;

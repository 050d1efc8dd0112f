//! The `taikyoku` program as a library: its command line ([`cli`]) and its terminal game
//! ([`tui`]), with what they share: text helpers ([`text`]), what was taken and the balance
//! ([`material`]), scoring a whole game ([`review`]); `src/main.rs` only runs the command line. The rules, records, search and protocol are the workspace's crates below it; nothing
//! here decides a rule.
//!
//! Bottom to top: [`text`], [`material`], [`review`] → [`tui`] → [`cli`].

pub mod cli;
pub mod material;
pub mod review;
pub mod text;
pub mod tui;

//! The host: an external ATSI engine as a child process, played through the protocol
//! ([`crate::atsi`]) with a deadline on every wait.
//!
//! The engine is started with `sh -c COMMAND` (so a command line with arguments, pipes or
//! `cd dir && ./engine` works as typed), in a process group of its own: dropping the
//! [`EngineProcess`] sends `quit`, closes its input and, after a short grace, kills the whole
//! group, so neither the shell nor anything it started outlives the host; what it started in
//! a session or group of its own is found and killed too ([`reaper`]). A reader thread
//! passes the engine's lines through a bounded channel, so the host never blocks on an engine
//! that stops answering; its standard error goes to an [`EngineLog`], never to the terminal.
//!
//! Every move the engine sends is checked against the legal moves; tomatene's order (the
//! steps after the destination) is accepted with a line in the log, and from then on the
//! engine is sent the opponent's moves in that order too (tomatene reads `opmove` so). An
//! engine that crashes, closes its output, sends garbage or an illegal move, or does not move
//! in time loses: [`HostError`] says which, for the caller to show and record.
//!
//! Bottom to top: [`log`] and [`groups`] (the running engines' process groups, for Ctrl-C) →
//! `pipe` (reader threads, writes with a deadline) → [`error`] → `process` (the child: lines
//! in and out, its end) → [`engine`] (the ATSI conversation: handshake, games, moves).

pub mod engine;
pub mod error;
pub mod groups;
pub mod log;
mod pipe;
mod process;
mod reaper;

pub use engine::{EngineMove, EngineProcess, GameResult, HANDSHAKE_TIMEOUT};
pub use error::{Crash, Ending, Garbage, HostError};
pub use groups::{interrupt, interrupt_on_signals, interrupted, kill_group};
pub use log::EngineLog;

#[cfg(test)]
mod tests;

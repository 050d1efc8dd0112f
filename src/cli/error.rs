//! The command line's error: what is reported to the user, on standard error.

use crate::tui::error::TuiError;
use taikyoku_core::error::DataError;
use taikyoku_core::game::GameError;
use taikyoku_core::notation::NotationError;
use taikyoku_core::rules::RulesError;
use taikyoku_records::record::RecordError;
use taikyoku_records::store::StoreError;

/// A failure to report to the user: printed on standard error, exit status 1. It wraps the
/// library's errors, which already say where (file, line, column) and why.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Data(#[from] DataError),
    #[error(transparent)]
    Terminal(#[from] TuiError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Bench(#[from] super::bench::BenchError),
    /// A command line that asks for something unknown or impossible.
    #[error("{0}")]
    Usage(String),
    /// Stopped by Ctrl-C (or SIGTERM, SIGHUP): what was done and what was not. Exit status 130.
    #[error("{0}")]
    Interrupted(String),
}

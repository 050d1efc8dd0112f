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

/// `text` with every run of more than 120 non-blank characters cut to its first 60 and `…`:
/// an error quotes what it was given, and a 120 kB argument must not come back whole.
pub fn shorten_long_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        match word.char_indices().nth(120) {
            Some(_) => out.push_str(&taikyoku_core::notation::shorten(word)),
            None => out.push_str(word),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_words_are_shortened_and_the_rest_kept() {
        let long = "y".repeat(120_000);
        let text = format!("error: invalid value '{long}' for '--depth <D>'\n\n  tip: x\n");
        let short = super::shorten_long_words(&text);
        assert!(short.len() < 200, "{short}");
        assert!(short.starts_with("error: invalid value 'yyy") && short.contains("…"));
        assert!(
            short.ends_with(" for '--depth <D>'\n\n  tip: x\n"),
            "{short}"
        );
        let fine = "a b\tc  d\n";
        assert_eq!(super::shorten_long_words(fine), fine);
    }
}

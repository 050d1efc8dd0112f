//! How a transport's reader tells a thinking session that the game or the session ends: the
//! reader sees `quit`, `win`, `startgame` or the end of input before the session does, and
//! raises the search's [`Stop`] at once. A `startgame` the session handles later must not
//! lower it again over a `quit` read after it, so the lines that end a search are counted
//! on both sides: the stop stays raised while the reader has read more of them than the
//! session has handled.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use taikyoku_search::Stop;

/// Whether a line ends the game or the session (and so any search in progress).
pub fn ends_search(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    matches!(word, "quit" | "win" | "loss" | "draw" | "startgame")
}

/// The stop of a session's searches, shared with its transport's reader.
#[derive(Clone, Default)]
pub struct Interrupt {
    stop: Stop,
    /// Lines that end a search read by the reader (and the end of input).
    read: Arc<AtomicU64>,
}

impl Interrupt {
    /// The reader read a line that ends a search (or the input ended): stops it now.
    pub fn raise(&self) {
        self.read.fetch_add(1, Ordering::SeqCst);
        self.stop.raise();
    }

    /// Lowers the stop for a new game unless the reader has read more lines that end a
    /// search than the `handled` ones (lowered first, so that a line read meanwhile raises
    /// it again after).
    pub(super) fn lower_unless_pending(&self, handled: u64) {
        self.stop.lower();
        if self.read.load(Ordering::SeqCst) > handled {
            self.stop.raise();
        }
    }

    pub(super) fn stop(&self) -> &Stop {
        &self.stop
    }
}

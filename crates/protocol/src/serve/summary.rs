//! What a session did, told in one line when a WebSocket connection ends.

use crate::text::plural;
use std::time::Instant;

/// What a session did: its handshake, games, moves and errors, and how long it lasted.
#[derive(Default)]
pub(super) struct Summary {
    pub(super) started: Option<Instant>,
    pub(super) version: Option<String>,
    pub(super) games: u32,
    pub(super) moves: u32,
    /// How the last game ended (`win: royals captured`).
    pub(super) result: Option<String>,
    pub(super) errors: u32,
    pub(super) first_error: Option<String>,
}

impl Summary {
    /// "atsiinit v0, 1 game (loss: royals captured), 42 moves played, no errors, 3.2 s".
    pub(super) fn line(&self) -> String {
        let mut parts = vec![match &self.version {
            Some(v) => format!("atsiinit {v}"),
            None => "no atsiinit".into(),
        }];
        let games = plural(self.games, "game");
        parts.push(match &self.result {
            Some(r) => format!("{games} (last: {r})"),
            None => games,
        });
        parts.push(format!("{} played", plural(self.moves, "move")));
        parts.push(match &self.first_error {
            Some(e) => format!("{} (first: {e})", plural(self.errors, "error")),
            None => "no errors".into(),
        });
        if let Some(t) = self.started {
            parts.push(format!("{:.1} s", t.elapsed().as_secs_f64()));
        }
        parts.join(", ")
    }
}

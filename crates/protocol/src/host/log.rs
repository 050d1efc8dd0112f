//! The host's log of its engines: their conversation, their standard error and its notes.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Where an engine's conversation and standard error go: a file, a shared writer or nowhere.
/// Lines are tagged (`[black] > opmove …`: `>` to the engine, `<` from it, `!` its standard
/// error, `#` a note of the host).
#[derive(Clone)]
pub struct EngineLog {
    sink: Option<Arc<Mutex<Box<dyn Write + Send>>>>,
    tag: String,
}

impl EngineLog {
    /// Appends to `path` (created if missing).
    pub fn file(path: &Path) -> io::Result<EngineLog> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(EngineLog::writer(file))
    }

    pub fn writer(w: impl Write + Send + 'static) -> EngineLog {
        EngineLog {
            sink: Some(Arc::new(Mutex::new(Box::new(w)))),
            tag: String::new(),
        }
    }

    /// Keeps nothing.
    pub fn discard() -> EngineLog {
        EngineLog {
            sink: None,
            tag: String::new(),
        }
    }

    /// The same log, its lines tagged `tag` (the engine's role, such as "game 3 black").
    pub fn tagged(&self, tag: &str) -> EngineLog {
        EngineLog {
            sink: self.sink.clone(),
            tag: tag.to_string(),
        }
    }

    /// A line marked `mark` (`>`, `<`, `!` or `#`).
    pub(super) fn write(&self, mark: char, text: &str) {
        if let Some(sink) = &self.sink {
            let mut w = sink.lock().unwrap_or_else(|e| e.into_inner());
            // A log that cannot be written is no reason to stop a game.
            let _ = writeln!(w, "[{}] {mark} {text}", self.tag);
            let _ = w.flush();
        }
    }

    /// A note of the host's own (`#`).
    pub fn note(&self, text: &str) {
        self.write('#', text);
    }
}

//! The host's log of its engines: their conversation, their standard error and its notes.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The most bytes of one engine's conversation (`>` and `<` lines) a log keeps; its notes
/// are kept whatever their number (the host writes few), and its standard error has a cap of
/// its own.
pub const MAX_CONVERSATION: usize = 4 << 20;

/// Where an engine's conversation and standard error go: a file, a shared writer or nowhere.
/// Lines are tagged (`[black] > opmove …`: `>` to the engine, `<` from it, `!` its standard
/// error, `#` a note of the host).
#[derive(Clone)]
pub struct EngineLog {
    sink: Option<Arc<Mutex<Box<dyn Write + Send>>>>,
    tag: String,
    /// Bytes of conversation written so far, for [`EngineLog::limited`] ones.
    written: Option<Arc<AtomicUsize>>,
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
            written: None,
        }
    }

    /// Keeps nothing.
    pub fn discard() -> EngineLog {
        EngineLog {
            sink: None,
            tag: String::new(),
            written: None,
        }
    }

    /// The same log, its lines tagged `tag` (the engine's role, such as "game 3 black").
    pub fn tagged(&self, tag: &str) -> EngineLog {
        EngineLog {
            sink: self.sink.clone(),
            tag: tag.to_string(),
            written: self.written.clone(),
        }
    }

    /// The same log for one engine, keeping at most [`MAX_CONVERSATION`] bytes of its lines
    /// (an engine that floods its output must not fill the disk).
    pub fn limited(&self) -> EngineLog {
        EngineLog {
            written: Some(Arc::new(AtomicUsize::new(0))),
            ..self.clone()
        }
    }

    /// A line marked `mark` (`>`, `<`, `!` or `#`).
    pub(super) fn write(&self, mark: char, text: &str) {
        if let (Some(written), '<' | '>') = (&self.written, mark) {
            // As written: `[tag] < text` and the newline.
            let len = self.tag.len() + text.len() + 6;
            let before = written.fetch_add(len, Ordering::SeqCst);
            if before >= MAX_CONVERSATION {
                return;
            }
            if before + len > MAX_CONVERSATION {
                return self.note(&format!(
                    "its lines passed {} MiB: no more of its lines are logged",
                    MAX_CONVERSATION >> 20
                ));
            }
        }
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

//! The game in the terminal and where it is written: its history, its record, the save file
//! and the autosave. Every change to the game is saved at once (the autosave), before the
//! screen shows it, so that no move on screen is ever lost.

use std::path::PathBuf;
use taikyoku::geometry::Side;
use taikyoku::history::{History, Played, Undone};
use taikyoku::movegen::Move;
use taikyoku::record::{Record, Replay};
use taikyoku::store::{self, Overwrite};

/// Where the game is written.
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// The file the player saved to (or loaded from): `s` saves there without asking.
    pub save: Option<PathBuf>,
    /// The directory for autosaves (none: no autosave, as in tests).
    pub autosave_dir: Option<PathBuf>,
    /// This game's autosave file, once its first move is made.
    pub autosave: Option<PathBuf>,
}

/// What a change did, and why saving it failed if it did (the change stands: it is on screen
/// and is saved with the next one).
pub type Saved<T> = (T, Option<String>);

/// The game being played or replayed, and its files.
pub struct Session {
    /// The moves, the point on the board (the end, except while replaying or after undo) and
    /// the result.
    pub history: History,
    /// The game as it is saved (its header; its moves are the history's).
    pub record: Record,
    pub files: Files,
    /// A replay: nothing is saved until the player branches off.
    pub read_only: bool,
}

impl Session {
    pub fn new(history: History) -> Session {
        Session {
            record: Record::new(&history),
            history,
            files: Files::default(),
            read_only: false,
        }
    }

    /// A game read from a record, at its end.
    pub fn from_record(record: Record, replay: Replay, read_only: bool) -> Session {
        let save = (!record.file().is_empty()).then(|| PathBuf::from(record.file()));
        Session {
            history: replay.history,
            record,
            files: Files {
                save,
                ..Files::default()
            },
            read_only,
        }
    }

    /// Plays a legal move (an illegal one is refused, saying why) and saves the game.
    pub fn play(&mut self, m: &Move) -> Result<Saved<Played>, String> {
        let played = self.history.play(m).map_err(|e| e.to_string())?.clone();
        Ok((played, self.persist()))
    }

    /// Takes back the resignation or the last move, and saves the game.
    pub fn undo(&mut self) -> Saved<Option<Undone>> {
        let undone = self.history.undo();
        let failed = undone.as_ref().and_then(|_| self.persist());
        (undone, failed)
    }

    /// The side to move resigns (`None` once the game is over); the game is saved.
    pub fn resign(&mut self) -> Saved<Option<Side>> {
        let side = self.history.resign();
        let failed = side.and_then(|_| self.persist());
        (side, failed)
    }

    /// Writes the autosave (and nothing else); says why it failed, if it did.
    fn persist(&mut self) -> Option<String> {
        if self.read_only || self.history.played().is_empty() && self.files.autosave.is_none() {
            return None;
        }
        self.record.update(&self.history);
        let dir = self.files.autosave_dir.clone()?;
        let result = match &self.files.autosave {
            Some(path) => store::save(path, &self.record, Overwrite::Record),
            None => store::start_autosave(&dir, &self.record).map(|p| {
                self.files.autosave = Some(p);
            }),
        };
        result.err().map(|e| format!("Autosave failed: {e}"))
    }

    /// Saves to `path` (a record there is replaced; any other file is left alone) and saves
    /// there from now on.
    pub fn save_to(&mut self, path: PathBuf) -> Result<String, String> {
        self.record.update(&self.history);
        match store::save(&path, &self.record, Overwrite::Record) {
            Ok(()) => {
                let said = format!(
                    "Saved {} to {}.",
                    crate::cli::count(self.record.moves().len(), "move"),
                    path.display()
                );
                self.files.save = Some(path);
                Ok(said)
            }
            Err(e) => Err(format!("Not saved: {e}")),
        }
    }

    /// Leaves a replay: a new game from the shown position, saved as a new record. Says where
    /// it was saved, or why it was not.
    pub fn branch(&mut self) -> Result<Option<PathBuf>, String> {
        self.history = self.history.branch(self.history.point());
        self.record = self.record.branch(&self.history);
        self.read_only = false;
        self.files.save = None;
        self.files.autosave = None;
        let Some(dir) = &self.files.autosave_dir else {
            return Ok(None);
        };
        let path = store::start_autosave(dir, &self.record).map_err(|e| e.to_string())?;
        self.files.autosave = Some(path.clone());
        Ok(Some(path))
    }
}

//! The game in the terminal and where it is written: its history, its record, the save file
//! and the autosave. Every change to the game is saved at once (the autosave), before the
//! screen shows it, so that no move on screen is ever lost.

use super::text::{count, when};
use std::path::PathBuf;
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::position::EndReason;
use taikyoku_core::rules::RulesError;
use taikyoku_records::history::{History, Played, Undone};
use taikyoku_records::record::{Record, Replay};
use taikyoku_records::store::{self, Overwrite, Stamp, StoreError};

/// Why a save did not happen (said on the status line as it is written here).
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The games folder could not be made.
    #[error("Not saved: {}: {source}", dir.display())]
    GamesDir {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("Not saved: {0}")]
    Store(#[from] StoreError),
}

/// Where the game is written.
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// The file the player saved to (or loaded from): `s` saves there without asking.
    pub save: Option<PathBuf>,
    /// The directory for autosaves (none: no autosave, as in tests).
    pub autosave_dir: Option<PathBuf>,
    /// This game's autosave file, once its first move is made.
    pub autosave: Option<PathBuf>,
    /// Where a relative save name goes (none: the current directory, as in tests).
    pub games_dir: Option<PathBuf>,
    /// What this game last read from or wrote to `save` and `autosave`: a file that no longer
    /// holds it was changed by another program, and is not replaced.
    pub save_stamp: Option<Stamp>,
    pub autosave_stamp: Option<Stamp>,
    /// Why the game on screen is not all saved: the last autosave failed. Shown until a save
    /// succeeds; quitting asks first.
    pub unsaved: Option<String>,
}

/// What saving to a file the player named would do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveTarget {
    /// Nothing is there, or it is this game's own file: save without asking.
    Free,
    /// Another game's record is there (described): ask before replacing it.
    OtherGame(String),
    /// This game as it was saved there before (resumed from its autosave): save over it.
    Earlier,
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
        let save_stamp = save.as_deref().and_then(|p| store::stamp(p).ok().flatten());
        Session {
            history: replay.history,
            record,
            files: Files {
                save,
                save_stamp,
                ..Files::default()
            },
            read_only,
        }
    }

    /// A game read from an autosave goes on being autosaved there, and has no name yet: `s`
    /// asks for one (an autosave is not a place to save a game to by name). A game read from
    /// the games folder is autosaved there, under its name: one game, one file.
    pub fn adopt_autosave(&mut self) {
        let f = &mut self.files;
        if f.save.as_ref().is_some_and(|p| in_dir(p, &f.autosave_dir)) {
            f.autosave = f.save.take();
            f.autosave_stamp = f.save_stamp.take();
        } else if f.save.as_ref().is_some_and(|p| in_dir(p, &f.games_dir)) {
            f.autosave.clone_from(&f.save);
            f.autosave_stamp = f.save_stamp;
        }
    }

    /// Once saved by name in the games folder, the game is autosaved there: its autosave in
    /// the autosave folder goes (else it would be listed, and resumed, as another game).
    fn autosave_under_name(&mut self, path: &std::path::Path, stamp: Stamp) {
        let f = &mut self.files;
        if !in_dir(path, &f.games_dir) {
            return;
        }
        if let Some(old) = f.autosave.take()
            && old != path
            && in_dir(&old, &f.autosave_dir)
        {
            // Gone or not, the game is safe in `path`; a stale autosave only lists it twice.
            let _ = std::fs::remove_file(&old);
        }
        f.autosave = Some(path.to_path_buf());
        f.autosave_stamp = Some(stamp);
    }

    /// Plays a legal move (an illegal one is refused, saying why) and saves the game.
    pub fn play(&mut self, m: &Move) -> Result<Saved<Played>, RulesError> {
        let played = self.history.play(m)?.clone();
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
        self.concede(EndReason::Resignation)
    }

    /// The side to move loses by resignation or forfeit (`None` once the game is over); the
    /// game is saved.
    pub fn concede(&mut self, reason: EndReason) -> Saved<Option<Side>> {
        let side = self.history.concede(reason);
        let failed = side.and_then(|_| self.persist());
        (side, failed)
    }

    /// Writes the autosave (and nothing else); says why it failed, if it did, and keeps that
    /// in [`Files::unsaved`] until a save succeeds.
    fn persist(&mut self) -> Option<String> {
        if self.read_only || self.history.played().is_empty() && self.files.autosave.is_none() {
            return None;
        }
        self.record.update(&self.history);
        let dir = self.files.autosave_dir.clone()?;
        let result = match &self.files.autosave {
            Some(path) => save_over(path, &self.record, self.files.autosave_stamp).map(Some),
            None => store::start_autosave(&dir, &self.record).map(|p| {
                let stamp = store::stamp(&p).ok().flatten();
                self.files.autosave = Some(p);
                stamp
            }),
        };
        match result {
            Ok(stamp) => {
                if self.files.save == self.files.autosave {
                    self.files.save_stamp = stamp;
                }
                self.files.autosave_stamp = stamp;
                self.files.unsaved = None;
                None
            }
            Err(e) => {
                let why = format!("Autosave failed: {e}");
                self.files.unsaved = Some(why.clone());
                Some(why)
            }
        }
    }

    /// What is at `path`, before saving there: this game's own file, nothing, or another
    /// game's record (which the player is asked about). Anything else is refused by the save.
    pub fn save_target(&self, path: &std::path::Path) -> SaveTarget {
        if self.files.save.as_deref() == Some(path) {
            return SaveTarget::Free;
        }
        match Record::load(path) {
            Ok(r) if self.is_earlier_save(&r) => SaveTarget::Earlier,
            Ok(r) => SaveTarget::OtherGame(describe(&r)),
            Err(_) => SaveTarget::Free,
        }
    }

    /// Whether `r` is this game as saved earlier: the same game started at the same moment,
    /// its moves the first of this game's.
    fn is_earlier_save(&self, r: &Record) -> bool {
        let me = &self.record;
        let moves: Vec<&str> = self
            .history
            .played()
            .iter()
            .map(|p| p.text.as_str())
            .collect();
        !r.started.is_empty()
            && r.started == me.started
            && r.game == me.game
            && r.rules == me.rules
            && r.start == me.start
            && moves.starts_with(&r.moves().iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// Saves to `path` and saves there from now on: this game's own file again (unless another
    /// program changed it since), a new file, or — when the player said so — another game's
    /// record. A file that is not a record is never replaced.
    pub fn save_to(&mut self, path: PathBuf, replace: bool) -> Result<String, SaveError> {
        self.record.update(&self.history);
        if let Some(d) = &self.files.games_dir
            && path.parent() == Some(d.as_path())
        {
            std::fs::create_dir_all(d).map_err(|source| SaveError::GamesDir {
                dir: d.clone(),
                source,
            })?;
        }
        let result = if self.files.save.as_ref() == Some(&path) {
            save_over(&path, &self.record, self.files.save_stamp)
        } else {
            let overwrite = if replace {
                Overwrite::Record
            } else {
                Overwrite::Never
            };
            store::lock(&path).and_then(|l| l.save(&self.record, overwrite))
        };
        match result {
            Ok(stamp) => {
                let said = format!(
                    "Saved {} to {}.",
                    count(self.record.moves().len(), "move"),
                    path.display()
                );
                self.autosave_under_name(&path, stamp);
                self.files.save = Some(path);
                self.files.save_stamp = Some(stamp);
                self.files.unsaved = None;
                Ok(said)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Leaves a replay: a new game from the shown position, saved as a new record. Says where
    /// it was saved, or why it was not.
    pub fn branch(&mut self) -> Result<Option<PathBuf>, StoreError> {
        self.history = self.history.branch(self.history.point());
        self.record = self.record.branch(&self.history);
        self.read_only = false;
        self.files.save = None;
        self.files.autosave = None;
        self.files.save_stamp = None;
        self.files.autosave_stamp = None;
        let Some(dir) = &self.files.autosave_dir else {
            return Ok(None);
        };
        let path = store::start_autosave(dir, &self.record)?;
        self.files.autosave = Some(path.clone());
        Ok(Some(path))
    }
}

/// Whether `path` is a file of the folder `dir`.
fn in_dir(path: &std::path::Path, dir: &Option<PathBuf>) -> bool {
    dir.as_deref().is_some_and(|d| path.parent() == Some(d))
}

/// The unfinished game saved last in `dirs` (the autosave folder and the games folder), to
/// offer to resume it.
pub fn latest_unfinished(dirs: &[Option<PathBuf>]) -> Option<(PathBuf, Record)> {
    dirs.iter()
        .flatten()
        .flat_map(|d| store::records_in(d).unwrap_or_default())
        .filter(|(_, _, r)| r.outcome.is_none() && r.draw.is_none())
        .max_by_key(|(when, _, _)| *when)
        .map(|(_, p, r)| (p, r))
}

/// A game in the list of recent and unfinished games.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub path: PathBuf,
    /// Players, rule set, game, moves, last played, whether it is finished, the file.
    pub line: String,
    pub unfinished: bool,
}

/// The games in `dirs` (the autosave folder and the games folder), unfinished ones first,
/// then the latest played first.
pub fn recent_games(dirs: &[Option<PathBuf>]) -> Vec<Listed> {
    let mut all: Vec<_> = dirs
        .iter()
        .flatten()
        .flat_map(|d| store::records_in(d).unwrap_or_default())
        .collect();
    all.sort_by(|a, b| {
        (a.2.outcome.is_some(), std::cmp::Reverse(a.0))
            .cmp(&(b.2.outcome.is_some(), std::cmp::Reverse(b.0)))
    });
    all.into_iter()
        .map(|(_, path, r)| Listed {
            line: summary(&path, &r),
            unfinished: r.outcome.is_none(),
            path,
        })
        .collect()
}

/// One line about a record: "Alice – (none) · wikipedia · Taikyoku shogi · 37 moves · last
/// played today 16:07 · unfinished · game-….toml".
pub fn summary(path: &std::path::Path, r: &Record) -> String {
    let when = when(&r.updated, std::time::SystemTime::now());
    let state = match r.outcome {
        None => "unfinished".to_string(),
        Some(o) => format!("{} won", o.winner.name()),
    };
    let file = path
        .file_name()
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    format!(
        "{} – {} · {} · {} · {} · last played {when} · {state} · {file}",
        player(&r.black),
        player(&r.white),
        r.rules,
        r.game,
        count(r.moves().len(), "move"),
    )
}

/// Where a name typed at the save prompt goes: `~/` is the home directory; a relative name
/// goes into `games_dir` (the games folder in the user's data directory), an absolute one
/// stays; `.toml` is added when the name has no extension.
pub fn save_path(text: &str, games_dir: Option<&std::path::Path>) -> PathBuf {
    let mut path = match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(text),
    };
    if path.is_relative()
        && let Some(d) = games_dir
    {
        path = d.join(path);
    }
    if path.extension().is_none() {
        path.set_extension("toml");
    }
    path
}

/// Saves over this game's own file: only if it still holds what this game last wrote or read
/// there (else another program changed it), or, without a stamp, if it is a record.
fn save_over(
    path: &std::path::Path,
    record: &Record,
    stamp: Option<Stamp>,
) -> Result<Stamp, store::StoreError> {
    let overwrite = stamp.map_or(Overwrite::Record, Overwrite::Unchanged);
    store::lock(path)?.save(record, overwrite)
}

/// A player's name, or "(none)" where the record has none.
fn player(name: &str) -> &str {
    if name.is_empty() { "(none)" } else { name }
}

/// "Alice vs Bob, 42 moves, started 2026-11-30T16:00:05Z", for asking before replacing it.
pub fn describe(r: &Record) -> String {
    let mut s = format!(
        "{} vs {}, {}",
        player(&r.black),
        player(&r.white),
        count(r.moves().len(), "move")
    );
    if !r.started.is_empty() {
        s.push_str(&format!(", started {}", r.started));
    }
    s
}

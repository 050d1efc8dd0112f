//! Writing records so that none is ever lost: every write is atomic (a temporary file in the
//! same directory, flushed and synced, renamed over the target, then the directory synced),
//! and a file that is not a record is never replaced unless asked. Writers take an exclusive
//! lock on the record's directory from reading the record to renaming the new one over it, so
//! two programs adding moves one after the other each see the other's moves; under that lock
//! any temporary file left beside the record is a dead writer's, and is removed. A save goes
//! through a symbolic link to its target and keeps the target's permissions (and owner, where
//! allowed). Also where autosaves live and which unfinished game to offer to resume.

use crate::record::{Record, RecordError};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use taikyoku_core::error::DataError;
use taikyoku_core::files::read_file;

/// Why a record could not be saved, or a save was refused.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file could not be read, locked or written.
    #[error("{file}: {source}")]
    Io { file: String, source: io::Error },
    /// Saving would replace a file that exists (and no overwrite was asked for).
    #[error("{file}: the file already exists; not overwriting it")]
    Exists { file: String },
    /// Saving would replace changes another program made since this one read or wrote it.
    #[error(
        "{file}: the file was changed by another program since this game was loaded or saved; not overwriting it"
    )]
    Changed { file: String },
    /// Saving would replace a file that is not a record, which may be someone's data.
    #[error("{file}: the file exists and is not a game record, so it is not overwritten: {reason}")]
    NotARecord { file: String, reason: DataError },
    /// The record there could not be read.
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// What a save may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overwrite {
    /// Nothing: the file must not exist yet.
    Never,
    /// A file that loads as a record (saving a game again); never anything else, which may be
    /// someone's data or a record damaged in a way they will want to repair by hand.
    Record,
    /// Only a file that still holds exactly what this program last read or wrote there (the
    /// [`Stamp`] of those bytes), or no file: another program's changes are never replaced.
    Unchanged(Stamp),
    /// Anything (only when the user asked, as with `--force`).
    Always,
}

/// A digest of a file's bytes, to tell whether it changed since it was read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp([u8; 32]);

impl Stamp {
    pub fn of(bytes: &[u8]) -> Stamp {
        use sha2::{Digest, Sha256};
        Stamp(Sha256::digest(bytes).into())
    }
}

/// The stamp of what `path` holds now (`None` when there is no file).
pub fn stamp(path: &Path) -> io::Result<Option<Stamp>> {
    match read_file(path) {
        Ok(bytes) => Ok(Some(Stamp::of(&bytes))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// How long a writer waits for another to finish before giving up with a message.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// A record file locked for writing: its directory is locked until this is dropped.
pub struct Lock {
    /// The path as the user gave it, for messages.
    shown: String,
    /// Where the bytes go: the path with symbolic links followed.
    target: PathBuf,
    _dir: Option<File>,
}

/// Locks the record at `path` for reading and replacing it (waiting a while for another
/// writer to finish).
pub fn lock(path: &Path) -> Result<Lock, StoreError> {
    let shown = path.display().to_string();
    let io = |source| StoreError::Io {
        file: shown.clone(),
        source,
    };
    let target = resolve(path).map_err(io)?;
    let dir = lock_dir(parent(&target)).map_err(io)?;
    let lock = Lock {
        shown: shown.clone(),
        target,
        _dir: dir,
    };
    lock.remove_stale_temporaries();
    Ok(lock)
}

impl Lock {
    fn io(&self, source: io::Error) -> StoreError {
        StoreError::Io {
            file: self.shown.clone(),
            source,
        }
    }

    /// Saves a record atomically, replacing only what `overwrite` allows; returns the stamp
    /// of what was written.
    pub fn save(&self, record: &Record, overwrite: Overwrite) -> Result<Stamp, StoreError> {
        let file = self.shown.clone();
        let path = &self.target;
        match overwrite {
            Overwrite::Always => {}
            Overwrite::Never => {
                if fs::symlink_metadata(path).is_ok() {
                    return Err(StoreError::Exists { file });
                }
            }
            Overwrite::Record => match Record::load(path) {
                Ok(_) => {}
                Err(RecordError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                }
                Err(RecordError::Data(mut reason)) => {
                    reason.file = file.clone();
                    return Err(StoreError::NotARecord { file, reason });
                }
                Err(RecordError::Io { source, .. }) => return Err(self.io(source)),
                Err(e) => return Err(e.into()),
            },
            Overwrite::Unchanged(last) => {
                if stamp(path)
                    .map_err(|e| self.io(e))?
                    .is_some_and(|now| now != last)
                {
                    return Err(StoreError::Changed { file });
                }
            }
        }
        let bytes = record.to_toml();
        write_atomic(path, bytes.as_bytes()).map_err(|e| self.io(e))?;
        Ok(Stamp::of(bytes.as_bytes()))
    }

    /// Under the lock no other writer is at work, so a temporary file of this record is one
    /// that a writer killed before its rename left behind.
    fn remove_stale_temporaries(&self) {
        let Some(name) = self.target.file_name() else {
            return;
        };
        let prefix = format!(".{}.", name.to_string_lossy());
        let Ok(entries) = fs::read_dir(parent(&self.target)) else {
            return;
        };
        for entry in entries.flatten() {
            let n = entry.file_name();
            let ours = n
                .to_string_lossy()
                .strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(".tmp"))
                .and_then(|id| id.split_once('-'))
                .is_some_and(|(pid, n)| {
                    [pid, n]
                        .iter()
                        .all(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                });
            if ours {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// Saves a record atomically, replacing only what `overwrite` allows (see [`Lock::save`]).
pub fn save(path: &Path, record: &Record, overwrite: Overwrite) -> Result<(), StoreError> {
    lock(path)?.save(record, overwrite).map(|_| ())
}

/// Where a write to `path` must go: through symbolic links to their final target (a link
/// to a file not yet there is followed to where the file will be).
fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                path = parent(&path).join(link);
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The directory a file is in (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// An exclusive advisory lock on a directory, waiting up to [`LOCK_WAIT`] for it. (Only
/// where directories can be opened as files; elsewhere writes are not locked.)
fn lock_dir(dir: &Path) -> io::Result<Option<File>> {
    if !cfg!(unix) {
        return Ok(None);
    }
    let file = File::open(dir)?;
    let start = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Some(file)),
            Err(fs::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    "another program has been writing in this directory for 10 s; not saving",
                ));
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// Replaces `path`'s contents with `bytes` so that, whenever the program or the machine
/// stops, the file holds either the old contents or the new, never a mix. The new file gets
/// the old one's permissions, and its owner where allowed.
fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = parent(path);
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the path does not name a file")
    })?;
    let old = fs::metadata(path).ok();
    let (tmp, mut file) = create_temp(dir, &name.to_string_lossy())?;
    let written = (|| {
        if let Some(old) = &old {
            keep_identity(&file, old)?;
        }
        file.write_all(bytes)?;
        file.flush()?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(dir)
}

/// Gives the new file the old one's permissions and (where the user may) owner and group.
fn keep_identity(file: &File, old: &fs::Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Only root may give a file away; a group the user is in is allowed, else kept.
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()))
            .or_else(|_| std::os::unix::fs::fchown(file, None, Some(old.gid())));
    }
    file.set_permissions(old.permissions())
}

/// A new hidden file beside the target, so the rename stays on one file system.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let mut attempt = 0u32;
    loop {
        let tmp = dir.join(format!(".{name}.{}-{attempt}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Makes the rename itself durable.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// The user's data directory for taikyoku (`~/.local/share/taikyoku` on Linux), if the
/// platform has one; `TAIKYOKU_DATA_DIR` overrides it (portable installs, tests).
pub fn data_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TAIKYOKU_DATA_DIR") {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "taikyoku").map(|d| d.data_dir().to_path_buf())
}

/// Where the terminal game autosaves: `autosave/` in [`data_dir`].
pub fn autosave_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("autosave"))
}

/// Writes a new game's first autosave into `dir` (created if needed) under a new name made
/// from its start date, and returns the path to save it to from then on (with
/// [`Overwrite::Record`]).
pub fn start_autosave(dir: &Path, record: &Record) -> Result<PathBuf, StoreError> {
    fs::create_dir_all(dir).map_err(|source| StoreError::Io {
        file: dir.display().to_string(),
        source,
    })?;
    let stamp: String = record
        .started
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let stamp = if stamp.is_empty() {
        "game".into()
    } else {
        stamp
    };
    for n in 1.. {
        let name = match n {
            1 => format!("game-{stamp}.toml"),
            n => format!("game-{stamp}-{n}.toml"),
        };
        let path = dir.join(name);
        match save(&path, record, Overwrite::Never) {
            Err(StoreError::Exists { .. }) => continue,
            r => return r.map(|()| path),
        }
    }
    unreachable!("some name is free")
}

/// Where the game saves a record given a relative name: `games/` in [`data_dir`].
pub fn games_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("games"))
}

/// The game records in `dir` (`*.toml` files that load as records; others are passed over),
/// each with when it was last played (its `updated` date, else the file's time), the latest
/// first. A missing directory has none.
pub fn records_in(dir: &Path) -> io::Result<Vec<(SystemTime, PathBuf, Record)>> {
    let entries = match fs::read_dir(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        r => r?,
    };
    let mut out = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let Ok(record) = Record::load(&path) else {
            continue;
        };
        let when = humantime::parse_rfc3339_weak(&record.updated)
            .ok()
            .or_else(|| fs::metadata(&path).and_then(|m| m.modified()).ok())
            .unwrap_or(UNIX_EPOCH);
        out.push((when, path, record));
    }
    out.sort_by(|a, b| (b.0, &b.1).cmp(&(a.0, &a.1)));
    Ok(out)
}

/// The unfinished game in `dir` saved last (by its `updated` date, else the file's time), to
/// offer to resume it. Files that are not records, or whose game has ended, are passed over;
/// a missing directory has none.
pub fn latest_unfinished(dir: &Path) -> io::Result<Option<(PathBuf, Record)>> {
    Ok(records_in(dir)?
        .into_iter()
        .find(|(_, _, r)| r.outcome.is_none())
        .map(|(_, p, r)| (p, r)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::History;
    use taikyoku_core::rules::Rules;
    use taikyoku_testkit::listing;

    #[test]
    fn atomic_writes_replace_and_leave_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(listing(dir.path()), ["a.txt"]);
        // A failed write (the target is a directory) leaves nothing behind either.
        fs::create_dir(dir.path().join("d")).unwrap();
        assert!(write_atomic(&dir.path().join("d"), b"x").is_err());
        assert_eq!(listing(dir.path()), ["a.txt", "d"]);
    }

    #[test]
    fn saving_never_replaces_what_is_not_a_record() {
        let r = Rules::builtin("taikyoku", "wikipedia").unwrap();
        let start = r.start_position();
        let rec = Record::new(&History::new(r, start));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.toml");
        save(&path, &rec, Overwrite::Never).unwrap();
        assert!(matches!(
            save(&path, &rec, Overwrite::Never),
            Err(StoreError::Exists { .. })
        ));
        save(&path, &rec, Overwrite::Record).unwrap();
        fs::write(&path, "my notes").unwrap();
        let e = save(&path, &rec, Overwrite::Record).unwrap_err();
        assert!(matches!(e, StoreError::NotARecord { .. }), "{e}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "my notes");
        save(&path, &rec, Overwrite::Always).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), rec.to_toml());
    }

    #[test]
    fn the_latest_unfinished_autosave_is_offered() {
        let r = Rules::builtin("taikyoku", "wikipedia").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let auto = dir.path().join("autosave");
        assert!(latest_unfinished(&auto).unwrap().is_none());
        let start = r.start_position();
        let mut h = History::new(r, start);
        let mut old = Record::new(&h);
        old.updated = "2026-01-01T00:00:00Z".into();
        let old_path = start_autosave(&auto, &old).unwrap();
        h.play_text("19.26-19.25").unwrap();
        let new = Record::new(&h);
        let new_path = start_autosave(&auto, &new).unwrap();
        assert_ne!(old_path, new_path);
        h.goto(0);
        h.resign();
        start_autosave(&auto, &Record::new(&h)).unwrap();
        fs::write(auto.join("junk.toml"), "not = \"a record\"").unwrap();
        let (path, rec) = latest_unfinished(&auto).unwrap().unwrap();
        assert_eq!(path, new_path);
        assert_eq!(rec.moves(), new.moves());
        // Resuming and saving again keeps the same file.
        save(&path, &rec, Overwrite::Record).unwrap();
        assert_eq!(listing(&auto).len(), 4);
    }

    #[test]
    fn autosaves_live_in_the_data_directory() {
        if let (Some(data), Some(auto)) = (data_dir(), autosave_dir()) {
            assert!(data.ends_with("taikyoku"), "{}", data.display());
            assert_eq!(auto, data.join("autosave"));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_the_autosave_directory_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("game-x.toml");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        // Reading it would block for ever; it is refused instead.
        assert!(latest_unfinished(dir.path()).unwrap().is_none());
        let e = read_file(&fifo).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

    #[test]
    fn a_save_never_replaces_another_program_s_changes() {
        let r = Rules::builtin("taikyoku", "wikipedia").unwrap();
        let pos = r.start_position();
        let mut h = History::new(r, pos);
        let rec = Record::new(&h);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.toml");
        let first = lock(&path).unwrap().save(&rec, Overwrite::Never).unwrap();
        assert_eq!(stamp(&path).unwrap(), Some(first));
        // Another program adds a move.
        let mut other = rec.clone();
        h.play_text("19.26-19.25").unwrap();
        other.update(&h);
        save(&path, &other, Overwrite::Record).unwrap();
        // This one, still at the start, may not replace it...
        let e = lock(&path)
            .unwrap()
            .save(&rec, Overwrite::Unchanged(first))
            .unwrap_err();
        assert!(matches!(e, StoreError::Changed { .. }), "{e}");
        assert_eq!(Record::load(&path).unwrap().moves(), other.moves());
        // ...but may save again what it wrote itself, or where nothing is.
        let now = stamp(&path).unwrap().unwrap();
        lock(&path)
            .unwrap()
            .save(&rec, Overwrite::Unchanged(now))
            .unwrap();
        let fresh = dir.path().join("h.toml");
        save(&fresh, &rec, Overwrite::Unchanged(now)).unwrap();
    }
}

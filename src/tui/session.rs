//! The game in the terminal and where it is written: its history, its record, the save file
//! and the autosave. Every change to the game is saved at once (the autosave), before the
//! screen shows it, so that no move on screen is ever lost.

use std::path::PathBuf;
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::position::EndReason;
use taikyoku_records::history::{History, Played, Undone};
use taikyoku_records::record::{Record, Replay};
use taikyoku_records::store::{self, Overwrite, Stamp};

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
    /// asks for one (an autosave is not a place to save a game to by name).
    pub fn adopt_autosave(&mut self) {
        let f = &mut self.files;
        let in_autosaves = |p: &PathBuf| {
            f.autosave_dir
                .as_ref()
                .is_some_and(|d| p.parent() == Some(d))
        };
        if f.save.as_ref().is_some_and(in_autosaves) {
            f.autosave = f.save.take();
            f.autosave_stamp = f.save_stamp.take();
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
            Ok(r) => SaveTarget::OtherGame(describe(&r)),
            Err(_) => SaveTarget::Free,
        }
    }

    /// Saves to `path` and saves there from now on: this game's own file again (unless another
    /// program changed it since), a new file, or — when the player said so — another game's
    /// record. A file that is not a record is never replaced.
    pub fn save_to(&mut self, path: PathBuf, replace: bool) -> Result<String, String> {
        self.record.update(&self.history);
        if let Some(d) = &self.files.games_dir
            && path.parent() == Some(d.as_path())
        {
            std::fs::create_dir_all(d).map_err(|e| format!("Not saved: {}: {e}", d.display()))?;
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
                    crate::text::count(self.record.moves().len(), "move"),
                    path.display()
                );
                self.files.save = Some(path);
                self.files.save_stamp = Some(stamp);
                self.files.unsaved = None;
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
        self.files.save_stamp = None;
        self.files.autosave_stamp = None;
        let Some(dir) = &self.files.autosave_dir else {
            return Ok(None);
        };
        let path = store::start_autosave(dir, &self.record).map_err(|e| e.to_string())?;
        self.files.autosave = Some(path.clone());
        Ok(Some(path))
    }
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
        crate::text::count(r.moves().len(), "move"),
    )
}

/// A record's date (RFC 3339, UTC) as people read it, in local time, seen from `now`: "today
/// 21:14", "yesterday 09:02", "3 Nov 18:40", "3 Nov 2025 18:40"; a date that cannot be read
/// as it is written.
pub fn when(date: &str, now: std::time::SystemTime) -> String {
    let (Ok(then), Some(today)) = (humantime::parse_rfc3339_weak(date), local(now)) else {
        return date.to_string();
    };
    let Some(t) = local(then) else {
        return date.to_string();
    };
    let yesterday = now
        .checked_sub(std::time::Duration::from_secs(24 * 3600))
        .and_then(local);
    let day = |d: &Local| (d.year, d.month, d.day);
    let time = format!("{:02}:{:02}", t.hour, t.minute);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS[t.month.clamp(1, 12) as usize - 1];
    if day(&t) == day(&today) {
        format!("today {time}")
    } else if yesterday.is_some_and(|y| day(&y) == day(&t)) {
        format!("yesterday {time}")
    } else if t.year == today.year {
        format!("{} {month} {time}", t.day)
    } else {
        format!("{} {month} {} {time}", t.day, t.year)
    }
}

/// A moment in the local time zone.
struct Local {
    year: i32,
    month: i32,
    day: i32,
    hour: i32,
    minute: i32,
}

/// `t` in the local time zone (UTC where the system does not say).
fn local(t: std::time::SystemTime) -> Option<Local> {
    let secs = t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    #[cfg(unix)]
    {
        let secs = libc::time_t::try_from(secs).ok()?;
        // SAFETY: an all-zero `tm` is a valid value of the plain C struct; localtime_r reads
        // `secs` and writes only into `tm` (a null return, a failure, is checked).
        let (tm, ok) = unsafe {
            let mut tm: libc::tm = std::mem::zeroed();
            let ok = !libc::localtime_r(&secs, &mut tm).is_null();
            (tm, ok)
        };
        ok.then_some(Local {
            year: tm.tm_year + 1900,
            month: tm.tm_mon + 1,
            day: tm.tm_mday,
            hour: tm.tm_hour,
            minute: tm.tm_min,
        })
    }
    #[cfg(not(unix))]
    {
        let text = humantime::format_rfc3339_seconds(t).to_string();
        let num = |r: std::ops::Range<usize>| text.get(r)?.parse().ok();
        Some(Local {
            year: num(0..4)?,
            month: num(5..7)?,
            day: num(8..10)?,
            hour: num(11..13)?,
            minute: num(14..16)?,
        })
    }
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
        crate::text::count(r.moves().len(), "move")
    );
    if !r.started.is_empty() {
        s.push_str(&format!(", started {}", r.started));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::when;
    use std::time::{Duration, SystemTime};

    #[test]
    fn dates_read_as_people_say_them() {
        let now = humantime::parse_rfc3339("2026-12-01T12:00:00Z").unwrap();
        let at = |t: SystemTime| humantime::format_rfc3339_seconds(t).to_string();
        assert!(when(&at(now), now).starts_with("today "));
        let day = Duration::from_secs(24 * 3600);
        assert!(when(&at(now - day), now).starts_with("yesterday "));
        let june = when("2026-06-15T12:00:00Z", now);
        assert!(june.contains(" Jun ") && !june.contains("2026"), "{june}");
        let old = when("2020-03-05T12:00:00Z", now);
        assert!(old.contains(" Mar 2020 "), "{old}");
        let hm = old.rsplit(' ').next().unwrap();
        assert!(hm.len() == 5 && hm.as_bytes()[2] == b':', "{old}");
        assert_eq!(when("soon", now), "soon");
        assert_eq!(when("", now), "");
    }
}

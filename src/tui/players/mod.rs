//! Who plays each side — a person at the keyboard, the computer (this program's search) or an
//! external ATSI engine ([`external`]) — and the thinking behind the game. The computer thinks
//! in its own background thread ([`Computer::go`]) and an engine's move is awaited in one;
//! both post what they find to the game's one channel, so the screen never freezes. Each job
//! has an id and a [`Stop`] that makes the computer move at once: what a stopped or stale job
//! posts is ignored.

pub mod external;

use super::msg::Msg;
use super::text::{capital, clock_text, eval_text};
use external::{Engine, EnginePlayer, MARGIN};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::position::EndReason;
use taikyoku_records::history::History;
use taikyoku_records::timecontrol::{Clocks, Flag};
use taikyoku_search::{Clock, Computer, Info, Limits, SearchOptions, SearchResult, Stop};

/// A strength of the computer: its time per move (and, for the weakest, a depth cap).
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// `easy`, `medium`, `hard`, or the time as given (`300ms`).
    pub name: String,
    pub movetime: Duration,
    pub depth: Option<u32>,
}

/// The named levels: name, time per move, depth cap.
pub const LEVELS: [(&str, Duration, Option<u32>); 3] = [
    ("easy", Duration::from_millis(500), Some(2)),
    ("medium", Duration::from_secs(2), None),
    ("hard", Duration::from_secs(10), None),
];

/// The level `computer` alone plays at.
const DEFAULT_LEVEL: usize = 1;

impl Level {
    /// A named level, or a time per move such as `300ms`, `1.5s` or `2` (seconds), up to an hour.
    pub fn parse(s: &str) -> Result<Level, PlayerError> {
        if let Some(&(name, movetime, depth)) = LEVELS.iter().find(|l| l.0 == s) {
            return Ok(Level {
                name: name.into(),
                movetime,
                depth,
            });
        }
        let secs = match s.strip_suffix("ms") {
            Some(ms) => ms.parse::<f64>().map(|v| v / 1000.0),
            None => s.strip_suffix('s').unwrap_or(s).parse::<f64>(),
        };
        match secs {
            Ok(t) if t.is_finite() && (0.001..=3600.0).contains(&t) => Ok(Level {
                name: s.into(),
                movetime: Duration::from_secs_f64(t),
                depth: None,
            }),
            _ => Err(PlayerError::UnknownLevel(s.into())),
        }
    }

    /// "easy (0.5 s a move), medium (2 s), hard (10 s)".
    pub fn named() -> String {
        LEVELS
            .iter()
            .enumerate()
            .map(|(i, (n, t, _))| {
                let a = if i == 0 { " a move" } else { "" };
                format!("{n} ({} s{a})", t.as_secs_f64())
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The search's limits: the level's time per move (and depth), and with `clock` the time
    /// manager's share of what is left, whichever is shorter.
    fn limits(&self, clock: Option<Clock>) -> Limits {
        Limits {
            depth: self.depth,
            movetime: Some(self.movetime),
            clock,
            ..Limits::default()
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::parse(LEVELS[DEFAULT_LEVEL].0).expect("a named level")
    }
}

/// Why a player or a level was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    #[error(
        "unknown level {0:?}: expected {levels}, or a time per move such as 300ms or 1.5s",
        levels = Level::named()
    )]
    UnknownLevel(String),
    #[error("no player: expected human, computer[:LEVEL] or an ATSI engine's command")]
    NoPlayer,
}

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Player {
    /// A person at the keyboard.
    #[default]
    Human,
    /// This program's search, in the game's process.
    Computer(Level),
    /// An external ATSI engine, started with `sh -c COMMAND`.
    Engine(String),
}

impl Player {
    /// `human`, `computer`, `computer:LEVEL` (in any case), or any other text: an engine's
    /// command.
    pub fn parse(s: &str) -> Result<Player, PlayerError> {
        let s = s.trim();
        let lower = s.to_ascii_lowercase();
        match lower.split_once(':') {
            _ if lower == "human" => Ok(Player::Human),
            _ if lower == "computer" => Ok(Player::Computer(Level::default())),
            Some(("computer", level)) => Level::parse(level).map(Player::Computer),
            _ if s.is_empty() => Err(PlayerError::NoPlayer),
            _ => Ok(Player::Engine(s.into())),
        }
    }

    /// How a record says who played (`black_player`): empty for a person.
    pub fn to_record(&self) -> String {
        match self {
            Player::Human => String::new(),
            Player::Computer(l) => format!("computer:{}", l.name),
            Player::Engine(cmd) => format!("engine:{cmd}"),
        }
    }

    /// Who played, from a record. An engine is not started again from a record (a record is
    /// data, not a command to run): that side is played at the keyboard unless `--black` or
    /// `--white` names the engine again; the second value says so.
    pub fn from_record(s: &str) -> (Player, Option<String>) {
        match s.strip_prefix("engine:") {
            Some(cmd) => (Player::Human, Some(cmd.to_string())),
            None if s.is_empty() => (Player::Human, None),
            None => match Player::parse(s) {
                Ok(p @ Player::Computer(_)) => (p, None),
                _ => (Player::Human, None),
            },
        }
    }

    /// The name a record gives this player (a person's stays as it was).
    pub fn default_name(&self) -> Option<String> {
        match self {
            Player::Human => None,
            Player::Computer(l) => Some(format!("computer ({})", l.name)),
            Player::Engine(cmd) => Some(cmd.clone()),
        }
    }

    pub fn is_human(&self) -> bool {
        *self == Player::Human
    }
}

/// Why a side is thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Its move, to be played.
    Move,
    /// A suggestion for the player to move, shown but not played.
    Hint,
}

/// How far a search has got, as posted by its thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub depth: u32,
    /// Centipawns, for the side to move.
    pub score: Option<i32>,
    pub best: Option<Move>,
    pub nodes: u64,
}

/// A finished search: its move, or why it has none (an engine's forfeit).
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    pub mv: Move,
    pub progress: Progress,
    /// How long it took, by an engine's clock (the computer plays by its level's time).
    pub elapsed: Option<Duration>,
}

/// Why a side produced no move: it resigned, or it loses by forfeit (an engine's illegal
/// move, crash or silence) or on time.
#[derive(Clone, Debug, PartialEq)]
pub struct Failed {
    pub reason: EndReason,
    pub why: String,
}

impl Failed {
    fn forfeit(why: impl Into<String>) -> Failed {
        Failed {
            reason: EndReason::Forfeit,
            why: why.into(),
        }
    }
}

/// What the screen shows of the running search.
#[derive(Clone, Debug)]
pub struct Thinking {
    pub side: Side,
    pub purpose: Purpose,
    pub started: Instant,
    pub progress: Option<Progress>,
    /// The best move so far in notation.
    pub best_text: Option<String>,
}

/// A running search.
struct Job {
    id: u64,
    /// The point and position hash it thinks about: a job for another one is stale.
    key: (usize, u64),
    stop: Stop,
    shown: Thinking,
}

impl Job {
    /// A new job thinking about `h`'s position for `purpose`.
    fn new(h: &History, purpose: Purpose) -> Job {
        Job {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            key: key(h),
            stop: Stop::default(),
            shown: Thinking {
                side: h.position().to_move(),
                purpose,
                started: Instant::now(),
                progress: None,
                best_text: None,
            },
        }
    }
}

/// The players of the game and the search running for one of them, if any.
pub struct Players {
    pub sides: [Player; 2],
    /// A computer per computer side, made when first needed; the hint's is a computer
    /// side's, else its own.
    computers: [Option<Computer>; 2],
    hint_computer: Option<Computer>,
    /// The external engines, by side.
    engines: [Option<EnginePlayer>; 2],
    /// The clocks of a timed game (a side may play without one).
    pub clocks: Option<Clocks>,
    /// When the side to move's clock started running (its turn began, or the game went on
    /// after an undo, a redo or a resume).
    turn: Instant,
    job: Option<Job>,
    /// The threads awaiting the engines' moves, joined when the game ends (a computer joins
    /// its own).
    threads: Vec<JoinHandle<()>>,
}

/// Job ids, unique across games: what a search of a game left behind posts is never taken
/// for the next game's.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// How long a hint thinks when no computer plays (whose time it would take).
const HINT_TIME: Duration = Duration::from_secs(1);

impl Players {
    pub fn new(sides: [Player; 2]) -> Players {
        Players {
            sides,
            computers: [None, None],
            hint_computer: None,
            engines: [None, None],
            clocks: None,
            turn: Instant::now(),
            job: None,
            threads: Vec::new(),
        }
    }

    pub fn of(&self, side: Side) -> &Player {
        &self.sides[side.index()]
    }

    /// Whether a person plays the side to move (or the game is over: then nobody thinks).
    pub fn human_to_move(&self, h: &History) -> bool {
        self.of(h.position().to_move()).is_human()
    }

    /// Whether anybody but a person plays.
    pub fn any_computer(&self) -> bool {
        self.sides.iter().any(|p| !p.is_human())
    }

    /// "Computer (White)", "tomatene (Black)", "White".
    pub fn label(&self, side: Side) -> String {
        let s = capital(side.name());
        match self.of(side) {
            Player::Human => s,
            Player::Computer(_) => format!("Computer ({s})"),
            Player::Engine(cmd) => match &self.engines[side.index()] {
                Some(e) => format!("{} ({s})", e.name()),
                None => format!("{cmd} ({s})"),
            },
        }
    }

    /// `engine` plays its side, by its clock (see [`Players::clocks`]).
    pub fn add_engine(&mut self, engine: Engine) {
        let side = engine.side();
        self.engines[side.index()] = Some(EnginePlayer::new(engine));
    }

    /// The name the engine playing `side` gave, if one does.
    pub fn engine_name(&self, side: Side) -> Option<String> {
        self.engines[side.index()]
            .as_ref()
            .map(|e| e.name().to_string())
    }

    /// Whether an external engine plays `side`.
    pub fn is_engine(&self, side: Side) -> bool {
        self.engines[side.index()].is_some()
    }

    /// Latency forgiven on `side`'s clock: an engine's and the computer's answer crosses a
    /// pipe or a thread; a person's flag falls at 0:00, as the clock on screen shows.
    fn margin(&self, side: Side) -> Duration {
        match self.of(side) {
            Player::Human => Duration::ZERO,
            _ => MARGIN,
        }
    }

    /// Charges `side`, whose move was just made, for the time it took (`elapsed`: as an
    /// engine's host measured it; else since its turn began), and starts the other side's
    /// clock; false when its flag fell.
    pub fn charge(&mut self, side: Side, elapsed: Option<Duration>) -> bool {
        let used = elapsed.unwrap_or_else(|| self.turn.elapsed());
        let margin = self.margin(side);
        self.turn = Instant::now();
        match &mut self.clocks {
            Some(c) => c.charge(side, used, margin) == Flag::InTime,
            None => true,
        }
    }

    /// A move of `side` was taken back: so is the increment it got for it.
    pub fn take_back_increment(&mut self, side: Side) {
        if let Some(c) = &mut self.clocks {
            c.take_back_increment(side);
        }
    }

    /// The side to move's clock starts afresh from now (after an undo, a redo, a resume):
    /// the time in between is nobody's.
    pub fn restart_clock(&mut self) {
        self.turn = Instant::now();
    }

    /// The time `side` has left, running down on its turn; none when it plays without a
    /// clock.
    pub fn time_left(&self, side: Side, h: &History) -> Option<Duration> {
        let c = self.clocks.as_ref().filter(|c| c.is_timed(side))?;
        let running = h.outcome().is_none() && h.position().to_move() == side;
        let used = if running {
            self.turn.elapsed()
        } else {
            Duration::ZERO
        };
        Some(c.remaining(side).saturating_sub(used))
    }

    /// Whether the side to move has used all its time (and its margin): its flag falls.
    pub fn flag_fallen(&self, h: &History) -> bool {
        let side = h.position().to_move();
        let timed = self.clocks.is_some_and(|c| c.is_timed(side));
        let left = self.clocks.map_or(Duration::ZERO, |c| c.remaining(side));
        timed && h.outcome().is_none() && self.turn.elapsed() > left + self.margin(side)
    }

    /// "clock 1:58" for a timed side (running down on its turn).
    pub fn clock(&self, side: Side, h: &History) -> Option<String> {
        let left = self.time_left(side, h)?;
        Some(format!("clock {}", clock_text(left)))
    }

    /// The side to move's clock as the search's time manager reads it.
    fn search_clock(&self, h: &History) -> Option<Clock> {
        let side = h.position().to_move();
        let c = self.clocks.filter(|c| c.is_timed(side))?;
        Some(Clock {
            remaining: self.time_left(side, h)?,
            increment: c.control.increment,
            opponent: self.time_left(side.opponent(), h),
        })
    }

    /// The running search, for the screen.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.job.as_ref().map(|j| &j.shown)
    }

    /// Stops a job thinking about anything but `h`'s position; says whether a hint went.
    pub fn drop_stale(&mut self, h: &History) {
        if self.job.as_ref().is_some_and(|j| j.key != key(h)) {
            self.stop();
        }
    }

    /// Stops the running search (its result will be ignored). An engine cannot be told to
    /// stop: it is killed, and started again for its next move (see [`external`]).
    pub fn stop(&mut self) {
        if let Some(j) = self.job.take() {
            j.stop.raise();
            if let Some(engine) = &self.engines[j.shown.side.index()]
                && j.shown.purpose == Purpose::Move
            {
                engine.kill();
            }
        }
    }

    /// Tells the running search to move now (it posts its best move at once).
    pub fn move_now(&mut self) -> bool {
        match &self.job {
            Some(j) => {
                j.stop.raise();
                true
            }
            None => false,
        }
    }

    /// Starts the side to move's computer or engine thinking about its move (`tx`: where it
    /// posts), if one plays it and is not thinking already.
    pub fn start_move(&mut self, h: &History, tx: &Sender<Msg>) {
        let side = h.position().to_move();
        if self.job.is_some() || h.outcome().is_some() {
            return;
        }
        let job = Job::new(h, Purpose::Move);
        match (self.of(side), self.clocks) {
            (Player::Computer(level), _) => {
                let limits = level.limits(self.search_clock(h));
                let computer = self.computers[side.index()].get_or_insert_with(|| new_computer(h));
                go(computer, h, limits, &job, tx);
            }
            (Player::Engine(_), Some(clocks)) => {
                // An engine named by a record is not started again (see [`Player::from_record`]).
                let Some(engine) = &self.engines[side.index()] else {
                    return;
                };
                let (tx, id) = (tx.clone(), job.id);
                let thread = engine.go(h.clone(), clocks, move |thought| {
                    let _ = tx.send(Msg::Thought(id, thought));
                });
                self.threads.retain(|t| !t.is_finished());
                self.threads.push(thread);
            }
            _ => return,
        }
        self.job = Some(job);
    }

    /// Starts a search for a hint for the side to move; false if one is running already.
    pub fn start_hint(&mut self, h: &History, tx: &Sender<Msg>) -> bool {
        if self.job.is_some() {
            return false;
        }
        // A hint takes the time of the side to move: within its clock.
        let clock = self.search_clock(h);
        let computer = Side::BOTH.into_iter().find_map(|s| match self.of(s) {
            Player::Computer(l) => Some((s, l.limits(clock))),
            _ => None,
        });
        let (computer, limits) = match computer {
            Some((s, limits)) => (
                self.computers[s.index()].get_or_insert_with(|| new_computer(h)),
                limits,
            ),
            None => (
                self.hint_computer.get_or_insert_with(|| new_computer(h)),
                Limits {
                    movetime: Some(HINT_TIME),
                    clock,
                    ..Limits::default()
                },
            ),
        };
        let job = Job::new(h, Purpose::Hint);
        go(computer, h, limits, &job, tx);
        self.job = Some(job);
        true
    }

    /// Takes a progress report of job `id` (ignored if it is not the running one).
    pub fn progress(&mut self, id: u64, p: Progress, h: &History) {
        if let Some(j) = self.job.as_mut().filter(|j| j.id == id) {
            j.shown.best_text = p
                .best
                .map(|m| notation::move_string(h.rules(), h.position(), &m));
            j.shown.progress = Some(p);
        }
    }

    /// Takes the end of job `id`: what it was for, if it is the running one.
    pub fn finished(&mut self, id: u64) -> Option<(Side, Purpose)> {
        let j = self.job.take_if(|j| j.id == id)?;
        Some((j.shown.side, j.shown.purpose))
    }
}

impl Drop for Players {
    /// Stops the search and waits for the engines' threads (the computers then stop and wait
    /// for theirs; a stopped search ends within moments).
    fn drop(&mut self) {
        // An engine waits for its move with no way to be stopped: its process group is
        // killed, which ends the wait at once.
        self.stop();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn key(h: &History) -> (usize, u64) {
    (h.point(), h.position().hash())
}

fn new_computer(h: &History) -> Computer {
    // Games vary: the seed breaks ties between equal moves.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let opts = SearchOptions {
        seed,
        threads: taikyoku_search::default_threads(),
        ..SearchOptions::default()
    };
    Computer::new(h.shared_rules(), opts)
}

/// Starts `computer` thinking about `h`'s position for `job`: its progress and its thought are
/// posted to `tx` under the job's id.
fn go(computer: &mut Computer, h: &History, limits: Limits, job: &Job, tx: &Sender<Msg>) {
    let (id, progress_tx, tx) = (job.id, tx.clone(), tx.clone());
    let on_info = move |i: &Info| {
        let p = Progress {
            depth: i.depth,
            score: Some(i.score),
            best: i.pv.first().copied(),
            nodes: i.nodes,
        };
        let _ = progress_tx.send(Msg::Progress(id, p));
    };
    let on_best = move |r: SearchResult| {
        let _ = tx.send(Msg::Thought(id, thought(r)));
    };
    computer.go(h.position().clone(), limits, &job.stop, on_info, on_best);
}

/// A search's result as the game takes it: its move, or a forfeit without one.
fn thought(r: SearchResult) -> Result<Thought, Failed> {
    let progress = Progress {
        depth: r.depth,
        score: Some(r.score),
        best: r.best,
        nodes: r.nodes,
    };
    match r.best {
        Some(mv) => Ok(Thought {
            mv,
            progress,
            elapsed: None,
        }),
        None => Err(Failed::forfeit("it found no move")),
    }
}

/// "depth 5 · best P19.26-19.25 · +0.35 · 1.2 s" for the screen.
pub fn describe(t: &Thinking) -> String {
    let mut parts = vec![format!("{:.1} s", t.started.elapsed().as_secs_f64())];
    if let Some(p) = &t.progress {
        parts.push(format!("depth {}", p.depth));
        if let Some(b) = &t.best_text {
            parts.push(format!("best {b}"));
        }
        if let Some(s) = p.score {
            parts.push(eval_text(s));
        }
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse_with_clear_errors() {
        assert_eq!(Player::parse("human"), Ok(Player::Human));
        assert_eq!(
            Player::parse("computer"),
            Ok(Player::Computer(Level::default()))
        );
        let Ok(Player::Computer(l)) = Player::parse("computer:hard") else {
            panic!("a level")
        };
        assert_eq!((l.movetime, l.depth), (Duration::from_secs(10), None));
        let Ok(Player::Computer(l)) = Player::parse("computer:300ms") else {
            panic!("a time")
        };
        assert_eq!(l.movetime, Duration::from_millis(300));
        let Ok(Player::Computer(l)) = Player::parse("computer:1.5s") else {
            panic!("a time")
        };
        assert_eq!(l.movetime, Duration::from_millis(1500));
        let e = Player::parse("computer:grandmaster")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("easy (0.5 s a move), medium (2 s), hard (10 s)"),
            "{e}"
        );
        assert!(Player::parse("computer:0s").is_err());
        assert_eq!(Player::parse("Human"), Ok(Player::Human));
        assert_eq!(
            Player::parse("COMPUTER:Easy"),
            Player::parse("computer:easy")
        );
        assert!(Player::parse("computer:-1").is_err());
        assert!(
            Player::parse("  ")
                .unwrap_err()
                .to_string()
                .contains("expected human")
        );
        assert_eq!(
            Player::parse("./tomatene --quiet"),
            Ok(Player::Engine("./tomatene --quiet".into()))
        );
    }

    #[test]
    fn a_record_names_its_players_but_never_runs_an_engine() {
        for p in [
            Player::Human,
            Player::Computer(Level::parse("easy").unwrap()),
            Player::Computer(Level::parse("250ms").unwrap()),
        ] {
            assert_eq!(Player::from_record(&p.to_record()), (p, None));
        }
        let e = Player::Engine("rm -rf ~".into());
        assert_eq!(
            Player::from_record(&e.to_record()),
            (Player::Human, Some("rm -rf ~".into()))
        );
        assert_eq!(Player::from_record("martian"), (Player::Human, None));
    }
}

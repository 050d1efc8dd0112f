//! The analysis board: a standing analysis line (`A`: the best line, its score and depth for
//! the side to move, deepening in the background until the position changes), the opponent's
//! best threat (`T`: what it would play if it were its move, shown on the board), and in a
//! replay the score of every position of the game, for the score graph. All of it thinks
//! through the search's [`Computer`], each in its own (so that a standing analysis never
//! waits behind another search), and posts what it finds to the game's channel: the screen
//! never waits. The line pauses while the computer player thinks about its move.

use super::msg::Msg;
use crate::review::{self, Scored};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_records::history::History;
use taikyoku_search::{Computer, Info, Limits, SearchOptions, SearchResult, Stop};

/// The table of each of the analysis board's computers (the player's has its own).
const HASH_MB: usize = 16;
/// How long the threat is looked for, at most.
const THREAT_TIME: Duration = Duration::from_secs(1);
/// How long each position of a replayed game is scored for the graph, at most, and how deep.
const GRAPH_TIME: Duration = Duration::from_millis(150);
const GRAPH_DEPTH: u32 = 6;

/// The best line found so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub depth: u32,
    /// For the side to move.
    pub score: i32,
    pub side: Side,
    /// The line in notation.
    pub moves: Vec<String>,
    pub nodes: u64,
    /// The search has ended (it went as deep as it goes).
    pub done: bool,
}

/// The opponent's best move if it were its turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Threat {
    pub side: Side,
    pub mv: Move,
    /// "BG32.3x9.26 (takes the Pawn on 9.26)".
    pub text: String,
    /// For the threatening side.
    pub score: i32,
    /// It takes something.
    pub takes: bool,
    /// The point and position it is a threat in.
    key: (usize, u64),
}

/// What a search of the analysis board posts.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    Line(Line),
    Threat(Option<Threat>),
    /// The position after this many moves of the replayed line, scored for Black.
    Scored(usize, i32),
}

/// A running search: what it is for, and what stops it.
struct Job {
    id: u64,
    key: (usize, u64),
    stop: Stop,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.stop.raise();
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

fn key(h: &History) -> (usize, u64) {
    (h.point(), h.position().hash())
}

fn computer(rules: Arc<Rules>) -> Computer {
    let opts = SearchOptions {
        hash_mb: HASH_MB,
        ..SearchOptions::default()
    };
    Computer::new(rules, opts)
}

/// The analysis board's state.
#[derive(Default)]
pub struct Analysis {
    /// The standing analysis line is asked for.
    pub on: bool,
    /// It waits while the computer player thinks.
    pub paused: bool,
    pub line: Option<Line>,
    job: Option<Job>,
    computer: Option<Computer>,
    pub threat: Option<Threat>,
    threat_job: Option<Job>,
    threat_computer: Option<Computer>,
    /// The replayed game's scores.
    pub game: GameScores,
}

impl Analysis {
    /// `A`: the line on or off; what to say.
    pub fn toggle(&mut self) -> Msg {
        self.on = !self.on;
        if !self.on {
            self.job = None;
            self.line = None;
            return Msg::say("Analysis off.");
        }
        Msg::say("Analysis on: the best line for the side to move, in the side panel.")
    }

    /// After every message: the line follows the position (a new search for a new one),
    /// waits while the computer player thinks (`busy`), and a threat of another position goes.
    pub fn sync(&mut self, h: &History, tx: Option<&Sender<Msg>>, busy: bool) {
        if self.threat.as_ref().is_some_and(|t| t.key != key(h)) {
            self.threat = None;
        }
        self.paused = self.on && busy;
        if !self.on || busy || h.outcome().is_some() {
            self.job = None;
            if h.outcome().is_some() {
                self.line = None;
            }
            return;
        }
        if self.job.as_ref().is_some_and(|j| j.key == key(h)) {
            return;
        }
        self.job = None;
        self.line = None;
        if let Some(tx) = tx {
            self.start_line(h, tx.clone());
        }
    }

    /// Thinks about the position with no limit until it changes, posting every depth.
    fn start_line(&mut self, h: &History, tx: Sender<Msg>) {
        let rules = h.shared_rules();
        let pos = h.position().clone();
        let job = Job {
            id: next_id(),
            key: key(h),
            stop: Stop::default(),
        };
        let id = job.id;
        let c = self.computer.get_or_insert_with(|| computer(rules.clone()));
        let (r, p, tx1) = (rules.clone(), pos.clone(), tx.clone());
        let on_info = move |i: &Info| {
            let line = line_of(&r, &p, (i.depth, i.score, i.nodes), &i.pv, false);
            let _ = tx1.send(Msg::Analysis(id, Report::Line(line)));
        };
        let p = pos.clone();
        let on_best = move |res: SearchResult| {
            let line = line_of(&rules, &p, (res.depth, res.score, res.nodes), &res.pv, true);
            let _ = tx.send(Msg::Analysis(id, Report::Line(line)));
        };
        c.go(pos, Limits::default(), &job.stop, on_info, on_best);
        self.job = Some(job);
    }

    /// `T`: looks for the opponent's best threat (or hides the one shown); what to say. In
    /// the background with a channel; without one (tests), at once and shallow.
    pub fn ask_threat(&mut self, h: &History, tx: Option<&Sender<Msg>>) -> Msg {
        if self.threat.take().is_some() {
            return Msg::say("The threat is hidden.");
        }
        if h.outcome().is_some() {
            return Msg::warn("The game is over: no threat.");
        }
        let rules = h.shared_rules();
        let them = h.position().to_move().opponent();
        let mut null = h.position().clone();
        null.set_to_move(them);
        let job = Job {
            id: next_id(),
            key: key(h),
            stop: Stop::default(),
        };
        let c = self
            .threat_computer
            .get_or_insert_with(|| computer(rules.clone()));
        let Some(tx) = tx.cloned() else {
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            let res = c.think(&null, &limits, &job.stop, &mut |_| {});
            self.threat = threat_of(&rules, &null, job.key, &res);
            return Msg::say("No threat: the opponent has no move.");
        };
        let (id, at) = (job.id, job.key);
        let limits = Limits {
            movetime: Some(THREAT_TIME),
            ..Limits::default()
        };
        let searched = null.clone();
        let on_best = move |res: SearchResult| {
            let t = threat_of(&rules, &null, at, &res);
            let _ = tx.send(Msg::Analysis(id, Report::Threat(t)));
        };
        c.go(searched, limits, &job.stop, |_| {}, on_best);
        self.threat_job = Some(job);
        Msg::Say(format!(
            "Looking for {}'s best threat…",
            super::text::capital(them.name())
        ))
    }

    /// Whether `id` is the threat search still wanted.
    pub fn wants_threat(&self, id: u64) -> bool {
        self.threat_job.as_ref().is_some_and(|j| j.id == id)
    }

    /// A search's report, if it is of a search still wanted; a threat found comes back, for
    /// the board to show.
    pub fn take(&mut self, id: u64, report: Report) -> Option<Threat> {
        match report {
            Report::Line(line) if self.job.as_ref().is_some_and(|j| j.id == id) => {
                self.line = Some(line);
                None
            }
            Report::Threat(t) if self.threat_job.as_ref().is_some_and(|j| j.id == id) => {
                self.threat_job = None;
                self.threat = t.clone();
                t
            }
            Report::Scored(n, s) if self.game.id == id => {
                self.game.set(n, s);
                None
            }
            _ => None,
        }
    }
}

/// A line from a search: its depth, score and nodes, and its moves written out from `pos`.
fn line_of(
    rules: &Rules,
    pos: &Position,
    (depth, score, nodes): (u32, i32, u64),
    pv: &[Move],
    done: bool,
) -> Line {
    Line {
        depth,
        score,
        side: pos.to_move(),
        moves: line_text(rules, pos, pv),
        nodes,
        done,
    }
}

/// The moves of a line in notation, each in the position it is played in.
pub fn line_text(rules: &Rules, pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for m in pv {
        if rules.check(&p, m).is_err() {
            break;
        }
        out.push(notation::move_string(rules, &p, m));
        rules.play_unchecked(&mut p, m);
    }
    out
}

/// The threat a search of `null` (the position with the opponent to move) found.
fn threat_of(
    rules: &Rules,
    null: &Position,
    key: (usize, u64),
    res: &SearchResult,
) -> Option<Threat> {
    let mv = res.best?;
    let cat = rules.catalogue();
    let taken: Vec<String> = crate::material::removed(rules, null, &mv)
        .iter()
        .filter(|p| p.side != null.to_move())
        .map(|p| cat.kind(p.kind).name.clone())
        .collect();
    let what = match taken.is_empty() {
        true => String::new(),
        false => format!(" (takes the {})", taken.join(", the ")),
    };
    Some(Threat {
        side: null.to_move(),
        mv,
        text: format!("{}{what}", notation::move_string(rules, null, &mv)),
        score: res.score,
        takes: !taken.is_empty(),
        key,
    })
}

/// The replayed game's scores: the position after each number of moves, for Black, filled
/// in by a background thread (or read from the record's notes).
#[derive(Default)]
pub struct GameScores {
    id: u64,
    /// Index n: after n moves; none yet where not scored.
    pub scores: Vec<Option<i32>>,
    stop: Stop,
    thread: Option<JoinHandle<()>>,
}

impl Drop for GameScores {
    fn drop(&mut self) {
        self.stop.raise();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl GameScores {
    fn set(&mut self, n: usize, score: i32) {
        if let Some(s) = self.scores.get_mut(n) {
            *s = Some(score);
        }
    }

    /// Whether scoring has begun (a background thread may be at it).
    pub fn started(&self) -> bool {
        !self.scores.is_empty()
    }

    /// How many positions are scored, of how many.
    pub fn progress(&self) -> (usize, usize) {
        let done = self.scores.iter().filter(|s| s.is_some()).count();
        (done, self.scores.len())
    }

    /// Starts scoring `h`'s line (once): what the record's `notes` say is taken as it is,
    /// the rest is searched in a background thread (without a channel, not at all).
    pub fn start(&mut self, h: &History, notes: &[String], tx: Option<&Sender<Msg>>) {
        let n = h.line().len();
        if self.id != 0 || n == 0 {
            return;
        }
        if self.scores.is_empty() {
            self.scores = vec![None; n + 1];
            for (i, note) in notes.iter().enumerate().take(n) {
                self.scores[i + 1] = review::eval_of_note(note);
            }
            if self.scores[1..].iter().all(Option::is_some) {
                // Scored in the record: the start is even.
                self.scores[0] = Some(0);
            }
        }
        if self.scores.iter().all(Option::is_some) {
            return;
        }
        // Started once there is a channel to post to.
        let Some(tx) = tx.cloned() else { return };
        self.id = next_id();
        let (id, stop) = (self.id, self.stop.clone());
        let rules = h.shared_rules();
        let start = h.start().clone();
        let moves: Vec<Move> = h.line().iter().map(|p| p.mv).collect();
        let known: Vec<bool> = self.scores.iter().map(Option::is_some).collect();
        self.thread = Some(std::thread::spawn(move || {
            score_line(rules, start, &moves, &known, &stop, |n, s| {
                tx.send(Msg::Analysis(id, Report::Scored(n, s))).is_ok()
            });
        }));
    }

    /// The moves that lost the most (more than the review's margin), worst first: their
    /// numbers.
    pub fn worst(&self, h: &History, n: usize) -> Vec<usize> {
        let line = h.line();
        let mut losses: Vec<(i32, usize)> = (1..self.scores.len())
            .filter_map(|i| {
                let (before, after) = (self.scores[i - 1]?, self.scores[i]?);
                let black = line.get(i - 1)?.side == Side::Black;
                let loss = if black {
                    before - after
                } else {
                    after - before
                };
                (loss > review::MARGIN).then_some((loss, i))
            })
            .collect();
        losses.sort_by_key(|&(loss, i)| (std::cmp::Reverse(loss), i));
        losses.into_iter().take(n).map(|(_, i)| i).collect()
    }
}

/// Scores every position of a line not `known` yet, for Black, telling `found` of each
/// until it says to stop (or `stop` is raised).
fn score_line(
    rules: Arc<Rules>,
    start: Position,
    moves: &[Move],
    known: &[bool],
    stop: &Stop,
    mut found: impl FnMut(usize, i32) -> bool,
) {
    let mut c = computer(rules.clone());
    let limits = Limits {
        depth: Some(GRAPH_DEPTH),
        movetime: Some(GRAPH_TIME),
        ..Limits::default()
    };
    let mut pos = start;
    for (n, &known) in known.iter().enumerate().take(moves.len() + 1) {
        if stop.is_raised() {
            return;
        }
        if !known {
            let s: Scored = review::score(&mut c, &pos, &limits, stop);
            let black = if pos.to_move() == Side::Black {
                s.score
            } else {
                -s.score
            };
            if stop.is_raised() || !found(n, black) {
                return;
            }
        }
        if let Some(m) = moves.get(n) {
            rules.play_unchecked(&mut pos, m);
        }
    }
}

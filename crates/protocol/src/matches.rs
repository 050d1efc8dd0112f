//! Matches: games between two ATSI engines, colours alternating, the host keeping the clocks
//! and ending every game itself (the last royal captured or no legal move, as the rules say;
//! a flag, a resignation or a forfeit; a draw at the move limit). Every game is saved as a
//! record; the [`Standings`] are the final table, the score, the Elo difference and its
//! margin ([`crate::elo`]) as cutechess-cli prints them. Printing is the caller's.

use crate::elo::Score;
use crate::host::{self, EngineLog, EngineProcess, GameResult, HostError};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};
use taikyoku_core::geometry::Side;
use taikyoku_core::position::{EndReason, Outcome, Position};
use taikyoku_core::rules::Rules;
use taikyoku_records::history::History;
use taikyoku_records::record::{DrawReason, Record};
use taikyoku_records::store::{self, Overwrite, StoreError};
use taikyoku_records::timecontrol::{Clocks, Flag, TimeControl};

/// Lateness forgiven on every move (pipes, scheduling), on top of the clock.
pub const TIME_MARGIN: Duration = Duration::from_millis(100);
/// The default move limit (both sides' moves): a game still going after it is a draw.
pub const DEFAULT_MAX_MOVES: usize = 1000;
/// The engines' log, in the match's folder.
pub const LOG_FILE: &str = "engines.log";

/// What a match is: its engines, games and clocks, and the folder of its records.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The engines' commands, run with `sh -c`; the first plays Black in odd games.
    pub engines: [String; 2],
    pub games: u32,
    pub time: TimeControl,
    /// A game still going after this many moves (both sides') is a draw.
    pub max_moves: usize,
    /// Games played at once.
    pub concurrency: u32,
    /// How long an engine has to start and answer the handshake.
    pub handshake: Duration,
    /// Where the records go ([`record_file`]) and the engines' log ([`LOG_FILE`]).
    pub out: PathBuf,
}

/// Why a match stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine could not start (or be started on a game): the match is over.
    #[error("engine {} (`{command}`) {source}; see {}", .index + 1, .log.display())]
    EngineStart {
        index: usize,
        command: String,
        log: PathBuf,
        source: Box<HostError>,
    },
    #[error("game {game}: {}'s engine {source}", capital(*.side))]
    GameStart {
        game: u32,
        side: Side,
        source: Box<HostError>,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Stopped by Ctrl-C while a game was starting (`game`) or an engine starting (`None`).
    #[error("{}", .game.map_or("interrupted".to_string(), |n| format!("game {n} interrupted")))]
    Interrupted { game: Option<u32> },
    /// Stopped by Ctrl-C: the games finished (in order) are saved, those in progress not.
    #[error(
        "match interrupted: the engines were stopped; {} of {} finished (records in {}), \
         the games in progress not saved",
        .played.len(), plural(*.games, "game"), .out.display()
    )]
    MatchInterrupted {
        played: Vec<Played>,
        games: u32,
        out: PathBuf,
    },
}

/// A game played: who played Black (the engine's index), its record and how it ended.
#[derive(Clone, Debug)]
pub struct Played {
    pub number: u32,
    /// The index of the engine that played Black.
    pub black: usize,
    /// The engines' names, by engine: the first engine's first (numbered when both have the
    /// same name).
    pub names: [String; 2],
    pub moves: usize,
    pub outcome: Option<Outcome>,
    /// Why it ended, in words ("White's last royal captured").
    pub why: String,
}

impl Played {
    /// The first engine's result: 1, ½ or 0.
    fn first_engine_score(&self) -> Score {
        let mut s = Score::default();
        match self.outcome {
            None => s.draws = 1,
            Some(o) if (o.winner.index() == 0) == (self.black == 0) => s.wins = 1,
            Some(_) => s.losses = 1,
        }
        s
    }

    /// "1-0", "0-1" or "1/2-1/2", Black's score first.
    pub fn result(&self) -> &'static str {
        match self.outcome.map(|o| o.winner) {
            Some(Side::Black) => "1-0",
            Some(Side::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// The record of game `n` of `games` in `dir`: `game-001.toml` (wider for longer matches).
pub fn record_file(dir: &Path, n: u32, games: u32) -> PathBuf {
    let width = games.to_string().len().max(3);
    dir.join(format!("game-{n:0width$}.toml"))
}

/// What the games share.
struct Setup {
    rules: Arc<Rules>,
    start: Position,
    settings: MatchSettings,
    log: EngineLog,
}

/// A match ready to play: the rules, the start of every game, its settings and its log.
pub struct Match {
    setup: Arc<Setup>,
}

impl Match {
    pub fn new(rules: Rules, start: Position, settings: MatchSettings, log: EngineLog) -> Match {
        let rules = Arc::new(rules);
        Match {
            setup: Arc::new(Setup {
                rules,
                start,
                settings,
                log,
            }),
        }
    }

    /// Plays every game, `concurrency` at a time, calling `on_game` as each ends; the games
    /// in order of their numbers. The first engine that cannot start stops the match.
    pub fn play(&self, mut on_game: impl FnMut(&Played)) -> Result<Vec<Played>, MatchError> {
        let setup = &self.setup;
        let games = setup.settings.games;
        let (rx, workers) = start_workers(setup);
        let mut played = Vec::new();
        let mut error = None;
        for r in rx {
            match r {
                Ok(p) => {
                    on_game(&p);
                    played.push(p);
                }
                Err(e) => error = error.or(Some(e)),
            }
        }
        for w in workers {
            let _ = w.join();
        }
        played.sort_by_key(|p| p.number);
        if host::interrupted() {
            return Err(MatchError::MatchInterrupted {
                played,
                games,
                out: setup.settings.out.clone(),
            });
        }
        match error {
            Some(e) => Err(e),
            None => Ok(played),
        }
    }
}

type Workers = Vec<std::thread::JoinHandle<()>>;

/// The threads that play the games, each taking the next number until none is left (or one
/// fails); their games come through the channel.
fn start_workers(setup: &Arc<Setup>) -> (mpsc::Receiver<Result<Played, MatchError>>, Workers) {
    let games = setup.settings.games;
    let next = Arc::new(AtomicU32::new(1));
    let (tx, rx) = mpsc::channel();
    let mut workers = Vec::new();
    for _ in 0..setup.settings.concurrency.min(games) {
        let (setup, next, tx) = (setup.clone(), next.clone(), tx.clone());
        workers.push(std::thread::spawn(move || {
            loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n > games {
                    return;
                }
                let r = play_game(&setup, n);
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    // Stop handing out games: the match is over.
                    next.store(games + 1, Ordering::SeqCst);
                    return;
                }
            }
        }));
    }
    (rx, workers)
}

/// Starts both engines of game `n` (the first plays Black in odd games).
fn start_engines(setup: &Setup, n: u32) -> Result<(usize, [EngineProcess; 2]), MatchError> {
    let s = &setup.settings;
    let black = usize::from(n.is_multiple_of(2));
    let start = |index: usize, side: &str| {
        let log = setup.log.tagged(&format!("game {n} {side}"));
        EngineProcess::spawn_with(&s.engines[index], log, s.handshake).map_err(|e| match e {
            HostError::Interrupted => MatchError::Interrupted { game: None },
            source => MatchError::EngineStart {
                index,
                command: s.engines[index].clone(),
                log: s.out.join(LOG_FILE),
                source: Box::new(source),
            },
        })
    };
    let b = start(black, "black")?;
    let w = start(1 - black, "white")?;
    Ok((black, [b, w]))
}

/// Plays game `n` to its end and saves its record.
fn play_game(setup: &Setup, n: u32) -> Result<Played, MatchError> {
    let (black, mut engines) = start_engines(setup, n)?;
    let mut names = [engines[0].name().to_string(), engines[1].name().to_string()];
    if black == 1 {
        names.swap(0, 1);
    }
    if names[0] == names[1] {
        names = [0, 1].map(|i| format!("{} #{}", names[i], i + 1));
    }
    let mut history = History::new(setup.rules.clone(), setup.start.clone());
    for side in Side::BOTH {
        engines[side.index()]
            .start_game(&history, side, setup.settings.time)
            .map_err(|e| match e {
                HostError::Interrupted => MatchError::Interrupted { game: None },
                source => MatchError::GameStart {
                    game: n,
                    side,
                    source: Box::new(source),
                },
            })?;
    }
    let Some((outcome, why)) = play_moves(setup, &mut history, &mut engines) else {
        return Err(MatchError::Interrupted { game: Some(n) });
    };
    for side in Side::BOTH {
        let result = match outcome {
            None => GameResult::Draw,
            Some(o) if o.winner == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        };
        engines[side.index()].finish(result, &why);
    }
    save_record(setup, n, &history, &names, black, outcome.is_none())?;
    Ok(Played {
        number: n,
        black,
        names,
        moves: history.point(),
        outcome,
        why,
    })
}

/// Saves game `n`'s record, the engines' names as the players'.
fn save_record(
    setup: &Setup,
    n: u32,
    history: &History,
    names: &[String; 2],
    black: usize,
    move_limit: bool,
) -> Result<(), StoreError> {
    let s = &setup.settings;
    let file = record_file(&s.out, n, s.games);
    let mut record = Record::new(history);
    let side_name = |side: Side| names[usize::from((side == Side::White) != (black == 1))].clone();
    record.black = side_name(Side::Black);
    record.white = side_name(Side::White);
    if move_limit {
        record.draw = Some(DrawReason::MoveLimit);
    }
    store::save(&file, &record, Overwrite::Never)
}

/// Asks the engines for moves in turn until the game ends; how it ended and why, in words;
/// `None` when the host was interrupted.
fn play_moves(
    setup: &Setup,
    history: &mut History,
    engines: &mut [EngineProcess; 2],
) -> Option<(Option<Outcome>, String)> {
    let max_moves = setup.settings.max_moves;
    let mut clocks = Clocks::new(setup.settings.time);
    loop {
        if let Some(o) = history.outcome() {
            return Some((Some(o), describe_end(o)));
        }
        if history.point() >= max_moves {
            return Some((None, format!("move limit of {max_moves} moves")));
        }
        let side = history.position().to_move();
        let deadline = Instant::now() + clocks.remaining(side) + TIME_MARGIN;
        let reply = engines[side.index()].request_move(history, &clocks, deadline);
        let failure = match reply {
            Ok(m) if clocks.charge(side, m.elapsed, TIME_MARGIN) == Flag::Fallen => {
                Some((EndReason::Time, format!("{} lost on time", capital(side))))
            }
            Ok(m) => {
                history
                    .play(&m.mv)
                    .expect("the host checked the engine's move");
                None
            }
            Err(HostError::Interrupted) => return None,
            Err(e) => Some(host_failure(side, &e)),
        };
        if let Some((reason, why)) = failure {
            history.concede(reason);
            let o = history.outcome().expect("conceded");
            return Some((Some(o), why));
        }
    }
}

/// How an engine's failure ends the game, and why in words.
fn host_failure(side: Side, e: &HostError) -> (EndReason, String) {
    let who = capital(side);
    match e {
        HostError::Resigned(_) => (EndReason::Resignation, format!("{who} {e}")),
        HostError::TimedOut { .. } => (EndReason::Time, format!("{who} lost on time: {e}")),
        _ => (
            EndReason::Forfeit,
            format!("{who} forfeits: its engine {e}"),
        ),
    }
}

/// An ending the moves show, in words ("White's last royal captured").
fn describe_end(o: Outcome) -> String {
    let loser = capital(o.winner.opponent());
    match o.reason {
        EndReason::RoyalsCaptured => format!("{loser}'s last royal captured"),
        EndReason::NoLegalMove => format!("{loser} has no legal move"),
        EndReason::Resignation => format!("{loser} resigned"),
        EndReason::Time => format!("{loser} lost on time"),
        EndReason::Forfeit => format!("{loser} forfeits"),
    }
}

fn capital(side: Side) -> &'static str {
    match side {
        Side::Black => "Black",
        Side::White => "White",
    }
}

/// "1 game", "3 games".
pub(crate) fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The final table of a match: each engine's games, wins, draws, losses and points, then the
/// first engine's score, Elo difference with its 95 % margin, LOS and draw ratio as
/// cutechess-cli prints them.
pub struct Standings {
    /// The engines' names, the first engine's first.
    pub names: [String; 2],
    /// The first engine's score.
    pub score: Score,
}

impl Standings {
    /// The standings after these games (`None` without any).
    pub fn of(played: &[Played]) -> Option<Standings> {
        let first = played.first()?;
        let mut names = first.names.clone();
        if first.black == 1 {
            names.swap(0, 1);
        }
        let score = played.iter().fold(Score::default(), |s, p| {
            let g = p.first_engine_score();
            Score {
                wins: s.wins + g.wins,
                draws: s.draws + g.draws,
                losses: s.losses + g.losses,
            }
        });
        Some(Standings { names, score })
    }
}

impl fmt::Display for Standings {
    /// The table's lines, the last without a line break.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (names, score) = (&self.names, self.score);
        let width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        writeln!(
            f,
            "{:width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}",
            "engine", "games", "wins", "draws", "losses", "points"
        )?;
        for (name, s) in names.iter().zip([score, score.swapped()]) {
            writeln!(
                f,
                "{name:width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}",
                s.games(),
                s.wins,
                s.draws,
                s.losses,
                s.points()
            )?;
        }
        writeln!(
            f,
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            names[0],
            names[1],
            score.wins,
            score.losses,
            score.draws,
            score.ratio(),
            score.games()
        )?;
        write!(
            f,
            "Elo difference: {} +/- {}, LOS: {}, DrawRatio: {}",
            figure(score.elo()),
            figure(score.elo_margin()),
            percent(score.los()),
            percent(score.draw_ratio())
        )
    }
}

/// A share as a percentage ("73.5 %"), or "n/a".
fn percent(x: f64) -> String {
    match figure(x * 100.0) {
        f if x.is_finite() => format!("{f} %"),
        f => f,
    }
}

/// A statistic with one decimal, or what it is when not finite ("inf", "-inf", "n/a").
fn figure(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        // + 0.0 turns -0.0 into 0.0.
        format!("{:.1}", x + 0.0)
    }
}

//! `taikyoku match`: games between two ATSI engines, colours alternating, the host keeping the
//! clocks and ending every game itself (the last royal captured or no legal move, as the rules
//! say; a flag, a resignation or a forfeit; a draw at the move limit). Every game is saved as a
//! record; a line per game, then the score, the Elo difference and its margin ([`taikyoku_protocol::elo`]).

use crate::cli::CliError;
use crate::host::{self, EngineLog, EngineProcess, GameResult, HostError};
use crate::text::count;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant, SystemTime};
use taikyoku_core::geometry::Side;
use taikyoku_core::position::{EndReason, Outcome};
use taikyoku_core::rules::Rules;
use taikyoku_protocol::elo::Score;
use taikyoku_records::history::History;
use taikyoku_records::record::{DrawReason, Record};
use taikyoku_records::store::{self, Overwrite};
use taikyoku_records::timecontrol::{Clocks, Flag, TimeControl};

/// Lateness forgiven on every move (pipes, scheduling), on top of the clock.
pub const TIME_MARGIN: Duration = Duration::from_millis(100);
/// The default move limit (both sides' moves): a game still going after it is a draw.
pub const DEFAULT_MAX_MOVES: usize = 1000;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine's command, run with `sh -c` (give --engine twice).
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Number of games; the engines take turns playing Black (the first engine starts).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Time control per side: BASE+INC in seconds (`60+1`, `0.5+0.1`).
    #[arg(long, value_name = "BASE+INC")]
    pub time: TimeControl,
    /// Where the records go (game-001.toml, …) and the engines' log (engines.log); default:
    /// a new folder match-DATE in the games folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// A game still going after this many moves (both sides') is a draw.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_MOVES)]
    pub max_moves: usize,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// Seconds an engine has to start and answer `atsiinit` (an engine that loads a lot may
    /// need more).
    #[arg(long, value_name = "SECONDS", default_value_t = host::HANDSHAKE_TIMEOUT.as_secs_f64(), value_parser = handshake_seconds)]
    pub handshake_timeout: f64,
    /// Every game starts from this position (a position string or a file holding one)
    /// instead of the opening: to replay an ending, e.g. a king hunt.
    #[command(flatten)]
    pub position: crate::cli::PositionArgs,
}

fn handshake_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if (0.01..=3600.0).contains(&t) => Ok(t),
        _ => Err(format!("{s} is not a number of seconds from 0.01 to 3600")),
    }
}

/// What the games share.
struct Setup {
    rules: Arc<Rules>,
    start: taikyoku_core::position::Position,
    engines: [String; 2],
    games: u32,
    time: TimeControl,
    max_moves: usize,
    out: PathBuf,
    log: EngineLog,
    handshake: Duration,
}

/// A game played: who played Black (the engine's index), its record and how it ended.
struct Played {
    number: u32,
    black: usize,
    names: [String; 2],
    moves: usize,
    outcome: Option<Outcome>,
    /// Why it ended, in words ("White's last royal captured").
    why: String,
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
    fn result(&self) -> &'static str {
        match self.outcome.map(|o| o.winner) {
            Some(Side::Black) => "1-0",
            Some(Side::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Runs `taikyoku match`.
pub fn run(rules: Rules, args: MatchArgs) -> Result<(), CliError> {
    let [a, b] = <[String; 2]>::try_from(args.engines.clone()).map_err(|v| {
        CliError::Usage(format!(
            "give exactly two engines (--engine CMD --engine CMD), not {}",
            v.len()
        ))
    })?;
    let out = match args.out {
        Some(dir) => dir,
        None => default_out()?,
    };
    std::fs::create_dir_all(&out).map_err(|e| {
        CliError::Usage(format!(
            "cannot create the match folder {}: {e}",
            out.display()
        ))
    })?;
    for n in 1..=args.games {
        let file = record_file(&out, n, args.games);
        if std::fs::symlink_metadata(&file).is_ok() {
            return Err(CliError::Usage(format!(
                "{} already exists: give another --out for this match",
                file.display()
            )));
        }
    }
    let log_file = out.join("engines.log");
    // Made first, so that a folder nobody may write into is found before any game is played.
    let log = EngineLog::file(&log_file)
        .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", log_file.display())))?;
    println!(
        "Match: {} at {} under {} ({}), records and engines.log in {}",
        count(args.games as usize, "game"),
        args.time,
        rules.rule_set.name,
        rules.game.name,
        out.display()
    );
    let start = crate::cli::load_position(&rules, &args.position)?;
    let setup = Arc::new(Setup {
        rules: Arc::new(rules),
        start,
        engines: [a, b],
        games: args.games,
        time: args.time,
        max_moves: args.max_moves,
        out,
        log,
        handshake: Duration::from_secs_f64(args.handshake_timeout),
    });
    // Ctrl-C reaches only this process (each engine has a process group of its own): it
    // kills the engines, which ends the games in progress at once.
    host::interrupt_on_signals();
    let played = play_all(&setup, args.concurrency)?;
    print_summary(&played);
    Ok(())
}

/// A new folder for the records: `match-YYYYMMDDTHHMMSS` in the games folder.
fn default_out() -> Result<PathBuf, CliError> {
    let games = store::games_dir().ok_or_else(|| {
        CliError::Usage("no data directory for the records: give --out DIR".into())
    })?;
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(['-', ':'], "")
        .trim_end_matches('Z')
        .to_string();
    Ok(games.join(format!("match-{stamp}")))
}

fn record_file(dir: &Path, n: u32, games: u32) -> PathBuf {
    let width = games.to_string().len().max(3);
    dir.join(format!("game-{n:0width$}.toml"))
}

/// Plays every game, `concurrency` at a time, printing a line as each ends; the games in
/// order of their numbers. The first engine that cannot start stops the match.
fn play_all(setup: &Arc<Setup>, concurrency: u32) -> Result<Vec<Played>, CliError> {
    let next = Arc::new(AtomicU32::new(1));
    let (tx, rx) = mpsc::channel();
    let mut workers = Vec::new();
    for _ in 0..concurrency.min(setup.games) {
        let (setup, next, tx) = (setup.clone(), next.clone(), tx.clone());
        workers.push(std::thread::spawn(move || {
            loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n > setup.games {
                    return;
                }
                let r = play_game(&setup, n);
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    // Stop handing out games: the match is over.
                    next.store(setup.games + 1, Ordering::SeqCst);
                    return;
                }
            }
        }));
    }
    drop(tx);
    let mut played = Vec::new();
    let mut error = None;
    for r in rx {
        match r {
            Ok(p) => {
                println!(
                    "Game {}/{}: {} vs {}: {} ({}; {} moves)",
                    p.number,
                    setup.games,
                    p.names[p.black],
                    p.names[1 - p.black],
                    p.result(),
                    p.why,
                    p.moves
                );
                played.push(p);
            }
            Err(e) => error = error.or(Some(e)),
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if host::interrupted() {
        played.sort_by_key(|p| p.number);
        print_summary(&played);
        return Err(CliError::Interrupted(format!(
            "match interrupted: the engines were stopped; {} of {} finished (records in {}), \
             the games in progress not saved",
            played.len(),
            count(setup.games as usize, "game"),
            setup.out.display()
        )));
    }
    if let Some(e) = error {
        return Err(e);
    }
    played.sort_by_key(|p| p.number);
    Ok(played)
}

/// Starts both engines of game `n` (the first plays Black in odd games).
fn start_engines(setup: &Setup, n: u32) -> Result<(usize, [EngineProcess; 2]), CliError> {
    let black = usize::from(n.is_multiple_of(2));
    let start = |i: usize, side: &str| {
        let log = setup.log.tagged(&format!("game {n} {side}"));
        EngineProcess::spawn_with(&setup.engines[i], log, setup.handshake).map_err(|e| {
            host_error(e, |e| {
                format!(
                    "engine {} (`{}`) {e}; see {}",
                    i + 1,
                    setup.engines[i],
                    setup.out.join("engines.log").display()
                )
            })
        })
    };
    let b = start(black, "black")?;
    let w = start(1 - black, "white")?;
    Ok((black, [b, w]))
}

/// Plays game `n` to its end and saves its record.
fn play_game(setup: &Setup, n: u32) -> Result<Played, CliError> {
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
            .start_game(&history, side, setup.time)
            .map_err(|e| host_error(e, |e| format!("game {n}: {}'s engine {e}", capital(side))))?;
    }
    let Some((outcome, why)) = play_moves(setup, &mut history, &mut engines) else {
        return Err(CliError::Interrupted(format!("game {n} interrupted")));
    };
    for side in Side::BOTH {
        let result = match outcome {
            None => GameResult::Draw,
            Some(o) if o.winner == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        };
        engines[side.index()].finish(result, &why);
    }
    let file = record_file(&setup.out, n, setup.games);
    let mut record = Record::new(&history);
    let side_name = |side: Side| names[usize::from((side == Side::White) != (black == 1))].clone();
    record.black = side_name(Side::Black);
    record.white = side_name(Side::White);
    if outcome.is_none() {
        record.draw = Some(DrawReason::MoveLimit);
    }
    store::save(&file, &record, Overwrite::Never)?;
    Ok(Played {
        number: n,
        black,
        names,
        moves: history.point(),
        outcome,
        why,
    })
}

/// Asks the engines for moves in turn until the game ends; how it ended and why, in words;
/// `None` when the host was interrupted.
fn play_moves(
    setup: &Setup,
    history: &mut History,
    engines: &mut [EngineProcess; 2],
) -> Option<(Option<Outcome>, String)> {
    let mut clocks = Clocks::new(setup.time);
    loop {
        if let Some(o) = history.outcome() {
            return Some((Some(o), describe_end(o)));
        }
        if history.point() >= setup.max_moves {
            return Some((None, format!("move limit of {} moves", setup.max_moves)));
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

/// An engine that cannot play stops the match: why, or that the match was interrupted.
fn host_error(e: HostError, why: impl FnOnce(&HostError) -> String) -> CliError {
    match e {
        HostError::Interrupted => CliError::Interrupted("interrupted".into()),
        e => CliError::Usage(why(&e)),
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

/// The final table: each engine's games, wins, draws, losses and points, then the first
/// engine's score, Elo difference with its 95 % margin, LOS and draw ratio as cutechess-cli
/// prints them.
fn print_summary(played: &[Played]) {
    let Some(first) = played.first() else { return };
    let names = {
        let mut n = first.names.clone();
        if first.black == 1 {
            n.swap(0, 1);
        }
        n
    };
    let score = played.iter().fold(Score::default(), |s, p| {
        let g = p.first_engine_score();
        Score {
            wins: s.wins + g.wins,
            draws: s.draws + g.draws,
            losses: s.losses + g.losses,
        }
    });
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    println!();
    println!(
        "{:width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}",
        "engine", "games", "wins", "draws", "losses", "points"
    );
    for (name, s) in names.iter().zip([score, score.swapped()]) {
        println!(
            "{name:width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}",
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            s.points()
        );
    }
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        score.wins,
        score.losses,
        score.draws,
        score.ratio(),
        score.games()
    );
    println!(
        "Elo difference: {} +/- {}, LOS: {}, DrawRatio: {}",
        figure(score.elo()),
        figure(score.elo_margin()),
        percent(score.los()),
        percent(score.draw_ratio())
    );
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

//! `taikyoku match`: the command line of [`taikyoku_protocol::matches`]. It checks the
//! arguments and the match folder, then prints a line per game as it ends and the final table.

use super::error::CliError;
use super::load::{PositionArgs, load_position};
use crate::text::count;
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};
use taikyoku_core::rules::Rules;
use taikyoku_protocol::host::{self, EngineLog};
use taikyoku_protocol::matches::{
    DEFAULT_MAX_MOVES, LOG_FILE, Match, MatchError, MatchSettings, Played, Standings, record_file,
};
use taikyoku_records::store;
use taikyoku_records::timecontrol::TimeControl;

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
    pub position: PositionArgs,
}

fn handshake_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if (0.01..=3600.0).contains(&t) => Ok(t),
        _ => Err(format!("{s} is not a number of seconds from 0.01 to 3600")),
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
    let log = prepare_folder(&out, args.games)?;
    println!(
        "Match: {} at {} under {} ({}), records and engines.log in {}",
        count(args.games as usize, "game"),
        args.time,
        rules.rule_set.name,
        rules.game.name,
        out.display()
    );
    let start = load_position(&rules, &args.position)?;
    let settings = MatchSettings {
        engines: [a, b],
        games: args.games,
        time: args.time,
        max_moves: args.max_moves,
        concurrency: args.concurrency,
        handshake: Duration::from_secs_f64(args.handshake_timeout),
        out,
    };
    let games = settings.games;
    let series = Match::new(rules, start, settings, log);
    // Ctrl-C reaches only this process (each engine has a process group of its own): it
    // kills the engines, which ends the games in progress at once.
    host::interrupt_on_signals();
    let played = series.play(|p| print_game(p, games)).map_err(|e| match e {
        MatchError::MatchInterrupted { ref played, .. } => {
            print_summary(played);
            CliError::Interrupted(e.to_string())
        }
        MatchError::Interrupted { .. } => CliError::Interrupted(e.to_string()),
        MatchError::Store(e) => CliError::Store(e),
        e => CliError::Usage(e.to_string()),
    })?;
    print_summary(&played);
    Ok(())
}

/// Makes the match folder and its log, refusing one that holds a record of the same name.
/// The log is made first, so that a folder nobody may write into is found before any game.
fn prepare_folder(out: &std::path::Path, games: u32) -> Result<EngineLog, CliError> {
    std::fs::create_dir_all(out).map_err(|e| {
        CliError::Usage(format!(
            "cannot create the match folder {}: {e}",
            out.display()
        ))
    })?;
    for n in 1..=games {
        let file = record_file(out, n, games);
        if std::fs::symlink_metadata(&file).is_ok() {
            return Err(CliError::Usage(format!(
                "{} already exists: give another --out for this match",
                file.display()
            )));
        }
    }
    let log_file = out.join(LOG_FILE);
    EngineLog::file(&log_file)
        .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", log_file.display())))
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

/// "Game 3/10: alpha vs beta: 1-0 (White's last royal captured; 85 moves)".
fn print_game(p: &Played, games: u32) {
    println!(
        "Game {}/{}: {} vs {}: {} ({}; {} moves)",
        p.number,
        games,
        p.names[p.black],
        p.names[1 - p.black],
        p.result(),
        p.why,
        p.moves
    );
}

/// The final table, after a blank line.
fn print_summary(played: &[Played]) {
    if let Some(standings) = Standings::of(played) {
        println!();
        println!("{standings}");
    }
}

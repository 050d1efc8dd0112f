//! The bottom of the command line: the arguments every command shares (`--data`, `--game`,
//! `--rules`, `--position`, `--record`) and loading what they name: the game, its rules, a
//! position, a record replayed.

use super::error::CliError;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use taikyoku_core::game::{DataDir, Game};
use taikyoku_core::notation::{self, NotationError};
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_records::record::{Record, Replay};
use taikyoku_records::store;

/// Where the game data comes from and which game was asked for (`--data`, `--game`).
#[derive(Clone, Debug, Default)]
pub struct GameArgs {
    pub data: Option<PathBuf>,
    pub game: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// A position string, or a file holding one or a JSON position (default: the opening).
    #[arg(long, short = 'p', value_name = "POSITION")]
    pub position: Option<String>,
}

/// `--record FILE`: start from the position a record has reached.
#[derive(Args, Debug, Clone)]
pub struct RecordArg {
    /// Start from the position this game record has reached (under its rule set).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "rules"])]
    pub record: Option<PathBuf>,
}

pub fn data_dir(cli_data: &Option<PathBuf>) -> DataDir {
    cli_data.as_ref().map_or(DataDir::Embedded, DataDir::dir)
}

pub fn load_game(g: &GameArgs) -> Result<Game, CliError> {
    let data = data_dir(&g.data);
    Ok(match &g.game {
        Some(name) => Game::find(&data, name)?,
        None => Game::default_game(&data)?,
    })
}

pub fn load_rules(g: &GameArgs, rules: &Option<String>) -> Result<Rules, CliError> {
    let game = load_game(g)?;
    let name = rules.clone().unwrap_or_else(|| game.default_rules.clone());
    Ok(Rules::new(game, &name)?)
}

pub fn load_position(rules: &Rules, args: &PositionArgs) -> Result<Position, CliError> {
    match &args.position {
        Some(p) => Ok(notation::load_position(rules, p).map_err(NotationError::from)?),
        None => Ok(rules.start_position()),
    }
}

/// Loads and replays a record under the game it names (refusing a `--game` that names
/// another), telling the user on standard error what the replay noticed.
pub fn load_replay(g: &GameArgs, file: &Path) -> Result<(Record, Replay), CliError> {
    let file = &record_path(file);
    let record = Record::load(file)?;
    let game = record.find_game(&data_dir(&g.data))?;
    if let Some(asked) = &g.game
        && !game.is_called(asked)
    {
        return Err(CliError::Usage(format!(
            "{}: this is a record of {} ({}), but --game asks for {asked:?}; leave --game out to play the record's game",
            file.display(),
            game.name,
            game.id
        )));
    }
    let replay = record.replay(&game)?;
    for w in &replay.warnings {
        eprintln!("taikyoku: warning: {}: {w}", file.display());
    }
    Ok((record, replay))
}

/// The file a record argument names: the file itself, or else — as the terminal game's save
/// prompt takes a name — the game saved under that name in the games folder ("first game"
/// is `games/first game.toml` in the data directory).
pub fn record_path(file: &Path) -> PathBuf {
    if file.exists() {
        return file.to_path_buf();
    }
    let named = file
        .to_str()
        .map(|t| crate::tui::session::save_path(t, store::games_dir().as_deref()));
    match named {
        Some(p) if p.is_file() => p,
        _ => file.to_path_buf(),
    }
}

/// The rules a replayed record is played under, again (the terminal game takes its own).
pub fn replay_rules(replay: &Replay) -> Result<Rules, CliError> {
    let rules = replay.history.rules();
    Ok(Rules::new(rules.game.clone(), &rules.rule_set.name)?)
}

/// A record is played under the rule set it names, so `--rules` (even before the command,
/// where clap does not see the conflict) is refused rather than silently ignored.
pub fn refuse_rules(rs: &Option<String>, file: &Path) -> Result<(), CliError> {
    match rs {
        Some(r) => Err(CliError::Usage(format!(
            "--rules {r} cannot be used with the record {}: a record is played under the rule set it names",
            file.display()
        ))),
        None => Ok(()),
    }
}

/// The rules and position of `--rules`/`--position`, or of `--record`.
pub fn rules_and_position(
    g: &GameArgs,
    rs: &Option<String>,
    position: &PositionArgs,
    record: &RecordArg,
) -> Result<(Arc<Rules>, Position), CliError> {
    if let Some(file) = &record.record {
        refuse_rules(rs, file)?;
        let (_, replay) = load_replay(g, file)?;
        let h = replay.history;
        return Ok((h.shared_rules(), h.position().clone()));
    }
    let rules = Arc::new(load_rules(g, rs)?);
    let pos = load_position(&rules, position)?;
    Ok((rules, pos))
}

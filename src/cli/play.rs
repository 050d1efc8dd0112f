//! The terminal game's commands: a new game (no command, or `taikyoku play`), `taikyoku replay`
//! and `taikyoku recent`. They load what the game starts from and hand it to the terminal game.

use super::error::CliError;
use super::load::{
    GameArgs, PositionArgs, load_position, load_replay, load_rules, refuse_rules, replay_rules,
};
use super::stdout::out;
use crate::tui::PlayOptions;
use crate::tui::error::TuiError;
use crate::tui::players::Player;
use clap::Args;
use std::path::PathBuf;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_records::record::{Record, Replay};
use taikyoku_records::store;
use taikyoku_records::timecontrol::TimeControl;

/// Who plays each side in the terminal game.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayersArgs {
    /// Who plays Black: human (the default), computer[:LEVEL] (LEVEL: easy, medium — the
    /// default —, hard, or a time per move such as 300ms or 1.5s) or an ATSI engine's command.
    #[arg(long, value_name = "PLAYER", value_parser = Player::parse)]
    pub black: Option<Player>,
    /// Who plays White: human (the default), computer[:LEVEL] or an ATSI engine's command.
    #[arg(long, value_name = "PLAYER", value_parser = Player::parse)]
    pub white: Option<Player>,
    /// A clock for every side: BASE+INC in seconds; a side whose time runs out loses (without
    /// it, only an engine has a clock, 120+2).
    #[arg(long, value_name = "BASE+INC")]
    pub time: Option<TimeControl>,
}

impl PlayersArgs {
    fn sides(&self) -> [Option<Player>; 2] {
        [self.black.clone(), self.white.clone()]
    }
}

#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub players: PlayersArgs,
    /// Show pieces by their ASCII codes instead of kanji.
    #[arg(long)]
    pub ascii: bool,
    /// Colour theme: default, high-contrast or colour-blind (also `theme = "…"` in config.toml).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Continue the game in this record (`s` then saves back to it).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "rules"])]
    pub load: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record to replay (read-only; `b` plays on from any move as a new game).
    pub file: PathBuf,
    /// Who plays on after `b` (default: who played the record).
    #[command(flatten)]
    pub players: PlayersArgs,
    /// Show pieces by their ASCII codes instead of kanji.
    #[arg(long)]
    pub ascii: bool,
    /// Colour theme: default, high-contrast or colour-blind.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
}

#[derive(Args, Debug)]
pub struct RecentArgs {
    /// The number of the game to open, as listed.
    pub number: Option<usize>,
    /// Who plays on (default: who played the game).
    #[command(flatten)]
    pub players: PlayersArgs,
    /// Show pieces by their ASCII codes instead of kanji.
    #[arg(long)]
    pub ascii: bool,
    /// Colour theme: default, high-contrast or colour-blind.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
}

/// Opens the terminal game on a record: to replay it (`read_only`) or to play on.
fn open_record(
    game: (Record, Replay),
    (ascii, theme, players): (bool, Option<String>, &PlayersArgs),
    read_only: bool,
    play: impl FnOnce(Rules, Position, PlayOptions) -> Result<(), TuiError>,
) -> Result<(), CliError> {
    let rules = replay_rules(&game.1)?;
    let pos = rules.start_position();
    let options = PlayOptions {
        ascii,
        theme,
        game: Some(game),
        read_only,
        offer_resume: false,
        players: players.sides(),
        time: players.time,
    };
    Ok(play(rules, pos, options)?)
}

/// The numbered list of recent games, with their files.
fn recent_text(games: &[crate::tui::session::Listed]) -> String {
    if games.is_empty() {
        return "No saved or autosaved game yet.\n".into();
    }
    let mut s = String::new();
    for (i, g) in games.iter().enumerate() {
        s += &format!("{:>3}. {}\n     {}\n", i + 1, g.line, g.path.display());
    }
    s += "taikyoku recent N opens game N.\n";
    s
}
/// A new game in the terminal (no command): the opening, with an offer to resume the last
/// unfinished game.
pub fn new_game(
    g: &GameArgs,
    rs: &Option<String>,
    play: impl FnOnce(Rules, Position, PlayOptions) -> Result<(), TuiError>,
) -> Result<(), CliError> {
    let rules = load_rules(g, rs)?;
    let pos = rules.start_position();
    let options = PlayOptions {
        offer_resume: true,
        ..PlayOptions::default()
    };
    Ok(play(rules, pos, options)?)
}

/// `taikyoku play`: a new game, from a position, or on from a record (`--load`).
pub fn play(
    g: &GameArgs,
    rs: &Option<String>,
    a: PlayArgs,
    play: impl FnOnce(Rules, Position, PlayOptions) -> Result<(), TuiError>,
) -> Result<(), CliError> {
    let game = match &a.load {
        Some(file) => {
            refuse_rules(rs, file)?;
            Some(load_replay(g, file)?)
        }
        None => None,
    };
    let rules = match &game {
        Some((_, replay)) => replay_rules(replay)?,
        None => load_rules(g, rs)?,
    };
    let pos = load_position(&rules, &a.position)?;
    let options = PlayOptions {
        ascii: a.ascii,
        theme: a.theme,
        offer_resume: a.position.position.is_none() && game.is_none(),
        game,
        read_only: false,
        players: a.players.sides(),
        time: a.players.time,
    };
    Ok(play(rules, pos, options)?)
}

/// `taikyoku replay`: a record, read-only.
pub fn replay(
    g: &GameArgs,
    rs: &Option<String>,
    a: ReplayArgs,
    play: impl FnOnce(Rules, Position, PlayOptions) -> Result<(), TuiError>,
) -> Result<(), CliError> {
    refuse_rules(rs, &a.file)?;
    let game = load_replay(g, &a.file)?;
    open_record(game, (a.ascii, a.theme, &a.players), true, play)
}

/// `taikyoku recent [N]`: the list of recent games, or the Nth opened to play on.
pub fn recent(
    g: &GameArgs,
    a: RecentArgs,
    play: impl FnOnce(Rules, Position, PlayOptions) -> Result<(), TuiError>,
) -> Result<(), CliError> {
    let dirs = [store::autosave_dir(), store::games_dir()];
    let games = crate::tui::session::recent_games(&dirs);
    let Some(n) = a.number else {
        return out(&recent_text(&games));
    };
    let Some(chosen) = n.checked_sub(1).and_then(|i| games.get(i)) else {
        return Err(CliError::Usage(format!(
            "recent {n}: there are {} games (taikyoku recent lists them)",
            games.len()
        )));
    };
    let game = load_replay(g, &chosen.path)?;
    open_record(game, (a.ascii, a.theme, &a.players), false, play)
}

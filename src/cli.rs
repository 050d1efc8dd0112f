//! The command line: piece cards, legal moves, perft and rule-set differences, headless. It is
//! part of the binary (clap, stdout); the library it drives prints nothing.

use crate::text::count;
use crate::tui::PlayOptions;
use crate::tui::error::TuiError;
use crate::tui::players::Player;
use clap::{Args, Parser, Subcommand};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use taikyoku_core::card::{KindName, PieceCard};
use taikyoku_core::catalogue::{KindId, Lookup};
use taikyoku_core::error::DataError;
use taikyoku_core::explain;
use taikyoku_core::game::{DataDir, Game, GameError, describe_games};
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::notation::{self, NotationError};
use taikyoku_core::perft;
use taikyoku_core::piece::Piece;
use taikyoku_core::position::Position;
use taikyoku_core::rules::{Rules, RulesError};
use taikyoku_records::history::History;
use taikyoku_records::record::{self, Record, RecordError, Replay};
use taikyoku_records::store::{self, Overwrite, StoreError};
use taikyoku_records::timecontrol::TimeControl;

/// Taikyoku shōgi (大局将棋), the largest historical chess game, in a terminal.
#[derive(Parser, Debug)]
#[command(name = "taikyoku", version, about, long_about = None)]
pub struct Cli {
    /// Read the game data (rules/, pieces.toml, pieces/, setups/) from this directory instead of the
    /// copy built into the program.
    #[arg(long, global = true, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The game to play or examine (default: the first listed).
    #[arg(long, short = 'g', global = true, value_name = "NAME", help = game_help())]
    pub game: Option<String>,
    /// Rule set of the game (default: the game's own; `taikyoku rules` lists them).
    #[arg(long, short = 'r', global = true, value_name = "NAME")]
    pub rules: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play in the terminal (the default): hot-seat, or against the computer or an ATSI engine.
    Play(PlayArgs),
    /// Replay a game record in the terminal: step through it, or play on from any move.
    Replay(ReplayArgs),
    /// List recent and unfinished games (autosaves and the games folder); `recent N` opens
    /// the Nth to play on.
    Recent(RecentArgs),
    /// Show a piece's card: names, movement, promotion, sources and a move diagram.
    Piece(PieceArgs),
    /// List every piece kind.
    Pieces,
    /// List the legal moves of the side to move.
    Moves(MovesArgs),
    /// Count the move sequences of a given length (performance test and regression check).
    Perft(PerftArgs),
    /// List the rule sets and, piece by piece, where they differ.
    Rules(RulesCmdArgs),
    /// Print a position as a board.
    Board(PositionArgs),
    /// Create a game record, or add moves to one.
    #[command(subcommand)]
    Record(RecordCommand),
    /// Replay a game record, checking every move; print where the game stands.
    Check(CheckArgs),
    /// Search a position and print the best move, its score, depth and principal variation.
    Bestmove(crate::analysis::BestmoveArgs),
    /// Print every kind's value as the engine's evaluation derives it from the data.
    Values(crate::analysis::ValuesArgs),
    /// Be an ATSI v00 engine on stdin/stdout, or over WebSocket with --listen (the ATSA
    /// site's Play page connects to it).
    Engine(crate::atsi_engine::EngineArgs),
    /// Play games between two ATSI engines: records, a line per game, score and Elo.
    Match(crate::engine_match::MatchArgs),
}

#[derive(Subcommand, Debug)]
pub enum RecordCommand {
    /// Create a record of a new game.
    New(RecordNewArgs),
    /// Check moves against the position a record has reached and append them (all or none).
    Add(RecordAddArgs),
}

#[derive(Args, Debug)]
pub struct RecordNewArgs {
    /// The record file to create.
    pub file: PathBuf,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Black's player name.
    #[arg(long, value_name = "NAME", default_value = "")]
    pub black: String,
    /// White's player name.
    #[arg(long, value_name = "NAME", default_value = "")]
    pub white: String,
    /// Replace FILE if it exists, whatever it holds.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct RecordAddArgs {
    /// The record file (played under the rule set it names: no --rules).
    pub file: PathBuf,
    /// Moves in notation, played in turn (see the README for the notation).
    #[arg(value_name = "MOVE", required = true, num_args = 1..)]
    pub moves: Vec<String>,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The record file (played under the rule set it names: no --rules).
    pub file: PathBuf,
}

/// `--record FILE`: start from the position a record has reached.
#[derive(Args, Debug, Clone)]
pub struct RecordArg {
    /// Start from the position this game record has reached (under its rule set).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "rules"])]
    pub record: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// A position string, or a file holding one or a JSON position (default: the opening).
    #[arg(long, short = 'p', value_name = "POSITION")]
    pub position: Option<String>,
}

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

#[derive(Args, Debug)]
pub struct PieceArgs {
    /// Code, English name (any case; spaces, hyphens and apostrophes optional), alias or kanji.
    pub name: String,
    /// The square a lone piece stands on for its destinations (--json lists them; the card
    /// counts them): x,y (0-based from Black's left and back rank) or file.rank; default: the
    /// middle of the board, 17,17 in Taikyoku shogi.
    #[arg(long, value_name = "X,Y|FILE.RANK")]
    pub at: Option<String>,
    /// Print JSON: name, kanji, code, betza, promotes_to, at, destinations.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub record: RecordArg,
    /// Print JSON: {"moves": [{"from", "to", "path", "shots", "burnt", "captures", "own",
    /// "removed_by_effects", "changed_by_effects", "promotes", "notation"}]} ("shots": the
    /// squares it shoots, taken without going there; "burnt": the pieces a burning piece
    /// removes around it; "own": the captured squares that hold the mover's own pieces;
    /// "removed_by_effects": pieces the game's effects remove beyond "captures", such as a
    /// linked promotion's kills; "changed_by_effects": [{"at", "becomes"}], pieces they turn
    /// into another kind).
    #[arg(long)]
    pub json: bool,
    /// Also print the position string of the position.
    #[arg(long)]
    pub position_out: bool,
    /// Play these moves first (in notation), then list the moves.
    #[arg(long = "after", value_name = "MOVE", num_args = 1..)]
    pub after: Vec<String>,
}

/// The deepest perft asked for: the search keeps one move list per ply, and no position of
/// this game could be counted deeper in a lifetime (counts would overflow 64 bits long before).
pub const MAX_PERFT_DEPTH: u32 = 32;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of moves (plies), at most 32.
    #[arg(value_parser = clap::value_parser!(u32).range(..=MAX_PERFT_DEPTH as i64))]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub record: RecordArg,
    /// Print the count under each first move.
    #[arg(long)]
    pub divide: bool,
    /// Make and unmake every leaf move, as a search walks the tree, instead of counting the
    /// last ply's moves (slower; for timing).
    #[arg(long, conflicts_with = "divide")]
    pub no_bulk: bool,
}

#[derive(Args, Debug)]
pub struct RulesCmdArgs {
    /// Show only this rule set's differences from the default.
    pub name: Option<String>,
}

/// A failure to report to the user: printed on standard error, exit status 1. It wraps the
/// library's errors, which already say where (file, line, column) and why.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Data(#[from] DataError),
    #[error(transparent)]
    Terminal(#[from] TuiError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A command line that asks for something unknown or impossible.
    #[error("{0}")]
    Usage(String),
    /// Stopped by Ctrl-C (or SIGTERM, SIGHUP): what was done and what was not. Exit status 130.
    #[error("{0}")]
    Interrupted(String),
}

/// `--game`'s help: the built-in games, from their data.
fn game_help() -> String {
    let games = DataDir::Embedded
        .games()
        .map_or_else(|e| format!("({e})"), |g| describe_games(&g));
    format!("The game: {games} (default: the first)")
}

fn data_dir(cli_data: &Option<PathBuf>) -> DataDir {
    cli_data.as_ref().map_or(DataDir::Embedded, DataDir::dir)
}

/// Where the game data comes from and which game was asked for (`--data`, `--game`).
#[derive(Clone, Debug, Default)]
pub struct GameArgs {
    pub data: Option<PathBuf>,
    pub game: Option<String>,
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

/// The rules a replayed record is played under, again (the terminal game takes its own).
fn replay_rules(replay: &Replay) -> Result<Rules, CliError> {
    let rules = replay.history.rules();
    Ok(Rules::new(rules.game.clone(), &rules.rule_set.name)?)
}

/// A record is played under the rule set it names, so `--rules` (even before the command,
/// where clap does not see the conflict) is refused rather than silently ignored.
fn refuse_rules(rs: &Option<String>, file: &Path) -> Result<(), CliError> {
    match rs {
        Some(r) => Err(CliError::Usage(format!(
            "--rules {r} cannot be used with the record {}: a record is played under the rule set it names",
            file.display()
        ))),
        None => Ok(()),
    }
}

/// The rules and position of `--rules`/`--position`, or of `--record`.
pub(crate) fn rules_and_position(
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

pub(crate) fn out(s: &str) -> Result<(), CliError> {
    let mut o = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth reporting.
    match writeln!(o, "{s}") {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => r.map_err(CliError::from),
    }
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

/// Runs a parsed command line. `play` opens the terminal game.
pub fn run(
    cli: Cli,
    play: impl FnOnce(Rules, Position, PlayOptions) -> Result<(), TuiError>,
) -> Result<(), CliError> {
    let g = &GameArgs {
        data: cli.data.clone(),
        game: cli.game.clone(),
    };
    let rs = cli.rules.clone();
    match cli.command {
        None => {
            let rules = load_rules(g, &rs)?;
            let pos = rules.start_position();
            let options = PlayOptions {
                offer_resume: true,
                ..PlayOptions::default()
            };
            Ok(play(rules, pos, options)?)
        }
        Some(Command::Play(a)) => {
            let game = match &a.load {
                Some(file) => {
                    refuse_rules(&rs, file)?;
                    Some(load_replay(g, file)?)
                }
                None => None,
            };
            let rules = match &game {
                Some((_, replay)) => replay_rules(replay)?,
                None => load_rules(g, &rs)?,
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
        Some(Command::Replay(a)) => {
            refuse_rules(&rs, &a.file)?;
            let game = load_replay(g, &a.file)?;
            open_record(game, (a.ascii, a.theme, &a.players), true, play)
        }
        Some(Command::Recent(a)) => {
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
        Some(Command::Piece(a)) => piece(g, &rs, a),
        Some(Command::Pieces) => pieces(g, &rs),
        Some(Command::Moves(a)) => moves(g, &rs, a),
        Some(Command::Perft(a)) => perft(g, &rs, a),
        Some(Command::Rules(a)) => rules_cmd(g, &rs, a),
        Some(Command::Board(a)) => {
            let rules = load_rules(g, &rs)?;
            let pos = load_position(&rules, &a)?;
            out(&board_text(&rules, &pos))
        }
        Some(Command::Record(RecordCommand::New(a))) => record_new(g, &rs, a),
        Some(Command::Record(RecordCommand::Add(a))) => {
            refuse_rules(&rs, &a.file)?;
            record_add(g, a)
        }
        Some(Command::Check(a)) => {
            refuse_rules(&rs, &a.file)?;
            check(g, a)
        }
        Some(Command::Engine(a)) => {
            crate::atsi_engine::run(load_rules(g, &rs)?, &a).map_err(CliError::Usage)
        }
        Some(Command::Bestmove(a)) => crate::analysis::bestmove(g, &rs, a),
        Some(Command::Values(a)) => crate::analysis::values(g, &rs, a),
        Some(Command::Match(a)) => crate::engine_match::run(load_rules(g, &rs)?, a),
    }
}

/// Resolves a piece name or reports the close matches.
pub fn find_piece(rules: &Rules, name: &str) -> Result<KindId, CliError> {
    let cat = rules.catalogue();
    match cat.lookup(name) {
        Lookup::Found(k) => Ok(k),
        Lookup::Ambiguous(ks) => Err(CliError::Usage(format!(
            "{name:?} could be several pieces: {}",
            ks.iter()
                .map(|&k| format!("{} ({})", cat.kind(k).name, cat.kind(k).code))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        Lookup::NotFound(close) => Err(CliError::Usage(format!(
            "no piece is called {:?}{}",
            notation::shorten(name),
            notation::suggest(&close)
        ))),
    }
}

/// `--at`: `X,Y` (0-based) or a square `file.rank`, on the board.
fn parse_at(rules: &Rules, s: &str) -> Result<(i32, i32), CliError> {
    let dims = rules.dims();
    let bad = || {
        CliError::Usage(format!(
            "--at {s:?}: expected X,Y (0-{} each, e.g. {},{}) or a square file.rank (e.g. {}.{})",
            dims.files.max(dims.ranks) - 1,
            (dims.files - 1) / 2,
            (dims.ranks - 1) / 2,
            dims.files / 2 + 1,
            dims.ranks / 2 + 1
        ))
    };
    let (x, y) = match s.split_once(',') {
        Some((x, y)) => {
            let p = |t: &str| t.trim().parse::<i32>().map_err(|_| bad());
            (p(x)?, p(y)?)
        }
        None => dims.xy(dims.parse_square(s.trim()).ok_or_else(bad)?),
    };
    if dims.square(x, y).is_none() {
        return Err(CliError::Usage(format!(
            "--at {s:?}: square {x},{y} is off the {}×{} board",
            dims.files, dims.ranks
        )));
    }
    Ok((x, y))
}

/// The squares other than its own that a lone Black piece of `kind` on `(x, y)` of an empty
/// board can reach in one move.
pub fn lone_destinations(
    rules: &Rules,
    kind: KindId,
    x: i32,
    y: i32,
) -> Result<Vec<Square>, CliError> {
    let dims = rules.dims();
    let sq = dims.square(x, y).ok_or_else(|| {
        CliError::Usage(format!(
            "square {x},{y} is off the {}×{} board",
            dims.files, dims.ranks
        ))
    })?;
    let mut pos = rules.empty_position();
    let piece = Piece {
        kind,
        side: Side::Black,
        promoted: false,
    };
    rules.put(&mut pos, sq, Some(piece));
    // The start square is not a destination, even for pieces that can pass or igui.
    let mut to: Vec<Square> = rules
        .moves_from(&pos, sq)
        .iter()
        .map(|m| m.to)
        .filter(|&t| t != sq)
        .collect();
    to.sort();
    to.dedup();
    Ok(to)
}

fn piece(g: &GameArgs, rs: &Option<String>, a: PieceArgs) -> Result<(), CliError> {
    let rules = load_rules(g, rs)?;
    let k = find_piece(&rules, &a.name)?;
    let dims = rules.dims();
    let (x, y) = match &a.at {
        Some(at) => parse_at(&rules, at)?,
        None => ((dims.files as i32 - 1) / 2, (dims.ranks as i32 - 1) / 2),
    };
    let dests = lone_destinations(&rules, k, x, y)?;
    if a.json {
        let kind = rules.catalogue().kind(k);
        let reading = &rules.readings[k as usize];
        let v = json!({
            "name": kind.name,
            "kanji": kind.kanji,
            "code": kind.code,
            "betza": reading.betza,
            "promotes_to": reading.promotes_to.map(|p| rules.catalogue().kind(p).code.clone()),
            "at": [x, y],
            "destinations": dests.iter().map(|&s| { let (x, y) = dims.xy(s); json!([x, y]) }).collect::<Vec<_>>(),
        });
        return out(&v.to_string());
    }
    out(&piece_card(&PieceCard::new(&rules, k)))?;
    if a.at.is_some() {
        let sq = dims.square(x, y).expect("checked");
        out(&format!(
            "\nAlone on an empty board on {} ({x},{y}), it reaches {}.",
            dims.square_name(sq),
            count(dests.len(), "square")
        ))?;
    }
    Ok(())
}

/// A piece's card as text.
pub fn piece_card(card: &PieceCard) -> String {
    let name = |k: &KindName| format!("{} {} ({})", k.kanji, k.name, k.code);
    let mut lines = vec![format!("{} {} ({})", card.kanji, card.name, card.code)];
    if !card.aliases.is_empty() {
        lines.push(format!("Also called: {}", card.aliases.join(", ")));
    }
    lines.push(card.facts().join("; "));
    lines.push(format!("Rule set: {}", card.rule_set));
    lines.push(format!("Movement (Betza): {}", card.betza));
    lines.extend(card.movement.words.iter().map(|d| format!("  - {d}")));
    lines.push(format!(
        "Promotes to: {}",
        card.promotes_to
            .as_ref()
            .map_or("does not promote".to_string(), name)
    ));
    if !card.promoted_from.is_empty() {
        let from: Vec<String> = card
            .promoted_from
            .iter()
            .map(|k| format!("{} ({})", k.name, k.code))
            .collect();
        lines.push(format!("Promoted from: {}", from.join(", ")));
    }
    lines.push(format!("Captures: {}", card.movement.captures));
    if let Some(n) = &card.note {
        lines.push(format!("This rule set: {n}"));
    }
    if let Some(src) = &card.sources {
        lines.push(format!("Sources: {src}"));
    }
    let others: Vec<String> = card
        .other_readings
        .iter()
        .map(|o| {
            let promo = o.promotes_to.as_ref().map_or(String::new(), |p| {
                format!(", promotes to {}", p.as_deref().unwrap_or("nothing"))
            });
            format!("{}: {}{promo}", o.rule_set, o.betza)
        })
        .collect();
    if !others.is_empty() {
        lines.push(format!("Other rule sets: {}", others.join("; ")));
    }
    lines.push(String::new());
    let mut s = lines.join("\n");
    s.push('\n');
    s.push_str(&card.movement.diagram);
    s.push_str(explain::LEGEND);
    s
}

fn pieces(g: &GameArgs, rs: &Option<String>) -> Result<(), CliError> {
    let rules = load_rules(g, rs)?;
    let cat = rules.catalogue();
    for k in &cat.kinds {
        let r = &rules.readings[k.id as usize];
        out(&format!(
            "{:<4} {}  {:<28} {:<3} {:<40} {}",
            k.code,
            k.kanji,
            k.name,
            if k.count > 0 {
                k.count.to_string()
            } else {
                "-".into()
            },
            r.betza,
            r.promotes_to
                .map_or(String::new(), |p| format!("→ {}", cat.kind(p).code))
        ))?;
    }
    Ok(())
}

fn moves(g: &GameArgs, rs: &Option<String>, a: MovesArgs) -> Result<(), CliError> {
    let (rules, mut pos) = rules_and_position(g, rs, &a.position, &a.record)?;
    for m in &a.after {
        let mv = notation::parse_move(&rules, &pos, m).map_err(NotationError::from)?;
        rules.play_unchecked(&mut pos, &mv);
    }
    let moves = rules.legal_moves(&pos);
    let dims = pos.dims();
    let xy = |s: Square| {
        let (x, y) = dims.xy(s);
        json!([x, y])
    };
    let names = notation::move_strings(&rules, &pos, &moves);
    if a.json {
        let list: Vec<_> = moves
            .iter()
            .zip(&names)
            .map(|(m, name)| {
                let captures = rules.captures(&pos, m);
                let own = captures
                    .iter()
                    .filter(|&&s| pos.piece_at(s).is_some_and(|p| p.side == pos.to_move()));
                let fx = rules.effect_changes(&pos, m);
                let changed = fx.changed.iter().map(|&(s, p)| {
                    json!({ "at": xy(s), "becomes": rules.catalogue().kind(p.kind).code })
                });
                json!({
                    "from": xy(m.from),
                    "to": xy(m.to),
                    "path": m.path().iter().enumerate().filter(|&(i, _)| !m.is_shot(i)).map(|(_, &s)| xy(s)).collect::<Vec<_>>(),
                    "shots": m.shots().map(xy).collect::<Vec<_>>(),
                    "burnt": m.burnt(dims).map(xy).collect::<Vec<_>>(),
                    "captures": captures.iter().map(|&s| xy(s)).collect::<Vec<_>>(),
                    "own": own.map(|&s| xy(s)).collect::<Vec<_>>(),
                    "removed_by_effects": fx.removed.iter().map(|&s| xy(s)).collect::<Vec<_>>(),
                    "changed_by_effects": changed.collect::<Vec<_>>(),
                    "promotes": m.promotes(),
                    "notation": name,
                })
            })
            .collect();
        let mut v = json!({ "moves": list });
        if a.position_out {
            v["position"] = json!(notation::position_string(&rules, &pos));
        }
        return out(&v.to_string());
    }
    if a.position_out {
        out(&notation::position_string(&rules, &pos))?;
    }
    if let Some(o) = rules.outcome(&pos) {
        out(&format!(
            "The game is over: {} won ({}).",
            o.winner,
            o.reason.describe()
        ))?;
    }
    for name in &names {
        out(name)?;
    }
    out(&format!(
        "{} for {}",
        count(moves.len(), "move"),
        pos.to_move()
    ))
}

fn perft(g: &GameArgs, rs: &Option<String>, a: PerftArgs) -> Result<(), CliError> {
    let (rules, pos) = rules_and_position(g, rs, &a.position, &a.record)?;
    if a.divide {
        let mut total = 0;
        let divided = perft::divide(&rules, &pos, a.depth);
        let moves: Vec<_> = divided.iter().map(|&(m, _)| m).collect();
        let names = notation::move_strings(&rules, &pos, &moves);
        for ((_, n), name) in divided.iter().zip(names) {
            out(&format!("{name} {n}"))?;
            total += n;
        }
        if a.depth == 0 {
            total = 1;
        }
        return out(&total.to_string());
    }
    let n = if a.no_bulk {
        perft::perft_no_bulk(&rules, &pos, a.depth)
    } else {
        perft::perft(&rules, &pos, a.depth)
    };
    out(&n.to_string())
}

fn record_new(g: &GameArgs, rs: &Option<String>, a: RecordNewArgs) -> Result<(), CliError> {
    let rules = load_rules(g, rs)?;
    let pos = load_position(&rules, &a.position)?;
    let to_move = pos.to_move();
    let mut record = Record::new(&History::new(rules, pos));
    record.black = a.black;
    record.white = a.white;
    let overwrite = if a.force {
        Overwrite::Always
    } else {
        Overwrite::Never
    };
    store::save(&a.file, &record, overwrite).map_err(|e| match e {
        StoreError::Exists { file } => CliError::Usage(format!(
            "{file}: already exists (use --force to replace it)"
        )),
        e => e.into(),
    })?;
    out(&format!(
        "{}: a new game under {}; {} to move",
        a.file.display(),
        record.rules,
        to_move
    ))
}

/// Appends moves only if every one is legal, so a typo leaves the record as it was.
/// The record stays locked from reading to replacing it, so that another writer at the same
/// time waits and then sees these moves (or fails with a message), never loses them.
fn record_add(g: &GameArgs, a: RecordAddArgs) -> Result<(), CliError> {
    let lock = store::lock(&a.file)?;
    let (mut record, replay) = load_replay(g, &a.file)?;
    let mut history = replay.history;
    for text in &a.moves {
        let n = history.point();
        history.play_text(text).map_err(|e| {
            let e = record.move_error(n, text, e);
            CliError::Usage(format!("{e}; the record is unchanged"))
        })?;
    }
    record.update(&history);
    // The file was just loaded as a record, so replacing it loses nothing.
    lock.save(&record, Overwrite::Record)?;
    drop(lock);
    let n = record.moves().len();
    for m in &record.moves()[n - a.moves.len()..] {
        out(m)?;
    }
    out(&format!(
        "{}: {}; {}",
        a.file.display(),
        count(n, "move"),
        standing(&history)
    ))
}

/// "white to move", or the result once the game is over.
fn standing(history: &History) -> String {
    match history.outcome() {
        Some(o) => format!("the game is over: {}", record::describe_outcome(Some(o))),
        None => format!("{} to move", history.position().to_move()),
    }
}

fn check(g: &GameArgs, a: CheckArgs) -> Result<(), CliError> {
    let (record, replay) = load_replay(g, &a.file)?;
    let h = &replay.history;
    let pos = h.position();
    out(&format!("{}: every move is legal", a.file.display()))?;
    out(&format!("rules: {}", record.rules))?;
    out(&format!("moves: {}", h.point()))?;
    let result = match (h.outcome(), record.draw) {
        (None, None) => "none (the game goes on)".into(),
        (outcome, draw) => record::describe_result(outcome, draw),
    };
    out(&format!("result: {result}"))?;
    out(&format!("to move: {}", pos.to_move()))?;
    out(&format!(
        "position: {}",
        notation::position_string(h.rules(), pos)
    ))
}

fn rules_cmd(g: &GameArgs, rs: &Option<String>, a: RulesCmdArgs) -> Result<(), CliError> {
    let game = load_game(g)?;
    let cat = &game.catalogue;
    // `--rules NAME` is checked as everywhere else, and then means what NAME means here.
    let name = match (rs, &a.name) {
        (Some(r), Some(n)) if r != n => {
            return Err(CliError::Usage(format!(
                "--rules {r} and the rule set {n} disagree: give one of them"
            )));
        }
        (r, n) => n.clone().or(r.clone()),
    };
    let sets: Vec<_> = match &name {
        Some(n) => vec![game.rule_set(n).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown rule set {n:?}; the rule sets are: {}",
                game.rule_sets
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?],
        None => game.rule_sets.iter().collect(),
    };
    out(&format!(
        "{} (--game {}): {}×{} board; a side loses once it no longer has {}, or when it has no legal move.\nRule sets:\n",
        game.name,
        game.id,
        game.dims.files,
        game.dims.ranks,
        game.end.describe()
    ))?;
    for rs in &sets {
        let default = if rs.name == game.default_rules {
            " (default)"
        } else {
            ""
        };
        out(&format!(
            "{}{}\n  {}\n",
            rs.name,
            default,
            rs.summary.replace('\n', " ")
        ))?;
    }
    if !game.sources.is_empty() {
        out("Sources named below:")?;
        for (abbr, what) in &game.sources {
            out(&format!("  {abbr:<5} {what}"))?;
        }
        out("")?;
    }
    if game.rule_sets.len() < 2 {
        return Ok(());
    }
    out("Pieces the rule sets read differently:")?;
    let all: Vec<_> = game.rule_sets.iter().collect();
    for k in &cat.kinds {
        let readings: Vec<_> = all.iter().map(|r| game.reading(k, r)).collect();
        let differs = readings
            .iter()
            .any(|r| r.betza != readings[0].betza || r.promotes_to != readings[0].promotes_to);
        let shown = name.as_ref().is_none_or(|n| {
            k.overrides.contains_key(n)
                || sets
                    .iter()
                    .any(|s| s.readings.iter().any(|x| k.overrides.contains_key(x)))
        });
        if !differs || !shown {
            continue;
        }
        out(&format!("\n{} {} ({})", k.kanji, k.name, k.code))?;
        for (r, rd) in all.iter().zip(&readings) {
            let promo = rd
                .promotes_to
                .map_or("-".to_string(), |p| cat.kind(p).code.clone());
            out(&format!(
                "  {:<11} {:<44} promotes to {promo}",
                r.name, rd.betza
            ))?;
            if let Some(n) = &rd.note {
                out(&format!("  {:<11} {n}", ""))?;
            }
        }
    }
    Ok(())
}

/// The board as text: Black at the bottom, files and ranks labelled in the square notation.
pub fn board_text(rules: &Rules, pos: &Position) -> String {
    let dims = pos.dims();
    let cat = rules.catalogue();
    let mut s = String::new();
    let header: String = (0..dims.files as i32)
        .map(|x| format!("{:>4}", dims.files as i32 - x))
        .collect();
    s.push_str(&format!("    {header}\n"));
    for y in (0..dims.ranks as i32).rev() {
        s.push_str(&format!("{:>3} ", dims.ranks as i32 - y));
        for x in 0..dims.files as i32 {
            let sq = dims.square(x, y).expect("on the board");
            let cell = match pos.piece_at(sq) {
                None => "  .".to_string(),
                Some(p) => {
                    let code = &cat.kind(p.kind).code;
                    let code = if p.side == Side::White {
                        code.to_ascii_lowercase()
                    } else {
                        code.clone()
                    };
                    format!("{:>3}", if p.promoted { format!("+{code}") } else { code })
                }
            };
            s.push(' ');
            s.push_str(&cell);
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "{} to move; Black's pieces upper case, White's lower case, + promoted",
        pos.to_move()
    ));
    s
}

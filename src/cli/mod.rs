//! The command line: the terminal game's commands, piece cards, legal moves, perft, records,
//! rule-set differences, the search's commands, `taikyoku engine` and `taikyoku match`. It is
//! part of the binary (clap, stdout); the libraries it drives print nothing.
//!
//! Bottom to top, each module using only those below it: [`error`] and [`stdout`] → [`load`]
//! (the shared arguments and what they load) → one module per command or group of commands →
//! this one (the clap definitions of the command line and the dispatch).

pub mod analysis;
pub mod bench;
pub mod engine;
pub mod error;
pub mod load;
pub mod matches;
pub mod pieces;
pub mod play;
pub mod positions;
pub mod records;
pub mod review;
pub mod rules;
pub mod stdout;

pub use error::{CliError, shorten_long_words};

use clap::{Parser, Subcommand};
use load::{GameArgs, PositionArgs, load_rules};
use std::path::PathBuf;
use taikyoku_core::game::{DataDir, describe_games};

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
    Play(play::PlayArgs),
    /// Replay a game record in the terminal: step through it, or play on from any move.
    Replay(play::ReplayArgs),
    /// List recent and unfinished games (autosaves and the games folder); `recent N` opens
    /// the Nth to play on.
    Recent(play::RecentArgs),
    /// Show a piece's card: names, movement, promotion, sources and a move diagram.
    Piece(pieces::PieceArgs),
    /// List every piece kind.
    Pieces,
    /// List the legal moves of the side to move.
    Moves(positions::MovesArgs),
    /// Count the move sequences of a given length (performance test and regression check).
    Perft(positions::PerftArgs),
    /// List the rule sets and, piece by piece, where they differ.
    Rules(rules::RulesCmdArgs),
    /// List the games: board, pieces, kinds and rule sets.
    Games,
    /// Print a position as a board.
    Board(PositionArgs),
    /// Create a game record, or add moves to one.
    #[command(subcommand)]
    Record(records::RecordCommand),
    /// Replay a game record, checking every move; print where the game stands.
    Check(records::CheckArgs),
    /// Search a position and print the best move, its score, depth and principal variation.
    Bestmove(analysis::BestmoveArgs),
    /// Score every move of a record; name the better move where one lost more than a margin;
    /// --write puts the scores into the record.
    Analyse(review::AnalyseArgs),
    /// Print every kind's value as the engine's evaluation derives it from the data.
    Values(analysis::ValuesArgs),
    /// Search a fixed list of positions of every game to a fixed depth: the total nodes (the
    /// search's signature) and nodes a second.
    Bench(bench::BenchArgs),
    /// Be an ATSI v00 engine on stdin/stdout, or over WebSocket with --listen (the ATSA
    /// site's Play page connects to it).
    Engine(engine::EngineArgs),
    /// Play games between two ATSI engines: records, a line per game, score and Elo.
    Match(matches::MatchArgs),
}

/// `--game`'s help: the built-in games, from their data.
fn game_help() -> String {
    let games = DataDir::Embedded
        .games()
        .map_or_else(|e| format!("({e})"), |g| describe_games(&g));
    format!("The game: {games} (default: the first)")
}

/// Runs a parsed command line. `play` opens the terminal game.
pub fn run(cli: Cli, play: impl play::OpenGame) -> Result<(), CliError> {
    let g = &GameArgs {
        data: cli.data.clone(),
        game: cli.game.clone(),
    };
    let rs = &cli.rules;
    match cli.command {
        None => play::new_game(g, rs, play),
        Some(Command::Play(a)) => play::play(g, rs, a, play),
        Some(Command::Replay(a)) => play::replay(g, rs, a, play),
        Some(Command::Recent(a)) => play::recent(g, a, play),
        Some(Command::Piece(a)) => pieces::piece(g, rs, a),
        Some(Command::Pieces) => pieces::pieces(g, rs),
        Some(Command::Moves(a)) => positions::moves(g, rs, a),
        Some(Command::Perft(a)) => positions::perft(g, rs, a),
        Some(Command::Rules(a)) => rules::rules_cmd(g, rs, a),
        Some(Command::Games) => rules::games(g),
        Some(Command::Board(a)) => positions::board(g, rs, a),
        Some(Command::Record(c)) => records::record(g, rs, c),
        Some(Command::Check(a)) => records::check(g, rs, a),
        Some(Command::Engine(a)) => engine::run(engine::engine_rules(g, rs)?, &a),
        Some(Command::Bestmove(a)) => analysis::bestmove(g, rs, a),
        Some(Command::Values(a)) => analysis::values(g, rs, a),
        Some(Command::Analyse(a)) => review::analyse(g, rs, a),
        Some(Command::Bench(a)) => bench::bench(g, a),
        Some(Command::Match(a)) => matches::run(load_rules(g, rs)?, a),
    }
}

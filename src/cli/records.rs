//! Commands on game records: `taikyoku record new`, `taikyoku record add` and `taikyoku
//! check`. A record is played under the rule set it names, so none takes `--rules`.

use super::error::CliError;
use super::load::{
    GameArgs, PositionArgs, load_position, load_replay, load_rules, record_path, refuse_rules,
};
use super::stdout::out;
use crate::text::count;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use taikyoku_core::notation;
use taikyoku_records::history::History;
use taikyoku_records::record::{self, Record};
use taikyoku_records::store::{self, Overwrite, StoreError};

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

/// `taikyoku record new|add`.
pub fn record(g: &GameArgs, rs: &Option<String>, c: RecordCommand) -> Result<(), CliError> {
    match c {
        RecordCommand::New(a) => record_new(g, rs, a),
        RecordCommand::Add(a) => {
            refuse_rules(rs, &a.file)?;
            record_add(g, a)
        }
    }
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
    let file = record_path(&a.file);
    let lock = store::lock(&file)?;
    let (mut record, replay) = load_replay(g, &file)?;
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
        file.display(),
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

/// `taikyoku check`.
pub fn check(g: &GameArgs, rs: &Option<String>, a: CheckArgs) -> Result<(), CliError> {
    refuse_rules(rs, &a.file)?;
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

//! `taikyoku analyse`: every move of a record scored by the computer ([`crate::review`]), the
//! better move named where one lost more than a margin, a progress bar on a terminal for a
//! long game, and with `--write` the scores written into the record beside their moves.

use super::error::CliError;
use super::load::{GameArgs, load_replay, refuse_rules};
use super::stdout::out;
use crate::review::{self, Judged, MARGIN, Scored};
use clap::Args;
use serde_json::json;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;
use taikyoku_core::geometry::Side;
use taikyoku_core::position::Position;
use taikyoku_records::history::History;
use taikyoku_records::record::Record;
use taikyoku_records::store::{self, Overwrite};
use taikyoku_search::{Computer, Limits, SearchOptions, Stop};

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The game record to analyse.
    pub file: PathBuf,
    /// Search every position this many plies deep.
    #[arg(long, value_name = "N", conflicts_with = "time",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Think this many seconds about every position (default: 0.5 unless --depth is given).
    #[arg(long, value_name = "S")]
    pub time: Option<f64>,
    /// Name the better move where a move lost more than this many pawns.
    #[arg(long, value_name = "PAWNS", default_value_t = MARGIN as f64 / 100.0)]
    pub margin: f64,
    /// Write the scores into the record, a comment beside each move (older programs read
    /// the record as before). The record must not have changed since it was read.
    #[arg(long)]
    pub write: bool,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub hash: usize,
    /// Print JSON: {"file", "moves": [{"number", "side", "move", "eval", "loss", "better",
    /// "better_eval", "depth"}], "worst"}.
    #[arg(long)]
    pub json: bool,
}

/// Games of more positions than this show a progress bar (on a terminal).
const LONG_GAME: usize = 20;
/// The worst moves named at the end.
const WORST: usize = 3;

/// `taikyoku analyse`.
pub fn analyse(g: &GameArgs, rs: &Option<String>, a: AnalyseArgs) -> Result<(), CliError> {
    refuse_rules(rs, &a.file)?;
    let limits = limits(&a)?;
    let margin = pawns_arg(a.margin)?;
    // What the file held when read: --write replaces only that.
    let read = store::stamp(&a.file).ok().flatten();
    let (mut record, replay) = load_replay(g, &a.file)?;
    let h = &replay.history;
    let positions = positions(h);
    let scores = score_all(h, &positions, &limits, a.hash);
    let moves: Vec<_> = h.line()[..h.point()]
        .iter()
        .map(|p| (p.side, p.text.clone(), p.mv))
        .collect();
    let judged = review::judge(h.rules(), &positions, &moves, &scores, margin);
    let worst = review::worst(&judged, WORST);
    match a.json {
        true => print_json(&a.file, &judged, &worst)?,
        false => print_text(&a.file, &judged, &worst)?,
    }
    if a.write {
        write_notes(&a.file, &mut record, &judged, read)?;
    }
    Ok(())
}

/// The search's limits per position.
fn limits(a: &AnalyseArgs) -> Result<Limits, CliError> {
    let time = match (a.time, a.depth) {
        (Some(s), _) if !(s.is_finite() && s > 0.0 && s < 1e6) => {
            return Err(CliError::Usage(format!(
                "--time {s}: expected seconds above 0"
            )));
        }
        (Some(s), _) => Some(Duration::from_secs_f64(s)),
        (None, None) => Some(Duration::from_millis(500)),
        (None, Some(_)) => None,
    };
    Ok(Limits {
        depth: a.depth,
        movetime: time,
        ..Limits::default()
    })
}

/// `--margin` in the search's units.
fn pawns_arg(p: f64) -> Result<i32, CliError> {
    match p {
        p if p.is_finite() && (0.0..=1000.0).contains(&p) => Ok((p * 100.0).round() as i32),
        p => Err(CliError::Usage(format!(
            "--margin {p}: expected pawns from 0 to 1000"
        ))),
    }
}

/// The positions of the line up to its point: before each move, then after the last.
fn positions(h: &History) -> Vec<Position> {
    let mut pos = h.start().clone();
    let mut out = vec![pos.clone()];
    for p in &h.line()[..h.point()] {
        h.rules().play_unchecked(&mut pos, &p.mv);
        out.push(pos.clone());
    }
    out
}

/// Every position searched, with a progress bar on a terminal for a long game.
fn score_all(h: &History, positions: &[Position], limits: &Limits, hash: usize) -> Vec<Scored> {
    let opts = SearchOptions {
        hash_mb: hash,
        ..SearchOptions::default()
    };
    let mut computer = Computer::new(h.shared_rules(), opts);
    let bar = match std::io::stderr().is_terminal() && positions.len() > LONG_GAME {
        true => indicatif::ProgressBar::new(positions.len() as u64),
        false => indicatif::ProgressBar::hidden(),
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let stop = Stop::default();
    let scores = positions
        .iter()
        .map(|pos| {
            let s = review::score(&mut computer, pos, limits, &stop);
            bar.inc(1);
            s
        })
        .collect();
    bar.finish_and_clear();
    scores
}

fn mark(s: Side) -> &'static str {
    match s {
        Side::Black => "▲",
        Side::White => "△",
    }
}

fn print_text(file: &Path, judged: &[Judged], worst: &[usize]) -> Result<(), CliError> {
    out(&format!(
        "{}: {} analysed (scores for Black, in pawns)",
        file.display(),
        crate::text::count(judged.len(), "move")
    ))?;
    for j in judged {
        let better = match &j.better {
            Some((m, s)) => format!(
                "  loses {:.2}; better {m} ({})",
                j.loss as f64 / 100.0,
                review::pawns(if j.side == Side::Black { *s } else { -*s })
            ),
            None => String::new(),
        };
        out(&format!(
            "{:>4}. {} {:<24} {:>7}{better}",
            j.number,
            mark(j.side),
            j.text,
            review::pawns(j.eval)
        ))?;
    }
    let named: Vec<String> = worst
        .iter()
        .map(|&n| {
            let j = &judged[n - 1];
            format!("{n}. {} (loses {:.2})", j.text, j.loss as f64 / 100.0)
        })
        .collect();
    out(&match named.is_empty() {
        true => "worst: none lost more than the margin".to_string(),
        false => format!("worst: {}", named.join(", ")),
    })
}

fn print_json(file: &Path, judged: &[Judged], worst: &[usize]) -> Result<(), CliError> {
    let moves: Vec<_> = judged
        .iter()
        .map(|j| {
            json!({"number": j.number, "side": j.side.name(), "move": j.text,
                   "eval": j.eval, "loss": j.loss,
                   "better": j.better.as_ref().map(|b| &b.0),
                   "better_eval": j.better.as_ref().map(|b| b.1),
                   "depth": j.depth})
        })
        .collect();
    out(&json!({"file": file.display().to_string(), "moves": moves, "worst": worst}).to_string())
}

/// Writes the scores into the record beside their moves, atomically, and only over what was
/// read (a record changed since is left alone).
fn write_notes(
    file: &Path,
    record: &mut Record,
    judged: &[Judged],
    read: Option<store::Stamp>,
) -> Result<(), CliError> {
    let Some(read) = read else {
        return Err(CliError::Usage(format!(
            "{}: the record is gone; nothing written",
            file.display()
        )));
    };
    record.set_notes(judged.iter().map(Judged::note));
    store::lock(file)?.save(record, Overwrite::Unchanged(read))?;
    eprintln!(
        "taikyoku: {}: the scores are written beside the moves",
        file.display()
    );
    Ok(())
}

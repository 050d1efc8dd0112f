//! `taikyoku bench` (as Stockfish's `bench`): the search's fixed workload. A list of
//! positions from every game ([`POSITIONS`], `benches/positions.txt`), each searched to a
//! fixed depth on one thread with a fresh table; the total number of nodes is the search's
//! signature (it changes only when the search does: commit messages that change the search
//! give it), and the nodes a second its speed.

use super::error::CliError;
use super::load::GameArgs;
use super::stdout::out;
use clap::Args;
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use taikyoku_core::game::{DataDir, Game};
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_search::{Computer, Limits, SearchOptions, Stop};

/// The built-in list: `GAME RULES DEPTH POSITION` a line (see the file's head).
pub const POSITIONS: &str = include_str!("../../benches/positions.txt");

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search every position to this depth instead of the depth its line gives.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Read the positions from this file (same format as benches/positions.txt).
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Transposition table size in MiB (part of what the signature depends on).
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
    /// Print JSON: {"nodes", "nps", "seconds", "positions": [{"game", "rules", "depth",
    /// "nodes", "seconds", "move"}]}.
    #[arg(long)]
    pub json: bool,
}

/// A bad line of a positions file, with where it is.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}:{column}: {reason}")]
pub struct BenchError {
    file: String,
    line: usize,
    column: usize,
    reason: String,
}

/// One line of the list.
struct BenchPosition {
    game: String,
    rules: String,
    depth: u32,
    /// A position string, or `start`.
    position: String,
    /// Where the position is in the file.
    line: usize,
    column: usize,
}

/// Reads `GAME RULES DEPTH POSITION` lines (the position: the rest of the line, a position
/// string or `start`); `#` starts a comment line.
fn parse_positions(file: &str, text: &str) -> Result<Vec<BenchPosition>, BenchError> {
    let mut list = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_start();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |column: usize, reason: String| BenchError {
            file: file.into(),
            line: i + 1,
            column: column + 1 + raw.len() - line.len(),
            reason,
        };
        // Each field with its offset in `line`; the position is the rest of the line.
        let mut off = 0;
        let mut field = || {
            let s = &line[off..];
            let start = s.len() - s.trim_start().len();
            let len = s[start..]
                .find(char::is_whitespace)
                .unwrap_or(s.len() - start);
            off += start + len;
            (&s[start..start + len], off - len)
        };
        let (game, rules, (depth, column)) = (field().0, field().0, field());
        let position = line[off..].trim();
        if position.is_empty() {
            return Err(at(0, "expected GAME RULES DEPTH POSITION".into()));
        }
        let depth = match depth.parse::<u32>() {
            Ok(d @ 1..=60) => d,
            _ => return Err(at(column, format!("depth {depth:?}: expected 1 to 60"))),
        };
        list.push(BenchPosition {
            game: game.into(),
            rules: rules.into(),
            depth,
            position: position.into(),
            line: i + 1,
            column: raw.len() - line[off..].trim_start().len() + 1,
        });
    }
    Ok(list)
}

/// What one position's search took.
struct Searched {
    nodes: u64,
    time: Duration,
    mv: String,
}

/// `taikyoku bench`.
pub fn bench(g: &GameArgs, a: BenchArgs) -> Result<(), CliError> {
    let (file, text) = match &a.positions {
        Some(p) => (p.display().to_string(), std::fs::read_to_string(p)?),
        None => ("benches/positions.txt".to_string(), POSITIONS.to_string()),
    };
    let list = parse_positions(&file, &text)?;
    let data = g.data.as_ref().map_or(DataDir::Embedded, DataDir::dir);
    let mut loaded: HashMap<(String, String), Arc<Rules>> = HashMap::new();
    let (mut nodes, mut time, mut rows) = (0, Duration::ZERO, Vec::new());
    for (n, b) in list.iter().enumerate() {
        let key = (b.game.clone(), b.rules.clone());
        let rules = match loaded.get(&key) {
            Some(r) => r.clone(),
            None => {
                let r = Arc::new(Rules::new(Game::find(&data, &b.game)?, &b.rules)?);
                loaded.entry(key).or_insert(r).clone()
            }
        };
        let depth = a.depth.unwrap_or(b.depth);
        let pos = match b.position.as_str() {
            "start" => rules.start_position(),
            p => notation::parse_position_string(&rules, p).map_err(|e| BenchError {
                file: file.clone(),
                line: b.line,
                column: b.column,
                reason: e.to_string(),
            })?,
        };
        let s = search(&rules, &pos, depth, a.hash);
        nodes += s.nodes;
        time += s.time;
        if !a.json {
            let t = s.time.as_secs_f64();
            eprintln!(
                "{:>2} {}/{} depth {depth}: {} nodes, {t:.2} s, {}",
                n + 1,
                b.game,
                b.rules,
                s.nodes,
                s.mv
            );
        }
        rows.push(
            json!({"game": b.game, "rules": b.rules, "depth": depth, "nodes": s.nodes,
                         "seconds": s.time.as_secs_f64(), "move": s.mv}),
        );
    }
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64;
    if a.json {
        let v = json!({"nodes": nodes, "nps": nps, "seconds": time.as_secs_f64(),
                       "positions": rows});
        return out(&v.to_string());
    }
    out(&format!(
        "nodes {nodes}\nnps {nps}\ntime {:.2} s",
        time.as_secs_f64()
    ))
}

/// Searches `pos` to `depth`: one thread, a fresh table, seed 0.
fn search(rules: &Arc<Rules>, pos: &Position, depth: u32, hash: usize) -> Searched {
    let opts = SearchOptions {
        hash_mb: hash,
        threads: 1,
        seed: 0,
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut computer = Computer::new(rules.clone(), opts);
    let start = Instant::now();
    let r = computer.think(pos, &limits, &Stop::default(), &mut |_| {});
    let time = start.elapsed();
    let mv = r
        .best
        .map_or("-".into(), |m| notation::move_string(rules, pos, &m));
    Searched {
        nodes: r.nodes,
        time,
        mv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_list_reads_and_names_every_game() {
        let list = parse_positions("positions.txt", POSITIONS).expect("reads");
        for game in ["taikyoku", "sho", "koshogi"] {
            assert!(list.iter().any(|b| b.game == game), "{game} missing");
        }
    }

    #[test]
    fn a_bad_line_says_where() {
        let e = parse_positions("f", "# c\n\nsho standard x start\n")
            .err()
            .expect("bad");
        assert_eq!(e.to_string(), "f:3:14: depth \"x\": expected 1 to 60");
        let e = parse_positions("f", "  sho standard\n").err().expect("bad");
        assert_eq!(e.to_string(), "f:1:3: expected GAME RULES DEPTH POSITION");
    }
}

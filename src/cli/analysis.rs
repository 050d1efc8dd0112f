//! The computer's commands: `taikyoku bestmove` (search a position) and `taikyoku values`
//! (the piece values the evaluation derives from the data).

use super::error::CliError;
use super::load::{GameArgs, PositionArgs, RecordArg, load_rules, rules_and_position};
use super::stdout::out;
use clap::Args;
use serde_json::json;
use std::time::Duration;
use taikyoku_core::notation;
use taikyoku_protocol::serve::Settings;
use taikyoku_search::values;
use taikyoku_search::{Computer, Info, Limits, SearchOptions, Stats, Stop, plies_to_end};

#[derive(Args, Debug)]
pub struct BestmoveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub record: RecordArg,
    /// Think this many seconds (default: 5 unless --nodes or --depth is given).
    #[arg(long, value_name = "S", conflicts_with_all = ["nodes", "depth"])]
    pub time: Option<f64>,
    /// Stop after this many nodes (deterministic).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search this many plies deep (1 to 63: the search goes no deeper).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=63))]
    pub depth: Option<u32>,
    /// Transposition table size in MiB (1 to 4096, as `engine --hash`).
    #[arg(long, value_name = "MB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=Settings::MAX_HASH))]
    pub hash: u64,
    /// Seed for breaking ties between equal moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search threads (1: deterministic for a given seed and node limit).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Weights of the evaluation's terms, NAME=N pairs (mobility, stake, hunt; 0 switches
    /// one off).
    #[arg(long, value_name = "WEIGHTS", default_value = "")]
    pub eval: String,
    /// Also print the tree's shape per depth: its nodes, the effective branching factor, the
    /// quiescence search's share, the table's hit rate and how often the first move cut
    /// (with --json: "stats", one object a depth).
    #[arg(long)]
    pub stats: bool,
    /// Print JSON: {"move", "score", "depth", "pv", "nodes", "nps"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ValuesArgs {
    /// Print JSON: [{"code", "name", "power", "derived", "value", "overridden"}].
    #[arg(long)]
    pub json: bool,
}

/// `taikyoku bestmove`.
pub fn bestmove(g: &GameArgs, rs: &Option<String>, a: BestmoveArgs) -> Result<(), CliError> {
    let (rules, pos) = rules_and_position(g, rs, &a.position, &a.record)?;
    let time = match a.time {
        Some(s) if !(s.is_finite() && s > 0.0 && s < 1e6) => {
            return Err(CliError::Usage(format!(
                "--time {s}: expected seconds above 0"
            )));
        }
        Some(s) => Some(Duration::from_secs_f64(s)),
        None if a.nodes.is_none() && a.depth.is_none() => Some(Duration::from_secs(5)),
        None => None,
    };
    let limits = Limits {
        depth: a.depth,
        nodes: a.nodes,
        movetime: time,
        ..Limits::default()
    };
    let opts = SearchOptions {
        hash_mb: a.hash as usize,
        threads: a.threads as usize,
        seed: a.seed,
    };
    let weights = (a.eval.parse()).map_err(|e| CliError::Usage(format!("--eval: {e}")))?;
    let mut computer = Computer::new(rules.clone(), opts);
    computer.set_weights(weights);
    let json = a.json;
    let mut depths = Vec::new();
    let mut progress = |i: &Info| {
        depths.push((i.depth, i.stats));
        if !json {
            let pv = notation_line(&rules, &pos, &i.pv).join(" ");
            let score = score_text(i.score);
            eprintln!("depth {} score {score} nodes {} {pv}", i.depth, i.nodes);
        }
    };
    let r = computer.think(&pos, &limits, &Stop::default(), &mut progress);
    let Some(best) = r.best else {
        return Err(CliError::Usage("no legal move: the game is over".into()));
    };
    let pv = notation_line(&rules, &pos, &r.pv);
    let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-6)) as u64;
    let mv = notation::move_string(&rules, &pos, &best);
    let shape = a.stats.then(|| tree_shape(&depths));
    if json {
        let mut v = json!({"move": mv, "score": r.score, "depth": r.depth, "pv": pv,
                           "nodes": r.nodes, "nps": nps});
        if let Some(n) = plies_to_end(r.score) {
            v["end_in"] = json!(n);
        }
        if let Some(rows) = shape {
            v["stats"] = json!(rows.iter().map(DepthShape::to_json).collect::<Vec<_>>());
        }
        return out(&v.to_string());
    }
    out(&format!(
        "bestmove {mv}\nscore {}\ndepth {}\npv {}\nnodes {}\nnps {nps}",
        score_text(r.score),
        r.depth,
        pv.join(" "),
        r.nodes
    ))?;
    if let Some(rows) = shape {
        out("depth      nodes    ebf  quiescence  table-hits  first-move-cuts")?;
        for d in rows {
            out(&d.to_line())?;
        }
    }
    Ok(())
}

/// A score as the user reads it: a won or lost game says in how many plies it ends.
fn score_text(score: i32) -> String {
    match plies_to_end(score) {
        Some(n) if n > 0 => format!("{score} (wins in {n} plies)"),
        Some(n) => format!("{score} (loses in {} plies)", -n),
        None => score.to_string(),
    }
}

/// One iteration's tree ([`Stats`] of the main thread, the iteration's share).
struct DepthShape {
    depth: u32,
    nodes: u64,
    /// This iteration's nodes over the last one's.
    ebf: Option<f64>,
    /// Shares of the iteration's nodes, probes and cuts, in per cent.
    quiescence: f64,
    table_hits: f64,
    first_cuts: f64,
}

/// Per completed depth, the counters' growth over the iteration before.
fn tree_shape(depths: &[(u32, Stats)]) -> Vec<DepthShape> {
    let pct = |a: u64, b: u64| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    let mut last = Stats::default();
    let mut last_nodes = None;
    let mut rows = Vec::new();
    for &(depth, s) in depths {
        let nodes = s.nodes - last.nodes;
        rows.push(DepthShape {
            depth,
            nodes,
            ebf: last_nodes.map(|l: u64| nodes as f64 / l.max(1) as f64),
            quiescence: pct(s.qnodes - last.qnodes, nodes),
            table_hits: pct(s.tt_hits - last.tt_hits, s.tt_probes - last.tt_probes),
            first_cuts: pct(s.first_cuts - last.first_cuts, s.cuts - last.cuts),
        });
        last = s;
        last_nodes = Some(nodes);
    }
    rows
}

impl DepthShape {
    fn to_line(&self) -> String {
        let ebf = self.ebf.map_or("-".into(), |e| format!("{e:.2}"));
        format!(
            "{:>5} {:>10} {:>6} {:>10.1}% {:>10.1}% {:>15.1}%",
            self.depth, self.nodes, ebf, self.quiescence, self.table_hits, self.first_cuts
        )
    }

    fn to_json(&self) -> serde_json::Value {
        json!({"depth": self.depth, "nodes": self.nodes, "ebf": self.ebf,
               "quiescence": self.quiescence, "table_hits": self.table_hits,
               "first_move_cuts": self.first_cuts})
    }
}

/// The moves of a line in notation, each in the position it is played from.
fn notation_line(
    rules: &taikyoku_core::rules::Rules,
    pos: &taikyoku_core::position::Position,
    line: &[taikyoku_core::moves::Move],
) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|m| {
            let s = notation::move_string(rules, &p, m);
            rules.play_unchecked(&mut p, m);
            s
        })
        .collect()
}

/// `taikyoku values`.
pub fn values(g: &GameArgs, rs: &Option<String>, a: ValuesArgs) -> Result<(), CliError> {
    let rules = load_rules(g, rs)?;
    let table = values::kind_values(&rules);
    let kinds = &rules.catalogue().kinds;
    if a.json {
        let list: Vec<_> = table
            .iter()
            .map(|v| {
                let k = &kinds[v.kind as usize];
                json!({"code": k.code, "name": k.name, "power": (v.power * 100.0).round() / 100.0,
                       "derived": v.derived, "value": v.value, "overridden": v.overridden})
            })
            .collect();
        return out(&json!(list).to_string());
    }
    let mut rows: Vec<_> = table.iter().collect();
    rows.sort_by_key(|v| std::cmp::Reverse(v.value));
    out(&format!(
        "{:<6} {:>7} {:>7}  {}",
        "code", "power", "value", "name"
    ))?;
    for v in rows {
        let k = &kinds[v.kind as usize];
        let mark = if v.overridden {
            format!(" (data; formula {})", v.derived)
        } else {
            String::new()
        };
        out(&format!(
            "{:<6} {:>7.2} {:>7}  {}{mark}",
            k.code, v.power, v.value, k.name
        ))?;
    }
    out(&format!(
        "value = {} × power^{} (+{} royal, +{}% of what promotion adds); power: average moves \
         on crowded sample boards, a capture counting 1.5 per piece it removes",
        values::BASE,
        values::EXPONENT,
        values::ROYAL_BONUS,
        values::PROMOTION_SHARE
    ))
}

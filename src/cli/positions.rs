//! Commands on a position: `taikyoku board` (it as text), `taikyoku moves` (its legal moves)
//! and `taikyoku perft` (the move sequences from it, counted).

use super::error::CliError;
use super::load::{
    GameArgs, PositionArgs, RecordArg, load_position, load_rules, rules_and_position,
};
use super::stdout::out;
use crate::text::count;
use clap::Args;
use serde_json::json;
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::moves::Move;
use taikyoku_core::notation::{self, NotationError};
use taikyoku_core::perft;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

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

/// `taikyoku moves`.
pub fn moves(g: &GameArgs, rs: &Option<String>, a: MovesArgs) -> Result<(), CliError> {
    let (rules, mut pos) = rules_and_position(g, rs, &a.position, &a.record)?;
    for m in &a.after {
        let mv = notation::parse_move(&rules, &pos, m).map_err(NotationError::from)?;
        rules.play_unchecked(&mut pos, &mv);
    }
    let moves = rules.legal_moves(&pos);
    let names = notation::move_strings(&rules, &pos, &moves);
    if a.json {
        let list: Vec<_> = moves
            .iter()
            .zip(&names)
            .map(|(m, name)| move_json(&rules, &pos, m, name))
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

/// A legal move as `taikyoku moves --json` lists it (squares as `[x, y]`).
fn move_json(rules: &Rules, pos: &Position, m: &Move, name: &str) -> serde_json::Value {
    let dims = pos.dims();
    let xy = |s: Square| {
        let (x, y) = dims.xy(s);
        json!([x, y])
    };
    let captures = rules.captures(pos, m);
    let own = captures
        .iter()
        .filter(|&&s| pos.piece_at(s).is_some_and(|p| p.side == pos.to_move()));
    let fx = rules.effect_changes(pos, m);
    let changed = fx
        .changed
        .iter()
        .map(|&(s, p)| json!({ "at": xy(s), "becomes": rules.catalogue().kind(p.kind).code }));
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

/// `taikyoku perft`.
pub fn perft(g: &GameArgs, rs: &Option<String>, a: PerftArgs) -> Result<(), CliError> {
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

/// `taikyoku board`.
pub fn board(g: &GameArgs, rs: &Option<String>, a: PositionArgs) -> Result<(), CliError> {
    let rules = load_rules(g, rs)?;
    let pos = load_position(&rules, &a)?;
    out(&board_text(&rules, &pos))
}

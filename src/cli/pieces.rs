//! `taikyoku piece` (a piece's card, or its destinations as JSON) and `taikyoku pieces` (every
//! kind in a line).

use super::error::CliError;
use super::load::{GameArgs, load_rules};
use super::stdout::out;
use crate::text::count;
use clap::Args;
use serde_json::json;
use taikyoku_core::card::{KindName, PieceCard};
use taikyoku_core::catalogue::{KindId, Lookup};
use taikyoku_core::explain;
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::notation;
use taikyoku_core::piece::Piece;
use taikyoku_core::rules::Rules;

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

pub fn piece(g: &GameArgs, rs: &Option<String>, a: PieceArgs) -> Result<(), CliError> {
    let rules = load_rules(g, rs)?;
    let kinds = find_pieces(&rules, &a.name)?;
    let dims = rules.dims();
    let (x, y) = match &a.at {
        Some(at) => parse_at(&rules, at)?,
        None => ((dims.files as i32 - 1) / 2, (dims.ranks as i32 - 1) / 2),
    };
    // A label several kinds share stands for each of them: every one is shown.
    if a.json {
        let all = kinds
            .iter()
            .map(|&k| piece_json(&rules, k, x, y))
            .collect::<Result<Vec<_>, _>>()?;
        return match &all[..] {
            [one] => out(&one.to_string()),
            _ => out(&serde_json::Value::Array(all).to_string()),
        };
    }
    if kinds.len() > 1 {
        out(&format!(
            "{:?} stands for {}:\n",
            a.name,
            count(kinds.len(), "kind")
        ))?;
    }
    for (i, &k) in kinds.iter().enumerate() {
        if i > 0 {
            out(&format!("\n{}\n", "─".repeat(40)))?;
        }
        out(&piece_card(&PieceCard::new(&rules, k)))?;
        if a.at.is_some() {
            let dests = lone_destinations(&rules, k, x, y)?;
            let sq = dims.square(x, y).expect("checked");
            out(&format!(
                "\nAlone on an empty board on {} ({x},{y}), it reaches {}.",
                dims.square_name(sq),
                count(dests.len(), "square")
            ))?;
        }
    }
    Ok(())
}

/// `piece --json`: a kind and where a lone one on `(x, y)` can go.
fn piece_json(rules: &Rules, k: KindId, x: i32, y: i32) -> Result<serde_json::Value, CliError> {
    let dims = rules.dims();
    let dests = lone_destinations(rules, k, x, y)?;
    let kind = rules.catalogue().kind(k);
    let reading = &rules.readings[k as usize];
    Ok(json!({
        "name": kind.name,
        "kanji": kind.kanji,
        "code": kind.code,
        "betza": reading.betza,
        "promotes_to": reading.promotes_to.map(|p| rules.catalogue().kind(p).code.clone()),
        "at": [x, y],
        "destinations": dests.iter().map(|&s| { let (x, y) = dims.xy(s); json!([x, y]) }).collect::<Vec<_>>(),
    }))
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

pub fn pieces(g: &GameArgs, rs: &Option<String>) -> Result<(), CliError> {
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

/// The kinds a piece name stands for (several for a label they share), or the close
/// matches.
pub fn find_pieces(rules: &Rules, name: &str) -> Result<Vec<KindId>, CliError> {
    match rules.catalogue().lookup(name) {
        Lookup::Found(k) => Ok(vec![k]),
        Lookup::Ambiguous(ks) => Ok(ks),
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
        None => match dims.parse_square(s.trim()) {
            Some(sq) => dims.xy(sq),
            // A file.rank of numbers that is not on the board is off it, not malformed.
            None if s
                .trim()
                .split_once('.')
                .is_some_and(|(f, r)| f.parse::<u32>().is_ok() && r.parse::<u32>().is_ok()) =>
            {
                return Err(CliError::Usage(format!(
                    "--at {s:?}: square {} is off the {}×{} board (files and ranks 1-{})",
                    s.trim(),
                    dims.files,
                    dims.ranks,
                    dims.files.max(dims.ranks)
                )));
            }
            None => return Err(bad()),
        },
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

//! `taikyoku rules`: the game's rule sets and, piece by piece, where they differ.

use super::error::CliError;
use super::load::{GameArgs, data_dir, load_game};
use super::stdout::out;
use clap::Args;
use taikyoku_core::game::{Game, RuleSet};
use taikyoku_core::rules::Rules;

#[derive(Args, Debug)]
pub struct RulesCmdArgs {
    /// Show only this rule set's differences from the default.
    pub name: Option<String>,
}

/// `taikyoku rules [NAME]`.
pub fn rules_cmd(g: &GameArgs, rs: &Option<String>, a: RulesCmdArgs) -> Result<(), CliError> {
    let game = load_game(g)?;
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
    print_rule_sets(&game, &sets)?;
    if game.rule_sets.len() < 2 {
        return Ok(());
    }
    print_differences(&game, name.as_deref(), &sets)
}

/// `taikyoku games`: a line per game of the data directory (`--game` is not read): its id
/// and name, board, the pieces of its setup and the kinds of its catalogue, and its rule sets,
/// the default first.
pub fn games(g: &GameArgs) -> Result<(), CliError> {
    let data = data_dir(&g.data);
    for entry in data.games()? {
        let game = Game::load(&data, &entry.id)?;
        let (files, ranks, kinds) = (game.dims.files, game.dims.ranks, game.catalogue.len());
        let mut sets = vec![game.default_rules.clone()];
        sets.extend(
            (game.rule_sets.iter())
                .filter(|r| r.name != game.default_rules)
                .map(|r| r.name.clone()),
        );
        let rules = Rules::new(game, &sets[0])?;
        let pieces = rules.start_position().pieces().count();
        out(&format!(
            "{:<10} {:<16} {files}×{ranks}, {pieces} pieces ({} a side), {kinds} kinds; rule sets: {} (default){}",
            entry.id,
            entry.name,
            pieces / 2,
            sets[0],
            sets[1..]
                .iter()
                .map(|s| format!(", {s}"))
                .collect::<String>()
        ))?;
    }
    Ok(())
}

/// The game in a line, then each rule set shown (its name and summary) and the sources.
fn print_rule_sets(game: &Game, sets: &[&RuleSet]) -> Result<(), CliError> {
    out(&format!(
        "{} (--game {}): {}×{} board; a side loses once it no longer has {}, or when it has no legal move.\nRule sets:\n",
        game.name,
        game.id,
        game.dims.files,
        game.dims.ranks,
        game.end.describe()
    ))?;
    for rs in sets {
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
    Ok(())
}

/// Every piece the rule sets read differently (with `name`, only those its rule sets
/// override), each rule set's reading in a line.
fn print_differences(game: &Game, name: Option<&str>, sets: &[&RuleSet]) -> Result<(), CliError> {
    let cat = &game.catalogue;
    out("Pieces the rule sets read differently:")?;
    let all: Vec<_> = game.rule_sets.iter().collect();
    for k in &cat.kinds {
        let readings: Vec<_> = all.iter().map(|r| game.reading(k, r)).collect();
        let differs = readings
            .iter()
            .any(|r| r.betza != readings[0].betza || r.promotes_to != readings[0].promotes_to);
        let shown = name.is_none_or(|n| {
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

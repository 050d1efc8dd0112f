//! Games as data: `rules/<game>.toml` names the catalogue and the setup and defines the rule
//! sets; [`DataDir`] finds the data files, built in or in a directory.

use crate::catalogue::{Catalogue, PieceKind, Reading};
use crate::error::{DataError, Source, utf8_text};
use crate::movegen::{GenRules, Promotion, RangeRules};
use crate::setup::Setup;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The data files of the games, built into the program and optionally read from a directory.
#[derive(Clone, Debug)]
pub enum DataDir {
    Embedded,
    Dir(PathBuf),
}

const EMBEDDED: &[(&str, &str)] = &[
    (
        "rules/taikyoku.toml",
        include_str!("../rules/taikyoku.toml"),
    ),
    ("pieces.toml", include_str!("../pieces.toml")),
    (
        "setups/taikyoku.toml",
        include_str!("../setups/taikyoku.toml"),
    ),
];

/// A data file's path, if it stays inside the data directory: relative, without `..`.
fn inside(rel: &str) -> Result<&Path, DataError> {
    let path = Path::new(rel);
    let escapes = path.components().any(|c| {
        !matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    });
    if escapes || rel.is_empty() {
        return Err(DataError {
            file: rel.to_string(),
            line: 1,
            column: 1,
            message: "a data file must be named by a relative path inside the data directory \
                      (no '..', not absolute)"
                .into(),
        });
    }
    Ok(path)
}

impl DataDir {
    /// Reads a data file by its path relative to the data directory.
    pub fn read(&self, rel: &str) -> Result<(String, String), DataError> {
        match self {
            DataDir::Embedded => EMBEDDED
                .iter()
                .find(|(n, _)| *n == rel)
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .ok_or_else(|| DataError {
                    file: rel.to_string(),
                    line: 1,
                    column: 1,
                    message: "no such data file is built into the program".into(),
                }),
            DataDir::Dir(dir) => {
                let path = dir.join(inside(rel)?);
                let name = path.display().to_string();
                let bytes = crate::store::read_file(&path).map_err(|e| DataError {
                    file: name.clone(),
                    line: 1,
                    column: 1,
                    message: format!("cannot read: {e}"),
                })?;
                let text = utf8_text(&name, bytes)?;
                Ok((name, text))
            }
        }
    }

    pub fn dir(path: impl AsRef<Path>) -> DataDir {
        DataDir::Dir(path.as_ref().to_path_buf())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    name: String,
    pieces: String,
    setup: String,
    default: Spanned<String>,
    #[serde(default)]
    end: Option<Spanned<String>>,
    rules: BTreeMap<String, Spanned<RawRuleSet>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleSet {
    summary: String,
    #[serde(default)]
    readings: Vec<Spanned<String>>,
    promotion: RawPromotion,
    range_capture: RawRange,
    #[serde(default)]
    distinct_paths: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPromotion {
    trigger: Spanned<String>,
    depth: Option<u8>,
    #[serde(default)]
    optional: bool,
    #[serde(default)]
    from_zone: bool,
    #[serde(default)]
    stops: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRange {
    flown_over: Spanned<String>,
    end_on_friend: bool,
    end_on_higher: bool,
    #[serde(default)]
    every_move: bool,
}

/// A named rule set of a game.
#[derive(Clone, Debug)]
pub struct RuleSet {
    pub name: String,
    pub summary: String,
    /// The `[piece.rules.NAME]` overrides it applies, in order.
    pub readings: Vec<String>,
    pub params: GenRules,
}

/// A game: its catalogue, setup, and rule sets.
#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub catalogue: Catalogue,
    pub setup: Setup,
    pub rule_sets: Vec<RuleSet>,
    pub default_rules: String,
    /// `sha256:…` of the game file, catalogue and setup texts as loaded: records store it so
    /// a game replayed under changed rules data can say so.
    pub fingerprint: String,
}

impl Game {
    /// Loads a game definition such as `rules/taikyoku.toml` and the files it names.
    pub fn load(data: &DataDir, game_file: &str) -> Result<Game, DataError> {
        let (name, text) = data.read(game_file)?;
        let src = Source::new(&name, &text);
        let raw: RawGame = src.parse_toml()?;
        if let Some(end) = &raw.end
            && end.get_ref() != "last_royal_captured"
        {
            return Err(src.error_span(
                &end.span(),
                format!(
                    "unknown end rule {:?}: expected \"last_royal_captured\"",
                    end.get_ref()
                ),
            ));
        }
        let (pname, ptext) = data.read(&raw.pieces)?;
        let catalogue = Catalogue::parse(&Source::new(&pname, &ptext))?;
        let (sname, stext) = data.read(&raw.setup)?;
        let setup = Setup::parse(&Source::new(&sname, &stext), &catalogue)?;
        let fingerprint = fingerprint(&[&text, &ptext, &stext]);
        let mut rule_sets = Vec::new();
        for (rs_name, rs) in raw.rules {
            let span = rs.span();
            let rs = rs.into_inner();
            let promotion = match rs.promotion.trigger.get_ref().as_str() {
                "capture" => Promotion::OnCapture,
                "never" => Promotion::Never,
                "zone" => Promotion::Zone {
                    depth: rs.promotion.depth.ok_or_else(|| {
                        src.error_span(
                            &span,
                            format!("rule set {rs_name}: a zone promotion needs depth"),
                        )
                    })?,
                    optional: rs.promotion.optional,
                    from_zone: rs.promotion.from_zone,
                    stops: rs.promotion.stops,
                },
                other => {
                    return Err(src.error_span(
                        &rs.promotion.trigger.span(),
                        format!("unknown promotion trigger {other:?}: expected \"capture\", \"zone\" or \"never\""),
                    ));
                }
            };
            let captures_flown_over = match rs.range_capture.flown_over.get_ref().as_str() {
                "captured" => true,
                "kept" => false,
                other => {
                    return Err(src.error_span(
                        &rs.range_capture.flown_over.span(),
                        format!("unknown value {other:?}: expected \"captured\" or \"kept\""),
                    ));
                }
            };
            let mut readings = Vec::new();
            for r in rs.readings {
                let used = catalogue
                    .kinds
                    .iter()
                    .any(|k| k.overrides.contains_key(r.get_ref()));
                if !used {
                    return Err(src.error_span(
                        &r.span(),
                        format!(
                            "rule set {rs_name}: no piece in {pname} has [piece.rules.{}]",
                            r.get_ref()
                        ),
                    ));
                }
                readings.push(r.into_inner());
            }
            rule_sets.push(RuleSet {
                name: rs_name,
                summary: rs.summary,
                readings,
                params: GenRules {
                    promotion,
                    range: RangeRules {
                        captures_flown_over,
                        end_on_friend: rs.range_capture.end_on_friend,
                        end_on_higher: rs.range_capture.end_on_higher,
                        every_move: rs.range_capture.every_move,
                    },
                    paths_distinct: rs.distinct_paths,
                },
            });
        }
        // Every override must belong to a rule set that reads it.
        for k in &catalogue.kinds {
            for (name, o) in &k.overrides {
                if !rule_sets.iter().any(|r| r.readings.contains(name)) {
                    let mut e = o.location.clone().unwrap_or_else(|| src.error_at(0, ""));
                    e.message = format!(
                        "piece {}: [piece.rules.{name}] is not read by any rule set of {} (rule sets: {})",
                        k.code,
                        raw.name,
                        rule_sets
                            .iter()
                            .map(|r| r.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    return Err(e);
                }
            }
        }
        if !rule_sets.iter().any(|r| &r.name == raw.default.get_ref()) {
            return Err(src.error_span(
                &raw.default.span(),
                format!(
                    "default rule set {:?} is not defined",
                    raw.default.get_ref()
                ),
            ));
        }
        Ok(Game {
            name: raw.name,
            catalogue,
            setup,
            rule_sets,
            default_rules: raw.default.into_inner(),
            fingerprint,
        })
    }

    /// The built-in Taikyoku shogi.
    pub fn taikyoku() -> Result<Game, DataError> {
        Game::load(&DataDir::Embedded, "rules/taikyoku.toml")
    }

    pub fn rule_set(&self, name: &str) -> Option<&RuleSet> {
        self.rule_sets.iter().find(|r| r.name == name)
    }

    /// A piece's reading under a rule set: its overrides applied in order.
    pub fn reading(&self, kind: &PieceKind, rs: &RuleSet) -> Reading {
        let mut r = kind.base.clone();
        for name in &rs.readings {
            if kind.overrides.contains_key(name) {
                let o = kind.reading(name);
                r = Reading {
                    note: o.note.or(r.note),
                    ..o
                };
            }
        }
        r
    }
}

/// `sha256:` and the hex digest of the texts, each preceded by its length so that moving text
/// from one file to the next changes the digest.
fn fingerprint(texts: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for t in texts {
        h.update((t.len() as u64).to_le_bytes());
        h.update(t.as_bytes());
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

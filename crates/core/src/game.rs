//! Games as data: `rules/games.toml` lists the games; `rules/<id>.toml` gives a game's board,
//! catalogue, setup, end rule and rule sets; [`DataDir`] finds the data files, built into the
//! program or in a directory.

use crate::catalogue::{Catalogue, KindId, PieceKind, Reading, fold};
use crate::error::{DataError, Source, utf8_text};
use crate::geometry::{Dims, MAX_SIDE};
use crate::params::{
    Burning, Effects, Params, RawEffects, RawParams, RawPromotion, RawRange, RawTrade,
};
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

/// Every data file, `(path, text)`: build.rs lists the files under `rules/`, `setups/` and
/// `pieces/`, and `pieces.toml`.
const EMBEDDED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The index of the games.
const INDEX: &str = "rules/games.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIndex {
    games: Spanned<Vec<Spanned<String>>>,
}

/// Only the name of a game file, to list games without loading them.
#[derive(Deserialize)]
struct RawName {
    name: String,
}

/// A game a data directory offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// What `--game` takes: the game file is `rules/<id>.toml`.
    pub id: String,
    pub name: String,
}

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
                let bytes = crate::files::read_file(&path).map_err(|e| DataError {
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

    /// The ids of the games, the default first: `rules/games.toml`; a directory without it
    /// offers every `rules/*.toml`, in name order.
    pub fn game_ids(&self) -> Result<Vec<String>, DataError> {
        if let DataDir::Dir(dir) = self
            && !dir.join(INDEX).exists()
        {
            let ids = self.game_files(dir);
            if !ids.is_empty() {
                return Ok(ids);
            }
        }
        let (name, text) = self.read(INDEX)?;
        let src = Source::new(&name, &text);
        let raw: RawIndex = src.parse_toml()?;
        if raw.games.get_ref().is_empty() {
            return Err(src.error_span(&raw.games.span(), "no games: list at least one"));
        }
        raw.games
            .into_inner()
            .into_iter()
            .map(|id| {
                let ok = !id.get_ref().is_empty()
                    && id
                        .get_ref()
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if ok {
                    Ok(id.into_inner())
                } else {
                    Err(src.error_span(
                        &id.span(),
                        format!(
                            "game id {:?}: expected lower-case letters, digits and hyphens (it names rules/ID.toml)",
                            id.get_ref()
                        ),
                    ))
                }
            })
            .collect()
    }

    fn game_files(&self, dir: &Path) -> Vec<String> {
        let mut ids: Vec<String> = std::fs::read_dir(dir.join("rules"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".toml").map(str::to_string)
            })
            .collect();
        ids.sort();
        ids
    }

    /// Every game with its name, the default first (each game file is read for its name).
    pub fn games(&self) -> Result<Vec<GameEntry>, DataError> {
        self.game_ids()?
            .into_iter()
            .map(|id| {
                let (name, text) = self.read(&game_file(&id))?;
                let raw: RawName = Source::new(&name, &text).parse_toml()?;
                Ok(GameEntry { id, name: raw.name })
            })
            .collect()
    }
}

/// The file of a game.
fn game_file(id: &str) -> String {
    format!("rules/{id}.toml")
}

/// `taikyoku (Taikyoku shogi), sho (Sho shogi)`: the games for a message.
pub fn describe_games(games: &[GameEntry]) -> String {
    games
        .iter()
        .map(|g| format!("{} ({})", g.id, g.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a game could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("unknown game {name:?}; the games are: {known}")]
    Unknown { name: String, known: String },
    #[error(transparent)]
    Data(#[from] DataError),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    name: String,
    files: Spanned<u8>,
    ranks: Spanned<u8>,
    pieces: Spanned<String>,
    setup: Spanned<String>,
    default: Spanned<String>,
    end: RawEnd,
    #[serde(default)]
    sources: BTreeMap<String, String>,
    /// Game-level rules beyond movement (`crate::effects`).
    #[serde(default)]
    effects: Option<RawEffects>,
    rules: BTreeMap<String, Spanned<RawRuleSet>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnd {
    survives_with: Spanned<Vec<Vec<Spanned<String>>>>,
}

/// What a side must keep on the board not to lose: one of `alternatives`, each a list of
/// needs that must all be met. Sho and Taikyoku shogi: `[["royal"]]` (any royal piece); Kō
/// shogi's "its general, or a governor, or both its middle troop and its banner" would be
/// `[["GE"], ["GV"], ["MT", "BN"]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndRule {
    pub alternatives: Vec<Vec<Need>>,
}

/// One need of an end rule: a piece of any of these kinds (a promoted piece counts as the kind
/// it became).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Need {
    /// As written: a piece code, or `royal` for every kind with `royal = true`.
    pub text: String,
    pub kinds: Vec<KindId>,
}

impl EndRule {
    /// Whether pieces of this kind count for the rule (their loss can end the game).
    pub fn involves(&self, kind: KindId) -> bool {
        self.alternatives
            .iter()
            .flatten()
            .any(|n| n.kinds.contains(&kind))
    }

    /// Whether every alternative is a single need: then a side survives exactly while it has
    /// any piece the rule involves, and a count of those pieces decides.
    pub fn is_any_piece(&self) -> bool {
        self.alternatives.iter().all(|a| a.len() == 1)
    }

    /// Whether a side whose pieces include a kind exactly when `has(kind)` survives.
    pub fn survives(&self, has: impl Fn(KindId) -> bool) -> bool {
        self.alternatives
            .iter()
            .any(|a| a.iter().all(|n| n.kinds.iter().any(|&k| has(k))))
    }

    /// The rule in words: "a royal piece", "GE, or GV, or MT and BN".
    pub fn describe(&self) -> String {
        let need = |n: &Need| match n.text.as_str() {
            "royal" => "a royal piece".to_string(),
            t => t.to_string(),
        };
        self.alternatives
            .iter()
            .map(|a| a.iter().map(need).collect::<Vec<_>>().join(" and "))
            .collect::<Vec<_>>()
            .join(", or ")
    }

    fn parse(
        src: &Source,
        raw: RawEnd,
        catalogue: &Catalogue,
        pieces: &str,
    ) -> Result<EndRule, DataError> {
        let span = raw.survives_with.span();
        let mut alternatives = Vec::new();
        for alt in raw.survives_with.into_inner() {
            if alt.is_empty() {
                return Err(src.error_span(&span, "end.survives_with: an alternative is empty"));
            }
            let mut needs = Vec::new();
            for n in alt {
                let kinds: Vec<KindId> = match n.get_ref().as_str() {
                    "royal" => catalogue
                        .kinds
                        .iter()
                        .filter(|k| k.royal)
                        .map(|k| k.id)
                        .collect(),
                    code => catalogue.by_code(code).into_iter().collect(),
                };
                if kinds.is_empty() {
                    let message = match n.get_ref().as_str() {
                        "royal" => format!("end.survives_with: no piece of {pieces} is royal"),
                        t => format!(
                            "end.survives_with: {t:?} is not a piece code of {pieces}, nor \"royal\""
                        ),
                    };
                    return Err(src.error_span(&n.span(), message));
                }
                needs.push(Need {
                    text: n.into_inner(),
                    kinds,
                });
            }
            alternatives.push(needs);
        }
        if alternatives.is_empty() {
            return Err(src.error_span(&span, "end.survives_with: no alternative"));
        }
        Ok(EndRule { alternatives })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleSet {
    summary: String,
    #[serde(default)]
    readings: Vec<Spanned<String>>,
    promotion: RawPromotion,
    /// May be left out by a game without range capturers.
    range_capture: Option<RawRange>,
    #[serde(default)]
    distinct_paths: bool,
    /// Another start position than the game's (a setup file).
    setup: Option<Spanned<String>>,
    /// How "within N points" is measured: "lines" (the default) or "square".
    within: Option<Spanned<String>>,
    /// How burning pieces burn (the defaults: every neighbour, of either side).
    #[serde(default)]
    burning: Burning,
    /// The rules on taking the pieces whose trade is restricted (Chu shogi's lions).
    trade: Option<RawTrade>,
}

/// A named rule set of a game.
#[derive(Clone, Debug)]
pub struct RuleSet {
    pub name: String,
    pub summary: String,
    /// The `[piece.rules.NAME]` overrides it applies, in order.
    pub readings: Vec<String>,
    pub params: Params,
    /// Its own start position, if not the game's.
    pub setup: Option<Setup>,
}

/// A game: its board, catalogue, setup, end rule and rule sets.
#[derive(Clone, Debug)]
pub struct Game {
    /// What `--game` takes (`rules/<id>.toml`).
    pub id: String,
    pub name: String,
    pub dims: Dims,
    pub catalogue: Catalogue,
    pub setup: Setup,
    pub end: EndRule,
    pub rule_sets: Vec<RuleSet>,
    pub default_rules: String,
    /// The abbreviations the data uses for its sources (`W24`), and what each stands for.
    pub sources: BTreeMap<String, String>,
    /// Game-level rules beyond movement.
    pub effects: Effects,
    /// `sha256:…` of the game file, catalogue and setup texts as loaded: records store it so
    /// a game replayed under changed rules data can say so.
    pub fingerprint: String,
}

impl Game {
    /// Loads the game `id` (`rules/<id>.toml` and the files it names).
    pub fn load(data: &DataDir, id: &str) -> Result<Game, GameError> {
        let ids = data.game_ids()?;
        if !ids.iter().any(|i| i == id) {
            return Err(GameError::Unknown {
                name: id.to_string(),
                known: describe_games(&data.games()?),
            });
        }
        Ok(Game::load_file(data, id)?)
    }

    /// The game called `name`: its id, or its name in any case with or without spaces and
    /// hyphens (`sho`, `Sho shogi`).
    pub fn find(data: &DataDir, name: &str) -> Result<Game, GameError> {
        let games = data.games()?;
        let wanted = fold(name);
        match games
            .iter()
            .find(|g| g.id == name || fold(&g.id) == wanted || fold(&g.name) == wanted)
        {
            Some(g) => Ok(Game::load_file(data, &g.id)?),
            None => Err(GameError::Unknown {
                name: name.to_string(),
                known: describe_games(&games),
            }),
        }
    }

    /// The default game of a data directory (the first it lists).
    pub fn default_game(data: &DataDir) -> Result<Game, GameError> {
        let ids = data.game_ids()?;
        let id = ids.first().ok_or_else(|| GameError::Unknown {
            name: String::new(),
            known: "none".into(),
        })?;
        Ok(Game::load_file(data, id)?)
    }

    /// A game built into the program.
    pub fn builtin(id: &str) -> Result<Game, GameError> {
        Game::load(&DataDir::Embedded, id)
    }

    /// Whether `name` (a record's `game`, a `--game` value) names this game.
    pub fn is_called(&self, name: &str) -> bool {
        let wanted = fold(name);
        name == self.id || fold(&self.id) == wanted || fold(&self.name) == wanted
    }

    fn load_file(data: &DataDir, id: &str) -> Result<Game, DataError> {
        let (name, text) = data.read(&game_file(id))?;
        let src = Source::new(&name, &text);
        let raw: RawGame = src.parse_toml()?;
        let dims = board(&src, &raw)?;
        // A path that leaves the data directory is reported where the game file names it.
        let named = |rel: &Spanned<String>| {
            inside(rel.get_ref()).map_err(|e| {
                src.error_span(&rel.span(), format!("{:?}: {}", rel.get_ref(), e.message))
            })?;
            data.read(rel.get_ref())
        };
        let (pname, ptext) = named(&raw.pieces)?;
        let catalogue = Catalogue::parse(&Source::new(&pname, &ptext))?;
        let (sname, stext) = named(&raw.setup)?;
        let setup = Setup::parse(&Source::new(&sname, &stext), &catalogue, dims)?;
        // What a record's fingerprint covers: the game file, catalogue and setups.
        let mut texts = vec![text.clone(), ptext, stext];
        let end = EndRule::parse(&src, raw.end, &catalogue, &pname)?;
        let effects = match raw.effects {
            Some(fx) => Effects::parse(&src, fx, &catalogue)?,
            None => Effects::default(),
        };
        let mut rule_sets = Vec::new();
        for (rs_name, rs) in raw.rules {
            let mut set = RuleSet::parse(&src, rs_name, &rs, &catalogue, &pname)?;
            if let Some(s) = &rs.get_ref().setup {
                let (sname, stext) = named(s)?;
                set.setup = Some(Setup::parse(
                    &Source::new(&sname, &stext),
                    &catalogue,
                    dims,
                )?);
                texts.push(stext);
            }
            rule_sets.push(set);
        }
        check_overrides(&src, &catalogue, &rule_sets, &raw.name)?;
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
            id: id.to_string(),
            name: raw.name,
            dims,
            catalogue,
            setup,
            end,
            rule_sets,
            default_rules: raw.default.into_inner(),
            sources: raw.sources,
            effects,
            fingerprint: fingerprint(&texts.iter().map(String::as_str).collect::<Vec<_>>()),
        })
    }

    pub fn rule_set(&self, name: &str) -> Option<&RuleSet> {
        self.rule_sets.iter().find(|r| r.name == name)
    }

    /// A piece's reading under a rule set: its overrides applied in order.
    pub fn reading(&self, kind: &PieceKind, rs: &RuleSet) -> Reading {
        reading(kind, rs)
    }
}

fn reading(kind: &PieceKind, rs: &RuleSet) -> Reading {
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

/// The board size of a game file.
fn board(src: &Source, raw: &RawGame) -> Result<Dims, DataError> {
    for (s, what) in [(&raw.files, "files"), (&raw.ranks, "ranks")] {
        if !(2..=MAX_SIDE).contains(s.get_ref()) {
            return Err(src.error_span(&s.span(), format!("{what} must be 2 to {MAX_SIDE}")));
        }
    }
    Ok(Dims {
        files: *raw.files.get_ref(),
        ranks: *raw.ranks.get_ref(),
    })
}

/// Every override must belong to a rule set that reads it.
fn check_overrides(
    src: &Source,
    catalogue: &Catalogue,
    rule_sets: &[RuleSet],
    game: &str,
) -> Result<(), DataError> {
    for k in &catalogue.kinds {
        for (name, o) in &k.overrides {
            if !rule_sets.iter().any(|r| r.readings.contains(name)) {
                let mut e = o.location.clone().unwrap_or_else(|| src.error_at(0, ""));
                e.message = format!(
                    "piece {}: [piece.rules.{name}] is not read by any rule set of {game} (rule sets: {})",
                    k.code,
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
    Ok(())
}

impl RuleSet {
    fn parse(
        src: &Source,
        name: String,
        rs: &Spanned<RawRuleSet>,
        catalogue: &Catalogue,
        pname: &str,
    ) -> Result<RuleSet, DataError> {
        let span = rs.span();
        let rs = rs.get_ref();
        let raw = RawParams {
            promotion: &rs.promotion,
            range_capture: rs.range_capture.as_ref(),
            distinct_paths: rs.distinct_paths,
            within: rs.within.as_ref(),
            burning: rs.burning,
            trade: rs.trade.as_ref(),
        };
        let params = Params::parse(src, &name, &span, raw, catalogue)?;
        let mut readings = Vec::new();
        for r in &rs.readings {
            let used = catalogue
                .kinds
                .iter()
                .any(|k| k.overrides.contains_key(r.get_ref()));
            if !used {
                return Err(src.error_span(
                    &r.span(),
                    format!(
                        "rule set {name}: no piece in {pname} has [piece.rules.{}]",
                        r.get_ref()
                    ),
                ));
            }
            readings.push(r.get_ref().clone());
        }
        let set = RuleSet {
            name,
            summary: rs.summary.clone(),
            readings,
            params,
            setup: None,
        };
        if rs.range_capture.is_none()
            && let Some(k) = catalogue.kinds.iter().find(|k| {
                reading(k, &set)
                    .patterns
                    .iter()
                    .flat_map(|p| &p.legs)
                    .any(|l| l.kind == crate::betza::LegKind::RangeCapture)
            })
        {
            return Err(src.error_span(
                &span,
                format!(
                    "rule set {}: piece {} range-captures (x), so the rule set needs range_capture",
                    set.name, k.code
                ),
            ));
        }
        Ok(set)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_games_are_listed_with_the_default_first() {
        let games = DataDir::Embedded.games().unwrap();
        let ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, ["taikyoku", "sho", "koshogi", "chu", "dai"]);
        assert_eq!(
            describe_games(&games),
            "taikyoku (Taikyoku shogi), sho (Sho shogi), koshogi (Ko shogi), chu (Chu shogi), \
             dai (Dai shogi)"
        );
        let sho = Game::find(&DataDir::Embedded, "SHO-SHOGI").unwrap();
        assert_eq!(
            (sho.id.as_str(), sho.dims.files, sho.dims.ranks),
            ("sho", 9, 9)
        );
        assert!(sho.is_called("Sho shogi") && !sho.is_called("taikyoku"));
        let e = Game::builtin("chess").unwrap_err();
        assert!(matches!(e, GameError::Unknown { .. }), "{e}");
    }

    #[test]
    fn a_bad_index_is_reported_where_it_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("rules")).unwrap();
        let data = DataDir::dir(dir.path());
        // No index: every game file, in name order.
        std::fs::write(dir.path().join("rules/b.toml"), "name = \"B\"").unwrap();
        std::fs::write(dir.path().join("rules/a.toml"), "name = \"A\"").unwrap();
        assert_eq!(data.game_ids().unwrap(), ["a", "b"]);
        let index = dir.path().join(INDEX);
        std::fs::write(&index, "games = [\"b\", \"../x\"]").unwrap();
        let e = data.game_ids().unwrap_err();
        assert_eq!((e.line, e.column), (1, 15));
        assert!(
            e.message.contains("game id \"../x\": expected lower-case"),
            "{e}"
        );
        std::fs::write(&index, "games = []").unwrap();
        assert!(data.game_ids().unwrap_err().message.contains("no games"));
        std::fs::write(&index, "games = [\"b\"]").unwrap();
        assert_eq!(data.games().unwrap()[0].name, "B");
        let e = Game::load(&data, "a").unwrap_err().to_string();
        assert_eq!(e, "unknown game \"a\"; the games are: b (B)");
    }
}

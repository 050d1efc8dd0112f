//! The piece catalogue (`pieces.toml`): every piece kind's names, kanji, movement, promotion
//! and the readings that rule sets substitute for it.

use crate::betza::{self, Pattern};
use crate::error::{DataError, Source};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use toml::Spanned;
use unicode_width::UnicodeWidthStr;

/// Index of a piece kind in its catalogue.
pub type KindId = u16;

/// A piece's movement and promotion as one rule set reads them.
#[derive(Clone, Debug)]
pub struct Reading {
    pub betza: String,
    pub patterns: Vec<Pattern>,
    pub promotes_to: Option<KindId>,
    /// Why this rule set reads the piece this way (for overrides).
    pub note: Option<String>,
}

/// What a rule set changes about a piece.
#[derive(Clone, Debug, Default)]
pub struct Override {
    pub betza: Option<(String, Vec<Pattern>)>,
    /// `Some(None)`: the piece does not promote under this rule set.
    pub promotes_to: Option<Option<KindId>>,
    pub note: Option<String>,
    /// Where the override is written, to report an unknown rule set name.
    pub location: Option<DataError>,
}

/// One kind of piece.
#[derive(Clone, Debug)]
pub struct PieceKind {
    pub id: KindId,
    pub code: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub kanji: String,
    /// One wide character for the board's narrowest squares.
    pub label: String,
    /// One or two wide characters, unique in the catalogue: the board's label at the default
    /// zoom, where every kind must be told apart.
    pub label2: String,
    /// Pieces of this kind per side in the standard setup (0 for promotion-only kinds).
    pub count: u16,
    pub royal: bool,
    /// Range-capture rank: 1 is highest; `None` ranks below every ranked piece.
    pub rank: Option<u8>,
    pub atsa_code: Option<String>,
    /// A value for the engine's evaluation that replaces the one derived from the movement
    /// (`value = N` in the `[[piece]]` table; a pawn is about 100).
    pub value: Option<i32>,
    /// Where the sources disagree, and what the default reading follows.
    pub sources: Option<String>,
    pub base: Reading,
    pub overrides: BTreeMap<String, Override>,
    /// The kinds it may not take or pass.
    pub cannot: Cannot,
    /// Wherever it lands, every piece next to it (of either side) is removed (Kō shōgi's
    /// poison flame).
    pub burns: bool,
    /// It freezes the first enemy piece on each line it ranges along (Kō shōgi's nets).
    pub freezes: bool,
    /// No enemy piece within this many squares (king distance) may shoot (the five-li fog).
    pub fog: u8,
    /// It may shoot within an enemy fog (the priest family).
    pub sees_in_fog: bool,
}

/// What a kind may not do to other kinds (its `cannot_capture`, `captures_only`,
/// `cannot_shoot` and `cannot_hop` lists): per-attacker immunities of the targets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cannot {
    /// Kinds it may not capture by moving onto them.
    pub capture: Vec<KindId>,
    /// Kinds it may not shoot (`!` legs).
    pub shoot: Vec<KindId>,
    /// Kinds its hops (`p`) may not pass over: they stop it as a rider's first piece does.
    pub hop: Vec<KindId>,
}

impl PieceKind {
    /// The reading of this piece under a rule set that uses the overrides named `ruleset`.
    pub fn reading(&self, ruleset: &str) -> Reading {
        let mut r = self.base.clone();
        r.note = None;
        if let Some(o) = self.overrides.get(ruleset) {
            if let Some((s, p)) = &o.betza {
                r.betza = s.clone();
                r.patterns = p.clone();
            }
            if let Some(p) = o.promotes_to {
                r.promotes_to = p;
            }
            r.note = o.note.clone();
        }
        r
    }
}

/// Every piece kind of a game.
#[derive(Clone, Debug)]
pub struct Catalogue {
    pub kinds: Vec<PieceKind>,
    by_code: HashMap<String, KindId>,
}

/// The result of looking a piece up by a name a person typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    Found(KindId),
    Ambiguous(Vec<KindId>),
    /// Not found; the closest names.
    NotFound(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalogue {
    piece: Vec<Spanned<RawPiece>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    code: Spanned<String>,
    name: Spanned<String>,
    #[serde(default)]
    aliases: Vec<String>,
    kanji: String,
    label: Spanned<String>,
    label2: Option<Spanned<String>>,
    #[serde(default)]
    count: u16,
    betza: Spanned<String>,
    promotes_to: Option<Spanned<String>>,
    #[serde(default)]
    royal: bool,
    rank: Option<Spanned<u8>>,
    atsa_code: Option<String>,
    value: Option<i32>,
    sources: Option<String>,
    #[serde(default)]
    rules: BTreeMap<String, Spanned<RawOverride>>,
    #[serde(default)]
    cannot_capture: Vec<Spanned<String>>,
    #[serde(default)]
    captures_only: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    cannot_shoot: Vec<Spanned<String>>,
    #[serde(default)]
    cannot_hop: Vec<Spanned<String>>,
    #[serde(default)]
    burns: Option<Spanned<bool>>,
    #[serde(default)]
    freezes: bool,
    #[serde(default)]
    fog: u8,
    #[serde(default)]
    sees_in_fog: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverride {
    betza: Option<Spanned<String>>,
    promotes_to: Option<Spanned<String>>,
    note: Option<String>,
}

/// Folds a name for lookup: lower case, letters and digits only ("Ram's-head soldier" =
/// "ramsheadsoldier").
pub fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Parses a movement, reporting errors at their place in the file; `ranked`: whether the
/// piece has a range-capture rank, which a range capturer (`x`) needs.
fn parse_betza(
    src: &Source,
    code: &str,
    s: &Spanned<String>,
    ranked: bool,
) -> Result<Vec<Pattern>, DataError> {
    let error = |offset, message: &str| {
        src.error_at(
            src.string_offsets(s.span().start).file_offset(offset),
            format!("piece {code}: movement {:?}: {message}", s.get_ref()),
        )
    };
    let patterns = betza::parse(s.get_ref()).map_err(|e| error(e.offset, &e.message))?;
    if !ranked && let Some(x) = s.get_ref().find('x') {
        return Err(error(
            x,
            "a range capturer (x) needs a rank (rank = 1 to 9 in its [[piece]])",
        ));
    }
    Ok(patterns)
}

/// At most how many rays a whole catalogue compiles to (per side): every movement is bounded
/// by [`betza::MAX_RAYS`], and this bounds their sum, so that any catalogue loads in bounded
/// memory and time.
pub const MAX_CATALOGUE_RAYS: usize = 200_000;

/// At most how many squares a whole catalogue's movements visit (each counted as
/// [`betza::MAX_VISITS`] counts them): the real catalogues visit at most 343,023 (Kō shōgi's).
pub const MAX_CATALOGUE_VISITS: usize = 1 << 22;

/// The size of a catalogue's movements so far, bounded by [`MAX_CATALOGUE_RAYS`] and
/// [`MAX_CATALOGUE_VISITS`].
#[derive(Default)]
struct Totals {
    rays: usize,
    visits: usize,
}

impl Totals {
    fn add(&mut self, patterns: &[betza::Pattern]) {
        self.rays += betza::ray_bound(patterns);
        let room = (MAX_CATALOGUE_VISITS + 1).saturating_sub(self.visits);
        self.visits += betza::visit_bound(patterns, room);
    }

    /// What is over its bound, if anything.
    fn over(&self) -> Option<String> {
        if self.rays > MAX_CATALOGUE_RAYS {
            Some(format!(
                "more than {MAX_CATALOGUE_RAYS} directions to follow"
            ))
        } else if self.visits > MAX_CATALOGUE_VISITS {
            Some(format!("more than {MAX_CATALOGUE_VISITS} squares to visit"))
        } else {
            None
        }
    }
}

/// Every piece's code, checked (letters only, unique), with its kind id.
fn index_codes(
    src: &Source,
    pieces: &[Spanned<RawPiece>],
) -> Result<HashMap<String, KindId>, DataError> {
    let mut by_code = HashMap::new();
    for (i, p) in pieces.iter().enumerate() {
        let code = p.get_ref().code.get_ref();
        // Letters only, so that a code followed by a square (`P19.26`) reads unambiguously.
        let valid =
            !code.is_empty() && code.len() <= 6 && code.chars().all(|c| c.is_ascii_uppercase());
        if !valid {
            return Err(src.error_span(
                &p.get_ref().code.span(),
                format!("invalid code {code:?}: expected 1 to 6 upper-case letters"),
            ));
        }
        if by_code.insert(code.clone(), i as KindId).is_some() {
            return Err(src.error_span(
                &p.get_ref().code.span(),
                format!("duplicate code {code:?}: every piece needs its own code"),
            ));
        }
    }
    Ok(by_code)
}

/// A catalogue being read: its codes, to resolve the codes its pieces name.
struct Codes<'a> {
    src: &'a Source<'a>,
    by_code: HashMap<String, KindId>,
}

impl Codes<'_> {
    /// The kind a code names (`None` for `-`), reported as `what` if there is none.
    fn resolve(&self, s: &Spanned<String>, what: &str) -> Result<Option<KindId>, DataError> {
        let c = s.get_ref();
        if c == "-" {
            return Ok(None);
        }
        self.by_code.get(c).copied().map(Some).ok_or_else(|| {
            self.src.error_span(
                &s.span(),
                format!("{what} {c:?} is not the code of any piece in the catalogue"),
            )
        })
    }

    /// The kinds a list of codes names (`-` left out).
    fn list(&self, list: &[Spanned<String>], what: &str) -> Result<Vec<KindId>, DataError> {
        let ids = list.iter().map(|s| self.resolve(s, what));
        ids.filter_map(Result::transpose).collect()
    }

    /// Piece `id`, read and checked; `totals` sizes the catalogue's movements so far.
    fn kind(&self, id: KindId, p: RawPiece, totals: &mut Totals) -> Result<PieceKind, DataError> {
        let src = self.src;
        let code = p.code.get_ref().clone();
        if p.name.get_ref().trim().is_empty() {
            return Err(src.error_span(&p.name.span(), format!("piece {code}: empty name")));
        }
        let (label, label2) = labels(src, &code, &p)?;
        if let Some(r) = &p.rank
            && !(1..=9).contains(r.get_ref())
        {
            return Err(src.error_span(
                &r.span(),
                format!("piece {code}: rank must be 1 (highest) to 9"),
            ));
        }
        let ranked = p.rank.is_some();
        let patterns = parse_betza(src, &code, &p.betza, ranked)?;
        totals.add(&patterns);
        let promotes_to = self.promotion(id, &code, &p)?;
        let cannot = self.cannot(&code, &p)?;
        if let Some(b) = &p.burns
            && *b.get_ref()
            && ranked
        {
            return Err(src.error_span(
                &b.span(),
                format!("piece {code}: a burning piece cannot be a range capturer (rank)"),
            ));
        }
        let overrides = self.overrides(&code, ranked, p.rules, totals)?;
        if let Some(over) = totals.over() {
            return Err(src.error_span(
                &p.betza.span(),
                format!("piece {code}: the movements up to here are too large in all ({over})"),
            ));
        }
        Ok(PieceKind {
            id,
            code,
            name: p.name.into_inner(),
            aliases: p.aliases,
            kanji: p.kanji,
            label,
            label2,
            count: p.count,
            royal: p.royal,
            rank: p.rank.map(Spanned::into_inner),
            atsa_code: p.atsa_code,
            value: p.value,
            sources: p.sources,
            base: Reading {
                betza: p.betza.into_inner(),
                patterns,
                promotes_to,
                note: None,
            },
            overrides,
            cannot,
            burns: p.burns.is_some_and(|b| *b.get_ref()),
            freezes: p.freezes,
            fog: p.fog,
            sees_in_fog: p.sees_in_fog,
        })
    }

    /// What piece `id` promotes to (not itself).
    fn promotion(&self, id: KindId, code: &str, p: &RawPiece) -> Result<Option<KindId>, DataError> {
        let promotes_to = match &p.promotes_to {
            Some(s) => self.resolve(s, &format!("piece {code}: promotes_to"))?,
            None => None,
        };
        if promotes_to == Some(id) {
            return Err(self.src.error_span(
                &p.promotes_to.as_ref().map_or(p.code.span(), |s| s.span()),
                format!("piece {code} promotes to itself"),
            ));
        }
        Ok(promotes_to)
    }

    /// What the piece may not capture, shoot or hop over (`captures_only` lists the
    /// complement of `cannot_capture`).
    fn cannot(&self, code: &str, p: &RawPiece) -> Result<Cannot, DataError> {
        let what = |list| format!("piece {code}: {list}");
        let mut cannot = Cannot {
            capture: self.list(&p.cannot_capture, &what("cannot_capture"))?,
            shoot: self.list(&p.cannot_shoot, &what("cannot_shoot"))?,
            hop: self.list(&p.cannot_hop, &what("cannot_hop"))?,
        };
        if let Some(only) = &p.captures_only {
            if !cannot.capture.is_empty() {
                return Err(self.src.error_span(
                    &only[0].span(),
                    format!("piece {code}: give cannot_capture or captures_only, not both"),
                ));
            }
            let only = self.list(only, &what("captures_only"))?;
            let all = 0..self.by_code.len() as KindId;
            cannot.capture = all.filter(|k| !only.contains(k)).collect();
        }
        Ok(cannot)
    }

    /// The piece's `[piece.rules.NAME]` readings.
    fn overrides(
        &self,
        code: &str,
        ranked: bool,
        raw: BTreeMap<String, Spanned<RawOverride>>,
        totals: &mut Totals,
    ) -> Result<BTreeMap<String, Override>, DataError> {
        let mut overrides = BTreeMap::new();
        for (rs, o) in raw {
            let span = o.span();
            let o = o.into_inner();
            let betza = match &o.betza {
                Some(b) => {
                    let patterns = parse_betza(self.src, code, b, ranked)?;
                    totals.add(&patterns);
                    Some((b.get_ref().clone(), patterns))
                }
                None => None,
            };
            let promotes = match &o.promotes_to {
                Some(s) => Some(self.resolve(s, &format!("piece {code}: rules.{rs}.promotes_to"))?),
                None => None,
            };
            let location = Some(
                self.src
                    .error_span(&span, format!("piece {code}: rules.{rs}")),
            );
            overrides.insert(
                rs,
                Override {
                    betza,
                    promotes_to: promotes,
                    note: o.note,
                    location,
                },
            );
        }
        Ok(overrides)
    }
}

/// A piece's labels, checked: `label` one kanji, `label2` (default: `label`) one or two.
fn labels(src: &Source, code: &str, p: &RawPiece) -> Result<(String, String), DataError> {
    let label = p.label.get_ref();
    if label.chars().count() != 1 || label.width() != 2 {
        return Err(src.error_span(
            &p.label.span(),
            format!(
                "piece {code}: label {label:?} must be one character two terminal cells wide (a kanji)"
            ),
        ));
    }
    let label2 = p.label2.as_ref().unwrap_or(&p.label);
    let wide = |c: char| c.to_string().width() == 2;
    let n = label2.get_ref().chars().count();
    if !(1..=2).contains(&n) || !label2.get_ref().chars().all(wide) {
        return Err(src.error_span(
            &label2.span(),
            format!(
                "piece {code}: label2 {:?} must be one or two characters two terminal cells wide each (kanji)",
                label2.get_ref()
            ),
        ));
    }
    Ok((label.clone(), label2.get_ref().clone()))
}

impl Catalogue {
    /// Reads and checks a catalogue.
    pub fn parse(src: &Source) -> Result<Catalogue, DataError> {
        let raw: RawCatalogue = src.parse_toml()?;
        if raw.piece.is_empty() {
            return Err(src.error_at(0, "no pieces: expected [[piece]] tables"));
        }
        if raw.piece.len() > 4000 {
            return Err(src.error_at(0, "too many piece kinds (at most 4000)"));
        }
        let codes = Codes {
            src,
            by_code: index_codes(src, &raw.piece)?,
        };
        let mut kinds = Vec::with_capacity(raw.piece.len());
        let mut totals = Totals::default();
        for (i, p) in raw.piece.into_iter().enumerate() {
            kinds.push(codes.kind(i as KindId, p.into_inner(), &mut totals)?);
        }
        Ok(Catalogue {
            kinds,
            by_code: codes.by_code,
        })
    }

    pub fn kind(&self, id: KindId) -> &PieceKind {
        &self.kinds[id as usize]
    }

    pub fn by_code(&self, code: &str) -> Option<KindId> {
        self.by_code.get(code).copied()
    }

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Finds a piece by code, English name (any case; spaces, hyphens and apostrophes
    /// optional), alias or kanji.
    pub fn lookup(&self, query: &str) -> Lookup {
        let q = query.trim();
        if let Some(id) = self.by_code(q) {
            return Lookup::Found(id);
        }
        let f = fold(q);
        if f.is_empty() {
            return Lookup::NotFound(Vec::new());
        }
        let mut hits: Vec<KindId> = Vec::new();
        // Stronger matches first: code (any case), name, kanji, aliases, then board labels.
        let tiers: [&dyn Fn(&PieceKind) -> bool; 5] = [
            &|k| fold(&k.code) == f,
            &|k| fold(&k.name) == f,
            &|k| k.kanji == q,
            &|k| k.aliases.iter().any(|a| fold(a) == f),
            // What the board shows at any zoom.
            &|k| k.label2 == q || k.label == q,
        ];
        for tier in tiers {
            hits = self
                .kinds
                .iter()
                .filter(|k| tier(k))
                .map(|k| k.id)
                .collect();
            if !hits.is_empty() {
                break;
            }
        }
        match hits.len() {
            0 => Lookup::NotFound(self.suggestions(&f)),
            1 => Lookup::Found(hits[0]),
            _ => Lookup::Ambiguous(hits),
        }
    }

    /// Names close to `f` (a folded query): containing it, contained in it, or within a few
    /// edits. Linear in the query's length: a name can only be within the edit limit of a
    /// query of about its own length, and only those pairs are compared.
    fn suggestions(&self, f: &str) -> Vec<String> {
        let len = f.chars().count();
        let limit = (len / 3).max(2);
        let mut scored: Vec<(usize, String)> = Vec::new();
        for k in &self.kinds {
            let names = std::iter::once(&k.name).chain(k.aliases.iter());
            let best = names
                .filter_map(|n| {
                    let g = fold(n);
                    let glen = g.chars().count();
                    if g.contains(f) || (len >= 4 && len <= 4 * glen && f.contains(&g)) {
                        Some(0)
                    } else if len.abs_diff(glen) <= limit {
                        Some(edit_distance(f, &g))
                    } else {
                        None
                    }
                })
                .min()
                .unwrap_or(usize::MAX);
            if best <= limit {
                scored.push((best, format!("{} ({})", k.name, k.code)));
            }
        }
        scored.sort();
        scored.into_iter().take(8).map(|(_, s)| s).collect()
    }
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + (ca != cb) as usize)
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
[[piece]]
code = "K"
name = "King"
kanji = "玉将"
label = "玉"
count = 1
betza = "K2"
royal = true
rank = 1

[[piece]]
code = "RH"
name = "Ram's-head soldier"
aliases = ["Ramshead Soldier"]
kanji = "羊兵"
label = "羊"
count = 2
betza = "bWfB"
promotes_to = "K"

[piece.rules.other]
betza = "fB"
promotes_to = "-"
note = "why"
"#;

    fn cat(text: &str) -> Result<Catalogue, DataError> {
        Catalogue::parse(&Source::new("pieces.toml", text))
    }

    #[test]
    fn reads_pieces_and_overrides() {
        let c = cat(SMALL).unwrap();
        assert_eq!(c.len(), 2);
        let rh = c.kind(c.by_code("RH").unwrap());
        assert_eq!(rh.base.promotes_to, Some(0));
        let other = rh.reading("other");
        assert_eq!(other.betza, "fB");
        assert_eq!(other.promotes_to, None);
        assert_eq!(rh.reading("nothing").betza, "bWfB");
    }

    #[test]
    fn looks_up_names_loosely() {
        let c = cat(SMALL).unwrap();
        for q in [
            "RH",
            "rh",
            "Ram's-head soldier",
            "rams head soldier",
            "RAMSHEADSOLDIER",
            "羊兵",
            "ramshead soldier",
        ] {
            assert_eq!(c.lookup(q), Lookup::Found(1), "{q}");
        }
        match c.lookup("rams hed soldir") {
            Lookup::NotFound(s) => assert_eq!(s, vec!["Ram's-head soldier (RH)".to_string()]),
            other => panic!("{other:?}"),
        }
        assert_eq!(c.lookup("zzzzzz"), Lookup::NotFound(vec![]));
    }

    #[test]
    fn bad_movement_points_into_the_string() {
        let bad = SMALL.replace("betza = \"bWfB\"", "betza = \"bWfQq\"");
        let e = cat(&bad).unwrap_err();
        assert_eq!(e.file, "pieces.toml");
        assert_eq!(e.line, 19);
        assert_eq!(e.column, 14);
        assert!(e.message.contains("piece RH"), "{e}");
        assert!(e.message.contains("unsupported modifier 'q'"), "{e}");
    }

    #[test]
    fn unknown_promotion_duplicate_code_and_bad_label_are_reported() {
        let e = cat(&SMALL.replace("promotes_to = \"K\"", "promotes_to = \"XX\"")).unwrap_err();
        assert!(
            e.message.contains("\"XX\" is not the code of any piece"),
            "{e}"
        );
        assert_eq!(e.line, 20);
        let e = cat(&SMALL.replace("code = \"RH\"", "code = \"K\"")).unwrap_err();
        assert!(e.message.contains("duplicate code"), "{e}");
        let e = cat(&SMALL.replace("label = \"羊\"", "label = \"R\"")).unwrap_err();
        assert!(e.message.contains("two terminal cells"), "{e}");
        let e = cat(&SMALL.replace("kanji = \"羊兵\"", "kanj = \"羊兵\"")).unwrap_err();
        assert!(e.message.contains("unknown field"), "{e}");
        assert_eq!(e.line, 16);
        let e = cat("[[piece]]\ncode = \"K\"\n").unwrap_err();
        assert!(e.message.contains("missing field"), "{e}");
        let e = cat("piece = 3").unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
    }

    #[test]
    fn movement_errors_are_placed_in_any_kind_of_string() {
        // Escapes and triple quotes: the error points at the bad letter itself.
        for (written, line, column) in [
            ("\"b\\u0057fQq\"", 19, 19),
            ("\"\"\"\nbWfQq\"\"\"", 20, 5),
            ("'''bWfQq'''", 19, 16),
        ] {
            let e = cat(&SMALL.replace("\"bWfB\"", written)).unwrap_err();
            assert_eq!((e.line, e.column), (line, column), "{written}: {e}");
            assert!(e.message.contains("unsupported modifier 'q'"), "{e}");
        }
        // What the generator could not compile is reported at its place too.
        let e = cat(&SMALL.replace("betza = \"bWfB\"", "betza = \"W(N-lR)\"")).unwrap_err();
        assert_eq!((e.line, e.column), (19, 14), "{e}");
        assert!(e.message.contains("not along a line"), "{e}");
        let e = cat(&SMALL.replace("betza = \"fB\"", "betza = \"fWxB\"")).unwrap_err();
        assert!(e.message.contains("needs a rank"), "{e}");
        assert_eq!((e.line, e.column), (23, 12), "{e}");
    }

    #[test]
    fn a_catalogue_is_bounded_in_total() {
        let piece = |i: usize| {
            format!(
                "[[piece]]\ncode = \"{}\"\nname = \"p{i}\"\nkanji = \"羊\"\nlabel = \"羊\"\nbetza = \"(K-K-K-K)\"\n",
                (0..3)
                    .map(|d| (b'A' + (i / 26usize.pow(d) % 26) as u8) as char)
                    .collect::<String>()
            )
        };
        let text: String = (0..50).map(piece).collect();
        let e = cat(&text).unwrap_err();
        assert!(e.message.contains("too large in all"), "{e}");
        // Few directions each, but too many squares to visit in all.
        let text = text.replace("(K-K-K-K)", "(R-R-K)");
        let e = cat(&text).unwrap_err();
        assert!(e.message.contains("squares to visit"), "{e}");
        // The real catalogues load (the largest visits 343,023 in all).
        for game in ["taikyoku", "sho", "koshogi"] {
            crate::game::Game::builtin(game).unwrap();
        }
    }
}

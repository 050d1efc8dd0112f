//! A game's rule parameters, in one place: what a rule set sets (promotion, range capture,
//! paths, burning, how distance is measured) and the schema of a game's `[effects]` (promotion
//! by capture, linked promotion, dependence, other movements, reversion), each read from a
//! game file with its errors placed by file, line and column. Nothing here compiles or
//! generates: [`crate::tables`] and [`crate::effects`] turn these into what generation reads.

use crate::betza::{self, Pattern};
use crate::catalogue::{Catalogue, KindId};
use crate::error::{DataError, Source};
use crate::geometry::{Dims, Square};
use serde::Deserialize;
use toml::Spanned;

/// Every parameter of a rule set, in one place: what generation, promotion and the game's
/// effects read (the pieces' readings and the setup are the rule set's too, in
/// [`crate::game::RuleSet`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub promotion: Promotion,
    pub range: RangeRules,
    /// Moves that reach the same result by different paths are one move (`false`), or
    /// distinct when they pass through different squares where they could capture (`true`).
    pub paths_distinct: bool,
    /// A promoted piece may promote again (to what its new kind promotes to).
    pub repromote: bool,
    /// How burning pieces burn.
    pub burning: Burning,
    /// Kinds that do not promote by entering the zone (they still promote by capture or link).
    pub zone_exempt: Vec<KindId>,
    /// How "within N points" is measured.
    pub within: Within,
    /// The rules on taking the pieces whose trade is restricted; `None`: no such rules.
    pub trade: Option<Trade>,
}

/// The rules that keep some pieces from being traded (Chu shogi's lions, `trade` in a rule
/// set): which captures of a piece of `pieces` are not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trade {
    /// The kinds the rules protect (a promoted piece counts as the kind it became).
    pub pieces: Vec<KindId>,
    /// A piece of `pieces` may not take one of `pieces` that is not next to it if that one is
    /// protected (after the move an enemy piece could take the capturer where it ends)...
    pub afar: bool,
    /// ...unless the move also takes a piece of a kind not in this list (a "bridge").
    pub bridge_not: Vec<KindId>,
    /// After a piece of `pieces` was taken by a piece not of them, the other side may not, on
    /// the move just after, take one of `pieces` with a piece not of them (the counter-strike).
    pub counter_strike: bool,
    /// The counter-strike rule spares a capture of an unprotected piece (the Okazaki rule).
    pub okazaki: bool,
}

/// `trade` as a rule set writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTrade {
    pieces: Codes,
    #[serde(default)]
    afar: bool,
    #[serde(default)]
    bridge_not: Codes,
    #[serde(default)]
    counter_strike: bool,
    #[serde(default)]
    okazaki: bool,
}

impl Trade {
    fn parse(src: &Source, raw: &RawTrade, catalogue: &Catalogue) -> Result<Trade, DataError> {
        let codes = |list: &Codes| {
            list.iter()
                .map(|c| {
                    catalogue.by_code(c.get_ref()).ok_or_else(|| {
                        src.error_span(
                            &c.span(),
                            format!("trade: {:?} is not a piece code", c.get_ref()),
                        )
                    })
                })
                .collect::<Result<Vec<KindId>, DataError>>()
        };
        Ok(Trade {
            pieces: codes(&raw.pieces)?,
            afar: raw.afar,
            bridge_not: codes(&raw.bridge_not)?,
            counter_strike: raw.counter_strike,
            okazaki: raw.okazaki,
        })
    }
}

/// How burning pieces (`burns = true`) burn: a rule-set option for the cases Kō shōgi's
/// sources leave open. The default is EN's words: a burning piece burns every piece next to
/// where it lands, of either side, another burning piece included, and nothing else burns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Burning {
    /// A piece that ends its move next to an enemy burning piece is burnt after its move, what
    /// it took staying taken (QB, as Tenjiku's fire demon); a burning piece arriving so dies
    /// before it burns anything (QB).
    pub arrivals: bool,
    /// It burns its own side's pieces too (EN); `false`: only enemies (QB).
    pub own: bool,
    /// Burning pieces are never burnt: two may stand side by side.
    pub fireproof: bool,
}

impl Default for Burning {
    fn default() -> Burning {
        Burning {
            arrivals: false,
            own: true,
            fireproof: false,
        }
    }
}

/// When pieces promote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// On the first move that captures an enemy piece (compulsory).
    OnCapture,
    /// On a move that ends in (or, with `from_zone`, starts in) the `depth` far ranks; with
    /// `stops`, a capturing stop in the zone counts too. With `forced_where_stuck`, an optional
    /// promotion is compulsory on a move that ends where the piece could never move again
    /// (shogi's pawn or lance on the last rank, knight on the last two). With `entering`, a
    /// move that does not capture promotes only when it enters the zone (starts outside it),
    /// and one that captures whenever it starts or ends there (Chu shogi, as its association
    /// reads it): a piece that declined on entering may promote again only by capturing, or by
    /// leaving the zone and entering it again, and no state beyond the board is needed.
    Zone {
        depth: u8,
        optional: bool,
        from_zone: bool,
        stops: bool,
        forced_where_stuck: bool,
        entering: bool,
    },
    Never,
}

/// What a range capturer (`x`) does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeRules {
    /// Pieces flown over are removed.
    pub captures_flown_over: bool,
    /// It may end on a lower-ranked friendly piece (which is removed).
    pub end_on_friend: bool,
    /// It may capture, at the end of its flight, an enemy it could not fly over.
    pub end_on_higher: bool,
    /// Every straight move of a range capturer, not only its flights, removes what lies
    /// between its start and end (ATSA's web engine: the vice general's two-square jump
    /// removes the piece it jumps).
    pub every_move: bool,
}

type Codes = Vec<Spanned<String>>;

/// `[effects]` as written in a game file.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEffects {
    #[serde(default)]
    promote_on_capture: Vec<RawCapturePromotion>,
    #[serde(default)]
    linked_promotion: Vec<RawLink>,
    #[serde(default)]
    depends_on: Vec<RawDependence>,
    #[serde(default)]
    moves_while_absent: Vec<RawAltMove>,
    #[serde(default)]
    revert_near: Vec<RawProximity>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCapturePromotion {
    victims: Codes,
    capturers: Option<Codes>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    piece: Spanned<String>,
    #[serde(default)]
    promote: Codes,
    #[serde(default)]
    kill: Codes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDependence {
    pieces: Codes,
    alive: Codes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAltMove {
    pieces: Codes,
    absent: Codes,
    betza: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProximity {
    pieces: Codes,
    enemy: Codes,
    within: Spanned<u8>,
}

/// A capture that promotes the capturer: an enemy piece of one of `victims` taken by a piece
/// of one of `capturers` (any kind when `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturePromotion {
    pub victims: Vec<KindId>,
    pub capturers: Option<Vec<KindId>>,
}

/// When a piece of kind `piece` promotes, its side's pieces of `promote` promote too and the
/// enemy's pieces of `kill` are removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub piece: KindId,
    pub promote: Vec<KindId>,
    pub kill: Vec<KindId>,
}

/// While a side has no piece of `alive`, its `pieces` cannot promote, and those already
/// promoted revert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependence {
    pub pieces: Vec<KindId>,
    pub alive: Vec<KindId>,
}

/// While a side has no piece of `absent`, its `pieces` move as `betza` instead.
#[derive(Clone, Debug)]
pub struct AltMove {
    pub pieces: Vec<KindId>,
    pub absent: Vec<KindId>,
    pub betza: String,
    pub patterns: Vec<Pattern>,
}

/// A piece of `pieces` within `within` points of an enemy piece of `enemy` reverts to the kind
/// that promotes to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proximity {
    pub pieces: Vec<KindId>,
    pub enemy: Vec<KindId>,
    pub within: u8,
}

/// A game's effects, as data (empty for games without any).
#[derive(Clone, Debug, Default)]
pub struct Effects {
    pub promote_on_capture: Vec<CapturePromotion>,
    pub linked_promotion: Vec<Link>,
    pub depends_on: Vec<Dependence>,
    pub moves_while_absent: Vec<AltMove>,
    pub revert_near: Vec<Proximity>,
}

fn codes(src: &Source, catalogue: &Catalogue, list: &Codes) -> Result<Vec<KindId>, DataError> {
    list.iter().map(|c| code(src, catalogue, c)).collect()
}

fn code(src: &Source, catalogue: &Catalogue, c: &Spanned<String>) -> Result<KindId, DataError> {
    catalogue.by_code(c.get_ref()).ok_or_else(|| {
        src.error_span(
            &c.span(),
            format!("effects: {:?} is not a piece code of the game", c.get_ref()),
        )
    })
}

impl Effects {
    pub fn is_empty(&self) -> bool {
        self.promote_on_capture.is_empty()
            && self.linked_promotion.is_empty()
            && self.depends_on.is_empty()
            && self.moves_while_absent.is_empty()
            && self.revert_near.is_empty()
    }

    pub(crate) fn parse(
        src: &Source,
        raw: RawEffects,
        catalogue: &Catalogue,
    ) -> Result<Effects, DataError> {
        let mut fx = Effects::default();
        for r in &raw.promote_on_capture {
            let capturers = match &r.capturers {
                Some(c) => Some(codes(src, catalogue, c)?),
                None => None,
            };
            fx.promote_on_capture.push(CapturePromotion {
                victims: codes(src, catalogue, &r.victims)?,
                capturers,
            });
        }
        for r in &raw.linked_promotion {
            fx.linked_promotion.push(Link {
                piece: code(src, catalogue, &r.piece)?,
                promote: codes(src, catalogue, &r.promote)?,
                kill: codes(src, catalogue, &r.kill)?,
            });
        }
        for r in &raw.depends_on {
            fx.depends_on.push(Dependence {
                pieces: codes(src, catalogue, &r.pieces)?,
                alive: codes(src, catalogue, &r.alive)?,
            });
        }
        for r in &raw.moves_while_absent {
            let patterns = betza::parse(r.betza.get_ref()).map_err(|e| {
                src.error_span(
                    &r.betza.span(),
                    format!("effects: movement {:?}: {}", r.betza.get_ref(), e.message),
                )
            })?;
            fx.moves_while_absent.push(AltMove {
                pieces: codes(src, catalogue, &r.pieces)?,
                absent: codes(src, catalogue, &r.absent)?,
                betza: r.betza.get_ref().clone(),
                patterns,
            });
        }
        for r in &raw.revert_near {
            if *r.within.get_ref() == 0 {
                return Err(src.error_span(&r.within.span(), "effects: within must be 1 or more"));
            }
            fx.revert_near.push(Proximity {
                pieces: codes(src, catalogue, &r.pieces)?,
                enemy: codes(src, catalogue, &r.enemy)?,
                within: *r.within.get_ref(),
            });
        }
        Ok(fx)
    }
}

/// How "within N points" is measured (a rule-set option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    /// Anywhere in the square of side 2N+1 around the piece (Chebyshev distance; QB).
    Square,
    /// Along the eight lines from the piece, N points at most (JA).
    Lines,
}

impl Within {
    pub fn parse(s: &str) -> Option<Within> {
        match s {
            "square" => Some(Within::Square),
            "lines" => Some(Within::Lines),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Within::Square => "square",
            Within::Lines => "lines",
        }
    }

    /// Whether squares `a` and `b` are within `n` points of each other.
    pub fn near(self, dims: Dims, a: Square, b: Square, n: u8) -> bool {
        let ((ax, ay), (bx, by)) = (dims.xy(a), dims.xy(b));
        let (dx, dy) = ((ax - bx).abs(), (ay - by).abs());
        let close = dx.max(dy) <= n as i32;
        match self {
            Within::Square => close,
            Within::Lines => close && (dx == 0 || dy == 0 || dx == dy),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPromotion {
    trigger: Spanned<String>,
    depth: Option<u8>,
    #[serde(default)]
    optional: bool,
    #[serde(default)]
    from_zone: bool,
    #[serde(default)]
    stops: bool,
    #[serde(default)]
    forced_where_stuck: bool,
    /// A non-capture promotes only on entering the zone, a capture on starting or ending there.
    #[serde(default)]
    entering: bool,
    /// A promoted piece may promote again (to what its new kind promotes to).
    #[serde(default)]
    again: bool,
    /// Kinds that do not promote by entering the zone.
    #[serde(default)]
    exempt: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRange {
    flown_over: Spanned<String>,
    end_on_friend: bool,
    end_on_higher: bool,
    #[serde(default)]
    every_move: bool,
}

/// A rule set's parameters as its `[rules.NAME]` table writes them.
pub(crate) struct RawParams<'a> {
    pub promotion: &'a RawPromotion,
    /// May be left out by a game without range capturers.
    pub range_capture: Option<&'a RawRange>,
    pub distinct_paths: bool,
    /// How "within N points" is measured: "lines" (the default) or "square".
    pub within: Option<&'a Spanned<String>>,
    pub burning: Burning,
    pub trade: Option<&'a RawTrade>,
}

impl Params {
    /// Reads rule set `rs_name`'s parameters (`span`: its table, for errors that have no
    /// better place).
    pub(crate) fn parse(
        src: &Source,
        rs_name: &str,
        span: &std::ops::Range<usize>,
        raw: RawParams,
        catalogue: &Catalogue,
    ) -> Result<Params, DataError> {
        // In the order the errors were always reported.
        let promotion = promotion(src, rs_name, span, raw.promotion)?;
        let within = within(src, raw.within)?;
        let zone_exempt = zone_exempt(src, raw.promotion, catalogue)?;
        let range = match raw.range_capture {
            Some(r) => range_rules(src, r)?,
            None => RangeRules {
                captures_flown_over: false,
                end_on_friend: false,
                end_on_higher: false,
                every_move: false,
            },
        };
        Ok(Params {
            promotion,
            range,
            paths_distinct: raw.distinct_paths,
            repromote: raw.promotion.again,
            burning: raw.burning,
            zone_exempt,
            within,
            trade: match raw.trade {
                Some(t) => Some(Trade::parse(src, t, catalogue)?),
                None => None,
            },
        })
    }
}

/// `within`: how "within N points" is measured (along the lines unless it says otherwise).
fn within(src: &Source, w: Option<&Spanned<String>>) -> Result<Within, DataError> {
    let Some(w) = w else {
        return Ok(Within::Lines);
    };
    Within::parse(w.get_ref()).ok_or_else(|| {
        src.error_span(
            &w.span(),
            format!(
                "unknown value {:?}: expected \"lines\" or \"square\"",
                w.get_ref()
            ),
        )
    })
}

/// `promotion.exempt`: the kinds that do not promote by entering the zone.
fn zone_exempt(
    src: &Source,
    p: &RawPromotion,
    catalogue: &Catalogue,
) -> Result<Vec<KindId>, DataError> {
    p.exempt
        .iter()
        .map(|c| {
            catalogue.by_code(c.get_ref()).ok_or_else(|| {
                src.error_span(
                    &c.span(),
                    format!("promotion.exempt: {:?} is not a piece code", c.get_ref()),
                )
            })
        })
        .collect()
}

fn promotion(
    src: &Source,
    rs_name: &str,
    span: &std::ops::Range<usize>,
    p: &RawPromotion,
) -> Result<Promotion, DataError> {
    Ok(match p.trigger.get_ref().as_str() {
        "capture" => Promotion::OnCapture,
        "never" => Promotion::Never,
        "zone" => Promotion::Zone {
            depth: p.depth.ok_or_else(|| {
                src.error_span(
                    span,
                    format!("rule set {rs_name}: a zone promotion needs depth"),
                )
            })?,
            optional: p.optional,
            from_zone: p.from_zone,
            stops: p.stops,
            forced_where_stuck: p.forced_where_stuck,
            entering: p.entering,
        },
        other => {
            return Err(src.error_span(
                &p.trigger.span(),
                format!(
                    "unknown promotion trigger {other:?}: expected \"capture\", \"zone\" or \"never\""
                ),
            ));
        }
    })
}

fn range_rules(src: &Source, r: &RawRange) -> Result<RangeRules, DataError> {
    let captures_flown_over = match r.flown_over.get_ref().as_str() {
        "captured" => true,
        "kept" => false,
        other => {
            return Err(src.error_span(
                &r.flown_over.span(),
                format!("unknown value {other:?}: expected \"captured\" or \"kept\""),
            ));
        }
    };
    Ok(RangeRules {
        captures_flown_over,
        end_on_friend: r.end_on_friend,
        end_on_higher: r.end_on_higher,
        every_move: r.every_move,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_n_points_along_lines_or_in_a_square() {
        let dims = Dims {
            files: 19,
            ranks: 19,
        };
        let sq = |x, y| dims.square(x, y).unwrap();
        let c = sq(9, 9);
        for (x, y, lines, square) in [
            (14, 9, true, true),
            (15, 9, false, false),
            (4, 4, true, true),
            (3, 3, false, false),
            (13, 14, false, true),
            (10, 11, false, true),
            (9, 9, true, true),
        ] {
            assert_eq!(Within::Lines.near(dims, c, sq(x, y), 5), lines, "{x},{y}");
            assert_eq!(Within::Square.near(dims, c, sq(x, y), 5), square, "{x},{y}");
        }
    }
}

//! The compiled game: everything generation and make/unmake read, indexed by kind or by mailbox
//! cell, built from a game under one rule set. [`Tables::build`] is the one derivation step
//! (as Fairy-Stockfish's `Variant::conclude`), in named stages: the board's border, every
//! kind's movement compiled per side, the board's cells and zones, what each kind is, the
//! auras, the effects. Only the squares where a piece would be stuck need the generator
//! itself, so they are added after it ([`crate::movegen::stuck_squares`]).

use crate::auras::Auras;
use crate::betza::{LegError, LegKind};
use crate::catalogue::{KindId, Reading};
use crate::compile::{self, Compiled};
use crate::effects::{EffectError, EffectTable};
use crate::game::{EndRule, Game, RuleSet};
use crate::geometry::{Dims, Side, Square};
use crate::moves::MAX_LINE;
use crate::params::{Params, Promotion, Within};
use crate::piece::{Cell, decode};

/// Why a rule set does not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    #[error("piece {code}: movement {betza:?}: {error}")]
    Movement {
        code: String,
        betza: String,
        error: LegError,
    },
    #[error("piece {code}: a range capturer (x) needs a rank")]
    RangeWithoutRank { code: String },
    #[error(
        "piece {code}: a range capturer (x) needs a board of at most {MAX_LINE} squares a side"
    )]
    RangeBoardTooLarge { code: String },
    #[error("piece -: {0}")]
    Effects(#[from] EffectError),
}

/// Everything generation and make/unmake need to know about piece kinds (indexed by kind) and
/// the board (indexed by mailbox cell), under one rule set.
pub(crate) struct Tables {
    /// The rule set's parameters.
    pub params: Params,
    pub dims: Dims,
    /// The border of off-board cells around the board: the longest leg's reach.
    pub pad: usize,
    /// `[black, white]` compiled moves per kind.
    pub compiled: Vec<[Compiled; 2]>,
    pub promotes: Vec<bool>,
    /// Per kind: what it promotes to under the rule set.
    pub promotes_to: Vec<Option<KindId>>,
    /// Range-capture rank (1 highest); 255 for unranked.
    pub rank: Vec<u8>,
    /// Whether the kind has a range-capture (`x`) leg.
    pub range_piece: Vec<bool>,
    /// The square of each mailbox cell (0 off the board).
    pub squares: Vec<Square>,
    /// Per square, its mailbox cell (a lookup instead of a division).
    pub cell_of: Vec<u32>,
    /// Per side, whether each mailbox cell is in the side's promotion zone.
    pub zone: [Vec<bool>; 2],
    /// Per kind, per side, per mailbox cell: whether the unpromoted piece alone on the board
    /// there has no move, so a move ending there must promote. Empty unless the rule set asks
    /// ([`Promotion::Zone`]'s `forced_where_stuck`).
    pub stuck: Vec<[Vec<bool>; 2]>,
    /// Per attacking kind, the kinds it may not take or pass ([`Bars`]).
    pub bars: Vec<Bars>,
    /// Per kind: it burns every piece next to where it lands.
    pub burns: Vec<bool>,
    /// Per kind: it is royal (see [`crate::movegen::Scratch`]'s gainful captures).
    pub royal: Vec<bool>,
    /// Per kind: it burns or may not capture some kinds, so even its single-leg rays take the
    /// general walk (the others take the tight loop).
    pub general: Vec<bool>,
    /// Per kind, whether the game's end rule counts it (the position keeps their count).
    pub vital: Vec<bool>,
    /// What a side must keep not to lose.
    pub end: EndRule,
    /// Auras: pieces that freeze or fog enemy pieces; `None` in games without.
    pub auras: Option<Auras>,
    /// The game's effects (promotion by capture, state-dependent moves), if it has any.
    pub effects: Option<EffectTable>,
    /// The rules on trading some pieces (Chu shogi's lions), if the rule set has them.
    pub trade: Option<TradeTable>,
}

/// [`crate::params::Trade`] as generation and make/unmake read it: bit sets over the kinds.
pub(crate) struct TradeTable {
    pub rules: crate::params::Trade,
    /// The kinds the rules protect.
    pub pieces: Vec<u64>,
    /// The kinds whose capture does not make a bridge.
    pub bridge_not: Vec<u64>,
}

impl TradeTable {
    fn new(n: usize, rules: &crate::params::Trade) -> TradeTable {
        TradeTable {
            pieces: Bars::set(n, rules.pieces.iter().copied()),
            bridge_not: Bars::set(n, rules.bridge_not.iter().copied()),
            rules: rules.clone(),
        }
    }

    /// Whether the piece in cell `c` is one the rules protect.
    pub fn protects(&self, c: Cell) -> bool {
        barred(&self.pieces, c)
    }

    /// Whether `mover` taking `victim` brings the counter-strike rule into force.
    pub fn strikes(&self, mover: Cell, victim: Cell) -> bool {
        self.rules.counter_strike
            && victim != crate::piece::EMPTY
            && crate::piece::cell_side(victim) != crate::piece::cell_side(mover)
            && self.protects(victim)
            && !self.protects(mover)
    }
}

impl Tables {
    /// Compiles `game` under rule set `rs`, its kinds read as `readings` say.
    pub(crate) fn build(
        game: &Game,
        rs: &RuleSet,
        readings: &[Reading],
    ) -> Result<Tables, CompileError> {
        let dims = game.dims;
        let pad = border(game, readings);
        let mailbox = Mailbox::new(dims, pad);
        let compiled = compile_kinds(game, readings, &mailbox)?;
        let (squares, cell_of, zone) = mailbox.cells(zone_depth(&rs.params));
        let kinds = &game.catalogue.kinds;
        let bars: Vec<Bars> = kinds.iter().map(|k| Bars::of(game, &k.cannot)).collect();
        let burns: Vec<bool> = kinds.iter().map(|k| k.burns).collect();
        let general = (burns.iter().zip(&bars))
            .map(|(&burns, bars)| burns || !bars.capture.is_empty())
            .collect();
        Ok(Tables {
            params: rs.params.clone(),
            dims,
            pad,
            auras: auras(game, rs, &compiled),
            effects: effects(game, rs, readings, &mailbox)?,
            compiled,
            promotes: readings.iter().map(|r| r.promotes_to.is_some()).collect(),
            promotes_to: readings.iter().map(|r| r.promotes_to).collect(),
            rank: kinds.iter().map(|k| k.rank.unwrap_or(u8::MAX)).collect(),
            range_piece: readings.iter().map(ranges).collect(),
            squares,
            cell_of,
            zone,
            stuck: Vec::new(),
            bars,
            burns,
            royal: kinds.iter().map(|k| k.royal).collect(),
            general,
            vital: (0..kinds.len() as KindId)
                .map(|k| game.end.involves(k))
                .collect(),
            end: game.end.clone(),
            trade: (rs.params.trade.as_ref()).map(|t| TradeTable::new(kinds.len(), t)),
        })
    }

    /// The mailbox cell of a square.
    #[inline]
    pub(crate) fn cell_index(&self, sq: Square) -> usize {
        self.cell_of[sq.0 as usize] as usize
    }
}

/// Stage 1, the border: wide enough for the longest leg of any movement the game may give a
/// piece (its own or one its effects give it).
fn border(game: &Game, readings: &[Reading]) -> usize {
    let alternatives = game.effects.moves_while_absent.iter().map(|a| &a.patterns);
    readings
        .iter()
        .map(|r| &r.patterns)
        .chain(alternatives)
        .map(|p| compile::reach(p))
        .max()
        .unwrap_or(1)
}

/// The padded board: what compiling a ray needs to know of it.
struct Mailbox {
    dims: Dims,
    pad: usize,
    stride: usize,
    /// The longest ride on the board.
    board_max: u8,
}

impl Mailbox {
    fn new(dims: Dims, pad: usize) -> Mailbox {
        Mailbox {
            dims,
            pad,
            stride: dims.files as usize + 2 * pad,
            board_max: dims.files.max(dims.ranks),
        }
    }

    fn compile(&self, patterns: &[crate::betza::Pattern]) -> Result<[Compiled; 2], LegError> {
        let c = |side| Compiled::new(patterns, side, self.stride, self.board_max);
        Ok([c(Side::Black)?, c(Side::White)?])
    }

    /// Stage 3, the cells: the square of every mailbox cell, the cell of every square, and
    /// per side which cells are in its promotion zone (`depth` ranks).
    fn cells(&self, depth: u8) -> (Vec<Square>, Vec<u32>, [Vec<bool>; 2]) {
        let (dims, pad, stride) = (self.dims, self.pad, self.stride);
        let cells = stride * (dims.ranks as usize + 2 * pad);
        let mut squares = vec![Square(0); cells];
        let mut cell_of = Vec::with_capacity(dims.files as usize * dims.ranks as usize);
        let mut zone = [vec![false; cells], vec![false; cells]];
        for sq in dims.squares() {
            let (x, y) = dims.xy(sq);
            let i = (y as usize + pad) * stride + x as usize + pad;
            squares[i] = sq;
            cell_of.push(i as u32);
            for side in Side::BOTH {
                zone[side.index()][i] = dims.in_far_ranks(sq, side, depth);
            }
        }
        (squares, cell_of, zone)
    }
}

/// Stage 2, the movements: every kind's reading compiled for both sides, with the checks a
/// range capturer needs (a rank; a board its victim mask can span).
fn compile_kinds(
    game: &Game,
    readings: &[Reading],
    mailbox: &Mailbox,
) -> Result<Vec<[Compiled; 2]>, CompileError> {
    let mut compiled = Vec::with_capacity(readings.len());
    for (k, r) in game.catalogue.kinds.iter().zip(readings) {
        let code = || k.code.clone();
        if r.betza.contains('x') && k.rank.is_none() {
            return Err(CompileError::RangeWithoutRank { code: code() });
        }
        if r.betza.contains('x') && mailbox.board_max as usize > MAX_LINE {
            return Err(CompileError::RangeBoardTooLarge { code: code() });
        }
        compiled.push(
            mailbox
                .compile(&r.patterns)
                .map_err(|error| CompileError::Movement {
                    code: code(),
                    betza: r.betza.clone(),
                    error,
                })?,
        );
    }
    Ok(compiled)
}

/// How many far ranks make the promotion zone (none without zone promotion).
fn zone_depth(params: &Params) -> u8 {
    match params.promotion {
        Promotion::Zone { depth, .. } => depth,
        _ => 0,
    }
}

/// Whether a reading has a range-capture (`x`) leg.
fn ranges(r: &Reading) -> bool {
    (r.patterns.iter().flat_map(|p| &p.legs)).any(|l| l.kind == LegKind::RangeCapture)
}

/// Stage 4, the auras, read off the kinds (`None` when no kind has one: no cost in generation).
fn auras(game: &Game, rs: &RuleSet, compiled: &[[Compiled; 2]]) -> Option<Auras> {
    let kinds = &game.catalogue.kinds;
    if !kinds.iter().any(|k| k.freezes || k.fog > 0) {
        return None;
    }
    Some(Auras {
        freezes: kinds
            .iter()
            .zip(compiled)
            .map(|(k, c)| match k.freezes {
                true => [c[0].ranging(), c[1].ranging()],
                false => [0, 0],
            })
            .collect(),
        fog: kinds.iter().map(|k| k.fog).collect(),
        sees_in_fog: kinds.iter().map(|k| k.sees_in_fog).collect(),
        fog_reach: kinds.iter().map(|k| k.fog).max().unwrap_or(0),
        fog_lines: rs.params.within == Within::Lines,
    })
}

/// Stage 5, the effects, compiled (`None` for a game without).
fn effects(
    game: &Game,
    rs: &RuleSet,
    readings: &[Reading],
    mailbox: &Mailbox,
) -> Result<Option<EffectTable>, CompileError> {
    let compile = |patterns: &[crate::betza::Pattern]| mailbox.compile(patterns);
    Ok(EffectTable::build(
        &game.effects,
        crate::effects::Build {
            catalogue: &game.catalogue,
            promotes_to: readings.iter().map(|r| r.promotes_to).collect(),
            params: &rs.params,
            dims: game.dims,
            compile: &compile,
        },
    )?)
}

/// The kinds a piece kind may not capture by moving there, may not shoot, and may not hop
/// over: bit sets over kind ids, empty when there are none (as for every Taikyoku piece).
#[derive(Clone, Debug, Default)]
pub(crate) struct Bars {
    pub capture: Vec<u64>,
    pub shoot: Vec<u64>,
    pub hop: Vec<u64>,
}

/// Whether the piece in cell `c` is one of the kinds in bit set `set`.
#[inline]
pub(crate) fn barred(set: &[u64], c: Cell) -> bool {
    !set.is_empty()
        && decode(c).is_some_and(|p| set[p.kind as usize / 64] >> (p.kind % 64) & 1 != 0)
}

impl Bars {
    /// A kind's immunity lists as bit sets over the game's kinds.
    fn of(game: &Game, cannot: &crate::catalogue::Cannot) -> Bars {
        let n = game.catalogue.len();
        let set = |ids: &[KindId]| Bars::set(n, ids.iter().copied());
        Bars {
            capture: set(&cannot.capture),
            shoot: set(&cannot.shoot),
            hop: set(&cannot.hop),
        }
    }

    /// A bit set over `n` kinds holding `kinds`.
    pub fn set(n: usize, kinds: impl IntoIterator<Item = u16>) -> Vec<u64> {
        let mut set = Vec::new();
        for k in kinds {
            if set.is_empty() {
                set = vec![0; n.div_ceil(64)];
            }
            set[k as usize / 64] |= 1 << (k % 64);
        }
        set
    }
}

//! The evaluation: a position's score is its material (the values [`crate::values`] derives
//! from the data) plus a few positional terms, kept incrementally by the search; the weights
//! of the terms beyond material; the tables shared by every search of a rule set.

use crate::values::kind_values;
use std::sync::{Arc, Mutex, OnceLock};
use taikyoku_core::catalogue::KindId;
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::makemove::Undo;
use taikyoku_core::moves::Move;
use taikyoku_core::piece::{Cell, EMPTY, Piece, cell_side, decode, encode};
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// Centipawns per rank a piece stands ahead of its own back rank (development).
pub const ADVANCE: i32 = 1;
/// Centipawns per rank a royal piece stands ahead of its home ranks (a penalty: it should
/// stay behind its army).
pub const ROYAL_ADVANCE: i32 = 4;
/// The home ranks a royal piece may use freely.
const ROYAL_HOME: i32 = 3;
/// Centipawns per file a piece stands away from the middle (a penalty).
pub const CENTRE: i32 = 1;

/// How far from a side's last royal the enemy's pieces count as a threat (Chebyshev
/// distance), and the share of an attacker's value each counts, in per mille, by distance
/// (index 1 is next to the royal).
pub const ROYAL_ZONE: i32 = 3;
pub const ROYAL_THREAT: [i32; 4] = [0, 60, 30, 15];
/// Centipawns per own piece next to a side's last royal (its shelter).
pub const ROYAL_SHELTER: i32 = 12;
/// An attacker counts at most this value (a huge piece near the royal is no worse than a
/// big one: the search sees what it can take).
const THREAT_CAP: i32 = 2000;
/// The royal danger grows with the lead at most this many times over.
const STAKE_CAP: i32 = 32;
/// A side hunts the enemy's royals once its army (royals left out) is this many times the
/// enemy's.
const HUNT_RATIO: i32 = 2;

/// The weights of the terms beyond material, switchable for A/B matches (`taikyoku engine
/// --eval mobility=10,stake=100,hunt=2,exact=0`, the defaults); 0 switches a term off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Tenths of a centipawn per move the side to move has more than its opponent.
    pub mobility: i32,
    /// The lead that doubles a last royal's danger, in per mille of a side's army at the
    /// start: what is at stake when it falls is the whole lead, so a fixed penalty would weigh
    /// nothing far ahead (Taikyoku's armies are 40 times Sho's).
    pub stake: i32,
    /// Centipawns per square a piece stands nearer an enemy royal it can capture, for a side
    /// overwhelmingly ahead ([`HUNT_RATIO`]): the king hunt.
    pub hunt: i32,
    /// 1: the leaf's own moves are counted there (from the parent's incremental cache, which
    /// then is built before the first reply); 0: the side to move's count is taken from two
    /// plies up, where the search generated its moves anyway (free, one move stale).
    pub exact: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            mobility: 10,
            stake: 100,
            hunt: 2,
            exact: 0,
        }
    }
}

/// Why a text of weights was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    #[error("{0:?} is not NAME=N")]
    NotAPair(String),
    #[error("{name}: {value:?} is not a whole number >= 0")]
    NotANumber { name: String, value: String },
    #[error("unknown term {0:?}: mobility, stake, hunt or exact")]
    UnknownTerm(String),
}

impl std::str::FromStr for Weights {
    type Err = WeightsError;

    /// `NAME=N` pairs separated by commas; the names not given keep their default.
    fn from_str(s: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::default();
        for pair in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| WeightsError::NotAPair(pair.into()))?;
            let n: i32 = value
                .trim()
                .parse()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| WeightsError::NotANumber {
                    name: name.into(),
                    value: value.into(),
                })?;
            match name.trim() {
                "mobility" => w.mobility = n,
                "stake" => w.stake = n,
                "hunt" => w.hunt = n,
                "exact" => w.exact = n,
                other => return Err(WeightsError::UnknownTerm(other.into())),
            }
        }
        Ok(w)
    }
}

/// The king hunt of one search: which side hunts, where the enemy's royals stood at the root,
/// and which of the hunter's pieces can capture which of them.
#[derive(Clone, Debug)]
struct Hunt {
    side: usize,
    /// The hunted royals' files and ranks.
    royals: Vec<(i8, i8)>,
    /// Per cell code: bit `j` set if the piece can capture `royals[j]`.
    takes: Vec<u64>,
    reach: i32,
}

/// The evaluation tables a search uses: values looked up by board cell, and the small
/// positional terms (development, a royal staying home, the centre) by mailbox cell.
#[derive(Clone, Debug)]
pub struct Eval {
    /// Per cell code (kind, side, promoted): the piece's value.
    by_cell: Vec<i32>,
    /// Per cell code: whether the piece is royal.
    royal: Vec<bool>,
    /// Per side, per mailbox cell: ranks ahead of the side's back rank (0 off the board).
    ahead: [Vec<i8>; 2],
    /// Per mailbox cell: files away from the middle.
    off_centre: Vec<i8>,
    /// Per mailbox cell: its file and rank (-1 off the board).
    xy: Vec<(i8, i8)>,
    /// Mailbox cells per rank.
    stride: usize,
    /// The widest a piece's place term can vary over the board, the hunt left out
    /// ([`Eval::gain_bound`]).
    place_span: i32,
    pub weights: Weights,
    /// A side's army at the start (Black's; [`Eval::army`]).
    start_army: i32,
    /// Set by [`Eval::for_position`] when a side is overwhelmingly ahead.
    hunt: Option<Hunt>,
    /// Per kind: the royal kinds it can capture ([`capturable_royals`]), found on first use.
    takes: Arc<OnceLock<Vec<Vec<KindId>>>>,
}

impl Eval {
    pub fn new(rules: &Rules) -> Eval {
        let values: Vec<i32> = kind_values(rules).iter().map(|v| v.value).collect();
        let kinds = &rules.catalogue().kinds;
        let cells = (values.len() + 1) << 2;
        let mut by_cell = vec![0; cells];
        let mut royal = vec![false; cells];
        for c in 4..cells {
            if let Some(p) = decode(c as Cell) {
                by_cell[c] = values[p.kind as usize];
                royal[c] = kinds[p.kind as usize].royal;
            }
        }
        let dims = rules.dims();
        let board = rules.empty_position().cells().len();
        let mut ahead = [vec![0; board], vec![0; board]];
        let mut off_centre = vec![0; board];
        let mut xy = vec![(-1, -1); board];
        for sq in dims.squares() {
            let (x, y) = dims.xy(sq);
            let i = rules.cell_index(sq);
            xy[i] = (x as i8, y as i8);
            ahead[0][i] = y as i8;
            ahead[1][i] = (dims.ranks as i32 - 1 - y) as i8;
            // Twice the distance, so that an even number of files has no favourite.
            off_centre[i] = ((2 * x - (dims.files as i32 - 1)).abs() / 2) as i8;
        }
        let stride = rules.cell_index(dims.square(0, 1).expect("two ranks"))
            - rules.cell_index(dims.square(0, 0).expect("a square"));
        let mut e = Eval {
            by_cell,
            royal,
            ahead,
            off_centre,
            xy,
            stride,
            place_span: (ADVANCE + ROYAL_ADVANCE) * dims.ranks as i32 + CENTRE * dims.files as i32,
            weights: Weights::default(),
            start_army: 0,
            hunt: None,
            takes: Default::default(),
        };
        e.start_army = e.army(&rules.start_position(), 0);
        e
    }

    /// The evaluation for a search from `pos`: the king hunt switched on (towards the royals
    /// where they stand now) if a side's material is [`HUNT_RATIO`] times the other's.
    pub fn for_position(&self, rules: &Rules, pos: &Position) -> Eval {
        let mut e = self.clone();
        e.hunt = None;
        if self.weights.hunt == 0 {
            return e;
        }
        let total = |side| self.army(pos, side);
        let Some(side) = (0..2).find(|&s| total(s) >= HUNT_RATIO * total(1 - s).max(1)) else {
            return e;
        };
        let takes = self.takes.get_or_init(|| capturable_royals(rules));
        let royals: Vec<(usize, KindId)> = pos
            .side_cells(if side == 0 { Side::White } else { Side::Black })
            .filter(|&i| self.royal[pos.cell(i) as usize])
            .filter_map(|i| decode(pos.cell(i)).map(|p| (i, p.kind)))
            .take(64)
            .collect();
        let codes = self.by_cell.len();
        let takes = (0..codes)
            .map(|c| {
                // Codes 1..4 hold no piece (kinds count from code 4).
                let piece = (c >= 4).then(|| decode(c as Cell)).flatten();
                let piece = piece.filter(|p| (p.kind as usize) < takes.len());
                piece.map_or(0, |p| {
                    (royals.iter().enumerate())
                        .filter(|(_, (_, k))| takes[p.kind as usize].contains(k))
                        .fold(0u64, |bits, (j, _)| bits | 1 << j)
                })
            })
            .collect();
        let dims = rules.dims();
        e.hunt = Some(Hunt {
            side,
            royals: royals.iter().map(|&(i, _)| self.xy[i]).collect(),
            takes,
            reach: dims.files.max(dims.ranks) as i32,
        });
        e
    }

    /// The value of `side`'s (index) pieces, royals left out (their bonus would hide a lone
    /// royal's plight).
    fn army(&self, pos: &Position, side: usize) -> i32 {
        pos.cells()
            .iter()
            .filter(|&&c| c != EMPTY && c != taikyoku_core::piece::OFF && cell_side(c) == side)
            .filter(|&&c| !self.royal[c as usize])
            .map(|&c| self.cell_value(c))
            .sum()
    }

    /// The side that hunts the enemy's royals in this search, if any.
    pub fn hunter(&self) -> Option<Side> {
        let side = self.hunt.as_ref()?.side;
        Some(if side == 0 { Side::Black } else { Side::White })
    }

    /// The hunt's bonus for the piece in `cell` on mailbox cell `idx`: per square nearer the
    /// nearest enemy royal it can capture.
    #[inline]
    fn hunt_bonus(&self, cell: Cell, idx: usize) -> i32 {
        let Some(h) = &self.hunt else { return 0 };
        if cell_side(cell) != h.side {
            return 0;
        }
        let bits = h.takes[cell as usize];
        let (x, y) = self.xy[idx];
        let near = (h.royals.iter().enumerate())
            .filter(|&(j, _)| bits >> j & 1 == 1)
            .map(|(_, &(rx, ry))| {
                (rx as i32 - x as i32)
                    .abs()
                    .max((ry as i32 - y as i32).abs())
            })
            .min();
        near.map_or(0, |d| self.weights.hunt * (h.reach - d).max(0))
    }

    /// The mobility term for the side to move with `own` moves against the opponent's
    /// `theirs`. The search reads both counts where it has them almost for free: the
    /// opponent's is the length of the move list the parent node generated (one move
    /// earlier), the side to move's is counted from the parent's incremental move cache
    /// ([`taikyoku_core::movecache::MoveCache::count_after`]), which only regenerates the pieces the
    /// last move touched ([`Weights::exact`]; else the grandparent's count). Generating both
    /// sides' moves at every leaf would cost about as much as the rest of the search together
    /// on a 36×36 board; counted this way it costs 5–8 % of the nodes a second in Taikyoku
    /// (25 % in Sho, where a node is cheap), measured with `bestmove --nodes --eval`.
    pub fn mobility(&self, own: u64, theirs: u64) -> i32 {
        (own as i64 - theirs as i64).clamp(-100_000, 100_000) as i32 * self.weights.mobility / 10
    }

    /// The value of the piece in `cell` (0 for an empty cell).
    #[inline]
    pub(crate) fn cell_value(&self, cell: Cell) -> i32 {
        self.by_cell.get(cell as usize).copied().unwrap_or(0)
    }

    /// The piece in `cell` on mailbox cell `idx`: its value and where it stands.
    #[inline]
    fn worth(&self, cell: Cell, idx: usize) -> i32 {
        if cell == EMPTY {
            return 0;
        }
        let ahead = self.ahead[cell_side(cell)][idx] as i32;
        let place = if self.royal[cell as usize] {
            -ROYAL_ADVANCE * (ahead - ROYAL_HOME).max(0)
        } else {
            ADVANCE * ahead - CENTRE * self.off_centre[idx] as i32 + self.hunt_bonus(cell, idx)
        };
        self.cell_value(cell) + place
    }

    /// The value of a piece.
    pub fn piece_value(&self, p: Piece) -> i32 {
        self.cell_value(encode(p))
    }

    /// The whole evaluation from scratch, Black's view: material and place of every piece.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        pos.cells()
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != EMPTY && c != taikyoku_core::piece::OFF)
            .map(|(i, &c)| self.signed_worth(c, i))
            .sum()
    }

    /// The safety of the royals, from the side to move's view, whose material lead is `lead`:
    /// a side down to its last royal loses with it, so the enemy pieces near it (weighted by
    /// their value and closeness) count against it and its own pieces next to it for it. The
    /// danger grows with what would be lost: the side's lead over [`Weights::stake`] (a side
    /// far ahead must not let a short attack take the game from it). Not kept move by move:
    /// the search adds it where it stands pat.
    pub fn royal_safety(&self, pos: &Position, lead: i32) -> i32 {
        let us = pos.to_move();
        self.staked(self.royal_danger(pos, us.opponent()), -lead)
            - self.staked(self.royal_danger(pos, us), lead)
    }

    /// `danger` to the royal of a side that leads by `lead`, grown with the stake.
    fn staked(&self, danger: i32, lead: i32) -> i32 {
        if self.weights.stake == 0 || lead <= 0 || danger == 0 {
            return danger;
        }
        let stake = (self.weights.stake as i64 * self.start_army as i64 / 1000).max(1);
        let grown = (stake + lead as i64).min(STAKE_CAP as i64 * stake);
        (danger as i64 * grown / stake) as i32
    }

    /// How exposed `side`'s last royal is (0 while it has several, or none).
    fn royal_danger(&self, pos: &Position, side: Side) -> i32 {
        if pos.royals(side) != 1 {
            return 0;
        }
        let Some(at) = pos
            .side_cells(side)
            .find(|&i| self.royal[pos.cell(i) as usize])
        else {
            return 0;
        };
        let (x0, y0) = self.xy[at];
        let us = side.index();
        let mut danger = 0;
        for dy in -ROYAL_ZONE..=ROYAL_ZONE {
            for dx in -ROYAL_ZONE..=ROYAL_ZONE {
                let (x, y) = (x0 as i32 + dx, y0 as i32 + dy);
                let i = at as isize + dy as isize * self.stride as isize + dx as isize;
                if (dx, dy) == (0, 0)
                    || i < 0
                    || self.xy.get(i as usize) != Some(&(x as i8, y as i8))
                {
                    continue;
                }
                let c = pos.cell(i as usize);
                if c == EMPTY {
                    continue;
                }
                let d = dx.abs().max(dy.abs()) as usize;
                if cell_side(c) == us {
                    if d == 1 {
                        danger -= ROYAL_SHELTER;
                    }
                } else {
                    danger += self.cell_value(c).min(THREAT_CAP) * ROYAL_THREAT[d] / 1000;
                }
            }
        }
        danger
    }

    /// Material only, Black's minus White's.
    pub fn material(&self, pos: &Position) -> i32 {
        pos.cells()
            .iter()
            .filter(|&&c| c != EMPTY && c != taikyoku_core::piece::OFF)
            .map(|&c| {
                let v = self.cell_value(c);
                if cell_side(c) == 0 { v } else { -v }
            })
            .sum()
    }

    /// What a move (legal in `pos`) changes the mover's [`Eval::evaluate`] by: the enemy
    /// pieces it removes, minus its own, plus what promotion adds and where the mover goes.
    pub fn move_gain(&self, rules: &Rules, pos: &Position, m: &Move) -> i32 {
        let us = pos.to_move().index();
        let mut g = 0;
        for sq in m.victims(rules.dims()) {
            let i = rules.cell_index(sq);
            let c = pos.cell(i);
            let v = self.worth(c, i);
            g += if cell_side(c) == us { -v } else { v };
        }
        let from = rules.cell_index(m.from);
        let mover = pos.cell(from);
        let arriving = if m.promotes() {
            self.promoted_cell(rules, mover)
        } else {
            mover
        };
        g + self.worth(arriving, rules.cell_index(m.to)) - self.worth(mover, from)
    }

    /// Whether `m` removes the enemy's last royal (a win the quiescence search must never
    /// prune away).
    pub fn takes_last_royal(&self, rules: &Rules, pos: &Position, m: &Move) -> bool {
        let us = pos.to_move().index();
        pos.royals(pos.to_move().opponent()) == 1
            && m.victims(rules.dims()).any(|sq| {
                let c = pos.cell(rules.cell_index(sq));
                cell_side(c) != us && self.royal.get(c as usize).copied().unwrap_or(false)
            })
    }

    /// An upper bound of [`Eval::move_gain`] for a move that does not promote, from the
    /// victims' values alone: cheaper (a lookup a victim), for the quiescence search to drop
    /// the captures that cannot pass its tests before computing their gain. Each piece's place
    /// term lies within a span of the board's ranks and files (and the hunt's reach), so a
    /// victim's worth is its value give or take that span, and the mover's place changes by
    /// at most it.
    pub fn gain_bound(&self, rules: &Rules, pos: &Position, m: &Move) -> i32 {
        let us = pos.to_move().index();
        let span = self.place_span
            + self
                .hunt
                .as_ref()
                .map_or(0, |h| self.weights.hunt.abs() * h.reach);
        let mut g = span;
        for sq in m.victims(rules.dims()) {
            let c = pos.cell(rules.cell_index(sq));
            let v = self.cell_value(c);
            g += span + if cell_side(c) == us { -v } else { v };
        }
        g
    }

    /// What the game's effects changed the mover's [`Eval::evaluate`] by, beyond
    /// [`Eval::move_gain`] (Kō shōgi's linked promotions and reversions): read off `pos` right
    /// after [`Rules::make`] returned `undo`. Zero in games without effects.
    pub fn effects_gain(&self, pos: &Position, undo: &Undo) -> i32 {
        // Each changed cell once: from its first old contents to what it holds now.
        let delta: i32 = undo
            .effect_changes(pos)
            .map(|(i, old)| self.signed_worth(pos.cell(i), i) - self.signed_worth(old, i))
            .sum();
        // Black's view; the mover is the side not to move now.
        if pos.to_move() == Side::White {
            delta
        } else {
            -delta
        }
    }

    /// A piece's [`Eval::worth`] from Black's view.
    fn signed_worth(&self, cell: Cell, idx: usize) -> i32 {
        let v = self.worth(cell, idx);
        if cell == EMPTY || cell_side(cell) == 0 {
            v
        } else {
            -v
        }
    }

    /// The cell code of `cell`'s piece promoted (as [`Rules::make`] promotes it: a promoted
    /// piece too, where the rules let it promote again).
    fn promoted_cell(&self, rules: &Rules, cell: Cell) -> Cell {
        match decode(cell) {
            Some(mut p) => {
                if let Some(k) = rules.readings[p.kind as usize].promotes_to {
                    p.kind = k;
                    p.promoted = true;
                }
                encode(p)
            }
            _ => cell,
        }
    }

    /// The value of the piece that makes the move.
    pub fn mover_value(&self, rules: &Rules, pos: &Position, m: &Move) -> i32 {
        self.cell_value(pos.cell(rules.cell_index(m.from)))
    }
}

/// Per kind: the royal kinds it can capture, asked of the generator (no rule is copied here:
/// under ATSA's rules a range capturer cannot take a higher-ranked royal, and a kind's
/// `cannot_capture` list may bar one). The piece stands in the middle of an empty board; an
/// enemy royal is put on each square it reaches and on each square near it, until one of its
/// generated moves captures it.
pub fn capturable_royals(rules: &Rules) -> Vec<Vec<KindId>> {
    let kinds = &rules.catalogue().kinds;
    let royal_kinds: Vec<KindId> = (0..kinds.len())
        .filter(|&k| kinds[k].royal)
        .map(|k| k as KindId)
        .collect();
    let dims = rules.dims();
    let Some(centre) = dims.square(dims.files as i32 / 2, dims.ranks as i32 / 2) else {
        return vec![Vec::new(); kinds.len()];
    };
    let mut pos = rules.empty_position();
    (0..kinds.len())
        .map(|k| {
            let piece = Piece {
                kind: k as KindId,
                side: Side::Black,
                promoted: rules.readings[k].promotes_to.is_none(),
            };
            rules.put_unjudged(&mut pos, centre, Some(piece));
            let (cx, cy) = dims.xy(centre);
            let near = (-3..=3)
                .flat_map(|dy| (-3..=3).map(move |dx| (cx + dx, cy + dy)))
                .filter_map(|(x, y)| dims.square(x, y));
            let mut targets: Vec<Square> = rules
                .moves_from(&pos, centre)
                .iter()
                .map(|m| m.to)
                .chain(near)
                .filter(|&sq| sq != centre)
                .collect();
            targets.sort_by_key(|sq| sq.0);
            targets.dedup();
            let takes = royal_kinds
                .iter()
                .copied()
                .filter(|&r| {
                    let royal = Piece {
                        kind: r,
                        side: Side::White,
                        promoted: rules.readings[r as usize].promotes_to.is_none(),
                    };
                    targets.iter().any(|&sq| {
                        rules.put_unjudged(&mut pos, sq, Some(royal));
                        let hit = (rules.moves_from(&pos, centre).iter())
                            .any(|m| m.victims(dims).any(|v| v == sq));
                        rules.put_unjudged(&mut pos, sq, None);
                        hit
                    })
                })
                .collect();
            rules.put_unjudged(&mut pos, centre, None);
            takes
        })
        .collect()
}

/// Evaluation tables, computed once per rule set and shared (their derivation generates
/// thousands of sample moves).
pub fn shared_eval(rules: &Rules) -> Arc<Eval> {
    type Cache = Mutex<Vec<(String, String, usize, Arc<Eval>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let id = (
        rules.game.name.clone(),
        rules.rule_set.name.clone(),
        rules.catalogue().kinds.len(),
    );
    let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((.., e)) = guard
        .iter()
        .find(|(g, r, n, _)| (g, r, n) == (&id.0, &id.1, &id.2))
    {
        return e.clone();
    }
    let e = Arc::new(Eval::new(rules));
    guard.push((id.0, id.1, id.2, e.clone()));
    e
}

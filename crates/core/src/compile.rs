//! The compiler: a piece kind's Betza patterns become, for one side, rays on the padded
//! mailbox (a board vector, its step on the mailbox, how far, what it may land on), walked by
//! the generator. Every leg direction is resolved here, once per rule set, so that generation
//! never reads a Betza string.

use crate::betza::{self, LegError, LegKind, Mode, Pattern};
use crate::geometry::{Side, Vec2};

/// A leg compiled for one side: the board vector, its step on the mailbox, how far.
#[derive(Clone, Debug)]
pub(crate) struct Ray {
    pub(crate) vec: Vec2,
    pub(crate) delta: isize,
    pub(crate) max: u8,
    pub(crate) mode: Mode,
    pub(crate) kind: Kind,
    /// A shot: captures where it ends, the piece staying where the leg started.
    pub(crate) shoot: bool,
    /// Mailbox offsets that must be empty for a lame leap.
    pub(crate) lame: Vec<isize>,
    /// The lame squares block only a piece of the mover's own side (`~`).
    pub(crate) lame_by_own: bool,
    /// Later legs, chosen relative to this one; empty for a final leg.
    pub(crate) next: Vec<Ray>,
}

/// How a leg treats the pieces on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Plain,
    Hop(u8),
    Range,
}

/// A piece kind's moves for one side, ready to walk.
#[derive(Clone, Debug, Default)]
pub(crate) struct Compiled {
    /// Single-leg rays that are blocked by the first piece (steps, slides, leaps): the bulk of
    /// every position's moves, walked by a tight loop.
    pub(crate) simple: Vec<Ray>,
    /// Everything else: lame leaps, hops, range capture and multi-leg moves.
    pub(crate) rays: Vec<Ray>,
    /// Whether two of its rays can produce the same move, so results must be de-duplicated.
    pub(crate) dedup: bool,
}

/// Squares the longest leg reaches in one step, for the board's border.
pub(crate) fn reach(patterns: &[Pattern]) -> usize {
    patterns
        .iter()
        .flat_map(|p| &p.legs)
        .flat_map(|l| &l.atoms)
        .map(|a| a.king_len() as usize)
        .max()
        .unwrap_or(1)
}

/// The squares a lame leap crosses: along its line, or for an oblique leap the orthogonal
/// step towards its longer component first.
fn lame_path(v: Vec2) -> Vec<Vec2> {
    if let Some(u) = v.unit() {
        (1..v.king_len()).map(|k| u.scale(k)).collect()
    } else if v.x.abs() > v.y.abs() {
        vec![Vec2::new(v.x.signum(), 0)]
    } else {
        vec![Vec2::new(0, v.y.signum())]
    }
}

fn compile_leg(
    pattern: &Pattern,
    k: usize,
    previous: Option<Vec2>,
    side: Side,
    stride: isize,
    board_max: u8,
) -> Result<Vec<Ray>, LegError> {
    let leg = &pattern.legs[k];
    let vectors = leg.vectors(previous)?;
    let mut out = Vec::new();
    for v in vectors {
        let vec = if previous.is_none() {
            side.orient(v)
        } else {
            v
        };
        let kind = match leg.kind {
            LegKind::Plain | LegKind::Lame | LegKind::LameByOwn => Kind::Plain,
            LegKind::Hop(n) => Kind::Hop(n.unwrap_or(u8::MAX)),
            LegKind::RangeCapture => Kind::Range,
        };
        if kind == Kind::Range && pattern.legs.len() > 1 {
            return Err(LegError::RangeInChain);
        }
        let lame = if matches!(leg.kind, LegKind::Lame | LegKind::LameByOwn) {
            lame_path(vec)
                .into_iter()
                .map(|s| s.y as isize * stride + s.x as isize)
                .collect()
        } else {
            Vec::new()
        };
        let next = if k + 1 < pattern.legs.len() {
            compile_leg(pattern, k + 1, Some(vec), side, stride, board_max)?
        } else {
            Vec::new()
        };
        out.push(Ray {
            vec,
            delta: vec.y as isize * stride + vec.x as isize,
            max: if leg.range == 0 {
                board_max
            } else {
                leg.range.min(board_max)
            },
            mode: leg.mode,
            kind,
            shoot: leg.shoot,
            lame,
            lame_by_own: leg.kind == LegKind::LameByOwn,
            next,
        });
    }
    Ok(out)
}

impl Compiled {
    pub(crate) fn new(
        patterns: &[Pattern],
        side: Side,
        stride: usize,
        board_max: u8,
    ) -> Result<Compiled, LegError> {
        let mut all = Vec::new();
        for p in patterns {
            all.extend(compile_leg(p, 0, None, side, stride as isize, board_max)?);
        }
        let dedup = all.iter().any(|r| !r.next.is_empty()) || overlapping(&all);
        let (simple, rays) = all.into_iter().partition(|r| {
            r.next.is_empty() && r.kind == Kind::Plain && r.lame.is_empty() && !r.shoot
        });
        Ok(Compiled {
            simple,
            rays,
            dedup,
        })
    }
}

impl Compiled {
    /// The directions it ranges along (single-leg rides of more than one square), as a mask
    /// over [`betza::octant`]s.
    pub(crate) fn ranging(&self) -> u8 {
        let rides = self.simple.iter().chain(&self.rays);
        let lines = rides.filter(|r| r.next.is_empty() && r.max > 1 && !r.shoot);
        lines
            .filter_map(|r| betza::octant(r.vec))
            .fold(0, |m, o| m | 1 << o)
    }
}

/// Whether two single-leg rays can land on the same square.
fn overlapping(rays: &[Ray]) -> bool {
    if rays.iter().any(|r| r.kind != Kind::Plain) {
        return true;
    }
    let mut seen = std::collections::HashSet::new();
    for r in rays {
        for k in 1..=r.max.min(40) as i32 {
            if !seen.insert(r.vec.scale(k)) {
                return true;
            }
        }
    }
    false
}

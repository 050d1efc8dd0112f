//! Time management: what limits a search, and the budgets the time manager draws from a
//! clock or a time per move.

use std::time::Duration;
use taikyoku_core::moves::Move;

/// What limits a search; with none, it runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// A hard budget for this move.
    pub movetime: Option<Duration>,
    /// The clock: the time manager picks the budget.
    pub clock: Option<Clock>,
    /// Search only these moves (like UCI's `searchmoves`).
    pub root_moves: Option<Vec<Move>>,
}

/// The mover's clock.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    pub opponent: Option<Duration>,
}

/// The time manager: (soft, hard) budgets. No new iteration starts after the soft one; the
/// search stops at the hard one. With a clock: about a thirtieth of the time left plus most
/// of the increment, never more than a quarter of what is left, and a margin for the reply.
pub(crate) fn budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    let margin = |d: Duration| d.saturating_sub((d / 20).min(Duration::from_millis(50)));
    let mut hard = limits.movetime.map(margin);
    let mut soft = hard.map(|h| h / 2);
    if let Some(c) = limits.clock {
        let left = c.remaining.saturating_sub(Duration::from_millis(30));
        let target = (left / 30 + c.increment * 3 / 4).min(left / 4);
        let cap = (target * 3).min(left / 3);
        hard = Some(hard.map_or(cap, |h| h.min(cap)));
        soft = Some(soft.map_or(target / 2, |s| s.min(target / 2)));
    }
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_keeps_a_margin_for_the_reply_and_a_share_of_the_clock() {
        let ms = Duration::from_millis;
        let movetime = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(budget(&movetime), (Some(ms(475)), Some(ms(950))));
        assert_eq!(budget(&Limits::default()), (None, None));
        let clock = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::from_secs(1),
            opponent: None,
        };
        let (soft, hard) = budget(&Limits {
            clock: Some(clock),
            ..Limits::default()
        });
        let (soft, hard) = (soft.expect("soft"), hard.expect("hard"));
        assert!(
            soft < hard && hard <= Duration::from_secs(20),
            "{soft:?} {hard:?}"
        );
        assert!(
            hard > Duration::from_secs(2),
            "a thirtieth and most of the increment, thrice"
        );
        let both = budget(&Limits {
            clock: Some(clock),
            ..movetime
        });
        assert_eq!(both, (Some(ms(475)), Some(ms(950))), "the shorter wins");
    }
}

//! Time controls and the clocks a host keeps for both sides: a base time and an increment added
//! after every move (Fischer), written `BASE+INC` in seconds (`60+1`, `0.5+0.1`, `300`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use taikyoku_core::geometry::Side;

/// Base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

/// A time control that could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("time control {text:?}: {reason}; expected BASE+INC in seconds, such as 60+1 or 0.5+0.1")]
pub struct TimeControlError {
    pub text: String,
    pub reason: String,
}

/// The longest base or increment accepted: a week.
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let error = |reason: String| TimeControlError {
            text: s.to_string(),
            reason,
        };
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let seconds = |part: &str, what: &str| -> Result<Duration, TimeControlError> {
            let v: f64 = part
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| !part.trim().starts_with('+') && v.is_finite())
                .ok_or_else(|| error(format!("the {what} {part:?} is not a number")))?;
            if !(0.0..=MAX_SECONDS).contains(&v) {
                return Err(error(format!(
                    "the {what} must be between 0 and {MAX_SECONDS} seconds"
                )));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let tc = TimeControl {
            base: seconds(base, "base")?,
            increment: seconds(inc, "increment")?,
        };
        if tc.base.is_zero() {
            return Err(error("the base time must be more than 0".into()));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// Both sides' remaining time under a time control. A side may play without a clock (a
/// person against an engine that needs one): its time is never charged and never runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub control: TimeControl,
    remaining: [Duration; 2],
    timed: [bool; 2],
}

/// What a clock says after a move: still running, or the flag fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    InTime,
    /// The side used more than it had (beyond the margin).
    Fallen,
}

impl Clocks {
    /// Both sides timed, each with the base time.
    pub fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            remaining: [control.base; 2],
            timed: [true; 2],
        }
    }

    /// Clocks as they stood (a game resumed from its record): the time left by side index,
    /// none for a side that plays without a clock.
    pub fn resumed(control: TimeControl, remaining: [Option<Duration>; 2]) -> Clocks {
        Clocks {
            control,
            remaining: remaining.map(|r| r.unwrap_or(control.base)),
            timed: remaining.map(|r| r.is_some()),
        }
    }

    /// These clocks with `side` playing without one.
    pub fn untimed(mut self, side: Side) -> Clocks {
        self.timed[side.index()] = false;
        self.remaining[side.index()] = self.control.base;
        self
    }

    /// Whether `side` plays by its clock.
    pub fn is_timed(&self, side: Side) -> bool {
        self.timed[side.index()]
    }

    /// A side's remaining time (an untimed side's stays the base).
    pub fn remaining(&self, side: Side) -> Duration {
        self.remaining[side.index()]
    }

    /// Charges `side` for a move that took `used`: its flag falls if that is more than it had
    /// plus `margin` (latency a host forgives); otherwise it gets the increment.
    /// Takes back the increment `side` got for a move now taken back (the time it spent on
    /// the move stays spent).
    pub fn take_back_increment(&mut self, side: Side) {
        if self.is_timed(side) {
            let left = &mut self.remaining[side.index()];
            *left = left.saturating_sub(self.control.increment);
        }
    }

    /// An untimed side is never charged.
    pub fn charge(&mut self, side: Side, used: Duration, margin: Duration) -> Flag {
        if !self.is_timed(side) {
            return Flag::InTime;
        }
        let left = &mut self.remaining[side.index()];
        if used > *left + margin {
            *left = Duration::ZERO;
            return Flag::Fallen;
        }
        *left = left.saturating_sub(used) + self.control.increment;
        Flag::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn reads_base_and_increment() {
        assert_eq!(tc("60+1").base, Duration::from_secs(60));
        assert_eq!(tc("60+1").increment, Duration::from_secs(1));
        assert_eq!(tc("0.5+0.1").base, Duration::from_millis(500));
        assert_eq!(tc("0.5+0.1").increment, Duration::from_millis(100));
        assert_eq!(tc("300").increment, Duration::ZERO);
        assert_eq!(tc("60+1").to_string(), "60+1");
        assert_eq!(tc("0.5+0.1").to_string(), "0.5+0.1");
    }

    #[test]
    fn refuses_what_is_not_a_time_control() {
        for bad in [
            "", "+1", "60+", "a+1", "60+b", "-1+0", "60+-1", "0+1", "inf+1", "NaN", "1e9+0",
            "60++1",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert_eq!(e.text, bad);
            assert!(e.to_string().contains("BASE+INC"), "{e}");
        }
    }

    #[test]
    fn clocks_charge_add_the_increment_and_flag() {
        let mut c = Clocks::new(tc("1+0.5"));
        let margin = Duration::from_millis(100);
        assert_eq!(
            c.charge(Side::Black, Duration::from_millis(800), margin),
            Flag::InTime
        );
        assert_eq!(c.remaining(Side::Black), Duration::from_millis(700));
        assert_eq!(c.remaining(Side::White), Duration::from_secs(1));
        // Late but within the margin: in time, with nothing left but the increment.
        assert_eq!(
            c.charge(Side::Black, Duration::from_millis(750), margin),
            Flag::InTime
        );
        assert_eq!(c.remaining(Side::Black), Duration::from_millis(500));
        assert_eq!(
            c.charge(Side::Black, Duration::from_millis(601), margin),
            Flag::Fallen
        );
        assert_eq!(c.remaining(Side::Black), Duration::ZERO);
        // A side without a clock is never charged and its flag never falls.
        let mut c = Clocks::new(tc("1+0.5")).untimed(Side::White);
        assert!(!c.is_timed(Side::White) && c.is_timed(Side::Black));
        let hour = Duration::from_secs(3600);
        assert_eq!(c.charge(Side::White, hour, margin), Flag::InTime);
        assert_eq!(c.remaining(Side::White), Duration::from_secs(1));
        assert_eq!(c.charge(Side::Black, hour, margin), Flag::Fallen);
        let back = Clocks::resumed(c.control, [Some(Duration::ZERO), None]);
        assert_eq!(back, c);
        // A move taken back takes its increment with it.
        let mut c = Clocks::new(tc("1+0.5"));
        c.charge(Side::Black, Duration::from_millis(200), margin);
        c.take_back_increment(Side::Black);
        assert_eq!(c.remaining(Side::Black), Duration::from_millis(800));
    }
}

//! An external ATSI engine as a player of the terminal game ([`crate::host`] runs the process
//! and checks its moves). The engine keeps a clock: it loses when it hangs past its time,
//! crashes or sends an illegal move. ATSI cannot take a move back, so after an undo (or on
//! a game resumed midway) the engine is told the game again from the position it is in.

use super::players::{Failed, Progress, Thought};
use crate::host::{EngineLog, EngineProcess, HostError};
use std::time::{Duration, Instant};
use taikyoku::geometry::Side;
use taikyoku::history::History;
use taikyoku::position::EndReason;
use taikyoku::timecontrol::Clocks;

/// The time control an engine plays by in the terminal game unless `--time` says otherwise.
pub const DEFAULT_TIME: &str = "120+2";

/// Latency forgiven beyond the engine's clock before it loses on time.
pub const MARGIN: Duration = Duration::from_secs(1);

/// A running engine playing one side.
pub struct Engine {
    process: EngineProcess,
    side: Side,
    /// The point and position the engine was last told of (it knows the game to there).
    synced: Option<(usize, u64)>,
}

impl Engine {
    /// Starts `command` (its conversation logged to `log`) to play `side`.
    pub fn spawn(command: &str, side: Side, log: EngineLog) -> Result<Engine, HostError> {
        Ok(Engine {
            process: EngineProcess::spawn(command, log)?,
            side,
            synced: None,
        })
    }

    pub fn side(&self) -> Side {
        self.side
    }

    pub fn name(&self) -> &str {
        self.process.name()
    }

    /// The process group to kill when the game ends while the engine thinks.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// The engine's move in `h`'s position (its side to move), within its time on `clocks`.
    pub fn play(&mut self, h: &History, clocks: &Clocks) -> Result<Thought, Failed> {
        let p = h.point();
        let knows = |n: usize| self.synced == Some((n, h.position_at(n).hash()));
        // It knows the game up to the point, or up to the opponent's move just played (which
        // it is told); otherwise it is told the game again from there.
        if !(knows(p) || p > 0 && knows(p - 1)) {
            let from = if p > 0 && h.played()[p - 1].side != self.side {
                h.branch(p - 1)
            } else {
                h.clone()
            };
            self.process
                .start_game(&from, self.side, clocks.control)
                .map_err(failed)?;
        }
        let deadline = Instant::now() + clocks.remaining(self.side) + MARGIN;
        let m = self
            .process
            .request_move(h, clocks, deadline)
            .map_err(failed)?;
        let mut after = h.position().clone();
        h.rules().play_unchecked(&mut after, &m.mv);
        self.synced = Some((p + 1, after.hash()));
        // Its evaluation is Black's; the screen shows the mover's.
        let score = m.eval.map(|e| match self.side {
            Side::Black => e,
            Side::White => -e,
        });
        Ok(Thought {
            mv: m.mv,
            progress: Progress {
                depth: 0,
                score,
                best: Some(m.mv),
                nodes: 0,
            },
            elapsed: Some(m.elapsed),
        })
    }
}

/// How an engine's failure ends the game: a resignation, a loss on time, else a forfeit.
fn failed(e: HostError) -> Failed {
    let reason = match &e {
        HostError::Resigned(_) => EndReason::Resignation,
        HostError::TimedOut {
            waiting_for: "move",
            ..
        } => EndReason::Time,
        _ => EndReason::Forfeit,
    };
    let why = match e {
        HostError::Resigned(why) => why.unwrap_or_default(),
        e => e.to_string(),
    };
    Failed { reason, why }
}

/// "1:58": a clock as people read it.
pub fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

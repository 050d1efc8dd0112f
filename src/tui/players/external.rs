//! An external ATSI engine as a player of the terminal game ([`taikyoku_protocol::host`] runs
//! the process and checks its moves). The engine keeps a clock: it loses when it hangs past its
//! time, crashes or sends an illegal move. ATSI cannot take a move back, so after an undo (or on
//! a game resumed midway) the engine is told the game again from the position it is in.
//!
//! ATSI v00 cannot stop an engine either: an undo (or redo) while it thinks kills it (its
//! process group, through its [`Handle`]), which ends the wait for its move at once, and its
//! next move starts it again and tells it the game from scratch. Waiting for the reply to
//! throw it away would keep the player waiting for as long as the engine thinks (for a hung
//! engine, its whole clock) before it could be asked anything; a restart costs only its
//! handshake, and the engine and the game cannot disagree about the position afterwards.

use super::{Failed, Progress, Thought};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use taikyoku_core::geometry::Side;
use taikyoku_core::position::EndReason;
use taikyoku_protocol::host::{EngineLog, EngineProcess, HostError, kill_group};
use taikyoku_records::history::History;
use taikyoku_records::timecontrol::Clocks;

/// The time control an engine plays by in the terminal game unless `--time` says otherwise.
pub const DEFAULT_TIME: &str = "120+2";

/// Latency forgiven beyond the engine's clock before it loses on time.
pub const MARGIN: Duration = Duration::from_secs(1);

/// What the game needs to stop an engine while its thread waits for its move: its process
/// group (the current one: a restarted engine has another) and a mark that it was killed.
#[derive(Clone, Debug, Default)]
pub struct Handle {
    pid: Arc<AtomicU32>,
    killed: Arc<AtomicBool>,
}

impl Handle {
    /// Kills the engine's process group at once; its next move starts it again.
    pub fn kill(&self) {
        self.killed.store(true, Ordering::SeqCst);
        kill_group(self.pid.load(Ordering::SeqCst));
    }
}

/// A running engine playing one side.
pub struct Engine {
    process: EngineProcess,
    side: Side,
    /// How it was started, to start it again after it was killed.
    command: String,
    log: EngineLog,
    handle: Handle,
    /// The point and position the engine was last told of (it knows the game to there).
    synced: Option<(usize, u64)>,
}

impl Engine {
    /// Starts `command` (its conversation logged to `log`) to play `side`.
    pub fn spawn(command: &str, side: Side, log: EngineLog) -> Result<Engine, HostError> {
        let process = EngineProcess::spawn(command, log.clone())?;
        let handle = Handle::default();
        handle.pid.store(process.pid(), Ordering::SeqCst);
        Ok(Engine {
            process,
            side,
            command: command.to_string(),
            log,
            handle,
            synced: None,
        })
    }

    /// What stops it while it thinks.
    pub fn handle(&self) -> Handle {
        self.handle.clone()
    }

    pub fn side(&self) -> Side {
        self.side
    }

    pub fn name(&self) -> &str {
        self.process.name()
    }

    /// The engine's move in `h`'s position (its side to move), within its time on `clocks`.
    pub fn play(&mut self, h: &History, clocks: &Clocks) -> Result<Thought, Failed> {
        if self.handle.killed.swap(false, Ordering::SeqCst) {
            self.restart().map_err(failed)?;
        }
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

impl Engine {
    /// Starts the engine again (it was killed while it thought): it knows no game yet.
    fn restart(&mut self) -> Result<(), HostError> {
        self.log
            .note("killed while it thought (the move was taken back): started again");
        self.process = EngineProcess::spawn(&self.command, self.log.clone())?;
        self.handle.pid.store(self.process.pid(), Ordering::SeqCst);
        self.synced = None;
        Ok(())
    }
}

/// An engine playing a side of the game as the game holds it: its moves are awaited in a
/// background thread (which holds the engine meanwhile), its name and what kills it stay at
/// hand.
pub struct EnginePlayer {
    engine: Arc<Mutex<Engine>>,
    name: String,
    handle: Handle,
}

impl EnginePlayer {
    pub fn new(engine: Engine) -> EnginePlayer {
        EnginePlayer {
            name: engine.name().to_string(),
            handle: engine.handle(),
            engine: Arc::new(Mutex::new(engine)),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Kills the engine while it thinks; its next move starts it again.
    pub fn kill(&self) {
        self.handle.kill();
    }

    /// Asks for the engine's move in `h` by `clocks` in a background thread; `done` gets the
    /// answer.
    pub fn go(
        &self,
        h: History,
        clocks: Clocks,
        done: impl FnOnce(Result<Thought, Failed>) + Send + 'static,
    ) -> JoinHandle<()> {
        let engine = self.engine.clone();
        std::thread::spawn(move || {
            // The move after a killed one waits here for the thread that still holds it.
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            done(engine.play(&h, &clocks));
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

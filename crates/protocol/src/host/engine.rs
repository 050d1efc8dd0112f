//! An external engine as the host plays it: the handshake, a game told to it, its moves asked
//! for and checked against the legal moves, the result told. [`EngineProcess`] is the one
//! type a caller holds; its [`Process`] does the reading and writing.

use super::error::HostError;
use super::log::EngineLog;
use super::pipe::Event;
use super::process::{Process, QUIT_GRACE, parse_reply};
use crate::atsi::{
    self, AtsiMove, EngineReply, HostCommand, Order, ParamType, RULES_PARAM, StartPos,
};
use std::time::{Duration, Instant};
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_records::history::History;
use taikyoku_records::timecontrol::{Clocks, TimeControl};

/// How long an engine may take to start and answer `atsiinit` and `identify`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine has to answer `atsiinit v0` before it is offered `v00` (the spec's
/// spelling; ATSA's own host and tomatene use `v0`), and to answer `identify` with `info`
/// before it is named after its command.
const VERSION_RETRY: Duration = Duration::from_secs(2);
/// How long the host waits after a move for the `eval` that follows it.
const EVAL_GRACE: Duration = Duration::from_millis(20);

/// A move the engine played, checked.
#[derive(Clone, Debug)]
pub struct EngineMove {
    pub mv: Move,
    /// The engine's evaluation after its move, for the first player (Black), as it sent it.
    pub eval: Option<i32>,
    /// The last `log` line it sent while thinking (tomatene: its depth and score).
    pub info: Option<String>,
    /// From sending it the opponent's move (or the start) to reading its move.
    pub elapsed: Duration,
    /// The order its squares came in.
    pub order: Order,
}

/// How a game ended, told to an engine with `win`, `loss` or `draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Loss,
    Draw,
}

/// The game the engine is playing: its side and how many of the game's moves it knows.
struct Playing {
    side: Side,
    known: usize,
    /// When it was last sent something to answer (startgame or opmove).
    asked: Instant,
}

/// A running ATSI engine. Dropping it stops its process (and everything it started).
pub struct EngineProcess {
    pub(super) process: Process,
    name: String,
    /// It writes (and reads) multi-leg moves with the steps after the destination.
    steps_after: bool,
    game: Option<Playing>,
    /// The rule sets it said it plays (its `rules` parameter), if it said; and the one it
    /// was last told to play.
    rule_sets: Option<Vec<String>>,
    told_rules: Option<String>,
}

/// How long the host waits after `info` (and after each `param` line) for the next `param`
/// line of the engine's answer to `identify`.
const PARAM_GAP: Duration = Duration::from_millis(100);

impl EngineProcess {
    /// Starts `sh -c command` and does the handshake: `atsiinit` (answered by `atsiok`), then
    /// `identify` (answered by `info NAME …`, which names the engine; without it, the
    /// command does).
    pub fn spawn(command: &str, log: EngineLog) -> Result<EngineProcess, HostError> {
        EngineProcess::spawn_with(command, log, HANDSHAKE_TIMEOUT)
    }

    /// [`EngineProcess::spawn`], the handshake given `handshake` (an engine may be slow to
    /// load, a test quick to give up).
    pub fn spawn_with(
        command: &str,
        log: EngineLog,
        handshake: Duration,
    ) -> Result<EngineProcess, HostError> {
        let mut engine = EngineProcess {
            process: Process::launch(command, log)?,
            name: short_name(command),
            steps_after: false,
            game: None,
            rule_sets: None,
            told_rules: None,
        };
        engine.handshake(handshake)?;
        Ok(engine)
    }

    /// The engine's name, from its `info` (or its command when it sent none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its process id, which is also its process group's: the terminal game kills the group
    /// when it quits while the engine thinks (a wait for a move cannot be interrupted).
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), HostError> {
        let deadline = Instant::now() + timeout;
        self.process.send(&HostCommand::AtsiInit {
            version: "v0".into(),
        })?;
        let retry = Instant::now() + VERSION_RETRY;
        match self.process.wait_for(retry.min(deadline), "atsiok", |r| {
            matches!(r, EngineReply::AtsiOk).then_some(())
        }) {
            Err(HostError::TimedOut { .. }) => {
                self.process
                    .log
                    .note("no atsiok to `atsiinit v0`: trying the spec's `v00`");
                self.process.send(&HostCommand::AtsiInit {
                    version: "v00".into(),
                })?;
                self.process.wait_for(deadline, "atsiok", |r| {
                    matches!(r, EngineReply::AtsiOk).then_some(())
                })?;
            }
            other => other?,
        }
        self.process.send(&HostCommand::Identify)?;
        // `info` comes at once or not at all (an engine that loads something has done so by
        // its `atsiok`): one that sends none is named after its command without more wait.
        let info_by = deadline.min(Instant::now() + VERSION_RETRY);
        let name = self.process.wait_for(info_by, "info", |r| match r {
            EngineReply::Info { name, .. } => Some(name.clone()),
            _ => None,
        });
        match name {
            Ok(name) if !name.trim().is_empty() => self.name = name.trim().to_string(),
            Ok(_) => {}
            Err(HostError::TimedOut { .. }) => self
                .process
                .log
                .note("no info in answer to identify: named after its command"),
            Err(e) => return Err(e),
        }
        self.read_params();
        if self.name.eq_ignore_ascii_case("tomatene") {
            self.use_steps_after("it is tomatene");
        }
        Ok(())
    }

    /// The `param` lines that follow `info`, in one burst: read until a short quiet gap or
    /// another line (kept for later). A `rules` parameter says which rule sets it plays.
    fn read_params(&mut self) {
        loop {
            let event = self.process.next_event(Instant::now() + PARAM_GAP);
            let Some(Event::Line(line, at)) = event else {
                event.into_iter().for_each(|e| self.process.put_back(e));
                return;
            };
            match parse_reply(&line) {
                Ok(Some(EngineReply::Param { name, ty })) => {
                    self.process.log.write('<', &line);
                    if let (RULES_PARAM, ParamType::Enum(names)) = (name.as_str(), ty) {
                        self.rule_sets = Some(names);
                    }
                }
                _ => return self.process.put_back(Event::Line(line, at)),
            }
        }
    }

    /// Tells an engine that announced a `rules` parameter the rule set the host judges by
    /// (`setparam rules NAME`), or refuses it when that is not one it plays. An engine that
    /// announced none is not told (ATSI v00 has no word for it).
    fn tell_rules(&mut self, rules: &str) -> Result<(), HostError> {
        let Some(sets) = &self.rule_sets else {
            return Ok(());
        };
        if !sets.iter().any(|s| s == rules) {
            return Err(HostError::RulesMismatch {
                rules: rules.to_string(),
                offered: sets.join(", "),
            });
        }
        if self.told_rules.as_deref() != Some(rules) {
            self.process.send(&HostCommand::SetParam {
                name: RULES_PARAM.into(),
                value: rules.into(),
            })?;
            self.told_rules = Some(rules.to_string());
        }
        Ok(())
    }

    /// Starts a game from the position `history` has reached, the engine playing `side`:
    /// `player`, `time` and `startgame` (`initial` from the game's standard start, else a
    /// TSFEN). Can be called again on the same engine to start over (after an undo).
    pub fn start_game(
        &mut self,
        history: &History,
        side: Side,
        time: TimeControl,
    ) -> Result<(), HostError> {
        let rules = history.rules();
        self.tell_rules(&rules.rule_set.name)?;
        let pos = history.position();
        let start = if *pos == rules.start_position() {
            StartPos::Initial
        } else {
            StartPos::Tsfen(notation::tsfen_string(rules, pos).ok_or(HostError::NoTsfen)?)
        };
        self.process
            .send(&HostCommand::Player(side.index() as u8))?;
        self.process.send(&HostCommand::Time {
            base: time.base.as_secs_f64(),
            increment: time.increment.as_secs_f64(),
        })?;
        self.process.send(&HostCommand::StartGame(start))?;
        self.game = Some(Playing {
            side,
            known: history.point(),
            asked: Instant::now(),
        });
        Ok(())
    }

    /// Asks for the engine's move in the position `history` has reached (the engine's side
    /// to move): sends the opponent's last move with both clocks (`opmove`, unless the engine
    /// moves first after `startgame`), then reads until its `move` or `deadline`. The move
    /// returned is legal; the caller plays it.
    ///
    /// # Panics
    /// Without [`EngineProcess::start_game`], when it is not the engine's turn, or when more
    /// than one move was played since it last moved (ATSI can tell only one).
    pub fn request_move(
        &mut self,
        history: &History,
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<EngineMove, HostError> {
        let game = self.game.as_ref().expect("start_game first");
        let side = game.side;
        assert_eq!(history.position().to_move(), side, "not the engine's turn");
        let point = history.point();
        let unknown = point
            .checked_sub(game.known)
            .expect("start_game again after an undo");
        match unknown {
            0 => {}
            1 => {
                let before = history.position_at(point - 1);
                let last = &history.played()[point - 1].mv;
                let mut mv = atsi::atsi_move(history.rules(), &before, last);
                if self.steps_after && mv.squares.len() > 2 {
                    // start, steps…, destination → start, destination, steps…
                    mv.squares[1..].rotate_right(1);
                }
                // Milliseconds are plenty, and keep the line short.
                let seconds = |s: Side| (clocks.remaining(s).as_secs_f64() * 1e3).round() / 1e3;
                self.process.send(&HostCommand::OpMove {
                    mv,
                    time: seconds(side),
                    op_time: seconds(side.opponent()),
                })?;
                self.game.as_mut().expect("playing").asked = Instant::now();
            }
            n => panic!("{n} moves since the engine last moved; ATSI tells one at a time"),
        }
        let played = self.read_move(history, deadline)?;
        self.game.as_mut().expect("playing").known = point + 1;
        Ok(played)
    }

    /// Reads until the engine's move (checked against the legal moves) and the `eval` right
    /// after it.
    fn read_move(&mut self, history: &History, deadline: Instant) -> Result<EngineMove, HostError> {
        let asked = self.game.as_ref().expect("playing").asked;
        let (mut eval, mut info) = (None, None);
        loop {
            let (line, at) = self.process.next_line(deadline, asked, "move")?;
            let reply = parse_reply(&line)?;
            match reply {
                Some(EngineReply::Move(m)) => {
                    let mv = self.check_move(history, &m)?;
                    if let Some(v) = self.eval_after_move()? {
                        eval = Some(v);
                    }
                    return Ok(EngineMove {
                        mv: mv.0,
                        eval,
                        info,
                        elapsed: at.saturating_duration_since(asked),
                        order: mv.1,
                    });
                }
                Some(EngineReply::Resign(reason)) => return Err(HostError::Resigned(reason)),
                Some(EngineReply::Quit) => {
                    return Err(HostError::Resigned(Some("it quit".into())));
                }
                Some(EngineReply::Eval(v)) => eval = Some(v.round() as i32),
                // ATSI has no error reply; engines (ours) say so in a `log` and wait.
                Some(EngineReply::Log(text)) if text.starts_with("error") => {
                    return Err(HostError::Refused(notation::shorten(&text)));
                }
                Some(EngineReply::Log(text)) => info = Some(text),
                _ => {}
            }
        }
    }

    /// The legal move the engine's squares stand for.
    fn check_move(&mut self, history: &History, m: &AtsiMove) -> Result<(Move, Order), HostError> {
        let first = if self.steps_after {
            Order::StepsAfter
        } else {
            Order::Spec
        };
        let found = atsi::move_from_squares(history.rules(), history.position(), m, first);
        let (mv, order) = found.map_err(|reason| HostError::Illegal {
            text: m.to_string(),
            reason,
        })?;
        if order == Order::StepsAfter && !self.steps_after {
            self.use_steps_after(&format!("it wrote `{m}` so"));
        }
        Ok((mv, order))
    }

    fn use_steps_after(&mut self, why: &str) {
        self.steps_after = true;
        self.process.log.note(&format!(
            "multi-leg moves in tomatene's order (steps after the destination), against the spec: \
             accepted from it and written so to it, as {why}"
        ));
    }

    /// The `eval` an engine sends right after its move, if it comes at once.
    fn eval_after_move(&mut self) -> Result<Option<i32>, HostError> {
        let soon = Instant::now() + EVAL_GRACE;
        match self.process.next_event(soon) {
            Some(Event::Line(line, at)) => match parse_reply(&line) {
                Ok(Some(EngineReply::Eval(v))) => {
                    self.process.log.write('<', &line);
                    Ok(Some(v.round() as i32))
                }
                _ => {
                    self.process.put_back(Event::Line(line, at));
                    Ok(None)
                }
            },
            Some(other) => {
                self.process.put_back(other);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    /// Tells the engine how the game ended (`win`/`loss`/`draw` with the reason) and asks it
    /// to quit; it is killed if it has not exited after a short grace.
    pub fn finish(&mut self, result: GameResult, reason: &str) {
        let reason = Some(reason.to_string()).filter(|r| !r.is_empty());
        let command = match result {
            GameResult::Win => HostCommand::Win(reason),
            GameResult::Loss => HostCommand::Loss(reason),
            GameResult::Draw => HostCommand::Draw(reason),
        };
        // An engine that cannot be told has already gone (or does not read).
        let _ = self.process.send_by(&command, Instant::now() + QUIT_GRACE);
        self.game = None;
        self.process.stop();
    }
}

/// A name for an engine that gave none: its command's program, without the path.
pub(super) fn short_name(command: &str) -> String {
    let program = command.split_whitespace().next().unwrap_or(command);
    program.rsplit('/').next().unwrap_or(program).to_string()
}

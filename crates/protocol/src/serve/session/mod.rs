//! An ATSI session: what the host has told the engine (its side, the clocks, the game) and
//! the engine's answers. One line in, the replies out through `send`; malformed input is
//! answered with a `log error: …` line (ATSI has no error message; `log` is the one ATSA's
//! host prints), never a panic. How the engine thinks is [`think`]'s.

mod think;

use super::interrupt::{Interrupt, ends_search};
use super::settings::Settings;
use super::summary::Summary;
use crate::atsi::{
    self, AtsaHost, AtsiError, AtsiMove, EngineReply, HostCommand, Order, RULES_PARAM, StartPos,
};
use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;
use taikyoku_core::geometry::Side;
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_search::Computer;

/// One game as the engine sees it.
struct Game {
    pos: Position,
    /// Seconds left on our clock and on the opponent's, as the host last said.
    clocks: Option<(f64, f64)>,
}

/// An ATSI session: what the host has told us and the game in progress.
pub struct Session {
    rules: Arc<Rules>,
    settings: Settings,
    computer: Option<Computer>,
    host: AtsaHost,
    initialised: bool,
    side: Option<Side>,
    time: Option<(f64, f64)>,
    game: Option<Game>,
    /// Raised (by the transport's reader) when the host ends the game or the session: a
    /// search stops.
    interrupt: Interrupt,
    /// Lines that end a search handled so far, for [`Interrupt::lower_unless_pending`].
    ends_handled: u64,
    /// Where the log lines go: `taikyoku engine: …` on stderr, or, for a WebSocket
    /// connection, nowhere but the one line that sums it up when it ends.
    log: SessionLog,
    /// What the session did, for that line.
    summary: RefCell<Summary>,
}

/// Where a session's log lines go.
pub enum SessionLog {
    /// On stderr as they happen (the stdio engine: its host keeps them).
    Lines,
    /// Kept back: a WebSocket connection's is summed up in one line when it ends.
    Summary,
}

/// What the transport does after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl Session {
    pub fn new(
        rules: Arc<Rules>,
        settings: Settings,
        interrupt: Interrupt,
        log: SessionLog,
    ) -> Session {
        Session {
            rules,
            settings,
            computer: None,
            host: AtsaHost::new(),
            initialised: false,
            side: None,
            time: None,
            game: None,
            interrupt,
            ends_handled: 0,
            log,
            summary: RefCell::new(Summary {
                started: Some(Instant::now()),
                ..Summary::default()
            }),
        }
    }

    /// What the session did, in one line.
    pub fn summary_line(&self) -> String {
        self.summary.borrow().line()
    }

    fn log(&self, text: &str) {
        if let SessionLog::Lines = self.log {
            eprintln!("taikyoku engine: {text}");
        }
    }

    /// Handles one line from the host, sending the replies.
    pub fn handle(&mut self, line: &str, send: &mut dyn FnMut(EngineReply)) -> Flow {
        if ends_search(line) {
            self.ends_handled += 1;
        }
        let Some(command) = self.command(line, send) else {
            return Flow::Continue;
        };
        match command {
            HostCommand::AtsiInit { version } => {
                self.initialised = true;
                self.log(&format!("atsiinit {version}"));
                self.summary.borrow_mut().version = Some(version);
                send(EngineReply::AtsiOk);
            }
            HostCommand::Identify => self.identify(send),
            HostCommand::Time { base, increment } => self.time = Some((base, increment)),
            HostCommand::Player(p) => {
                self.side = Some(if p == 0 { Side::Black } else { Side::White })
            }
            HostCommand::StartGame(start) => self.start(start, send),
            HostCommand::OpMove { mv, time, op_time } => {
                self.opponent_moved(&mv, time, op_time, send)
            }
            HostCommand::Win(r) | HostCommand::Loss(r) | HostCommand::Draw(r) => {
                self.game_over(line, r)
            }
            HostCommand::SetParam { name, value } => self.set_param(&name, &value, send),
            HostCommand::Eval => match &self.game {
                Some(g) => {
                    let pos = g.pos.clone();
                    let score = self.score(&pos);
                    send(EngineReply::Eval(score as f64));
                }
                None => self.error("eval: no game in progress", send),
            },
            HostCommand::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// The command a line holds, if it is one to act on: a malformed line, or any but
    /// `atsiinit` and `quit` before `atsiinit`, is answered with an error.
    fn command(&self, line: &str, send: &mut dyn FnMut(EngineReply)) -> Option<HostCommand> {
        let command = match HostCommand::parse(line) {
            Ok(c) => c,
            Err(AtsiError::Empty) => return None,
            Err(e) => {
                self.error(&format!("{e} (in {:?})", notation::shorten(line)), send);
                return None;
            }
        };
        if !self.initialised && !matches!(command, HostCommand::AtsiInit { .. } | HostCommand::Quit)
        {
            self.error(
                &format!("{:?} before atsiinit: ignored", notation::shorten(line)),
                send,
            );
            return None;
        }
        Some(command)
    }

    /// `info` and the `param` lines, in answer to `identify`.
    fn identify(&self, send: &mut dyn FnMut(EngineReply)) {
        send(EngineReply::Info {
            name: "taikyoku".into(),
            description: Some(format!(
                "taikyoku {} ({}, {} rules)",
                env!("CARGO_PKG_VERSION"),
                self.rules.game.name,
                self.rules.rule_set.name
            )),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            author: None,
            logo: None,
        });
        Settings::params().into_iter().for_each(&mut *send);
        // Not in v00: a host that judges another rule set says which (`setparam rules`).
        send(EngineReply::Param {
            name: RULES_PARAM.into(),
            ty: atsi::ParamType::Enum(self.rule_set_names()),
        });
    }

    /// The rule sets of the game it plays, for the `rules` parameter.
    fn rule_set_names(&self) -> Vec<String> {
        let sets = &self.rules.game.rule_sets;
        sets.iter().map(|r| r.name.clone()).collect()
    }

    /// `setparam rules NAME`: plays the game under that rule set from the next game on (not
    /// during one: its moves were judged under the rules it started with).
    fn set_rules(&mut self, name: &str, send: &mut dyn FnMut(EngineReply)) {
        if self.rules.rule_set.name == name {
            return;
        }
        if self.game.is_some() {
            return self.error("setparam rules: not during a game", send);
        }
        match Rules::new(self.rules.game.clone(), name) {
            Ok(r) => {
                self.log(&format!("rules: {name}"));
                self.rules = Arc::new(r);
                self.computer = None;
                self.host = AtsaHost::new();
            }
            Err(_) => self.error(
                &format!(
                    "setparam rules: {name:?} is not a rule set of {} ({})",
                    self.rules.game.name,
                    self.rule_set_names().join(", ")
                ),
                send,
            ),
        }
    }

    /// `win`, `loss` or `draw`: the game is over, its result logged and kept.
    fn game_over(&mut self, line: &str, reason: Option<String>) {
        let result = line.split_whitespace().next().unwrap_or("");
        let result = format!(
            "{result}{}",
            reason.map(|r| format!(": {r}")).unwrap_or_default()
        );
        self.log(&result);
        self.summary.borrow_mut().result = Some(result);
        self.game = None;
    }

    /// `setparam`: a new table or thread count takes a new computer.
    fn set_param(&mut self, name: &str, value: &str, send: &mut dyn FnMut(EngineReply)) {
        if name == RULES_PARAM {
            self.set_rules(value, send);
        } else if let Err(e) = self.settings.set(name, value) {
            self.error(&format!("setparam: {e}"), send);
        } else if matches!(name, "hash" | "threads") {
            self.computer = None;
        }
    }

    /// A line the host should not have sent: `log error: …` and stderr.
    pub fn error(&self, text: &str, send: &mut dyn FnMut(EngineReply)) {
        self.log(&format!("error: {text}"));
        let mut summary = self.summary.borrow_mut();
        summary.errors += 1;
        summary
            .first_error
            .get_or_insert_with(|| notation::shorten(text));
        send(EngineReply::Log(format!("error: {text}")));
    }

    fn start(&mut self, start: StartPos, send: &mut dyn FnMut(EngineReply)) {
        let pos = match &start {
            StartPos::Initial => self.rules.start_position(),
            StartPos::Tsfen(t) => match notation::parse_tsfen(&self.rules, t) {
                Ok(p) => p,
                // The game in progress (if any) goes on.
                Err(e) => return self.error(&format!("startgame: bad TSFEN: {e}"), send),
            },
        };
        if self.side.is_none() {
            self.log("startgame before player: playing the first player");
        }
        let clocks = self.time.map(|(base, _)| (base, base));
        self.game = Some(Game { pos, clocks });
        self.summary.borrow_mut().games += 1;
        if let Some(c) = &mut self.computer {
            c.new_game();
        }
        // A `quit` read after this `startgame` keeps the stop raised: the search answers at
        // once with the first move it has.
        self.interrupt.lower_unless_pending(self.ends_handled);
        self.move_if_our_turn(send);
    }

    fn opponent_moved(
        &mut self,
        mv: &AtsiMove,
        time: f64,
        op_time: f64,
        send: &mut dyn FnMut(EngineReply),
    ) {
        let Some(game) = &mut self.game else {
            return self.error(&format!("opmove {mv}: no game in progress"), send);
        };
        let side = self.side.unwrap_or(Side::Black);
        if game.pos.to_move() == side {
            return self.error(
                &format!("opmove {mv}: it is our move, not the opponent's"),
                send,
            );
        }
        match atsi::move_from_squares(&self.rules, &game.pos, mv, Order::Spec) {
            Ok((m, order)) => {
                if order == Order::StepsAfter {
                    self.log(&format!(
                        "opmove {mv}: read with its steps after the destination"
                    ));
                }
                let game = self.game.as_mut().expect("a game");
                self.rules.play_unchecked(&mut game.pos, &m);
                game.clocks = Some((time, op_time));
                self.move_if_our_turn(send);
            }
            Err(e) => self.error(&format!("opmove: {e}"), send),
        }
    }

    /// Plays our move when it is our turn and the game goes on.
    fn move_if_our_turn(&mut self, send: &mut dyn FnMut(EngineReply)) {
        let side = self.side.unwrap_or(Side::Black);
        let Some(game) = &self.game else { return };
        if game.pos.to_move() != side || self.rules.outcome(&game.pos).is_some() {
            return;
        }
        let pos = game.pos.clone();
        let started = Instant::now();
        let Some((m, score)) = self.choose(&pos) else {
            self.log("no move to play: resigning");
            send(EngineReply::Resign(Some("no legal move".into())));
            return;
        };
        let text = atsi::atsi_move(&self.rules, &pos, &m);
        let game = self.game.as_mut().expect("a game");
        self.rules.play_unchecked(&mut game.pos, &m);
        if let Some((ours, _)) = &mut game.clocks {
            *ours -= started.elapsed().as_secs_f64();
        }
        send(EngineReply::Move(text));
        self.summary.borrow_mut().moves += 1;
        if let Some(score) = score {
            let absolute = if side == Side::Black { score } else { -score };
            send(EngineReply::Eval(absolute as f64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::settings::Policy;
    use taikyoku_core::game::Game;

    fn session(policy: Policy) -> Session {
        let rules = Rules::new(Game::builtin("taikyoku").unwrap(), "atsa").unwrap();
        let settings = Settings {
            policy,
            depth: None,
            nodes: None,
            movetime: None,
            seed: 3,
            hash: 1,
            threads: 1,
            host_safe: false,
            weights: Default::default(),
        };
        Session::new(
            Arc::new(rules),
            settings,
            Default::default(),
            SessionLog::Summary,
        )
    }

    /// The lines a session sends in answer to `script`, one line at a time.
    fn answers(s: &mut Session, script: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in script.lines() {
            s.handle(line, &mut |r| out.push(r.to_line()));
        }
        out
    }

    #[test]
    fn a_session_answers_in_turn_and_refuses_what_comes_out_of_turn() {
        let mut s = session(Policy::Random);
        let before = answers(&mut s, "identify");
        assert_eq!(before, ["log error: \"identify\" before atsiinit: ignored"]);
        let hello = answers(&mut s, "atsiinit v0\nidentify");
        assert_eq!(hello[0], "atsiok");
        assert!(hello[1].starts_with("info taikyoku "), "{hello:?}");
        // The settings, then the rule sets it plays.
        assert_eq!(hello.len(), 3 + Settings::params().len());
        let bad = answers(&mut s, "setparam depth deep\nsetparam colour red\neval");
        assert_eq!(
            bad,
            [
                "log error: setparam: depth: \"deep\" is not a whole number",
                "log error: setparam: unknown parameter \"colour\"",
                "log error: eval: no game in progress",
            ]
        );
        // Second player: the opponent moves first, then we answer with a legal move.
        let moved = answers(&mut s, "player 1\nstartgame initial\nopmove 19z 19y 60 60");
        assert_eq!(moved.len(), 1, "{moved:?}");
        let reply = EngineReply::parse(&moved[0]).unwrap();
        assert!(matches!(reply, EngineReply::Move(_)), "{reply:?}");
        assert!(
            s.summary_line()
                .starts_with("atsiinit v0, 1 game, 1 move played, 4 errors")
        );
    }

    /// A bad `startgame` is refused and the game in progress goes on, as the README says.
    #[test]
    fn a_bad_startgame_keeps_the_game_it_had() {
        let mut s = session(Policy::Random);
        answers(&mut s, "atsiinit v0\nplayer 1\nstartgame initial");
        let bad = answers(&mut s, "startgame 36/36 x");
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(
            bad[0].starts_with("log error: startgame: bad TSFEN"),
            "{bad:?}"
        );
        let moved = answers(&mut s, "opmove 19z 19y 60 60\neval");
        assert!(moved[0].starts_with("move "), "{moved:?}");
        assert!(moved[1].starts_with("eval "), "{moved:?}");
    }

    /// `setparam` outside the announced ranges is refused, not clamped in silence.
    #[test]
    fn setparam_out_of_its_announced_range_is_refused() {
        let mut s = session(Policy::Random);
        let said = answers(
            &mut s,
            "atsiinit v0\nsetparam threads 10000\nsetparam threads 0\nsetparam hash 1000000000000\n\
             setparam hash 0\nsetparam hash 1e12\nsetparam depth 64\nsetparam threads 2\nsetparam hash 4096",
        );
        assert_eq!(
            said,
            [
                "atsiok",
                "log error: setparam: threads: 10000 is not from 1 to 64",
                "log error: setparam: threads: 0 is not from 1 to 64",
                "log error: setparam: hash: 1000000000000 is not from 1 to 4096",
                "log error: setparam: hash: 0 is not from 1 to 4096",
                "log error: setparam: hash: \"1e12\" is not a whole number",
                "log error: setparam: depth: 64 is not from 0 to 63",
            ]
        );
        assert_eq!((s.settings.threads, s.settings.hash), (2, 4096));
    }
}

//! The terminal game: its components (board, side panels, status line, dialogs, replay) and
//! the one place messages are handled. A key goes to the open dialog, else through the keymap
//! to an action; components turn actions into changes of their own and into further messages;
//! [`App::update`] handles every message until none is left. Nothing here touches the
//! terminal, so all of it is tested without one.

use super::board::Board;
use super::component::{Component, Context, Reply};
use super::dialogs::{ConfirmKind, Dialog, PromptKind};
use super::keys::{Action, Keymap};
use super::msg::Msg;
use super::panels::SidePanel;
use super::players::external::{self, Engine};
use super::players::{Failed, Player, Players, Purpose, Thought};
use super::replay::Replay;
use super::session::{SaveTarget, Session};
use super::status::Status;
use super::text::{capital, count, eval_text, when};
use super::theme::Theme;
use ratatui::crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::time::Duration;
use taikyoku_core::card::Cards;
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::position::{EndReason, Outcome, Position};
use taikyoku_core::rules::Rules;
use taikyoku_records::history::{History, Undone};
use taikyoku_records::record::{self, Record};
use taikyoku_records::timecontrol::{Clocks, TimeControl};

pub struct App {
    /// The game and its files.
    pub session: Session,
    pub board: Board,
    /// The side panel: the piece card, the minimap, the move list.
    pub panel: SidePanel,
    pub status: Status,
    /// The dialog that has the keys, if one is open.
    pub dialog: Option<Dialog>,
    /// Read-only replay of a record.
    pub replay: Option<Replay>,
    /// An unfinished autosaved game offered for resuming.
    pub pending_resume: Option<(PathBuf, Record)>,
    /// Who plays was given on the command line (`--black`, `--white`): the game resumed at
    /// the offer goes on with these players (an engine already started among them).
    pub players_given: bool,
    /// A file the player asked to save to that holds another game, and that game described.
    pub pending_save: Option<(PathBuf, String)>,
    pub keymap: Keymap,
    pub theme: Theme,
    /// Ask before a move that removes some of the mover's own pieces (`config.toml`:
    /// `confirm_own_captures = false` turns it off).
    pub confirm_own_captures: bool,
    pub quit: bool,
    /// Where background work posts its messages (none in tests: nothing runs behind them).
    pub tx: Option<Sender<Msg>>,
    /// Who plays each side, and the computer's search while it thinks.
    pub players: Players,
    /// Redo was asked in a game against the computer: its reply is redone too.
    redo_reply: bool,
    /// The time control given on the command line (`--time`), for a game resumed at the
    /// offer.
    asked_time: Option<TimeControl>,
    /// The clocks a game read from a record had, and which sides engines played there.
    kept_clocks: Option<Clocks>,
    recorded_engines: [bool; 2],
}

impl App {
    pub fn new(rules: Rules, start: Position, keymap: Keymap, theme: Theme, ascii: bool) -> App {
        let session = Session::new(History::new(rules, start));
        let mut app = App::with_session(session, keymap, theme, ascii);
        // The turn is on the status line already, left of this; short enough for 80
        // columns beside any rule set, so that the key hints show under it.
        app.status.text = format!(
            "{} selects a piece, {} shows the help.{}",
            app.keymap.key_of(Action::Select),
            app.keymap.keys_of(Action::Help),
            app.danger_note()
        );
        app
    }

    fn with_session(session: Session, keymap: Keymap, theme: Theme, ascii: bool) -> App {
        App {
            board: Board::new(&session.history, ascii),
            panel: SidePanel::new(Cards::new(session.history.rules())),
            session,
            status: Status::default(),
            dialog: None,
            replay: None,
            pending_resume: None,
            players_given: false,
            pending_save: None,
            keymap,
            theme,
            confirm_own_captures: true,
            quit: false,
            tx: None,
            players: Players::new(Default::default()),
            redo_reply: false,
            asked_time: None,
            kept_clocks: None,
            recorded_engines: [false; 2],
        }
    }

    /// Names `side`'s player in the record (an engine by the name it gives).
    pub fn name_player(&mut self, side: Side, name: &str) {
        let r = &mut self.session.record;
        match side {
            Side::Black => r.black = name.to_string(),
            Side::White => r.white = name.to_string(),
        }
    }

    /// `e` plays its side (by its clock: [`App::init_clocks`]).
    pub fn add_engine(&mut self, e: Engine) {
        self.name_player(e.side(), e.name());
        self.players.add_engine(e);
    }

    /// The clocks of the game. `asked` (`--time`) gives every side a clock: afresh, or as
    /// they stood if the record kept clocks under that time control. Without it, a recorded
    /// game's clocks go on (a side an engine played, now played at the keyboard, without
    /// one), and an engine that has none gets [`external::DEFAULT_TIME`], the others no clock.
    pub fn init_clocks(&mut self, asked: Option<TimeControl>) {
        self.asked_time = asked;
        let p = &self.players;
        let engine = |s: &Side| matches!(p.of(*s), Player::Engine(_));
        let clocks = match (asked, self.kept_clocks) {
            (Some(t), Some(c)) if c.control == t => Some(c),
            (Some(t), _) => Some(Clocks::new(t)),
            (None, Some(c)) => Some(c),
            (None, None) if Side::BOTH.iter().any(engine) => Some(Clocks::new(
                external::DEFAULT_TIME.parse().expect("a time control"),
            )),
            (None, None) => None,
        };
        // Without --time, a side at the keyboard (or the computer's) keeps no clock that was
        // only ever an engine's.
        let engines_only =
            |s: &Side| self.kept_clocks.is_none() || self.recorded_engines[s.index()];
        let untimed = Side::BOTH
            .into_iter()
            .filter(|s| asked.is_none() && !engine(s) && engines_only(s));
        let clocks = untimed.fold(clocks, |c, s| c.map(|c| c.untimed(s)));
        self.players.clocks = clocks.filter(|c| Side::BOTH.iter().any(|s| c.is_timed(*s)));
        self.players.restart_clock();
        self.session.record.clock = self.players.clocks;
    }

    /// Who plays each side: a computer or an engine is named in the record (its name and
    /// how it plays, so that resuming the game goes on against it).
    pub fn set_players(&mut self, sides: [Player; 2]) {
        let r = &mut self.session.record;
        for (side, p) in Side::BOTH.into_iter().zip(&sides) {
            let (name, kind) = match side {
                Side::Black => (&mut r.black, &mut r.black_player),
                Side::White => (&mut r.white, &mut r.white_player),
            };
            *kind = p.to_record();
            if let Some(n) = p.default_name() {
                *name = n;
            }
        }
        // One person against the computer sees the board from their own side.
        let humans: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| sides[s.index()].is_human())
            .collect();
        if let [me] = humans[..] {
            self.board.view.flipped = me == Side::White;
            self.board.center_on_cursor();
        }
        self.players = Players::new(sides);
    }

    /// A game read from a record: its moves as played (undo goes back through them), or, with
    /// `read_only`, a replay that starts at the first move.
    pub fn from_record(
        record: Record,
        replay: record::Replay,
        keymap: Keymap,
        theme: Theme,
        ascii: bool,
        read_only: bool,
    ) -> App {
        let sides = [&record.black_player, &record.white_player].map(|p| Player::from_record(p));
        let kept_clocks = record.clock;
        let mut session = Session::from_record(record, replay, read_only);
        let n = session.history.point();
        // The board is set up as at the start (side, cursor); then the end or the start shows.
        session.history.goto(0);
        let mut app = App::with_session(session, keymap, theme, ascii);
        let engines: Vec<String> = sides.iter().filter_map(|s| s.1.clone()).collect();
        app.recorded_engines = sides.each_ref().map(|s| s.1.is_some());
        app.players = Players::new(sides.map(|s| s.0));
        if read_only {
            app.replay = Some(Replay::default());
            app.board.read_only = true;
            app.update(Msg::Show(0));
            let welcome = Replay::welcome(app.history(), &app.keymap);
            app.update(Msg::Say(welcome));
        } else {
            app.kept_clocks = kept_clocks;
            app.init_clocks(None);
            app.update(Msg::Show(n));
            let loaded = app.loaded(&engines);
            app.update(Msg::Say(loaded));
        }
        app
    }

    /// "12 moves loaded. White to move.", and that the `engines` it was played against are not
    /// started again.
    fn loaded(&self, engines: &[String]) -> String {
        let to_move = capital(self.pos().to_move().name());
        let danger = self.danger_note();
        let engine = match engines {
            [] => String::new(),
            [cmd, ..] => format!(
                " It was played against the engine {cmd:?}: --black or --white CMD plays on against it; here a person plays its side."
            ),
        };
        let n = count(self.history().point(), "move");
        format!("{n} loaded. {to_move} to move.{danger}{engine}")
    }

    /// " Black's King on … can be taken (by …)!" when the last move put a royal of the side
    /// to move in danger (or in more danger); the `&` mark shows every one in danger.
    fn danger_note(&self) -> String {
        let new = super::preview::new_royal_threats(self.history());
        super::preview::danger_text(self.history(), &new).map_or(String::new(), |d| format!(" {d}"))
    }

    /// Whether a clock runs now (the screen is drawn again now and then, and a flag may fall).
    pub fn clock_running(&self) -> bool {
        self.players.clocks.is_some() && self.replay.is_none() && self.outcome().is_none()
    }

    pub fn history(&self) -> &History {
        &self.session.history
    }

    pub fn pos(&self) -> &Position {
        self.session.history.position()
    }

    pub fn rules(&self) -> &Rules {
        self.session.history.rules()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.session.history.outcome()
    }

    /// Lays the screen out for a terminal of `area` (before each draw): the board needs to know
    /// where its squares are, for the mouse and for scrolling.
    /// At the start: the widest squares at which the whole board still fits `area` (Sho and
    /// Kō on a large terminal), never narrower than the zoom it has.
    pub fn zoom_to_fit(&mut self, area: ratatui::layout::Rect) {
        let start = self.board.view.zoom;
        for zoom in (start..super::board::ZOOM_WIDTHS.len()).rev() {
            self.board.view.zoom = zoom;
            let board = super::view::areas(self, area).board;
            let need = self.board.full_size();
            if board.width >= need.0 && board.height >= need.1 {
                break;
            }
        }
        if self.board.view.zoom != start {
            self.layout(area);
            self.board.center_on_cursor();
        }
    }

    pub fn layout(&mut self, area: ratatui::layout::Rect) {
        let g = super::view::geometry(self, area);
        self.board.set_geometry(g);
    }

    /// Handles a message and every message that follows from it.
    pub fn update(&mut self, msg: Msg) {
        let mut next = Some(msg);
        while let Some(msg) = next.take() {
            next = self.step(msg).or_else(|| self.think());
        }
        self.status.unsaved = self.session.files.unsaved.is_some();
    }

    /// One message: the app may refuse it first ([`App::gate`]); then the components are
    /// offered it ([`App::offer`]); what none takes is the app's own ([`App::own`]).
    fn step(&mut self, msg: Msg) -> Option<Msg> {
        let reply = match self.gate(&msg) {
            Reply::Pass => self.offer(&msg),
            taken => taken,
        };
        match reply {
            Reply::Pass => self.own(msg),
            Reply::Done(next) => next,
            Reply::Close(next) => {
                self.dialog = None;
                next
            }
        }
    }

    /// What the app says before any component sees a message: a key released is dropped
    /// (Windows reports releases; only presses act), Ctrl-C quits at once (in raw mode it
    /// arrives as a key), and an action the game does not allow now is refused.
    fn gate(&self, msg: &Msg) -> Reply {
        match msg {
            Msg::Key(e) if e.kind != KeyEventKind::Press => Reply::Done(None),
            Msg::Key(e)
                if e.code == KeyCode::Char('c') && e.modifiers.contains(KeyModifiers::CONTROL) =>
            {
                Reply::Done(Some(Msg::Quit))
            }
            Msg::Act(a) => self
                .refusal(*a)
                .map_or(Reply::Pass, |m| Reply::Done(Some(m))),
            _ => Reply::Pass,
        }
    }

    /// Why the game cannot do `a` now: a replay is not played in, and on the computer's turn
    /// nothing is selected and nobody resigns for it.
    fn refusal(&self, a: Action) -> Option<Msg> {
        let changes_game = matches!(
            a,
            Action::Select | Action::Undo | Action::Redo | Action::Resign
        );
        if changes_game && self.replay.is_some() {
            return Some(Msg::Warn(format!(
                "This is a replay: {} plays on from this position as a new game.",
                self.keymap.keys_of(Action::Branch)
            )));
        }
        let h = &self.session.history;
        let computers_turn = !self.players.human_to_move(h) && h.outcome().is_none();
        (computers_turn && matches!(a, Action::Select | Action::Resign)).then(|| {
            Msg::Warn(format!(
                "It is {}'s turn: {} makes it move now.",
                self.players.label(h.position().to_move()),
                self.keymap.keys_of(Action::MoveNow)
            ))
        })
    }

    /// Offers `msg` to the open dialog, the board, the side panel, the replay and the status
    /// line, in turn: the first that takes it replies.
    fn offer(&mut self, msg: &Msg) -> Reply {
        let h = &self.session.history;
        let cx = Context {
            history: h,
            keymap: &self.keymap,
            tx: self.tx.as_ref(),
            shown: self.board.shown_piece(h).map(|p| p.0),
        };
        let parts: [Option<&mut dyn Component>; 5] = [
            self.dialog.as_mut().map(|d| d as &mut dyn Component),
            Some(&mut self.board),
            Some(&mut self.panel),
            self.replay.as_mut().map(|r| r as &mut dyn Component),
            Some(&mut self.status),
        ];
        for part in parts.into_iter().flatten() {
            match part.handle(msg, &cx) {
                Reply::Pass => {}
                taken => return taken,
            }
        }
        Reply::Pass
    }

    /// The messages no component takes: the game's own.
    fn own(&mut self, msg: Msg) -> Option<Msg> {
        let h = &self.session.history;
        match msg {
            // No dialog is open (it would have taken the key): the keymap says what it does.
            Msg::Key(e) => self.keymap.action(&e).map(Msg::Act),
            Msg::Act(a) => self.act_on(a),
            Msg::Paste(_) => Some(Msg::warn(
                "Pasted text is used only in a prompt (find, go to, save).",
            )),
            Msg::Play(m) => self.play(m),
            Msg::PlayAnyway(m) => self.play_now(m),
            Msg::RedoReply(m) => self.play_as(m, true, None),
            Msg::AskPromotion { yes, no } => self.open(Dialog::promote(h, yes, no)),
            Msg::ChooseEnding { title, endings } => self.open(Dialog::Endings {
                title,
                endings,
                chosen: 0,
            }),
            Msg::Open(path) => self.open_game(path),
            Msg::Ask(kind) => self.ask(kind),
            Msg::Submit(kind, text) => self.submit(kind, &text),
            Msg::Confirm(kind) => {
                let question = self.question(kind);
                self.open(Dialog::Confirm { kind, question })
            }
            Msg::Answer(kind, yes) => self.answer(kind, yes),
            Msg::Show(n) => self.show(n),
            Msg::Progress(id, p) => {
                self.players.progress(id, p, h);
                None
            }
            Msg::Thought(id, result) => self.thought(id, result),
            Msg::Tick => self.tick(),
            Msg::Quit => {
                self.quit = true;
                None
            }
            // The components take these (or there is nothing to do: no replay to step).
            Msg::Mouse(_)
            | Msg::Resize
            | Msg::InputFailed(_)
            | Msg::Finish(_)
            | Msg::AutoplayStep
            | Msg::Say(_)
            | Msg::Warn(_) => None,
        }
    }

    /// Opens the prompt for `kind` (the save prompt says where a name goes).
    fn ask(&mut self, kind: PromptKind) -> Option<Msg> {
        if kind != PromptKind::Save {
            return self.open(Dialog::prompt(kind));
        }
        let note = match &self.session.files.games_dir {
            Some(d) => format!(" (a name goes in {}; .toml is added)", d.display()),
            None => " (.toml is added)".into(),
        };
        self.open(Dialog::Prompt {
            kind,
            text: String::new(),
            note,
        })
    }

    fn open(&mut self, d: Dialog) -> Option<Msg> {
        self.dialog = Some(d);
        None
    }

    /// The game's own actions (the components have taken theirs).
    fn act_on(&mut self, a: Action) -> Option<Msg> {
        match a {
            Action::Undo => self.undo(),
            Action::Redo => Some(self.redo()),
            Action::MoveNow => Some(self.move_now()),
            Action::Hint => self.hint(),
            Action::Find => Some(Msg::Ask(PromptKind::Find)),
            Action::SaveAs => Some(Msg::Ask(PromptKind::Save)),
            Action::Recent => self.recent(),
            Action::Goto => Some(Msg::Ask(PromptKind::Goto)),
            Action::Save => match self.session.files.save.clone() {
                Some(path) => Some(self.save_to(path, false)),
                None => Some(Msg::Ask(PromptKind::Save)),
            },
            Action::Theme => Some(self.next_theme()),
            Action::Help => self.open(Dialog::help()),
            Action::Resign if self.outcome().is_some() => {
                Some(Msg::warn("The game is already over."))
            }
            Action::Resign => Some(Msg::Confirm(ConfirmKind::Resign)),
            Action::Quit => Some(self.quit_asked()),
            Action::Branch if self.replay.is_some() => self.branch(),
            // A replay takes its actions; without one they do nothing.
            _ if a.describe().starts_with("replay: ") => Some(Msg::Warn(format!(
                "{} ({}) works only in a replay: taikyoku replay FILE.",
                self.keymap.keys_of(a),
                a.describe().trim_start_matches("replay: ")
            ))),
            _ => None,
        }
    }

    /// Plays the next move of the line again (the computer's reply is redone after it).
    fn redo(&mut self) -> Msg {
        let h = &self.session.history;
        match h.line().get(h.point()) {
            Some(p) => {
                self.players.stop();
                self.redo_reply = self.players.any_computer();
                Msg::Play(p.mv)
            }
            None => Msg::warn("Nothing to redo."),
        }
    }

    /// The computer thinking plays its best move so far; an engine cannot be hurried.
    fn move_now(&mut self) -> Msg {
        let h = &self.session.history;
        match self.players.thinking().map(|t| t.side) {
            Some(side) if self.players.is_engine(side) => Msg::Warn(format!(
                "{} cannot be hurried: ATSI has no command to make an engine move now; \
                 it moves by its clock ({}).",
                self.players.label(side),
                self.players.clock(side, h).unwrap_or_default()
            )),
            Some(side) if self.players.move_now() => {
                Msg::Say(format!("{} moves now.", self.players.label(side)))
            }
            _ => Msg::warn("Nothing to hurry: the computer is not thinking now."),
        }
    }

    /// The list of recent and unfinished games, to open one.
    fn recent(&mut self) -> Option<Msg> {
        let f = &self.session.files;
        let games = super::session::recent_games(&[f.autosave_dir.clone(), f.games_dir.clone()]);
        if games.is_empty() {
            return Some(Msg::say("No saved or autosaved game yet."));
        }
        self.open(Dialog::Games { games, chosen: 0 })
    }

    fn next_theme(&mut self) -> Msg {
        let names = Theme::NAMES;
        let i = names
            .iter()
            .position(|n| *n == self.theme.name)
            .unwrap_or(0);
        let next = names[(i + 1) % names.len()];
        self.theme = Theme::by_name(next).unwrap_or_else(Theme::default_theme);
        Msg::Say(format!("Theme: {next}."))
    }

    /// Quitting: an autosaved game or a replay loses nothing by quitting at once.
    fn quit_asked(&self) -> Msg {
        let f = &self.session.files;
        if f.unsaved.is_some() && self.replay.is_none() {
            Msg::Confirm(ConfirmKind::QuitUnsaved)
        } else if self.history().played().is_empty()
            || self.replay.is_some()
            || f.autosave.is_some()
        {
            Msg::Quit
        } else {
            Msg::Confirm(ConfirmKind::Quit)
        }
    }

    /// The yes/no question for `kind`.
    fn question(&self, kind: ConfirmKind) -> String {
        match kind {
            ConfirmKind::Quit => "Quit this game? y / n".into(),
            ConfirmKind::QuitUnsaved => format!(
                "Last moves NOT saved: y quits and loses them, n saves them elsewhere ({})",
                self.session.files.unsaved.as_deref().unwrap_or("")
            ),
            ConfirmKind::Replace => match &self.pending_save {
                Some((path, other)) => format!(
                    "Replace another game? y / n: {} holds {other}",
                    path.display()
                ),
                None => String::new(),
            },
            ConfirmKind::Resign => {
                format!("{} resigns? y / n", capital(self.pos().to_move().name()))
            }
            // The keys first: at 80 columns the rest is cut off.
            ConfirmKind::Resume => match &self.pending_resume {
                Some((_, r)) => format!(
                    "Resume the unfinished game? y: yes · n: new · o: all games · q: quit · ({}, {}{} rules{}, {})",
                    count(r.moves().len(), "move"),
                    to_move_in(self.rules(), r).map_or(String::new(), |s| format!(
                        "{} to move, ",
                        capital(s.name())
                    )),
                    r.rules,
                    opponents(r),
                    when(&r.updated, std::time::SystemTime::now()),
                ),
                None => String::new(),
            },
            // The question first: a narrow status line cuts the end off.
            ConfirmKind::OwnCapture(m) => format!(
                "Play it? y / n. {}.",
                super::preview::describe(self.history(), &m)
            ),
        }
    }

    fn answer(&mut self, kind: ConfirmKind, yes: bool) -> Option<Msg> {
        match (kind, yes) {
            (ConfirmKind::Quit | ConfirmKind::QuitUnsaved, true) => Some(Msg::Quit),
            (ConfirmKind::QuitUnsaved, false) => Some(Msg::Ask(PromptKind::Save)),
            (ConfirmKind::Replace, true) => {
                let (path, _) = self.pending_save.take()?;
                Some(self.save_to(path, true))
            }
            (ConfirmKind::Replace, false) => {
                self.pending_save = None;
                Some(Msg::say("Not saved; the other game is left as it was."))
            }
            (ConfirmKind::Resign, true) => self.resign(),
            (ConfirmKind::Resume, true) => self.resume(),
            (ConfirmKind::OwnCapture(m), true) => Some(Msg::PlayAnyway(m)),
            (ConfirmKind::Resume, false) => {
                self.pending_resume = None;
                self.players.restart_clock();
                Some(Msg::Say(format!(
                    "A new game. {} to move; {} selects.",
                    capital(self.pos().to_move().name()),
                    self.keymap.keys_of(Action::Select)
                )))
            }
            (_, false) => Some(Msg::say("Cancelled.")),
        }
    }

    /// A prompt's answer (the board takes the go-to and find prompts').
    fn submit(&mut self, kind: PromptKind, text: &str) -> Option<Msg> {
        let h = &self.session.history;
        Some(match kind {
            PromptKind::Goto | PromptKind::Find => return None,
            PromptKind::Save if text.is_empty() => Msg::warn("Not saved: no file name."),
            PromptKind::Save => {
                let path = super::session::save_path(text, self.session.files.games_dir.as_deref());
                match self.session.save_target(&path) {
                    SaveTarget::Free => self.save_to(path, false),
                    SaveTarget::Earlier => self.save_to(path, true),
                    SaveTarget::OtherGame(other) => {
                        self.pending_save = Some((path, other));
                        Msg::Confirm(ConfirmKind::Replace)
                    }
                }
            }
            PromptKind::MoveNumber => match text.parse::<usize>() {
                Ok(n) if n <= h.line().len() => Msg::Show(n),
                _ => Msg::Warn(format!(
                    "{text:?}: give a move number from 0 to {}.",
                    h.line().len()
                )),
            },
        })
    }

    /// Shows the position after `n` moves (replay), the cursor on the last move.
    fn show(&mut self, n: usize) -> Option<Msg> {
        self.session.history.goto(n);
        let h = &self.session.history;
        let to = h.last().map_or(self.board.cursor_square(), |p| p.mv.to);
        self.board.moved(h, to);
        self.replay.as_ref()?;
        Some(Msg::Say(Replay::position_text(h)))
    }

    /// Plays a move for the side to move, after asking if it removes some of the mover's own
    /// pieces (unless the settings say not to ask).
    fn play(&mut self, m: Move) -> Option<Msg> {
        if self.confirm_own_captures && super::preview::own_losses(self.history(), &m) > 0 {
            return Some(Msg::Confirm(ConfirmKind::OwnCapture(m)));
        }
        self.play_now(m)
    }

    /// Plays a move for the side to move; it is saved before it is shown.
    fn play_now(&mut self, m: Move) -> Option<Msg> {
        self.play_as(m, false, None)
    }

    /// Plays a move: the player's, or the `computer`'s (its `thought`, unless it is a reply
    /// redone), which is announced as its move, with its evaluation, and gets the cursor, so
    /// that it shows wherever it is on the board.
    /// The mover's clock is charged first: a move made after its flag fell loses on time.
    fn play_as(&mut self, m: Move, computer: bool, thought: Option<&Thought>) -> Option<Msg> {
        let side = self.pos().to_move();
        if self.outcome().is_none() {
            let in_time = self.players.charge(side, thought.and_then(|t| t.elapsed));
            // Saved with the move (or the loss): a resumed game goes on with them.
            self.session.record.clock = self.players.clocks;
            if !in_time {
                return self.lost_on_time(side);
            }
        }
        let (played, failed) = match self.session.play(&m) {
            Ok(done) => done,
            Err(e) if computer => {
                return Some(Msg::Warn(format!("The computer's move was refused: {e}")));
            }
            Err(e) => return Some(Msg::Warn(e.to_string())),
        };
        let h = &self.session.history;
        let who = match computer {
            true => {
                self.board.moved(h, m.to);
                format!("{} played", self.players.label(played.side))
            }
            false => {
                self.board.played(h, played.side, m.to);
                capital(played.side.name())
            }
        };
        let danger = self.danger_note();
        let n = h.point();
        let clock = thought
            .and_then(|_| self.players.clock(played.side, h))
            .map_or(String::new(), |c| format!(", {c}"));
        let text = format!(
            "{}{}{clock}",
            played.text,
            thought.map_or(String::new(), judged)
        );
        Some(said(
            failed,
            match h.outcome() {
                Some(o) => format!(
                    "{n}. {who} {text}. Game over: {} wins ({}). The board stays browsable; {} undoes.",
                    capital(o.winner.name()),
                    o.reason.describe(),
                    self.keymap.keys_of(Action::Undo)
                ),
                // Whose turn it is now stands at the left of the status line.
                None => format!("{n}. {who} {text}.{danger}"),
            },
        ))
    }

    /// Takes back the last move (or the resignation or forfeit). Against the computer, its
    /// reply goes with the player's move (a running search stops first): undo ends on the
    /// player's own turn.
    fn undo(&mut self) -> Option<Msg> {
        if let Some(o) = self.outcome().filter(|o| o.reason == EndReason::Time) {
            return Some(Msg::Warn(format!(
                "{} lost on time: a clock cannot be turned back, so that is not undone. \
                 The moves stay browsable.",
                capital(o.winner.opponent().name())
            )));
        }
        self.players.stop();
        let mut said_undone = Vec::new();
        let mut failed = None;
        let mut at = None;
        loop {
            let ended = self.outcome().map(|o| o.reason.describe());
            // A move taken back takes its increment with it, saved with the undo.
            let h = &self.session.history;
            if let Some(p) = h.last().filter(|_| h.resigned().is_none()) {
                self.players.take_back_increment(p.side);
                self.session.record.clock = self.players.clocks;
            }
            let (undone, f) = self.session.undo();
            failed = failed.or(f);
            let h = &self.session.history;
            match undone {
                None => break,
                Some(Undone::Resignation(_)) => {
                    said_undone.push(format!("the {}", ended.unwrap_or("resignation")))
                }
                Some(Undone::Move(p)) => {
                    at = Some(p.mv.from);
                    said_undone.push(p.text);
                }
            }
            let someone = self.players.sides.iter().any(Player::is_human);
            if said_undone.len() == 2 || self.players.human_to_move(h) || !someone {
                break;
            }
        }
        if said_undone.is_empty() {
            return Some(Msg::warn("Nothing to undo."));
        }
        // Undo takes back moves and their increments, not the time spent on them.
        self.players.restart_clock();
        let h = &self.session.history;
        let at = at.unwrap_or(self.board.cursor_square());
        self.board.moved(h, at);
        let text = format!(
            "Undid {}. {} to move.",
            said_undone.join(" and "),
            capital(h.position().to_move().name())
        );
        Some(said(failed, capital(&text)))
    }

    /// After every message: a search for another position stops, and the computer starts
    /// thinking when it is to move (or redoes its reply after a redo).
    fn think(&mut self) -> Option<Msg> {
        let h = &self.session.history;
        self.players.drop_stale(h);
        let redo = std::mem::take(&mut self.redo_reply);
        let waiting = matches!(
            self.dialog,
            Some(
                Dialog::Games { .. }
                    | Dialog::Confirm {
                        kind: ConfirmKind::Resume,
                        ..
                    }
            )
        );
        if waiting && !self.players.human_to_move(h) {
            // The computer may not think yet: its clock does not run either.
            self.players.restart_clock();
        }
        if self.replay.is_some() || waiting || self.players.human_to_move(h) {
            return None;
        }
        if redo && let Some(p) = h.line().get(h.point()) {
            return Some(Msg::RedoReply(p.mv));
        }
        if let Some(tx) = &self.tx {
            self.players.start_move(h, tx);
        }
        None
    }

    /// A search has finished: the computer's move is played, a hint is shown.
    fn thought(&mut self, id: u64, result: Result<Thought, Failed>) -> Option<Msg> {
        if taikyoku_protocol::host::interrupted() {
            // The engines were killed by a signal: the game ends, no side lost.
            return Some(Msg::Quit);
        }
        let (side, purpose) = self.players.finished(id)?;
        match (purpose, result) {
            (Purpose::Move, Ok(t)) => self.play_as(t.mv, true, Some(&t)),
            (Purpose::Move, Err(failed)) => {
                if failed.reason == EndReason::Time {
                    // Its flag fell: its clock is saved run out.
                    self.players.charge(side, None);
                    self.session.record.clock = self.players.clocks;
                }
                self.concede(side, failed)
            }
            (Purpose::Hint, Ok(t)) => {
                let h = &self.session.history;
                let text = taikyoku_core::notation::move_string(h.rules(), h.position(), &t.mv);
                self.board.show_hint(h, t.mv);
                Some(Msg::Say(format!(
                    "Hint for {}: {text}{}, not played.",
                    capital(side.name()),
                    judged(&t)
                )))
            }
            (Purpose::Hint, Err(failed)) => Some(Msg::Warn(format!("No hint: {}.", failed.why))),
        }
    }

    /// `side` ran out of time: it loses (its clock, at zero, saved with the result).
    fn lost_on_time(&mut self, side: Side) -> Option<Msg> {
        self.players.stop();
        let failed = Failed {
            reason: EndReason::Time,
            why: "its clock ran out".into(),
        };
        self.concede(side, failed)
    }

    /// Now and then while a clock runs: a person whose time is up loses on time; the
    /// computer whose time is up moves at once (and is charged when its move comes). An
    /// engine's host keeps its deadline itself.
    fn tick(&mut self) -> Option<Msg> {
        let h = &self.session.history;
        if self.replay.is_some() || self.pending_resume.is_some() || h.outcome().is_some() {
            return None;
        }
        let side = h.position().to_move();
        match self.players.of(side) {
            Player::Human if self.players.flag_fallen(h) => {
                self.players.charge(side, None);
                self.session.record.clock = self.players.clocks;
                self.lost_on_time(side)
            }
            Player::Computer(_) if self.players.time_left(side, h) == Some(Duration::ZERO) => {
                self.players.move_now();
                None
            }
            _ => None,
        }
    }

    /// Asks the computer for a hint for the player to move.
    fn hint(&mut self) -> Option<Msg> {
        let h = &self.session.history;
        if h.outcome().is_some() {
            return Some(Msg::warn("The game is over: no hint."));
        }
        let Some(tx) = &self.tx else {
            return Some(Msg::warn("No hint here."));
        };
        if !self.players.start_hint(h, tx) {
            return Some(Msg::warn("The computer is thinking already."));
        }
        Some(Msg::Say(format!(
            "Thinking about a hint for {}; {} gives it at once.",
            capital(h.position().to_move().name()),
            self.keymap.keys_of(Action::MoveNow)
        )))
    }

    /// `side` (an engine) resigned, or loses by forfeit or on time: it sent an illegal move,
    /// ran out of time or died. The game is saved with that result.
    fn concede(&mut self, side: Side, failed: Failed) -> Option<Msg> {
        let (lost, saving) = self.session.concede(failed.reason);
        lost?;
        let at = self.board.cursor_square();
        self.board.moved(&self.session.history, at);
        let how = match failed.reason {
            EndReason::Resignation => "resigns".to_string(),
            r => format!("loses ({})", r.describe()),
        };
        let why = match failed.why.as_str() {
            "" => String::new(),
            why => format!(": {why}"),
        };
        let text = format!(
            "{} {how}{why}. {} wins.",
            self.players.label(side),
            capital(side.opponent().name())
        );
        Some(Msg::Warn(match saving {
            Some(e) => format!("{text} {e}"),
            None => text,
        }))
    }

    fn resign(&mut self) -> Option<Msg> {
        let (side, failed) = self.session.resign();
        let Some(side) = side else {
            return Some(Msg::warn("The game is already over."));
        };
        let at = self.board.cursor_square();
        self.board.moved(&self.session.history, at);
        Some(said(
            failed,
            format!(
                "{} resigns: {} wins. The board stays browsable; {} takes the resignation back.",
                capital(side.name()),
                capital(side.opponent().name()),
                self.keymap.keys_of(Action::Undo)
            ),
        ))
    }

    /// Saves to `path`; `replace`: the player agreed to replace another game's record there.
    fn save_to(&mut self, path: PathBuf, replace: bool) -> Msg {
        match self.session.save_to(path, replace) {
            Ok(said) => Msg::Say(said),
            Err(e) => Msg::Warn(e.to_string()),
        }
    }

    /// Leaves the replay: a new game from the shown position, saved as a new record. Not at
    /// the end of a finished game: that would be a copy of it, already over.
    fn branch(&mut self) -> Option<Msg> {
        let h = &self.session.history;
        if h.point() == h.line().len()
            && (h.outcome().is_some() || self.session.record.draw.is_some())
        {
            return Some(Msg::Warn(format!(
                "The game ended here: step back ({}) to the move to play on from, then {}.",
                self.keymap.keys_of(Action::ReplayPrev),
                self.keymap.keys_of(Action::Branch)
            )));
        }
        self.replay = None;
        self.board.read_only = false;
        let n = self.session.history.point();
        // The record's clocks were the end of its game's: the new game's start afresh.
        self.kept_clocks = None;
        self.init_clocks(self.asked_time);
        let result = self.session.branch();
        let h = &self.session.history;
        let at = self.board.cursor_square();
        self.board.moved(h, at);
        let to_move = capital(h.position().to_move().name());
        let save = self.keymap.keys_of(Action::Save);
        Some(match result {
            Ok(Some(p)) => Msg::Say(format!(
                "A new game from move {n}, saved as {}. {to_move} to move; {save} saves it elsewhere.",
                p.display(),
            )),
            Ok(None) => Msg::Say(format!(
                "A new game from move {n}. {to_move} to move; {save} saves it."
            )),
            Err(e) => Msg::Warn(format!("A new game from move {n}; autosave failed: {e}")),
        })
    }

    /// Offers to resume `found` (an unfinished autosaved game) before a new game starts.
    pub fn offer_resume(&mut self, found: (PathBuf, Record)) {
        self.pending_resume = Some(found);
        self.update(Msg::Confirm(ConfirmKind::Resume));
    }

    fn resume(&mut self) -> Option<Msg> {
        let (path, record) = self.pending_resume.take()?;
        self.switch_to(path, record, self.players_given)
    }

    /// Whether the players are the ones `r`'s game was played by (the offer to resume a game
    /// is made with `--black`/`--white` only then).
    pub fn plays_as_recorded(&self, r: &Record) -> bool {
        let recorded = [&r.black_player, &r.white_player];
        Side::BOTH
            .into_iter()
            .all(|s| *recorded[s.index()] == self.players.of(s).to_record())
    }

    /// Goes on with `players` (an engine among them already running) in place of the ones
    /// the record names; the clocks a record kept under their time control go on.
    fn keep_players(&mut self, players: Players, asked: Option<TimeControl>) {
        self.set_players(players.sides.clone());
        self.players = players;
        for side in Side::BOTH {
            if let Some(name) = self.players.engine_name(side) {
                self.name_player(side, &name);
            }
        }
        self.init_clocks(asked);
        let loaded = self.loaded(&[]);
        self.update(Msg::Say(loaded));
    }

    /// Opens a game from the list of recent games (an autosave goes on being autosaved there
    /// and `s` asks for a name; a saved record saves back to itself).
    fn open_game(&mut self, path: PathBuf) -> Option<Msg> {
        match Record::load(&path) {
            Ok(record) => self.switch_to(path, record, false),
            Err(e) => Some(Msg::Warn(format!("Cannot open {}: {e}", path.display()))),
        }
    }

    /// Goes on with the game of `record` (read from `path`) in place of this one; with
    /// `keep_players`, played by this game's players.
    fn switch_to(&mut self, path: PathBuf, record: Record, keep_players: bool) -> Option<Msg> {
        let cannot = |e: &dyn std::fmt::Display| {
            Some(Msg::Warn(format!("Cannot open {}: {e}", path.display())))
        };
        // The game being played is read from its data (maybe --data); another game is built in.
        let other;
        let game = if self.rules().game.is_called(&record.game) {
            &self.rules().game
        } else {
            match record.find_game(&taikyoku_core::game::DataDir::Embedded) {
                Ok(g) => {
                    other = g;
                    &other
                }
                Err(e) => return cannot(&e),
            }
        };
        let replay = match record.replay(game) {
            Ok(r) => r,
            Err(e) => return cannot(&e),
        };
        let keymap = self.keymap.clone();
        let theme = self.theme.clone();
        let mut app = App::from_record(record, replay, keymap, theme, self.board.view.ascii, false);
        if keep_players {
            let players = std::mem::replace(&mut self.players, Players::new(Default::default()));
            app.keep_players(players, self.asked_time);
        }
        let files = &mut self.session.files;
        app.session.files.games_dir = files.games_dir.take();
        app.session.files.autosave_dir = files.autosave_dir.take();
        app.session.files.save_stamp = taikyoku_records::store::stamp(&path).ok().flatten();
        app.session.files.save = Some(path);
        app.session.adopt_autosave();
        app.confirm_own_captures = self.confirm_own_captures;
        app.board.geom = self.board.geom;
        app.board.center_on_cursor();
        app.tx = self.tx.take();
        let status = app.status.clone();
        *self = app;
        Some(if status.warning {
            Msg::Warn(status.text)
        } else {
            Msg::Say(status.text)
        })
    }
}

/// Whose move it is in the game of `r` (played under `rules`' game): the side to move at
/// its start, or the other one after an odd number of moves.
fn to_move_in(rules: &Rules, r: &Record) -> Option<Side> {
    let start = match r.start.as_str() {
        taikyoku_records::record::STANDARD_START => rules.start_position().to_move(),
        s => taikyoku_core::notation::parse_position_string(rules, s)
            .ok()?
            .to_move(),
    };
    Some(match r.moves().len() % 2 {
        0 => start,
        _ => start.opponent(),
    })
}

/// " (eval +0.35, depth 6)": how the computer judged its move.
fn judged(t: &Thought) -> String {
    let p = &t.progress;
    let mut said = Vec::new();
    if let Some(s) = p.score {
        said.push(eval_text(s));
    }
    if p.depth > 0 {
        said.push(format!("depth {}", p.depth));
    }
    match said.is_empty() {
        true => String::new(),
        false => format!(" ({})", said.join(", ")),
    }
}

/// ", against computer (easy)": who played a record's game other than people.
fn opponents(r: &Record) -> String {
    let names: Vec<&str> = [(&r.black, &r.black_player), (&r.white, &r.white_player)]
        .into_iter()
        .filter(|(_, kind)| !kind.is_empty())
        .map(|(name, _)| name.as_str())
        .collect();
    match names.is_empty() {
        true => String::new(),
        false => format!(", against {}", names.join(" and ")),
    }
}

/// What a change did, for the status line, and why saving it failed if it did.
fn said(failed: Option<String>, text: String) -> Msg {
    match failed {
        Some(e) => Msg::Warn(format!("{text} {e}")),
        None => Msg::Say(text),
    }
}

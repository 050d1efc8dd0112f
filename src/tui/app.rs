//! The terminal game's model and update: keys and mouse become actions, actions change the
//! model. Nothing here touches the terminal, so all of it is tested without one.

use super::keys::{Action, Keymap};
use super::theme::Theme;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use std::path::PathBuf;
use std::time::Duration;
use taikyoku::card::Cards;
use taikyoku::catalogue::{KindId, Lookup};
use taikyoku::geometry::{Side, Square};
use taikyoku::history::{History, Played, Undone};
use taikyoku::movegen::Move;
use taikyoku::notation;
use taikyoku::position::{Outcome, Piece, Position};
use taikyoku::reach;
use taikyoku::record::{Record, Replay};
use taikyoku::rules::Rules;
use taikyoku::store::{self, Overwrite};

/// Square widths in terminal cells at each zoom level.
pub const ZOOM_WIDTHS: [u16; 3] = [3, 4, 6];

/// Overlay flags of a square.
pub use taikyoku::reach::mark;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    Find,
    Goto,
    Save,
    MoveNumber,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfirmKind {
    Quit,
    Resign,
    /// Resume the unfinished game found among the autosaves.
    Resume,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    Normal,
    Help,
    Prompt(PromptKind, String),
    Confirm(ConfirmKind),
    /// The chosen move can be made with or without promotion.
    Promote {
        yes: Move,
        no: Move,
    },
}

/// How the board is shown.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub zoom: usize,
    pub flipped: bool,
    /// Turn the board to the side to move after every move.
    pub follow: bool,
    pub ascii: bool,
    /// The first board column and row (in screen orientation) in the viewport.
    pub scroll: (i32, i32),
}

/// Where things are on screen, from the last layout (for the mouse and for scrolling).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// Board squares area: left, top, visible columns and rows.
    pub left: u16,
    pub top: u16,
    pub cols: i32,
    pub rows: i32,
    pub cell_w: u16,
}

/// A piece chosen to move, and the legs entered so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    pub from: Square,
    pub legs: Vec<Square>,
    /// Every legal move of the piece, by every path.
    pub moves: Vec<Move>,
}

impl Selection {
    /// The moves that go through the legs entered so far.
    pub fn candidates(&self) -> impl Iterator<Item = &Move> {
        self.moves
            .iter()
            .filter(|m| m.path().starts_with(&self.legs))
    }
}

/// Where the game is written.
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// The file the player saved to (or loaded from): `s` saves there without asking.
    pub save: Option<PathBuf>,
    /// The directory for autosaves (none: no autosave, as in tests).
    pub autosave_dir: Option<PathBuf>,
    /// This game's autosave file, once its first move is made.
    pub autosave: Option<PathBuf>,
}

/// Read-only replay of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayMode {
    pub autoplay: bool,
    /// Time between moves when playing automatically.
    pub interval: Duration,
}

pub struct App {
    /// The game: its moves, the point on the board (the end, except while replaying or after
    /// undo) and its result.
    pub history: History,
    /// The game as it is saved.
    pub record: Record,
    pub files: Files,
    pub replay: Option<ReplayMode>,
    /// An unfinished autosaved game offered for resuming.
    pub pending_resume: Option<(PathBuf, Record)>,
    pub cursor: (i32, i32),
    pub view: View,
    pub selection: Option<Selection>,
    /// Overlay flags per square for the piece under the cursor (or the selection).
    pub overlay: Vec<u8>,
    /// Piece cards, built when first shown.
    pub cards: Cards,
    /// The kind shown in the side panel when no piece is under the cursor (after a find).
    pub inspect: Option<KindId>,
    pub mode: Mode,
    pub status: String,
    pub warning: bool,
    pub keymap: Keymap,
    pub theme: Theme,
    pub geom: Geometry,
    pub quit: bool,
}

impl App {
    pub fn new(rules: Rules, start: Position, keymap: Keymap, theme: Theme, ascii: bool) -> App {
        App::with_history(History::new(rules, start), keymap, theme, ascii)
    }

    fn with_history(history: History, keymap: Keymap, theme: Theme, ascii: bool) -> App {
        let n = history.rules().dims().len();
        let record = Record::new(&history);
        let cards = Cards::new(history.rules());
        let mut app = App {
            cards,
            history,
            record,
            files: Files::default(),
            replay: None,
            pending_resume: None,
            cursor: (0, 0),
            view: View {
                zoom: 1,
                flipped: false,
                follow: false,
                ascii,
                scroll: (0, 0),
            },
            selection: None,
            overlay: vec![0; n],
            inspect: None,
            mode: Mode::Normal,
            status: String::new(),
            warning: false,
            keymap,
            theme,
            geom: Geometry::default(),
            quit: false,
        };
        app.view.flipped = app.pos().to_move() == Side::White;
        app.cursor = app.own_royal_square();
        app.status = format!(
            "{} to move. {} select, {} help.",
            capital(app.pos().to_move().name()),
            app.keymap.keys_of(Action::Select),
            app.keymap.keys_of(Action::Help)
        );
        app.refresh_overlay();
        app
    }

    /// A game read from a record: its moves as played (undo goes back through them), or, with
    /// `read_only`, a replay that starts at the first move.
    pub fn from_record(
        record: Record,
        replay: Replay,
        keymap: Keymap,
        theme: Theme,
        ascii: bool,
        read_only: bool,
    ) -> App {
        let mut history = replay.history;
        let n = history.point();
        // Set up (board side, cursor) as at the start, then show the end or the start.
        history.goto(0);
        let mut app = App::with_history(history, keymap, theme, ascii);
        app.files.save = (!record.file().is_empty()).then(|| PathBuf::from(record.file()));
        app.record = record;
        if read_only {
            app.replay = Some(ReplayMode {
                autoplay: false,
                interval: Duration::from_millis(800),
            });
            app.show(0);
            app.say(format!(
                "Replay of {n} moves: {} on, {} back, {} autoplay, {} play on from here.",
                app.keymap.keys_of(Action::ReplayNext),
                app.keymap.keys_of(Action::ReplayPrev),
                app.keymap.keys_of(Action::Autoplay),
                app.keymap.keys_of(Action::Branch)
            ));
        } else {
            app.show(n);
            app.say(format!(
                "{n} moves loaded. {} to move.",
                capital(app.pos().to_move().name())
            ));
        }
        app
    }

    pub fn pos(&self) -> &Position {
        self.history.position()
    }

    pub fn rules(&self) -> &Rules {
        self.history.rules()
    }

    /// Shows the position after `n` moves (replay), the cursor on the last move.
    fn show(&mut self, n: usize) {
        self.history.goto(n);
        self.selection = None;
        if let Some(p) = self.history.last() {
            self.cursor = self.dims().xy(p.mv.to);
            self.scroll_to_cursor();
        }
        self.refresh_overlay();
    }

    /// The move last played on the shown position (highlighted on the board and in the list).
    pub fn shown_move(&self) -> Option<&Played> {
        self.history.last()
    }

    /// Writes the autosave (and nothing else): after every move, undo, redo and resignation,
    /// before the screen shows it, so that no move on screen is ever lost.
    fn persist(&mut self) {
        if self.replay.is_some()
            || self.history.played().is_empty() && self.files.autosave.is_none()
        {
            return;
        }
        self.record.update(&self.history);
        let Some(dir) = self.files.autosave_dir.clone() else {
            return;
        };
        let result = match &self.files.autosave {
            Some(path) => store::save(path, &self.record, Overwrite::Record),
            None => store::start_autosave(&dir, &self.record).map(|p| {
                self.files.autosave = Some(p);
            }),
        };
        if let Err(e) = result {
            self.warn(format!("Autosave failed: {e}"));
        }
    }

    /// Saves to `path` (a record there is replaced; any other file is left alone).
    fn save_to(&mut self, path: PathBuf) {
        match store::save(&path, &self.record, Overwrite::Record) {
            Ok(()) => {
                self.say(format!(
                    "Saved {} moves to {}.",
                    self.record.moves().len(),
                    path.display()
                ));
                self.files.save = Some(path);
            }
            Err(e) => self.warn(format!("Not saved: {e}")),
        }
    }

    /// Advances an automatic replay by one move; stops at the end.
    pub fn tick(&mut self) {
        let playing = self.replay.as_ref().is_some_and(|r| r.autoplay);
        let (point, n) = (self.history.point(), self.history.line().len());
        if playing && point < n {
            self.show(point + 1);
            self.say_replay_position();
        }
        if self.history.point() >= n
            && let Some(r) = &mut self.replay
        {
            r.autoplay = false;
        }
    }

    /// How long to wait for a key before [`App::tick`] (while an automatic replay runs).
    pub fn tick_interval(&self) -> Option<Duration> {
        self.replay
            .as_ref()
            .filter(|r| r.autoplay)
            .map(|r| r.interval)
    }

    fn say_replay_position(&mut self) {
        let n = self.history.line().len();
        let text = match self.shown_move() {
            Some(p) => format!("Move {} of {n}: {}.", self.history.point(), p.text),
            None => format!("The start, before move 1 of {n}."),
        };
        self.say(text);
    }

    fn replay_action(&mut self, a: Action) {
        let (point, n) = (self.history.point(), self.history.line().len());
        if self.replay.is_none() {
            self.warn(format!(
                "{} works in a replay (taikyoku replay FILE).",
                a.describe().trim_start_matches("replay: ")
            ));
            return;
        }
        match a {
            Action::ReplayPrev => self.show(point.saturating_sub(1)),
            Action::ReplayNext => self.show(point + 1),
            Action::ReplayStart => self.show(0),
            Action::ReplayEnd => self.show(n),
            Action::ReplayGoto => {
                self.mode = Mode::Prompt(PromptKind::MoveNumber, String::new());
                return;
            }
            Action::Autoplay => {
                if let Some(r) = &mut self.replay {
                    r.autoplay = !r.autoplay;
                    let on = r.autoplay;
                    self.say(if on { "Playing the moves." } else { "Stopped." });
                }
                return;
            }
            Action::Faster | Action::Slower => {
                if let Some(r) = &mut self.replay {
                    let ms = r.interval.as_millis() as u64;
                    let ms = if a == Action::Faster {
                        (ms / 2).max(50)
                    } else {
                        (ms * 2).min(8000)
                    };
                    r.interval = Duration::from_millis(ms);
                    self.say(format!("A move every {:.2} s.", ms as f64 / 1000.0));
                }
                return;
            }
            Action::Branch => {
                self.branch();
                return;
            }
            _ => {}
        }
        self.say_replay_position();
    }

    /// Leaves the replay: a new game from the shown position, saved as a new record.
    fn branch(&mut self) {
        let n = self.history.point();
        self.history = self.history.branch(n);
        self.record = self.record.branch(&self.history);
        self.replay = None;
        self.files.save = None;
        self.files.autosave = None;
        match self.files.autosave_dir.clone() {
            Some(dir) => match store::start_autosave(&dir, &self.record) {
                Ok(p) => {
                    self.say(format!(
                        "A new game from move {n}, saved as {}. {} to move; {} saves it elsewhere.",
                        p.display(),
                        capital(self.pos().to_move().name()),
                        self.keymap.keys_of(Action::Save)
                    ));
                    self.files.autosave = Some(p);
                }
                Err(e) => self.warn(format!("A new game from move {n}; autosave failed: {e}")),
            },
            None => self.say(format!(
                "A new game from move {n}. {} to move; {} saves it.",
                capital(self.pos().to_move().name()),
                self.keymap.keys_of(Action::Save)
            )),
        }
        self.refresh_overlay();
    }

    /// Offers to resume `found` (an unfinished autosaved game) before a new game starts.
    pub fn offer_resume(&mut self, found: (PathBuf, Record)) {
        let r = &found.1;
        self.say(format!(
            "Resume the unfinished game of {} ({} moves, {} rules)? y / n",
            r.updated,
            r.moves().len(),
            r.rules
        ));
        self.pending_resume = Some(found);
        self.mode = Mode::Confirm(ConfirmKind::Resume);
    }

    fn resume(&mut self) {
        let Some((path, record)) = self.pending_resume.take() else {
            return;
        };
        match record.replay(&self.rules().game) {
            Ok(replay) => {
                let keymap = self.keymap.clone();
                let theme = self.theme.clone();
                let dir = self.files.autosave_dir.clone();
                let geom = self.geom;
                let mut app =
                    App::from_record(record, replay, keymap, theme, self.view.ascii, false);
                app.files = Files {
                    save: None,
                    autosave_dir: dir,
                    autosave: Some(path),
                };
                app.geom = geom;
                app.center_on_cursor();
                *self = app;
            }
            Err(e) => self.warn(format!("Cannot resume {}: {e}", path.display())),
        }
    }

    pub fn dims(&self) -> taikyoku::geometry::Dims {
        self.rules().dims()
    }

    /// The side to move's king (or first royal piece), else the middle of its side.
    fn own_royal_square(&self) -> (i32, i32) {
        let side = self.pos().to_move();
        let cat = self.rules().catalogue();
        self.pos()
            .pieces()
            .find(|(_, p)| p.side == side && cat.kind(p.kind).royal)
            .map(|(s, _)| self.dims().xy(s))
            .unwrap_or((
                self.dims().files as i32 / 2,
                if side == Side::Black {
                    0
                } else {
                    self.dims().ranks as i32 - 1
                },
            ))
    }

    pub fn cursor_square(&self) -> Square {
        self.dims()
            .square(self.cursor.0, self.cursor.1)
            .expect("the cursor stays on the board")
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.history.outcome()
    }

    /// Screen column and row of a board square.
    pub fn screen_xy(&self, x: i32, y: i32) -> (i32, i32) {
        let d = self.dims();
        if self.view.flipped {
            (d.files as i32 - 1 - x, y)
        } else {
            (x, d.ranks as i32 - 1 - y)
        }
    }

    pub fn board_xy(&self, c: i32, r: i32) -> (i32, i32) {
        let d = self.dims();
        if self.view.flipped {
            (d.files as i32 - 1 - c, r)
        } else {
            (c, d.ranks as i32 - 1 - r)
        }
    }

    /// Keeps the cursor inside the viewport, scrolling as little as possible.
    pub fn scroll_to_cursor(&mut self) {
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        let d = self.dims();
        let (cols, rows) = (self.geom.cols.max(1), self.geom.rows.max(1));
        let (mut sc, mut sr) = self.view.scroll;
        let margin_c = (cols / 6).min(3);
        let margin_r = (rows / 6).min(3);
        if c < sc + margin_c {
            sc = c - margin_c;
        } else if c >= sc + cols - margin_c {
            sc = c - cols + 1 + margin_c;
        }
        if r < sr + margin_r {
            sr = r - margin_r;
        } else if r >= sr + rows - margin_r {
            sr = r - rows + 1 + margin_r;
        }
        self.view.scroll = (
            sc.clamp(0, (d.files as i32 - cols).max(0)),
            sr.clamp(0, (d.ranks as i32 - rows).max(0)),
        );
    }

    /// Centres the viewport on the cursor.
    pub fn center_on_cursor(&mut self) {
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        self.view.scroll = (c - self.geom.cols / 2, r - self.geom.rows / 2);
        self.scroll_to_cursor();
    }

    /// Records where the board is on screen (called before each draw and on resize).
    pub fn set_geometry(&mut self, g: Geometry) {
        let first = self.geom.cols == 0;
        self.geom = g;
        if first {
            self.center_on_cursor();
        } else {
            self.scroll_to_cursor();
        }
    }

    fn say(&mut self, s: impl Into<String>) {
        self.status = s.into();
        self.warning = false;
    }

    fn warn(&mut self, s: impl Into<String>) {
        self.status = s.into();
        self.warning = true;
    }

    /// Handles one key press.
    pub fn on_key(&mut self, e: KeyEvent) {
        // Windows also reports releases; only presses act.
        if e.kind != KeyEventKind::Press {
            return;
        }
        // Ctrl-C always quits at once (the terminal is in raw mode, so it arrives as a key).
        if e.code == KeyCode::Char('c') && e.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        match self.mode.clone() {
            Mode::Help => self.mode = Mode::Normal,
            Mode::Prompt(kind, mut text) => match e.code {
                KeyCode::Esc => {
                    self.mode = Mode::Normal;
                    self.say("Cancelled.");
                }
                KeyCode::Enter => {
                    self.mode = Mode::Normal;
                    self.submit(kind, text.trim());
                }
                KeyCode::Backspace => {
                    text.pop();
                    self.mode = Mode::Prompt(kind, text);
                }
                KeyCode::Char(c) => {
                    text.push(c);
                    self.mode = Mode::Prompt(kind, text);
                }
                _ => {}
            },
            Mode::Confirm(kind) => match e.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => {
                    self.mode = Mode::Normal;
                    match kind {
                        ConfirmKind::Quit => self.quit = true,
                        ConfirmKind::Resign => self.resign(),
                        ConfirmKind::Resume => self.resume(),
                    }
                }
                _ => {
                    self.mode = Mode::Normal;
                    if kind == ConfirmKind::Resume {
                        self.pending_resume = None;
                        self.say(format!(
                            "A new game. {} to move; {} selects.",
                            capital(self.pos().to_move().name()),
                            self.keymap.keys_of(Action::Select)
                        ));
                    } else {
                        self.say("Cancelled.");
                    }
                }
            },
            Mode::Promote { yes, no } => match e.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => {
                    self.mode = Mode::Normal;
                    self.play(yes);
                }
                KeyCode::Char('n') | KeyCode::Char('N') => {
                    self.mode = Mode::Normal;
                    self.play(no);
                }
                KeyCode::Esc => {
                    self.mode = Mode::Normal;
                    self.say("Cancelled: choose again.");
                }
                _ => self.say("Promote? y for yes, n for no, Esc to choose again."),
            },
            Mode::Normal => {
                if let Some(a) = self.keymap.action(&e) {
                    self.act(a);
                }
            }
        }
    }

    /// Handles the mouse: click to select or choose, wheel to scroll.
    pub fn on_mouse(&mut self, e: MouseEvent) {
        if self.mode != Mode::Normal {
            return;
        }
        match e.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if let Some((x, y)) = self.square_at(e.column, e.row) {
                    self.cursor = (x, y);
                    self.act(Action::Select);
                }
            }
            MouseEventKind::ScrollUp => self.scroll(0, -3),
            MouseEventKind::ScrollDown => self.scroll(0, 3),
            MouseEventKind::ScrollLeft => self.scroll(-3, 0),
            MouseEventKind::ScrollRight => self.scroll(3, 0),
            _ => {}
        }
    }

    /// The board square under a screen cell, from the last layout.
    pub fn square_at(&self, col: u16, row: u16) -> Option<(i32, i32)> {
        let g = self.geom;
        if g.cell_w == 0 || col < g.left || row < g.top {
            return None;
        }
        let c = ((col - g.left) / g.cell_w) as i32;
        let r = (row - g.top) as i32;
        if c >= g.cols || r >= g.rows {
            return None;
        }
        let (x, y) = self.board_xy(c + self.view.scroll.0, r + self.view.scroll.1);
        self.dims().contains(x, y).then_some((x, y))
    }

    /// Scrolls the viewport, keeping the cursor in it.
    fn scroll(&mut self, dc: i32, dr: i32) {
        let d = self.dims();
        let (cols, rows) = (self.geom.cols.max(1), self.geom.rows.max(1));
        let sc = (self.view.scroll.0 + dc).clamp(0, (d.files as i32 - cols).max(0));
        let sr = (self.view.scroll.1 + dr).clamp(0, (d.ranks as i32 - rows).max(0));
        self.view.scroll = (sc, sr);
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        let (c, r) = (c.clamp(sc, sc + cols - 1), r.clamp(sr, sr + rows - 1));
        let (x, y) = self.board_xy(c, r);
        if (x, y) != self.cursor && d.contains(x, y) {
            self.cursor = (x, y);
            self.refresh_overlay();
        }
    }

    /// Moves the cursor by screen direction (up is up on the screen, whatever the flip).
    fn move_cursor(&mut self, dc: i32, dr: i32) {
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        let d = self.dims();
        let c = (c + dc).clamp(0, d.files as i32 - 1);
        let r = (r + dr).clamp(0, d.ranks as i32 - 1);
        self.cursor = self.board_xy(c, r);
        self.scroll_to_cursor();
        self.refresh_overlay();
    }

    pub fn act(&mut self, a: Action) {
        let changes_game = matches!(
            a,
            Action::Select | Action::Undo | Action::Redo | Action::Resign
        );
        if changes_game && self.replay.is_some() {
            self.warn(format!(
                "This is a replay: {} plays on from this position as a new game.",
                self.keymap.keys_of(Action::Branch)
            ));
            return;
        }
        match a {
            Action::Left => self.move_cursor(-1, 0),
            Action::Right => self.move_cursor(1, 0),
            Action::Up => self.move_cursor(0, -1),
            Action::Down => self.move_cursor(0, 1),
            Action::FarLeft => self.move_cursor(-5, 0),
            Action::FarRight => self.move_cursor(5, 0),
            Action::FarUp => self.move_cursor(0, -5),
            Action::FarDown => self.move_cursor(0, 5),
            Action::Select => self.select(),
            Action::Cancel => self.cancel(),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::ZoomIn => {
                self.view.zoom = (self.view.zoom + 1).min(ZOOM_WIDTHS.len() - 1);
                self.say(format!(
                    "Squares {} cells wide.",
                    ZOOM_WIDTHS[self.view.zoom]
                ));
            }
            Action::ZoomOut => {
                self.view.zoom = self.view.zoom.saturating_sub(1);
                self.say(format!(
                    "Squares {} cells wide.",
                    ZOOM_WIDTHS[self.view.zoom]
                ));
            }
            Action::Flip => {
                self.view.flipped = !self.view.flipped;
                self.center_on_cursor();
                self.say(if self.view.flipped {
                    "White's side at the bottom."
                } else {
                    "Black's side at the bottom."
                });
            }
            Action::Follow => {
                self.view.follow = !self.view.follow;
                if self.view.follow {
                    self.face_side_to_move();
                }
                self.say(if self.view.follow {
                    "The board turns to the side to move after each move."
                } else {
                    "The board stays as it is."
                });
            }
            Action::Find => self.mode = Mode::Prompt(PromptKind::Find, String::new()),
            Action::Goto => self.mode = Mode::Prompt(PromptKind::Goto, String::new()),
            Action::Save => match self.files.save.clone() {
                Some(path) => self.save_to(path),
                None => self.mode = Mode::Prompt(PromptKind::Save, String::new()),
            },
            Action::Ascii => {
                self.view.ascii = !self.view.ascii;
                self.say(if self.view.ascii {
                    "Pieces by ASCII code."
                } else {
                    "Pieces by kanji."
                });
            }
            Action::Theme => {
                let i = Theme::NAMES
                    .iter()
                    .position(|n| *n == self.theme.name)
                    .unwrap_or(0);
                let next = Theme::NAMES[(i + 1) % Theme::NAMES.len()];
                self.theme = Theme::by_name(next).unwrap_or_else(Theme::default_theme);
                self.say(format!("Theme: {next}."));
            }
            Action::Help => self.mode = Mode::Help,
            Action::Resign => {
                if self.outcome().is_some() {
                    self.warn("The game is already over.");
                } else {
                    self.mode = Mode::Confirm(ConfirmKind::Resign);
                }
            }
            Action::Quit => {
                // An autosaved game or a replay loses nothing by quitting at once.
                if self.history.played().is_empty()
                    || self.replay.is_some()
                    || self.files.autosave.is_some()
                {
                    self.quit = true;
                } else {
                    self.mode = Mode::Confirm(ConfirmKind::Quit);
                }
            }
            Action::ReplayPrev
            | Action::ReplayNext
            | Action::ReplayStart
            | Action::ReplayEnd
            | Action::ReplayGoto
            | Action::Autoplay
            | Action::Faster
            | Action::Slower
            | Action::Branch => self.replay_action(a),
        }
    }

    fn face_side_to_move(&mut self) {
        let flipped = self.pos().to_move() == Side::White;
        if flipped != self.view.flipped {
            self.view.flipped = flipped;
            self.center_on_cursor();
        }
    }

    fn submit(&mut self, kind: PromptKind, text: &str) {
        match kind {
            PromptKind::Goto => match self.dims().parse_square(text) {
                Some(sq) => {
                    self.cursor = self.dims().xy(sq);
                    self.center_on_cursor();
                    self.refresh_overlay();
                    self.say(format!("Cursor on {text}."));
                }
                None => self.warn(format!(
                    "{text:?} is not a square: write file.rank, e.g. {}.{} (files 1-{} from Black's right, ranks 1-{} from White's side).",
                    self.dims().files / 2 + 1,
                    self.dims().ranks,
                    self.dims().files,
                    self.dims().ranks
                )),
            },
            PromptKind::Find => self.find(text),
            PromptKind::Save if text.is_empty() => self.warn("Not saved: no file name."),
            PromptKind::Save => self.save_to(expand_home(text)),
            PromptKind::MoveNumber => match text.parse::<usize>() {
                Ok(n) if n <= self.history.line().len() => {
                    self.show(n);
                    self.say_replay_position();
                }
                _ => self.warn(format!("{text:?}: give a move number from 0 to {}.", self.history.line().len())),
            },
        }
    }

    /// Shows the named piece's card and moves the cursor to the next one on the board.
    fn find(&mut self, text: &str) {
        let cat = self.rules().catalogue();
        let k = match cat.lookup(text) {
            Lookup::Found(k) => k,
            Lookup::Ambiguous(ks) => {
                let names: Vec<String> = ks
                    .iter()
                    .map(|&k| format!("{} ({})", cat.kind(k).name, cat.kind(k).code))
                    .collect();
                self.warn(format!("{text:?} could be: {}.", names.join(", ")));
                return;
            }
            Lookup::NotFound(close) => {
                self.warn(format!(
                    "No piece is called {text:?}{}.",
                    notation::suggest(&close)
                ));
                return;
            }
        };
        let name = cat.kind(k).name.clone();
        let side = self.pos().to_move();
        // Own pieces first, then the opponent's; the next one after the cursor, in order.
        let mut found: Vec<(i32, i32, bool)> = self
            .pos()
            .pieces()
            .filter(|(_, p)| p.kind == k)
            .map(|(s, p)| {
                let (x, y) = self.dims().xy(s);
                (x, y, p.side == side)
            })
            .collect();
        found.sort_by_key(|&(x, y, own)| (!own, y, x));
        self.inspect = Some(k);
        if found.is_empty() {
            self.say(format!("No {name} on the board; its card is on the right."));
            return;
        }
        let at = found
            .iter()
            .position(|&(x, y, _)| (x, y) == self.cursor)
            .map_or(0, |i| (i + 1) % found.len());
        let (x, y, own) = found[at];
        self.cursor = (x, y);
        self.center_on_cursor();
        self.refresh_overlay();
        let whose = if own { side } else { side.opponent() };
        self.say(format!(
            "{name}: {} of {} on the board ({whose}'s). Search again for the next.",
            at + 1,
            found.len()
        ));
    }

    /// Recomputes the overlay for the selection or the piece under the cursor: the same marks
    /// either way, from the piece's moves with every path.
    pub fn refresh_overlay(&mut self) {
        self.overlay.iter_mut().for_each(|f| *f = 0);
        let pos = self.history.position();
        let marks = match &self.selection {
            Some(sel) => reach::reach(self.history.rules(), pos, sel.candidates(), sel.legs.len()),
            None => {
                let sq = self.cursor_square();
                if pos.piece_at(sq).is_none() {
                    return;
                }
                let moves = self.history.rules().moves_from_all_paths(pos, sq);
                reach::reach(self.history.rules(), pos, &moves, 0)
            }
        };
        for (sq, f) in marks {
            self.overlay[sq.0 as usize] |= f;
        }
    }

    fn select(&mut self) {
        if self.selection.is_some() {
            self.choose();
            return;
        }
        if let Some(o) = self.outcome() {
            self.warn(format!(
                "The game is over: {} won ({}). {} undoes, {} quits.",
                o.winner,
                o.reason.describe(),
                self.keymap.keys_of(Action::Undo),
                self.keymap.keys_of(Action::Quit)
            ));
            return;
        }
        let sq = self.cursor_square();
        let name = self.dims().square_name(sq);
        let turn = self.pos().to_move();
        let Some(piece) = self.pos().piece_at(sq) else {
            self.warn(format!("Nothing on {name} to move."));
            return;
        };
        let kind = self.rules().catalogue().kind(piece.kind).name.clone();
        if piece.side != turn {
            self.warn(format!(
                "That {kind} is {}'s; it is {turn}'s turn.",
                piece.side
            ));
            return;
        }
        let moves = self.rules().moves_from_all_paths(self.pos(), sq);
        if moves.is_empty() {
            self.warn(format!("The {kind} on {name} has no legal move."));
            return;
        }
        self.selection = Some(Selection {
            from: sq,
            legs: Vec::new(),
            moves,
        });
        self.say(format!(
            "{kind} on {name} selected: choose where it goes ({} cancels).",
            self.keymap.keys_of(Action::Cancel)
        ));
        self.refresh_overlay();
    }

    /// With a piece selected: choose the square under the cursor as the next stop or the end.
    fn choose(&mut self) {
        let Some(sel) = self.selection.clone() else {
            return;
        };
        let sq = self.cursor_square();
        let k = sel.legs.len();
        let name = self.dims().square_name(sq);
        let ending = |legs: &[Square]| -> Vec<Move> {
            sel.moves
                .iter()
                .filter(|m| m.path() == legs && m.to == sq)
                .copied()
                .collect()
        };
        // Choosing the last stop again ends the move there.
        if k > 0 && sel.legs[k - 1] == sq {
            let finals = ending(&sel.legs[..k - 1]);
            if !finals.is_empty() {
                self.finish(finals);
                return;
            }
        }
        let finals = ending(&sel.legs);
        let goes_on = sel
            .candidates()
            .any(|m| m.path().len() > k && m.path()[k] == sq);
        match (finals.is_empty(), goes_on) {
            (false, false) => self.finish(finals),
            (_, true) => {
                let can_stop = !finals.is_empty();
                if let Some(s) = &mut self.selection {
                    s.legs.push(sq);
                }
                self.refresh_overlay();
                self.say(if can_stop {
                    format!(
                        "Through {name}: choose the next square, or {name} again to stop there."
                    )
                } else {
                    format!("Through {name}: choose the next square.")
                });
            }
            (true, false) => {
                if sq == sel.from && k == 0 {
                    self.selection = None;
                    self.refresh_overlay();
                    self.say("Selection cleared.");
                    return;
                }
                let reason = self.why_not(sel.from, sq);
                self.warn(format!("Illegal: {reason}"));
            }
        }
    }

    /// Why the selected piece cannot go to `to`.
    fn why_not(&self, from: Square, to: Square) -> String {
        let pos = self.pos();
        let dims = self.dims();
        let Some(piece) = pos.piece_at(from) else {
            return "nothing to move".into();
        };
        let kind = self.rules().catalogue().kind(piece.kind).name.clone();
        let there = dims.square_name(to);
        if let Some(p) = pos.piece_at(to)
            && p.side == piece.side
            && to != from
        {
            let own = &self.rules().catalogue().kind(p.kind).name;
            return format!("your own {own} stands on {there}.");
        }
        // On an empty board, could it get there at all?
        let mut alone = self.rules().empty_position();
        self.rules().put(&mut alone, from, Some(piece));
        let reachable = self
            .rules()
            .moves_from(&alone, from)
            .iter()
            .any(|m| m.to == to);
        if reachable {
            format!("the {kind} cannot reach {there} from here: the way is blocked.")
        } else {
            format!(
                "the {kind} does not move that way ({there}); its moves are marked on the board."
            )
        }
    }

    /// Plays one of `moves` (which differ only in promotion), asking when both exist.
    fn finish(&mut self, moves: Vec<Move>) {
        let yes = moves.iter().find(|m| m.promotes()).copied();
        let no = moves.iter().find(|m| !m.promotes()).copied();
        match (yes, no) {
            (Some(yes), Some(no)) => {
                self.mode = Mode::Promote { yes, no };
                self.say("Promote? y / n (Esc to choose again).");
            }
            (Some(m), None) | (None, Some(m)) => self.play(m),
            (None, None) => {}
        }
    }

    /// Plays a move for the side to move and records it.
    pub fn play(&mut self, m: Move) {
        let mover = self.pos().to_move();
        let text = match self.history.play(&m) {
            Ok(p) => p.text.clone(),
            Err(e) => {
                self.warn(e.to_string());
                return;
            }
        };
        let n = self.history.point();
        self.selection = None;
        self.cursor = self.dims().xy(m.to);
        if self.view.follow {
            self.face_side_to_move();
        }
        self.scroll_to_cursor();
        self.refresh_overlay();
        match self.outcome() {
            Some(o) => self.say(format!(
                "{n}. {text}. Game over: {} wins ({}). The board stays browsable; {} undoes.",
                capital(o.winner.name()),
                o.reason.describe(),
                self.keymap.keys_of(Action::Undo)
            )),
            None => self.say(format!(
                "{n}. {} {text}. {} to move.",
                capital(mover.name()),
                capital(self.pos().to_move().name())
            )),
        }
        self.persist();
    }

    fn cancel(&mut self) {
        let Some(mut sel) = self.selection.take() else {
            self.inspect = None;
            self.say("Nothing to cancel.");
            return;
        };
        if sel.legs.pop().is_some() {
            self.selection = Some(sel);
            self.say("One leg taken back.");
        } else {
            self.say("Selection cleared.");
        }
        self.refresh_overlay();
    }

    fn undo(&mut self) {
        self.selection = None;
        match self.history.undo() {
            None => {
                self.warn("Nothing to undo.");
                return;
            }
            Some(Undone::Resignation(_)) => self.say("Resignation taken back."),
            Some(Undone::Move(p)) => {
                self.cursor = self.dims().xy(p.mv.from);
                if self.view.follow {
                    self.face_side_to_move();
                }
                self.scroll_to_cursor();
                self.say(format!(
                    "Undid {}. {} to move.",
                    p.text,
                    capital(self.pos().to_move().name())
                ));
            }
        }
        self.refresh_overlay();
        self.persist();
    }

    fn redo(&mut self) {
        match self.history.line().get(self.history.point()) {
            Some(p) => self.play(p.mv),
            None => self.warn("Nothing to redo."),
        }
    }

    fn resign(&mut self) {
        let Some(side) = self.history.resign() else {
            self.warn("The game is already over.");
            return;
        };
        self.selection = None;
        self.refresh_overlay();
        self.say(format!(
            "{} resigns: {} wins. The board stays browsable; {} takes the resignation back.",
            capital(side.name()),
            capital(side.opponent().name()),
            self.keymap.keys_of(Action::Undo)
        ));
        self.persist();
    }

    /// The piece shown in the side panel: under the cursor, else the last one found.
    pub fn shown_piece(&self) -> Option<(KindId, Option<Piece>)> {
        match self.pos().piece_at(self.cursor_square()) {
            Some(p) => Some((p.kind, Some(p))),
            None => self.inspect.map(|k| (k, None)),
        }
    }
}

/// `~/x` as a path in the home directory.
fn expand_home(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(text),
    }
}

pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

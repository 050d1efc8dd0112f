//! The terminal game. The terminal is always given back as it was: on quit, on error, on
//! panic and on Ctrl-C (raw mode, the alternate screen and mouse capture are all undone).

//! The game is made of components (the [`board`], the side [`panels`], the [`status`] line,
//! the [`dialogs`], the [`replay`]), each a [`component::Component`] that takes messages and
//! draws as ratatui widgets, around one [`app::App`] that offers them every [`msg::Msg`] and
//! handles what none takes; the [`view`] lays the screen out. Their text helpers are in
//! [`text`]; the game itself and its files are the [`session`]. The event loop feeds the app
//! from one channel: an input thread posts the terminal's keys and mouse there, and background
//! work (the replay's timer) posts its own messages.

pub mod app;
pub mod board;
pub mod component;
pub mod dialogs;
pub mod error;
pub mod keys;
pub mod msg;
pub mod panels;
pub mod players;
pub mod preview;
pub mod replay;
pub mod selection;
pub mod session;
pub mod status;
pub mod text;
pub mod theme;
pub mod view;

use app::App;
use error::TuiError;
use keys::Keymap;
use msg::Msg;
use players::Player;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    KeyCode, KeyModifiers,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::io::{self, Stdout};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;
use taikyoku_core::geometry::Side;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_protocol::host::{self, EngineLog};
use taikyoku_records::record::{Record, Replay};
use taikyoku_records::store;
use taikyoku_records::timecontrol::TimeControl;
use theme::Theme;

/// The user's config directory (`keys.toml`, `config.toml`); `TAIKYOKU_CONFIG_DIR`
/// overrides it.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TAIKYOKU_CONFIG_DIR") {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "taikyoku").map(|d| d.config_dir().to_path_buf())
}

/// What `config.toml` sets besides the theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `confirm_own_captures = false`: play a move removing one's own pieces without asking.
    pub confirm_own_captures: bool,
}

/// Reads `keys.toml`, and the theme and settings from `config.toml` (`theme =
/// "high-contrast"`, `confirm_own_captures = false`), if present.
pub fn load_config(theme_flag: Option<&str>) -> Result<(Keymap, Theme, Settings), TuiError> {
    let dir = config_dir();
    let read = |name: &str| dir.as_ref().map(|d| d.join(name)).filter(|p| p.exists());
    // Only a regular file of a sane size: a FIFO would block the game's start.
    let file = |p: &PathBuf| p.display().to_string();
    let text = |p: &PathBuf| {
        let bytes = taikyoku_core::files::read_file(p).map_err(|source| TuiError::Read {
            file: file(p),
            source,
        })?;
        String::from_utf8(bytes).map_err(|e| TuiError::Read {
            file: file(p),
            source: io::Error::new(io::ErrorKind::InvalidData, e),
        })
    };
    let keymap = match read("keys.toml") {
        Some(p) => Keymap::from_toml(&text(&p)?).map_err(|source| TuiError::Keys {
            file: file(&p),
            source,
        })?,
        None => Keymap::default(),
    };
    let mut theme_name = theme_flag.map(str::to_string);
    let mut settings = Settings {
        confirm_own_captures: true,
    };
    if let Some(p) = read("config.toml") {
        let v: toml::Table = toml::from_str(&text(&p)?).map_err(|source| TuiError::Config {
            file: file(&p),
            source,
        })?;
        if theme_name.is_none() {
            theme_name = v.get("theme").and_then(|t| t.as_str()).map(str::to_string);
        }
        if let Some(c) = v.get("confirm_own_captures") {
            settings.confirm_own_captures = c
                .as_bool()
                .ok_or_else(|| TuiError::ConfirmOwnCaptures { file: file(&p) })?;
        }
    }
    let theme = match theme_name {
        None => Theme::default_theme(),
        Some(n) => Theme::by_name(&n).ok_or_else(|| TuiError::UnknownTheme {
            name: n.clone(),
            known: Theme::NAMES.join(", "),
        })?,
    };
    Ok((keymap, theme, settings))
}

/// Whether the terminal is in the game's mode (so that it is given back exactly once: leaving
/// the alternate screen twice would move the cursor back over what was printed since).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Undoes everything `TerminalGuard::new` did, once.
fn restore_terminal() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(
            io::stdout(),
            DisableMouseCapture,
            DisableBracketedPaste,
            LeaveAlternateScreen,
            ratatui::crossterm::cursor::Show
        );
    }
}

/// Raw mode, alternate screen and mouse capture for as long as it lives.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl TerminalGuard {
    fn new() -> io::Result<TerminalGuard> {
        // A panic anywhere restores the terminal before the message is printed.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            hook(info);
        }));
        ACTIVE.store(true, Ordering::SeqCst);
        enable_raw_mode().inspect_err(|_| restore_terminal())?;
        let mut out = io::stdout();
        if let Err(e) = execute!(
            out,
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste
        ) {
            restore_terminal();
            return Err(e);
        }
        let terminal =
            Terminal::new(CrosstermBackend::new(out)).inspect_err(|_| restore_terminal())?;
        Ok(TerminalGuard { terminal })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// How to open the terminal game.
#[derive(Debug, Default)]
pub struct PlayOptions {
    pub ascii: bool,
    pub theme: Option<String>,
    /// A recorded game to continue or replay.
    pub game: Option<(Record, Replay)>,
    /// Replay `game` read-only.
    pub read_only: bool,
    /// Offer to resume the last unfinished autosaved game (a plain new game was asked for).
    pub offer_resume: bool,
    /// Who plays Black and White, where the command line says (else a person, or who
    /// played the record).
    pub players: [Option<Player>; 2],
    /// The clocks' time control (`--time`).
    pub time: Option<TimeControl>,
}

/// Plays (or replays) a game in the terminal until the player quits.
pub fn run(rules: Rules, start: Position, options: PlayOptions) -> Result<(), TuiError> {
    let (keymap, theme, settings) = load_config(options.theme.as_deref())?;
    let mut app = match options.game {
        Some((record, replay)) => App::from_record(
            record,
            replay,
            keymap,
            theme,
            options.ascii,
            options.read_only,
        ),
        None => App::new(rules, start, keymap, theme, options.ascii),
    };
    app.players_given = options.players.iter().any(Option::is_some);
    if app.players_given {
        let sides = [0, 1].map(|i| {
            options.players[i]
                .clone()
                .unwrap_or_else(|| app.players.sides[i].clone())
        });
        app.set_players(sides);
    }
    app.init_clocks(options.time);
    start_engines(&mut app)?;
    app.session.files.autosave_dir = store::autosave_dir();
    app.session.files.games_dir = store::games_dir();
    app.session.adopt_autosave();
    app.confirm_own_captures = settings.confirm_own_captures;
    if options.offer_resume
        && let Some(found) = session::latest_unfinished(&[
            app.session.files.autosave_dir.clone(),
            app.session.files.games_dir.clone(),
        ])
        && !found.1.moves().is_empty()
        && app.rules().game.is_called(&found.1.game)
        // Players asked for on the command line are for a game of theirs (`o` lists others).
        && (!app.players_given || app.plays_as_recorded(&found.1))
    {
        app.offer_resume(found);
    }
    let mut guard = TerminalGuard::new().map_err(TuiError::Open)?;
    if let Ok(size) = guard.terminal.size() {
        app.zoom_to_fit(ratatui::layout::Rect::new(0, 0, size.width, size.height));
    }
    let (tx, rx) = mpsc::channel();
    app.tx = Some(tx.clone());
    quit_on_signals(tx.clone());
    // The computer may be the first to move.
    app.update(Msg::Resize);
    let input = Input::start(tx);
    let result = event_loop(&mut guard.terminal, &mut app, &rx);
    input.stop();
    drop(guard);
    result.map_err(TuiError::Terminal)
}

/// Starts the engines the players name, before the terminal is taken (an engine that does
/// not start is reported as the game's error); their conversation goes to `engines.log` in
/// the data directory.
fn start_engines(app: &mut App) -> Result<(), TuiError> {
    let log = store::data_dir()
        .and_then(|d| {
            std::fs::create_dir_all(&d).ok()?;
            EngineLog::file(&d.join("engines.log")).ok()
        })
        .unwrap_or_else(EngineLog::discard);
    for side in Side::BOTH {
        let Player::Engine(cmd) = app.players.of(side).clone() else {
            continue;
        };
        let e = players::external::Engine::spawn(&cmd, side, log.tagged(side.name()));
        let e = e.map_err(|source| TuiError::Engine {
            command: cmd.clone(),
            source: Box::new(source),
        })?;
        app.add_engine(e);
    }
    Ok(())
}

/// SIGTERM, SIGHUP (the terminal closed) and a SIGINT sent by `kill` kill the engines at once
/// (their process groups do not get the signal) and end the game as `q` does, the terminal
/// given back; what an engine killed so posts is not taken for a forfeit.
fn quit_on_signals(tx: Sender<Msg>) {
    host::interrupt_on_signals();
    std::thread::spawn(move || {
        while !host::interrupted() {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = tx.send(Msg::Quit);
    });
}

/// The thread that reads the terminal and posts its events as messages.
struct Input {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl Input {
    fn start(tx: Sender<Msg>) -> Input {
        let stop = Arc::new(AtomicBool::new(false));
        let done = stop.clone();
        let thread = std::thread::spawn(move || {
            // Polled, not blocked on, so that the thread ends when the game does.
            while !done.load(Ordering::Relaxed) {
                let msg = match event::poll(Duration::from_millis(50)) {
                    Ok(false) => continue,
                    Ok(true) => event::read().map(Msg::from),
                    Err(e) => Err(e),
                };
                let failed = msg.is_err();
                let msg = msg.unwrap_or_else(|e| Msg::InputFailed(e.to_string()));
                if tx.send(msg).is_err() || failed {
                    break;
                }
            }
        });
        Input { stop, thread }
    }

    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    rx: &Receiver<Msg>,
) -> io::Result<()> {
    let mut flood = Flood::default();
    while !app.quit {
        if app.clock_running() {
            app.update(Msg::Tick);
        }
        let size = terminal.size()?;
        let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
        app.layout(area);
        terminal.draw(|f| f.render_widget(&*app, f.area()))?;
        // For the end-to-end test that proves a panic gives the terminal back.
        if std::env::var_os("TAIKYOKU_TEST_PANIC").is_some() {
            panic!("TAIKYOKU_TEST_PANIC is set");
        }
        // Wait for a message, then take every one already there before drawing again; while
        // the computer thinks or a clock runs, the screen is drawn again now and then.
        let tick = (app.players.thinking().is_some() || app.clock_running()).then_some(TICK);
        let first = match flood.wait(rx, tick) {
            Ok(msg) => msg,
            Err(RecvTimeoutError::Timeout) => {
                if flood.dropped > 0 {
                    app.update(flood.end());
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let mut taken = 0;
        let mut next = Some(first);
        while let Some(msg) = next.take() {
            if let Msg::InputFailed(e) = msg {
                return Err(io::Error::other(e));
            }
            if !flood.drops(&msg, &mut taken) {
                app.update(msg);
            }
            next = if app.quit { None } else { rx.try_recv().ok() };
        }
    }
    Ok(())
}

/// How often the screen is drawn while the computer thinks.
const TICK: Duration = Duration::from_millis(250);

/// Keys that come faster than anyone types: a paste into a terminal without bracketed paste.
/// Past [`Flood::BURST`] keys between two frames, keys are dropped (all but Ctrl-C) until the
/// input has been quiet for a moment, so that a pasted page neither freezes the game for
/// seconds nor plays as keys, and a Ctrl-C after it acts at once.
#[derive(Default)]
struct Flood {
    dropped: usize,
}

impl Flood {
    const BURST: usize = 64;
    const QUIET: Duration = Duration::from_millis(150);

    /// The next message; during a flood, only until the input has been quiet a moment, and
    /// with a `tick`, only that long.
    fn wait(&self, rx: &Receiver<Msg>, tick: Option<Duration>) -> Result<Msg, RecvTimeoutError> {
        match (self.dropped > 0, tick) {
            (true, _) => rx.recv_timeout(Self::QUIET),
            (false, Some(t)) => rx.recv_timeout(t),
            (false, None) => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    }

    /// Whether to drop `msg`; `taken` counts the keys of this frame.
    fn drops(&mut self, msg: &Msg, taken: &mut usize) -> bool {
        let Msg::Key(k) = msg else { return false };
        if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
            return false;
        }
        *taken += 1;
        if *taken > Self::BURST || self.dropped > 0 {
            self.dropped += 1;
        }
        self.dropped > 0
    }

    /// The flood is over: what to tell the player.
    fn end(&mut self) -> Msg {
        let n = std::mem::take(&mut self.dropped);
        Msg::Warn(format!(
            "Ignored {n} keys that came all at once (a paste?); paste into a prompt instead."
        ))
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_ko;
#[cfg(test)]
mod tests_newcomer;
#[cfg(test)]
mod tests_players;

//! The terminal game. The terminal is always given back as it was: on quit, on error, on
//! panic and on Ctrl-C (raw mode, the alternate screen and mouse capture are all undone).

pub mod app;
pub mod error;
pub mod keys;
pub mod theme;
pub mod view;

use crate::cli::PlayOptions;
use app::App;
use error::TuiError;
use keys::Keymap;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::io::{self, Stdout};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use taikyoku::position::Position;
use taikyoku::rules::Rules;
use taikyoku::store;
use theme::Theme;

/// The user's config directory (`keys.toml`, `config.toml`); `TAIKYOKU_CONFIG_DIR`
/// overrides it.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TAIKYOKU_CONFIG_DIR") {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "taikyoku").map(|d| d.config_dir().to_path_buf())
}

/// Reads `keys.toml` and the theme from `config.toml` (`theme = "high-contrast"`), if present.
pub fn load_config(theme_flag: Option<&str>) -> Result<(Keymap, Theme), TuiError> {
    let dir = config_dir();
    let read = |name: &str| dir.as_ref().map(|d| d.join(name)).filter(|p| p.is_file());
    let text = |p: &PathBuf| {
        std::fs::read_to_string(p).map_err(|source| TuiError::Read {
            file: p.display().to_string(),
            source,
        })
    };
    let bad = |p: &PathBuf, message: String| TuiError::Settings {
        file: p.display().to_string(),
        message,
    };
    let keymap = match read("keys.toml") {
        Some(p) => Keymap::from_toml(&text(&p)?).map_err(|e| bad(&p, e))?,
        None => Keymap::default(),
    };
    let mut theme_name = theme_flag.map(str::to_string);
    if theme_name.is_none()
        && let Some(p) = read("config.toml")
    {
        let v: toml::Table = toml::from_str(&text(&p)?).map_err(|e| bad(&p, e.to_string()))?;
        theme_name = v.get("theme").and_then(|t| t.as_str()).map(str::to_string);
    }
    let theme = match theme_name {
        None => Theme::default_theme(),
        Some(n) => Theme::by_name(&n).ok_or_else(|| TuiError::UnknownTheme {
            name: n.clone(),
            known: Theme::NAMES.join(", "),
        })?,
    };
    Ok((keymap, theme))
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
        if let Err(e) = execute!(out, EnterAlternateScreen, EnableMouseCapture) {
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

/// Plays (or replays) a game in the terminal until the player quits.
pub fn run(rules: Rules, start: Position, options: PlayOptions) -> Result<(), TuiError> {
    let (keymap, theme) = load_config(options.theme.as_deref())?;
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
    app.files.autosave_dir = store::autosave_dir();
    if options.offer_resume
        && let Some(dir) = &app.files.autosave_dir
        && let Ok(Some(found)) = store::latest_unfinished(dir)
        && !found.1.moves().is_empty()
        && app.rules().game.is_called(&found.1.game)
    {
        app.offer_resume(found);
    }
    let mut guard = TerminalGuard::new().map_err(TuiError::Open)?;
    let result = event_loop(&mut guard.terminal, &mut app);
    drop(guard);
    result.map_err(TuiError::Terminal)
}

fn event_loop(terminal: &mut Terminal<CrosstermBackend<Stdout>>, app: &mut App) -> io::Result<()> {
    while !app.quit {
        let size = terminal.size()?;
        let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
        app.set_geometry(view::geometry(app, area));
        terminal.draw(|f| view::draw(app, f.area(), f.buffer_mut()))?;
        // While a replay plays itself, a key is waited for only until the next move is due.
        if let Some(wait) = app.tick_interval()
            && !event::poll(wait)?
        {
            app.tick();
            continue;
        }
        // For the end-to-end test that proves a panic gives the terminal back.
        if std::env::var_os("TAIKYOKU_TEST_PANIC").is_some() {
            panic!("TAIKYOKU_TEST_PANIC is set");
        }
        match event::read()? {
            Event::Key(k) => app.on_key(k),
            Event::Mouse(m) => app.on_mouse(m),
            // A resize redraws on the next turn of the loop with the new size.
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

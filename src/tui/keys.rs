//! Actions, their default keys, and rebinding from `keys.toml` in the user's config directory.
//! The help overlay and the hint line are generated from the keymap, so they never lie.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeMap;

/// Why a `keys.toml` (or a key in it) is not understood.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error(
        "unknown key {0:?}: expected a character, Space, F1-F12, or one of {names}, optionally after Ctrl+, Shift+ or Alt+",
        names = NAMED.map(|(n, _)| n).join(", ")
    )]
    UnknownKey(String),
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    #[error(
        "unknown action {0:?}; the actions are: {names}",
        names = Action::ALL.map(|a| a.name()).join(", ")
    )]
    UnknownAction(String),
    /// An action's list of keys holds something other than strings.
    #[error("{0}: keys must be strings")]
    NotStrings(String),
    #[error("{0}: expected a key or a list of keys")]
    NotKeys(String),
}

/// Everything a key can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    Left,
    Right,
    Up,
    Down,
    FarLeft,
    FarRight,
    FarUp,
    FarDown,
    Select,
    Cancel,
    Undo,
    Redo,
    ZoomIn,
    ZoomOut,
    Flip,
    Follow,
    Find,
    Goto,
    Ascii,
    Theme,
    Help,
    Resign,
    Save,
    Quit,
    ReplayPrev,
    ReplayNext,
    ReplayStart,
    ReplayEnd,
    ReplayGoto,
    Autoplay,
    Faster,
    Slower,
    Branch,
    PanelWidth,
    PanelNext,
    CardUp,
    CardDown,
    PageUp,
    PageDown,
    LastMove,
    OwnRoyal,
    SaveAs,
    Recent,
    MoveNow,
    Hint,
}

impl Action {
    pub const ALL: [Action; 45] = [
        Action::Left,
        Action::Right,
        Action::Up,
        Action::Down,
        Action::FarLeft,
        Action::FarRight,
        Action::FarUp,
        Action::FarDown,
        Action::Select,
        Action::Cancel,
        Action::Undo,
        Action::Redo,
        Action::ZoomIn,
        Action::ZoomOut,
        Action::Flip,
        Action::Follow,
        Action::Find,
        Action::Goto,
        Action::Ascii,
        Action::Theme,
        Action::Help,
        Action::Resign,
        Action::Save,
        Action::Quit,
        Action::ReplayPrev,
        Action::ReplayNext,
        Action::ReplayStart,
        Action::ReplayEnd,
        Action::ReplayGoto,
        Action::Autoplay,
        Action::Faster,
        Action::Slower,
        Action::Branch,
        Action::PanelWidth,
        Action::PanelNext,
        Action::CardUp,
        Action::CardDown,
        Action::PageUp,
        Action::PageDown,
        Action::LastMove,
        Action::OwnRoyal,
        Action::SaveAs,
        Action::Recent,
        Action::MoveNow,
        Action::Hint,
    ];

    /// The name used in `keys.toml`.
    pub fn name(self) -> &'static str {
        match self {
            Action::Left => "left",
            Action::Right => "right",
            Action::Up => "up",
            Action::Down => "down",
            Action::FarLeft => "far_left",
            Action::FarRight => "far_right",
            Action::FarUp => "far_up",
            Action::FarDown => "far_down",
            Action::Select => "select",
            Action::Cancel => "cancel",
            Action::Undo => "undo",
            Action::Redo => "redo",
            Action::ZoomIn => "zoom_in",
            Action::ZoomOut => "zoom_out",
            Action::Flip => "flip",
            Action::Follow => "follow",
            Action::Find => "find",
            Action::Goto => "goto",
            Action::Ascii => "ascii",
            Action::Theme => "theme",
            Action::Help => "help",
            Action::Resign => "resign",
            Action::Save => "save",
            Action::Quit => "quit",
            Action::ReplayPrev => "replay_previous",
            Action::ReplayNext => "replay_next",
            Action::ReplayStart => "replay_start",
            Action::ReplayEnd => "replay_end",
            Action::ReplayGoto => "replay_goto",
            Action::Autoplay => "autoplay",
            Action::Faster => "faster",
            Action::Slower => "slower",
            Action::Branch => "branch",
            Action::PanelWidth => "panel_width",
            Action::PanelNext => "panel_next",
            Action::CardUp => "card_up",
            Action::CardDown => "card_down",
            Action::PageUp => "page_up",
            Action::PageDown => "page_down",
            Action::LastMove => "last_move",
            Action::OwnRoyal => "own_royal",
            Action::SaveAs => "save_as",
            Action::Recent => "recent",
            Action::MoveNow => "move_now",
            Action::Hint => "hint",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Action::Left => "cursor left",
            Action::Right => "cursor right",
            Action::Up => "cursor up",
            Action::Down => "cursor down",
            Action::FarLeft => "cursor 5 squares left",
            Action::FarRight => "cursor 5 squares right",
            Action::FarUp => "cursor 5 squares up",
            Action::FarDown => "cursor 5 squares down",
            Action::Select => "select a piece / choose a square / confirm",
            Action::Cancel => "cancel (takes back one leg of a multi-leg move)",
            Action::Undo => "undo a move",
            Action::Redo => "redo a move",
            Action::ZoomIn => "wider squares",
            Action::ZoomOut => "narrower squares",
            Action::Flip => "turn the board round",
            Action::Follow => "turn the board to the side to move after each move",
            Action::Find => "find a piece by name, code, kanji or board label",
            Action::Goto => "go to a square (file.rank)",
            Action::Ascii => "kanji / ASCII codes",
            Action::Theme => "next colour theme",
            Action::Help => "this help",
            Action::Resign => "resign",
            Action::Save => "save the game",
            Action::Quit => "quit",
            Action::ReplayPrev => "replay: one move back",
            Action::ReplayNext => "replay: one move on",
            Action::ReplayStart => "replay: to the start",
            Action::ReplayEnd => "replay: to the end",
            Action::ReplayGoto => "replay: to move N",
            Action::Autoplay => "replay: play the moves one by one, or stop",
            Action::Faster => "replay: faster",
            Action::Slower => "replay: slower",
            Action::Branch => "replay: play on from here as a new game",
            Action::PanelWidth => "side panel: narrow, hidden, or as wide as there is room",
            Action::PanelNext => "side panel: bring the card, minimap or move list to the front",
            Action::CardUp => "scroll the piece card up",
            Action::CardDown => "scroll the piece card down",
            Action::PageUp => "cursor a screen up",
            Action::PageDown => "cursor a screen down",
            Action::LastMove => "cursor to the last move",
            Action::OwnRoyal => "cursor to your king (or other royal piece)",
            Action::SaveAs => "save the game under a new name",
            Action::Recent => "recent and unfinished games: open one",
            Action::MoveNow => "the computer thinking: play its best move now",
            Action::Hint => "hint: the computer's suggestion for your move",
        }
    }

    fn defaults(self) -> &'static [&'static str] {
        match self {
            Action::Left => &["Left", "h"],
            Action::Right => &["Right", "l"],
            Action::Up => &["Up", "k"],
            Action::Down => &["Down", "j"],
            Action::FarLeft => &["Shift+Left", "H"],
            Action::FarRight => &["Shift+Right", "L"],
            Action::FarUp => &["Shift+Up", "K"],
            Action::FarDown => &["Shift+Down", "J"],
            Action::Select => &["Enter", "Space"],
            Action::Cancel => &["Esc"],
            Action::Undo => &["u"],
            Action::Redo => &["Ctrl+r"],
            Action::ZoomIn => &["+", "="],
            Action::ZoomOut => &["-"],
            Action::Flip => &["f"],
            Action::Follow => &["F"],
            Action::Find => &["/"],
            Action::Goto => &["g"],
            Action::Ascii => &["a"],
            Action::Theme => &["t"],
            Action::Help => &["?"],
            Action::Resign => &["R"],
            Action::Save => &["s"],
            Action::Quit => &["q"],
            Action::ReplayPrev => &[",", "p"],
            Action::ReplayNext => &[".", "n"],
            Action::ReplayStart => &["Home"],
            Action::ReplayEnd => &["End"],
            Action::ReplayGoto => &[":"],
            Action::Autoplay => &["P"],
            Action::Faster => &["]"],
            Action::Slower => &["["],
            Action::Branch => &["b"],
            Action::PanelWidth => &["w"],
            Action::PanelNext => &["Tab"],
            Action::CardUp => &["{"],
            Action::CardDown => &["}"],
            Action::PageUp => &["PageUp"],
            Action::PageDown => &["PageDown"],
            Action::LastMove => &["m"],
            Action::OwnRoyal => &["r"],
            Action::SaveAs => &["S"],
            Action::Recent => &["o"],
            Action::MoveNow => &["M"],
            Action::Hint => &["i"],
        }
    }
}

/// A key with its modifiers, as written in `keys.toml`: `"Left"`, `"Shift+Up"`, `"Ctrl+r"`,
/// `"?"`, `"Enter"`, `"Space"`, `"F1"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    code: KeyCodeOrd,
    ctrl: bool,
    shift: bool,
    alt: bool,
}

/// `KeyCode` made orderable for maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum KeyCodeOrd {
    Char(char),
    Named(u8),
    F(u8),
}

const NAMED: [(&str, KeyCode); 13] = [
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Enter", KeyCode::Enter),
    ("Esc", KeyCode::Esc),
    ("Tab", KeyCode::Tab),
    ("Backspace", KeyCode::Backspace),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("Delete", KeyCode::Delete),
];

impl Key {
    pub fn parse(s: &str) -> Result<Key, KeyError> {
        let mut key = Key {
            code: KeyCodeOrd::Char(' '),
            ctrl: false,
            shift: false,
            alt: false,
        };
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl+") && rest.len() > 5 {
                key.ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("shift+") && rest.len() > 6 {
                key.shift = true;
                rest = &rest[6..];
            } else if lower.starts_with("alt+") && rest.len() > 4 {
                key.alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        key.code = if rest.eq_ignore_ascii_case("space") {
            KeyCodeOrd::Char(' ')
        } else if let Some(i) = NAMED.iter().position(|(n, _)| n.eq_ignore_ascii_case(rest)) {
            KeyCodeOrd::Named(i as u8)
        } else if let Some(n) = rest
            .strip_prefix(['F', 'f'])
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|n| (1..=12).contains(n))
        {
            KeyCodeOrd::F(n)
        } else if rest.chars().count() == 1 {
            let c = rest.chars().next().unwrap_or(' ');
            // Ctrl+letter is case-blind; a capital letter is its own key.
            KeyCodeOrd::Char(if key.ctrl { c.to_ascii_lowercase() } else { c })
        } else {
            return Err(KeyError::UnknownKey(s.to_string()));
        };
        Ok(key)
    }

    /// The key of a terminal event. Shift on a character is part of the character.
    pub fn from_event(e: &KeyEvent) -> Key {
        let m = e.modifiers;
        let (code, shift) = match e.code {
            KeyCode::Char(c) => (
                KeyCodeOrd::Char(if m.contains(KeyModifiers::CONTROL) {
                    c.to_ascii_lowercase()
                } else {
                    c
                }),
                false,
            ),
            KeyCode::F(n) => (KeyCodeOrd::F(n), m.contains(KeyModifiers::SHIFT)),
            other => match NAMED.iter().position(|(_, k)| *k == other) {
                Some(i) => (KeyCodeOrd::Named(i as u8), m.contains(KeyModifiers::SHIFT)),
                None => (KeyCodeOrd::Char('\0'), false),
            },
        };
        Key {
            code,
            ctrl: m.contains(KeyModifiers::CONTROL),
            shift,
            alt: m.contains(KeyModifiers::ALT),
        }
    }

    /// How the key is written (also for help).
    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.ctrl {
            s.push_str("Ctrl+");
        }
        if self.alt {
            s.push_str("Alt+");
        }
        if self.shift {
            s.push_str("Shift+");
        }
        match self.code {
            KeyCodeOrd::Char(' ') => s.push_str("Space"),
            KeyCodeOrd::Char(c) => s.push(c),
            KeyCodeOrd::Named(i) => s.push_str(NAMED[i as usize].0),
            KeyCodeOrd::F(n) => s.push_str(&format!("F{n}")),
        }
        s
    }
}

/// Which keys do what.
#[derive(Clone, Debug)]
pub struct Keymap {
    bindings: BTreeMap<Key, Action>,
    keys: BTreeMap<Action, Vec<Key>>,
}

impl Default for Keymap {
    fn default() -> Self {
        let mut map = Keymap {
            bindings: BTreeMap::new(),
            keys: BTreeMap::new(),
        };
        for a in Action::ALL {
            let keys: Vec<Key> = a
                .defaults()
                .iter()
                .map(|k| Key::parse(k).expect("default keys parse"))
                .collect();
            map.set(a, keys);
        }
        map
    }
}

impl Keymap {
    fn set(&mut self, action: Action, keys: Vec<Key>) {
        if let Some(old) = self.keys.remove(&action) {
            for k in old {
                self.bindings.remove(&k);
            }
        }
        for k in &keys {
            // A key moved to this action stops doing what it did.
            if let Some(prev) = self.bindings.insert(*k, action)
                && let Some(v) = self.keys.get_mut(&prev)
            {
                v.retain(|x| x != k);
            }
        }
        self.keys.insert(action, keys);
    }

    /// The defaults, with the actions named in `text` (a `keys.toml`) rebound.
    pub fn from_toml(text: &str) -> Result<Keymap, KeyError> {
        let table: BTreeMap<String, toml::Value> = toml::from_str(text)?;
        let mut map = Keymap::default();
        for (name, value) in table {
            let Some(action) = Action::ALL.iter().copied().find(|a| a.name() == name) else {
                return Err(KeyError::UnknownAction(name));
            };
            let list: Vec<String> = match value {
                toml::Value::String(s) => vec![s],
                toml::Value::Array(a) => a
                    .into_iter()
                    .map(|v| {
                        v.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| KeyError::NotStrings(name.clone()))
                    })
                    .collect::<Result<_, _>>()?,
                _ => return Err(KeyError::NotKeys(name)),
            };
            let keys = list
                .iter()
                .map(|k| Key::parse(k))
                .collect::<Result<Vec<_>, _>>()?;
            map.set(action, keys);
        }
        Ok(map)
    }

    pub fn action(&self, e: &KeyEvent) -> Option<Action> {
        self.bindings.get(&Key::from_event(e)).copied()
    }

    /// The keys of an action, as written ("←/h").
    pub fn keys_of(&self, a: Action) -> String {
        let keys = self.keys.get(&a).map(Vec::as_slice).unwrap_or(&[]);
        if keys.is_empty() {
            return "(unbound)".into();
        }
        keys.iter()
            .map(|k| pretty(&k.label()))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The first key bound to `a` (for a line that must stay short).
    pub fn key_of(&self, a: Action) -> String {
        match self.keys.get(&a).and_then(|k| k.first()) {
            Some(k) => pretty(&k.label()),
            None => "(unbound)".into(),
        }
    }
}

fn pretty(label: &str) -> String {
    match label {
        "Left" => "←".into(),
        "Right" => "→".into(),
        "Up" => "↑".into(),
        "Down" => "↓".into(),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventKind;

    fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent {
            code,
            modifiers: m,
            kind: KeyEventKind::Press,
            state: ratatui::crossterm::event::KeyEventState::NONE,
        }
    }

    #[test]
    fn defaults_cover_the_documented_keys() {
        let k = Keymap::default();
        assert_eq!(
            k.action(&ev(KeyCode::Char('h'), KeyModifiers::NONE)),
            Some(Action::Left)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Left, KeyModifiers::SHIFT)),
            Some(Action::FarLeft)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('H'), KeyModifiers::SHIFT)),
            Some(Action::FarLeft)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('r'), KeyModifiers::CONTROL)),
            Some(Action::Redo)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Enter, KeyModifiers::NONE)),
            Some(Action::Select)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char(' '), KeyModifiers::NONE)),
            Some(Action::Select)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('?'), KeyModifiers::SHIFT)),
            Some(Action::Help)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('+'), KeyModifiers::SHIFT)),
            Some(Action::ZoomIn)
        );
        assert_eq!(k.action(&ev(KeyCode::Char('x'), KeyModifiers::NONE)), None);
        assert_eq!(k.keys_of(Action::Left), "←/h");
        // Every action has a key.
        for a in Action::ALL {
            assert_ne!(k.keys_of(a), "(unbound)", "{a:?}");
        }
    }

    #[test]
    fn rebinding_from_toml() {
        let k =
            Keymap::from_toml("undo = \"z\"\nquit = [\"Ctrl+q\", \"x\"]\nleft = \"a\"\n").unwrap();
        assert_eq!(
            k.action(&ev(KeyCode::Char('z'), KeyModifiers::NONE)),
            Some(Action::Undo)
        );
        assert_eq!(k.action(&ev(KeyCode::Char('u'), KeyModifiers::NONE)), None);
        assert_eq!(
            k.action(&ev(KeyCode::Char('q'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        // 'a' moved from ASCII to left: ASCII lost it.
        assert_eq!(
            k.action(&ev(KeyCode::Char('a'), KeyModifiers::NONE)),
            Some(Action::Left)
        );
        assert_eq!(k.keys_of(Action::Ascii), "(unbound)");
        assert!(
            Keymap::from_toml("jump = \"x\"")
                .unwrap_err()
                .to_string()
                .contains("unknown action")
        );
        assert!(
            Keymap::from_toml("undo = \"Hyper+x\"")
                .unwrap_err()
                .to_string()
                .contains("unknown key")
        );
        assert!(
            Keymap::from_toml("undo = 3")
                .unwrap_err()
                .to_string()
                .contains("expected a key")
        );
    }
}

//! Colour themes. Meaning never rests on colour alone: every overlay also has a glyph and
//! the sides are told apart by an orientation mark (or by case in ASCII mode). Underlining is
//! kept for promoted pieces: no theme underlines a piece for any other reason.

use ratatui::style::{Color, Modifier, Style};

#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub name: &'static str,
    pub black: Style,
    pub white: Style,
    pub empty: Style,
    pub cursor: Style,
    pub quiet: Style,
    pub capture: Style,
    pub jump: Style,
    pub igui: Style,
    pub range: Style,
    pub last_move: Style,
    pub selected: Style,
    pub label: Style,
    pub panel: Style,
    pub title: Style,
    pub status: Style,
    pub warning: Style,
    /// Minimap: a cell's foreground/background for Black's and White's pieces.
    pub mini_black: Color,
    pub mini_white: Color,
    pub mini_empty: Color,
    pub mini_view: Style,
    /// The viewport's frame on the minimap.
    pub mini_frame: Style,
}

impl Theme {
    pub const NAMES: [&'static str; 3] = ["default", "high-contrast", "colour-blind"];

    pub fn by_name(name: &str) -> Option<Theme> {
        match name {
            "default" => Some(Theme::default_theme()),
            "high-contrast" => Some(Theme::high_contrast()),
            "colour-blind" | "color-blind" => Some(Theme::colour_blind()),
            _ => None,
        }
    }

    pub fn default_theme() -> Theme {
        Theme {
            name: "default",
            black: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            white: Style::new().fg(Color::LightRed),
            empty: Style::new().fg(Color::DarkGray),
            cursor: Style::new().bg(Color::Blue).fg(Color::White),
            quiet: Style::new().fg(Color::Green),
            capture: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            jump: Style::new().fg(Color::Cyan),
            igui: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            range: Style::new().fg(Color::LightMagenta),
            last_move: Style::new().bg(Color::Rgb(60, 50, 20)),
            selected: Style::new().bg(Color::Rgb(20, 60, 60)),
            label: Style::new().fg(Color::Gray),
            panel: Style::new(),
            title: Style::new().add_modifier(Modifier::BOLD),
            status: Style::new().fg(Color::White),
            warning: Style::new().fg(Color::Yellow),
            mini_black: Color::White,
            mini_white: Color::LightRed,
            mini_empty: Color::Rgb(40, 40, 40),
            mini_view: Style::new().bg(Color::Blue),
            mini_frame: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        }
    }

    /// Black on white and bold marks: for bright rooms and low-vision use.
    pub fn high_contrast() -> Theme {
        Theme {
            name: "high-contrast",
            black: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            // Not underlined: underlined means promoted; the mark before a piece tells the side.
            white: Style::new().fg(Color::Gray).add_modifier(Modifier::ITALIC),
            empty: Style::new().fg(Color::Gray),
            cursor: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            quiet: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            capture: Style::new()
                .fg(Color::White)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            jump: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            igui: Style::new()
                .fg(Color::White)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            range: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            last_move: Style::new().bg(Color::DarkGray),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            label: Style::new().fg(Color::White),
            panel: Style::new(),
            title: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            status: Style::new().add_modifier(Modifier::BOLD),
            warning: Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            mini_black: Color::White,
            mini_white: Color::Gray,
            mini_empty: Color::Black,
            mini_view: Style::new().add_modifier(Modifier::REVERSED),
            mini_frame: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
        }
    }

    /// Blue and orange, which stay apart for every common kind of colour blindness (never
    /// red against green).
    pub fn colour_blind() -> Theme {
        let blue = Color::Rgb(0, 114, 178);
        let orange = Color::Rgb(230, 159, 0);
        let sky = Color::Rgb(86, 180, 233);
        let vermilion = Color::Rgb(213, 94, 0);
        Theme {
            name: "colour-blind",
            black: Style::new().fg(sky).add_modifier(Modifier::BOLD),
            white: Style::new().fg(orange),
            empty: Style::new().fg(Color::DarkGray),
            cursor: Style::new().bg(blue).fg(Color::White),
            quiet: Style::new().fg(sky),
            capture: Style::new().fg(vermilion).add_modifier(Modifier::BOLD),
            jump: Style::new().fg(Color::Rgb(240, 228, 66)),
            igui: Style::new()
                .fg(Color::Rgb(204, 121, 167))
                .add_modifier(Modifier::BOLD),
            range: Style::new().fg(Color::Rgb(204, 121, 167)),
            last_move: Style::new().bg(Color::Rgb(50, 50, 50)),
            selected: Style::new().bg(Color::Rgb(0, 60, 90)),
            label: Style::new().fg(Color::Gray),
            panel: Style::new(),
            title: Style::new().add_modifier(Modifier::BOLD),
            status: Style::new(),
            warning: Style::new().fg(orange),
            mini_black: sky,
            mini_white: orange,
            mini_empty: Color::Rgb(30, 30, 30),
            mini_view: Style::new().bg(blue),
            mini_frame: Style::new()
                .fg(Color::Rgb(240, 228, 66))
                .add_modifier(Modifier::BOLD),
        }
    }
}

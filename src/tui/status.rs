//! The status line (whose turn, and what the last action did or what a dialog asks) and the
//! hint line under it (the main keys, from the keymap).

use super::component::{Component, Context, Reply};
use super::dialogs::{ConfirmKind, Dialog};
use super::keys::{Action, Keymap};
use super::msg::Msg;
use super::players::{self, Players, Purpose, Thinking};
use super::text::{capital, clock_text, split_at_width};
use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use std::time::Duration;
use taikyoku_core::geometry::Side;
use taikyoku_records::history::History;
use unicode_width::UnicodeWidthStr;

/// The status line's message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub text: String,
    /// It needs attention (an error, a refusal).
    pub warning: bool,
    /// The game on screen is not all saved (the last autosave failed): a marker stays on the
    /// line, whatever message follows, until a save succeeds.
    pub unsaved: bool,
}

impl Component for Status {
    /// Takes a [`Msg::Say`] or [`Msg::Warn`]; other messages are not the status line's.
    fn handle(&mut self, msg: &Msg, _: &Context) -> Reply {
        let (text, warning) = match msg {
            Msg::Say(text) => (text, false),
            Msg::Warn(text) => (text, true),
            _ => return Reply::Pass,
        };
        self.text.clone_from(text);
        self.warning = warning;
        Reply::Done(None)
    }
}

/// The status line and, under it, the hint line: the main keys (from the keymap), what the
/// computer thinks while it thinks, or the end of a message too long for the status line.
pub struct StatusWidget<'a> {
    pub status: &'a Status,
    pub history: &'a History,
    /// Each side's time left, in a timed game.
    pub left: [Option<Duration>; 2],
    /// The open dialog: what it asks stands in the status line.
    pub dialog: Option<&'a Dialog>,
    pub keymap: &'a Keymap,
    pub players: &'a Players,
    pub replay: bool,
    pub theme: &'a Theme,
}

impl Widget for StatusWidget<'_> {
    /// Draws into two rows: the status line, then the hint line.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let line = Rect { height: 1, ..area };
        let hint = Rect {
            y: area.y + 1,
            height: 1,
            ..area
        };
        let rest = self.status_line(line, buf);
        // What the status line could not hold goes on below, in place of the key hints.
        let (text, style, x) = match (rest, self.players.thinking()) {
            (Some((text, style)), None) => (text, style, hint.x + 1),
            (_, Some(thinking)) => (
                thinking_text(self.keymap, self.players, thinking),
                self.theme.title,
                hint.x,
            ),
            (None, None) => (
                hint_text(self.keymap, self.replay),
                self.theme.label,
                hint.x,
            ),
        };
        let room = hint.right().saturating_sub(x) as usize;
        buf.set_stringn(x, hint.y, text, room, style);
    }
}

impl StatusWidget<'_> {
    /// The turn (or the result) with the clocks of a timed game (the side to move's in its
    /// box, the other's after it), then the message or what the open dialog asks, and the
    /// rule set at the right. Returns what did not fit, and its style.
    fn status_line(&self, area: Rect, buf: &mut Buffer) -> Option<(String, Style)> {
        let (h, t) = (self.history, self.theme);
        let asked = self.dialog.and_then(|d| d.status_line(h));
        let text = asked.unwrap_or_else(|| self.status.text.clone());
        let style = if self.status.warning || self.dialog.is_some_and(Dialog::urgent) {
            t.warning
        } else {
            t.status
        };
        // The offer to resume is about another game than the one behind it: no turn shown.
        let resuming = matches!(
            self.dialog,
            Some(Dialog::Confirm {
                kind: ConfirmKind::Resume,
                ..
            })
        );
        let x = match resuming {
            true => area.x + 1,
            false => self.turn(area, buf),
        };
        // The rule set shows at the right (the game too when there is room for it).
        let rules = &h.rules().rule_set.name;
        let long = format!(" {} · {rules} rules ", h.rules().game.name);
        let short = format!(" {rules} rules ");
        let room = area.right().saturating_sub(x);
        // A message too long to stand beside it takes the whole line and goes on below: the
        // rule set gives way rather than stand in the middle of the sentence.
        let fits = |r: &str| text.width() + r.width() < room as usize;
        let right = if fits(&long) {
            long
        } else if fits(&short) || text.is_empty() {
            short
        } else {
            String::new()
        };
        let w = right.width() as u16;
        let room = room.saturating_sub(w + 1);
        let (line, rest) = split_at_width(&text, room as usize);
        buf.set_stringn(x, area.y, line, room as usize, style);
        if w > 0 && x + w < area.right() {
            buf.set_string(area.right() - w, area.y, right, t.label);
        }
        rest.map(|r| (r.to_string(), style))
    }

    /// Whose turn it is (or who won), the clocks, and the unsaved mark; returns where the
    /// message starts.
    fn turn(&self, area: Rect, buf: &mut Buffer) -> u16 {
        let (h, t, left) = (self.history, self.theme, self.left);
        let to_move = h.position().to_move();
        let clock = |s: Side| left[s.index()].map_or(String::new(), |d| clock_text(d) + " ");
        let turn = match h.outcome() {
            Some(o) => format!(" {} won ", capital(o.winner.name())),
            None => format!(" {} to move {}", capital(to_move.name()), clock(to_move)),
        };
        let side_style = |s: Side| if s == Side::Black { t.black } else { t.white };
        let turn_style = side_style(to_move).add_modifier(Modifier::REVERSED);
        buf.set_string(area.x, area.y, &turn, turn_style);
        let mut x = area.x + turn.width() as u16 + 1;
        let other = to_move.opponent();
        if let Some(d) = left[other.index()].filter(|_| h.outcome().is_none()) {
            let text = format!("{} {}", capital(other.name()), clock_text(d));
            buf.set_string(x, area.y, &text, side_style(other));
            x += text.width() as u16 + 1;
        }
        if self.status.unsaved {
            let mark = " NOT SAVED ";
            buf.set_string(x, area.y, mark, t.warning.add_modifier(Modifier::REVERSED));
            x += mark.width() as u16 + 1;
        }
        x
    }
}

/// The hint line, from the keymap.
pub fn hint_text(k: &Keymap, replay: bool) -> String {
    if replay {
        return join_hints(&[
            (k.keys_of(Action::ReplayNext), "next"),
            (k.keys_of(Action::ReplayPrev), "back"),
            (
                format!(
                    "{}/{}",
                    k.keys_of(Action::ReplayStart),
                    k.keys_of(Action::ReplayEnd)
                ),
                "start/end",
            ),
            (k.keys_of(Action::ReplayGoto), "move N"),
            (k.keys_of(Action::Autoplay), "autoplay"),
            (
                format!(
                    "{}/{}",
                    k.keys_of(Action::Slower),
                    k.keys_of(Action::Faster)
                ),
                "speed",
            ),
            (k.keys_of(Action::Branch), "play on from here"),
            (k.keys_of(Action::Help), "help"),
            (k.keys_of(Action::Quit), "quit"),
        ]);
    }
    join_hints(&[
        (
            format!(
                "{}/{}/{}/{}",
                k.keys_of(Action::Left),
                k.keys_of(Action::Down),
                k.keys_of(Action::Up),
                k.keys_of(Action::Right)
            ),
            "move",
        ),
        (k.keys_of(Action::Select), "select"),
        (k.keys_of(Action::Cancel), "cancel"),
        (k.keys_of(Action::Undo), "undo"),
        (k.keys_of(Action::Hint), "hint"),
        (k.keys_of(Action::Find), "find"),
        (k.keys_of(Action::Goto), "go to"),
        (k.keys_of(Action::ZoomIn), "zoom"),
        (k.keys_of(Action::Save), "save"),
        (k.keys_of(Action::Help), "help"),
        (k.keys_of(Action::Quit), "quit"),
    ])
}

fn join_hints(hints: &[(String, &str)]) -> String {
    hints
        .iter()
        .map(|(key, what)| format!("{key} {what}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// What the hint line says while the computer thinks: who, how far it has got, the key that
/// makes it move now.
pub fn thinking_text(k: &Keymap, players: &Players, t: &Thinking) -> String {
    let now = k.keys_of(Action::MoveNow);
    let who = match t.purpose {
        Purpose::Move if players.is_engine(t.side) => format!("{} thinks", players.label(t.side)),
        Purpose::Move => format!("{} thinks ({now} moves now)", players.label(t.side)),
        Purpose::Hint => format!("A hint for {} ({now} at once)", capital(t.side.name())),
    };
    format!("{who}: {}", players::describe(t))
}

//! The dialogs that take the keys while they are open: a prompt for a line of text, a yes/no
//! question, the promotion question and the help. Each handles its own keys and draws itself
//! (on the status line, or over the board for the help).

use super::keys::{Action, Keymap};
use super::msg::Msg;
use super::theme::Theme;
use super::view::LEGEND;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};
use taikyoku::history::History;
use taikyoku::movegen::Move;
use unicode_width::UnicodeWidthStr;

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
    /// Quit although the last moves are not saved (the autosave failed): no saves them
    /// elsewhere first.
    QuitUnsaved,
    /// Replace another game's record with this game.
    Replace,
    Resign,
    /// Resume the unfinished game found among the autosaves.
    Resume,
}

/// The open dialog.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    Prompt {
        kind: PromptKind,
        text: String,
    },
    Confirm {
        kind: ConfirmKind,
        question: String,
    },
    /// The chosen move can be made with or without promotion.
    Promote {
        yes: Move,
        no: Move,
        line: String,
    },
    /// The help, scrolled this many rows.
    Help(u16),
}

/// What a key did to a dialog: it stays open or closes, and may send a message.
pub enum Reply {
    Stay(Option<Msg>),
    Close(Option<Msg>),
}

impl Dialog {
    pub fn prompt(kind: PromptKind) -> Dialog {
        Dialog::Prompt {
            kind,
            text: String::new(),
        }
    }

    /// The promotion question, naming the piece and what it becomes.
    pub fn promote(h: &History, yes: Move, no: Move) -> Dialog {
        let rules = h.rules();
        let cat = rules.catalogue();
        let name = |k: u16| format!("{} ({})", cat.kind(k).name, cat.kind(k).code);
        let line = match h.position().piece_at(yes.from) {
            Some(p) => match rules.readings[p.kind as usize].promotes_to {
                Some(to) => format!(
                    "Promote the {} to {}? y / n (Esc to choose again)",
                    name(p.kind),
                    name(to)
                ),
                None => format!("Promote the {}? y / n (Esc to choose again)", name(p.kind)),
            },
            None => "Promote? y / n (Esc to choose again)".into(),
        };
        Dialog::Promote { yes, no, line }
    }

    pub fn help() -> Dialog {
        Dialog::Help(0)
    }

    pub fn handle_key(&mut self, e: KeyEvent) -> Reply {
        match self {
            // Only the keys that say so close the help; the others scroll it or do nothing.
            Dialog::Help(top) => match e.code {
                KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q' | '?') => Reply::Close(None),
                KeyCode::Down | KeyCode::Char('j') => {
                    *top = top.saturating_add(1);
                    Reply::Stay(None)
                }
                KeyCode::Up | KeyCode::Char('k') => {
                    *top = top.saturating_sub(1);
                    Reply::Stay(None)
                }
                KeyCode::PageDown | KeyCode::Char(' ') => {
                    *top = top.saturating_add(10);
                    Reply::Stay(None)
                }
                KeyCode::PageUp => {
                    *top = top.saturating_sub(10);
                    Reply::Stay(None)
                }
                KeyCode::Home => {
                    *top = 0;
                    Reply::Stay(None)
                }
                _ => Reply::Stay(None),
            },
            Dialog::Prompt { kind, text } => match e.code {
                KeyCode::Esc => Reply::Close(Some(Msg::say("Cancelled."))),
                KeyCode::Enter => Reply::Close(Some(Msg::Submit(*kind, text.trim().to_string()))),
                KeyCode::Backspace => {
                    text.pop();
                    Reply::Stay(None)
                }
                KeyCode::Char(c) => {
                    text.push(c);
                    Reply::Stay(None)
                }
                _ => Reply::Stay(None),
            },
            Dialog::Confirm { kind, .. } => {
                let yes = matches!(e.code, KeyCode::Char('y' | 'Y'));
                Reply::Close(Some(Msg::Answer(*kind, yes)))
            }
            Dialog::Promote { yes, no, line } => match e.code {
                KeyCode::Char('y' | 'Y') => Reply::Close(Some(Msg::Play(*yes))),
                KeyCode::Char('n' | 'N') => Reply::Close(Some(Msg::Play(*no))),
                KeyCode::Esc => Reply::Close(Some(Msg::say("Cancelled: choose again."))),
                _ => {
                    if !line.ends_with(" (y for yes, n for no)") {
                        line.push_str(" (y for yes, n for no)");
                    }
                    Reply::Stay(None)
                }
            },
        }
    }

    /// What the dialog shows on the status line (the help shows nothing there).
    pub fn status_line(&self, h: &History) -> Option<String> {
        Some(match self {
            Dialog::Help(_) => return None,
            Dialog::Prompt { kind, text } => match kind {
                PromptKind::Find => format!(
                    "Find a piece (name, code or kanji): {text}_   Enter to find, Esc to cancel"
                ),
                PromptKind::Goto => {
                    format!("Go to square (file.rank): {text}_   Enter to go, Esc to cancel")
                }
                PromptKind::Save => format!("Save as: {text}_   Enter to save, Esc to cancel"),
                PromptKind::MoveNumber => format!(
                    "Go to move (0-{}): {text}_   Enter to go, Esc to cancel",
                    h.line().len()
                ),
            },
            Dialog::Confirm { question, .. } => question.clone(),
            Dialog::Promote { line, .. } => line.clone(),
        })
    }

    /// Whether the status line asks for attention (a question).
    pub fn urgent(&self) -> bool {
        matches!(self, Dialog::Confirm { .. } | Dialog::Promote { .. })
    }

    /// Draws what the dialog shows over the screen (the help).
    pub fn draw(&self, keymap: &Keymap, theme: &Theme, area: Rect, buf: &mut Buffer) {
        if let Dialog::Help(top) = self {
            draw_help(keymap, theme, *top, area, buf);
        }
    }
}

/// The help: every action with its keys, and the overlay legend.
pub fn help_lines(keymap: &Keymap) -> Vec<String> {
    let mut lines = vec![
        "Keys (rebind them in keys.toml in your config directory):".to_string(),
        String::new(),
    ];
    for a in Action::ALL {
        lines.push(format!("  {:<22} {}", keymap.keys_of(a), a.describe()));
    }
    lines.push("  mouse                  click: select / choose; wheel: scroll".into());
    lines.push(String::new());
    lines.push("On the board:".into());
    for part in LEGEND.split("   ") {
        lines.push(format!("  {part}"));
    }
    lines.push(String::new());
    lines.push("A multi-leg move (lion, hook mover) is entered leg by leg: choose each".into());
    lines.push("stop in turn; @ marks squares where the move can go on.".into());
    lines
}

fn draw_help(keymap: &Keymap, theme: &Theme, top: u16, area: Rect, buf: &mut Buffer) {
    let lines = help_lines(keymap);
    let w = (lines.iter().map(|l| l.width()).max().unwrap_or(40) as u16 + 4).min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    clear(r, buf);
    let rows = h.saturating_sub(2);
    let top = top.min((lines.len() as u16).saturating_sub(rows));
    let more = if lines.len() as u16 > rows {
        format!(
            " {}-{} of {}: ↑↓ PgUp PgDn scroll · Esc closes ",
            top + 1,
            (top + rows).min(lines.len() as u16),
            lines.len()
        )
    } else {
        " Esc closes ".to_string()
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .title(" Help ")
        .title_style(theme.title)
        .title_bottom(Line::from(more).right_aligned());
    let inner = block.inner(r);
    block.render(r, buf);
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>())
        .scroll((top, 0))
        .render(inner, buf);
}

/// Clears `r` for a box drawn over the screen, including the right half of a wide character
/// (a kanji) that starts just left of it and would otherwise cover the box's left border.
pub fn clear(r: Rect, buf: &mut Buffer) {
    Clear.render(r, buf);
    if r.x > buf.area.x {
        for y in r.top()..r.bottom() {
            let cell = &mut buf[(r.x - 1, y)];
            if cell.symbol().width() > 1 {
                cell.set_symbol(" ");
            }
        }
    }
}

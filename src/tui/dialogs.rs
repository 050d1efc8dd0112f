//! The dialogs that take the keys while they are open: a prompt for a line of text, a yes/no
//! question, the promotion question and the help. Each handles its own keys and draws itself
//! (on the status line, or over the board for the help).

use super::component::{Component, Context, Reply};
use super::keys::{Action, Keymap};
use super::msg::Msg;
use super::preview::Ending;
use super::session::Listed;
use super::text::LEGEND;
use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};
use taikyoku_core::moves::Move;
use taikyoku_records::history::History;
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
    /// Resume the unfinished game found among the autosaves: Enter resumes, `n` starts a new
    /// game, other keys are ignored (a stray key must not throw a game away).
    Resume,
    /// Play a move that removes some of the mover's own pieces.
    OwnCapture(Move),
}

/// The open dialog.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    Prompt {
        kind: PromptKind,
        text: String,
        /// Said after the question (where a save name goes).
        note: String,
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
    /// The ways a move can end on the chosen square (what each takes differs).
    Endings {
        title: String,
        endings: Vec<Ending>,
        chosen: usize,
    },
    /// Recent and unfinished games, to open one.
    Games {
        games: Vec<Listed>,
        chosen: usize,
    },
}

impl Dialog {
    pub fn prompt(kind: PromptKind) -> Dialog {
        Dialog::Prompt {
            kind,
            text: String::new(),
            note: String::new(),
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

    /// A key: the dialog stays open ([`Reply::Done`]) or closes, and may send a message.
    fn handle_key(&mut self, e: KeyEvent) -> Reply {
        let close = |msg: Msg| Reply::Close(Some(msg));
        match self {
            Dialog::Help(top) => help_key(e, top),
            Dialog::Prompt { kind, text, .. } => match e.code {
                KeyCode::Esc => close(Msg::say("Cancelled.")),
                KeyCode::Enter => close(Msg::Submit(*kind, text.trim().to_string())),
                KeyCode::Backspace => {
                    text.pop();
                    Reply::Done(None)
                }
                KeyCode::Char(c) => {
                    text.push(c);
                    Reply::Done(None)
                }
                _ => Reply::Done(None),
            },
            Dialog::Confirm {
                kind: ConfirmKind::Resume,
                ..
            } => match e.code {
                // As every other question: y or n (Enter: yes, Esc: no); q quits.
                KeyCode::Enter | KeyCode::Char('y' | 'Y') => {
                    close(Msg::Answer(ConfirmKind::Resume, true))
                }
                KeyCode::Esc | KeyCode::Char('n' | 'N') => {
                    close(Msg::Answer(ConfirmKind::Resume, false))
                }
                KeyCode::Char('o') => close(Msg::Act(Action::Recent)),
                KeyCode::Char('q') => close(Msg::Quit),
                _ => Reply::Done(None),
            },
            Dialog::Confirm { kind, .. } => {
                let yes = matches!(e.code, KeyCode::Char('y' | 'Y'));
                close(Msg::Answer(*kind, yes))
            }
            Dialog::Endings {
                endings, chosen, ..
            } => match pick(e, chosen, endings.len()) {
                Pick::Stay => Reply::Done(None),
                Pick::Cancel => close(Msg::say("Cancelled: choose again.")),
                Pick::Take(i) => close(Msg::Finish(endings[i].moves.clone())),
            },
            Dialog::Games { games, chosen } => match pick(e, chosen, games.len()) {
                Pick::Stay => Reply::Done(None),
                Pick::Cancel => close(Msg::say("Cancelled.")),
                Pick::Take(i) => close(Msg::Open(games[i].path.clone())),
            },
            Dialog::Promote { yes, no, line } => match e.code {
                KeyCode::Char('y' | 'Y') => close(Msg::Play(*yes)),
                KeyCode::Char('n' | 'N') => close(Msg::Play(*no)),
                KeyCode::Esc => close(Msg::say("Cancelled: choose again.")),
                _ => {
                    if !line.ends_with(" (y for yes, n for no)") {
                        line.push_str(" (y for yes, n for no)");
                    }
                    Reply::Done(None)
                }
            },
        }
    }

    /// What the dialog shows on the status line (the help shows nothing there).
    pub fn status_line(&self, h: &History) -> Option<String> {
        Some(match self {
            Dialog::Help(_) => return None,
            Dialog::Prompt { kind, text, note } => match kind {
                PromptKind::Find => format!(
                    "Find a piece (name, code, kanji or board label): {text}_   Enter to find, Esc to cancel"
                ),
                PromptKind::Goto => {
                    format!("Go to square (file.rank): {text}_   Enter to go, Esc to cancel")
                }
                PromptKind::Save => {
                    format!("Save as{note}: {text}_   Enter to save, Esc to cancel")
                }
                PromptKind::MoveNumber => format!(
                    "Go to move (0-{}): {text}_   Enter to go, Esc to cancel",
                    h.line().len()
                ),
            },
            Dialog::Confirm { question, .. } => question.clone(),
            Dialog::Promote { line, .. } => line.clone(),
            Dialog::Endings { endings, .. } => format!(
                "Choose how the move ends: 1-{} or arrows and Enter; Esc to choose again.",
                endings.len()
            ),
            Dialog::Games { .. } => {
                "Open a game: arrows or 1-9, Enter to open, Esc to go back.".into()
            }
        })
    }

    /// Whether the status line asks for attention (a question).
    pub fn urgent(&self) -> bool {
        matches!(
            self,
            Dialog::Confirm { .. } | Dialog::Promote { .. } | Dialog::Endings { .. }
        )
    }
}

impl Component for Dialog {
    /// An open dialog has the keys and the mouse (a click does not reach the board under
    /// it); a prompt takes pasted text, at most a path's length of one line.
    fn handle(&mut self, msg: &Msg, _: &Context) -> Reply {
        match (msg, self) {
            (Msg::Key(e), d) => d.handle_key(*e),
            (Msg::Mouse(_), _) => Reply::Done(None),
            (Msg::Paste(pasted), Dialog::Prompt { text, .. }) => {
                let room = 1000usize.saturating_sub(text.chars().count());
                text.extend(pasted.chars().filter(|c| !c.is_control()).take(room));
                Reply::Done(None)
            }
            _ => Reply::Pass,
        }
    }
}

/// Only the keys that say so close the help; the others scroll it or do nothing.
fn help_key(e: KeyEvent, top: &mut u16) -> Reply {
    *top = match e.code {
        KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q' | '?') => return Reply::Close(None),
        KeyCode::Down | KeyCode::Char('j') => top.saturating_add(1),
        KeyCode::Up | KeyCode::Char('k') => top.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => top.saturating_add(10),
        KeyCode::PageUp => top.saturating_sub(10),
        KeyCode::Home => 0,
        _ => *top,
    };
    Reply::Done(None)
}

/// What a dialog shows over the screen: the help, or a menu.
pub struct DialogWidget<'a> {
    pub dialog: &'a Dialog,
    pub keymap: &'a Keymap,
    pub theme: &'a Theme,
}

impl Widget for DialogWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (keymap, theme) = (self.keymap, self.theme);
        match self.dialog {
            Dialog::Help(top) => draw_help(keymap, theme, *top, area, buf),
            Dialog::Endings {
                title,
                endings,
                chosen,
            } => {
                let lines: Vec<String> = endings
                    .iter()
                    .enumerate()
                    .map(|(i, e)| format!("{} {}", i + 1, e.text))
                    .collect();
                draw_menu(title, &lines, *chosen, theme, area, buf);
            }
            Dialog::Games { games, chosen } => {
                let lines: Vec<String> = games.iter().map(|g| g.line.clone()).collect();
                draw_menu(
                    "Recent and unfinished games",
                    &lines,
                    *chosen,
                    theme,
                    area,
                    buf,
                );
            }
            _ => {}
        }
    }
}

/// The help: every action with its keys, and the overlay legend, for a box `width` columns
/// wide inside (an action's words wrap under themselves so 80 columns cut nothing).
pub fn help_lines(keymap: &Keymap, width: usize) -> Vec<String> {
    let mut lines = vec![
        "Keys (rebind them in keys.toml in your config directory by the [name] after".to_string(),
        "each: undo = \"z\"):".to_string(),
        String::new(),
    ];
    for a in Action::ALL {
        let words = format!("{} [{}]", a.describe(), a.name());
        lines.extend(help_entry(&keymap.keys_of(a), &words, width));
    }
    lines.extend(help_entry(
        "mouse",
        "click: select / choose; wheel: scroll",
        width,
    ));
    lines.push(String::new());
    lines.push("On the board:".into());
    for part in LEGEND.split("   ") {
        lines.push(format!("  {part}"));
    }
    lines.push(String::new());
    lines.push("Choose where a move ends; where it can end in ways that take different".into());
    lines
        .push("pieces (a lion), a menu offers each. A shooter: choose where it lands, then".into());
    lines.push("a piece marked % to shoot (Enter on the landing again: no shot). What the".into());
    lines.push("move under the cursor would remove is shown in reverse video. A move that".into());
    lines.push("removes your own pieces asks first.".into());
    lines
}

/// One help entry: the keys in a column of their own, the words wrapped beside them.
fn help_entry(keys: &str, words: &str, width: usize) -> Vec<String> {
    const INDENT: usize = 24;
    let mut out = Vec::new();
    let mut line = format!("  {keys:<22}");
    for word in words.split_whitespace() {
        if line.width() > INDENT && line.width() + 1 + word.width() > width {
            out.push(std::mem::replace(&mut line, " ".repeat(INDENT)));
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push(line);
    out
}

/// A key in a menu of `n` items.
enum Pick {
    Stay,
    Cancel,
    Take(usize),
}

/// Arrows (or `j`/`k`) move the choice, a digit or Enter takes one, Esc cancels.
fn pick(e: KeyEvent, chosen: &mut usize, n: usize) -> Pick {
    match e.code {
        KeyCode::Esc => Pick::Cancel,
        KeyCode::Enter => Pick::Take(*chosen),
        KeyCode::Up | KeyCode::Char('k') => {
            *chosen = (*chosen + n - 1) % n;
            Pick::Stay
        }
        KeyCode::Down | KeyCode::Char('j') => {
            *chosen = (*chosen + 1) % n;
            Pick::Stay
        }
        KeyCode::Char(c) => match c.to_digit(10).map(|d| d as usize) {
            Some(d) if (1..=n).contains(&d) => Pick::Take(d - 1),
            _ => Pick::Stay,
        },
        _ => Pick::Stay,
    }
}

/// A framed list over the bottom of the screen, the chosen line reversed; long lists scroll
/// to keep the chosen line in view.
fn draw_menu(
    title: &str,
    lines: &[String],
    chosen: usize,
    t: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let widest = lines.iter().map(|l| l.width()).max().unwrap_or(0) as u16;
    let w = (widest.max(title.width() as u16 + 2) + 4).min(area.width);
    let rows = (lines.len() as u16)
        .min(area.height.saturating_sub(6))
        .max(1);
    let h = rows + 2;
    let r = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.bottom().saturating_sub(h + 2).max(area.y),
        width: w,
        height: h,
    };
    clear(r, buf);
    let block = Block::new()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .title_style(t.title);
    let inner = block.inner(r);
    block.render(r, buf);
    let first = chosen.saturating_sub(rows as usize - 1);
    for (i, line) in lines.iter().enumerate().skip(first).take(rows as usize) {
        let style = if i == chosen {
            t.status.add_modifier(Modifier::REVERSED)
        } else {
            t.status
        };
        let y = inner.y + (i - first) as u16;
        buf.set_stringn(
            inner.x + 1,
            y,
            line,
            inner.width.saturating_sub(2) as usize,
            style,
        );
    }
}

fn draw_help(keymap: &Keymap, theme: &Theme, top: u16, area: Rect, buf: &mut Buffer) {
    let lines = help_lines(keymap, area.width.saturating_sub(4) as usize);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_wraps_an_actions_words_under_themselves_at_80_columns() {
        let lines = help_lines(&Keymap::default(), 76);
        assert!(lines.iter().all(|l| l.width() <= 76), "{lines:#?}");
        let at = lines
            .iter()
            .position(|l| l.contains("side panel: narrow"))
            .unwrap();
        assert!(!lines[at].contains("room"), "{}", lines[at]);
        assert!(lines[at + 1].starts_with(&" ".repeat(24)), "{lines:#?}");
        let whole: String = lines[at..at + 2]
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(whole.contains("as wide as there is room"), "{whole}");
        let wide = help_lines(&Keymap::default(), 200);
        assert!(
            !wide.iter().any(|l| l.starts_with(&" ".repeat(24))),
            "nothing wraps when there is room"
        );
    }
}

//! Typing a move: the prompt `:` opens. It reads any notation the command line reads
//! (`P19.26-19.25`, `19.26-19.25`, `LN19.20x19.19x19.18`, with `+` or `=`), completes with
//! Tab among the legal moves that match what is typed, and says what is wrong with a move
//! that cannot be played, staying open to mend it. In a replay it also takes a move number
//! (to go there), and a move plays on from the position shown as a new game.

use super::component::{Context, Reply};
use super::dialogs::PromptKind;
use super::msg::Msg;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use taikyoku_core::notation;
use taikyoku_records::history::History;

/// The open move prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEntry {
    pub text: String,
    /// A replay's prompt: a move number goes there, a move plays on from here.
    pub replay: bool,
    /// What is wrong with the move last tried, or what Tab found.
    pub note: String,
    /// Tab's candidates once their common start is typed, and the one shown.
    cycle: Option<(Vec<String>, usize)>,
}

/// The longest a typed move may be (a pasted page is cut there).
const MAX_LEN: usize = 200;

impl MoveEntry {
    pub fn new(replay: bool) -> MoveEntry {
        MoveEntry {
            text: String::new(),
            replay,
            note: String::new(),
            cycle: None,
        }
    }

    /// A key: Enter plays (or goes to a move number), Tab completes, Esc cancels.
    pub fn handle_key(&mut self, e: KeyEvent, cx: &Context) -> Reply {
        match e.code {
            KeyCode::Esc => return Reply::Close(Some(Msg::say("Cancelled."))),
            KeyCode::Enter => return self.submit(cx.history),
            KeyCode::Tab => self.complete(cx.history),
            KeyCode::Backspace => {
                self.text.pop();
                self.edited();
            }
            KeyCode::Char(c) => self.type_text(&c.to_string()),
            _ => {}
        }
        Reply::Done(None)
    }

    /// Text typed or pasted (control characters dropped, at most [`MAX_LEN`] in all).
    pub fn type_text(&mut self, s: &str) {
        let room = MAX_LEN.saturating_sub(self.text.chars().count());
        self.text
            .extend(s.chars().filter(|c| !c.is_control()).take(room));
        self.edited();
    }

    fn edited(&mut self) {
        self.cycle = None;
        self.note.clear();
    }

    /// The prompt on the status line.
    pub fn status_line(&self, h: &History) -> String {
        let (what, keys) = match self.replay {
            true => (
                format!("Go to move (0-{}) or play a move", h.line().len()),
                "Enter to go, Tab completes, Esc cancels",
            ),
            false => (
                "Move".to_string(),
                "Tab completes, Enter plays, Esc cancels",
            ),
        };
        let note = match self.note.is_empty() {
            true => keys.to_string(),
            false => self.note.clone(),
        };
        format!("{what}: {}_   {note}", self.text)
    }

    /// Enter: a move number (in a replay) goes there; a legal move is played; anything else
    /// is said to be wrong, and the prompt stays open.
    fn submit(&mut self, h: &History) -> Reply {
        let text = self.text.trim().to_string();
        if self.replay && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            return Reply::Close(Some(Msg::Submit(PromptKind::MoveNumber, text)));
        }
        if text.is_empty() {
            self.note = "type a move such as 19.26-19.25 (Tab lists the legal moves)".into();
            return Reply::Done(None);
        }
        match notation::read_move(h.rules(), h.position(), &text) {
            Ok((m, _)) if self.replay => Reply::Close(Some(Msg::PlayFrom(m))),
            Ok((m, _)) => Reply::Close(Some(Msg::Play(m))),
            Err(e) => {
                self.note = format!("{e}");
                Reply::Done(None)
            }
        }
    }

    /// Tab: the one legal move that matches what is typed; else the start they all share,
    /// then each of them in turn.
    fn complete(&mut self, h: &History) {
        if let Some((list, i)) = &mut self.cycle {
            *i = (*i + 1) % list.len();
            self.text = list[*i].clone();
            self.note = format!("{} of {} moves", *i + 1, list.len());
            return;
        }
        let found = matching(h, self.text.trim());
        match found.len() {
            0 => {
                self.note = format!("no legal move starts with {:?}", self.text.trim());
            }
            1 => {
                self.text = found[0].clone();
                self.note = "the one legal move that matches; Enter plays it".into();
            }
            n => {
                let common = common_start(&found);
                if common.chars().count() > self.text.trim().chars().count() {
                    self.text = common;
                    self.note = format!("{n} moves: {}", listed(&found));
                } else {
                    self.text = found[0].clone();
                    self.note = format!("1 of {n} moves (Tab: the next)");
                    self.cycle = Some((found, 0));
                }
            }
        }
    }
}

/// The legal moves whose notation starts with `typed` (case aside): written with their piece
/// code, or without it when `typed` starts with a square.
pub fn matching(h: &History, typed: &str) -> Vec<String> {
    let (rules, pos) = (h.rules(), h.position());
    if pos.outcome().is_some() {
        return Vec::new();
    }
    let typed: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
    let bare = typed.starts_with(|c: char| c.is_ascii_digit());
    let moves = rules.legal_moves(pos);
    let mut out: Vec<String> = notation::move_strings(rules, pos, &moves)
        .into_iter()
        .map(|s| match bare {
            true => s
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .into(),
            false => s,
        })
        .filter(|s| {
            s.get(..typed.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(&typed))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The longest start all of `words` share.
fn common_start(words: &[String]) -> String {
    let first = words.first().map_or("", String::as_str);
    let len = words.iter().skip(1).fold(first.len(), |len, w| {
        first
            .bytes()
            .zip(w.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count()
    });
    first[..len].to_string()
}

/// "a, b, c, … (12 in all)": the first few of `moves`.
fn listed(moves: &[String]) -> String {
    const SHOWN: usize = 6;
    let first = moves[..moves.len().min(SHOWN)].join(", ");
    match moves.len() > SHOWN {
        true => format!("{first}, … ({} in all)", moves.len()),
        false => first,
    }
}

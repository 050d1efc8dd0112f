//! Messages: everything that changes the terminal game goes through one channel as a [`Msg`]
//! (the "actions" of ratatui's component template). The terminal's keys and mouse arrive as
//! messages from an input thread; components turn keys into messages; background work (an
//! automatic replay, a thinking computer) posts messages from its own thread.

use super::dialogs::{ConfirmKind, PromptKind};
use super::keys::Action;
use super::players::{Failed, Progress, Thought};
use super::preview::Ending;
use ratatui::crossterm::event::{Event, KeyEvent, MouseEvent};
use taikyoku_core::moves::Move;

#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A key pressed in the terminal.
    Key(KeyEvent),
    Mouse(MouseEvent),
    /// Text pasted in the terminal (bracketed paste): goes into an open prompt.
    Paste(String),
    /// The terminal changed size (the next draw lays out again).
    Resize,
    /// The terminal could not be read.
    InputFailed(String),
    /// A bound action (a key of the keymap, or a click).
    Act(Action),
    /// Play this move for the side to move.
    Play(Move),
    /// A replay: play this move from the position shown, as a new game.
    PlayFrom(Move),
    /// The chosen move can be made with or without promotion: ask.
    AskPromotion {
        yes: Move,
        no: Move,
    },
    /// The chosen square ends the move in several ways: offer them.
    ChooseEnding {
        title: String,
        endings: Vec<Ending>,
    },
    /// One of the endings was chosen: play it (asking about promotion if that is a choice).
    Finish(Vec<Move>),
    /// Open this game record in place of the game being played.
    Open(std::path::PathBuf),
    /// Play this move even though it removes some of the mover's own pieces.
    PlayAnyway(Move),
    /// Redo the computer's reply: played as its move again, without thinking.
    RedoReply(Move),
    /// Open a prompt for a line of text.
    Ask(PromptKind),
    /// A prompt's answer.
    Submit(PromptKind, String),
    /// Ask a yes/no question.
    Confirm(ConfirmKind),
    /// A question's answer.
    Answer(ConfirmKind, bool),
    /// Show the position after this many moves (replay).
    Show(usize),
    /// The next move of an automatic replay (posted by its timer).
    AutoplayStep,
    /// How far the search of job N has got (posted by its thread).
    Progress(u64, Progress),
    /// Job N has finished: its move, or why it has none (an engine's forfeit).
    Thought(u64, Result<Thought, Failed>),
    /// What search N of the analysis board found (posted by its thread).
    Analysis(u64, super::analysis::Report),
    /// A clock runs: time to see whether a flag fell (posted by the event loop).
    Tick,
    /// A line for the status bar.
    Say(String),
    /// A line for the status bar that needs attention.
    Warn(String),
    Quit,
}

impl Msg {
    pub fn say(s: impl Into<String>) -> Msg {
        Msg::Say(s.into())
    }

    pub fn warn(s: impl Into<String>) -> Msg {
        Msg::Warn(s.into())
    }
}

impl From<Event> for Msg {
    fn from(e: Event) -> Msg {
        match e {
            Event::Key(k) => Msg::Key(k),
            Event::Mouse(m) => Msg::Mouse(m),
            Event::Paste(p) => Msg::Paste(p),
            _ => Msg::Resize,
        }
    }
}

//! The one shape every part of the terminal game has, as in ratatui's component template and
//! gitui's components: a message in, what happened out ([`Component::handle`]); drawing is
//! separate, by ratatui widgets each component builds from its state (its `…Widget`).
//!
//! [`App`](super::app::App) offers every message to the open dialog, the board, the side
//! panel, the replay and the status line, in that order; the first that does not
//! [`Reply::Pass`] takes it, and what it replies with is handled next. A message none takes
//! is the app's own (playing, saving, the players, the clocks).

use super::keys::Keymap;
use super::msg::Msg;
use std::sync::mpsc::Sender;
use taikyoku_core::catalogue::KindId;
use taikyoku_records::history::History;

/// What a component may read while it handles a message.
pub struct Context<'a> {
    /// The game as it stands (in a replay, at the move shown).
    pub history: &'a History,
    pub keymap: &'a Keymap,
    /// Where background work posts its messages (none in tests).
    pub tx: Option<&'a Sender<Msg>>,
    /// The kind whose card the side panel shows (the board says which: [`Board::shown_piece`]).
    ///
    /// [`Board::shown_piece`]: super::board::Board::shown_piece
    pub shown: Option<KindId>,
}

/// What a component did with a message.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// Not this component's: the next one may take it.
    Pass,
    /// Taken; the message that follows from it, if any.
    Done(Option<Msg>),
    /// Taken, and the component closes (a dialog answered or cancelled).
    Close(Option<Msg>),
}

/// A part of the screen that takes messages.
pub trait Component {
    fn handle(&mut self, msg: &Msg, cx: &Context) -> Reply;
}

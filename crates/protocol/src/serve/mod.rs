//! `taikyoku engine`: this program as an ATSI v00 engine (the one "engine" of this program,
//! played by the search through a [`Session`]), over stdin/stdout ([`stdio`]) or over
//! WebSocket ([`websocket`]; the ATSA site's Play page connects that way). One line per
//! message; malformed input is answered with a `log error: …` line and logged on stderr,
//! never a panic. Like any engine, it writes its log lines on stderr.
//!
//! Bottom to top: [`settings`], `summary` and [`interrupt`] → [`session`] (one host's conversation; how the
//! engine thinks in `session::think`) → [`stdio`] and [`websocket`] (the transports).

pub mod interrupt;
pub mod session;
pub mod settings;
pub mod stdio;
mod summary;
pub mod websocket;

pub use interrupt::{Interrupt, ends_search};
pub use session::{Flow, Session, SessionLog};
pub use settings::{Policy, Settings, SettingsError};
pub use stdio::stdio;
pub use websocket::websocket;

/// The longest line (or WebSocket message) read: a TSFEN is about 3 KiB.
pub const MAX_MESSAGE: usize = 64 << 10;

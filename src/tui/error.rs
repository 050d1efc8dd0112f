//! Why the terminal game could not start, or stopped: its settings files, or the terminal.

use super::keys::KeyError;
use std::io;
use taikyoku_protocol::host::HostError;

/// An error of the terminal game (the command line wraps it).
#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// A settings file (`keys.toml`, `config.toml`) could not be read.
    #[error("{file}: {source}")]
    Read { file: String, source: io::Error },
    /// `keys.toml` names an action or a key the game does not know.
    #[error("{file}: {source}")]
    Keys { file: String, source: KeyError },
    /// `config.toml` is not TOML.
    #[error("{file}: {source}")]
    Config {
        file: String,
        source: toml::de::Error,
    },
    #[error("{file}: confirm_own_captures must be true or false")]
    ConfirmOwnCaptures { file: String },
    #[error("unknown theme {name:?}; the themes are: {known}")]
    UnknownTheme { name: String, known: String },
    /// An external engine could not be started (or did not answer its handshake).
    #[error(
        "--black/--white {command:?}: {source}; a player is human, computer[:LEVEL] or the command of an ATSI engine"
    )]
    Engine {
        command: String,
        source: Box<HostError>,
    },
    #[error("cannot open the terminal: {0}")]
    Open(io::Error),
    #[error("terminal error: {0}")]
    Terminal(io::Error),
}

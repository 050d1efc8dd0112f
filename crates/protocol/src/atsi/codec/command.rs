//! The host's commands: `atsiinit`, `identify`, `time`, `player`, `startgame`, `opmove`,
//! `win`/`loss`/`draw`, `setparam`, `eval` (ours) and `quit`.

use super::{AtsiMove, no_more, num_arg, split_command, text, unknown, with_text};
use crate::atsi::error::AtsiError;
use taikyoku_core::notation::shorten;

/// Where a game starts: ATSA's opening, or a TSFEN (its move counter says who moves first).
#[derive(Clone, Debug, PartialEq)]
pub enum StartPos {
    Initial,
    Tsfen(String),
}

/// A message from the host to an engine.
#[derive(Clone, Debug, PartialEq)]
pub enum HostCommand {
    /// `atsiinit v00` (ATSA's host sends `v0`; both are accepted, the text is kept).
    AtsiInit {
        version: String,
    },
    Identify,
    /// `time BASE [INC]`: seconds for the game and added after each move.
    Time {
        base: f64,
        increment: f64,
    },
    /// `player 0|1`: 0 plays the first player's pieces (sente, Black), 1 the second's.
    Player(u8),
    StartGame(StartPos),
    /// The opponent's move, then the seconds left on our clock and on theirs.
    OpMove {
        mv: AtsiMove,
        time: f64,
        op_time: f64,
    },
    Win(Option<String>),
    Loss(Option<String>),
    Draw(Option<String>),
    /// `setparam NAME VALUE` (the value is the rest of the line).
    SetParam {
        name: String,
        value: String,
    },
    /// Not in v00: asks the engine to send `eval` for the position now.
    Eval,
    Quit,
}

impl HostCommand {
    /// Reads one line from the host.
    pub fn parse(line: &str) -> Result<HostCommand, AtsiError> {
        let (command, rest) = split_command(line)?;
        let args: Vec<&str> = rest.split_ascii_whitespace().collect();
        let bare = |c: HostCommand, name| no_more(name, &args).map(|()| c);
        match command {
            "atsiinit" => atsiinit(&args),
            "identify" => bare(HostCommand::Identify, "identify"),
            "eval" => bare(HostCommand::Eval, "eval"),
            "quit" => bare(HostCommand::Quit, "quit"),
            "time" => time(rest, &args),
            "player" => player(&args),
            "startgame" => startgame(rest),
            "opmove" => opmove(&args),
            "win" => Ok(HostCommand::Win(text(rest))),
            "loss" => Ok(HostCommand::Loss(text(rest))),
            "draw" => Ok(HostCommand::Draw(text(rest))),
            "setparam" => setparam(rest),
            other => Err(unknown(other)),
        }
    }

    /// The line to send (without its `\n`).
    pub fn to_line(&self) -> String {
        match self {
            HostCommand::AtsiInit { version } => format!("atsiinit {version}"),
            HostCommand::Identify => "identify".into(),
            HostCommand::Time { base, increment } => format!("time {base} {increment}"),
            HostCommand::Player(p) => format!("player {p}"),
            HostCommand::StartGame(StartPos::Initial) => "startgame initial".into(),
            HostCommand::StartGame(StartPos::Tsfen(t)) => format!("startgame {t}"),
            HostCommand::OpMove { mv, time, op_time } => format!("opmove {mv} {time} {op_time}"),
            HostCommand::Win(r) => with_text("win", r),
            HostCommand::Loss(r) => with_text("loss", r),
            HostCommand::Draw(r) => with_text("draw", r),
            HostCommand::SetParam { name, value } => format!("setparam {name} {value}"),
            HostCommand::Eval => "eval".into(),
            HostCommand::Quit => "quit".into(),
        }
    }
}

fn atsiinit(args: &[&str]) -> Result<HostCommand, AtsiError> {
    let version = *args.first().ok_or(AtsiError::Missing {
        command: "atsiinit",
        what: "the protocol version (v00)",
    })?;
    if !matches!(version, "v00" | "v0") {
        return Err(AtsiError::UnsupportedVersion(shorten(version)));
    }
    no_more("atsiinit", &args[1..])?;
    Ok(HostCommand::AtsiInit {
        version: version.to_string(),
    })
}

fn time(rest: &str, args: &[&str]) -> Result<HostCommand, AtsiError> {
    let base = num_arg("time", "the starting time", args.first())?;
    let increment = match args.get(1) {
        Some(t) => num_arg("time", "the increment", Some(t))?,
        None => 0.0,
    };
    no_more("time", args.get(2..).unwrap_or(&[]))?;
    if base < 0.0 || increment < 0.0 {
        return Err(AtsiError::BadArgument {
            command: "time",
            what: "a time",
            expected: "zero or more seconds",
            text: rest.to_string(),
        });
    }
    Ok(HostCommand::Time { base, increment })
}

fn player(args: &[&str]) -> Result<HostCommand, AtsiError> {
    let t = args.first().ok_or(AtsiError::Missing {
        command: "player",
        what: "0 or 1",
    })?;
    let p = match *t {
        "0" => 0,
        "1" => 1,
        _ => {
            return Err(AtsiError::BadArgument {
                command: "player",
                what: "the player",
                expected: "0 (first) or 1 (second)",
                text: shorten(t),
            });
        }
    };
    no_more("player", &args[1..])?;
    Ok(HostCommand::Player(p))
}

fn startgame(rest: &str) -> Result<HostCommand, AtsiError> {
    match rest {
        "" => Err(AtsiError::Missing {
            command: "startgame",
            what: "the position (initial or a TSFEN)",
        }),
        "initial" => Ok(HostCommand::StartGame(StartPos::Initial)),
        tsfen => Ok(HostCommand::StartGame(StartPos::Tsfen(tsfen.to_string()))),
    }
}

fn opmove(args: &[&str]) -> Result<HostCommand, AtsiError> {
    if args.len() < 4 {
        return Err(AtsiError::Missing {
            command: "opmove",
            what: "squares and clocks (opmove FROM [STEPS…] TO TIME OP_TIME)",
        });
    }
    let n = args.len();
    let time = num_arg("opmove", "our time left", args.get(n - 2))?;
    let op_time = num_arg("opmove", "the opponent's time left", args.get(n - 1))?;
    let mv = AtsiMove::parse_tokens(&args[..n - 2])?;
    Ok(HostCommand::OpMove { mv, time, op_time })
}

fn setparam(rest: &str) -> Result<HostCommand, AtsiError> {
    let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if name.is_empty() {
        return Err(AtsiError::Missing {
            command: "setparam",
            what: "the parameter's name",
        });
    }
    Ok(HostCommand::SetParam {
        name: name.to_string(),
        value: value.trim().to_string(),
    })
}

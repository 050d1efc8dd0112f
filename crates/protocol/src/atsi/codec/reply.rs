//! An engine's replies: `atsiok`, `info`, `param` (with its [`ParamType`]), `move`, `resign`,
//! `eval`, `log` and `quit`.

use super::{AtsiMove, no_more, num_arg, number, split_command, text, unknown, with_text};
use crate::atsi::error::AtsiError;
use std::fmt;
use taikyoku_core::notation::shorten;

/// A message from an engine to the host.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineReply {
    AtsiOk,
    /// `info NAME [DESCRIPTION [VERSION [AUTHOR [LOGO]]]]`; arguments with spaces are quoted.
    Info {
        name: String,
        description: Option<String>,
        version: Option<String>,
        author: Option<String>,
        logo: Option<String>,
    },
    Param {
        name: String,
        ty: ParamType,
    },
    Move(AtsiMove),
    Resign(Option<String>),
    /// The evaluation after the engine's move, for the first player (positive: good for them).
    Eval(f64),
    /// `log TEXT`: not in v00, but ATSA's host and tomatene use it for messages to people.
    Log(String),
    Quit,
}

/// The type of an engine parameter, as `param` announces it.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamType {
    String,
    Bool,
    Number { range: Option<(f64, f64)> },
    Int { range: Option<(i64, i64)> },
    Enum(Vec<String>),
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::String => f.write_str("string"),
            ParamType::Bool => f.write_str("bool"),
            ParamType::Number { range: None } => f.write_str("number"),
            ParamType::Number {
                range: Some((a, b)),
            } => write!(f, "number[{a}, {b}]"),
            ParamType::Int { range: None } => f.write_str("int"),
            ParamType::Int {
                range: Some((a, b)),
            } => write!(f, "int[{a}, {b}]"),
            ParamType::Enum(values) => {
                let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
                write!(f, "enum[{}]", quoted.join("|"))
            }
        }
    }
}

impl std::str::FromStr for ParamType {
    type Err = AtsiError;
    fn from_str(s: &str) -> Result<ParamType, AtsiError> {
        let bad = |why| AtsiError::BadParamType {
            text: shorten(s),
            why,
        };
        let s = s.trim();
        let (head, args) = match s.split_once('[') {
            Some((h, rest)) => (
                h.trim(),
                Some(rest.strip_suffix(']').ok_or_else(|| bad("missing ]"))?),
            ),
            None => (s, None),
        };
        let bounds = |a: &str| -> Result<(String, String), AtsiError> {
            let (lo, hi) = a
                .split_once(',')
                .ok_or_else(|| bad("bounds are [MIN, MAX]"))?;
            Ok((lo.trim().to_string(), hi.trim().to_string()))
        };
        Ok(match (head, args) {
            ("string", None) => ParamType::String,
            ("bool", None) => ParamType::Bool,
            ("number", None) => ParamType::Number { range: None },
            ("int", None) => ParamType::Int { range: None },
            ("number", Some(a)) => {
                let (lo, hi) = bounds(a)?;
                let num = |t: &str| number(t).ok_or_else(|| bad("bounds must be numbers"));
                ParamType::Number {
                    range: Some((num(&lo)?, num(&hi)?)),
                }
            }
            ("int", Some(a)) => {
                let (lo, hi) = bounds(a)?;
                let int = |t: &str| t.parse().map_err(|_| bad("bounds must be integers"));
                ParamType::Int {
                    range: Some((int(&lo)?, int(&hi)?)),
                }
            }
            ("enum", Some(a)) => ParamType::Enum(
                a.split('|')
                    .map(|v| {
                        let v = v.trim();
                        v.strip_prefix('"')
                            .and_then(|v| v.strip_suffix('"'))
                            .map(str::to_string)
                            .ok_or_else(|| bad("enum values are quoted: enum[\"a\"|\"b\"]"))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            _ => {
                return Err(bad(
                    "a type is string, bool, number, int (with [MIN, MAX]) or enum[…]",
                ));
            }
        })
    }
}

/// Splits `info`'s arguments: words, or `"quoted text"` (as tomatene sends them).
fn quoted_words(rest: &str) -> Result<Vec<String>, AtsiError> {
    let mut out = Vec::new();
    let mut s = rest.trim_start();
    while !s.is_empty() {
        if let Some(q) = s.strip_prefix('"') {
            let end = q
                .find('"')
                .ok_or_else(|| AtsiError::UnclosedQuote(shorten(rest)))?;
            out.push(q[..end].to_string());
            s = &q[end + 1..];
        } else {
            let end = s.find(char::is_whitespace).unwrap_or(s.len());
            out.push(s[..end].to_string());
            s = &s[end..];
        }
        s = s.trim_start();
    }
    Ok(out)
}

/// A word of `info`, quoted when it holds spaces, is empty or starts with a quote.
fn quote(w: &str) -> String {
    if w.is_empty() || w.contains(char::is_whitespace) || w.starts_with('"') {
        format!("\"{}\"", w.replace('"', "'"))
    } else {
        w.to_string()
    }
}

impl EngineReply {
    /// Reads one line from an engine.
    pub fn parse(line: &str) -> Result<EngineReply, AtsiError> {
        let (command, rest) = split_command(line)?;
        let args: Vec<&str> = rest.split_ascii_whitespace().collect();
        match command {
            "atsiok" => no_more("atsiok", &args).map(|()| EngineReply::AtsiOk),
            "quit" => no_more("quit", &args).map(|()| EngineReply::Quit),
            "info" => info(rest),
            "param" => {
                let (name, ty) =
                    rest.split_once(char::is_whitespace)
                        .ok_or(AtsiError::Missing {
                            command: "param",
                            what: "a name and a type",
                        })?;
                Ok(EngineReply::Param {
                    name: name.to_string(),
                    ty: ty.parse()?,
                })
            }
            "move" => Ok(EngineReply::Move(AtsiMove::parse_tokens(&args)?)),
            "resign" => Ok(EngineReply::Resign(text(rest))),
            "eval" => {
                let v = num_arg("eval", "the evaluation", args.first())?;
                no_more("eval", &args[1..])?;
                Ok(EngineReply::Eval(v))
            }
            "log" => Ok(EngineReply::Log(rest.to_string())),
            other => Err(unknown(other)),
        }
    }

    /// The line to send (without its `\n`).
    pub fn to_line(&self) -> String {
        match self {
            EngineReply::AtsiOk => "atsiok".into(),
            EngineReply::Info {
                name,
                description,
                version,
                author,
                logo,
            } => {
                let mut words = vec![quote(name)];
                let optional = [description, version, author, logo];
                let n = optional
                    .iter()
                    .rposition(|w| w.is_some())
                    .map_or(0, |i| i + 1);
                words.extend(
                    optional[..n]
                        .iter()
                        .map(|w| quote(w.as_deref().unwrap_or(""))),
                );
                format!("info {}", words.join(" "))
            }
            EngineReply::Param { name, ty } => format!("param {name} {ty}"),
            EngineReply::Move(m) => format!("move {m}"),
            EngineReply::Resign(r) => with_text("resign", r),
            EngineReply::Eval(v) => format!("eval {v}"),
            EngineReply::Log(t) => format!("log {t}"),
            EngineReply::Quit => "quit".into(),
        }
    }
}

fn info(rest: &str) -> Result<EngineReply, AtsiError> {
    let mut words = quoted_words(rest)?.into_iter();
    let name = words.next().ok_or(AtsiError::Missing {
        command: "info",
        what: "the engine's name",
    })?;
    let reply = EngineReply::Info {
        name,
        description: words.next(),
        version: words.next(),
        author: words.next(),
        logo: words.next(),
    };
    let more: Vec<String> = words.collect();
    no_more("info", &more.iter().map(String::as_str).collect::<Vec<_>>())?;
    Ok(reply)
}

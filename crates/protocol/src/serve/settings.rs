//! What `taikyoku engine` plays by: how it chooses its moves, the search's limits and table,
//! and whether it keeps to what ATSA's web host can judge. The command line makes them from
//! its options; the host changes them with `setparam` (announced by `param`).

use crate::atsi::{EngineReply, ParamType};
use std::time::Duration;
use taikyoku_search::eval::Weights;

/// How moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Search,
    Greedy,
    Random,
}

const POLICIES: [(&str, Policy); 3] = [
    ("search", Policy::Search),
    ("greedy", Policy::Greedy),
    ("random", Policy::Random),
];

/// The longest `movetime`, in seconds.
const MAX_MOVETIME: u64 = 3600;

impl std::str::FromStr for Policy {
    type Err = SettingsError;
    fn from_str(s: &str) -> Result<Policy, SettingsError> {
        POLICIES
            .iter()
            .find(|(n, _)| *n == s)
            .map(|&(_, p)| p)
            .ok_or_else(|| SettingsError::UnknownPolicy(s.to_string()))
    }
}

/// A setting that cannot be: the command line's option or the host's `setparam`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    #[error("unknown policy {0:?}: search, greedy or random")]
    UnknownPolicy(String),
    #[error("{0} is not a number of seconds from 0 to 3600")]
    Seconds(f64),
    #[error("{name}: {value:?} is not a whole number")]
    NotWhole { name: String, value: String },
    #[error("movetime: {0:?} is not a number of seconds")]
    NotSeconds(String),
    #[error("atsa_host_safe: {0:?} is not true or false")]
    NotBool(String),
    #[error("unknown parameter {0:?}")]
    UnknownParam(String),
    /// Outside the range its `param` line announces (refused, not clamped in silence).
    #[error("{name}: {value} is not from {lo} to {hi}")]
    OutOfRange {
        name: &'static str,
        value: u64,
        lo: u64,
        hi: u64,
    },
}

/// The ranges `param` announces and `setparam` keeps to: `(name, lowest, highest)`.
const RANGES: [(&str, u64, u64); 3] = [("depth", 0, 63), ("hash", 1, 4096), ("threads", 1, 64)];

/// `value` if it is within `name`'s range in [`RANGES`].
fn in_range(name: &str, value: u64) -> Result<u64, SettingsError> {
    match RANGES.iter().find(|r| r.0 == name) {
        Some(&(name, lo, hi)) if !(lo..=hi).contains(&value) => Err(SettingsError::OutOfRange {
            name,
            value,
            lo,
            hi,
        }),
        _ => Ok(value),
    }
}

/// The settings `setparam` can change.
#[derive(Clone, Debug)]
pub struct Settings {
    pub policy: Policy,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub seed: u64,
    /// The transposition table in MiB, 1 to [`Settings::MAX_HASH`].
    pub hash: usize,
    /// Search threads, 1 to [`Settings::MAX_THREADS`].
    pub threads: usize,
    /// Play only moves ATSA's web host can judge ([`crate::atsi::AtsaHost`]).
    pub host_safe: bool,
    pub weights: Weights,
}

impl Settings {
    /// The most MiB of table (`--hash`, `setparam hash`).
    pub const MAX_HASH: u64 = RANGES[1].2;
    /// The most search threads (`--threads`, `setparam threads`).
    pub const MAX_THREADS: u64 = RANGES[2].2;

    /// `seconds` as a move time, at most an hour.
    pub fn seconds(seconds: f64) -> Result<Duration, SettingsError> {
        Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|d| *d <= Duration::from_secs(MAX_MOVETIME))
            .ok_or(SettingsError::Seconds(seconds))
    }

    /// The `param` lines announcing them.
    pub fn params() -> Vec<EngineReply> {
        let names: Vec<String> = POLICIES.iter().map(|(n, _)| n.to_string()).collect();
        [
            ("policy", ParamType::Enum(names)),
            ("depth", int(RANGES[0])),
            ("nodes", int(("nodes", 0, i64::MAX as u64))),
            (
                "movetime",
                ParamType::Number {
                    range: Some((0.0, MAX_MOVETIME as f64)),
                },
            ),
            ("seed", int(("seed", 0, i64::MAX as u64))),
            ("hash", int(RANGES[1])),
            ("threads", int(RANGES[2])),
            ("atsa_host_safe", ParamType::Bool),
        ]
        .into_iter()
        .map(|(name, ty)| EngineReply::Param {
            name: name.into(),
            ty,
        })
        .collect()
    }

    /// Applies `setparam NAME VALUE`; 0 lifts a depth, node or time limit.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingsError> {
        let n = || -> Result<u64, SettingsError> {
            let n = value.parse().map_err(|_| SettingsError::NotWhole {
                name: name.to_string(),
                value: value.to_string(),
            })?;
            in_range(name, n)
        };
        match name {
            "policy" => self.policy = value.parse()?,
            "depth" => self.depth = Some(n()? as u32).filter(|&d| d > 0),
            "nodes" => self.nodes = Some(n()?).filter(|&v| v > 0),
            "movetime" => {
                let s = value
                    .parse()
                    .map_err(|_| SettingsError::NotSeconds(value.to_string()))?;
                self.movetime = Some(Settings::seconds(s)?).filter(|t| !t.is_zero())
            }
            "seed" => self.seed = n()?,
            "hash" => self.hash = n()? as usize,
            "threads" => self.threads = n()? as usize,
            "atsa_host_safe" => {
                self.host_safe = match value {
                    "true" | "1" | "on" | "yes" => true,
                    "false" | "0" | "off" | "no" => false,
                    _ => return Err(SettingsError::NotBool(value.to_string())),
                }
            }
            _ => return Err(SettingsError::UnknownParam(name.to_string())),
        }
        Ok(())
    }
}

fn int((_, lo, hi): (&str, u64, u64)) -> ParamType {
    ParamType::Int {
        range: Some((lo as i64, hi as i64)),
    }
}

//! `taikyoku engine`: the command line of [`taikyoku_protocol::serve`]. Its options become the
//! session's [`Settings`]; `--listen` is checked and bound here, then served.

use super::error::CliError;
use super::load::{GameArgs, load_game};
use clap::Args;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::Arc;
use taikyoku_core::rules::Rules;
use taikyoku_protocol::serve::{self, Settings};

/// `taikyoku engine`'s options; `setparam` changes them during a session.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// How the engine chooses its moves: search (the default), greedy (takes the most
    /// valuable piece it can) or random.
    #[arg(long, value_name = "POLICY", default_value = "search")]
    pub policy: String,
    /// Search at most this many plies deep (1 to 63).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=63))]
    pub depth: Option<u32>,
    /// Search at most this many nodes a move.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Seconds a move (instead of the time manager's share of the clock).
    #[arg(long, value_name = "SECONDS")]
    pub movetime: Option<f64>,
    /// Seed of the greedy and random policies and of the search's tie-breaks.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Transposition table size in MiB (1 to 4096).
    #[arg(long, value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=Settings::MAX_HASH))]
    pub hash: u64,
    /// Search threads (1 to 64).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=Settings::MAX_THREADS))]
    pub threads: u64,
    /// Weights of the evaluation's terms, NAME=N pairs (mobility, stake, hunt; 0 switches
    /// one off), for A/B matches.
    #[arg(long, value_name = "WEIGHTS", default_value = "")]
    pub eval: String,
    /// Play only moves ATSA's web host can judge (docs/engines.md): on by default with
    /// --listen (only their site connects there), off on stdin/stdout; `false` turns it off.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub atsa_host_safe: Option<bool>,
    /// Serve ATSI over WebSocket on this address (for the ATSA site's Play page), one game at
    /// a time, instead of stdin/stdout.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Allow --listen on an address other than the loopback (anyone who can reach it can play).
    #[arg(long)]
    pub allow_remote: bool,
}

impl EngineArgs {
    /// The session's settings, checked in the order the options are listed.
    fn settings(&self) -> Result<Settings, CliError> {
        let usage = |e: serve::SettingsError| CliError::Usage(e.to_string());
        Ok(Settings {
            policy: self.policy.parse().map_err(usage)?,
            depth: self.depth,
            nodes: self.nodes,
            movetime: self
                .movetime
                .map(Settings::seconds)
                .transpose()
                .map_err(usage)?,
            seed: self.seed,
            hash: self.hash as usize,
            threads: self.threads as usize,
            host_safe: self.atsa_host_safe.unwrap_or(self.listen.is_some()),
            weights: (self.eval.parse()).map_err(|e| CliError::Usage(format!("--eval: {e}")))?,
        })
    }
}

/// The rule set ATSI's hosts judge by: ATSI is the protocol of the ATSA site, so a game
/// that has ATSA's rule set is played under it unless `--rules` says otherwise (a host of
/// this program says which it judges by, `setparam rules`).
pub const ATSI_RULES: &str = "atsa";

/// The rules `taikyoku engine` plays: `--rules`, else the game's [`ATSI_RULES`] where it has
/// them, else its default.
pub fn engine_rules(g: &GameArgs, rs: &Option<String>) -> Result<Rules, CliError> {
    let game = load_game(g)?;
    let name = (rs.clone())
        .or_else(|| game.rule_set(ATSI_RULES).map(|r| r.name.clone()))
        .unwrap_or_else(|| game.default_rules.clone());
    Ok(Rules::new(game, &name)?)
}

/// Runs `taikyoku engine`.
pub fn run(rules: Rules, args: &EngineArgs) -> Result<(), CliError> {
    let settings = args.settings()?;
    let rules = Arc::new(rules);
    match &args.listen {
        Some(addr) => {
            let addr = listen_addr(addr, args.allow_remote)?;
            let listener = TcpListener::bind(addr)
                .map_err(|e| CliError::Usage(format!("--listen {addr}: {e}")))?;
            serve::websocket(listener, rules, settings).map_err(|e| CliError::Usage(e.to_string()))
        }
        None => {
            serve::stdio(rules, settings).map_err(|e| CliError::Usage(format!("stdin/stdout: {e}")))
        }
    }
}

/// Resolves `--listen`'s address, refusing one off the loopback unless allowed.
fn listen_addr(addr: &str, allow_remote: bool) -> Result<SocketAddr, CliError> {
    let a = addr
        .to_socket_addrs()
        .map_err(|e| {
            CliError::Usage(format!(
                "--listen {addr}: {e} (expected ADDRESS:PORT, such as 127.0.0.1:8080)"
            ))
        })?
        .next()
        .ok_or_else(|| CliError::Usage(format!("--listen {addr}: no address")))?;
    if !a.ip().is_loopback() && !allow_remote {
        return Err(CliError::Usage(format!(
            "--listen {addr}: not a loopback address; anyone who can reach it could play the \
             engine (add --allow-remote to mean it)"
        )));
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        engine: EngineArgs,
    }

    fn settings(args: &[&str]) -> Settings {
        let cli = Cli::try_parse_from(std::iter::once("engine").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        cli.engine.settings().unwrap()
    }

    /// Issue 20, finding 15: only the ATSA site connects to --listen, so it keeps to what
    /// their host can judge unless told not to; on stdin/stdout it plays every legal move.
    #[test]
    fn host_safe_moves_are_the_default_with_listen_only() {
        assert!(!settings(&[]).host_safe);
        assert!(settings(&["--atsa-host-safe"]).host_safe);
        assert!(settings(&["--listen", "127.0.0.1:0"]).host_safe);
        assert!(!settings(&["--listen", "127.0.0.1:0", "--atsa-host-safe", "false"]).host_safe);
        assert!(!settings(&["--listen", "127.0.0.1:0", "--atsa-host-safe=false"]).host_safe);
    }

    #[test]
    fn taikyoku_engines_play_the_atsa_rules_unless_told() {
        let g = GameArgs::default();
        assert_eq!(engine_rules(&g, &None).unwrap().rule_set.name, ATSI_RULES);
        let asked = Some("wikipedia".to_string());
        assert_eq!(engine_rules(&g, &asked).unwrap().rule_set.name, "wikipedia");
        let sho = GameArgs {
            game: Some("sho".into()),
            ..GameArgs::default()
        };
        let r = engine_rules(&sho, &None).unwrap();
        assert_eq!(r.rule_set.name, r.game.default_rules);
    }
}

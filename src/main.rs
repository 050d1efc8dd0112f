//! The `taikyoku` binary: the command line (`cli`) and the terminal game (`tui`). The engine
//! is the library; nothing here decides a rule.

mod analysis;
mod atsi_engine;
mod cli;
mod engine_match;
mod text;
mod tui;

use clap::Parser;
use cli::Cli;

fn main() {
    let cli = Cli::parse();
    let result = cli::run(cli, tui::run);
    if let Err(e) = result {
        eprintln!("taikyoku: {e}");
        // 130: the shell's status for a command ended by Ctrl-C.
        let status = if matches!(e, cli::CliError::Interrupted(_)) {
            130
        } else {
            1
        };
        std::process::exit(status);
    }
}

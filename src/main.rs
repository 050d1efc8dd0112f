//! The `taikyoku` binary: parses the command line and runs it ([`taikyoku::cli`]); a failure
//! is printed on standard error with exit status 1, or 130 when Ctrl-C stopped it.

use clap::Parser;
use taikyoku::cli::{self, Cli, CliError};

fn main() {
    let cli = Cli::parse();
    let result = cli::run(cli, taikyoku::tui::run);
    if let Err(e) = result {
        eprintln!("taikyoku: {e}");
        // 130: the shell's status for a command ended by Ctrl-C.
        let status = if matches!(e, CliError::Interrupted(_)) {
            130
        } else {
            1
        };
        std::process::exit(status);
    }
}

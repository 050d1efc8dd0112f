//! The `taikyoku` binary: the library's command line, and the terminal game (which is the
//! only terminal code, so it lives here and not in the library).

mod tui;

use clap::Parser;
use taikyoku::cli::{self, Cli, CliError};

fn main() {
    let cli = Cli::parse();
    let result = cli::run(cli, tui::run);
    if let Err(CliError(msg)) = result {
        eprintln!("taikyoku: {msg}");
        std::process::exit(1);
    }
}

//! The `taikyoku` binary: the command line of the library, plus the terminal game.

use clap::Parser;
use taikyoku::cli::{self, Cli, CliError};

fn main() {
    let cli = Cli::parse();
    let result = cli::run(cli, |rules, pos, _ascii| {
        println!("{}", cli::board_text(&rules, &pos));
        Ok::<(), CliError>(())
    });
    if let Err(CliError(msg)) = result {
        eprintln!("taikyoku: {msg}");
        std::process::exit(1);
    }
}

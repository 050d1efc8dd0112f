//! The `taikyoku` binary: parses the command line and runs it ([`taikyoku::cli`]); a failure
//! is printed on standard error with exit status 1, or 130 when Ctrl-C stopped it.

use clap::Parser;
use taikyoku::cli::{self, Cli, CliError, shorten_long_words};

fn main() {
    let cli = Cli::try_parse().unwrap_or_else(|e| {
        // clap quotes the argument it refuses: a huge one is shortened (else printed as is).
        // (Help and the version are not errors: printed as clap prints them.)
        let text = e.render().to_string();
        if !e.use_stderr() || text.len() <= 2000 {
            e.exit();
        }
        eprint!("{}", shorten_long_words(&text));
        std::process::exit(e.exit_code());
    });
    let result = cli::run(cli, taikyoku::tui::run);
    if let Err(e) = result {
        eprintln!("taikyoku: {}", shorten_long_words(&e.to_string()));
        // 130: the shell's status for a command ended by Ctrl-C.
        let status = if matches!(e, CliError::Interrupted(_)) {
            130
        } else {
            1
        };
        std::process::exit(status);
    }
}

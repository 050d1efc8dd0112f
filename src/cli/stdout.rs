//! Results on standard output, a line at a time.

use super::error::CliError;
use std::io::Write;

/// Prints a line of a command's result.
pub fn out(s: &str) -> Result<(), CliError> {
    let mut o = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth reporting.
    match writeln!(o, "{s}") {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => r.map_err(CliError::from),
    }
}

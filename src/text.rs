//! Text helpers the command line and the terminal game share.

/// "1 square", "3 squares".
pub fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

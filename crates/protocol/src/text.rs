//! Text helpers of the protocol's messages to people.

/// "1 game", "3 moves".
pub(crate) fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

//! The command of a scripted ATSI engine (`crates/testkit/data/fake_engine.sh`, run with `sh`), shared
//! by the host's unit tests and `tests/host.rs`.

/// It answers the handshake as `name`; on its k-th turn as Black it runs the shell snippet
/// `black[k]` (as White `white[k]`), such as `echo 'move 19z 19y'` or `exit 3`; past the last
/// one it hangs.
pub fn fake_engine(name: &str, black: &[impl AsRef<str>], white: &[impl AsRef<str>]) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/data/fake_engine.sh");
    let mut words = vec!["sh".to_string(), quote(script), quote(name)];
    words.extend(black.iter().map(|s| quote(s.as_ref())));
    words.push("--".into());
    words.extend(white.iter().map(|s| quote(s.as_ref())));
    words.join(" ")
}

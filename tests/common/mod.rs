//! Helpers for the binary's tests: the shared ones ([`taikyoku_testkit`]) and running the
//! `taikyoku` binary.
#![allow(dead_code, unused_imports)]

pub use taikyoku_testkit::*;

/// Runs the `taikyoku` binary.
pub fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_taikyoku"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Runs a command that must succeed, and returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Runs a command that must fail cleanly (exit status 1, nothing on standard output, no
/// panic), and returns its standard error.
pub fn fails(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "{args:?} printed {}", stdout(&o));
    stderr(&o)
}

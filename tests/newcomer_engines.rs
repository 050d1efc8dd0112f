//! Engines and rule sets (issue 20, finding 15): a host of this program tells an engine of
//! this program the rule set it judges by, and refuses one that cannot play it before the
//! first move.

mod common;

use common::{ok, run, stderr, stdout};

fn engine(args: &str) -> String {
    format!("'{}' {args}", env!("CARGO_BIN_EXE_taikyoku"))
}

#[test]
fn a_match_under_other_rules_than_the_engines_default_is_played_under_the_hosts() {
    let dir = tempfile::tempdir().unwrap();
    // The engines start under umebayashi; the host judges wikipedia and tells them so.
    let out = dir.path().to_str().unwrap();
    let a = engine("--rules umebayashi engine --policy random --seed 1");
    let b = engine("--rules umebayashi engine --policy random --seed 2");
    let o = run(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "1",
        "--time",
        "30+1",
        "--max-moves",
        "16",
        "--out",
        out,
    ]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let rec = ok(&["check", dir.path().join("game-001.toml").to_str().unwrap()]);
    assert!(rec.contains("rules: wikipedia"), "{rec}");
    assert!(
        rec.contains("moves: 16"),
        "no forfeit: {rec}\n{}",
        stdout(&o)
    );
    let log = std::fs::read_to_string(dir.path().join("engines.log")).unwrap();
    assert!(log.contains("> setparam rules wikipedia"), "{log}");
    // And the default engine under --rules atsa, the finding's own command.
    let o = run(&[
        "match",
        "--rules",
        "atsa",
        "--engine",
        &engine("engine --policy random"),
        "--engine",
        &engine("engine --policy random --seed 3"),
        "--games",
        "1",
        "--time",
        "30+1",
        "--max-moves",
        "8",
        "--out",
        dir.path().join("atsa").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(!stdout(&o).contains("forfeit"), "{}", stdout(&o));
}

#[test]
fn an_engine_that_cannot_play_the_hosts_rule_set_is_refused_before_the_first_move() {
    let dir = tempfile::tempdir().unwrap();
    // A Taikyoku engine in a Sho match: its rule sets are Taikyoku's.
    let o = run(&[
        "--game",
        "sho",
        "match",
        "--engine",
        &engine("engine --policy random"),
        "--engine",
        &engine("--game sho engine --policy random"),
        "--games",
        "1",
        "--time",
        "30+1",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let said = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        said.contains("plays the rule sets atsa, umebayashi, wikipedia, not standard"),
        "{said}"
    );
    // Refused before any game is played: the match stops there.
    assert!(!o.status.success(), "{said}");
    assert!(!dir.path().join("game-001.toml").exists());
}

#[test]
fn the_engine_names_its_rule_sets_and_takes_another_between_games() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_taikyoku"))
        .arg("engine")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"atsiinit v0\nidentify\nsetparam rules umebayashi\nsetparam rules chess\nquit\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("atsa rules"),
        "the ATSA rules by default: {text}"
    );
    assert!(
        text.contains(r#"param rules enum["atsa"|"umebayashi"|"wikipedia"]"#),
        "{text}"
    );
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("log error"))
        .collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(errors[0].contains("\"chess\" is not a rule set"), "{text}");
}

//! The command line as a new player trips over it (issue 20, findings 9 and 14).

mod common;

use common::{fails, ok, run, stderr, stdout};

#[test]
fn finding_9_a_record_is_found_by_the_name_it_was_saved_under() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let file = games.join("first game.toml");
    ok(&["record", "new", file.to_str().unwrap()]);
    ok(&["record", "add", file.to_str().unwrap(), "19.26-19.25"]);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_taikyoku"))
        .env("TAIKYOKU_DATA_DIR", dir.path())
        .args(["check", "first game"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("moves: 1"), "{}", stdout(&o));
}

#[test]
fn finding_14_a_shared_label_shows_every_kind_it_stands_for() {
    let out = ok(&["piece", "獅"]);
    assert!(out.contains("stands for"), "{out}");
    assert!(out.contains("Lion (LN)"), "{out}");
    let j: serde_json::Value = serde_json::from_str(&ok(&["piece", "獅", "--json"])).unwrap();
    assert!(j.as_array().is_some_and(|a| a.len() > 1), "{j}");
}

#[test]
fn finding_14_an_off_board_square_is_called_off_the_board() {
    let e = fails(&["piece", "LN", "--at", "99.1"]);
    assert!(e.contains("off the 36×36 board"), "{e}");
    assert!(!e.contains("expected"), "{e}");
}

#[test]
fn finding_14_a_file_that_is_not_toml_is_not_a_game_record() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("passwd");
    std::fs::write(&f, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let e = fails(&["moves", "--record", f.to_str().unwrap()]);
    assert!(e.contains("not a game record"), "{e}");
    assert!(e.contains(":1:"), "where: {e}");
}

#[test]
fn finding_14_depth_0_is_refused() {
    let o = run(&["bestmove", "--depth", "0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--depth"), "{}", stderr(&o));
}

#[test]
fn finding_14_the_rule_sets_speak_of_their_sources_not_seeds() {
    let out = ok(&["rules"]);
    assert!(!out.contains("seed"), "{out}");
    assert!(!ok(&["--game", "koshogi", "rules"]).contains("seed"));
}

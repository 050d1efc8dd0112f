//! The command line, run as a user runs it.

mod common;

use common::{fails, ok, run, stderr};
use std::path::Path;

#[test]
fn every_command_has_help() {
    for cmd in [
        "play", "piece", "pieces", "moves", "perft", "rules", "board",
    ] {
        let out = ok(&[cmd, "--help"]);
        assert!(out.contains("Usage: taikyoku"), "{cmd}: {out}");
        assert!(out.contains("--rules") || cmd == "rules", "{cmd}");
    }
    assert!(ok(&["--help"]).contains("perft"));
}

#[test]
fn piece_card_and_json() {
    let card = ok(&["piece", "lion"]);
    for want in [
        "獅子",
        "Lion (LN)",
        "Movement (Betza): KNAD(cK-K)(K-bK)",
        "Promotes to:",
        "Furious Fiend",
        "☖",
        "☆",
    ] {
        assert!(card.contains(want), "missing {want:?} in\n{card}");
    }
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["piece", "Ram's head soldier", "--json"])).unwrap();
    assert_eq!(j["code"], "HE");
    assert_eq!(j["kanji"], "羊兵");
    assert_eq!(j["at"], serde_json::json!([17, 17]));
    assert_eq!(j["betza"], "bWfB");
    assert_eq!(j["promotes_to"], "TGS");
    // One step back, and the forward diagonals to the edge: 18 + 17 squares.
    assert_eq!(j["destinations"].as_array().unwrap().len(), 1 + 18 + 17);
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "piece", "K", "--json", "--at", "0,0", "--rules", "atsa",
    ]))
    .unwrap();
    assert_eq!(
        j["destinations"],
        serde_json::json!([[1, 0], [2, 0], [0, 1], [1, 1], [0, 2], [2, 2]])
    );
    assert_eq!(j["promotes_to"], serde_json::Value::Null);
    // The kanji and an alias work as names.
    assert!(ok(&["piece", "麒麟"]).contains("Kirin"));
    let e = fails(&["piece", "lyon"]);
    assert!(
        e.contains("no piece is called \"lyon\"") && e.contains("Lion (LN)"),
        "{e}"
    );
    let e = fails(&["piece", "K", "--json", "--at", "40,1"]);
    assert!(e.contains("off the"), "{e}");
}

#[test]
fn moves_json_and_text() {
    let j: serde_json::Value = serde_json::from_str(&ok(&["moves", "--json"])).unwrap();
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 265);
    let m = &moves[0];
    for key in ["from", "to", "path", "captures", "promotes", "notation"] {
        assert!(m.get(key).is_some(), "{key}");
    }
    let text = ok(&["moves", "--rules", "atsa"]);
    assert!(text.trim_end().ends_with("488 moves for black"), "{text}");
    let e = fails(&["moves", "--rules", "nonesuch"]);
    assert!(
        e.contains("unknown rule set \"nonesuch\"") && e.contains("wikipedia"),
        "{e}"
    );
}

#[test]
fn perft_prints_the_count_last() {
    assert_eq!(ok(&["perft", "2"]).trim(), "70201");
    let divided = ok(&["perft", "2", "--divide", "--rules", "umebayashi"]);
    assert_eq!(divided.lines().last().unwrap(), "88672");
    assert_eq!(divided.lines().count(), 301 + 1);
}

#[test]
fn positions_round_trip_through_the_command_line() {
    let out = ok(&[
        "moves",
        "--position-out",
        "--after",
        "P19.26-19.25",
        "--after",
        "P18.11-18.12",
    ]);
    let pos = out.lines().next().unwrap().to_string();
    assert!(pos.ends_with(" b 2"), "{pos}");
    let again = ok(&["moves", "--position-out", "--position", &pos]);
    assert_eq!(again.lines().next().unwrap(), pos);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pos.json");
    std::fs::write(
        &file,
        r#"{"to_move": "black", "pieces": [{"piece": "King", "side": "black", "at": [0, 0]}, {"piece": "king", "side": "white", "at": [35, 35]}]}"#,
    )
    .unwrap();
    let out = ok(&["moves", "--position", file.to_str().unwrap()]);
    assert!(out.trim_end().ends_with("6 moves for black"), "{out}");
    std::fs::write(
        &file,
        "{\"to_move\": \"black\",\n\"pieces\": [{\"piece\": \"Kong\"}]}",
    )
    .unwrap();
    let e = fails(&["moves", "--position", file.to_str().unwrap()]);
    assert!(e.contains("pos.json:2:"), "{e}");
    let e = fails(&["moves", "--position", "l,wt/3 b"]);
    assert!(e.contains("rows"), "{e}");
}

/// `--time` gives every side a clock (the computer's too); one that is not a time control is
/// refused before the game opens, saying what is expected.
#[test]
fn a_bad_clock_is_refused() {
    let o = run(&["play", "--white", "computer", "--time", "0+1"]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    let e = stderr(&o);
    assert!(
        e.contains("time control \"0+1\"") && e.contains("BASE+INC"),
        "{e}"
    );
}

#[test]
fn rules_lists_the_rule_sets_and_their_differences() {
    let out = ok(&["rules"]);
    for want in [
        "wikipedia (default)",
        "umebayashi",
        "atsa",
        "(VB)",
        "(FR)",
        "(LN)",
    ] {
        assert!(out.contains(want), "missing {want} in {out}");
    }
    let one = ok(&["rules", "umebayashi"]);
    assert!(
        one.contains("umebayashi") && !one.contains("\natsa"),
        "{one}"
    );
    assert!(fails(&["rules", "nope"]).contains("unknown rule set"));
}

/// A copy of the data directory with one file replaced, removed when the guard is dropped
/// (even when an assertion fails on the way).
fn data_with(file: &str, edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/games"));
    let dir = tempfile::Builder::new()
        .prefix("taikyoku-data-")
        .tempdir()
        .unwrap();
    for f in ["rules/taikyoku.toml", "pieces.toml", "setups/taikyoku.toml"] {
        let to = dir.path().join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        std::fs::write(&to, if f == file { edit(&text) } else { text }).unwrap();
    }
    dir
}

/// The copies of the data a test edits do not outlive it (they used to pile up in /tmp).
#[test]
fn edited_data_copies_are_removed_after_use() {
    let dir = data_with("pieces.toml", |t| t.to_string());
    let path = dir.path().to_path_buf();
    assert!(path.join("rules/taikyoku.toml").is_file());
    ok(&["--data", path.to_str().unwrap(), "perft", "1"]);
    drop(dir);
    assert!(!path.exists(), "{} left behind", path.display());
}

#[test]
fn malformed_data_is_reported_with_file_line_and_column() {
    let dir = data_with("pieces.toml", |t| {
        t.replacen("betza = \"fW\"", "betza = \"fWq\"", 1)
    });
    let e = fails(&["--data", dir.path().to_str().unwrap(), "perft", "1"]);
    assert!(
        e.contains("pieces.toml:") && e.contains("unsupported modifier 'q'"),
        "{e}"
    );
    let line = e.split(':').nth(2).unwrap();
    assert!(line.parse::<usize>().is_ok(), "{e}");
    let dir = data_with("setups/taikyoku.toml", |t| t.replacen("GB ", "XX ", 1));
    let e = fails(&["--data", dir.path().to_str().unwrap(), "perft", "1"]);
    assert!(
        e.contains("taikyoku.toml:16:41:") && e.contains("unknown piece code \"XX\""),
        "{e}"
    );
    let dir = data_with("setups/taikyoku.toml", |t| t.replacen("GB ", ".  ", 1));
    let e = fails(&["--data", dir.path().to_str().unwrap(), "perft", "1"]);
    assert!(
        e.contains("Go Between (GB) per side, but the catalogue says count = 2"),
        "{e}"
    );
    let dir = data_with("rules/taikyoku.toml", |t| {
        t.replace("trigger = \"capture\"", "trigger = \"sometimes\"")
    });
    let e = fails(&["--data", dir.path().to_str().unwrap(), "perft", "1"]);
    assert!(e.contains("unknown promotion trigger"), "{e}");
    let dir = data_with("pieces.toml", |t| {
        t.replacen("[piece.rules.atsa]", "[piece.rules.atsaa]", 1)
    });
    let e = fails(&["--data", dir.path().to_str().unwrap(), "perft", "1"]);
    assert!(
        e.contains("[piece.rules.atsaa] is not read by any rule set"),
        "{e}"
    );
    let e = fails(&["--data", "/nonexistent", "perft", "1"]);
    assert!(e.contains("cannot read"), "{e}");
}

#[test]
fn bad_settings_are_reported_before_the_terminal_is_touched() {
    let e = fails(&["play", "--theme", "nope"]);
    assert_eq!(
        e.trim(),
        "taikyoku: unknown theme \"nope\"; the themes are: default, high-contrast, colour-blind"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keys.toml"), "undo = \"Ctrl+Nope\"\n").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_taikyoku"))
        .arg("play")
        .env("TAIKYOKU_CONFIG_DIR", dir.path())
        .output()
        .unwrap();
    let e = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        e.starts_with(&format!(
            "taikyoku: {}: unknown key \"Ctrl+Nope\"",
            dir.path().join("keys.toml").display()
        )),
        "{e}"
    );
}

/// Issue 7 point 19: every option is checked the same way wherever it is given.
#[test]
fn options_are_validated_everywhere() {
    let e = fails(&["--rules", "foo", "rules"]);
    assert!(
        e.contains("unknown rule set \"foo\"") && e.contains("wikipedia"),
        "{e}"
    );
    let e = fails(&["rules", "foo"]);
    assert!(e.contains("unknown rule set \"foo\""), "{e}");
    let e = fails(&["--rules", "atsa", "rules", "umebayashi"]);
    assert!(e.contains("disagree"), "{e}");
    assert!(ok(&["--rules", "atsa", "rules"]).contains("atsa"));
    for args in [
        &["piece", "lion", "--at", "40,1"][..],
        &["piece", "lion", "--at", "40,1", "--json"],
        &["piece", "lion", "--at", "37.1"],
        &["piece", "lion", "--at", "x"],
    ] {
        let e = fails(args);
        assert!(e.contains("--at"), "{args:?}: {e}");
    }
    // file.rank as well as x,y; without --json the card counts the squares reached.
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["piece", "lion", "--at", "36.36", "--json"])).unwrap();
    assert_eq!(j["at"], serde_json::json!([0, 0]));
    let card = ok(&["piece", "king", "--at", "36.36"]);
    assert!(
        card.contains("on 36.36 (0,0), it reaches 6 squares."),
        "{card}"
    );
    let card = ok(&["piece", "pawn", "--at", "0,0"]);
    assert!(card.contains("it reaches 1 square."), "{card}");
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("g.toml");
    ok(&["record", "new", rec.to_str().unwrap()]);
    for cmd in ["check", "replay"] {
        let e = fails(&["--rules", "atsa", cmd, rec.to_str().unwrap()]);
        assert!(e.contains("--rules atsa cannot be used"), "{cmd}: {e}");
    }
    let e = fails(&["--rules", "atsa", "play", "--load", rec.to_str().unwrap()]);
    assert!(e.contains("--rules atsa cannot be used"), "{e}");
}

/// Issue 7 point 20: the rules' source abbreviations are explained; moves --json tells the
/// mover's own pieces a move removes apart from the opponent's.
#[test]
fn rules_explain_sources_and_moves_tell_own_captures_apart() {
    let r = ok(&["rules"]);
    for abbr in ["W24 ", "W25 ", "U97 ", "ATSA "] {
        assert!(r.contains(&format!("  {abbr}")), "{abbr} in {r}");
    }
    let dir = tempfile::tempdir().unwrap();
    let pos = dir.path().join("p.json");
    std::fs::write(
        &pos,
        r#"{"to_move": "black", "pieces": [
            {"piece": "GG", "side": "black", "at": [10, 10]},
            {"piece": "P", "side": "black", "at": [10, 12]},
            {"piece": "P", "side": "white", "at": [10, 14]},
            {"piece": "K", "side": "black", "at": [0, 0]},
            {"piece": "K", "side": "white", "at": [35, 35]}]}"#,
    )
    .unwrap();
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "moves",
        "--json",
        "--position",
        pos.to_str().unwrap(),
    ]))
    .unwrap();
    let far = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            m["from"] == serde_json::json!([10, 10]) && m["to"] == serde_json::json!([10, 14])
        })
        .expect("the great general flies to the enemy pawn");
    assert_eq!(far["captures"].as_array().unwrap().len(), 2, "{far}");
    assert_eq!(far["own"], serde_json::json!([[10, 12]]), "{far}");
}

/// Issue 20 item 17: `check` says what each side took, by kind, what is left and the
/// material balance; a range capture over the mover's own pieces counts them apart.
#[test]
fn check_counts_what_was_taken_and_the_balance() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("g.toml");
    let f = rec.to_str().unwrap();
    ok(&["--game", "sho", "record", "new", f]);
    ok(&[
        "record", "add", f, "7.7-7.6", "3.3-3.4", "8.8x2.2+", "3.1x2.2",
    ]);
    let out = ok(&["check", f]);
    for want in [
        "taken by black: 1 Bishop\n",
        "taken by white: 1 Dragon horse\n",
        "pieces left: black 20, white 20\n",
        "material: even (by the computer's piece values)\n",
    ] {
        assert!(out.contains(want), "{want:?} in\n{out}");
    }
    let big = dir.path().join("t.toml");
    let f = big.to_str().unwrap();
    ok(&["record", "new", f]);
    ok(&["record", "add", f, "BG32.34-23.25"]);
    let out = ok(&["check", f]);
    for want in [
        "taken by black: none (and 8 of its own)\n",
        "taken by white: none\n",
        "pieces left: black 394, white 402\n",
        "material: white +",
    ] {
        assert!(out.contains(want), "{want:?} in\n{out}");
    }
}

/// Issue 20 item 18: `analyse` scores every move of a short real game, names the better move
/// where one lost more than the margin, prints JSON, and with --write puts the scores into
/// the record as comments that every reader takes in its stride.
#[test]
fn analyse_scores_a_short_game_and_names_the_blunder() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("g.toml");
    let f = rec.to_str().unwrap();
    ok(&["--game", "sho", "record", "new", f]);
    // White does not take back the bishop.
    ok(&[
        "record", "add", f, "7.7-7.6", "3.3-3.4", "8.8x2.2+", "9.3-9.4",
    ]);
    let before = std::fs::read_to_string(&rec).unwrap();
    let text = ok(&["analyse", f, "--depth", "3"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[0].contains("4 moves analysed"), "{text}");
    assert!(lines[4].contains("4. △ P9.3-9.4"), "{text}");
    assert!(lines[4].contains("better S3.1x2.2"), "{text}");
    assert!(lines[1..4].iter().all(|l| !l.contains("better")), "{text}");
    assert!(lines[5].starts_with("worst: 4. P9.3-9.4 (loses "), "{text}");
    assert_eq!(
        std::fs::read_to_string(&rec).unwrap(),
        before,
        "not written unasked"
    );
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["analyse", f, "--depth", "2", "--json"])).unwrap();
    assert_eq!(j["moves"].as_array().unwrap().len(), 4);
    assert_eq!(j["moves"][3]["better"], "S3.1x2.2");
    assert!(j["moves"][3]["loss"].as_i64().unwrap() > 500, "{j}");
    assert_eq!(j["worst"], serde_json::json!([4]));
    ok(&["analyse", f, "--depth", "2", "--write"]);
    let written = std::fs::read_to_string(&rec).unwrap();
    assert!(written.contains("\"P7.7-7.6\", # eval "), "{written}");
    assert!(written.contains("\"P9.3-9.4\", # eval +"), "{written}");
    assert!(written.contains("better S3.1x2.2"), "{written}");
    // Still a record, the same game; a plain TOML reader sees the same four moves.
    assert!(ok(&["check", f]).contains("moves: 4"));
    let plain: toml::Table = toml::from_str(&written).unwrap();
    assert_eq!(plain["moves"].as_array().unwrap().len(), 4);
    for (bad, says) in [
        (&["--depth", "0"][..], "0 is not in 1..=64"),
        (&["--time", "0"], "expected seconds above 0"),
        (&["--margin", "nan"], "expected pawns"),
    ] {
        let mut args = vec!["analyse", f];
        args.extend_from_slice(bad);
        let o = run(&args);
        assert!(!o.status.success(), "{bad:?}");
        assert!(stderr(&o).contains(says), "{bad:?}: {}", stderr(&o));
    }
}

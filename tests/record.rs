//! Game records: round trips of random games, every kind of bad input, the commands that read
//! and write records (run as a user runs them), and autosave recovery.

mod common;

use common::{fails, listing, ok, run};
use std::fs;
use std::path::Path;
use taikyoku_core::notation::position_string;
use taikyoku_records::record::Record;
use taikyoku_records::store::{self, Overwrite};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn random_games_round_trip_under_every_rule_set() {
    for (i, name) in ["wikipedia", "umebayashi", "atsa"].into_iter().enumerate() {
        let r = common::rules(name);
        let (record, pos) = common::random_game(r, 1000 + i as u64, 300, false);
        let moves = record.moves();
        // The games exercise captures, promotion and multi-leg moves.
        assert!(
            moves.iter().filter(|m| m.contains('x')).count() > 20,
            "{name}"
        );
        assert!(moves.iter().any(|m| m.ends_with('+')), "{name}");
        assert!(
            moves.iter().any(|m| m.matches(['-', 'x']).count() > 1),
            "{name}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.toml");
        store::save(&path, &record, Overwrite::Never).unwrap();
        let back = Record::load(&path).unwrap();
        assert_eq!(back.to_toml(), fs::read_to_string(&path).unwrap(), "{name}");
        let replay = back.replay(&r.game).unwrap();
        assert!(replay.warnings.is_empty(), "{name}: {:?}", replay.warnings);
        let h = &replay.history;
        assert_eq!(h.point(), 300);
        assert_eq!(h.outcome(), None);
        assert_eq!(
            position_string(r, h.position()),
            position_string(r, &pos),
            "{name}"
        );
        assert_eq!(h.position(), &pos, "{name}");
        // The command line agrees.
        let out = ok(&["check", s(&path)]);
        assert!(out.contains("moves: 300\n"), "{out}");
        assert!(out.contains(&format!("position: {}\n", position_string(r, &pos))));
    }
}

#[test]
fn umebayashi_games_record_declined_promotions() {
    let r = common::rules("umebayashi");
    let (record, pos) = common::random_game(r, 1001, 300, false);
    assert!(record.moves().iter().any(|m| m.ends_with('=')));
    let replay = record.replay(&r.game).unwrap();
    assert_eq!(replay.history.position(), &pos);
}

/// A record of two moves in a temporary directory.
fn two_moves(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("g.toml");
    ok(&["record", "new", s(&path), "--black", "Alice"]);
    ok(&["record", "add", s(&path), "19.26-19.25", "18.11-18.12"]);
    path
}

/// Writes `text` as `name` beside `path` and returns the new path.
fn variant(path: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let p = path.with_file_name(name);
    fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn every_kind_of_bad_input_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_moves(dir.path());
    let text = fs::read_to_string(&path).unwrap();
    let line_of = |pat: &str| text.lines().position(|l| l.contains(pat)).unwrap() + 1;
    let (first_move, second_move) = (line_of("P19.26-19.25"), line_of("P18.11-18.12"));

    // Truncated in the moves, in a string, in the header.
    let f = variant(&path, "cut.toml", &text[..text.len() - 3]);
    let e = fails(&["check", &f]);
    assert!(
        e.starts_with(&format!("taikyoku: {f}:{second_move}:18: unclosed array")),
        "{e}"
    );
    let f = variant(&path, "cut.toml", &text[..text.find("P18.11").unwrap()]);
    let e = fails(&["check", &f]);
    assert!(
        e.starts_with(&format!("taikyoku: {f}:{second_move}:")),
        "{e}"
    );
    let f = variant(&path, "cut.toml", &text[..text.find("result").unwrap()]);
    let e = fails(&["check", &f]);
    assert!(
        e.contains("the record ends before its `moves`: is the file cut off?"),
        "{e}"
    );

    // Unknown format version, and not a record at all.
    let f = variant(&path, "v2.toml", text.replace("version = 1", "version = 2"));
    let e = fails(&["check", &f]);
    let v = line_of("version");
    assert!(
        e.contains(&format!(
            "{f}:{v}:11: record format version 2 is not supported"
        )),
        "{e}"
    );
    let f = variant(&path, "other.toml", "format = \"pgn\"\n");
    let e = fails(&["check", &f]);
    assert!(
        e.contains(&format!("{f}:1:10: format \"pgn\" is not")),
        "{e}"
    );

    // Unknown rule set.
    let f = variant(&path, "rs.toml", text.replace("\"wikipedia\"", "\"chu\""));
    let e = fails(&["check", &f]);
    assert!(
        e.contains(&format!(
            "{f}:{}:9: unknown rule set \"chu\"; the rule sets are: atsa, umebayashi, wikipedia",
            line_of("rules =")
        )),
        "{e}"
    );

    // A byte that is not UTF-8, in the name on `black = "Al…"`.
    let mut bytes = text.clone().into_bytes();
    let at = text.find("Alice").unwrap() + 2;
    bytes[at] = 0xff;
    let f = variant(&path, "bytes.toml", bytes);
    let e = fails(&["check", &f]);
    assert!(
        e.contains(&format!(
            "{f}:{}:12: the file is not valid UTF-8 here",
            line_of("black")
        )),
        "{e}"
    );

    // An illegal move and an unparsable one: number, text, line and why.
    let f = variant(
        &path,
        "ill.toml",
        text.replace("P18.11-18.12", "P18.11-18.14"),
    );
    let e = fails(&["check", &f]);
    assert_eq!(
        e,
        format!(
            "taikyoku: {f}:{second_move}:3: move 2 \"P18.11-18.14\": illegal: the Pawn on 18.11: it cannot reach 18.14\n"
        )
    );
    let f = variant(
        &path,
        "unp.toml",
        text.replace("P19.26-19.25", "P19.26~19.25"),
    );
    let e = fails(&["check", &f]);
    assert!(
        e.contains(&format!(
            "{f}:{first_move}:3: move 1 \"P19.26~19.25\": \"19.26~19.25\" is not a square"
        )),
        "{e}"
    );
    let f = variant(
        &path,
        "turn.toml",
        text.replace("P18.11-18.12", "P18.26-18.25"),
    );
    let e = fails(&["check", &f]);
    assert!(
        e.contains("move 2 \"P18.26-18.25\": the Pawn on 18.26 is black's, and it is white's turn"),
        "{e}"
    );

    // Fields: unknown, of the wrong type, a bad start position.
    let f = variant(
        &path,
        "field.toml",
        text.replace("white = ", "colour = \"red\"\nwhite = "),
    );
    let e = fails(&["check", &f]);
    assert!(
        e.contains(&format!(
            "{f}:{}:1: unknown field `colour`",
            line_of("white")
        )),
        "{e}"
    );
    let f = variant(
        &path,
        "type.toml",
        text.replace("moves = [", "moves = [\n  3,"),
    );
    let e = fails(&["check", &f]);
    assert!(
        e.contains(&format!("{f}:{first_move}:3: invalid type: integer `3`")),
        "{e}"
    );
    let f = variant(
        &path,
        "start.toml",
        text.replace("\"standard\"", "\"36/36 b\""),
    );
    let e = fails(&["check", &f]);
    assert!(
        e.contains(&format!(
            "{f}:{}:9: start: expected 36 rows",
            line_of("start")
        )),
        "{e}"
    );

    // Files that are not there or empty.
    let e = fails(&["check", &format!("{}/none.toml", s(dir.path()))]);
    assert!(e.contains("none.toml: No such file"), "{e}");
    let f = variant(&path, "empty.toml", "");
    let e = fails(&["check", &f]);
    assert!(e.contains(&format!("{f}:1:1: not a game record")), "{e}");
}

#[test]
fn a_record_cut_off_anywhere_does_not_load() {
    let r = common::rules("wikipedia");
    let (record, _) = common::random_game(r, 7, 12, false);
    let text = record.to_toml();
    assert!(text.is_ascii());
    // Only the final newline can go.
    for n in 0..text.len() - 1 {
        assert!(
            Record::parse("g", &text[..n]).is_err(),
            "cut at {n} loads:\n{}",
            &text[..n]
        );
    }
    assert!(Record::parse("g", &text[..text.len() - 1]).is_ok());
}

#[test]
fn record_add_is_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_moves(dir.path());
    let before = fs::read(&path).unwrap();
    // The first move is legal, the second is not: nothing is written.
    let e = fails(&["record", "add", s(&path), "19.25-19.24", "18.12-18.10"]);
    assert!(
        e.contains("move 4 \"18.12-18.10\": illegal: the Pawn on 18.12: it cannot reach 18.10; the record is unchanged"),
        "{e}"
    );
    assert_eq!(fs::read(&path).unwrap(), before);
    let e = fails(&["record", "add", s(&path), "nonsense"]);
    assert!(e.contains("move 3 \"nonsense\""), "{e}");
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(listing(dir.path()), ["g.toml"]);
    // A file that is not a record is refused and left as it was.
    let notes = dir.path().join("notes.toml");
    fs::write(&notes, "my = \"notes\"\n").unwrap();
    let e = fails(&["record", "add", s(&notes), "19.26-19.25"]);
    assert!(e.contains("not a game record"), "{e}");
    assert_eq!(fs::read_to_string(&notes).unwrap(), "my = \"notes\"\n");
    // Legal moves are written out in full and appended.
    let out = ok(&["record", "add", s(&path), "19.25-19.24", "P18.12-18.13"]);
    assert!(out.starts_with("P19.25-19.24\nP18.12-18.13\n"), "{out}");
    assert!(out.ends_with("4 moves; black to move\n"), "{out}");
    let rec = Record::load(&path).unwrap();
    assert_eq!(
        rec.moves(),
        [
            "P19.26-19.25",
            "P18.11-18.12",
            "P19.25-19.24",
            "P18.12-18.13"
        ]
    );
    assert_eq!(rec.black, "Alice");
    assert_eq!(listing(dir.path()), ["g.toml", "notes.toml"]);
}

#[test]
fn record_new_refuses_to_overwrite_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_moves(dir.path());
    let before = fs::read(&path).unwrap();
    let e = fails(&["record", "new", s(&path)]);
    assert!(
        e.contains("already exists (use --force to replace it)"),
        "{e}"
    );
    assert_eq!(fs::read(&path).unwrap(), before);
    ok(&[
        "record",
        "new",
        s(&path),
        "--force",
        "--rules",
        "atsa",
        "--white",
        "Bob",
    ]);
    let rec = Record::load(&path).unwrap();
    assert_eq!((rec.rules.as_str(), rec.white.as_str()), ("atsa", "Bob"));
    assert!(rec.moves().is_empty());
    // From a position: the start is its position string.
    let pos = ok(&["moves", "--after", "P19.26-19.25", "--position-out"]);
    let pos = pos.lines().next().unwrap();
    let from = dir.path().join("from.toml");
    ok(&["record", "new", s(&from), "--position", pos]);
    let rec = Record::load(&from).unwrap();
    assert_eq!(rec.start, pos);
    let out = ok(&["check", s(&from)]);
    assert!(
        out.contains("moves: 0\n") && out.contains("to move: white\n"),
        "{out}"
    );
    assert_eq!(listing(dir.path()), ["from.toml", "g.toml"]);
}

#[test]
fn check_moves_and_perft_take_the_position_a_record_reached() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_moves(dir.path());
    let out = ok(&["check", s(&path)]);
    let after = ok(&[
        "moves",
        "--after",
        "P19.26-19.25",
        "P18.11-18.12",
        "--position-out",
    ]);
    let pos = after.lines().next().unwrap();
    assert_eq!(
        out,
        format!(
            "{}: every move is legal\nrules: wikipedia\nmoves: 2\nresult: none (the game goes on)\nto move: black\nposition: {pos}\n",
            s(&path)
        )
    );
    assert_eq!(
        ok(&["moves", "--record", s(&path), "--position-out"]),
        after
    );
    assert_eq!(
        ok(&["perft", "2", "--record", s(&path)]),
        ok(&["perft", "2", "--position", pos])
    );
    let o = run(&["perft", "1", "--record", s(&path), "--position", pos]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["moves", "--record", s(&path), "--rules", "atsa"]);
    assert_eq!(o.status.code(), Some(2));
    // A resigned game: the result is shown and there are no moves.
    let r = common::rules("wikipedia");
    let mut rec = Record::load(&path).unwrap();
    let mut h = rec.replay(&r.game).unwrap().history;
    h.resign();
    rec.update(&h);
    store::save(&path, &rec, Overwrite::Record).unwrap();
    assert!(ok(&["check", s(&path)]).contains("result: white won (resignation)\n"));
    assert!(ok(&["moves", "--record", s(&path)]).contains("0 moves for black"));
}

#[test]
fn replays_warn_when_the_rules_data_or_the_result_differ() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_moves(dir.path());
    // The same data with a comment added: another fingerprint, the same game.
    let data = dir.path().join("data");
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/games"));
    for f in ["rules/taikyoku.toml", "pieces.toml", "setups/taikyoku.toml"] {
        fs::create_dir_all(data.join(f).parent().unwrap()).unwrap();
        let mut text = fs::read_to_string(root.join(f)).unwrap();
        if f == "pieces.toml" {
            text.push_str("# edited\n");
        }
        fs::write(data.join(f), text).unwrap();
    }
    let o = run(&["--data", s(&data), "check", s(&path)]);
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with(&format!(
            "taikyoku: warning: {}: the rules data has changed",
            s(&path)
        )),
        "{err}"
    );
    assert!(String::from_utf8(o.stdout).unwrap().contains("moves: 2\n"));
    // A result the moves do not give.
    let text = fs::read_to_string(&path).unwrap();
    let f = variant(
        &path,
        "won.toml",
        text.replace("result = \"\"", "result = \"black\"")
            .replace("termination = \"\"", "termination = \"royals captured\""),
    );
    let o = run(&["check", &f]);
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("the record says black won (the last royal piece was captured), but its moves give no result"),
        "{err}"
    );
}

#[test]
fn new_commands_have_help() {
    for cmd in [&["record", "new"][..], &["record", "add"], &["check"]] {
        let out = ok(&[cmd, &["--help"]].concat());
        assert!(out.contains("Usage: taikyoku"), "{cmd:?}: {out}");
    }
    assert!(ok(&["record", "new", "--help"]).contains("--force"));
    assert!(ok(&["moves", "--help"]).contains("--record <FILE>"));
    assert!(ok(&["perft", "--help"]).contains("--record <FILE>"));
    let o = run(&["record", "add", "x.toml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn an_autosaved_game_is_found_and_resumed() {
    let r = common::rules("atsa");
    let dir = tempfile::tempdir().unwrap();
    let auto = dir.path().join("autosave");
    let mut history = common::history(r);
    let mut record = Record::new(&history);
    let path = store::start_autosave(&auto, &record).unwrap();
    // The terminal game saves after every move.
    let mut rng = common::Rng::new(3);
    for _ in 0..40 {
        let moves = r.legal_moves(history.position());
        let m = moves[rng.below(moves.len())];
        history.play(&m).unwrap();
        record.update(&history);
        store::save(&path, &record, Overwrite::Record).unwrap();
        if record.outcome.is_some() {
            break;
        }
    }
    // A kill during a write leaves at most a hidden temporary file, which is passed over.
    fs::write(auto.join(".game.toml.999-0.tmp"), "format = \"taik").unwrap();
    let (found, resumed) = store::latest_unfinished(&auto).unwrap().unwrap();
    assert_eq!(found, path);
    assert_eq!(resumed.moves(), record.moves());
    let mut replay = resumed.replay(&r.game).unwrap();
    assert_eq!(replay.history.position(), history.position());
    // Once the game is over it is not offered again.
    let mut resumed = resumed;
    replay.history.resign();
    resumed.update(&replay.history);
    store::save(&found, &resumed, Overwrite::Record).unwrap();
    assert!(store::latest_unfinished(&auto).unwrap().is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Damaged records (any bytes replaced) load or fail with a message; they never panic.
    #[test]
    fn damaged_records_never_panic(at in 0usize..1000, len in 0usize..8, junk in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..8)) {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let r = common::rules("umebayashi");
        let text = TEXT.get_or_init(|| common::random_game(r, 11, 20, false).0.to_toml());
        let mut bytes = text.clone().into_bytes();
        let at = at % bytes.len();
        let end = (at + len).min(bytes.len());
        bytes.splice(at..end, junk);
        let Ok(text) = String::from_utf8(bytes) else {
            return Ok(());
        };
        if let Ok(record) = Record::parse("g", &text) {
            let _ = record.replay(&r.game);
        }
    }
}

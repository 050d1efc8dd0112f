//! Reliability (issue 9): bad or hostile input ends in bounded work and a clear error, and no
//! move a user saved is lost.

mod common;

use common::{fails, ok, run, stderr};

/// Runs a command that clap must refuse (exit status 2), and returns its standard error.
fn usage_error(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

#[test]
fn perft_depth_is_bounded() {
    for depth in ["30000", "4294967295", "33"] {
        let e = usage_error(&["perft", depth]);
        assert!(e.contains("0..=32"), "{e}");
    }
}

#[test]
fn commands_that_read_a_record_refuse_rules() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.toml");
    let f = file.to_str().unwrap();
    ok(&["record", "new", f]);
    for args in [
        vec!["check", f, "--rules", "atsa"],
        vec!["--rules", "atsa", "check", f],
        vec!["record", "add", f, "19.26-19.25", "--rules", "atsa"],
        vec!["--rules", "atsa", "record", "add", f, "19.26-19.25"],
        vec!["--rules", "atsa", "moves", "--record", f],
        vec!["perft", "1", "--rules", "atsa", "--record", f],
    ] {
        let o = run(&args);
        assert!(!o.status.success(), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains("cannot be used with"), "{args:?}: {e}");
    }
    // Nothing was added; without --rules they work, under the record's rule set.
    let out = ok(&["check", f]);
    assert!(
        out.contains("rules: wikipedia") && out.contains("moves: 0"),
        "{out}"
    );
}

/// A copy of the game data in a temporary directory, with `edit` applied to `pieces.toml`.
fn data_dir_with(edit: impl Fn(String) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/games"));
    for sub in ["rules", "setups"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::copy(
            root.join(sub).join("taikyoku.toml"),
            dir.path().join(sub).join("taikyoku.toml"),
        )
        .unwrap();
    }
    let pieces = std::fs::read_to_string(root.join("pieces.toml")).unwrap();
    std::fs::write(dir.path().join("pieces.toml"), edit(pieces)).unwrap();
    dir
}

#[test]
fn a_movement_the_generator_cannot_hold_fails_fast_with_its_place() {
    let lion = "betza = \"KNAD(cK-K)(K-bK)\"";
    for (movement, says) in [
        ("(K-K-K-K-K-K-K-K)", "at most 5 legs"),
        (&*format!("({}K)", "K-".repeat(40_000)), "at most 5 legs"),
        ("(N-lR)", "not along a line"),
        // 59 s and 14.3 GB for `moves` before: few directions, but riders after riders.
        ("(Q-Q-Q-Q)", "squares to visit"),
        ("(mcQ-mcQ-mcQ-mcQ)", "squares to visit"),
        ("(R-R-R-R)", "squares to visit"),
    ] {
        let data = data_dir_with(|p| {
            assert!(p.contains(lion));
            p.replacen(lion, &format!("betza = \"{movement}\""), 1)
        });
        let d = data.path().to_str().unwrap();
        let start = std::time::Instant::now();
        let e = fails(&["pieces", "--data", d]);
        assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
        assert!(
            e.contains("pieces.toml:") && e.contains("piece LN") && e.contains(says),
            "{e}"
        );
        let place = e.split("pieces.toml:").nth(1).unwrap();
        let mut nums = place.split(':').take(2).map(|n| n.parse::<usize>());
        assert!(nums.all(|n| n.is_ok_and(|n| n > 0)), "{e}");
    }
}

#[test]
fn a_huge_unknown_name_is_looked_up_in_linear_time() {
    use taikyoku_core::catalogue::Lookup;
    let r = common::rules("wikipedia");
    let cat = r.catalogue();
    // 16.8 s before (quadratic edit distances against every name); now a scan.
    let huge = "lionx".repeat(200_000);
    let start = std::time::Instant::now();
    assert_eq!(cat.lookup(&huge), Lookup::NotFound(vec![]));
    assert!(start.elapsed().as_secs() < 2, "took {:?}", start.elapsed());
    // Close matches still work for names of about their own length, and names inside.
    let Lookup::NotFound(close) = cat.lookup("lyon") else {
        panic!()
    };
    assert!(close.iter().any(|c| c == "Lion (LN)"), "{close:?}");
    let Lookup::NotFound(close) = cat.lookup("great lion hawk") else {
        panic!()
    };
    assert!(!close.is_empty(), "{close:?}");
    let e = fails(&["piece", &"q".repeat(10_000)]);
    assert!(e.len() < 300, "{e}");
}

#[test]
fn listing_moves_names_each_as_one_by_one() {
    // move_strings generates each piece's moves once; it must say exactly what move_string
    // says, including `=` where declining promotion is a choice.
    for rs in ["wikipedia", "umebayashi", "atsa"] {
        let r = common::rules(rs);
        for seed in 0..3 {
            let (_, pos) = common::random_game(r, seed, 40, false);
            let moves = r.legal_moves(&pos);
            let fast = taikyoku_core::notation::move_strings(r, &pos, &moves);
            let slow: Vec<String> = moves
                .iter()
                .map(|m| taikyoku_core::notation::move_string(r, &pos, m))
                .collect();
            assert_eq!(fast, slow, "{rs} seed {seed}");
        }
    }
}

/// The opening's position string with its first rank (White's back rank) replaced.
fn with_first_rank(rank: &str) -> String {
    let r = common::rules("wikipedia");
    let good = taikyoku_core::notation::position_string(r, &r.start_position());
    let (_, rest) = good.split_once('/').unwrap();
    format!("{rank}/{rest}")
}

fn position_error(text: &str) -> String {
    let r = common::rules("wikipedia");
    taikyoku_core::notation::load_position(r, text)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_counts_in_positions_say_what_and_where() {
    for (rank, says) in [
        (
            "2147483647,2147483647,38",
            "rank 1, cell 1 \"2147483647\": the row has more than 36",
        ),
        (
            "4294967297,k,35",
            "rank 1, cell 1 \"4294967297\": a run of empty squares",
        ),
        ("0,k,35", "rank 1, cell 1 \"0\": a run of empty squares"),
        ("+5,k,30", "rank 1, cell 1 \"+5\": unknown piece code \"5\""),
        ("-1,k,36", "rank 1, cell 1 \"-1\": unknown piece code"),
        ("k,35,1", "rank 1, cell 3 \"1\": the row has more than 36"),
        // A promoted flag on a kind nothing promotes to.
        (
            "+p,k,34",
            "rank 1, cell 1 \"+p\": a promoted Pawn (P): nothing promotes to it",
        ),
    ] {
        let e = position_error(&with_first_rank(rank));
        assert!(e.contains(says), "{rank}: {e}");
    }
    let good = with_first_rank("k,35");
    let e = position_error(&good.replace(" b 0", " b 4294967295"));
    assert!(e.contains("more than 1000000000"), "{e}");
    let e = position_error(&good.replace(" b 0", " b -1"));
    assert!(e.contains("digits only"), "{e}");
    // Without its side to move, a position string is an error, not a TSFEN read with the
    // colours swapped.
    let e = position_error(&good.replace(" b 0", " 12"));
    assert!(e.contains("expected the side to move (b or w)"), "{e}");
}

#[test]
fn bad_counts_in_tsfens_say_what_and_where() {
    let row = "36/".repeat(35);
    for (first, says) in [
        (
            "p0,35",
            "TSFEN row 1, cell 1 \"p0\": \"0\": a count must be",
        ),
        ("36,0", "TSFEN row 1, cell 2 \"0\": \"0\": a count must be"),
        ("p-1,35", "TSFEN row 1, cell 1 \"p-1\""),
        (
            "k,2147483647,2147483647",
            "TSFEN row 1, cell 2 \"2147483647\": the row has more",
        ),
        ("Pp,35", "mixes cases"),
    ] {
        let e = position_error(&format!("tsfen:{first}/{row} 0").replace("/ ", " "));
        assert!(e.contains(says), "{first}: {e}");
    }
}

#[test]
fn a_promoted_flag_needs_a_kind_something_promotes_to() {
    let r = common::rules("wikipedia");
    let json = |piece: &str| {
        format!(
            r#"{{"to_move": "black", "pieces": [{{"piece": "K", "side": "black", "at": [0, 0]}},
            {{"piece": "{piece}", "side": "white", "at": [5, 5], "promoted": true}}]}}"#
        )
    };
    for piece in ["P", "FL", "Pawn"] {
        let e = taikyoku_core::notation::parse_position_json(r, "p.json", &json(piece))
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("pieces[1]") && e.contains("nothing promotes to it"),
            "{e}"
        );
    }
    // A kind that pieces do promote to may carry the flag.
    let promoted_to = r.readings.iter().find_map(|x| x.promotes_to).unwrap();
    let code = &r.catalogue().kind(promoted_to).code;
    assert!(taikyoku_core::notation::parse_position_json(r, "p.json", &json(code)).is_ok());
}

#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Every file a command reads is refused when it is not a regular file or is too large:
/// nothing blocks on a FIFO or reads a device until memory runs out.
#[cfg(unix)]
#[test]
fn only_regular_files_of_a_sane_size_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("game.toml");
    mkfifo(&fifo);
    let big = dir.path().join("big.toml");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(taikyoku_core::files::MAX_FILE_BYTES + 1).unwrap();
    let (fifo, big) = (fifo.to_str().unwrap(), big.to_str().unwrap());
    let d = dir.path().to_str().unwrap();
    for (args, says) in [
        (vec!["check", "/dev/zero"], "/dev/zero: not a regular file"),
        (
            vec!["moves", "--record", "/dev/urandom"],
            "not a regular file",
        ),
        (vec!["check", fifo], "not a regular file"),
        (vec!["check", d], "a directory"),
        (vec!["check", big], "too large"),
        (
            vec!["record", "add", fifo, "19.26-19.25"],
            "not a regular file",
        ),
        (
            vec!["board", "--position", "/dev/zero"],
            "/dev/zero: not a regular file",
        ),
        (vec!["board", "--position", fifo], "not a regular file"),
        (
            vec!["board", "--position", "opening.json"],
            "opening.json: no such file",
        ),
    ] {
        let e = fails(&args);
        assert!(e.contains(says), "{args:?}: {e}");
    }
}

#[test]
fn a_position_file_that_is_not_utf8_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p.json");
    std::fs::write(&p, b"{\"to_move\": \"black\",\n \"pieces\": [\xff]}").unwrap();
    let e = fails(&["board", "--position", p.to_str().unwrap()]);
    assert!(
        e.contains("p.json:2:13: the file is not valid UTF-8"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn data_files_stay_in_the_data_directory_and_are_regular() {
    let rules_file = |data: &tempfile::TempDir| data.path().join("rules/taikyoku.toml");
    for pieces in ["/dev/zero", "../pieces.toml", "rules/../../x.toml"] {
        let data = data_dir_with(|p| p);
        let text = std::fs::read_to_string(rules_file(&data)).unwrap();
        let text = text.replace("pieces = \"pieces.toml\"", &format!("pieces = {pieces:?}"));
        std::fs::write(rules_file(&data), &text).unwrap();
        let e = fails(&["pieces", "--data", data.path().to_str().unwrap()]);
        assert!(
            e.contains("relative path inside the data directory"),
            "{pieces}: {e}"
        );
        // Reported where the game file names it.
        let line = 1 + text
            .lines()
            .position(|l| l.starts_with("pieces ="))
            .unwrap();
        let place = format!("rules/taikyoku.toml:{line}:10: {pieces:?}");
        assert!(e.contains(&place), "{e}");
    }
    let data = data_dir_with(|p| p);
    std::fs::remove_file(data.path().join("pieces.toml")).unwrap();
    mkfifo(&data.path().join("pieces.toml"));
    let e = fails(&["pieces", "--data", data.path().to_str().unwrap()]);
    assert!(
        e.contains("pieces.toml:1:1: cannot read: not a regular file"),
        "{e}"
    );
}

/// Two `record add` at once on one record: every move a command reported added is in the
/// file (before the lock, 144 of 150 racing pairs lost one).
#[test]
fn racing_writers_lose_no_move() {
    let dir = tempfile::tempdir().unwrap();
    for pair in 0..12 {
        let file = dir.path().join(format!("g{pair}.toml"));
        let f = file.to_str().unwrap();
        ok(&["record", "new", f]);
        let spawn = |mv: &str| {
            std::process::Command::new(env!("CARGO_BIN_EXE_taikyoku"))
                .args(["record", "add", f, mv])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        // Black's move then White's is a game; White's first is refused (not its turn).
        let (a, b) = (spawn("19.26-19.25"), spawn("18.11-18.12"));
        let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let added = outs.iter().filter(|o| o.status.success()).count();
        for o in outs.iter().filter(|o| !o.status.success()) {
            let e = String::from_utf8_lossy(&o.stderr);
            assert!(e.contains("it is black's turn"), "{e}");
        }
        let check = ok(&["check", f]);
        assert!(
            check.contains(&format!("moves: {added}")),
            "pair {pair}: {check}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_save_keeps_the_file_s_identity() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("games").join("g.toml");
    std::fs::create_dir(target.parent().unwrap()).unwrap();
    ok(&["record", "new", target.to_str().unwrap()]);
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path().join("link.toml");
    std::os::unix::fs::symlink("games/g.toml", &link).unwrap();
    // A temporary file of a writer killed before its rename.
    let stale = target.with_file_name(".g.toml.4194304-0.tmp");
    std::fs::write(&stale, "half a record").unwrap();
    ok(&["record", "add", link.to_str().unwrap(), "19.26-19.25"]);
    // The link is still a link, and the move went to its target, which stays private.
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(ok(&["check", target.to_str().unwrap()]).contains("moves: 1"));
    let mode = std::fs::metadata(&target).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert!(
        !stale.exists(),
        "the dead writer's temporary file is cleaned up"
    );
    let names: Vec<_> = std::fs::read_dir(target.parent().unwrap())
        .unwrap()
        .collect();
    assert_eq!(names.len(), 1);
}

/// Table sizes and thread counts out of range are refused by every command that takes them,
/// before anything is allocated (`--hash 1000000000` aborted, 18446744073709551615 panicked).
#[test]
fn hash_and_threads_out_of_range_are_refused() {
    for hash in ["1000000000", "18446744073709551615", "0", "4097"] {
        let e = usage_error(&["bestmove", "--depth", "1", "--hash", hash]);
        assert!(e.contains("1..=4096"), "{hash}: {e}");
        let e = usage_error(&["engine", "--hash", hash]);
        assert!(e.contains("1..=4096"), "{hash}: {e}");
    }
    for threads in ["0", "65", "10000"] {
        let e = usage_error(&["engine", "--threads", threads]);
        assert!(e.contains("1..=64"), "{threads}: {e}");
    }
}

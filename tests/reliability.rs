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
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
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
        ("(K-K-K-K-K-K-K-K)", "at most 4 legs"),
        (&*format!("({}K)", "K-".repeat(40_000)), "at most 4 legs"),
        ("(N-lR)", "not along a line"),
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
    use taikyoku::catalogue::Lookup;
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
            let fast = taikyoku::notation::move_strings(r, &pos, &moves);
            let slow: Vec<String> = moves
                .iter()
                .map(|m| taikyoku::notation::move_string(r, &pos, m))
                .collect();
            assert_eq!(fast, slow, "{rs} seed {seed}");
        }
    }
}

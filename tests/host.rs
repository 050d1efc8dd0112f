//! `taikyoku match` between scripted ATSI engines (`tests/data/fake_engine.sh`, run with `sh`):
//! each way an engine can lose, draws at the move limit, the records `taikyoku check` accepts
//! and the final table.

mod common;
use common::*;
use std::path::Path;

/// `n` pawn pushes for a side (Black's pawns stand on rank 26 = z, White's on rank 11 = k).
fn pushes(n: usize) -> (Vec<String>, Vec<String>) {
    let black = (1..=n).map(|f| format!("echo 'move {f}z {f}y'")).collect();
    let white = (1..=n).map(|f| format!("echo 'move {f}k {f}l'")).collect();
    (black, white)
}

/// An engine that pushes pawns as either side.
fn pusher(name: &str) -> String {
    let (b, w) = pushes(30);
    fake_engine(name, &b, &w)
}

/// An engine that pushes pawns `n` times, then does `then` on its next turn, as either side.
fn failing(name: &str, n: usize, then: &str) -> String {
    let (mut b, mut w) = pushes(n);
    b.push(then.into());
    w.push(then.into());
    fake_engine(name, &b, &w)
}

fn run_match(dir: &Path, engines: [&str; 2], extra: &[&str]) -> std::process::Output {
    let out = dir.to_str().unwrap();
    let mut args = vec![
        "match", "--rules", "atsa", "--engine", engines[0], "--engine", engines[1], "--out", out,
    ];
    args.extend(extra);
    run(&args)
}

fn check(file: &Path) -> String {
    ok(&["check", file.to_str().unwrap()])
}

/// Two games at once: the lines come as games end, the records and the table in order.
#[test]
fn a_crash_loses_every_game_whatever_the_colour() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_match(
        dir.path(),
        [&pusher("Steady"), &failing("Crashy", 2, "exit 3")],
        &["--games", "2", "--time", "5+0", "--concurrency", "2"],
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));
    assert!(
        text.contains("Game 1/2: Steady vs Crashy: 1-0 (White forfeits: its engine crashed (exited with status 3); 5 moves)"),
        "{text}"
    );
    assert!(
        text.contains("Game 2/2: Crashy vs Steady: 0-1 (Black forfeits: its engine crashed (exited with status 3); 4 moves)"),
        "{text}"
    );
    assert!(
        text.contains("Score of Steady vs Crashy: 2 - 0 - 0  [1.000] 2"),
        "{text}"
    );
    assert!(text.contains("Elo difference: inf +/- n/a"), "{text}");
    let table = text.lines().find(|l| l.starts_with("Steady ")).unwrap();
    assert_eq!(
        table.split_whitespace().collect::<Vec<_>>(),
        ["Steady", "2", "2", "0", "0", "2"]
    );
    let one = check(&dir.path().join("game-001.toml"));
    assert!(
        one.contains("moves: 5\nresult: black won (forfeit)"),
        "{one}"
    );
    let two = check(&dir.path().join("game-002.toml"));
    assert!(two.contains("result: white won (forfeit)"), "{two}");
    let record = std::fs::read_to_string(dir.path().join("game-001.toml")).unwrap();
    assert!(
        record.contains("black = \"Steady\"\nwhite = \"Crashy\""),
        "{record}"
    );
    let log = std::fs::read_to_string(dir.path().join("engines.log")).unwrap();
    assert!(
        log.contains("[game 2 black] # crashed: exited with status 3"),
        "{log}"
    );
}

#[test]
fn illegal_moves_garbage_hangs_and_resignations_lose_with_their_reason() {
    for (then, why, termination) in [
        (
            "echo 'move 30z 30w'",
            "White forfeits: its engine played an illegal move \"30z 30w\"",
            "forfeit",
        ),
        (
            "echo 'hello there'",
            "White forfeits: its engine sent garbage \"hello there\"",
            "forfeit",
        ),
        (
            "sleep 30",
            "White lost on time: sent no move within",
            "time forfeit",
        ),
        (
            "echo 'resign tired'",
            "White resigned (tired)",
            "resignation",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let bad = failing("Bad", 1, then);
        let o = run_match(
            dir.path(),
            [&pusher("Good"), &bad],
            &["--games", "1", "--time", "0.4+0.1"],
        );
        let text = stdout(&o);
        assert!(o.status.success(), "{text}{}", stderr(&o));
        assert!(
            text.contains(&format!("Game 1/1: Good vs Bad: 1-0 ({why}")),
            "{then}: {text}"
        );
        let rec = check(&dir.path().join("game-001.toml"));
        assert!(
            rec.contains(&format!("result: black won ({termination})")),
            "{rec}"
        );
    }
}

#[test]
fn a_game_still_going_at_the_move_limit_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_match(
        dir.path(),
        [&pusher("Same"), &pusher("Same")],
        &["--games", "1", "--time", "5+0", "--max-moves", "6"],
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));
    assert!(
        text.contains("Game 1/1: Same #1 vs Same #2: 1/2-1/2 (move limit of 6 moves; 6 moves)"),
        "{text}"
    );
    assert!(text.contains("Elo difference: 0.0 +/- 0.0"), "{text}");
    let rec = check(&dir.path().join("game-001.toml"));
    assert!(rec.contains("moves: 6\nresult: draw (move limit)"), "{rec}");
    // The records are not overwritten by another match.
    let o = run_match(
        dir.path(),
        [&pusher("Same"), &pusher("Same")],
        &["--games", "1", "--time", "5+0"],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
}

#[test]
fn bad_match_arguments_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_match(dir.path(), [&pusher("A"), &pusher("B")], &["--time", "1+x"]);
    assert!(stderr(&o).contains("expected BASE+INC"), "{}", stderr(&o));
    let out = dir.path().to_str().unwrap();
    let o = run(&["match", "--engine", "x", "--time", "1", "--out", out]);
    assert!(stderr(&o).contains("exactly two engines"), "{}", stderr(&o));
    // A folder that cannot be made (under a file) is named in the error.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let under = file.join("m");
    let o = run_match(&under, [&pusher("A"), &pusher("B")], &["--time", "1"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("cannot create the match folder") && err.contains("a-file"),
        "{err}"
    );
    // A folder that is there but nobody may write into, root included (Linux's /proc): found
    // before any game is played, and named.
    if cfg!(target_os = "linux") {
        let o = run_match(
            Path::new("/proc"),
            [&pusher("A"), &pusher("B")],
            &["--time", "1"],
        );
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert!(err.contains("cannot write /proc/engines.log"), "{err}");
        assert!(!stdout(&o).contains("Match:"), "no game was started");
    }
    let o = run_match(dir.path(), ["exit 0", &pusher("B")], &["--time", "1"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("engine 1 (`exit 0`) crashed"),
        "{}",
        stderr(&o)
    );
}

/// Our own engine, twice, playing random moves: every move it sends is legal here and the
/// records replay.
#[test]
fn a_match_between_two_random_taikyoku_engines_gives_records_check_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let engine = |seed: u32| {
        format!(
            "'{}' --rules atsa engine --policy random --seed {seed}",
            env!("CARGO_BIN_EXE_taikyoku")
        )
    };
    let o = run_match(
        dir.path(),
        [&engine(1), &engine(2)],
        &["--games", "2", "--time", "30+1", "--max-moves", "24"],
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));
    assert!(
        text.contains("Game 2/2: taikyoku #2 vs taikyoku #1: "),
        "{text}"
    );
    for n in ["game-001.toml", "game-002.toml"] {
        let rec = check(&dir.path().join(n));
        assert!(rec.contains("every move is legal"), "{rec}");
        assert!(
            rec.contains("moves: 24\nresult: draw (move limit)") || rec.contains("won"),
            "{rec}"
        );
    }
}

/// Whether process `pid` still runs.
fn alive(pid: &str) -> bool {
    std::process::Command::new("kill")
        .args(["-0", pid.trim()])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// Waits up to `secs` seconds for `done`.
fn within(secs: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while !done() {
        if std::time::Instant::now() > end {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

/// Ctrl-C reaches only the host (each engine has its own process group): the host kills the
/// engines, a hung one and what it started included, keeps the finished games' records and
/// exits at once with status 130.
#[test]
fn ctrl_c_stops_the_match_and_kills_hung_engines() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("hung.pid");
    // White hangs on its second move in a child of its own (which ignores end of input).
    let hang = format!("sleep 300 & echo $! > '{}'; wait", pid_file.display());
    let (b, _) = pushes(3);
    let hung = fake_engine("Hung", &b, &["echo 'move 1k 1l'".to_string(), hang]);
    let out = dir.path().join("m");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_taikyoku"))
        .args(["match", "--rules", "atsa", "--engine", &pusher("Good")])
        .args([
            "--engine", &hung, "--games", "2", "--time", "300+0", "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    assert!(within(20, || pid_file.exists()), "the engine never hung");
    let sleeper = std::fs::read_to_string(&pid_file).unwrap();
    assert!(alive(&sleeper));
    let host = child.id().to_string();
    std::process::Command::new("kill")
        .args(["-INT", &host])
        .status()
        .unwrap();
    assert!(
        within(5, || child.try_wait().unwrap().is_some()),
        "the match went on after Ctrl-C"
    );
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("match interrupted: the engines were stopped; 0 of 2 games finished"),
        "{}",
        stderr(&o)
    );
    assert!(within(2, || !alive(&sleeper)), "the hung engine lingers");
    assert!(!out.join("game-001.toml").exists(), "no half game saved");
}

/// An engine that never answers `atsiinit` is named in the error (after the handshake
/// timeout); one that answers it but never says `info` is named after its command, at once.
#[test]
fn a_silent_engine_is_named_and_one_without_info_is_named_after_its_command() {
    let dir = tempfile::tempdir().unwrap();
    let silent = "cat > /dev/null";
    let started = std::time::Instant::now();
    let o = run_match(
        dir.path(),
        [&pusher("Good"), silent],
        &["--time", "1", "--handshake-timeout", "0.3"],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("engine 2 (`cat > /dev/null`) sent no atsiok within"),
        "{err}"
    );
    assert!(err.contains("engines.log"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(8));
    // atsiok, then nothing to identify: named `sh` (its program) in the records.
    let script = dir.path().join("no-info.sh");
    let (b, w) = pushes(30);
    let pushes_of = |v: &[String]| v.join("; read -r c r; ");
    std::fs::write(
        &script,
        format!(
            "read -r c r; echo atsiok; read -r c r; read -r c me; read -r c r; read -r c r; \
             if [ \"$me\" = 0 ]; then {}; else read -r c r; {}; fi; \
             sleep 60\n",
            pushes_of(&b[..3]),
            pushes_of(&w[..3])
        ),
    )
    .unwrap();
    let quiet = format!("sh '{}'", script.display());
    let out = dir.path().join("info");
    let started = std::time::Instant::now();
    let o = run_match(
        &out,
        [&pusher("Good"), &quiet],
        &["--games", "1", "--time", "2+0", "--max-moves", "6"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Game 1/1: Good vs sh: 1/2-1/2"),
        "{}",
        stdout(&o)
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(8),
        "waited for an info that never came: {:?}",
        started.elapsed()
    );
}

/// A match engine that floods its output forfeits, and `engines.log` stays small (it grew
/// 952 MB in 5.8 s); what an engine starts in a session of its own dies with it (42 orphans
/// after one game).
#[test]
fn a_flooding_or_escaping_engine_is_contained() {
    let dir = tempfile::tempdir().unwrap();
    let flood = "while :; do echo 'log still thinking about it all'; done";
    let started = std::time::Instant::now();
    let o = run_match(
        dir.path(),
        [&pusher("Steady"), &failing("Flood", 1, flood)],
        &["--games", "2", "--time", "60+0"],
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));
    assert_eq!(
        text.matches("forfeits: its engine flooded its output")
            .count(),
        2,
        "{text}"
    );
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    let log = std::fs::metadata(dir.path().join("engines.log"))
        .unwrap()
        .len();
    assert!(log < 8 << 20, "engines.log: {log} bytes");

    let pids = dir.path().join("escaped.pids");
    let escape = format!(
        "(setsid sh -c 'sleep 300 & echo $! >> {}; wait' &); {}",
        pids.display(),
        pusher("Escaper")
    );
    let out = tempfile::tempdir().unwrap();
    let o = run_match(
        out.path(),
        [&pusher("Steady"), &escape],
        &["--games", "2", "--time", "5+0"],
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let pids = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(pids.lines().count(), 2, "{pids}");
    // Running, not a zombie: a dead process not yet reaped is no orphan.
    let running = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).is_ok_and(|s| {
            s.rsplit_once(')')
                .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
        })
    };
    for pid in pids.lines() {
        assert!(
            within(2, || !running(pid)),
            "the escaped sleeper {pid} outlived the match"
        );
    }
}

//! The host against scripted engines (`taikyoku_testkit::fake_engine`): a legal move checked,
//! each failure told apart, the handshake's fallbacks, tomatene's order, an engine that stops
//! reading, and no process outliving its engine.

use super::*;
use crate::atsi::Order;
use std::io::{self, Write};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use taikyoku_core::game::Game;
use taikyoku_core::geometry::Side;
use taikyoku_core::piece::Piece;
use taikyoku_core::rules::Rules;
use taikyoku_records::history::History;
use taikyoku_records::timecontrol::{Clocks, TimeControl};
use taikyoku_testkit::fake_engine;

fn atsa() -> Arc<Rules> {
    Arc::new(Rules::new(Game::builtin("taikyoku").unwrap(), "atsa").unwrap())
}

fn quick() -> TimeControl {
    "2+0.1".parse().unwrap()
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(2)
}

fn log() -> (EngineLog, Arc<Mutex<Vec<u8>>>) {
    #[derive(Clone)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let buf = Arc::new(Mutex::new(Vec::new()));
    (EngineLog::writer(Shared(buf.clone())), buf)
}

fn text(buf: &Arc<Mutex<Vec<u8>>>) -> String {
    String::from_utf8_lossy(&buf.lock().unwrap()).into_owned()
}

/// An engine playing Black's first move from the opening, as `black_turn` says.
fn first_move(black_turn: &str) -> (Result<EngineMove, HostError>, String) {
    let cmd = fake_engine("fake", &[black_turn], &[] as &[&str]);
    let (log, buf) = log();
    let rules = atsa();
    let h = History::new(rules.clone(), rules.start_position());
    let mut e = EngineProcess::spawn(&cmd, log).unwrap();
    assert_eq!(e.name(), "fake");
    e.start_game(&h, Side::Black, quick()).unwrap();
    let clocks = Clocks::new(quick());
    let r = e.request_move(&h, &clocks, Instant::now() + Duration::from_millis(700));
    drop(e);
    (r, text(&buf))
}

#[test]
fn a_legal_move_comes_back_checked_with_its_eval_and_log() {
    let (r, log) = first_move("echo 'log depth 1'; echo 'move 19z 19y'; echo 'eval 12.6'");
    let m = r.unwrap();
    assert_eq!(m.mv.from, atsa().dims().parse_square("19.26").unwrap());
    assert_eq!(m.mv.to, atsa().dims().parse_square("19.25").unwrap());
    assert_eq!((m.eval, m.info.as_deref()), (Some(13), Some("depth 1")));
    assert_eq!(m.order, Order::Spec);
    assert!(m.elapsed < Duration::from_millis(700));
    for line in [
        "> atsiinit v0",
        "< atsiok",
        "> identify",
        "> player 0",
        "> time 2 0.1",
        "> startgame initial",
        "< move 19z 19y",
        "> quit",
    ] {
        assert!(log.contains(line), "{line} in\n{log}");
    }
}

#[test]
fn each_failure_is_told_apart() {
    let (r, log) = first_move("echo 'move 19z 19w'");
    assert!(
        matches!(r, Err(HostError::Illegal { ref text, .. }) if text == "19z 19w"),
        "{r:?}"
    );
    assert!(log.contains("< move 19z 19w"));
    let (r, _) = first_move("exit 3");
    assert!(
        matches!(r, Err(HostError::Crashed(ref how)) if how.to_string() == "exited with status 3"),
        "{r:?}"
    );
    let (r, _) = first_move("echo 'hello there'");
    assert!(
        matches!(r, Err(HostError::Garbage { ref line, .. }) if line == "hello there"),
        "{r:?}"
    );
    let (r, _) = first_move("echo 'log error: opmove: no such move'");
    assert!(
        matches!(r, Err(HostError::Refused(ref why)) if why == "error: opmove: no such move"),
        "{r:?}"
    );
    let (r, _) = first_move("echo 'resign tired'");
    assert!(
        matches!(r, Err(HostError::Resigned(Some(ref why))) if why == "tired"),
        "{r:?}"
    );
    let started = Instant::now();
    let (r, log) = first_move("sleep 30");
    assert!(
        matches!(
            r,
            Err(HostError::TimedOut {
                waiting_for: "move",
                ..
            })
        ),
        "{r:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "killed, not waited for"
    );
    assert!(log.contains("no move within"), "{log}");
    let (r, log) = first_move("echo 'oops' >&2; echo 'move 19z 19y'");
    assert!(r.is_ok());
    assert!(
        log.contains("! oops"),
        "standard error goes to the log: {log}"
    );
}

#[test]
fn a_silent_or_missing_engine_fails_the_handshake() {
    let (log, _) = log();
    let r = EngineProcess::spawn("exit 0", log.clone());
    assert!(matches!(r, Err(HostError::Crashed(_))), "{:?}", r.err());
    let r = EngineProcess::spawn("/no/such/engine", log);
    // Its last words say why: the shell did not find it.
    assert!(
        matches!(r, Err(HostError::Crashed(ref how))
            if how.to_string().contains("status 127: ") && how.to_string().contains("/no/such/engine")),
        "{:?}",
        r.err()
    );
}

/// An engine that answers only the spec's `atsiinit v00` is offered it after a wait.
#[test]
fn the_spec_version_is_offered_when_v0_is_not_answered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("strict.sh");
    std::fs::write(
        &path,
        "while read -r c v; do case \"$c $v\" in 'atsiinit v00') echo atsiok;; 'identify ') echo 'info \"Strict one\"';; esac; done\n",
    )
    .unwrap();
    let (log, buf) = log();
    let e = EngineProcess::spawn(&format!("sh {}", path.display()), log).unwrap();
    assert_eq!(e.name(), "Strict one");
    assert!(text(&buf).contains("> atsiinit v00"));
    assert_eq!(
        engine::short_name("/usr/local/bin/tomatene --fast"),
        "tomatene"
    );
}

/// A lion taking two pieces, written in tomatene's order (steps after the destination),
/// is accepted and noted; the engine is then sent such moves in that order.
#[test]
fn tomatene_order_is_accepted_and_spoken_back() {
    let rules = atsa();
    let d = rules.dims();
    let sq = |s: &str| d.parse_square(s).unwrap();
    let mut pos = rules.empty_position();
    let piece = |code: &str, side| Piece {
        kind: rules.catalogue().by_code(code).unwrap(),
        side,
        promoted: false,
    };
    for (s, code, side) in [
        ("18.18", "LN", Side::Black),
        ("18.17", "P", Side::White),
        ("18.16", "P", Side::White),
        ("1.36", "K", Side::Black),
        ("36.1", "K", Side::White),
        ("30.2", "LN", Side::White),
        ("30.3", "P", Side::Black),
        ("30.4", "P", Side::Black),
    ] {
        rules.put(&mut pos, sq(s), Some(piece(code, side)));
    }
    let mut h = History::new(rules.clone(), pos);
    let cmd = fake_engine("tom", &["echo 'move 18r 18p 18q'"], &[] as &[&str]);
    let (log, buf) = log();
    let mut e = EngineProcess::spawn(&cmd, log).unwrap();
    e.start_game(&h, Side::Black, quick()).unwrap();
    assert!(text(&buf).contains("> startgame "), "a TSFEN");
    assert!(!text(&buf).contains("startgame initial"));
    let clocks = Clocks::new(quick());
    let m = e.request_move(&h, &clocks, soon()).unwrap();
    assert_eq!(m.order, Order::StepsAfter);
    assert_eq!((m.mv.from, m.mv.to), (sq("18.18"), sq("18.16")));
    assert_eq!(m.mv.path(), [sq("18.17")]);
    assert!(text(&buf).contains("tomatene's order"), "{}", text(&buf));
    h.play(&m.mv).unwrap();
    // White's lion takes both black pawns: told to the engine steps last.
    let reply = rules
        .moves_from(h.position(), sq("30.2"))
        .into_iter()
        .find(|m| m.to == sq("30.4") && m.path() == [sq("30.3")])
        .unwrap();
    h.play(&reply).unwrap();
    let _ = e.request_move(&h, &clocks, Instant::now() + Duration::from_millis(100));
    assert!(
        text(&buf).contains("> opmove 30b 30d 30c "),
        "{}",
        text(&buf)
    );
}

/// An engine that stops reading its input does not block the host: once its pipe is
/// full, a write gives up at its deadline and the engine loses.
#[test]
fn an_engine_that_stops_reading_loses_instead_of_blocking_the_host() {
    let rules = atsa();
    let mut h = History::new(rules.clone(), rules.start_position());
    for _ in 0..2 {
        let m = rules.legal_moves(h.position())[0];
        h.play(&m).unwrap();
    }
    // Its first turn (Black's, at startgame) sleeps: it reads nothing more.
    let cmd = fake_engine("deaf", &["sleep 300"], &[] as &[&str]);
    let (log, buf) = log();
    let mut e = EngineProcess::spawn(&cmd, log).unwrap();
    e.process.write_timeout = Duration::from_millis(200);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // Each start sends a TSFEN of about 3 KiB: the pipe's 64 KiB fill up.
        let r = (0..200).try_for_each(|_| e.start_game(&h, Side::Black, quick()));
        let _ = tx.send(r);
    });
    let r = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the host blocked on an engine that does not read");
    assert!(matches!(r, Err(HostError::NotReading(_))), "{r:?}");
    assert!(text(&buf).contains("its input was not read within"));
}

/// Whatever the engine started is killed with it: no orphans.
#[test]
fn dropping_the_engine_kills_its_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine("parent", &[] as &[&str], &[] as &[&str]);
    let pid_file = dir.path().join("child.pid");
    let cmd = format!("sleep 300 & echo $! > {}; {engine}", pid_file.display());
    let (log, _) = log();
    let e = EngineProcess::spawn(&cmd, log).unwrap();
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let alive = || {
        std::process::Command::new("kill")
            .args(["-0", pid.trim()])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    assert!(alive());
    drop(e);
    // The killed sleep is reaped by init; give it a moment.
    let end = Instant::now() + Duration::from_secs(2);
    while alive() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!alive(), "the engine's child outlived it");
}

/// An engine that floods its output with lines while it should move loses at once, and its
/// log stays small (952 MB in 5.8 s before).
#[test]
fn an_engine_that_floods_its_output_loses_and_its_log_stays_small() {
    let flood = "while :; do echo 'log thinking very hard about nothing at all'; done";
    let cmd = fake_engine("flood", &[flood], &[] as &[&str]);
    let (log, buf) = log();
    let rules = atsa();
    let h = History::new(rules.clone(), rules.start_position());
    let mut e = EngineProcess::spawn(&cmd, log).unwrap();
    e.start_game(&h, Side::Black, quick()).unwrap();
    let clocks = Clocks::new(quick());
    let asked = Instant::now();
    let r = e.request_move(&h, &clocks, Instant::now() + Duration::from_secs(20));
    assert!(matches!(r, Err(HostError::Flooded(_))), "{r:?}");
    assert!(
        asked.elapsed() < Duration::from_secs(15),
        "{:?}",
        asked.elapsed()
    );
    drop(e);
    let kept = buf.lock().unwrap().len();
    assert!(kept < 6 << 20, "{kept} bytes of log");
    assert!(text(&buf).contains("flooded"), "{}", &text(&buf)[..2000]);
}

/// The log keeps at most [`log::MAX_CONVERSATION`] bytes of an engine's lines, then says so.
#[test]
fn the_log_of_an_engine_s_lines_is_capped() {
    let (log, buf) = log();
    let engine = log.limited();
    let line = "x".repeat(1000);
    for _ in 0..(log::MAX_CONVERSATION / 1000 + 100) {
        engine.write('<', &line);
    }
    engine.note("a note is kept");
    let t = text(&buf);
    assert!(t.len() < log::MAX_CONVERSATION + 10_000, "{}", t.len());
    assert_eq!(t.matches("no more of its lines are logged").count(), 1);
    assert!(t.ends_with("a note is kept\n"), "{}", &t[t.len() - 200..]);
}

/// Whether process `pid` exists and is not a zombie.
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).is_ok_and(|s| {
        s.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// What an engine starts outside its process group (a double fork into a session of its
/// own, as daemons do) is ended with it too (42 orphans after one game before).
#[test]
fn what_an_engine_starts_in_a_session_of_its_own_is_ended_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine("escaper", &[] as &[&str], &[] as &[&str]);
    let pid_file = dir.path().join("escaped.pid");
    let cmd = format!(
        "(setsid sh -c 'sleep 300 & echo $! > {}; wait' &); {engine}",
        pid_file.display()
    );
    let (log, _) = log();
    let e = EngineProcess::spawn(&cmd, log).unwrap();
    let end = Instant::now() + Duration::from_secs(5);
    while !pid_file.exists()
        || std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .is_empty()
    {
        assert!(Instant::now() < end, "the sleeper never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    assert!(running(&pid));
    drop(e);
    let end = Instant::now() + Duration::from_secs(2);
    while running(&pid) && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!running(&pid), "the escaped sleeper outlived its engine");
}

/// A handshake that times out says how long it waited in all (it said "within 8.0 s" after
/// 10.3 s: the wait before `v00` was left out).
#[test]
fn a_handshake_timeout_says_how_long_it_waited_in_all() {
    let (log, _) = log();
    let began = Instant::now();
    let r = EngineProcess::spawn_with("sleep 30", log, Duration::from_secs(3));
    let waited = began.elapsed();
    let Err(HostError::TimedOut { waiting_for, after }) = r else {
        panic!("{:?}", r.err())
    };
    assert_eq!(waiting_for, "atsiok");
    assert!(
        after >= Duration::from_millis(2900) && after <= waited,
        "{after:?} of {waited:?}"
    );
}

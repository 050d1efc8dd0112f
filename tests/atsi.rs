//! `taikyoku engine` driven through scripted ATSI host sessions over stdin/stdout, and over
//! WebSocket with `--listen`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_protocol::atsi::{self, EngineReply, Order};

fn engine(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_taikyoku"));
    c.arg("engine").args(args);
    c
}

/// Runs the engine on a whole script (stdin closed after it): its stdout lines and stderr.
fn session(args: &[&str], script: &[u8]) -> (Vec<String>, String) {
    let mut child = engine(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    child.stdin.take().unwrap().write_all(script).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8(out.stdout).unwrap();
    (
        lines.lines().map(str::to_string).collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn replies(lines: &[String]) -> Vec<EngineReply> {
    lines
        .iter()
        .map(|l| EngineReply::parse(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("log error:"))
        .collect()
}

#[test]
fn a_scripted_session_answers_every_command() {
    let r = common::rules("atsa");
    let script = "atsiinit v0\nidentify\ntime 60 1\nplayer 1\nsetparam policy random\n\
        setparam seed 7\nstartgame initial\nopmove 19z 19y 59.5 60\neval\n\
        setparam atsa_host_safe true\nsetparam nodes 0\nsetparam depth 3\nsetparam movetime 0.5\n\
        setparam hash 16\nsetparam threads 1\nwin\nquit\nidentify\n";
    let (lines, stderr) = session(&["--rules", "atsa"], script.as_bytes());
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let got = replies(&lines);
    assert_eq!(got[0], EngineReply::AtsiOk);
    assert!(matches!(&got[1], EngineReply::Info { name, .. } if name == "taikyoku"));
    let params: Vec<&str> = got
        .iter()
        .filter_map(|r| match r {
            EngineReply::Param { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    for p in [
        "policy",
        "depth",
        "nodes",
        "movetime",
        "seed",
        "hash",
        "threads",
        "atsa_host_safe",
    ] {
        assert!(params.contains(&p), "{params:?}");
    }
    // Black moved its pawn; the engine (second player, White) answers with a legal move,
    // then `eval` is the position's evaluation; nothing after quit.
    let mut pos = r.start_position();
    let (black, order) = atsi::move_from_atsi(r, &pos, "19z 19y").unwrap();
    assert_eq!(order, Order::Spec);
    r.play(&mut pos, &black).unwrap();
    let moves: Vec<&EngineReply> = got
        .iter()
        .filter(|r| matches!(r, EngineReply::Move(_)))
        .collect();
    let [EngineReply::Move(white)] = moves[..] else {
        panic!("{lines:?}")
    };
    atsi::move_from_atsi(r, &pos, &white.to_string()).expect("a legal move");
    assert!(
        matches!(got.last(), Some(EngineReply::Eval(_))),
        "{lines:?}"
    );
    assert!(
        stderr.contains("atsiinit v0") && stderr.contains("win"),
        "{stderr}"
    );
}

#[test]
fn malformed_input_is_answered_with_errors_and_the_session_goes_on() {
    let mut script = b"identify\natsiinit v1\natsiinit v00\nbogus\ntime x\nplayer 3\n\
        opmove 1a\nopmove 19z 19y 1 1\nstartgame nonsense\nsetparam colour blue\n\
        setparam policy clever\n\n"
        .to_vec();
    script.extend(vec![b'x'; 70_000]);
    script.extend(b"\n\xff\xfe\n\ridentify\n");
    let (lines, stderr) = session(&[], &script);
    let errs = errors(&lines);
    let expected = [
        "before atsiinit",
        "unsupported ATSI version",
        "unknown command \"bogus\"",
        "time: the starting time must be",
        "player: the player must be",
        "opmove: missing squares and clocks",
        "no game in progress",
        "bad TSFEN",
        "unknown parameter \"colour\"",
        "unknown policy \"clever\"",
        "longer than 65536 bytes",
        "not UTF-8",
    ];
    assert_eq!(errs.len(), expected.len(), "{lines:#?}");
    for (e, want) in errs.iter().zip(expected) {
        assert!(e.contains(want), "{e:?} should say {want:?}");
    }
    assert!(lines.iter().filter(|l| *l == "atsiok").count() == 1);
    assert!(lines.last().unwrap().starts_with("param "), "{lines:?}");
    assert!(stderr.contains("error: unknown command"), "{stderr}");
}

/// A host talking to a running engine line by line.
struct Host {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Host {
    fn start(args: &[&str]) -> Host {
        let mut child = engine(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        Host { child, to, from }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.to, "{line}").unwrap();
    }

    fn read(&mut self) -> EngineReply {
        let mut l = String::new();
        assert!(
            self.from.read_line(&mut l).unwrap() > 0,
            "the engine hung up"
        );
        EngineReply::parse(&l).unwrap_or_else(|e| panic!("{l:?}: {e}"))
    }

    /// The next reply that is not `eval` or `log`.
    fn next(&mut self) -> EngineReply {
        loop {
            match self.read() {
                EngineReply::Eval(_) | EngineReply::Log(_) => {}
                r => return r,
            }
        }
    }

    fn handshake(&mut self, player: u8) {
        self.send("atsiinit v00");
        assert_eq!(self.read(), EngineReply::AtsiOk);
        self.send(&format!("player {player}"));
        self.send("time 60 1");
    }

    fn quit(mut self) {
        self.send("quit");
        assert!(self.child.wait().unwrap().success());
    }
}

/// Plays the engine's reply on `pos`: it must be a legal move written in the spec's order.
/// Returns its text.
fn engine_moves(r: &Rules, pos: &mut Position, host: &mut Host) -> String {
    let EngineReply::Move(mv) = host.next() else {
        panic!("expected a move")
    };
    let text = mv.to_string();
    let (m, order) = atsi::move_from_atsi(r, pos, &text).expect("a legal move");
    assert_eq!(order, Order::Spec);
    assert_eq!(atsi::move_to_atsi(r, pos, &m), text);
    r.play(pos, &m).unwrap();
    text
}

#[test]
fn an_illegal_opmove_is_refused_and_the_game_goes_on() {
    let r = common::rules("atsa");
    let mut host = Host::start(&["--rules", "atsa", "--policy", "greedy", "--seed", "3"]);
    host.handshake(1);
    host.send("startgame initial");
    host.send("opmove 19z 19x 60 60");
    let EngineReply::Log(e) = host.read() else {
        panic!()
    };
    assert!(e.contains("cannot reach 19x"), "{e}");
    let mut pos = r.start_position();
    host.send("opmove 19z 19y 60 60");
    let (black, _) = atsi::move_from_atsi(r, &pos, "19z 19y").unwrap();
    r.play(&mut pos, &black).unwrap();
    engine_moves(r, &mut pos, &mut host);
    // The engine's own piece, as if it were the opponent's.
    host.send("opmove 1k 1l 60 60");
    let reply = host.read();
    assert!(
        matches!(&reply, EngineReply::Log(e) if e.contains("it is black's turn")),
        "{reply:?}"
    );
    host.quit();
}

/// A TSFEN of an almost empty board: kings on their start squares, a Black gold general in
/// front of White's king; the counter (odd) says White moves first.
const ENDGAME: &str = "17,K,18/17,glg,18/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/\
    36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/18,k,17 1";

#[test]
fn a_tsfen_game_is_played_to_the_end() {
    let r = common::rules("atsa");
    let mut pos = notation::parse_tsfen(r, ENDGAME).unwrap();
    // The engine plays White, which moves first here: it takes the gold at once (greedy).
    let mut host = Host::start(&["--rules", "atsa", "--policy", "greedy"]);
    host.handshake(1);
    host.send(&format!("startgame {ENDGAME}"));
    engine_moves(r, &mut pos, &mut host);
    assert_eq!(pos.pieces().count(), 2);
    host.send("draw");
    host.quit();
}

#[test]
fn random_and_greedy_play_a_sho_game_to_its_end() {
    let r = common::sho();
    let mut pos = r.start_position();
    let mut black = Host::start(&["--game", "sho", "--policy", "random", "--seed", "5"]);
    let mut white = Host::start(&["--game", "sho", "--policy", "greedy", "--seed", "5"]);
    black.handshake(0);
    white.handshake(1);
    black.send("startgame initial");
    white.send("startgame initial");
    let mut plies = 0;
    while r.outcome(&pos).is_none() && plies < 1000 {
        let (mover, other) = if plies % 2 == 0 {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        // As ATSA's host does, the move goes to the other engine as it was written.
        let text = engine_moves(r, &mut pos, mover);
        plies += 1;
        if r.outcome(&pos).is_none() {
            other.send(&format!("opmove {text} 60 60"));
        }
    }
    let outcome = r.outcome(&pos).expect("the game ends within 1000 plies");
    let (winner, loser) = match outcome.winner {
        taikyoku_core::geometry::Side::Black => (black, white),
        taikyoku_core::geometry::Side::White => (white, black),
    };
    for (h, result) in [(winner, "win"), (loser, "loss")] {
        let mut h = h;
        h.send(result);
        h.quit();
    }
}

#[test]
fn the_websocket_engine_plays_one_game_at_a_time() {
    use tungstenite::Message;
    let mut child = engine(&[
        "--listen",
        "127.0.0.1:0",
        "--policy",
        "random",
        "--seed",
        "2",
    ])
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // The log lines, as they come (a connection's line is written once it has ended).
    let (log_tx, log_rx) = std::sync::mpsc::channel();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = log_tx.send(line);
        }
    });
    let wait = std::time::Duration::from_secs(20);
    let first = log_rx.recv_timeout(wait).unwrap();
    let url = first
        .trim()
        .rsplit(' ')
        .next()
        .filter(|u| u.starts_with("ws://127.0.0.1:"))
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_string();
    let (mut ws, _) = tungstenite::connect(&url).unwrap();
    let say = |ws: &mut tungstenite::WebSocket<_>, text: &str| {
        ws.send(Message::text(text)).unwrap();
    };
    let hear = |ws: &mut tungstenite::WebSocket<_>| -> String {
        match ws.read().unwrap() {
            Message::Text(t) => t.to_string(),
            other => panic!("{other:?}"),
        }
    };
    // As the ATSA site's host does: no newline, one command per message.
    say(&mut ws, "atsiinit v0");
    assert_eq!(hear(&mut ws), "atsiok");
    say(&mut ws, "identify");
    assert!(hear(&mut ws).starts_with("info taikyoku"));
    // Its settings, and the rule sets it plays (issue 20, finding 15).
    (0..9).for_each(|_| assert!(hear(&mut ws).starts_with("param ")));
    // A second connection is told the engine is busy, and closed.
    let (mut second, _) = tungstenite::connect(&url).unwrap();
    assert!(hear(&mut second).contains("busy"));
    assert!(matches!(second.read(), Ok(Message::Close(_)) | Err(_)));
    say(&mut ws, "player 0");
    say(&mut ws, "time 900 1");
    say(&mut ws, "startgame initial");
    let mv = hear(&mut ws);
    // Taikyoku's engine plays ATSA's rules unless told otherwise (finding 15).
    let r = common::rules("atsa");
    let text = mv.strip_prefix("move ").unwrap_or_else(|| panic!("{mv}"));
    atsi::move_from_atsi(r, &r.start_position(), text).expect("a legal first move");
    // A message past the size bound ends the connection, not the engine.
    let _ = ws.send(Message::text("x".repeat(100_000)));
    let _ = ws.read();
    // The engine is free again once it has seen that connection end.
    let mut third = loop {
        let (mut c, _) = tungstenite::connect(&url).unwrap();
        say(&mut c, "atsiinit v00");
        match hear(&mut c).as_str() {
            "atsiok" => break c,
            busy => assert!(busy.contains("busy"), "{busy}"),
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    say(&mut third, "quit");
    let _ = third.read();
    // One line per connection (#10): the refused one, then each game as it ended.
    let mut log: Vec<String> = Vec::new();
    while log.iter().filter(|l| !l.contains("refused")).count() < 2 {
        log.push(
            log_rx
                .recv_timeout(wait)
                .unwrap_or_else(|_| panic!("{log:#?}")),
        );
    }
    child.kill().unwrap();
    child.wait().unwrap();
    log.extend(log_rx.try_iter());
    let at = |l: &str| l.starts_with("taikyoku engine: 127.0.0.1:");
    assert!(log.iter().all(|l| at(l)), "{log:#?}");
    let refused = log.iter().filter(|l| l.contains("refused")).count();
    assert!(refused >= 1, "{log:#?}");
    assert_eq!(log.len(), refused + 2, "one line per connection: {log:#?}");
    let games: Vec<_> = log.iter().filter(|l| !l.contains("refused")).collect();
    assert!(
        games[0].contains(": atsiinit v0, 1 game, 1 move played, no errors, ")
            && games[0].contains("; connection ended: "),
        "{log:#?}"
    );
    assert!(
        games[1].contains(": atsiinit v00, 0 games, 0 moves played, no errors, ")
            && games[1].ends_with("; quit"),
        "{log:#?}"
    );
}

/// Black's free eagle on 18r behind its own pawn on 18q; the kings on their start squares.
const EAGLE: &str = "18,K,17/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/18,p,17/18,fe,17/\
    36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/17,k,18 0";

#[test]
fn atsa_host_safe_plays_only_moves_atsas_host_can_judge() {
    let r = common::rules("atsa");
    let pos = notation::parse_tsfen(r, EAGLE).unwrap();
    let mut host = atsi::AtsaHost::new();
    let judged = host.judged_moves(r, &pos);
    assert!(
        judged.len() < r.legal_moves(&pos).len(),
        "some moves jump the pawn"
    );
    let mut script = String::from("atsiinit v0\nplayer 0\nsetparam depth 2\n");
    script += "setparam atsa_host_safe true\n";
    for policy in ["random", "greedy", "search"] {
        script += &format!("setparam policy {policy}\n");
        for seed in 0..15 {
            script += &format!("setparam seed {seed}\nstartgame {EAGLE}\n");
        }
    }
    let (lines, _) = session(&["--rules", "atsa"], script.as_bytes());
    let moves: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("move ").map(str::to_string))
        .collect();
    assert_eq!(moves.len(), 45, "{lines:?}");
    for text in &moves {
        let (m, _) = atsi::move_from_atsi(r, &pos, text).unwrap();
        assert!(host.judges(r, &pos, &m), "{text}");
    }
}

/// Runs the engine on `script` and waits up to `secs` for it to exit by itself (then kills
/// it): whether it did, and its stdout.
fn exits_within(secs: u64, args: &[&str], script: &[u8]) -> (bool, String) {
    let mut child = engine(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script).unwrap();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let exited = loop {
        if child.try_wait().unwrap().is_some() {
            break true;
        }
        if std::time::Instant::now() > end {
            child.kill().unwrap();
            break false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    child.wait().unwrap();
    (exited, out)
}

/// `quit`, or the end of input, right after `startgame` ends the session at once: the reader
/// saw it before the session started to think, and the search must not outlive it.
#[test]
fn quit_or_end_of_input_right_after_startgame_exits_at_once() {
    // A clock of 100,000 s: an engine that searched would think for far longer than the bound, which
    // is generous because a debug build loading Taikyoku on a loaded machine takes seconds.
    let start = b"atsiinit v0\nplayer 0\ntime 100000 0\nstartgame initial\n";
    for end in [&b"quit\n"[..], b""] {
        let script = [&start[..], end].concat();
        let (exited, out) = exits_within(40, &[], &script);
        assert!(exited, "still searching 40 s after {end:?}: {out}");
    }
}

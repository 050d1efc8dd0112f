//! The real binary in a real terminal (tmux): draw the board, play a move, quit, and check
//! the terminal is given back (also after a panic and after Ctrl-C).

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

struct Tmux {
    session: String,
}

impl Tmux {
    /// Starts `cmd` in a detached session of the given size, or `None` without tmux. A few
    /// tries: a tmux server that another test's last session is shutting down refuses one.
    fn start(name: &str, cmd: &str, w: u16, h: u16) -> Option<Tmux> {
        (0..3).find_map(|i| {
            sleep(Duration::from_millis(200 * i));
            Tmux::try_start(name, cmd, w, h)
        })
    }

    fn try_start(name: &str, cmd: &str, w: u16, h: u16) -> Option<Tmux> {
        let session = format!("taikyoku-e2e-{name}-{}", std::process::id());
        let ok = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                &session,
                "-x",
                &w.to_string(),
                "-y",
                &h.to_string(),
                cmd,
            ])
            .status()
            .ok()?
            .success();
        ok.then_some(Tmux { session })
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            Command::new("tmux")
                .args(["send-keys", "-t", &self.session, k])
                .status()
                .unwrap();
            sleep(Duration::from_millis(60));
        }
    }

    /// Taikyoku's opening, the cursor on Black's king: the pawn ten ranks up goes one up.
    fn push_the_kings_pawn(&self) {
        for _ in 0..10 {
            self.keys(&["k"]);
        }
        self.keys(&["Enter", "k", "Enter"]);
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.session])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen contains `text`.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) || start.elapsed() > Duration::from_secs(15) {
                return s;
            }
            sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.session])
            .status();
    }
}

fn have_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The game (its process id written to `dir/pid`, its data and config kept in `dir`),
/// followed by a report of the terminal's state once it exits.
fn command(dir: &std::path::Path, env: &str, args: &str) -> String {
    let d = dir.display();
    format!(
        "sh -c 'echo $$ > {d}/pid; TAIKYOKU_DATA_DIR={d}/data TAIKYOKU_CONFIG_DIR={d}/config {env} exec {} {args}'; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; echo REPORTED; sleep 30",
        env!("CARGO_BIN_EXE_taikyoku")
    )
}

/// The text of the one autosaved game in the game's data directory under `dir`.
fn autosaved(dir: &std::path::Path) -> String {
    let mut saves = std::fs::read_dir(dir.join("data/autosave")).unwrap();
    let path = saves.next().unwrap().unwrap().path();
    std::fs::read_to_string(path).unwrap()
}

fn assert_restored(screen: &str) {
    assert!(
        screen.contains(" icanon") || screen.starts_with("icanon") || screen.contains("\nicanon"),
        "raw mode left on:\n{screen}"
    );
    assert!(
        !screen.contains("-icanon") && !screen.contains("-echo "),
        "raw mode left on:\n{screen}"
    );
}

#[test]
fn play_a_move_and_quit() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipping the end-to-end test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start(
        "play",
        &command(dir.path(), "", "play --theme high-contrast"),
        160,
        48,
    )
    .expect("tmux starts");
    let s = t.wait_for("Black to move");
    assert!(
        s.contains("^歩") && s.contains("v歩"),
        "the board is drawn:\n{s}"
    );
    assert!(
        s.contains("King (K)"),
        "the cursor starts on the king:\n{s}"
    );
    // Cursor up ten ranks onto the pawn in front of the king, select it, one up, confirm.
    t.push_the_kings_pawn();
    // The move played, not its preview on the way ("P19.26-19.25: takes nothing").
    let s = t.wait_for("1. Black P19.26-19.25");
    assert!(s.contains("White to move"), "{s}");
    // Undo and redo.
    t.keys(&["u"]);
    t.wait_for("Undid");
    t.keys(&["C-r"]);
    let s = t.wait_for("White to move");
    assert!(s.contains("P19.26-19.25"), "{s}");
    // The game is autosaved, so quitting loses nothing and does not ask.
    t.keys(&["q"]);
    let s = t.wait_for("REPORTED");
    assert!(s.contains("EXIT=0"), "{s}");
    assert_restored(&s);
}

#[test]
fn ctrl_c_and_panic_restore_the_terminal() {
    if !have_tmux() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("ctrlc", &command(dir.path(), "", "--rules atsa"), 120, 40)
        .expect("tmux starts");
    t.wait_for("Black to move");
    t.keys(&["C-c"]);
    let s = t.wait_for("REPORTED");
    assert!(s.contains("EXIT=0"), "{s}");
    assert_restored(&s);
    let t = Tmux::start(
        "panic",
        &command(dir.path(), "RUST_BACKTRACE=0 TAIKYOKU_TEST_PANIC=1", ""),
        120,
        40,
    )
    .expect("tmux starts");
    let s = t.wait_for("REPORTED");
    assert!(
        s.contains("TAIKYOKU_TEST_PANIC is set"),
        "the panic message is shown after restoring:\n{s}"
    );
    assert!(!s.contains("EXIT=0"), "{s}");
    assert_restored(&s);
}

#[test]
fn small_terminal_shows_a_message() {
    if !have_tmux() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("small", &command(dir.path(), "", ""), 60, 15).expect("tmux starts");
    let s = t.wait_for("needs at least");
    assert!(s.contains("72×20"), "{s}");
    t.keys(&["q"]);
    let s = t.wait_for("REPORTED");
    assert_restored(&s);
}

#[test]
fn a_killed_game_loses_no_move_and_is_offered_again() {
    if !have_tmux() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("kill", &command(dir.path(), "", ""), 160, 48).expect("tmux starts");
    t.wait_for("Black to move");
    t.push_the_kings_pawn();
    t.wait_for("P19.26-19.25");
    // Killed without warning, the moment after the move was on screen.
    let pid = std::fs::read_to_string(dir.path().join("pid")).unwrap();
    Command::new("kill")
        .args(["-9", pid.trim()])
        .status()
        .unwrap();
    t.wait_for("REPORTED");
    let saves: Vec<_> = std::fs::read_dir(dir.path().join("data/autosave"))
        .unwrap()
        .collect();
    assert_eq!(saves.len(), 1, "one autosave file");
    let text = std::fs::read_to_string(saves[0].as_ref().unwrap().path()).unwrap();
    assert!(text.contains("\"P19.26-19.25\""), "{text}");
    // Started again, the game is offered; taking it restores the move.
    let t2 = Tmux::start("resume", &command(dir.path(), "", ""), 160, 48).expect("tmux starts");
    let s = t2.wait_for("Resume the unfinished game");
    assert!(s.contains("(1 move, "), "{s}");
    // A stray key does not answer: y or Enter resumes (n or Esc would start a new game, q
    // quit: issue 20, finding 4).
    t2.keys(&["j", "x"]);
    let s = t2.wait_for("Resume the unfinished game");
    assert!(s.contains("y: yes"), "{s}");
    t2.keys(&["y"]);
    let s = t2.wait_for("1 move loaded");
    assert!(s.contains("P19.26-19.25"), "{s}");
    // The resumed autosave has no name yet: s asks, and the name goes in the games folder.
    t2.keys(&["s"]);
    let s = t2.wait_for("a name goes in");
    assert!(s.contains("games"), "{s}");
    t2.keys(&["k", "e", "p", "t", "Enter"]);
    t2.wait_for("Saved");
    assert!(dir.path().join("data/games/kept.toml").is_file());
    t2.keys(&["q"]);
    let s = t2.wait_for("REPORTED");
    assert_restored(&s);
    // `taikyoku recent` lists both files of the game, with its moves, and opens one.
    let out = Command::new(env!("CARGO_BIN_EXE_taikyoku"))
        .arg("recent")
        .env("TAIKYOKU_DATA_DIR", dir.path().join("data"))
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("kept.toml") && listed.contains("1 move ") && listed.contains("unfinished"),
        "{listed}"
    );
    let t3 = Tmux::start("recent", &command(dir.path(), "", "recent 1"), 80, 24).expect("tmux");
    let s = t3.wait_for("1 move loaded");
    assert!(s.contains("White to move"), "{s}");
    t3.keys(&["q"]);
    t3.wait_for("Quit this game?");
    t3.keys(&["y"]);
    assert_restored(&t3.wait_for("REPORTED"));
}

#[test]
fn sho_shogi_plays_on_a_small_board() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipping the end-to-end test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t =
        Tmux::start("sho", &command(dir.path(), "", "--game sho"), 80, 24).expect("tmux starts");
    let s = t.wait_for("Black to move");
    // The whole 9×9 board, the game's name, and the cursor on the king.
    assert!(
        s.contains("     9    8    7    6    5    4    3    2    1"),
        "{s}"
    );
    assert!(
        s.contains("  8  .   ^角行 .    o   ^酔象 o    .   ^飛車 .  "),
        "{s}"
    );
    assert!(s.contains("standard rules\n"), "{s}");
    assert!(s.contains("King (K)"), "{s}");
    // The drunk elephant in front of the king steps left; White's pawn on 6.3 answers.
    t.keys(&["k", "Enter", "h", "Enter"]);
    let s = t.wait_for("1. Black DE5.8-6.8");
    assert!(s.contains("White to move"), "{s}");
    t.keys(&["k", "k", "k", "k", "k", "Enter", "j", "Enter"]);
    let s = t.wait_for("2. White P6.3-6.4");
    assert!(
        s.contains("  4  .    .    .   v歩兵 .    .    .    .    .  "),
        "{s}"
    );
    t.keys(&["q"]);
    let s = t.wait_for("REPORTED");
    assert!(s.contains("EXIT=0"), "{s}");
    // At 240×70 the board opens at the widest squares that fit, centred across at the top of
    // its part of the screen (issue 20, finding 13: no blank rows above it).
    let t = Tmux::start(
        "sho-big",
        &command(dir.path(), "", "--game sho play"),
        240,
        70,
    )
    .expect("tmux starts");
    let s = t.wait_for("Black to move");
    let labels = s
        .lines()
        .find(|l| l.contains("9      8      7      6      5      4      3      2      1"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(labels.starts_with(&" ".repeat(40)), "{s}");
    assert_eq!(s.lines().position(|l| l == labels), Some(0), "{s}");
}

#[test]
fn a_replay_plays_itself_then_branches() {
    if !have_tmux() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.toml");
    let f = file.to_str().unwrap();
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_taikyoku"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
    };
    run(&["record", "new", f]);
    run(&[
        "record",
        "add",
        f,
        "19.26-19.25",
        "18.11-18.12",
        "20.26-20.25",
        "17.11-17.12",
        "21.26-21.25",
        "16.11-16.12",
    ]);
    let t = Tmux::start(
        "replay",
        &command(dir.path(), "", &format!("replay {f}")),
        80,
        24,
    )
    .expect("tmux starts");
    t.wait_for("Replay of 6 moves");
    // Faster, then play: the replay's timer moves it on by itself to the end.
    t.keys(&["]", "]", "]", "P"]);
    let s = t.wait_for("Move 6 of 6");
    assert!(s.contains("P16.11-16.12"), "{s}");
    // Move 3 by number (the digits show as they are typed), then a new game from there.
    t.keys(&[":", "3"]);
    t.wait_for("Go to move (0-6): 3_");
    t.keys(&["Enter"]);
    t.wait_for("Move 3 of 6");
    t.keys(&["b"]);
    let s = t.wait_for("A new game from move 3");
    assert!(s.contains("White to move"), "{s}");
    t.keys(&["q"]);
    let s = t.wait_for("REPORTED");
    assert!(s.contains("EXIT=0"), "{s}");
    assert_restored(&s);
    // The new game was saved beside the others; the record replayed is unchanged.
    let saves: Vec<_> = std::fs::read_dir(dir.path().join("data/autosave"))
        .unwrap()
        .collect();
    assert_eq!(saves.len(), 1);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"P16.11-16.12\""), "{text}");
}

#[test]
fn a_big_paste_neither_freezes_the_game_nor_delays_ctrl_c() {
    if !have_tmux() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("paste", &command(dir.path(), "", ""), 80, 24).expect("tmux starts");
    t.wait_for("Black to move");
    // 10 kB typed as keys (a terminal without bracketed paste): about 11 s of work before.
    let page: String = "hjkl".repeat(2500);
    Command::new("tmux")
        .args(["send-keys", "-l", "-t", &t.session, &page])
        .status()
        .unwrap();
    let start = Instant::now();
    t.keys(&["C-c"]);
    let s = t.wait_for("REPORTED");
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    assert!(s.contains("EXIT=0"), "{s}");
    assert_restored(&s);
    // A bracketed paste goes into the open prompt, as one piece of text.
    let t = Tmux::start("paste2", &command(dir.path(), "", ""), 80, 24).expect("tmux starts");
    t.wait_for("to move");
    t.keys(&["n", "g"]);
    t.wait_for("Go to square");
    let tmux = |args: &[&str]| Command::new("tmux").args(args).status().unwrap();
    tmux(&["set-buffer", "-b", &t.session, "12.34"]);
    tmux(&["paste-buffer", "-p", "-b", &t.session, "-t", &t.session]);
    let s = t.wait_for("12.34_");
    assert!(s.contains("Go to square (file.rank): 12.34_"), "{s}");
}

/// The game started with the arguments `args` gives for a fresh directory (its data and
/// config), in a terminal of `w`×`h`; `None` without tmux (the test is then skipped).
fn game(
    name: &str,
    args: impl FnOnce(&std::path::Path) -> String,
    (w, h): (u16, u16),
) -> Option<(tempfile::TempDir, Tmux)> {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipping the end-to-end test");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let cmd = command(dir.path(), "", &args(dir.path()));
    let t = Tmux::start(name, &cmd, w, h).expect("tmux starts");
    Some((dir, t))
}

/// Quits with `key` and checks the game ended at once and gave the terminal back.
fn quit_at_once(t: &Tmux, key: &str) {
    let asked = Instant::now();
    t.keys(&[key]);
    let s = t.wait_for("REPORTED");
    assert!(s.contains("EXIT=0"), "{s}");
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_restored(&s);
}

/// A scripted ATSI engine in `dir` named `name`: it answers the handshake, writes its process
/// id to `dir/engine.pid`, and runs `turn` (shell) when it is to move after an `opmove`.
fn scripted_engine(dir: &std::path::Path, name: &str, turn: &str) -> String {
    let engine = dir.join("engine.sh");
    let script = format!(
        "echo $$ > {}/engine.pid\nwhile read -r cmd rest; do case \"$cmd\" in \
         atsiinit) echo atsiok ;; identify) echo 'info {name}' ;; opmove) {turn} ;; \
         quit) exit 0 ;; esac; done\n",
        dir.display()
    );
    std::fs::write(&engine, script).unwrap();
    format!("sh {}", engine.display())
}

#[test]
fn a_game_against_the_computer_answer_undo_and_resume() {
    let args = |_: &std::path::Path| "play --game sho --white computer:50ms".to_string();
    let Some((dir, t)) = game("computer", args, (80, 24)) else {
        return;
    };
    t.wait_for("Black to move");
    // The pawn in front of the king (5.7) one step up; the computer answers by itself.
    t.keys(&["k", "k", "Enter", "k", "Enter"]);
    let s = t.wait_for("Computer (White) played");
    assert!(s.contains("2. Computer (White) played"), "{s}");
    assert!(s.contains("P5.7-5.6"), "the move list:\n{s}");
    // Undo takes back its reply with the player's move.
    t.keys(&["u"]);
    let s = t.wait_for("Undid");
    assert!(s.contains(" and P5.7-5.6. Black to move."), "{s}");
    // Play again, then quit (autosaved: no question) and resume: still against the computer.
    t.keys(&["Enter", "k", "Enter"]);
    t.wait_for("Computer (White) played");
    quit_at_once(&t, "q");
    let text = autosaved(dir.path());
    assert!(text.contains("white_player = \"computer:50ms\""), "{text}");
    let cmd = command(dir.path(), "", "play --game sho");
    let t = Tmux::start("computer-resume", &cmd, 80, 24).expect("tmux starts");
    t.wait_for("Resume");
    t.keys(&["Enter"]);
    t.wait_for("2 moves loaded");
    // Black to move again (the pawn on 1.7 one up); its move gets the computer's answer.
    t.keys(&["r", "l", "l", "l", "l", "k", "k", "Enter", "k", "Enter"]);
    let s = t.wait_for("4. Computer (White) played");
    assert!(s.contains("4. Computer (White) played"), "{s}");
}

#[test]
fn quitting_while_the_computer_thinks_stops_it_and_restores_the_terminal() {
    for (name, key) in [("q", "q"), ("ctrl-c", "C-c")] {
        let args = |_: &std::path::Path| "play --black computer:3600s".to_string();
        let Some((_dir, t)) = game(&format!("thinking-{name}"), args, (80, 24)) else {
            return;
        };
        let s = t.wait_for("M moves now");
        assert!(s.contains("Computer (Black) thinks"), "{s}");
        quit_at_once(&t, key);
    }
}

#[test]
fn an_engine_that_sends_an_illegal_move_loses_and_the_game_is_saved() {
    // An impossible move on its first turn.
    let args = |d: &std::path::Path| {
        let e = scripted_engine(d, "fakeengine", "echo 'move 1a 36jj'");
        format!("play --white \"{e}\" --time 30+1")
    };
    let Some((dir, t)) = game("engine", args, (240, 70)) else {
        return;
    };
    t.wait_for("Black to move");
    t.push_the_kings_pawn();
    let s = t.wait_for("wins");
    assert!(
        s.contains("fakeengine (White) loses (forfeit): played an illegal move"),
        "{s}"
    );
    assert!(s.contains("Black won"), "{s}");
    quit_at_once(&t, "q");
    let text = autosaved(dir.path());
    assert!(text.contains("white = \"fakeengine\""), "{text}");
    assert!(
        text.contains("result = \"black\"\ntermination = \"forfeit\""),
        "{text}"
    );
    let log = std::fs::read_to_string(dir.path().join("data/engines.log")).unwrap();
    assert!(log.contains("move 1a 36jj"), "{log}");
}

#[test]
fn an_engine_that_hangs_loses_on_time_and_quitting_kills_it() {
    // Silent as Black: past its clock (1 s and the margin) it loses on time.
    let silent = |time: &'static str| {
        move |d: &std::path::Path| {
            let e = scripted_engine(d, "silent", "true");
            format!("play --black \"{e}\" --time {time}")
        }
    };
    let Some((_dir, t)) = game("hang", silent("1+0"), (240, 70)) else {
        return;
    };
    let s = t.wait_for("silent (Black) thinks");
    assert!(s.contains("Black to move 0:0"), "its clock shows:\n{s}");
    let s = t.wait_for("wins");
    assert!(
        s.contains("silent (Black) loses (time forfeit): sent no move within"),
        "{s}"
    );
    drop(t);
    // Quitting while it thinks kills it at once.
    let Some((dir, t)) = game("hang-quit", silent("600+0"), (80, 24)) else {
        return;
    };
    t.wait_for("silent (Black) thinks");
    let pid = std::fs::read_to_string(dir.path().join("engine.pid")).unwrap();
    assert!(alive(&pid));
    quit_at_once(&t, "q");
    assert!(gone(&pid), "the engine is killed");
}

/// Whether process `pid` runs.
fn alive(pid: &str) -> bool {
    Command::new("kill")
        .args(["-0", pid.trim()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether process `pid` is gone within 3 s (once the system has reaped it).
fn gone(pid: &str) -> bool {
    let end = Instant::now() + Duration::from_secs(3);
    while alive(pid) && Instant::now() < end {
        sleep(Duration::from_millis(50));
    }
    !alive(pid)
}

/// SIGTERM (or SIGHUP, a closed terminal) while an engine thinks: the engine is killed, the
/// terminal given back, and nobody loses for it.
#[test]
fn a_terminated_game_kills_its_engine_and_restores_the_terminal() {
    let args = |d: &std::path::Path| {
        let e = scripted_engine(d, "silent", "true");
        format!("play --black \"{e}\" --time 600+0")
    };
    let Some((dir, t)) = game("term", args, (80, 24)) else {
        return;
    };
    t.wait_for("silent (Black) thinks");
    let engine = std::fs::read_to_string(dir.path().join("engine.pid")).unwrap();
    let game = std::fs::read_to_string(dir.path().join("pid")).unwrap();
    Command::new("kill")
        .args(["-TERM", game.trim()])
        .status()
        .unwrap();
    let s = t.wait_for("REPORTED");
    assert!(s.contains("EXIT=0"), "{s}");
    assert_restored(&s);
    assert!(gone(&engine), "the engine is killed");
    let saves = std::fs::read_dir(dir.path().join("data/autosave"));
    let forfeits = saves
        .into_iter()
        .flatten()
        .flatten()
        .filter(|f| std::fs::read_to_string(f.path()).is_ok_and(|t| t.contains("forfeit")));
    assert_eq!(forfeits.count(), 0, "no forfeit recorded");
}

/// A Kō shōgi position as a JSON file in `dir`: a Black bow on 10.10 with White pawns it can
/// shoot, a Black skyward net with a White cannon first on its line, both generals.
fn ko_position(dir: &std::path::Path) -> String {
    let path = dir.join("ko.json");
    let piece = |code: &str, side: &str, x: i32, y: i32| {
        format!(r#"{{"piece": "{code}", "side": "{side}", "at": [{x}, {y}], "promoted": false}}"#)
    };
    let pieces = [
        piece("GE", "black", 9, 0),
        piece("GE", "white", 9, 18),
        piece("LB", "black", 9, 9),
        piece("P", "white", 10, 13),
        piece("SN", "black", 12, 6),
        piece("CN", "white", 16, 6),
    ];
    let json = format!(
        r#"{{"to_move": "black", "pieces": [{}]}}"#,
        pieces.join(", ")
    );
    std::fs::write(&path, json).unwrap();
    format!("play --game koshogi --position {}", path.display())
}

#[test]
fn ko_a_shot_is_entered_leg_by_leg_at_80_by_24() {
    let Some((_dir, t)) = game("ko-shot", ko_position, (80, 24)) else {
        return;
    };
    t.wait_for("Black to move");
    // The bow: select it, land up-right (9.9), then the pawn on 9.6 is the one target.
    t.keys(&["g"]);
    t.keys(&["10.10", "Enter", "Enter", "k", "l"]);
    let s = t.wait_for("then it may shoot");
    assert!(s.contains("LB10.10-9.9"), "{s}");
    t.keys(&["Enter"]);
    let s = t.wait_for("choose a piece to shoot (%)");
    assert!(s.contains("  6  .    .    .    .   %歩兵"), "{s}");
    assert!(!s.contains("ways to end"), "no menu: {s}");
    t.keys(&["k", "k", "k"]);
    t.wait_for("takes the Pawn on 9.6");
    t.keys(&["Enter"]);
    let s = t.wait_for("1. Black LB10.10-9.9!9.6.");
    assert!(s.contains("White to move"), "{s}");
    assert!(s.contains("  6  .    .    .    .    ~  "), "{s}");
    quit_at_once(&t, "q");
}

#[test]
fn ko_a_frozen_piece_is_marked_at_240_by_70() {
    let Some((_dir, t)) = game("ko-frozen", ko_position, (240, 70)) else {
        return;
    };
    let s = t.wait_for("Black to move");
    // The cannon on 3.13 is first on the net's sideways line: frozen, marked `=`.
    let row = s
        .lines()
        .find(|l| l.trim_start().starts_with("13 "))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(row.contains("^天網") && row.contains("=砲"), "{row}");
    t.keys(&["g"]);
    t.keys(&["3.13", "Enter"]);
    let s = t.wait_for("Frozen by Black's Skyward net on 7.13");
    assert!(s.contains("it cannot move"), "{s}");
    // The net steps back off the line: the mark goes at once.
    t.keys(&["g"]);
    t.keys(&["7.13", "Enter", "Enter", "j", "Enter"]);
    let s = t.wait_for("1. Black SN7.13-7.14.");
    let row = s
        .lines()
        .find(|l| l.trim_start().starts_with("13 "))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(row.contains("v砲") && !row.contains('='), "{row}");
    quit_at_once(&t, "q");
}

/// Against the computer with a clock: the person's time runs out while they think, they lose
/// on time at once (said on screen), and the game is saved so.
#[test]
fn a_flag_that_falls_against_the_computer_ends_the_game_and_is_saved() {
    let args = |_: &std::path::Path| "play --game sho --white computer:50ms --time 5+0".into();
    let Some((dir, t)) = game("flag", args, (80, 24)) else {
        return;
    };
    let s = t.wait_for("Black to move 0:0");
    assert!(s.contains("White 0:05"), "both clocks show:\n{s}");
    t.keys(&["k", "k", "Enter", "k", "Enter"]);
    let s = t.wait_for("Computer (White) played");
    assert!(s.contains("2. Computer (White) played"), "{s}");
    let s = t.wait_for("loses (time forfeit)");
    assert!(
        s.contains("Black loses (time forfeit): its clock ran out.") && s.contains("White won"),
        "{s}"
    );
    quit_at_once(&t, "q");
    let text = autosaved(dir.path());
    assert!(
        text.contains("result = \"white\"\ntermination = \"time forfeit\""),
        "{text}"
    );
    assert!(text.contains("black_clock = 0.0\n"), "{text}");
}

/// Undo while an external engine thinks (it would take a minute) is at once; the engine,
/// started again, answers the next move in step with the game.
#[test]
fn undo_while_an_engine_thinks_is_at_once_and_it_plays_on() {
    let args = |d: &std::path::Path| {
        let turn = format!(
            "n=$(cat {d}/n 2>/dev/null || echo 0); n=$((n + 1)); echo $n > {d}/n; \
             if [ $n = 1 ]; then sleep 60; fi; echo \"move ${{n}}k ${{n}}l\"",
            d = d.display()
        );
        let e = scripted_engine(d, "slow", &turn);
        format!("play --white \"{e}\"")
    };
    let Some((_dir, t)) = game("undo-engine", args, (240, 70)) else {
        return;
    };
    t.wait_for("Black to move");
    t.push_the_kings_pawn();
    t.wait_for("slow (White) thinks");
    let asked = Instant::now();
    t.keys(&["u"]);
    let s = t.wait_for("Undid P19.26-19.25. Black to move.");
    assert!(s.contains("Undid P19.26-19.25"), "{s}");
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
    // The same push again: the engine (started again) answers at once with its second push.
    t.keys(&["Enter", "k", "Enter"]);
    let s = t.wait_for("2. slow (White) played");
    assert!(s.contains("2. slow (White) played P2.11-2.12"), "{s}");
    assert!(
        asked.elapsed() < Duration::from_secs(20),
        "nobody waited a minute"
    );
    quit_at_once(&t, "q");
}

/// Issue 20, findings 1 and 4, in a real terminal at 80×24 and 240×70: a game saved by name is
/// resumed as itself with `y`, and `s` saves back to it without asking; it is listed once.
#[test]
fn a_named_game_is_resumed_with_y_and_saved_back_to_its_name() {
    for (w, h) in [(80, 24), (240, 70)] {
        let args = |_: &std::path::Path| "play --game sho".to_string();
        let Some((dir, t)) = game(&format!("named-{w}"), args, (w, h)) else {
            return;
        };
        t.wait_for("Black to move");
        t.keys(&["k", "k", "Enter", "k", "Enter"]);
        t.wait_for("White to move");
        t.keys(&["s"]);
        t.wait_for("Save");
        t.keys(&["first game", "Enter"]);
        t.wait_for("Saved 1 move");
        quit_at_once(&t, "q");
        let cmd = command(dir.path(), "", "--game sho");
        let t = Tmux::start(&format!("named-resume-{w}"), &cmd, w, h).expect("tmux starts");
        let s = t.wait_for("White to move,");
        assert!(s.contains("y: yes"), "{s}");
        t.keys(&["y"]);
        t.wait_for("1 move loaded");
        t.keys(&["s"]);
        let s = t.wait_for("Saved 1 move");
        assert!(s.contains("first game.toml"), "saved back at once:\n{s}");
        quit_at_once(&t, "q");
        let games = std::fs::read_dir(dir.path().join("data/games"))
            .unwrap()
            .count();
        let autosaves = std::fs::read_dir(dir.path().join("data/autosave"))
            .unwrap()
            .count();
        assert_eq!((games, autosaves), (1, 0), "one game, one file");
    }
}

//! Games against the computer without a terminal: the search really runs in its thread and
//! posts to a channel, which the test pumps into the app as the event loop would.

use super::app::App;
use super::keys::{Action, Keymap};
use super::msg::Msg;
use super::players::{Level, Player, Purpose};
use super::theme::Theme;
use ratatui::layout::Rect;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use taikyoku_core::game::Game;
use taikyoku_core::geometry::Side;
use taikyoku_core::rules::Rules;

/// A Sho shogi game with these players, its channel connected as in the terminal.
fn sho(black: Player, white: Player) -> (App, Receiver<Msg>) {
    let r = Rules::new(Game::builtin("sho").unwrap(), "standard").unwrap();
    let start = r.start_position();
    let mut app = App::new(r, start, Keymap::default(), Theme::default_theme(), false);
    app.layout(Rect::new(0, 0, 120, 40));
    app.set_players([black, white]);
    let (tx, rx) = mpsc::channel();
    app.tx = Some(tx);
    app.update(Msg::Resize);
    (app, rx)
}

fn computer(time: &str) -> Player {
    Player::Computer(Level::parse(time).unwrap())
}

/// Feeds the app what the threads post until `done` holds (at most 20 s).
fn pump(app: &mut App, rx: &Receiver<Msg>, done: impl Fn(&App) -> bool) {
    let end = Instant::now() + Duration::from_secs(20);
    while !done(app) {
        let left = end.saturating_duration_since(Instant::now());
        let msg = rx.recv_timeout(left).expect("the computer answers in time");
        app.update(msg);
    }
}

/// Black plays its first legal move.
fn black_moves(app: &mut App) {
    let h = app.history();
    let m = h.rules().legal_moves(h.position())[0];
    app.update(Msg::Play(m));
    assert_eq!(app.history().point(), 1, "{}", app.status.text);
}

/// The computer's reply `reply` (White's, the second move) is announced as its move and
/// gets the cursor, so that it shows.
fn shown_as_the_computers(app: &App, reply: &taikyoku_records::history::Played) {
    let said = format!("2. Computer (White) played {}", reply.text);
    assert!(app.status.text.starts_with(&said), "{}", app.status.text);
    assert_eq!(app.board.cursor_square(), reply.mv.to);
}

#[test]
fn the_computer_answers_and_undo_takes_back_its_reply_with_the_move() {
    let (mut app, rx) = sho(Player::Human, computer("50ms"));
    assert!(app.players.thinking().is_none(), "Black is a person");
    black_moves(&mut app);
    let t = app.players.thinking().expect("White thinks");
    assert_eq!((t.side, t.purpose), (Side::White, Purpose::Move));
    pump(&mut app, &rx, |a| a.history().point() == 2);
    assert!(app.players.thinking().is_none());
    let reply = app.history().line()[1].clone();
    assert_eq!(reply.side, Side::White);
    shown_as_the_computers(&app, &reply);
    app.update(Msg::Act(Action::Undo));
    assert_eq!(app.history().point(), 0, "both moves are taken back");
    assert_eq!(app.pos().to_move(), Side::Black);
    assert!(app.players.thinking().is_none(), "the player's turn");
    assert!(app.status.text.contains(" and "), "{}", app.status.text);
    // Redo brings back both, the computer's reply without thinking again, announced and
    // shown as the computer's move.
    app.update(Msg::Act(Action::Redo));
    assert_eq!(app.history().point(), 2);
    assert!(app.players.thinking().is_none());
    shown_as_the_computers(&app, &reply);
    // The record names the computer and how it plays.
    let r = &app.session.record;
    assert_eq!(
        (r.white.as_str(), r.white_player.as_str()),
        ("computer (50ms)", "computer:50ms")
    );
    assert_eq!((r.black.as_str(), r.black_player.as_str()), ("", ""));
}

#[test]
fn undo_while_the_computer_thinks_stops_it_and_takes_back_the_move() {
    let (mut app, rx) = sho(Player::Human, computer("3600s"));
    black_moves(&mut app);
    assert!(app.players.thinking().is_some());
    // The player cannot move for the computer.
    app.update(Msg::Act(Action::Select));
    assert!(app.status.warning && app.status.text.contains("Computer (White)'s turn"));
    app.update(Msg::Act(Action::Undo));
    assert_eq!(app.history().point(), 0);
    assert!(app.players.thinking().is_none());
    // What the stopped search posts is ignored.
    let end = Instant::now() + Duration::from_millis(500);
    while let Ok(m) = rx.recv_timeout(end.saturating_duration_since(Instant::now())) {
        app.update(m);
    }
    assert_eq!(app.history().point(), 0, "the stopped search plays nothing");
}

#[test]
fn move_now_plays_the_best_move_so_far_at_once() {
    let (mut app, rx) = sho(Player::Human, computer("3600s"));
    black_moves(&mut app);
    pump(&mut app, &rx, |a| {
        a.players.thinking().is_some_and(|t| t.progress.is_some())
    });
    let asked = Instant::now();
    app.update(Msg::Act(Action::MoveNow));
    pump(&mut app, &rx, |a| a.history().point() == 2);
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    app.update(Msg::Act(Action::MoveNow));
    assert_eq!(
        app.status.text,
        "Nothing to hurry: the computer is not thinking now."
    );
}

#[test]
fn a_hint_is_shown_not_played_and_goes_with_the_next_move() {
    let (mut app, rx) = sho(Player::Human, Player::Human);
    app.update(Msg::Act(Action::Hint));
    let t = app.players.thinking().expect("a hint is thought about");
    assert_eq!((t.side, t.purpose), (Side::Black, Purpose::Hint));
    app.update(Msg::Act(Action::MoveNow));
    pump(&mut app, &rx, |a| a.board.hint.is_some());
    let hint = app.board.hint.unwrap();
    assert_eq!(app.history().point(), 0, "not played");
    assert!(app.rules().legal_moves(app.pos()).contains(&hint));
    assert_eq!(app.board.cursor_square(), hint.from);
    assert!(
        app.status.text.starts_with("Hint for Black: "),
        "{}",
        app.status.text
    );
    app.update(Msg::Play(hint));
    assert_eq!(
        app.board.hint, None,
        "the hint goes once the position changes"
    );
    assert!(
        app.players.thinking().is_none(),
        "hot-seat: nobody else thinks"
    );
}

#[test]
fn two_computers_play_on_by_themselves_and_the_game_can_end() {
    let (mut app, rx) = sho(computer("5ms"), computer("5ms"));
    pump(&mut app, &rx, |a| a.history().point() >= 6);
    // Undo takes back one move at a time when nobody is at the keyboard.
    let n = app.history().point();
    app.update(Msg::Act(Action::Undo));
    assert_eq!(app.history().point(), n - 1);
}

#[test]
fn the_person_against_the_computer_sees_the_board_from_their_side() {
    let (app, _rx) = sho(computer("3600s"), Player::Human);
    assert!(app.board.view.flipped, "White at the bottom");
    assert!(
        app.players.thinking().is_some(),
        "Black, the computer, opens"
    );
    let (app, _rx) = sho(Player::Human, computer("3600s"));
    assert!(!app.board.view.flipped);
}

/// A Sho shogi record of `n` moves (each side's first legal move in turn) and its replay.
fn recorded(
    n: usize,
    white: &str,
) -> (
    taikyoku_records::record::Record,
    taikyoku_records::record::Replay,
) {
    let r = Rules::new(Game::builtin("sho").unwrap(), "standard").unwrap();
    let start = r.start_position();
    let mut h = taikyoku_records::history::History::new(r, start);
    for _ in 0..n {
        let m = h.rules().legal_moves(h.position())[0];
        h.play(&m).unwrap();
    }
    let mut rec = taikyoku_records::record::Record::new(&h);
    rec.white_player = white.into();
    let replay = rec.replay(&h.rules().game).unwrap();
    (rec, replay)
}

fn opened(n: usize, white: &str, read_only: bool) -> (App, Receiver<Msg>) {
    let (rec, replay) = recorded(n, white);
    let k = Keymap::default();
    let mut app = App::from_record(rec, replay, k, Theme::default_theme(), false, read_only);
    app.layout(Rect::new(0, 0, 120, 40));
    let (tx, rx) = mpsc::channel();
    app.tx = Some(tx);
    app.update(Msg::Resize);
    (app, rx)
}

#[test]
fn a_resumed_game_goes_on_against_the_computer_it_was_played_against() {
    let (mut app, rx) = opened(3, "computer:20ms", false);
    assert_eq!(app.players.of(Side::White), &computer("20ms"));
    assert!(
        app.players.thinking().is_some(),
        "White is to move: it thinks"
    );
    pump(&mut app, &rx, |a| a.history().point() == 4);
    // An engine is never started from a record: its side is played at the keyboard.
    let (app, _rx) = opened(3, "engine:rm -rf ~", false);
    assert_eq!(app.players.of(Side::White), &Player::Human);
    assert!(app.players.thinking().is_none());
    assert!(
        app.status.text.contains("--black or --white CMD"),
        "{}",
        app.status.text
    );
}

#[test]
fn a_replay_plays_on_against_the_computer_only_after_branching() {
    let (mut app, rx) = opened(3, "", true);
    app.set_players([Player::Human, computer("20ms")]);
    app.update(Msg::Show(1));
    assert!(app.players.thinking().is_none(), "a replay does not think");
    app.update(Msg::Act(Action::Branch));
    assert_eq!(app.pos().to_move(), Side::White);
    assert!(app.players.thinking().is_some());
    pump(&mut app, &rx, |a| a.history().point() == 2);
    assert_eq!(app.session.record.white_player, "computer:20ms");
}

/// The command of a scripted engine that pushes White's pawns on files 1, 2, … in turn,
/// counting in a file of `dir` (so that it goes on where it was when started again).
fn pusher(dir: &std::path::Path) -> String {
    let count = dir.join("pushes");
    let turn = format!(
        "n=$(cat '{f}' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '{f}'; \
         echo \"move ${{n}}k ${{n}}l\"",
        f = count.display()
    );
    taikyoku_testkit::fake_engine("Pusher", &[] as &[&str], &vec![turn; 5])
}

/// A Taikyoku game (atsa rules) of a person against `cmd` as White, by a 60+1 clock.
fn against_engine(cmd: &str) -> App {
    against_engine_by(cmd, Some("60+1"))
}

/// A Taikyoku game (atsa rules) of a person against `cmd` as White, with `--time`.
fn against_engine_by(cmd: &str, time: Option<&str>) -> App {
    let r = Rules::new(Game::builtin("taikyoku").unwrap(), "atsa").unwrap();
    let start = r.start_position();
    let mut app = App::new(r, start, Keymap::default(), Theme::default_theme(), false);
    app.layout(Rect::new(0, 0, 120, 40));
    app.set_players([Player::Human, Player::Engine(cmd.into())]);
    app.players_given = true;
    app.init_clocks(time.map(|t| t.parse().unwrap()));
    let log = taikyoku_protocol::host::EngineLog::discard();
    let engine = super::players::external::Engine::spawn(cmd, Side::White, log).unwrap();
    app.add_engine(engine);
    app
}

/// Black pushes the pawn of `file` (rank 26 to 25), at the keyboard.
fn push_a_pawn(app: &mut App, file: u32) {
    let h = app.history();
    let sq = |rank| {
        h.rules()
            .dims()
            .parse_square(&format!("{file}.{rank}"))
            .unwrap()
    };
    let legal = h.rules().legal_moves(h.position());
    let push = legal
        .into_iter()
        .find(|m| (m.from, m.to) == (sq(26), sq(25)));
    app.update(Msg::Play(push.unwrap()));
}

/// Against an engine, the clocks are saved with every move; resuming the game under the same
/// time control goes on with them, under another one starts afresh.
#[test]
fn an_engines_clocks_are_saved_and_a_resumed_game_goes_on_with_them() {
    use taikyoku_records::timecontrol::Clocks;
    let dir = tempfile::tempdir().unwrap();
    let cmd = pusher(dir.path());
    // Without --time the engine plays by 120+2 and the person without a clock.
    let mut app = against_engine_by(&cmd, None);
    let (tx, rx) = mpsc::channel();
    app.tx = Some(tx);
    app.update(Msg::Resize);
    push_a_pawn(&mut app, 19);
    // ATSI has no command to hurry an engine: M says so.
    app.update(Msg::Act(Action::MoveNow));
    assert!(
        app.status
            .text
            .starts_with("Pusher (White) cannot be hurried"),
        "{}",
        app.status.text
    );
    pump(&mut app, &rx, |a| a.history().point() == 2);
    let c = app
        .session
        .record
        .clock
        .expect("a timed game keeps its clocks");
    assert!(!c.is_timed(Side::Black), "the person plays without a clock");
    let white = c.remaining(Side::White);
    assert!(white > Duration::from_secs(119) && white <= Duration::from_secs(122));
    let text = app.session.record.to_toml();
    assert!(text.contains("time = \"120+2\"\nwhite_clock = "), "{text}");
    let game = app.rules().game.clone();
    let resume = |asked: Option<&str>| {
        let rec = taikyoku_records::record::Record::parse("g", &text).unwrap();
        let replay = rec.replay(&game).unwrap();
        let k = Keymap::default();
        let mut back = App::from_record(rec, replay, k, Theme::default_theme(), false, false);
        back.set_players([Player::Human, Player::Engine(cmd.clone())]);
        back.init_clocks(asked.map(|t| t.parse().unwrap()));
        let log = taikyoku_protocol::host::EngineLog::discard();
        let engine = super::players::external::Engine::spawn(&cmd, Side::White, log).unwrap();
        back.add_engine(engine);
        back.players.clocks.unwrap()
    };
    let back = resume(None);
    assert_eq!(back.control, c.control);
    let kept = back
        .remaining(Side::White)
        .abs_diff(c.remaining(Side::White));
    assert!(kept <= Duration::from_millis(1), "saved to the millisecond");
    assert!(!back.is_timed(Side::Black));
    // Another time control gives both sides a clock, afresh.
    assert_eq!(resume(Some("30+0")), Clocks::new("30+0".parse().unwrap()));
}

/// `--white CMD` with an unfinished game against that engine: the game is offered, and
/// resumed with the engine already started (never one from the record); a game played by
/// others is not offered.
#[test]
fn a_game_resumed_at_the_offer_goes_on_with_the_players_given() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = pusher(dir.path());
    let mut before = against_engine(&cmd);
    let (tx, rx) = mpsc::channel();
    before.tx = Some(tx);
    before.update(Msg::Resize);
    push_a_pawn(&mut before, 19);
    pump(&mut before, &rx, |a| a.history().point() == 2);
    let record = before.session.record.clone();
    drop(before);
    assert_eq!(record.white_player, format!("engine:{cmd}"));
    let path = dir.path().join("g.toml");
    taikyoku_records::store::save(&path, &record, taikyoku_records::store::Overwrite::Never)
        .unwrap();
    let mut app = against_engine(&cmd);
    assert!(app.plays_as_recorded(&record));
    let mut other = record.clone();
    other.white_player = "computer:easy".into();
    assert!(
        !app.plays_as_recorded(&other),
        "not offered with other players"
    );
    let (tx, rx) = mpsc::channel();
    app.tx = Some(tx);
    app.offer_resume((path, record));
    app.update(Msg::Key(ratatui::crossterm::event::KeyEvent::from(
        ratatui::crossterm::event::KeyCode::Enter,
    )));
    assert_eq!(app.history().point(), 2, "{}", app.status.text);
    assert!(app.players.is_engine(Side::White), "the engine plays on");
    assert_eq!(app.session.record.white, "Pusher");
    assert!(
        !app.status.text.contains("here a person plays"),
        "{}",
        app.status.text
    );
    // Its second push answers Black's next move.
    push_a_pawn(&mut app, 20);
    pump(&mut app, &rx, |a| a.history().point() == 4);
    assert_eq!(app.history().line()[3].text, "P2.11-2.12");
}

/// A Sho shogi game with these players, every side on a `time` clock (`--time`).
fn timed(black: Player, white: Player, time: &str) -> (App, Receiver<Msg>) {
    let (mut app, rx) = sho(black, white);
    app.players.stop();
    app.init_clocks(Some(time.parse().unwrap()));
    app.update(Msg::Resize);
    (app, rx)
}

/// Against the computer with a clock: the computer plays by it (well within its level's
/// time), both clocks are charged and saved with every move, and a resumed game goes on with
/// them as they stood.
#[test]
fn the_computer_plays_by_its_clock_and_the_clocks_are_saved() {
    let created = Instant::now();
    let (mut app, rx) = timed(Player::Human, computer("hard"), "3+0.5");
    let c = app.players.clocks.expect("both sides have clocks");
    assert!(c.is_timed(Side::Black) && c.is_timed(Side::White));
    std::thread::sleep(Duration::from_millis(200));
    let moved = Instant::now();
    black_moves(&mut app);
    let spent = created.elapsed();
    pump(&mut app, &rx, |a| a.history().point() == 2);
    // White's clock runs from within Black's move to its reply.
    let thought = moved.elapsed();
    // Its level allows 10 s a move; its clock's time manager far less (about 0.5 s here;
    // the bound leaves room for a loaded machine).
    assert!(thought < Duration::from_secs(5), "{thought:?}");
    let c = app.session.record.clock.expect("saved with the move");
    let black = c.remaining(Side::Black);
    // Charged at least the 0.2 s slept and at most the wall time it had the move; 0.5 s added.
    assert!(
        black <= Duration::from_millis(3300)
            && black + spent + Duration::from_millis(10) >= Duration::from_millis(3500),
        "Black charged between 0.2 s and {spent:?}, 0.5 s added: {black:?}"
    );
    let white = c.remaining(Side::White);
    assert!(
        white < Duration::from_millis(3500)
            && white + thought + Duration::from_millis(50) >= Duration::from_millis(3500),
        "White charged at most the {thought:?} it thought, 0.5 s added: {white:?}"
    );
    // On the status line: the side to move's clock in its box, the other's after it.
    let (h, left) = (
        app.history(),
        [Side::Black, Side::White].map(|s| app.players.time_left(s, app.history())),
    );
    assert!(left.iter().all(Option::is_some), "{left:?}");
    assert_eq!(h.position().to_move(), Side::Black);
    let text = app.session.record.to_toml();
    assert!(text.contains("time = \"3+0.5\"\nblack_clock = "), "{text}");
    let rec = taikyoku_records::record::Record::parse("g", &text).unwrap();
    let replay = rec.replay(&app.rules().game).unwrap();
    let k = Keymap::default();
    let back = App::from_record(rec, replay, k, Theme::default_theme(), false, false);
    assert_eq!(back.players.of(Side::White), &computer("hard"));
    let resumed = back.players.clocks.expect("resumed with its clocks");
    for side in [Side::Black, Side::White] {
        let d = resumed.remaining(side).abs_diff(c.remaining(side));
        assert!(d <= Duration::from_millis(1), "{side:?} as it stood");
    }
}

/// A person whose time runs out against the computer loses on time: announced, saved with
/// the clock at zero, and not undone (a clock cannot be turned back).
#[test]
fn a_person_whose_flag_falls_loses_on_time() {
    let (mut app, rx) = timed(Player::Human, computer("50ms"), "1+0");
    black_moves(&mut app);
    pump(&mut app, &rx, |a| a.history().point() == 2);
    app.update(Msg::Tick);
    assert!(app.outcome().is_none(), "time is left");
    let left = app.players.time_left(Side::Black, app.history()).unwrap();
    std::thread::sleep(left + Duration::from_millis(50));
    app.update(Msg::Tick);
    let o = app.outcome().expect("the flag fell");
    assert_eq!(
        (o.winner, o.reason),
        (Side::White, taikyoku_core::position::EndReason::Time)
    );
    assert!(app.status.warning);
    assert_eq!(
        app.status.text,
        "Black loses (time forfeit): its clock ran out. White wins."
    );
    assert_eq!(app.history().point(), 2, "the moves stay");
    let text = app.session.record.to_toml();
    assert!(text.contains("black_clock = 0.0\n"), "{text}");
    assert!(text.contains("termination = \"time forfeit\""), "{text}");
    app.update(Msg::Act(Action::Undo));
    assert!(app.outcome().is_some(), "still lost");
    assert!(
        app.status.text.contains("cannot be turned back"),
        "{}",
        app.status.text
    );
    assert!(
        app.players.thinking().is_none(),
        "nobody thinks after the game"
    );
}

/// A move made after the person's time ran out (before the screen noticed) is not played:
/// the flag fell first.
#[test]
fn a_move_after_the_flag_fell_loses_on_time() {
    let (mut app, _rx) = timed(Player::Human, computer("50ms"), "0.1+5");
    std::thread::sleep(Duration::from_millis(150));
    let m = app.rules().legal_moves(app.pos())[0];
    app.update(Msg::Play(m));
    assert_eq!(app.history().point(), 0, "not played");
    let o = app.outcome().expect("lost on time");
    assert_eq!(o.reason, taikyoku_core::position::EndReason::Time);
}

/// Undo takes back moves and their increments, not the time spent on them; the person's
/// clock runs again from the undo, and the autosave says so.
#[test]
fn undo_against_the_computer_takes_back_the_increments_not_the_time() {
    let (mut app, rx) = timed(Player::Human, computer("20ms"), "60+5");
    black_moves(&mut app);
    pump(&mut app, &rx, |a| a.history().point() == 2);
    let before = app.players.clocks.unwrap();
    app.update(Msg::Act(Action::Undo));
    assert_eq!(app.history().point(), 0);
    let after = app.players.clocks.unwrap();
    for side in [Side::Black, Side::White] {
        let five = Duration::from_secs(5);
        assert_eq!(after.remaining(side), before.remaining(side) - five);
        assert!(
            after.remaining(side) < Duration::from_secs(60),
            "time spent stays spent"
        );
    }
    assert_eq!(app.session.record.clock, Some(after), "saved with the undo");
    let left = app.players.time_left(Side::Black, app.history()).unwrap();
    assert!(after.remaining(Side::Black) - left < Duration::from_millis(100));
}

/// ATSI cannot stop an engine: undo while it thinks kills it, so that the undo is at once
/// and nothing waits for its answer; its next move starts it again and tells it the game
/// from scratch, so that it and the game agree on the position (its log shows what it was
/// told).
#[test]
fn undo_while_an_engine_thinks_is_at_once_and_the_engine_is_told_the_game_again() {
    let dir = tempfile::tempdir().unwrap();
    let count = dir.path().join("pushes");
    // It pushes White's pawn of file n on its n-th turn (counted across restarts); its
    // first turn thinks for a minute.
    let turn = format!(
        "n=$(cat '{f}' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '{f}'; \
         if [ $n = 1 ]; then sleep 60; fi; echo \"move ${{n}}k ${{n}}l\"",
        f = count.display()
    );
    let cmd = taikyoku_testkit::fake_engine("Slow", &[] as &[&str], &vec![turn; 5]);
    let r = Rules::new(Game::builtin("taikyoku").unwrap(), "atsa").unwrap();
    let start = r.start_position();
    let mut app = App::new(r, start, Keymap::default(), Theme::default_theme(), false);
    app.layout(Rect::new(0, 0, 120, 40));
    app.set_players([Player::Human, Player::Engine(cmd.clone())]);
    app.init_clocks(None);
    let log_path = dir.path().join("engines.log");
    let log = taikyoku_protocol::host::EngineLog::file(&log_path).unwrap();
    let engine = super::players::external::Engine::spawn(&cmd, Side::White, log).unwrap();
    app.add_engine(engine);
    let (tx, rx) = mpsc::channel();
    app.tx = Some(tx);
    app.update(Msg::Resize);
    push_a_pawn(&mut app, 19);
    let asked = Instant::now();
    while std::fs::read_to_string(&count).is_err() && asked.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(app.players.thinking().is_some(), "it thinks (for a minute)");
    let undo = Instant::now();
    app.update(Msg::Act(Action::Undo));
    assert_eq!(app.history().point(), 0, "{}", app.status.text);
    assert!(app.players.thinking().is_none());
    assert!(
        undo.elapsed() < Duration::from_millis(500),
        "{:?}",
        undo.elapsed()
    );
    // Another move: the engine, started again, answers it at once (its second push).
    push_a_pawn(&mut app, 20);
    pump(&mut app, &rx, |a| a.history().point() == 2);
    assert!(
        asked.elapsed() < Duration::from_secs(15),
        "nobody waited for the minute"
    );
    assert_eq!(app.history().line()[1].text, "P2.11-2.12");
    assert!(app.outcome().is_none(), "{}", app.status.text);
    // And the next one, in step with the game.
    push_a_pawn(&mut app, 21);
    pump(&mut app, &rx, |a| a.history().point() == 4);
    assert_eq!(app.history().line()[3].text, "P3.11-3.12");
    let log = std::fs::read_to_string(&log_path).unwrap();
    let restarted = log.rfind("started `").unwrap();
    let after = &log[restarted..];
    assert_eq!(log.matches("startgame").count(), 2, "{log}");
    assert!(log.contains("# killed while it thought"), "{log}");
    // Told the game afresh: from the opening, then Black's second push, never the first.
    assert!(after.contains("> startgame initial"), "{log}");
    assert!(after.contains("> opmove 20z 20y"), "{log}");
    assert!(!after.contains("> opmove 19z 19y"), "{log}");
}

/// A timed game against an engine, opened from its record without the engine: the side it
/// played, now at the keyboard, has no clock (it was the engine's); `--time` gives both one.
#[test]
fn an_engines_clock_does_not_pass_to_the_person_playing_its_side() {
    use taikyoku_records::timecontrol::Clocks;
    let (mut rec, _) = recorded(3, "engine:sh ./tomatene");
    let control = "60+1".parse().unwrap();
    rec.clock = Some(Clocks::new(control));
    let replay = rec.replay(&Game::builtin("sho").unwrap()).unwrap();
    let k = Keymap::default();
    let mut app = App::from_record(rec, replay, k, Theme::default_theme(), false, false);
    assert_eq!(app.players.of(Side::White), &Player::Human);
    let c = app.players.clocks.expect("Black's clock goes on");
    assert!(c.is_timed(Side::Black) && !c.is_timed(Side::White));
    app.init_clocks(Some(control));
    let c = app.players.clocks.unwrap();
    assert!(c.is_timed(Side::Black) && c.is_timed(Side::White));
}

/// While the list of games is open before anything is played, the computer may not think, so
/// its clock does not run (browsing never loses it the game on time).
#[test]
fn the_computers_clock_stands_while_it_may_not_think() {
    let (mut app, rx) = timed(computer("20ms"), Player::Human, "5+0");
    app.players.stop();
    app.dialog = Some(super::dialogs::Dialog::Games {
        games: Vec::new(),
        chosen: 0,
    });
    std::thread::sleep(Duration::from_millis(300));
    app.update(Msg::Tick);
    let left = app.players.time_left(Side::Black, app.history()).unwrap();
    assert!(left > Duration::from_millis(4900), "{left:?}");
    assert!(app.players.thinking().is_none());
    app.dialog = None;
    app.update(Msg::Tick);
    pump(&mut app, &rx, |a| a.history().point() == 1);
    assert!(app.outcome().is_none(), "{}", app.status.text);
}

//! What the best board-game programs offer, tried without a terminal: a typed move, what was
//! taken, the analysis board.

use super::app::App;
use super::dialogs::Dialog;
use super::msg::Msg;
use super::players::{Level, Player};
use super::tests::{app_with, key, keys, render, replaying, text};
use super::typed::matching;
use ratatui::crossterm::event::KeyCode;
use taikyoku_core::rules::Rules;

fn sho() -> App {
    let r = Rules::builtin("sho", "standard").unwrap();
    let p = r.start_position();
    app_with(r, p)
}

fn taikyoku() -> App {
    let r = Rules::builtin("taikyoku", "wikipedia").unwrap();
    let p = r.start_position();
    app_with(r, p)
}

/// Plays `moves` by typing each at the `:` prompt.
fn type_moves(app: &mut App, moves: &[&str]) {
    for m in moves {
        keys(app, &format!(":{m}"));
        key(app, KeyCode::Enter);
    }
}

/// What the open move prompt says (its note), or a panic when none is open.
fn note(app: &App) -> String {
    match &app.dialog {
        Some(Dialog::Move(e)) => e.note.clone(),
        d => panic!("no move prompt: {d:?}"),
    }
}

#[test]
fn a_typed_move_is_played_in_any_notation_the_command_line_takes() {
    for typed in [
        "P19.26-19.25",
        "19.26-19.25",
        "p19.26-19.25",
        " 19.26 - 19.25 ",
    ] {
        let mut app = taikyoku();
        keys(&mut app, ":");
        keys(&mut app, typed);
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.history().point(), 1, "{typed}: {}", app.status.text);
        assert_eq!(app.history().line()[0].text, "P19.26-19.25");
        assert!(app.dialog.is_none());
        assert!(
            app.status.text.contains("1. Black P19.26-19.25"),
            "{}",
            app.status.text
        );
    }
}

#[test]
fn a_bad_move_says_what_is_wrong_and_the_prompt_stays_open() {
    let mut app = taikyoku();
    for (typed, wrong) in [
        ("19.26-19.20", "cannot reach 19.20"),
        ("19.11-19.12", "it is black's turn"),
        ("40.1-40.2", "is not a square"),
        ("19.20-19.19", "there is no piece on 19.20"),
        ("hello", "expected squares"),
    ] {
        keys(&mut app, ":");
        keys(&mut app, typed);
        key(&mut app, KeyCode::Enter);
        assert!(note(&app).contains(wrong), "{typed}: {}", note(&app));
        assert_eq!(app.history().point(), 0);
        // The message is on the screen, in the status and hint lines.
        let t = text(&render(&app, 240, 70));
        assert!(t.contains(wrong), "{t}");
        key(&mut app, KeyCode::Esc);
        assert!(app.dialog.is_none());
    }
    // Sho: a capture that may promote needs + or =.
    let mut app = sho();
    type_moves(&mut app, &["7.7-7.6", "3.3-3.4"]);
    keys(&mut app, ":8.8x2.2");
    key(&mut app, KeyCode::Enter);
    assert!(note(&app).contains("add + to promote"), "{}", note(&app));
    keys(&mut app, "+");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().line()[2].text, "B8.8x2.2+");
}

#[test]
fn tab_completes_among_the_legal_moves_that_match() {
    let mut app = sho();
    assert_eq!(matching(app.history(), "7.7"), ["7.7-7.6"]);
    assert_eq!(matching(app.history(), "p7.7"), ["P7.7-7.6"]);
    assert!(
        matching(app.history(), "9.9-9.7").is_empty(),
        "the lance is blocked"
    );
    keys(&mut app, ":7.7");
    key(&mut app, KeyCode::Tab);
    assert!(matches!(&app.dialog, Some(Dialog::Move(e)) if e.text == "7.7-7.6"));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().point(), 1);
    // Several match: their common start, then each in turn.
    let knight_and_more = matching(app.history(), "");
    assert!(knight_and_more.len() > 5);
    keys(&mut app, ":G");
    key(&mut app, KeyCode::Tab);
    let first = match &app.dialog {
        Some(Dialog::Move(e)) => e.text.clone(),
        d => panic!("{d:?}"),
    };
    assert!(first.starts_with("G"), "{first}");
    assert!(note(&app).contains("moves"), "{}", note(&app));
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    let Some(Dialog::Move(e)) = &app.dialog else {
        panic!()
    };
    assert!(
        e.text.starts_with("G") && e.text.contains('-'),
        "{}",
        e.text
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().point(), 2, "{}", app.status.text);
    // Nothing matches.
    keys(&mut app, ":Q");
    key(&mut app, KeyCode::Tab);
    assert!(
        note(&app).contains("no legal move starts with"),
        "{}",
        note(&app)
    );
}

#[test]
fn in_a_replay_colon_takes_a_move_number_or_a_move_that_plays_on() {
    let mut app = replaying(6);
    let dir = tempfile::tempdir().unwrap();
    app.session.files.autosave_dir = Some(dir.path().to_path_buf());
    keys(&mut app, ":3");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().point(), 3);
    assert!(app.replay.is_some());
    // A move plays on from move 3, as a new game.
    let next = matching(app.history(), "P")[0].clone();
    keys(&mut app, ":");
    keys(&mut app, &next);
    key(&mut app, KeyCode::Enter);
    assert!(app.replay.is_none(), "{}", app.status.text);
    assert_eq!(app.history().point(), 4, "{next}: {}", app.status.text);
    assert_eq!(
        app.history().line().len(),
        4,
        "the replay's moves after 3 are gone"
    );
    assert!(
        app.status.text.starts_with("A new game from move 3: 4."),
        "{}",
        app.status.text
    );
}

#[test]
fn on_the_computers_turn_no_move_is_typed() {
    let mut app = taikyoku();
    app.set_players([Player::Human, Player::Computer(Level::default())]);
    keys(&mut app, ":19.26-19.25");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().point(), 1);
    app.update(Msg::Key(ratatui::crossterm::event::KeyEvent::from(
        KeyCode::Char(':'),
    )));
    assert!(app.dialog.is_none());
    assert!(app.status.text.contains("turn"), "{}", app.status.text);
}

/// Sho: each bishop takes the other (Black's promoting), then a pawn is taken.
fn bishops_traded() -> App {
    let mut app = sho();
    type_moves(&mut app, &["7.7-7.6", "3.3-3.4", "8.8x2.2+", "3.1x2.2"]);
    assert_eq!(app.history().point(), 4, "{}", app.status.text);
    app
}

#[test]
fn what_was_taken_is_counted_by_kind_with_the_pieces_left_and_the_balance() {
    let mut app = bishops_traded();
    let r = app.history().rules();
    let t = &app.study.tally;
    let kind = |code: &str| r.catalogue().by_code(code).unwrap();
    assert_eq!(t.took[0], [(kind("B"), 1)]);
    assert_eq!(
        t.took[1],
        [(kind("DH"), 1)],
        "the promoted bishop counts as what it was"
    );
    assert_eq!((t.left, t.own), ([20, 20], [0, 0]));
    assert_eq!(t.balance(), 0);
    // Undo: the tally is of the point shown.
    key(&mut app, KeyCode::Char('u'));
    let t = &app.study.tally;
    assert_eq!(
        (t.taken(taikyoku_core::geometry::Side::White), t.left),
        (0, [21, 20])
    );
    assert!(t.balance() > 0, "Black is a bishop up");
    assert!(
        t.balance_text().starts_with("black +"),
        "{}",
        t.balance_text()
    );
}

#[test]
fn the_taken_panel_fits_80_by_24_and_spreads_out_at_240_by_70() {
    let app = bishops_traded();
    let wide = text(&render(&app, 240, 70));
    assert!(wide.contains(" Taken "), "{wide}");
    assert!(wide.contains("▲ Black took 1: 1 Bishop"), "{wide}");
    assert!(wide.contains("△ White took 1: 1 Dragon horse"), "{wide}");
    assert!(wide.contains("Left: ▲ 20 · △ 20 · material even"), "{wide}");
    let small = text(&render(&app, 80, 24));
    assert!(!small.contains(" Taken "), "{small}");
    assert!(small.contains("took ▲1 △1 · even"), "{small}");
}

#[test]
fn a_replay_counts_what_was_taken_up_to_the_move_shown() {
    let mut app = bishops_traded();
    let record = taikyoku_records::record::Record::new(app.history());
    let replay = record.replay(&app.history().rules().game).unwrap();
    app = App::from_record(
        record,
        replay,
        super::keys::Keymap::default(),
        super::theme::Theme::default_theme(),
        false,
        true,
    );
    assert_eq!(app.study.tally.took, [vec![], vec![]]);
    keys(&mut app, ":3");
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.study.tally.taken(taikyoku_core::geometry::Side::Black),
        1
    );
    assert_eq!(
        app.study.tally.taken(taikyoku_core::geometry::Side::White),
        0
    );
}

/// Feeds the app what its background work posts on `rx` until `done` says so (at most 20 s).
fn pump(app: &mut App, rx: &std::sync::mpsc::Receiver<Msg>, done: impl Fn(&App) -> bool) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done(app) {
        let left = until.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(msg) => app.update(msg),
            Err(_) => return false,
        }
    }
    true
}

#[test]
fn the_analysis_line_deepens_in_the_background_and_follows_the_position() {
    let mut app = sho();
    let (tx, rx) = std::sync::mpsc::channel();
    app.tx = Some(tx);
    keys(&mut app, "A");
    assert!(app.analysis.on);
    assert!(
        app.status.text.starts_with("Analysis on"),
        "{}",
        app.status.text
    );
    let t = text(&render(&app, 240, 70));
    assert!(t.contains(" Analysis (A stops) "), "{t}");
    let deep = |a: &App| a.analysis.line.as_ref().is_some_and(|l| l.depth >= 3);
    assert!(pump(&mut app, &rx, deep), "no depth 3");
    let line = app.analysis.line.clone().unwrap();
    assert_eq!(line.side, taikyoku_core::geometry::Side::Black);
    assert!(!line.moves.is_empty());
    let t = text(&render(&app, 240, 70));
    assert!(t.contains(&format!("depth {}", line.depth)), "{t}");
    assert!(t.contains(&line.moves[0]), "{t}");
    // At 80×24 it folds into a row of the move list.
    let t = text(&render(&app, 80, 24));
    assert!(t.contains(&format!("A d{}", line.depth)), "{t}");
    // A move: the line is of the new position, for White.
    keys(&mut app, ":7.7-7.6");
    key(&mut app, KeyCode::Enter);
    assert!(app.analysis.line.is_none(), "the old line goes");
    let white = |a: &App| {
        a.analysis
            .line
            .as_ref()
            .is_some_and(|l| l.depth >= 2 && l.side == taikyoku_core::geometry::Side::White)
    };
    assert!(pump(&mut app, &rx, white), "no line for White");
    keys(&mut app, "A");
    assert!(!app.analysis.on && app.analysis.line.is_none());
    assert!(!text(&render(&app, 240, 70)).contains(" Analysis ("));
}

#[test]
fn the_analysis_waits_while_the_computer_thinks() {
    let mut app = sho();
    let (tx, rx) = std::sync::mpsc::channel();
    app.tx = Some(tx);
    keys(&mut app, "A");
    app.set_players([
        Player::Human,
        Player::Computer(Level::parse("200ms").unwrap()),
    ]);
    keys(&mut app, ":7.7-7.6");
    key(&mut app, KeyCode::Enter);
    assert!(
        app.analysis.paused,
        "the computer thinks: the analysis waits"
    );
    assert!(text(&render(&app, 240, 70)).contains("paused while the computer thinks"));
    let replied = |a: &App| a.history().point() == 2 && !a.analysis.paused;
    assert!(pump(&mut app, &rx, replied), "{}", app.status.text);
}

#[test]
fn t_shows_the_opponents_best_threat_on_the_board() {
    let mut app = sho();
    type_moves(&mut app, &["7.7-7.6", "3.3-3.4", "8.8x2.2+", "9.3-9.4"]);
    // Black to move, its horse on 2.2 hanging: White's silver would take it.
    keys(&mut app, "T");
    let threat = app.analysis.threat.clone().expect("a threat");
    assert_eq!(threat.side, taikyoku_core::geometry::Side::White);
    assert!(threat.text.starts_with("S3.1x2.2"), "{}", threat.text);
    assert!(
        threat.text.contains("(takes the Dragon horse)"),
        "{}",
        threat.text
    );
    assert!(threat.takes, "{threat:?}");
    assert!(
        app.status.text.starts_with("White's best threat: S3.1x2.2"),
        "{}",
        app.status.text
    );
    assert_eq!(app.board.hint, Some(threat.mv), "marked on the board");
    let d = app.history().rules().dims();
    assert_eq!(
        app.board.cursor,
        d.xy(threat.mv.from),
        "its piece under the cursor"
    );
    keys(&mut app, "T");
    assert!(app.analysis.threat.is_none() && app.board.hint.is_none());
    assert_eq!(app.status.text, "The threat is hidden.");
    // A threat is of its position: a move takes it away.
    keys(&mut app, "T");
    keys(&mut app, ":2.2x3.1");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().point(), 5, "{}", app.status.text);
    assert!(app.analysis.threat.is_none() && app.board.hint.is_none());
}

/// A replay of the bishop blunder, its moves' scores in the record's notes.
fn scored_replay() -> App {
    let mut app = sho();
    type_moves(&mut app, &["7.7-7.6", "3.3-3.4", "8.8x2.2+", "9.3-9.4"]);
    let mut record = taikyoku_records::record::Record::new(app.history());
    let notes = [
        "eval +0.10",
        "eval +0.05",
        "eval +0.20",
        "eval +9.00 · loses 8.8",
    ];
    record.set_notes(notes.map(String::from));
    let text = record.to_toml();
    let record = taikyoku_records::record::Record::parse("g.toml", &text).unwrap();
    let replay = record.replay(&app.history().rules().game).unwrap();
    let mut app = App::from_record(
        record,
        replay,
        super::keys::Keymap::default(),
        super::theme::Theme::default_theme(),
        false,
        true,
    );
    app.layout(ratatui::layout::Rect::new(0, 0, 240, 70));
    app
}

#[test]
fn the_replay_graph_marks_the_move_shown_and_flags_the_worst() {
    let mut app = scored_replay();
    let g = &app.analysis.game;
    assert_eq!(g.scores, [Some(0), Some(10), Some(5), Some(20), Some(900)]);
    assert_eq!(g.worst(app.history(), 3), [4]);
    keys(&mut app, ":2");
    key(&mut app, KeyCode::Enter);
    let t = text(&render(&app, 240, 70));
    assert!(t.contains(" Scores for Black · worst: 4 "), "{t}");
    assert!(t.contains(" move 2 "), "{t}");
    // At 80×24: a sparkline in the move list, the move shown reversed.
    let buf = render(&app, 80, 24);
    let t = text(&buf);
    let row = t
        .lines()
        .position(|l| l.contains("▁") || l.contains("█"))
        .expect("a sparkline");
    let line = t.lines().nth(row).unwrap();
    let x = line.find(|c| "▁▂▃▄▅▆▇█".contains(c)).unwrap();
    let col = unicode_width::UnicodeWidthStr::width(&line[..x]) as u16;
    let cell = |dx: u16| &buf[(col + dx, row as u16)];
    assert!(
        cell(2)
            .modifier
            .contains(ratatui::style::Modifier::REVERSED),
        "move 2 marked"
    );
    assert!(
        !cell(1)
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    );
}

#[test]
fn a_replay_without_notes_is_scored_in_the_background() {
    let (rec, replay) = {
        let app = bishops_traded();
        let r = taikyoku_records::record::Record::new(app.history());
        let rp = r.replay(&app.history().rules().game).unwrap();
        (r, rp)
    };
    let mut app = App::from_record(
        rec,
        replay,
        super::keys::Keymap::default(),
        super::theme::Theme::default_theme(),
        false,
        true,
    );
    assert_eq!(
        app.analysis.game.progress(),
        (0, 5),
        "nothing runs without a channel"
    );
    let (tx, rx) = std::sync::mpsc::channel();
    app.tx = Some(tx);
    app.update(Msg::Resize);
    let all = |a: &App| a.analysis.game.progress() == (5, 5);
    assert!(
        pump(&mut app, &rx, all),
        "{:?}",
        app.analysis.game.progress()
    );
    // Even trades: no move lost two pawns.
    assert!(
        app.analysis.game.worst(app.history(), 3).is_empty(),
        "{:?}",
        app.analysis.game.scores
    );
}

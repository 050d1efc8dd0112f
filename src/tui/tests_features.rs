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
    for m in ["7.7-7.6", "3.3-3.4"] {
        keys(&mut app, &format!(":{m}"));
        key(&mut app, KeyCode::Enter);
    }
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
    for m in ["7.7-7.6", "3.3-3.4", "8.8x2.2+", "3.1x2.2"] {
        keys(&mut app, &format!(":{m}"));
        key(&mut app, KeyCode::Enter);
    }
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

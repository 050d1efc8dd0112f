//! The terminal game without a terminal: keys and mouse into the model, the model into a
//! test buffer.

use super::app::App;
use super::dialogs::{ConfirmKind, Dialog};
use super::keys::Keymap;
use super::msg::Msg;
use super::status;
use super::theme::Theme;
use super::view;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use taikyoku_core::game::Game;
use taikyoku_core::geometry::Side;
use taikyoku_core::piece::Piece;
use taikyoku_core::reach::mark;
use taikyoku_core::rules::Rules;

fn rules(name: &str) -> Rules {
    Rules::new(Game::builtin("taikyoku").unwrap(), name).unwrap()
}

pub(super) fn app_with(rules: Rules, pos: taikyoku_core::position::Position) -> App {
    let mut app = App::new(rules, pos, Keymap::default(), Theme::default_theme(), false);
    // Wide enough for the whole board.
    let area = Rect::new(0, 0, 240, 70);
    app.layout(area);
    app
}

fn start(name: &str) -> App {
    let r = rules(name);
    let p = r.start_position();
    app_with(r, p)
}

/// A position with these pieces and both kings in far corners.
fn custom(name: &str, to_move: Side, pieces: &[(&str, Side, i32, i32)]) -> App {
    let r = rules(name);
    let mut p = r.empty_position();
    let mut all = pieces.to_vec();
    all.push(("K", Side::Black, 0, 0));
    all.push(("K", Side::White, 35, 35));
    for &(code, side, x, y) in &all {
        let kind = r.catalogue().by_code(code).unwrap();
        let sq = r.dims().square(x, y).unwrap();
        r.put(
            &mut p,
            sq,
            Some(Piece {
                kind,
                side,
                promoted: false,
            }),
        );
    }
    p.set_to_move(to_move);
    app_with(r, p)
}

pub(super) fn key(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent {
        code,
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    }));
}

pub(super) fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

pub(super) fn goto(app: &mut App, x: i32, y: i32) {
    app.board.cursor = (x, y);
    app.board.refresh_overlay(&app.session.history);
}

/// Puts the cursor on (x, y) and presses Enter (select there, or choose there).
pub(super) fn press_on(app: &mut App, x: i32, y: i32) {
    goto(app, x, y);
    key(app, KeyCode::Enter);
}

pub(super) fn render(app: &App, w: u16, h: u16) -> Buffer {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    app.render(area, &mut buf);
    buf
}

pub(super) fn text(buf: &Buffer) -> String {
    let mut s = String::new();
    for y in 0..buf.area.height {
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            s.push_str(sym);
            skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
        }
        s.push('\n');
    }
    s
}

#[test]
fn starts_on_the_own_king_with_black_below() {
    let app = start("wikipedia");
    assert_eq!(app.board.cursor, (17, 0));
    assert!(!app.board.view.flipped);
    // The king's square is in the viewport.
    let (c, r) = app.board.screen_xy(17, 0);
    let (sc, sr) = app.board.view.scroll;
    assert!(c >= sc && c < sc + app.board.geom.cols && r >= sr && r < sr + app.board.geom.rows);
}

#[test]
fn cursor_keys_move_on_screen_directions() {
    let mut app = start("wikipedia");
    keys(&mut app, "kkk");
    assert_eq!(
        app.board.cursor,
        (17, 3),
        "up the screen is forward for Black"
    );
    keys(&mut app, "l");
    assert_eq!(app.board.cursor, (18, 3));
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Left);
    assert_eq!(app.board.cursor, (16, 3));
    keys(&mut app, "K");
    assert_eq!(app.board.cursor, (16, 8), "Shift moves five");
    keys(&mut app, "f");
    assert!(app.board.view.flipped);
    keys(&mut app, "k");
    assert_eq!(
        app.board.cursor,
        (16, 7),
        "flipped: up the screen is towards Black"
    );
    // The cursor stops at the edge.
    for _ in 0..50 {
        keys(&mut app, "h");
    }
    assert_eq!(app.board.cursor.0, 35);
}

#[test]
fn selecting_explains_what_cannot_be_selected() {
    let mut app = start("wikipedia");
    press_on(&mut app, 17, 15);
    assert!(
        app.status.warning && app.status.text.contains("Nothing on"),
        "{}",
        app.status.text
    );
    press_on(&mut app, 17, 25);
    assert!(
        app.status.text.contains("is white's; it is black's turn"),
        "{}",
        app.status.text
    );
    press_on(&mut app, 17, 0);
    assert!(
        app.status.text.contains("has no legal move"),
        "{}",
        app.status.text
    );
    assert!(app.board.selection.is_none());
}

#[test]
fn a_move_by_keys_then_undo_and_redo() {
    let mut app = start("wikipedia");
    goto(&mut app, 17, 10);
    // The overlay of the pawn under the cursor: one square forward.
    let ahead = app.rules().dims().square(17, 11).unwrap().0 as usize;
    assert_eq!(app.board.overlay[ahead] & mark::QUIET, mark::QUIET);
    key(&mut app, KeyCode::Enter);
    assert!(app.board.selection.is_some());
    keys(&mut app, "k");
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(app.history().played().len(), 1);
    assert_eq!(app.history().line()[0].text, "P19.26-19.25");
    assert_eq!(app.pos().to_move(), Side::White);
    // An illegal destination is explained and nothing happens.
    press_on(&mut app, 17, 25);
    press_on(&mut app, 17, 23);
    assert!(
        app.status.text.contains("Illegal") && app.status.text.contains("does not move that way"),
        "{}",
        app.status.text
    );
    key(&mut app, KeyCode::Esc);
    assert!(app.board.selection.is_none());
    keys(&mut app, "u");
    assert_eq!(app.history().played().len(), 0);
    assert_eq!(app.pos().to_move(), Side::Black);
    app.update(Msg::Key(KeyEvent {
        code: KeyCode::Char('r'),
        modifiers: KeyModifiers::CONTROL,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    }));
    assert_eq!(app.history().played().len(), 1);
    assert_eq!(app.history().line()[0].text, "P19.26-19.25");
    keys(&mut app, "u");
    keys(&mut app, "u");
    assert!(app.status.warning && app.status.text.contains("Nothing to undo"));
}

#[test]
fn lion_double_capture_and_igui_are_chosen_by_destination() {
    let pieces = [
        ("LN", Side::Black, 10, 10),
        ("P", Side::White, 10, 11),
        ("P", Side::White, 10, 12),
    ];
    let mut app = custom("wikipedia", Side::Black, &pieces);
    press_on(&mut app, 10, 10);
    // The far pawn can be taken alone (a jump) or with the near one on the way: a menu.
    goto(&mut app, 10, 13);
    key(&mut app, KeyCode::Down);
    assert!(
        app.status.text.contains("2 ways to end here"),
        "{}",
        app.status.text
    );
    key(&mut app, KeyCode::Enter);
    let Some(Dialog::Endings { endings, .. }) = &app.dialog else {
        panic!("no menu: {}", app.status.text)
    };
    assert_eq!(endings.len(), 2);
    assert!(
        endings[0].text.contains("takes the Pawn on 26.24"),
        "{}",
        endings[0].text
    );
    assert!(
        endings[1].text.contains("removes 2 pieces"),
        "{}",
        endings[1].text
    );
    for size in [(80, 24), (100, 30), (240, 70)] {
        let t = text(&render(&app, size.0, size.1));
        assert!(t.contains("ways to end on 26.24"), "{size:?}\n{t}");
    }
    keys(&mut app, "2");
    assert_eq!(
        app.history().line().first().map(|p| p.text.as_str()),
        Some("LN26.26x26.25x26.24+"),
        "{}",
        app.status.text
    );
    assert_eq!(app.pos().pieces().count(), 3, "both pawns gone");
    keys(&mut app, "u");
    // Igui: choose the lion's own square, then the way that takes the pawn.
    press_on(&mut app, 10, 10);
    key(&mut app, KeyCode::Enter);
    let Some(Dialog::Endings { endings, .. }) = &app.dialog else {
        panic!("no menu: {}", app.status.text)
    };
    let igui = endings
        .iter()
        .position(|e| e.text.contains("x26.25-26.26"))
        .unwrap();
    keys(&mut app, &(igui + 1).to_string());
    assert_eq!(app.history().line()[0].text, "LN26.26x26.25-26.26+");
    keys(&mut app, "u");
    // Arrows and Enter choose too; Esc goes back to choosing a square.
    press_on(&mut app, 10, 10);
    press_on(&mut app, 10, 12);
    key(&mut app, KeyCode::Esc);
    assert!(app.dialog.is_none() && app.board.selection.is_some());
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().line()[0].text, "LN26.26x26.25x26.24+");
    keys(&mut app, "u");
    // Taking the near pawn alone is one press: no other way ends there.
    press_on(&mut app, 10, 10);
    press_on(&mut app, 10, 11);
    assert_eq!(app.history().line()[0].text, "LN26.26x26.25+");
}

#[test]
fn a_lion_step_that_takes_nothing_is_one_press() {
    let mut app = custom("wikipedia", Side::Black, &[("LN", Side::Black, 10, 10)]);
    press_on(&mut app, 10, 10);
    press_on(&mut app, 10, 11);
    assert!(app.dialog.is_none(), "{:?}", app.dialog);
    assert_eq!(app.history().line()[0].text, "LN26.26-26.25");
}

#[test]
fn hook_move_goes_to_its_destination_or_turns_where_chosen() {
    let mut app = custom(
        "wikipedia",
        Side::Black,
        &[("HM", Side::Black, 10, 10), ("P", Side::Black, 10, 14)],
    );
    press_on(&mut app, 10, 10);
    // Straight to 10,12 ends there at once.
    press_on(&mut app, 10, 12);
    assert_eq!(app.history().line()[0].text, "HM26.26-26.24");
    keys(&mut app, "u");
    // Round the corner: one press on the destination.
    press_on(&mut app, 10, 10);
    press_on(&mut app, 14, 12);
    let t = &app.history().line()[0].text;
    assert!(t.starts_with("HM26.26-") && t.ends_with("-22.24"), "{t}");
}

#[test]
fn promotion_is_asked_only_when_it_is_a_choice() {
    let mut app = custom("umebayashi", Side::Black, &[("G", Side::Black, 10, 24)]);
    press_on(&mut app, 10, 24);
    press_on(&mut app, 10, 25);
    assert!(matches!(app.dialog, Some(Dialog::Promote { .. })));
    keys(&mut app, "n");
    assert_eq!(app.history().line()[0].text, "G26.12-26.11=");
    keys(&mut app, "u");
    press_on(&mut app, 10, 24);
    press_on(&mut app, 10, 25);
    keys(&mut app, "y");
    assert_eq!(app.history().line()[0].text, "G26.12-26.11+");
    // Compulsory under atsa: no question.
    let mut app = custom("atsa", Side::Black, &[("G", Side::Black, 10, 24)]);
    press_on(&mut app, 10, 24);
    press_on(&mut app, 10, 25);
    assert_eq!(app.dialog, None);
    assert_eq!(app.history().line()[0].text, "G26.12-26.11+");
}

#[test]
fn game_end_resign_and_quit() {
    let mut app = custom("wikipedia", Side::Black, &[("R", Side::Black, 35, 0)]);
    // The rook takes White's only king.
    press_on(&mut app, 35, 0);
    press_on(&mut app, 35, 35);
    assert!(
        app.status.text.contains("Game over: Black wins"),
        "{}",
        app.status.text
    );
    assert!(app.outcome().is_some());
    // Still browsable.
    keys(&mut app, "hj");
    assert_eq!(app.board.cursor, (34, 34));
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.text.contains("The game is over"),
        "{}",
        app.status.text
    );
    keys(&mut app, "u");
    assert!(app.outcome().is_none());
    // Resign asks first.
    keys(&mut app, "R");
    assert!(matches!(
        app.dialog,
        Some(Dialog::Confirm {
            kind: ConfirmKind::Resign,
            ..
        })
    ));
    keys(&mut app, "y");
    assert_eq!(app.outcome().unwrap().winner, Side::White);
    keys(&mut app, "u");
    assert!(app.outcome().is_none());
    // Quit asks when the game has moves; n keeps playing.
    press_on(&mut app, 35, 0);
    press_on(&mut app, 35, 1);
    assert_eq!(app.history().played().len(), 1);
    keys(&mut app, "q");
    assert!(matches!(
        app.dialog,
        Some(Dialog::Confirm {
            kind: ConfirmKind::Quit,
            ..
        })
    ));
    keys(&mut app, "n");
    assert!(!app.quit);
    keys(&mut app, "q");
    keys(&mut app, "y");
    assert!(app.quit);
    // Ctrl-C quits at once.
    let mut app = start("wikipedia");
    app.update(Msg::Key(KeyEvent {
        code: KeyCode::Char('c'),
        modifiers: KeyModifiers::CONTROL,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    }));
    assert!(app.quit);
    // Releases do nothing (Windows sends them).
    let mut app = start("wikipedia");
    app.update(Msg::Key(KeyEvent {
        code: KeyCode::Char('k'),
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Release,
        state: KeyEventState::NONE,
    }));
    assert_eq!(app.board.cursor, (17, 0));
}

#[test]
fn find_and_goto() {
    let mut app = start("wikipedia");
    keys(&mut app, "/lion");
    key(&mut app, KeyCode::Enter);
    let k = app.rules().catalogue().by_code("LN").unwrap();
    assert_eq!(
        app.pos().piece_at(app.board.cursor_square()).unwrap().kind,
        k
    );
    assert!(app.status.text.contains("1 of 4"), "{}", app.status.text);
    keys(&mut app, "/lion");
    key(&mut app, KeyCode::Enter);
    assert!(app.status.text.contains("2 of 4"), "{}", app.status.text);
    keys(&mut app, "/furious fiend");
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.text.contains("No Furious Fiend on the board"),
        "{}",
        app.status.text
    );
    keys(&mut app, "/lyon");
    key(&mut app, KeyCode::Enter);
    assert!(app.status.text.contains("Lion (LN)"), "{}", app.status.text);
    keys(&mut app, "g1.1");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.board.cursor, (35, 35));
    keys(&mut app, "g99");
    key(&mut app, KeyCode::Enter);
    assert!(app.status.warning);
    keys(&mut app, "g");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.dialog, None);
}

#[test]
fn mouse_click_selects_and_wheel_scrolls() {
    let mut app = start("wikipedia");
    app.board.view.zoom = 2;
    let area = Rect::new(0, 0, 120, 40);
    app.layout(area);
    let g = app.board.geom;
    // Click the square in the viewport's first row and column.
    let (x, y) = app.board.square_at(g.left, g.top).unwrap();
    app.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: g.left + 1,
        row: g.top,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(app.board.cursor, (x, y));
    let before = app.board.view.scroll;
    app.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: g.left,
        row: g.top,
        modifiers: KeyModifiers::NONE,
    }));
    assert!(app.board.view.scroll.1 < before.1 || before.1 == 0);
    assert_eq!(app.board.square_at(0, 0), None);
}

#[test]
fn an_open_dialog_holds_the_mouse_and_a_paste_outside_a_prompt_warns() {
    let mut app = start("wikipedia");
    let g = app.board.geom;
    let cursor = app.board.cursor;
    keys(&mut app, "?");
    app.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: g.left + 1,
        row: g.top,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(
        app.board.cursor, cursor,
        "the click did not reach the board"
    );
    assert_eq!(app.dialog, Some(Dialog::Help(0)));
    app.update(Msg::Paste("x".into()));
    assert!(app.status.text.starts_with("Pasted text is used only"));
    assert_eq!(app.dialog, Some(Dialog::Help(0)), "the help stays open");
}

#[test]
fn each_component_takes_its_own_messages_and_passes_the_rest() {
    use super::component::{Component, Context, Reply};
    use super::keys::Action;
    let mut app = start("wikipedia");
    let super::app::App {
        session,
        board,
        panel,
        status,
        keymap,
        ..
    } = &mut app;
    let cx = Context {
        history: &session.history,
        keymap,
        tx: None,
        shown: None,
    };
    let act = |a| Msg::Act(a);
    assert_eq!(board.handle(&act(Action::Undo), &cx), Reply::Pass);
    assert_eq!(board.handle(&act(Action::Left), &cx), Reply::Done(None));
    assert_eq!(board.handle(&Msg::say("x"), &cx), Reply::Pass);
    assert_eq!(
        panel.handle(&act(Action::PanelWidth), &cx),
        Reply::Done(Some(Msg::say("The side panel is narrow.")))
    );
    assert_eq!(panel.handle(&act(Action::Left), &cx), Reply::Pass);
    assert_eq!(status.handle(&act(Action::Left), &cx), Reply::Pass);
    assert_eq!(status.handle(&Msg::warn("w"), &cx), Reply::Done(None));
    assert!(status.warning && status.text == "w");
    let mut replay = super::replay::Replay::default();
    assert_eq!(replay.handle(&act(Action::Left), &cx), Reply::Pass);
    assert_eq!(
        replay.handle(&act(Action::ReplayStart), &cx),
        Reply::Done(Some(Msg::Show(0)))
    );
    let mut help = Dialog::help();
    assert_eq!(help.handle(&Msg::Paste("x".into()), &cx), Reply::Pass);
    let esc = Msg::Key(KeyEvent {
        code: KeyCode::Esc,
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    });
    assert_eq!(help.handle(&esc, &cx), Reply::Close(None));
}

#[test]
fn the_board_and_panels_render() {
    let mut app = start("wikipedia");
    app.layout(Rect::new(0, 0, 200, 60));
    goto(&mut app, 17, 10);
    let t = text(&render(&app, 200, 60));
    assert!(t.contains(" 20   19   18 "), "file labels: {t}");
    assert!(t.contains("^歩兵"), "Black's pawns with their mark");
    assert!(t.contains("v歩兵"), "White's pawns with theirs");
    assert!(
        t.contains("Pawn (P)"),
        "the card of the piece under the cursor"
    );
    assert!(t.contains(" Board "), "the minimap");
    assert!(t.contains(" Moves "));
    assert!(t.contains("Black to move"));
    assert!(t.contains(&status::hint_text(&app.keymap, false)));
    // The pawn's square ahead is marked as a move.
    let buf = render(&app, 200, 60);
    let (c, r) = app.board.screen_xy(17, 11);
    let g = app.board.geom;
    let x = g.left + ((c - app.board.view.scroll.0) as u16) * g.cell_w;
    let y = g.top + (r - app.board.view.scroll.1) as u16;
    let cell: String = (x..x + g.cell_w)
        .map(|i| buf[(i, y)].symbol().to_string())
        .collect();
    assert!(cell.contains('o'), "{cell:?}");
    // ASCII mode: codes, with case for the side.
    keys(&mut app, "a");
    let t = text(&render(&app, 200, 60));
    assert!(t.contains("^P") && t.contains("vp"), "ASCII codes");
    // Help lists the keys from the keymap.
    keys(&mut app, "?");
    let t = text(&render(&app, 200, 60));
    assert!(t.contains("Ctrl+r") && t.contains("redo a move"), "{t}");
    assert!(t.contains("x capture"));
    // Other keys scroll it or do nothing; Esc closes it.
    keys(&mut app, "xjj");
    assert_eq!(app.dialog, Some(Dialog::Help(2)));
    let t = text(&render(&app, 100, 30));
    assert!(t.contains("3-28 of"), "where the scrolled help is: {t}");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.dialog, None);
}

#[test]
fn captures_and_victims_are_marked_without_colour() {
    let pieces = [
        ("GG", Side::Black, 10, 10),
        ("P", Side::White, 10, 12),
        ("G", Side::White, 10, 14),
    ];
    let mut app = custom("wikipedia", Side::Black, &pieces);
    goto(&mut app, 10, 10);
    let sq = |x, y| app.rules().dims().square(x, y).unwrap().0 as usize;
    assert_ne!(app.board.overlay[sq(10, 12)] & mark::CAPTURE, 0);
    assert_ne!(
        app.board.overlay[sq(10, 12)] & mark::RANGE_VICTIM,
        0,
        "flown over on the way further"
    );
    let buf = render(&app, 200, 60);
    let t = text(&buf);
    assert!(
        t.contains("x歩") || t.contains("#歩"),
        "a glyph marks the victim"
    );
}

#[test]
fn too_small_a_terminal_says_so() {
    let app = start("wikipedia");
    let t = text(&render(&app, 71, 19));
    assert!(t.contains("needs at least 72×20"), "{t}");
}

fn pawn_move(app: &mut App, x: i32, y_from: i32, y_to: i32) {
    goto(app, x, y_from);
    key(app, KeyCode::Enter);
    goto(app, x, y_to);
    key(app, KeyCode::Enter);
}

fn saved_moves(path: &std::path::Path) -> Vec<String> {
    taikyoku_records::record::Record::load(path)
        .unwrap()
        .moves()
        .to_vec()
}

#[test]
fn every_move_is_autosaved_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some(dir.path().to_path_buf());
    assert!(
        app.session.files.autosave.is_none(),
        "no file before the first move"
    );
    pawn_move(&mut app, 17, 10, 11);
    let file = app
        .session
        .files
        .autosave
        .clone()
        .expect("an autosave file");
    assert_eq!(saved_moves(&file), vec!["P19.26-19.25"]);
    pawn_move(&mut app, 17, 25, 24);
    assert_eq!(saved_moves(&file).len(), 2);
    keys(&mut app, "u");
    assert_eq!(saved_moves(&file), vec!["P19.26-19.25"]);
    keys(&mut app, "R");
    keys(&mut app, "y");
    let r = taikyoku_records::record::Record::load(&file).unwrap();
    assert_eq!(r.outcome.unwrap().winner, Side::Black, "White resigned");
    keys(&mut app, "u");
    assert!(
        taikyoku_records::record::Record::load(&file)
            .unwrap()
            .outcome
            .is_none()
    );
    // An autosaved game quits without asking: nothing can be lost.
    keys(&mut app, "q");
    assert!(app.quit);
    // Only the one file, and no temporary files left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn save_asks_for_a_name_once_and_never_clobbers_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = start("wikipedia");
    pawn_move(&mut app, 17, 10, 11);
    let file = dir.path().join("game.toml");
    keys(&mut app, "s");
    assert!(matches!(app.dialog, Some(Dialog::Prompt { .. })));
    keys(&mut app, file.to_str().unwrap());
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.text.contains("Saved 1 move to"),
        "{}",
        app.status.text
    );
    pawn_move(&mut app, 17, 25, 24);
    keys(&mut app, "s");
    assert_eq!(app.dialog, None, "no second prompt");
    assert_eq!(saved_moves(&file).len(), 2);
    // A file that is not a record is left alone.
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "my notes").unwrap();
    app.session.files.save = None;
    keys(&mut app, "s");
    keys(&mut app, other.to_str().unwrap());
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.warning && app.status.text.contains("Not saved"),
        "{}",
        app.status.text
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes");
}

fn recorded_game(
    moves: usize,
) -> (
    taikyoku_records::record::Record,
    taikyoku_records::record::Replay,
) {
    let r = rules("wikipedia");
    let start = r.start_position();
    let mut h = taikyoku_records::history::History::new(r, start);
    for i in 0..moves {
        let pos = h.position().clone();
        let m = h
            .rules()
            .legal_moves(&pos)
            .into_iter()
            .filter(|m| h.rules().captures(&pos, m).is_empty())
            .nth(i % 3)
            .unwrap();
        h.play(&m).unwrap();
    }
    let rec = taikyoku_records::record::Record::new(&h);
    let replay = rec.replay(&h.rules().game).unwrap();
    (rec, replay)
}

/// A replay of a recorded game of `moves` moves.
fn replaying(moves: usize) -> App {
    let (rec, replay) = recorded_game(moves);
    App::from_record(
        rec,
        replay,
        Keymap::default(),
        Theme::default_theme(),
        false,
        true,
    )
}

#[test]
fn replay_steps_jumps_plays_and_branches() {
    let mut app = replaying(6);
    let dir = tempfile::tempdir().unwrap();
    app.session.files.autosave_dir = Some(dir.path().to_path_buf());
    app.layout(Rect::new(0, 0, 200, 60));
    assert_eq!(app.history().point(), 0);
    keys(&mut app, "..");
    assert_eq!(app.history().point(), 2);
    assert!(
        app.status.text.contains("Move 2 of 6"),
        "{}",
        app.status.text
    );
    keys(&mut app, ",");
    assert_eq!(app.history().point(), 1);
    key(&mut app, KeyCode::End);
    assert_eq!(app.history().point(), 6);
    key(&mut app, KeyCode::Home);
    assert_eq!(app.history().point(), 0);
    keys(&mut app, ":4");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().point(), 4);
    // The move list marks the current move; the board is the position after it.
    let t = text(&render(&app, 200, 60));
    assert!(t.contains("Replay 4/6"), "{t}");
    assert!(t.contains("◀"));
    assert_eq!(app.pos(), &app.history().position_at(4));
    // Read-only: no moves, no undo.
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.warning && app.status.text.contains("This is a replay"),
        "{}",
        app.status.text
    );
    // Autoplay moves on at each tick and stops at the end.
    keys(&mut app, "P");
    assert!(
        app.replay
            .as_ref()
            .filter(|r| r.playing())
            .map(|r| r.interval)
            .is_some()
    );
    keys(&mut app, "]");
    assert_eq!(
        app.replay
            .as_ref()
            .filter(|r| r.playing())
            .map(|r| r.interval),
        Some(std::time::Duration::from_millis(400))
    );
    app.update(Msg::AutoplayStep);
    app.update(Msg::AutoplayStep);
    app.update(Msg::AutoplayStep);
    assert_eq!(app.history().point(), 6);
    assert!(
        app.replay
            .as_ref()
            .filter(|r| r.playing())
            .map(|r| r.interval)
            .is_none()
    );
    // Branch from move 3: a new game, saved as a new record.
    keys(&mut app, ":3");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "b");
    assert!(app.replay.is_none());
    assert_eq!(app.history().played().len(), 3);
    let file = app
        .session
        .files
        .autosave
        .clone()
        .expect("saved as a new record");
    assert_eq!(saved_moves(&file).len(), 3);
    assert!(
        app.status.text.contains("A new game from move 3"),
        "{}",
        app.status.text
    );
}

#[test]
fn an_unfinished_game_is_offered_for_resuming() {
    let (rec, _) = recorded_game(5);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game-x.toml");
    taikyoku_records::store::save(&path, &rec, taikyoku_records::store::Overwrite::Never).unwrap();
    let found = taikyoku_records::store::latest_unfinished(dir.path())
        .unwrap()
        .unwrap();
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some(dir.path().to_path_buf());
    app.offer_resume(found.clone());
    assert!(matches!(
        app.dialog,
        Some(Dialog::Confirm {
            kind: ConfirmKind::Resume,
            ..
        })
    ));
    let t = text(&render(&app, 200, 60));
    assert!(t.contains("Resume the unfinished game"), "{t}");
    // The keys come first, so that 80 columns show them.
    let t = text(&render(&app, 80, 24));
    assert!(
        t.contains("game? y: yes · n: new · o: all games · q: quit"),
        "{t}"
    );
    // Stray keys do nothing: only y or Enter resumes, n or Esc starts afresh, q quits.
    keys(&mut app, "jx ");
    assert!(app.dialog.is_some() && !app.quit);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().played().len(), 5);
    assert_eq!(app.session.files.autosave.as_deref(), Some(path.as_path()));
    // Declining starts afresh.
    let mut app = start("wikipedia");
    app.offer_resume(found);
    keys(&mut app, "n");
    assert_eq!(app.history().played().len(), 0);
    assert!(app.status.text.contains("A new game"));
    // o opens the list of every game instead.
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some(dir.path().to_path_buf());
    app.offer_resume(
        taikyoku_records::store::latest_unfinished(dir.path())
            .unwrap()
            .unwrap(),
    );
    keys(&mut app, "o");
    assert!(matches!(&app.dialog, Some(Dialog::Games { games, .. }) if games.len() == 1));
}

#[test]
fn autoplay_posts_its_moves_through_the_channel() {
    let mut app = replaying(4);
    let (tx, rx) = std::sync::mpsc::channel();
    app.tx = Some(tx);
    for _ in 0..5 {
        keys(&mut app, "]");
    }
    keys(&mut app, "P");
    // The timer thread posts a step per move; the game handles them as the event loop would.
    while app.history().point() < 4 {
        let msg = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("the timer posts");
        assert_eq!(msg, Msg::AutoplayStep);
        app.update(msg);
    }
    assert!(
        !app.replay.as_ref().unwrap().playing(),
        "stopped at the end"
    );
    assert!(
        app.status.text.contains("Move 4 of 4"),
        "{}",
        app.status.text
    );
}

#[test]
fn the_move_number_prompt_shows_what_is_typed() {
    let mut app = replaying(6);
    keys(&mut app, ":42");
    let t = text(&render(&app, 200, 60));
    assert!(t.contains("Go to move (0-6): 42_"), "{t}");
    // On a small terminal too, the whole prompt (the rule set gives way).
    let t = text(&render(&app, 80, 24));
    assert!(
        t.contains("Go to move (0-6): 42_   Enter to go, Esc to cancel"),
        "{t}"
    );
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().point(), 4);
}

#[test]
fn a_new_move_after_undo_starts_a_new_line() {
    let mut app = start("wikipedia");
    pawn_move(&mut app, 17, 10, 11);
    pawn_move(&mut app, 17, 25, 24);
    keys(&mut app, "u");
    assert_eq!(app.history().line().len(), 2, "redo can play it again");
    pawn_move(&mut app, 16, 25, 24);
    assert_eq!(app.history().line().len(), 2);
    assert_eq!(app.history().line()[1].text, "P20.11-20.12");
    app.update(Msg::Key(KeyEvent {
        code: KeyCode::Char('r'),
        modifiers: KeyModifiers::CONTROL,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    }));
    assert!(
        app.status.text.contains("Nothing to redo"),
        "{}",
        app.status.text
    );
}

/// What is wrong on a drawn screen: a box whose corners or sides do not meet, a border
/// character outside every box, a wide character (kanji) with something drawn over its right
/// half (the terminal would show one over the other), or one cut off at the right edge.
fn screen_faults(buf: &Buffer) -> Vec<String> {
    region_faults(buf, buf.area)
}

/// The faults of `buf` within `region` (boxes whose top left corner is in it).
fn region_faults(buf: &Buffer, region: Rect) -> Vec<String> {
    let (w, h) = (buf.area.width, buf.area.height);
    let within = |x: u16, y: u16| region.contains(ratatui::layout::Position::new(x, y));
    let sym = |x: u16, y: u16| buf[(x, y)].symbol();
    let mut faults = Vec::new();
    let mut on_box = vec![false; (w * h) as usize];
    let mut inside = vec![false; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let s = sym(x, y);
            if !within(x, y) {
                continue;
            }
            if unicode_width::UnicodeWidthStr::width(s) == 2 {
                if x + 1 >= w {
                    faults.push(format!("{s} cut off at ({x}, {y})"));
                } else if sym(x + 1, y) != " " {
                    faults.push(format!("{s} at ({x}, {y}) under {:?}", sym(x + 1, y)));
                }
            }
            if s != "┌" {
                continue;
            }
            // The box: its top right and bottom left corners, then its sides.
            let right = (x + 1..w).find(|&i| sym(i, y) == "┐");
            let bottom = (y + 1..h).find(|&j| sym(x, j) == "└");
            let (Some(r), Some(b)) = (right, bottom) else {
                faults.push(format!("box at ({x}, {y}) has no corners"));
                continue;
            };
            if sym(r, b) != "┘" {
                faults.push(format!("box at ({x}, {y}) has no ┘ at ({r}, {b})"));
            }
            for j in y + 1..b {
                for i in [x, r] {
                    if sym(i, j) != "│" {
                        faults.push(format!("box at ({x}, {y}): {:?} at ({i}, {j})", sym(i, j)));
                    }
                }
            }
            for j in y..=b {
                for i in x..=r {
                    let at = (j * w + i) as usize;
                    if j == y || j == b || i == x || i == r {
                        on_box[at] = true;
                    } else {
                        inside[at] = true;
                    }
                }
            }
        }
    }
    for y in 0..h {
        for x in 0..w {
            let at = (y * w + x) as usize;
            if within(x, y)
                && "┌┐└┘│─".contains(sym(x, y))
                && sym(x, y) != " "
                && !on_box[at]
                && !inside[at]
            {
                faults.push(format!("stray {:?} at ({x}, {y})", sym(x, y)));
            }
        }
    }
    faults
}

const SIZES: [(u16, u16); 4] = [(80, 24), (100, 30), (160, 50), (240, 70)];

/// Renders at every size and fails with the faults found. With the help open: the screen
/// under it is clean, the help box is, and the help changes nothing outside its box (the
/// status and hint lines stay).
fn assert_clean(app: &mut App, what: &str) {
    for (w, h) in SIZES {
        app.layout(Rect::new(0, 0, w, h));
        let buf = render(app, w, h);
        let faults = match app.dialog.take() {
            Some(d @ Dialog::Help(_)) => {
                let under = render(app, w, h);
                app.dialog = Some(d);
                let t = text(&buf);
                let top = t.lines().position(|l| l.contains("┌ Help")).unwrap();
                let y = top as u16;
                let left = (0..w - 2)
                    .find(|&x| buf[(x, y)].symbol() == "┌" && buf[(x + 2, y)].symbol() == "H")
                    .unwrap();
                let r = (left..w)
                    .find(|&x| buf[(x, top as u16)].symbol() == "┐")
                    .unwrap();
                let b = (top as u16..h)
                    .find(|&y| buf[(left, y)].symbol() == "└")
                    .unwrap();
                assert!(
                    b < h - 2,
                    "{what} at {w}×{h}: the help covers the status line"
                );
                let help = Rect::new(left, top as u16, r - left + 1, b - top as u16 + 1);
                let mut faults = screen_faults(&under);
                faults.extend(region_faults(&buf, help));
                for y in 0..h {
                    for x in 0..w {
                        let p = ratatui::layout::Position::new(x, y);
                        let beside = x + 1 == help.x && help.contains((x + 1, y).into());
                        if !help.contains(p) && !beside && buf[(x, y)] != under[(x, y)] {
                            faults.push(format!("the help drew at ({x}, {y})"));
                        }
                    }
                }
                faults
            }
            d => {
                app.dialog = d;
                screen_faults(&buf)
            }
        };
        assert!(
            faults.is_empty(),
            "{what} at {w}×{h}: {faults:?}\n{}",
            text(&buf)
        );
    }
}

#[test]
fn the_render_check_finds_broken_borders_and_overlaps() {
    let area = Rect::new(0, 0, 10, 4);
    let mut buf = Buffer::empty(area);
    ratatui::widgets::Widget::render(
        ratatui::widgets::Block::bordered(),
        Rect::new(1, 0, 6, 4),
        &mut buf,
    );
    assert!(screen_faults(&buf).is_empty());
    buf.set_string(0, 1, "獅", ratatui::style::Style::new());
    assert_eq!(screen_faults(&buf).len(), 1, "a kanji under the border");
    let mut buf = Buffer::empty(area);
    buf.set_string(3, 2, "─│", ratatui::style::Style::new());
    assert_eq!(screen_faults(&buf).len(), 2, "stray border characters");
}

#[test]
fn every_screen_is_drawn_cleanly_at_every_size() {
    let mut app = start("wikipedia");
    assert_clean(&mut app, "the start");
    goto(&mut app, 17, 10);
    assert_clean(&mut app, "a pawn's card");
    for code in ["LI", "FE", "LN"] {
        let k = app.rules().catalogue().by_code(code).unwrap();
        app.board.inspect = Some(k);
        goto(&mut app, 17, 17);
        assert_clean(&mut app, code);
    }
    keys(&mut app, "?");
    assert_clean(&mut app, "the help");
    keys(&mut app, "jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj");
    assert_clean(&mut app, "the help scrolled");
    key(&mut app, KeyCode::Esc);
    for k in ["a", "f", "\t", "\t", "w", "w", "w"] {
        match k {
            "\t" => key(&mut app, KeyCode::Tab),
            _ => keys(&mut app, k),
        }
        assert_clean(&mut app, k);
    }
    let mut app = replaying(6);
    assert_clean(&mut app, "a replay");
    keys(&mut app, "?");
    assert_clean(&mut app, "the help in a replay");
    let sho = Rules::new(Game::builtin("sho").unwrap(), "standard").unwrap();
    let p = sho.start_position();
    assert_clean(&mut app_with(sho, p), "Sho shogi");
}

/// The cells of the board's screen row `r` (from the top of the viewport), as text.
fn board_row(app: &App, buf: &Buffer, r: i32) -> String {
    let g = app.board.geom;
    let mut row = String::new();
    let mut x = g.left;
    while x < g.left + g.cols as u16 * g.cell_w {
        let s = buf[(x, g.top + r as u16)].symbol();
        row.push_str(s);
        x += unicode_width::UnicodeWidthStr::width(s).max(1) as u16;
    }
    row
}

#[test]
fn every_piece_is_told_apart_at_the_default_zoom_and_ascii_codes_stay_apart() {
    let mut app = start("wikipedia");
    app.layout(Rect::new(0, 0, 240, 70));
    let buf = render(&app, 240, 70);
    assert_eq!(app.board.geom.cols, 36, "the whole board fits at 240×70");
    // White's back rank, as drawn: every piece's two-kanji label after its mark.
    let back = board_row(&app, &buf, 0);
    let cat = app.rules().catalogue();
    let d = app.rules().dims();
    for x in 0..36 {
        let p = app.pos().piece_at(d.square(x, 35).unwrap()).unwrap();
        assert!(
            back.contains(&format!("v{}", cat.kind(p.kind).label2)),
            "{back}"
        );
    }
    // ASCII: every code stands apart, a blank before the next mark.
    keys(&mut app, "a");
    app.layout(Rect::new(0, 0, 240, 70));
    let buf = render(&app, 240, 70);
    let row = board_row(&app, &buf, 0);
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells.len(), 36, "{row}");
    for c in cells {
        assert!(c.starts_with('v') && c.len() <= 4, "{c:?} in {row}");
    }
    // Narrower squares in ASCII still keep a blank between codes.
    keys(&mut app, "--");
    assert!(app.board.cell_width() >= 5);
    // `/獅` finds a lion (the one-kanji label the narrowest squares show).
    let mut app = start("wikipedia");
    keys(&mut app, "/獅");
    key(&mut app, KeyCode::Enter);
    let k = app.pos().piece_at(app.board.cursor_square()).unwrap().kind;
    assert_eq!(
        app.rules().catalogue().kind(k).label,
        "獅",
        "{}",
        app.status.text
    );
    keys(&mut app, "/獅子");
    key(&mut app, KeyCode::Enter);
    assert!(app.status.text.starts_with("Lion: "), "{}", app.status.text);
}

#[test]
fn side_marks_follow_the_flip_and_only_promotion_is_underlined() {
    let mut app = start("wikipedia");
    app.layout(Rect::new(0, 0, 240, 70));
    let top = |app: &App| board_row(app, &render(app, 240, 70), 0);
    assert!(top(&app).starts_with('v'), "White's back rank faces down");
    keys(&mut app, "f");
    app.layout(Rect::new(0, 0, 240, 70));
    let row = top(&app);
    assert!(
        row.starts_with('v'),
        "Black's pieces, now on top, face down: {row}"
    );
    let k = app
        .pos()
        .piece_at(app.rules().dims().square(0, 0).unwrap())
        .unwrap();
    assert_eq!(k.side, Side::Black);
    let buf = render(&app, 240, 70);
    let g = app.board.geom;
    let bottom: String = (g.left..g.left + 10)
        .map(|x| buf[(x, g.top + 35)].symbol())
        .collect();
    assert!(bottom.starts_with('^'), "White's pieces face up: {bottom}");
    // No theme underlines a piece that has not promoted.
    for name in Theme::NAMES {
        let mut app = start("wikipedia");
        app.theme = Theme::by_name(name).unwrap();
        pawn_move(&mut app, 17, 10, 11);
        app.layout(Rect::new(0, 0, 240, 70));
        let buf = render(&app, 240, 70);
        let g = app.board.geom;
        for y in g.top..g.top + 36 {
            for x in g.left..g.left + 36 * g.cell_w {
                let c = &buf[(x, y)];
                let kanji = unicode_width::UnicodeWidthStr::width(c.symbol()) == 2;
                assert!(
                    !kanji || !c.modifier.contains(ratatui::style::Modifier::UNDERLINED),
                    "{name}: {} at ({x}, {y}) underlined",
                    c.symbol()
                );
            }
        }
    }
}

#[test]
fn the_rule_set_is_shown_and_the_promotion_question_names_the_new_piece() {
    let mut app = start("umebayashi");
    for (w, h) in SIZES {
        app.layout(Rect::new(0, 0, w, h));
        let t = text(&render(&app, w, h));
        let status = t.lines().nth(h as usize - 2).unwrap();
        assert!(status.contains("umebayashi rules"), "{w}×{h}: {status}");
        assert!(!status.contains("to move. "), "the turn once: {status}");
    }
    // A pawn one step from the zone under umebayashi (optional promotion).
    let mut app = custom("umebayashi", Side::Black, &[("P", Side::Black, 5, 24)]);
    goto(&mut app, 5, 24);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 5, 25);
    key(&mut app, KeyCode::Enter);
    let line = app
        .dialog
        .as_ref()
        .unwrap()
        .status_line(app.history())
        .unwrap();
    assert_eq!(
        line,
        "Promote the Pawn (P) to Gold General (G)? y / n (Esc to choose again)"
    );
}

#[test]
fn the_side_panel_uses_spare_width_hides_and_its_card_scrolls() {
    let mut app = start("wikipedia");
    let a = view::areas(&app, Rect::new(0, 0, 240, 70));
    assert_eq!(
        a.card.unwrap().width,
        240 - 184,
        "the width the board leaves"
    );
    assert_eq!(a.minimap, None, "the whole board shows: no minimap needed");
    assert!(a.moves.is_some());
    // `w`: narrow, hidden (the board takes the width), back.
    keys(&mut app, "w");
    let narrow = view::areas(&app, Rect::new(0, 0, 100, 30));
    keys(&mut app, "w");
    let hidden = view::areas(&app, Rect::new(0, 0, 100, 30));
    assert_eq!(hidden.card, None);
    assert_eq!(hidden.board.width, 100);
    assert!(narrow.card.unwrap().width < view::PANEL_WIDTH);
    keys(&mut app, "w");
    assert_eq!(app.panel.layout, super::panels::Panel::default());
    // The lion hawk's card is longer than the panel at 100×30: it says so and scrolls to its
    // end; its diagram's own symbols are explained under it.
    let k = app.rules().catalogue().by_code("LI").unwrap();
    app.board.inspect = Some(k);
    goto(&mut app, 17, 17);
    let t = text(&render(&app, 100, 30));
    assert!(t.contains("} more"), "{t}");
    assert!(!t.contains("@ go on"), "{t}");
    for _ in 0..20 {
        keys(&mut app, "}");
    }
    let t = text(&render(&app, 100, 30));
    assert!(t.contains("@ go on") && t.contains("{ back"), "{t}");
    let t = text(&render(&app, 240, 70));
    assert!(t.contains("☆ jumps to"), "{t}");
    assert!(
        !t.contains("◆ range capture"),
        "only the symbols it uses: {t}"
    );
    // Another piece's card starts at its top.
    goto(&mut app, 17, 10);
    let t = text(&render(&app, 100, 30));
    assert!(t.contains("Pawn (P)"), "{t}");
}

#[test]
fn the_move_list_and_the_minimap_are_reachable_on_small_terminals() {
    for mut app in [start("wikipedia"), replaying(6)] {
        let a = view::areas(&app, Rect::new(0, 0, 80, 24));
        assert!(a.card.is_some() && a.moves.is_some(), "{a:?}");
        let t = text(&render(&app, 80, 24));
        assert!(t.contains(" Moves ") || t.contains(" Replay "), "{t}");
        // Tab brings the minimap to the front, with the viewport framed on it.
        key(&mut app, KeyCode::Tab);
        app.layout(Rect::new(0, 0, 80, 24));
        let a = view::areas(&app, Rect::new(0, 0, 80, 24));
        let m = a.minimap.expect("the minimap");
        let t = text(&render(&app, 80, 24));
        let frame: String = t
            .lines()
            .skip(m.y as usize + 1)
            .take(m.height as usize - 2)
            .collect();
        assert!(frame.contains('┌') && frame.contains('┘'), "{t}");
        key(&mut app, KeyCode::Tab);
        let a = view::areas(&app, Rect::new(0, 0, 80, 24));
        assert!(a.moves.unwrap().height > 5, "the move list in front");
    }
    // 160×50: the board does not fit, so the minimap shows with everything else.
    let app = start("wikipedia");
    let a = view::areas(&app, Rect::new(0, 0, 160, 50));
    assert!(a.card.is_some() && a.minimap.is_some() && a.moves.is_some());
}

/// Issue 7 point 20: the status line's wording.
#[test]
fn status_lines_say_things_once_and_in_good_english() {
    let mut app = custom("wikipedia", Side::Black, &[("R", Side::Black, 35, 0)]);
    goto(&mut app, 35, 0);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 35, 35);
    key(&mut app, KeyCode::Enter);
    let t = &app.status.text;
    assert!(
        t.starts_with("1. Black R1.36x1.1+. Game over: Black wins"),
        "{t}"
    );
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.text.contains("over: Black won"),
        "{}",
        app.status.text
    );
    key(&mut app, KeyCode::Home);
    let t = &app.status.text;
    assert_eq!(
        t,
        "Home (to the start) works only in a replay: taikyoku replay FILE."
    );
    keys(&mut app, "/rok");
    key(&mut app, KeyCode::Enter);
    let t = &app.status.text;
    assert!(
        t.contains("Rook (R)") && t.ends_with("?") && !t.contains("?."),
        "{t}"
    );
    // A pawn's card counts one square in the singular.
    let mut app = start("wikipedia");
    goto(&mut app, 17, 10);
    let t = text(&render(&app, 240, 70));
    assert!(t.contains("1 square it can reach from here"), "{t}");
    pawn_move(&mut app, 17, 10, 11);
    assert!(
        app.status.text.starts_with("1. Black P19.26-19.25."),
        "no turn after it: {}",
        app.status.text
    );
}

/// What the board shows on square (x, y): its cells, trimmed.
pub(super) fn cell(app: &App, x: i32, y: i32) -> String {
    let buf = render(app, 240, 70);
    let g = app.board.geom;
    let (c, r) = app.board.screen_xy(x, y);
    let (sc, sr) = app.board.view.scroll;
    let col = g.left + ((c - sc) as u16) * g.cell_w;
    let row = g.top + (r - sr) as u16;
    let mut s = String::new();
    for i in 0..g.cell_w {
        s.push_str(buf[(col + i, row)].symbol());
    }
    s.trim().to_string()
}

pub(super) fn sq(app: &App, x: i32, y: i32) -> taikyoku_core::geometry::Square {
    app.rules().dims().square(x, y).unwrap()
}

#[test]
fn marks_are_the_same_hovering_and_selected() {
    // A great general (range capture) and a lion, with pieces around.
    let pieces = [
        ("GG", Side::Black, 10, 10),
        ("P", Side::White, 10, 12),
        ("P", Side::White, 10, 14),
        ("P", Side::Black, 12, 12),
        ("LN", Side::Black, 20, 10),
        ("P", Side::White, 20, 11),
    ];
    let mut app = custom("wikipedia", Side::Black, &pieces);
    for (x, y) in [(10, 10), (20, 10)] {
        goto(&mut app, x, y);
        let hover = app.board.overlay.clone();
        let shown: Vec<String> = [(10, 12), (10, 13), (10, 14), (10, 15), (20, 11), (20, 12)]
            .iter()
            .map(|&(a, b)| cell(&app, a, b))
            .collect();
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.board.overlay, hover, "the marks stay when selected");
        let selected: Vec<String> = [(10, 12), (10, 13), (10, 14), (10, 15), (20, 11), (20, 12)]
            .iter()
            .map(|&(a, b)| cell(&app, a, b))
            .collect();
        assert_eq!(shown, selected);
        key(&mut app, KeyCode::Esc);
    }
    goto(&mut app, 10, 10);
    // The first pawn: taken outright, and removed by a range capture further on (`x`); the
    // second: `x` too; beyond it, a jump over the pawns `*`; the own pawn off the line: none.
    assert!(
        cell(&app, 10, 12).starts_with('x'),
        "{}",
        cell(&app, 10, 12)
    );
    assert_eq!(cell(&app, 10, 15), "*");
    assert_eq!(cell(&app, 10, 11), "o");
    let v = app.board.overlay[sq(&app, 10, 12).0 as usize];
    assert_ne!(v & mark::RANGE_VICTIM, 0);
    // No `+` where nothing promotes (wikipedia promotes on a first capture only).
    assert!(!cell(&app, 10, 11).contains('+'));
    // The lion: the pawn next to it is a stop as well as a capture, and one Enter takes it:
    // `x`, not `@`.
    goto(&mut app, 20, 10);
    assert!(
        cell(&app, 20, 11).starts_with('x'),
        "{}",
        cell(&app, 20, 11)
    );
    assert_eq!(
        cell(&app, 20, 10).chars().next(),
        Some('^'),
        "not its own destination yet"
    );
    // After the first leg onto the pawn (the pawn's only stop), the pawn is taken on the way
    // (`!`) and the square to come back to (igui) is marked `o`.
    key(&mut app, KeyCode::Enter);
    let pawn = sq(&app, 20, 11);
    app.board.selection.as_mut().unwrap().legs.push(pawn);
    app.board.refresh_overlay(&app.session.history);
    assert!(
        cell(&app, 20, 11).starts_with('!'),
        "{}",
        cell(&app, 20, 11)
    );
    assert!(
        cell(&app, 20, 10).starts_with('o'),
        "{}",
        cell(&app, 20, 10)
    );
    // `#`: a piece a range capture removes on the way further, not capturable itself.
    let mut app = custom(
        "wikipedia",
        Side::Black,
        &[("GG", Side::Black, 10, 10), ("P", Side::Black, 10, 12)],
    );
    goto(&mut app, 10, 10);
    assert!(
        cell(&app, 10, 12).starts_with('#'),
        "{}",
        cell(&app, 10, 12)
    );
    key(&mut app, KeyCode::Enter);
    assert!(cell(&app, 10, 12).starts_with('#'), "kept when selected");
}

#[test]
fn the_last_move_is_marked_apart_from_captures() {
    let pieces = [
        ("LN", Side::Black, 10, 10),
        ("P", Side::White, 10, 11),
        ("P", Side::White, 10, 12),
    ];
    let mut app = custom("wikipedia", Side::Black, &pieces);
    // Igui: the lion takes the pawn and stays; what it took is marked on the empty square.
    press_on(&mut app, 10, 10);
    key(&mut app, KeyCode::Enter);
    let Some(Dialog::Endings { endings, .. }) = &app.dialog else {
        panic!("no menu")
    };
    let igui = endings
        .iter()
        .position(|e| e.text.contains("x26.25-26.26"))
        .unwrap();
    keys(&mut app, &(igui + 1).to_string());
    // The taken pawn's square shows `~`, not the capture mark `x`.
    goto(&mut app, 30, 30);
    assert_eq!(cell(&app, 10, 11), "~");
    // In a replay, the moved piece's marks never hide what the move took.
    let (mut rec, _) = recorded_game(0);
    rec.start = taikyoku_core::notation::position_string(app.rules(), app.history().start());
    let mut h = taikyoku_records::history::History::new(
        app.history().shared_rules(),
        app.history().start().clone(),
    );
    h.play_text("LN26.26x26.25-26.26").unwrap();
    rec.update(&h);
    let replay = rec.replay(&app.rules().game).unwrap();
    let mut app = App::from_record(
        rec,
        replay,
        Keymap::default(),
        Theme::default_theme(),
        false,
        true,
    );
    app.layout(Rect::new(0, 0, 240, 70));
    app.update(Msg::Show(1));
    goto(&mut app, 10, 10);
    assert_eq!(
        cell(&app, 10, 11),
        "~",
        "the lion's own marks do not hide it"
    );
}

#[test]
fn a_royal_that_can_be_taken_is_marked() {
    // White's rook aims at Black's king on 0,0 along the first rank.
    let mut app = custom(
        "wikipedia",
        Side::White,
        &[("R", Side::White, 5, 8), ("P", Side::White, 30, 30)],
    );
    assert!(app.board.danger.is_empty());
    press_on(&mut app, 5, 8);
    press_on(&mut app, 5, 0);
    assert_eq!(app.board.danger.len(), 1, "{}", app.status.text);
    assert!(
        app.status
            .text
            .contains("Black's King on 36.36 can be taken (by the Rook on 31.36)!"),
        "{}",
        app.status.text
    );
    assert!(cell(&app, 0, 0).starts_with('&'), "{}", cell(&app, 0, 0));
    keys(&mut app, "r");
    assert_eq!(app.board.cursor, (0, 0), "r goes to the royal in danger");
    keys(&mut app, "u");
    assert!(app.board.danger.is_empty());
    // A game that starts with a royal in danger says so at once.
    let app = custom("wikipedia", Side::Black, &[("R", Side::White, 5, 0)]);
    assert!(
        app.status.text.contains("can be taken"),
        "{}",
        app.status.text
    );
}

#[test]
fn the_status_line_previews_a_move_and_own_losses_are_confirmed() {
    let pieces = [
        ("GG", Side::Black, 10, 10),
        ("P", Side::Black, 10, 12),
        ("P", Side::White, 10, 13),
        ("P", Side::White, 10, 14),
    ];
    let mut app = custom("wikipedia", Side::Black, &pieces);
    press_on(&mut app, 10, 10);
    goto(&mut app, 10, 12);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    assert_eq!(app.board.cursor, (10, 14));
    assert!(
        app.status.text.contains("x26.22")
            && app
                .status
                .text
                .contains("removes 3 pieces, 1 of them yours"),
        "{}",
        app.status.text
    );
    key(&mut app, KeyCode::Enter);
    assert!(matches!(
        app.dialog,
        Some(Dialog::Confirm {
            kind: ConfirmKind::OwnCapture(_),
            ..
        })
    ));
    let t = text(&render(&app, 200, 60));
    assert!(
        t.contains("1 of them yours") && t.contains("Play it? y / n"),
        "{t}"
    );
    keys(&mut app, "n");
    assert!(app.history().played().is_empty());
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "y");
    assert_eq!(app.history().played().len(), 1);
    assert_eq!(app.pos().pieces().count(), 3, "GG and the kings");
    // The setting turns the question off.
    keys(&mut app, "u");
    app.confirm_own_captures = false;
    press_on(&mut app, 10, 10);
    press_on(&mut app, 10, 14);
    assert_eq!(app.history().played().len(), 1);
    // A plain step says it takes nothing.
    keys(&mut app, "u");
    press_on(&mut app, 10, 10);
    key(&mut app, KeyCode::Left);
    assert!(
        app.status.text.contains("takes nothing"),
        "{}",
        app.status.text
    );
}

#[test]
fn each_side_finds_its_cursor_again_and_jumps() {
    let mut app = start("wikipedia");
    // Black plays a pawn; White plays one; Black's cursor is back where Black left it.
    pawn_move(&mut app, 20, 10, 11);
    let black_cursor = app.board.cursors[0];
    assert_eq!(black_cursor, Some((20, 11)));
    pawn_move(&mut app, 20, 25, 24);
    assert_eq!(app.board.cursor, (20, 11), "Black's cursor again");
    // m: to the last move; r: to one's own king.
    keys(&mut app, "m");
    assert_eq!(app.board.cursor, (20, 24));
    keys(&mut app, "r");
    let royal = app.pos().piece_at(app.board.cursor_square()).unwrap();
    assert!(royal.side == Side::Black && app.rules().catalogue().kind(royal.kind).royal);
    // A cursor move says nothing without a selection (it is not a replay key).
    key(&mut app, KeyCode::Left);
    assert!(!app.status.warning, "{}", app.status.text);
    key(&mut app, KeyCode::Right);
    // PageUp moves a screen up.
    let rows = app.board.geom.rows;
    let y0 = app.board.cursor.1;
    key(&mut app, KeyCode::PageUp);
    assert_eq!(app.board.cursor.1, (y0 + rows - 1).min(35));
    key(&mut app, KeyCode::PageDown);
    assert_eq!(app.board.cursor.1, y0);
    // `/` then Enter repeats the last search.
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "Lion");
    key(&mut app, KeyCode::Enter);
    let first = app.board.cursor;
    key(&mut app, KeyCode::Char('/'));
    key(&mut app, KeyCode::Enter);
    assert_ne!(app.board.cursor, first, "{}", app.status.text);
    assert!(app.status.text.contains("Lion"), "{}", app.status.text);
}

#[test]
fn save_names_get_toml_and_go_to_the_games_folder() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    let p = super::session::save_path("mine", Some(&games));
    assert_eq!(p, games.join("mine.toml"));
    assert_eq!(
        super::session::save_path("/tmp/x.rec", Some(&games)),
        std::path::PathBuf::from("/tmp/x.rec")
    );
    let mut app = start("wikipedia");
    app.session.files.games_dir = Some(games.clone());
    pawn_move(&mut app, 20, 10, 11);
    keys(&mut app, "s");
    let t = text(&render(&app, 200, 60));
    assert!(
        t.contains(&format!("a name goes in {}", games.display())),
        "{t}"
    );
    keys(&mut app, "first");
    key(&mut app, KeyCode::Enter);
    assert!(games.join("first.toml").is_file(), "{}", app.status.text);
    // s saves there again without asking; S (save as) asks for a new name.
    keys(&mut app, "s");
    assert!(app.dialog.is_none());
    keys(&mut app, "S");
    keys(&mut app, "second");
    key(&mut app, KeyCode::Enter);
    assert!(games.join("second.toml").is_file(), "{}", app.status.text);
    assert_eq!(
        app.session.files.save.as_deref(),
        Some(games.join("second.toml").as_path())
    );
}

#[test]
fn a_resumed_autosave_asks_for_a_name_once_and_recent_games_open() {
    let (rec, _) = recorded_game(5);
    let dir = tempfile::tempdir().unwrap();
    let autosaves = dir.path().join("autosave");
    std::fs::create_dir_all(&autosaves).unwrap();
    let path = autosaves.join("game-x.toml");
    taikyoku_records::store::save(&path, &rec, taikyoku_records::store::Overwrite::Never).unwrap();
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some(autosaves.clone());
    app.session.files.games_dir = Some(dir.path().join("games"));
    app.offer_resume(
        taikyoku_records::store::latest_unfinished(&autosaves)
            .unwrap()
            .unwrap(),
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().played().len(), 5);
    keys(&mut app, "s");
    assert!(app.dialog.is_some(), "the first s asks for a name");
    keys(&mut app, "named");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "s");
    assert!(app.dialog.is_none(), "then it has one");
    // Named in the games folder, the game is autosaved there: its old autosave is gone.
    assert!(!path.is_file());
    let path = dir.path().join("games/named.toml");
    // The list of games (o) opens any of them.
    let listed = vec![super::session::Listed {
        line: super::session::summary(&path, &rec),
        path: path.clone(),
        unfinished: true,
    }];
    assert!(
        listed[0].line.contains("5 moves")
            && listed[0].line.contains("wikipedia")
            && listed[0].line.contains("unfinished"),
        "{}",
        listed[0].line
    );
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some(autosaves.clone());
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('o'),
        KeyModifiers::NONE,
    )));
    app.dialog = Some(Dialog::Games {
        games: listed,
        chosen: 0,
    });
    for size in [(80, 24), (100, 30), (240, 70)] {
        let t = text(&render(&app, size.0, size.1));
        assert!(
            t.contains("Recent and unfinished games") && t.contains("5 moves"),
            "{size:?}\n{t}"
        );
    }
    app.session.files.games_dir = Some(dir.path().join("games"));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().played().len(), 5);
    assert_eq!(app.session.files.autosave.as_deref(), Some(path.as_path()));
    assert_eq!(app.session.files.save.as_deref(), Some(path.as_path()));
}

/// An app whose game is loaded from the record at `path` (as `play --load` does).
fn loaded(path: &std::path::Path) -> App {
    let rec = taikyoku_records::record::Record::load(path).unwrap();
    let replay = rec.replay(&rules("wikipedia").game).unwrap();
    let mut app = App::from_record(
        rec,
        replay,
        Keymap::default(),
        Theme::default_theme(),
        false,
        false,
    );
    app.layout(Rect::new(0, 0, 200, 60));
    app
}

fn save_as(app: &mut App, path: &std::path::Path) {
    keys(app, "s");
    keys(app, path.to_str().unwrap());
    key(app, KeyCode::Enter);
}

#[test]
fn a_failed_autosave_stays_visible_and_quitting_offers_to_save_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    // The autosave directory cannot be made: a file is in the way.
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, "").unwrap();
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some(blocked.join("autosave"));
    pawn_move(&mut app, 17, 10, 11);
    assert!(app.status.warning && app.status.text.contains("Autosave failed"));
    // The game goes on, and the marker stays whatever the status line says next.
    pawn_move(&mut app, 17, 25, 24);
    key(&mut app, KeyCode::Char('?'));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.history().point(), 2);
    assert!(text(&render(&app, 120, 40)).contains("NOT SAVED"));
    // Quitting warns, and "no" offers to save elsewhere.
    keys(&mut app, "q");
    assert!(!app.quit);
    let Some(Dialog::Confirm { kind, question }) = &app.dialog else {
        panic!("{:?}", app.dialog)
    };
    assert_eq!(*kind, ConfirmKind::QuitUnsaved);
    assert!(question.contains("NOT saved: y quits") && question.contains("Autosave failed"));
    keys(&mut app, "n");
    assert!(matches!(app.dialog, Some(Dialog::Prompt { .. })));
    let file = dir.path().join("rescued.toml");
    keys(&mut app, file.to_str().unwrap());
    key(&mut app, KeyCode::Enter);
    assert_eq!(saved_moves(&file).len(), 2);
    assert!(!text(&render(&app, 120, 40)).contains("NOT SAVED"));
    // Once the autosave works again, the marker is gone for good.
    app.session.files.autosave_dir = Some(dir.path().join("autosave"));
    pawn_move(&mut app, 16, 10, 11);
    assert!(
        !app.status.unsaved && !app.status.warning,
        "{}",
        app.status.text
    );
}

#[test]
fn saving_over_another_game_asks_and_saving_again_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("alice.toml");
    let mut alice = start("wikipedia");
    alice.session.record.black = "Alice".into();
    pawn_move(&mut alice, 17, 10, 11);
    save_as(&mut alice, &file);
    assert_eq!(saved_moves(&file).len(), 1);
    let mut other = start("wikipedia");
    pawn_move(&mut other, 16, 10, 11);
    pawn_move(&mut other, 16, 25, 24);
    save_as(&mut other, &file);
    let Some(Dialog::Confirm { question, .. }) = &other.dialog else {
        panic!("{:?}", other.dialog)
    };
    assert!(
        question.starts_with("Replace another game? y / n")
            && question.contains("holds Alice vs (none), 1 move, started"),
        "{question}"
    );
    keys(&mut other, "n");
    assert_eq!(saved_moves(&file).len(), 1, "Alice's game is kept");
    save_as(&mut other, &file);
    keys(&mut other, "y");
    assert_eq!(saved_moves(&file).len(), 2);
    // The same game again: no question.
    pawn_move(&mut other, 15, 10, 11);
    keys(&mut other, "s");
    assert_eq!(other.dialog, None);
    assert_eq!(saved_moves(&file).len(), 3);
}

#[test]
fn two_games_on_one_record_never_overwrite_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.toml");
    let mut first = start("wikipedia");
    save_as(&mut first, &file);
    let mut a = loaded(&file);
    let mut b = loaded(&file);
    pawn_move(&mut a, 17, 10, 11);
    keys(&mut a, "s");
    assert_eq!(saved_moves(&file), ["P19.26-19.25"]);
    pawn_move(&mut b, 16, 10, 11);
    keys(&mut b, "s");
    assert!(
        b.status.warning && b.status.text.contains("changed by another program"),
        "{}",
        b.status.text
    );
    assert_eq!(saved_moves(&file), ["P19.26-19.25"], "a's move is kept");
}

#[test]
fn pasted_text_goes_into_a_prompt_only() {
    let mut app = start("wikipedia");
    app.update(Msg::Paste("hjkl".repeat(2500)));
    assert!(app.status.warning, "{}", app.status.text);
    keys(&mut app, "g");
    app.update(Msg::Paste("12.3\n4".into()));
    let Some(Dialog::Prompt { text, .. }) = &app.dialog else {
        panic!("{:?}", app.dialog)
    };
    assert_eq!(text, "12.34");
}

#[test]
fn keys_beyond_a_burst_are_dropped_until_quiet_but_never_ctrl_c() {
    let press = |code, modifiers| {
        Msg::Key(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
    };
    let h = press(KeyCode::Char('h'), KeyModifiers::NONE);
    let ctrl_c = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let mut flood = super::Flood::default();
    let mut taken = 0;
    for _ in 0..64 {
        assert!(!flood.drops(&h, &mut taken));
    }
    assert!(flood.drops(&h, &mut taken));
    assert!(!flood.drops(&ctrl_c, &mut taken));
    // The next frame still drops, until the input has been quiet.
    let mut taken = 0;
    assert!(flood.drops(&h, &mut taken));
    let Msg::Warn(said) = flood.end() else {
        panic!()
    };
    assert!(said.contains("Ignored 2 keys"), "{said}");
    assert!(!flood.drops(&h, &mut taken));
}

/// Saving into a folder nobody may write into (Linux's /proc: root too, so that the test
/// runs as root) fails, naming the file, and loses nothing: the game's own record keeps its
/// moves, `s` still saves there, and a game whose autosave cannot be written says where.
#[cfg(target_os = "linux")]
#[test]
fn saving_where_nothing_can_be_written_names_the_file_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some(dir.path().join("autosave"));
    pawn_move(&mut app, 17, 10, 11);
    let mine = dir.path().join("mine.toml");
    save_as(&mut app, &mine);
    assert_eq!(saved_moves(&mine).len(), 1, "{}", app.status.text);
    pawn_move(&mut app, 17, 25, 24);
    keys(&mut app, "S");
    keys(&mut app, "/proc/game.toml");
    key(&mut app, KeyCode::Enter);
    assert!(app.status.warning, "{}", app.status.text);
    assert!(
        app.status.text.starts_with("Not saved: ") && app.status.text.contains("/proc/game.toml"),
        "{}",
        app.status.text
    );
    assert_eq!(
        saved_moves(&mine).len(),
        1,
        "the record saved before is as it was"
    );
    keys(&mut app, "s");
    assert_eq!(saved_moves(&mine).len(), 2, "{}", app.status.text);
    // A new game whose autosave folder cannot be written into.
    let mut app = start("wikipedia");
    app.session.files.autosave_dir = Some("/proc".into());
    pawn_move(&mut app, 17, 10, 11);
    assert!(app.status.warning && app.status.unsaved);
    assert!(
        app.status.text.contains("Autosave failed") && app.status.text.contains("/proc"),
        "{}",
        app.status.text
    );
}

/// With a piece selected, the cursor on an empty square where it may go shows the selected
/// piece's card (what the player is deciding about), saying where it stands; on a piece, that
/// piece's card; with nothing selected, an empty square is said to be one.
#[test]
fn a_selected_piece_keeps_its_card_over_empty_squares() {
    let mut app = start("wikipedia");
    goto(&mut app, 17, 13);
    assert!(text(&render(&app, 200, 60)).contains("An empty square."));
    press_on(&mut app, 17, 10);
    goto(&mut app, 17, 11);
    let s = text(&render(&app, 200, 60));
    assert!(!s.contains("An empty square."), "{s}");
    assert!(s.contains("19.25 · the selected piece, on 19.26:"), "{s}");
    assert!(s.contains("Pawn (P)"), "{s}");
    // Back on the piece itself: its own square, no note.
    goto(&mut app, 17, 10);
    let s = text(&render(&app, 200, 60));
    assert!(
        s.contains("Pawn (P)") && !s.contains("the selected piece"),
        "{s}"
    );
}

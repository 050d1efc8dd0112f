//! What a new player trips over (issue 20, findings 1–15): each test fails without its fix.

use super::app::App;
use super::tests::{app_with, cell, goto, key, press_on, render, sq, text};
use ratatui::crossterm::event::KeyCode;
use taikyoku_core::game::Game;
use taikyoku_core::geometry::Side;
use taikyoku_core::rules::Rules;

/// A position of `game` under `rules` with these pieces, written as a JSON position.
pub(super) fn position(
    game: &str,
    rules: &str,
    to_move: Side,
    pieces: &[(&str, Side, i32, i32)],
) -> App {
    let r = Rules::new(Game::builtin(game).unwrap(), rules).unwrap();
    let json: Vec<String> = pieces
        .iter()
        .map(|(code, side, x, y)| {
            let side = side.name();
            format!(r#"{{"piece": "{code}", "side": "{side}", "at": [{x}, {y}]}}"#)
        })
        .collect();
    let text = format!(
        r#"{{"to_move": "{}", "pieces": [{}]}}"#,
        to_move.name(),
        json.join(", ")
    );
    let p = taikyoku_core::notation::parse_position_json(&r, "test", &text).unwrap();
    app_with(r, p)
}

/// A Taikyoku position (wikipedia rules) with these pieces and both kings in far corners.
fn taikyoku(to_move: Side, pieces: &[(&str, Side, i32, i32)]) -> App {
    let mut all = vec![("K", Side::Black, 0, 0), ("K", Side::White, 35, 35)];
    all.extend_from_slice(pieces);
    position("taikyoku", "wikipedia", to_move, &all)
}

fn start(game: &str, rules: &str) -> App {
    let r = Rules::new(Game::builtin(game).unwrap(), rules).unwrap();
    let p = r.start_position();
    app_with(r, p)
}

fn card(app: &App) -> String {
    text(&render(app, 240, 70))
}

/// "3 squares it can reach from here", as the card says it.
fn reach_line(app: &App) -> String {
    let t = card(app);
    t.lines()
        .find_map(|l| {
            let i = l.find(" it can reach from here")?;
            let head = &l[..i];
            let n = head.rsplit('│').next().unwrap_or(head).trim().to_string();
            Some(n)
        })
        .unwrap_or_else(|| panic!("no count on the card:\n{t}"))
}

#[test]
fn finding_2_the_card_counts_the_moves_of_the_piece_it_shows() {
    // Sho: the rook on 2.8 selected, the cursor on the lance on 9.9.
    let mut app = start("sho", "standard");
    goto(&mut app, 0, 0);
    let alone = reach_line(&app);
    press_on(&mut app, 7, 1);
    assert!(app.board.selection.is_some(), "{}", app.status.text);
    goto(&mut app, 0, 0);
    assert!(card(&app).contains("Lance"), "{}", card(&app));
    assert_eq!(reach_line(&app), alone);
    // Taikyoku: the great general selected, the gold on 20.1 (White's) counts its own moves.
    let mut app = start("taikyoku", "wikipedia");
    let gg = app.rules().catalogue().by_code("GG").unwrap();
    let from = app
        .pos()
        .pieces()
        .find(|(_, p)| p.kind == gg && p.side == Side::Black)
        .map(|(s, _)| s)
        .unwrap();
    let (gx, gy) = app.rules().dims().xy(from);
    goto(&mut app, 16, 35);
    let gold_alone = reach_line(&app);
    press_on(&mut app, gx, gy);
    assert!(app.board.selection.is_some(), "{}", app.status.text);
    goto(&mut app, 16, 35);
    assert_eq!(reach_line(&app), gold_alone);
}

/// Kō: the crossbow on 17.17 (x 2, y 2) and a White pawn on 18.15 (x 1, y 4) to shoot, with
/// `more` pieces.
fn crossbow(more: &[(&str, Side, i32, i32)]) -> App {
    let mut all = vec![
        ("GE", Side::Black, 10, 0),
        ("GE", Side::White, 18, 18),
        ("CB", Side::Black, 2, 2),
        ("P", Side::White, 1, 4),
    ];
    all.extend_from_slice(more);
    position("koshogi", "standard", Side::Black, &all)
}

#[test]
fn finding_3_a_shot_target_says_what_enter_does() {
    // A Black pawn on 18.17 blocks the shot from 18.18: 18.16 is the one landing.
    let mut app = crossbow(&[("P", Side::Black, 1, 2)]);
    press_on(&mut app, 2, 2);
    assert!(app.board.selection.is_some(), "{}", app.status.text);
    goto(&mut app, 1, 3);
    key(&mut app, KeyCode::Up);
    assert_eq!(app.board.cursor, (1, 4));
    let hover = app.status.text.clone();
    assert!(!hover.contains("cannot go there"), "{hover}");
    key(&mut app, KeyCode::Enter);
    let played = app.history().last().map(|p| p.text.clone());
    let Some(played) = played else {
        panic!("Enter played nothing: {}", app.status.text)
    };
    assert!(hover.starts_with(&played), "{hover} / {played}");
    // With two landings to shoot from, it says to choose one first.
    let mut app = crossbow(&[]);
    press_on(&mut app, 2, 2);
    goto(&mut app, 1, 3);
    key(&mut app, KeyCode::Up);
    assert!(
        app.status.text.contains("choose where it goes first"),
        "{}",
        app.status.text
    );
}

#[test]
fn finding_7_a_lion_step_is_marked_as_a_step_and_what_it_took_stays_marked() {
    let mut app = taikyoku(
        Side::Black,
        &[
            ("LN", Side::Black, 20, 10),
            ("P", Side::White, 20, 11),
            ("GG", Side::Black, 10, 10),
            ("P", Side::White, 10, 12),
            ("P", Side::White, 10, 14),
            ("P", Side::White, 30, 30),
        ],
    );
    goto(&mut app, 20, 10);
    // An empty neighbour: one Enter steps there, so `o`; the pawn next to it: `x`.
    assert_eq!(cell(&app, 21, 9), "o");
    assert!(
        cell(&app, 20, 11).starts_with('x'),
        "{}",
        cell(&app, 20, 11)
    );
    press_on(&mut app, 20, 10);
    assert!(
        cell(&app, 20, 11).starts_with('x'),
        "{}",
        cell(&app, 20, 11)
    );
    press_on(&mut app, 21, 9);
    assert_eq!(app.history().played().len(), 1, "{}", app.status.text);
    // White moves; then the great general's range capture empties its file: every emptied
    // square shows `~` with the cursor on the general, over its own marks.
    press_on(&mut app, 30, 30);
    press_on(&mut app, 30, 29);
    assert_eq!(app.history().played().len(), 2, "{}", app.status.text);
    press_on(&mut app, 10, 10);
    press_on(&mut app, 10, 14);
    assert_eq!(app.history().played().len(), 3, "{}", app.status.text);
    goto(&mut app, 10, 14);
    assert_eq!(cell(&app, 10, 12), "~");
}

#[test]
fn finding_8_a_range_capture_says_whose_each_victim_is() {
    let mut app = taikyoku(
        Side::Black,
        &[
            ("GG", Side::Black, 10, 10),
            ("P", Side::Black, 10, 12),
            ("P", Side::White, 10, 13),
            ("P", Side::White, 10, 14),
        ],
    );
    press_on(&mut app, 10, 10);
    goto(&mut app, 10, 13);
    key(&mut app, KeyCode::Up);
    let said = &app.status.text;
    assert!(
        said.contains("removes 3 pieces, 1 of them yours (your Pawn on 26.24, White's Pawn on 26.23, White's Pawn on 26.22)"),
        "{said}"
    );
    let _ = sq(&app, 0, 0);
}

/// Black's and White's pawns in front of their kings step forward in turn (`n` moves).
fn play_pawns(app: &mut App, n: usize) {
    for i in 0..n {
        let x = 17 - (i / 2) as i32;
        let (from, to) = match i % 2 {
            0 => (10, 11),
            _ => (25, 24),
        };
        press_on(app, x, from);
        press_on(app, x, to);
    }
    assert_eq!(app.history().played().len(), n, "{}", app.status.text);
}

/// A Taikyoku game with its autosave and games folders in `dir`.
fn filed(dir: &std::path::Path) -> App {
    let mut app = start("taikyoku", "wikipedia");
    app.session.files.autosave_dir = Some(dir.join("autosave"));
    app.session.files.games_dir = Some(dir.join("games"));
    app
}

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn type_text(app: &mut App, s: &str) {
    super::tests::keys(app, s);
}

#[test]
fn finding_1_a_named_game_is_one_game_resumed_and_saved_back_under_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = filed(dir.path());
    play_pawns(&mut app, 4);
    assert_eq!(files_in(&dir.path().join("autosave")).len(), 1);
    type_text(&mut app, "s");
    type_text(&mut app, "first game");
    key(&mut app, KeyCode::Enter);
    let named = dir.path().join("games/first game.toml");
    assert!(named.is_file(), "{}", app.status.text);
    // From now on the game is autosaved under its name, and only there.
    assert!(files_in(&dir.path().join("autosave")).is_empty());
    play_pawns_on(&mut app, 1);
    let saved = taikyoku_records::record::Record::load(&named).unwrap();
    assert_eq!(saved.moves().len(), 5);
    let dirs = [
        app.session.files.autosave_dir.clone(),
        app.session.files.games_dir.clone(),
    ];
    assert_eq!(super::session::recent_games(&dirs).len(), 1, "listed once");
    // Started again: the named game is the one offered, and `s` saves back to it at once.
    let found = super::session::latest_unfinished(&dirs).unwrap();
    assert_eq!(found.0, named);
    let mut app = filed(dir.path());
    app.offer_resume(found);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.history().played().len(), 5);
    play_pawns_on(&mut app, 1);
    type_text(&mut app, "s");
    assert!(app.dialog.is_none(), "{:?}", app.dialog);
    assert!(!app.status.warning, "{}", app.status.text);
    let saved = taikyoku_records::record::Record::load(&named).unwrap();
    assert_eq!(saved.moves().len(), 6);
    assert_eq!(super::session::recent_games(&dirs).len(), 1, "still once");
}

/// One more pair of pawn moves on from the game's point (`n` moves).
fn play_pawns_on(app: &mut App, n: usize) {
    let done = app.history().played().len();
    for i in done..done + n {
        let x = 17 - (i / 2) as i32;
        let (from, to) = match i % 2 {
            0 => (10, 11),
            _ => (25, 24),
        };
        press_on(app, x, from);
        press_on(app, x, to);
    }
    assert_eq!(
        app.history().played().len(),
        done + n,
        "{}",
        app.status.text
    );
}

#[test]
fn finding_1_saving_again_where_the_game_was_saved_before_does_not_ask() {
    // Saved outside the games folder: the autosave goes on; resumed from it, the name typed
    // again is this game's earlier save, not another game.
    let dir = tempfile::tempdir().unwrap();
    let mut app = filed(dir.path());
    play_pawns(&mut app, 2);
    let outside = dir.path().join("outside.toml");
    type_text(&mut app, "s");
    type_text(&mut app, outside.to_str().unwrap());
    key(&mut app, KeyCode::Enter);
    assert!(outside.is_file(), "{}", app.status.text);
    play_pawns_on(&mut app, 1);
    let found = taikyoku_records::store::latest_unfinished(&dir.path().join("autosave"))
        .unwrap()
        .unwrap();
    let mut app = filed(dir.path());
    app.offer_resume(found);
    key(&mut app, KeyCode::Enter);
    type_text(&mut app, "s");
    type_text(&mut app, outside.to_str().unwrap());
    key(&mut app, KeyCode::Enter);
    assert!(app.dialog.is_none(), "{:?}", app.dialog);
    let saved = taikyoku_records::record::Record::load(&outside).unwrap();
    assert_eq!(saved.moves().len(), 3, "{}", app.status.text);
}

#[test]
fn finding_4_the_resume_question_takes_y_n_esc_and_q_and_says_whose_move_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = filed(dir.path());
    play_pawns(&mut game, 3);
    let auto = dir.path().join("autosave");
    let found = || {
        taikyoku_records::store::latest_unfinished(&auto)
            .unwrap()
            .unwrap()
    };
    // White is to move in the game offered: the question says so, and no "Black to move".
    let mut app = filed(dir.path());
    app.offer_resume(found());
    let t = text(&render(&app, 240, 70));
    assert!(t.contains("White to move"), "{t}");
    assert!(!t.contains("Black to move"), "{t}");
    type_text(&mut app, "y");
    assert!(app.dialog.is_none());
    assert_eq!(app.history().played().len(), 3);
    let mut app = filed(dir.path());
    app.offer_resume(found());
    key(&mut app, KeyCode::Esc);
    assert!(app.dialog.is_none());
    assert_eq!(app.history().played().len(), 0);
    let mut app = filed(dir.path());
    app.offer_resume(found());
    type_text(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn finding_10_playing_on_from_the_end_of_a_finished_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = filed(dir.path());
    play_pawns(&mut game, 2);
    type_text(&mut game, "R");
    type_text(&mut game, "y");
    assert!(game.history().outcome().is_some(), "{}", game.status.text);
    let path = dir.path().join("over.toml");
    type_text(&mut game, "s");
    type_text(&mut game, path.to_str().unwrap());
    key(&mut game, KeyCode::Enter);
    let rec = taikyoku_records::record::Record::load(&path).unwrap();
    let replay = rec.replay(&game.rules().game).unwrap();
    let mut app = App::from_record(
        rec,
        replay,
        super::keys::Keymap::default(),
        super::theme::Theme::default_theme(),
        false,
        true,
    );
    app.session.files.autosave_dir = Some(dir.path().join("autosave2"));
    app.layout(ratatui::layout::Rect::new(0, 0, 240, 70));
    app.update(super::msg::Msg::Show(2));
    type_text(&mut app, "b");
    assert!(app.replay.is_some(), "still a replay: {}", app.status.text);
    assert!(
        app.status.warning && app.status.text.contains("ended here"),
        "{}",
        app.status.text
    );
    assert!(files_in(&dir.path().join("autosave2")).is_empty());
    // One move back, it plays on.
    type_text(&mut app, ",b");
    assert!(app.replay.is_none(), "{}", app.status.text);
    assert!(app.history().outcome().is_none());
}

#[test]
fn finding_14_the_help_names_each_action_as_keys_toml_does() {
    let lines = super::dialogs::help_lines(&super::keys::Keymap::default(), 76).join("\n");
    for a in super::keys::Action::ALL {
        assert!(
            lines.contains(&format!("[{}]", a.name())),
            "{}: {lines}",
            a.name()
        );
    }
}

#[test]
fn finding_5_a_royal_threat_is_said_when_it_is_new_and_marked_always() {
    // Wikipedia's opening: the great general can take Black's prince from move 0.
    let mut app = start("taikyoku", "wikipedia");
    assert!(!app.board.danger.is_empty());
    assert!(
        !app.status.text.contains("can be taken"),
        "{}",
        app.status.text
    );
    play_pawns(&mut app, 2);
    assert!(!app.board.danger.is_empty(), "the & mark stays");
    assert!(
        !app.status.text.contains("can be taken"),
        "{}",
        app.status.text
    );
    // A new threat: White's rook comes onto the file of Black's king.
    let mut app = taikyoku(Side::White, &[("R", Side::White, 5, 30)]);
    assert!(app.board.danger.is_empty());
    press_on(&mut app, 5, 30);
    press_on(&mut app, 0, 30);
    assert_eq!(app.history().played().len(), 1, "{}", app.status.text);
    assert!(
        app.status.text.contains("can be taken"),
        "{}",
        app.status.text
    );
}

#[test]
fn finding_6_a_long_message_takes_the_line_and_the_opening_shows_the_keys() {
    let app = start("taikyoku", "wikipedia");
    let t = text(&render(&app, 80, 24));
    let last = t.lines().nth(23).unwrap();
    assert!(last.contains("undo"), "{t}");
    let mut app = start("taikyoku", "wikipedia");
    let long = "Black's Prince on 18.36 can be taken (by the Great General on 18.4)! ".repeat(3);
    app.update(super::msg::Msg::Say(long.trim().to_string()));
    let t = text(&render(&app, 160, 50));
    let lines: Vec<&str> = t.lines().collect();
    assert!(!lines[48].contains("wikipedia rules"), "{}", lines[48]);
    let both = format!("{} {}", lines[48].trim_end(), lines[49].trim());
    assert!(both.contains(long.trim()), "{both}");
}

#[test]
fn finding_12_one_kanji_labels_follow_one_rule_and_the_zoom_says_it() {
    // The rule: one kanji of the two-kanji label or of the name; shogi's 全 圭 杏 excepted.
    for game in ["taikyoku", "sho", "koshogi"] {
        let g = Game::builtin(game).unwrap();
        for k in &g.catalogue.kinds {
            let ok = k.label2.contains(&k.label)
                || k.kanji.contains(&k.label)
                || ["全", "圭", "杏"].contains(&k.label.as_str());
            assert!(
                ok,
                "{game} {}: {} not in {} / {}",
                k.code, k.label, k.label2, k.kanji
            );
        }
    }
    let mut app = start("koshogi", "standard");
    type_text(&mut app, "-");
    assert!(
        app.status.text.contains("the narrowest"),
        "{}",
        app.status.text
    );
    assert!(
        app.status.text.contains("one kanji of each piece"),
        "{}",
        app.status.text
    );
    type_text(&mut app, "=a-");
    assert!(
        app.status.text.contains("5 cells wide, the narrowest"),
        "{}",
        app.status.text
    );
}

#[test]
fn finding_13_a_small_board_opens_wide_at_the_top() {
    let mut app = start("sho", "standard");
    let area = ratatui::layout::Rect::new(0, 0, 240, 70);
    app.zoom_to_fit(area);
    assert_eq!(app.board.cell_width(), 7);
    let t = text(&render(&app, 240, 70));
    let first = t.lines().next().unwrap();
    assert!(
        first.contains('9') && first.contains('1'),
        "file labels on top:\n{t}"
    );
    // Kō at 240×70: no blank rows above the board either; Taikyoku at 80×24 keeps its zoom.
    let mut app = start("koshogi", "standard");
    app.zoom_to_fit(area);
    let t = text(&render(&app, 240, 70));
    assert!(t.lines().next().unwrap().contains("19"), "{t}");
    let mut app = start("taikyoku", "wikipedia");
    app.zoom_to_fit(ratatui::layout::Rect::new(0, 0, 80, 24));
    assert_eq!(app.board.cell_width(), 5);
}

#[test]
fn finding_11_a_won_score_is_said_in_moves_and_an_asked_promotion_is_not_previewed_declined() {
    use super::text::eval_text;
    use taikyoku_search::MATE;
    assert_eq!(eval_text(MATE - 1), "wins in 1 move");
    assert_eq!(eval_text(MATE - 3), "wins in 2 moves");
    assert_eq!(eval_text(-(MATE - 2)), "loses in 1 move");
    assert_eq!(eval_text(35), "eval +0.35");
    // Sho: the bishop on 8.8 takes the bishop on 2.2, entering the zone: promotion is asked.
    let mut app = position(
        "sho",
        "standard",
        Side::Black,
        &[
            ("K", Side::Black, 4, 0),
            ("K", Side::White, 4, 8),
            ("B", Side::Black, 1, 1),
            ("B", Side::White, 7, 7),
        ],
    );
    press_on(&mut app, 1, 1);
    goto(&mut app, 6, 7);
    key(&mut app, KeyCode::Right);
    assert_eq!(app.board.cursor, (7, 7));
    let said = &app.status.text;
    assert!(said.starts_with("B8.8x2.2: takes"), "{said}");
    assert!(said.contains("promotion asked"), "{said}");
}

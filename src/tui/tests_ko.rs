//! Kō shōgi in the terminal game without a terminal: the marks of its shots, burns and auras,
//! and shots entered leg by leg.

use super::app::App;
use super::tests::{cell, goto, key, keys, render, sq, text};
use ratatui::crossterm::event::KeyCode;
use taikyoku_core::geometry::Side;

/// A Kō position with these pieces and both generals in far corners.
fn ko(to_move: Side, pieces: &[(&str, Side, i32, i32)]) -> App {
    let mut all = pieces.to_vec();
    all.push(("GE", Side::Black, 0, 0));
    all.push(("GE", Side::White, 18, 18));
    super::tests_newcomer::position("koshogi", "standard", to_move, &all)
}

#[test]
fn a_frozen_piece_and_a_silenced_shooter_are_marked_and_explained() {
    let mut app = ko(
        Side::White,
        &[
            ("SN", Side::Black, 9, 9),
            ("P", Side::White, 5, 9),
            ("P", Side::White, 3, 9),
            ("FOG", Side::Black, 14, 14),
            ("LB", Side::White, 14, 12),
        ],
    );
    // Nothing under the cursor's piece marks them: the aura's mark replaces the side mark.
    goto(&mut app, 18, 18);
    assert!(cell(&app, 5, 9).starts_with('='), "{}", cell(&app, 5, 9));
    assert!(cell(&app, 3, 9).starts_with('^'), "{}", cell(&app, 3, 9));
    assert!(
        cell(&app, 14, 12).starts_with('-'),
        "{}",
        cell(&app, 14, 12)
    );
    goto(&mut app, 5, 9);
    let screen = text(&render(&app, 240, 70));
    assert!(
        screen.contains("Frozen by Black's Skyward net on"),
        "{screen}"
    );
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.text.contains("is frozen by the enemy net on"),
        "{}",
        app.status.text
    );
    // Recomputed after every move: the pawn behind steps aside (no drum: no forward step), the frozen one is still frozen;
    // once the net has gone, the mark goes too.
    goto(&mut app, 3, 9);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 2, 9);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.pos().to_move(), Side::Black, "{}", app.status.text);
    assert!(cell(&app, 5, 9).starts_with('='));
    // Black's net steps away from the line: the pawn is free.
    goto(&mut app, 9, 9);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 9, 8);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.pos().to_move(), Side::White, "{}", app.status.text);
    assert!(app.board.held.iter().all(|h| h.0 != sq(&app, 5, 9)));
    assert!(cell(&app, 5, 9).starts_with('^'), "{}", cell(&app, 5, 9));
}

/// The bow on 9.9 (x 9, y 9) with two White pawns to shoot: one only from (10, 10), the other
/// only from (8, 10), a third from either (8, 8) or (10, 8).
fn bow() -> App {
    ko(
        Side::Black,
        &[
            ("LB", Side::Black, 9, 9),
            ("P", Side::White, 10, 13),
            ("P", Side::White, 5, 10),
            ("P", Side::White, 8, 6),
        ],
    )
}

#[test]
fn a_shot_is_entered_leg_by_leg_landing_then_target() {
    let mut app = bow();
    goto(&mut app, 9, 9);
    key(&mut app, KeyCode::Enter);
    // Before the landing is chosen, every piece it could shoot from anywhere is marked.
    assert!(cell(&app, 10, 13).starts_with('%'));
    assert!(cell(&app, 5, 10).starts_with('%'));
    goto(&mut app, 10, 10);
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Left);
    assert!(
        app.status.text.contains("then it may shoot"),
        "{}",
        app.status.text
    );
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.text.contains("choose a piece to shoot (%)"),
        "{}",
        app.status.text
    );
    assert!(app.dialog.is_none(), "no menu");
    // Now only what it can shoot from there is marked, distinctly.
    assert!(cell(&app, 10, 13).starts_with('%'));
    assert!(!cell(&app, 5, 10).starts_with('%'), "{}", cell(&app, 5, 10));
    let flags = app.board.overlay[sq(&app, 10, 13).0 as usize];
    assert_ne!(flags & taikyoku_core::reach::mark::NEXT_SHOT, 0);
    // The cursor on the target says what the move does, and marks what it removes.
    goto(&mut app, 10, 13);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Up);
    assert!(
        app.status.text.contains("takes the Pawn on"),
        "{}",
        app.status.text
    );
    assert_eq!(app.board.doomed, vec![sq(&app, 10, 13)]);
    key(&mut app, KeyCode::Enter);
    let last = app.history().last().unwrap();
    assert!(last.text.contains('!'), "{}", last.text);
    assert!(app.pos().piece_at(sq(&app, 10, 13)).is_none());
    assert!(app.pos().piece_at(sq(&app, 10, 10)).is_some());
}

#[test]
fn a_landing_chosen_again_shoots_nothing_and_esc_takes_it_back() {
    let mut app = bow();
    goto(&mut app, 9, 9);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 10, 10);
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Esc);
    assert!(app.board.selection.as_ref().unwrap().landing.is_none());
    assert!(cell(&app, 5, 10).starts_with('%'), "all targets again");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    let last = app.history().last().unwrap();
    assert!(!last.text.contains('!'), "{}", last.text);
    assert_eq!(
        app.pos().piece_at(sq(&app, 10, 13)).map(|p| p.side),
        Some(Side::White)
    );
}

#[test]
fn a_target_chosen_first_takes_the_one_landing_that_shoots_it() {
    let mut app = bow();
    goto(&mut app, 9, 9);
    key(&mut app, KeyCode::Enter);
    // Shot from two landings: it asks for the landing first.
    goto(&mut app, 8, 6);
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.text.contains("choose where it goes first"),
        "{}",
        app.status.text
    );
    assert!(app.history().last().is_none());
    goto(&mut app, 5, 10);
    key(&mut app, KeyCode::Enter);
    let last = app.history().last().unwrap();
    assert_eq!(last.mv.to, sq(&app, 8, 10), "{}", last.text);
    assert!(app.pos().piece_at(sq(&app, 5, 10)).is_none());
}

#[test]
fn the_pieces_a_flame_would_burn_are_marked_before_it_lands() {
    let mut app = ko(
        Side::Black,
        &[
            ("PF", Side::Black, 9, 9),
            ("P", Side::White, 10, 11),
            ("P", Side::Black, 8, 11),
        ],
    );
    goto(&mut app, 9, 9);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 9, 10);
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Right);
    let mut doomed = app.board.doomed.clone();
    doomed.sort();
    let mut want = vec![sq(&app, 10, 11), sq(&app, 8, 11)];
    want.sort();
    assert_eq!(doomed, want);
    assert!(
        app.status
            .text
            .contains("removes 2 pieces, 1 of them yours"),
        "{}",
        app.status.text
    );
    let buf = render(&app, 240, 70);
    let g = app.board.geom;
    let (c, r) = app.board.screen_xy(10, 11);
    let (sc, sr) = app.board.view.scroll;
    let at = (
        g.left + ((c - sc) as u16) * g.cell_w,
        g.top + (r - sr) as u16,
    );
    assert!(
        buf[at]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    );
    assert!(cell(&app, 10, 11).starts_with('$'));
    // Elsewhere nothing is marked as doomed.
    goto(&mut app, 9, 8);
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Right);
    assert!(app.board.doomed.is_empty(), "{:?}", app.board.doomed);
}

#[test]
fn what_a_moves_effects_kill_is_previewed_too() {
    // The clerk promotes entering the camp: its side's guards promote, the enemy's flames die.
    let mut app = ko(
        Side::Black,
        &[("CL", Side::Black, 9, 11), ("PF", Side::White, 2, 2)],
    );
    goto(&mut app, 9, 11);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 9, 12);
    key(&mut app, KeyCode::Up);
    assert!(
        app.status
            .text
            .contains("its effects remove the Poison flame on"),
        "{}",
        app.status.text
    );
    assert!(
        app.board.doomed.contains(&sq(&app, 2, 2)),
        "{:?}",
        app.board.doomed
    );
}

#[test]
fn a_long_status_goes_on_in_place_of_the_key_hints_at_80_by_24() {
    let mut app = bow();
    app.layout(ratatui::layout::Rect::new(0, 0, 80, 24));
    goto(&mut app, 9, 9);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 10, 10);
    key(&mut app, KeyCode::Enter);
    let t = text(&render(&app, 80, 24));
    let bottom: Vec<&str> = t.lines().skip(22).collect();
    // The rule set gives way to a message too long to stand beside it (issue 20, finding
    // 6): the sentence is never cut in two around it.
    let both = format!("{} {}", bottom[0].trim_end(), bottom[1].trim());
    assert!(
        both.contains("On 9.9: choose a piece to shoot (%), or 9.9 again for no more."),
        "{}",
        bottom.join("\n")
    );
    assert!(!bottom[0].contains("standard rules"), "{}", bottom[0]);
}

#[test]
fn a_second_shot_is_chosen_after_the_first_which_stays_marked_taken() {
    // The Frankish cannon shoots twice: the pawn behind the first one is the second target.
    let mut app = ko(
        Side::Black,
        &[
            ("FC", Side::Black, 9, 9),
            ("P", Side::White, 10, 12),
            ("P", Side::White, 10, 14),
        ],
    );
    goto(&mut app, 9, 9);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 10, 10);
    key(&mut app, KeyCode::Enter);
    goto(&mut app, 10, 12);
    key(&mut app, KeyCode::Enter);
    assert!(app.history().last().is_none(), "{}", app.status.text);
    assert!(
        cell(&app, 10, 12).starts_with('!'),
        "{}",
        cell(&app, 10, 12)
    );
    assert!(
        cell(&app, 10, 14).starts_with('%'),
        "{}",
        cell(&app, 10, 14)
    );
    goto(&mut app, 10, 14);
    key(&mut app, KeyCode::Enter);
    let last = app.history().last().unwrap();
    assert_eq!(last.mv.shots().count(), 2, "{}", last.text);
}

#[test]
fn the_general_in_danger_is_marked_and_r_finds_it() {
    // Kō has no royal kind: the general is what the end rule needs. A White bow can shoot it.
    let mut app = ko(
        Side::White,
        &[("LB", Side::Black, 1, 1), ("P", Side::White, 10, 10)],
    );
    // White to move: its general on (18, 18) is not in danger; Black's on (0, 0) is no concern.
    assert!(app.board.danger.is_empty(), "{:?}", app.board.danger);
    keys(&mut app, "r");
    assert_eq!(app.board.cursor, (18, 18));
    // After White's move, Black's general can be shot by nothing; a White bow next to it can.
    let mut app = ko(
        Side::Black,
        &[("LB", Side::White, 2, 1), ("P", Side::Black, 10, 10)],
    );
    assert_eq!(
        app.board.danger.first().map(|d| d.0),
        Some(sq(&app, 0, 0)),
        "{}",
        app.status.text
    );
    assert!(cell(&app, 0, 0).starts_with('&'), "{}", cell(&app, 0, 0));
    keys(&mut app, "r");
    assert_eq!(app.board.cursor, (0, 0));
}

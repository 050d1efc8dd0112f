//! Kō shōgi in the terminal game without a terminal: the marks of its shots, burns and auras,
//! and shots entered leg by leg.

use super::app::App;
use super::tests::{app_with, cell, goto, key, render, sq, text};
use ratatui::crossterm::event::KeyCode;
use taikyoku::game::Game;
use taikyoku::geometry::Side;
use taikyoku::position::Piece;
use taikyoku::rules::Rules;

/// A Kō position with these pieces and both generals in far corners.
fn ko(to_move: Side, pieces: &[(&str, Side, i32, i32)]) -> App {
    let r = Rules::new(Game::builtin("koshogi").unwrap(), "standard").unwrap();
    let mut p = r.empty_position();
    let mut all = pieces.to_vec();
    all.push(("GE", Side::Black, 0, 0));
    all.push(("GE", Side::White, 18, 18));
    for &(code, side, x, y) in &all {
        let kind = r.catalogue().by_code(code).unwrap();
        let sq = r.dims().square(x, y).unwrap();
        let piece = Piece {
            kind,
            side,
            promoted: false,
        };
        r.put(&mut p, sq, Some(piece));
    }
    p.set_to_move(to_move);
    app_with(r, p)
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

//! The typed move, the captures and the analysis board in a real terminal.

use super::{Tmux, assert_restored, game, quit_at_once};

/// Types `keys` one by one (tmux reads `;` and such as its own, so letters go as they are).
fn type_text(t: &Tmux, text: &str) {
    let keys: Vec<String> = text.chars().map(String::from).collect();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    t.keys(&keys);
}

#[test]
fn a_move_is_typed_completed_with_tab_and_a_bad_one_explained_at_80_by_24() {
    let Some((_dir, t)) = game("typed", |_| "play".into(), (80, 24)) else {
        return;
    };
    t.wait_for("Black to move");
    t.keys(&[":"]);
    t.wait_for("Move: _");
    type_text(&t, "19.26-19.2");
    t.keys(&["Tab"]);
    let s = t.wait_for("Move: 19.26-19.25_");
    assert!(s.contains("the one legal move"), "{s}");
    t.keys(&["Enter"]);
    let s = t.wait_for("1. Black P19.26-19.25");
    assert!(s.contains("White to move"), "{s}");
    // A move that cannot be played: what is wrong, and the prompt stays open.
    t.keys(&[":"]);
    type_text(&t, "P18.11-18.14");
    t.keys(&["Enter"]);
    let s = t.wait_for("cannot reach 18.14");
    assert!(s.contains("Move: P18.11-18.14_"), "{s}");
    t.keys(&["Escape"]);
    t.wait_for("Cancelled.");
    quit_at_once(&t, "q");
    let s = t.screen();
    assert_restored(&s);
}

/// Plays `moves` by typing each at the `:` prompt, waiting for each to be played.
fn type_moves(t: &Tmux, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        t.keys(&[":"]);
        type_text(t, m);
        t.keys(&["Enter"]);
        t.wait_for(&format!("{}. ", i + 1));
    }
}

#[test]
fn a_capture_is_counted_in_the_panel_at_80_by_24_and_240_by_70() {
    for (w, h) in [(80, 24), (240, 70)] {
        let Some((_dir, t)) = game("taken", |_| "--game sho play".into(), (w, h)) else {
            return;
        };
        t.wait_for("Black to move");
        type_moves(&t, &["7.7-7.6", "3.3-3.4", "8.8x2.2+", "3.1x2.2"]);
        let s = t.wait_for("4. White S3.1x2.2");
        if w == 80 {
            assert!(s.contains("took ▲1 △1 · even"), "{s}");
        } else {
            assert!(s.contains("▲ Black took 1: 1 Bishop"), "{s}");
            assert!(s.contains("△ White took 1: 1 Dragon horse"), "{s}");
            assert!(s.contains("Left: ▲ 20 · △ 20 · material even"), "{s}");
        }
        quit_at_once(&t, "q");
    }
}

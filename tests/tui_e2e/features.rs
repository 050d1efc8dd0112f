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

#[test]
fn the_analysis_line_opens_and_deepens_and_t_shows_a_threat() {
    let Some((_dir, t)) = game("analysis", |_| "--game sho play".into(), (240, 70)) else {
        return;
    };
    t.wait_for("Black to move");
    t.keys(&["A"]);
    t.wait_for("Analysis (A stops)");
    let s = t.wait_for("depth 4");
    assert!(s.contains("Black +") || s.contains("Black -"), "{s}");
    type_moves(&t, &["7.7-7.6", "3.3-3.4", "8.8x2.2+", "9.3-9.4"]);
    t.keys(&["T"]);
    let s = t.wait_for("White's best threat: S3.1x2.2 (takes the Dragon horse)");
    assert!(s.contains("T hides it"), "{s}");
    quit_at_once(&t, "q");
}

#[test]
fn a_replay_shows_the_score_graph_with_the_worst_move_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.toml");
    let f = file.to_str().unwrap();
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_taikyoku"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
    };
    run(&["--game", "sho", "record", "new", f]);
    run(&[
        "record", "add", f, "7.7-7.6", "3.3-3.4", "8.8x2.2+", "9.3-9.4",
    ]);
    // Scored in the background as the replay opens.
    for (w, h) in [(240, 70), (80, 24)] {
        let replay = format!("replay {f}");
        let Some((_d, t)) = game("graph", |_| replay.clone(), (w, h)) else {
            return;
        };
        t.wait_for("Replay of 4 moves");
        if w == 240 {
            let s = t.wait_for("Scores for Black · worst: 4 ");
            assert!(!s.contains("scoring"), "{s}");
        } else {
            let s = t.wait_for("▁");
            assert!(s.contains("Replay 0/4"), "{s}");
        }
        quit_at_once(&t, "q");
    }
    // Scored by analyse --write: the graph reads the record's notes.
    run(&["analyse", f, "--depth", "2", "--write"]);
    let replay = format!("replay {f}");
    let Some((_d, t)) = game("graph-notes", |_| replay.clone(), (240, 70)) else {
        return;
    };
    t.keys(&["End"]);
    let s = t.wait_for("Scores for Black · worst: 4 ");
    assert!(s.contains(" move 4 "), "{s}");
    quit_at_once(&t, "q");
}

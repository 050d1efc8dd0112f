//! The `atsa` rule set against ATSA's web engine (taikyoku-shogi.github.io, snapshot 48ffcf7 of
//! 2025-12-26, run headless in node without its move cache): the move lists it gives on
//! positions from random games and on thinned-out ones (`tests/data/atsa_oracle.txt`).
//!
//! Each line is `COUNT DIGEST TSFEN`. A move is written `FROM>STOP>…>TO` in `file.rank`
//! squares, `+` after it when it promotes; its stops are those of a movement whose first leg may
//! capture (a lion's step, the free eagle's igui): their engine records no other stop (a hook
//! mover's turn is not part of its move). DIGEST is the 64-bit FNV-1a hash of the sorted moves
//! joined by single spaces. The default test checks every 4th position (debug builds are slow);
//! `cargo test --test atsa_oracle -- --ignored` checks them all (about 10 s in debug).

use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_testkit::*;

const DATA: &str = include_str!("data/atsa_oracle.txt");

/// Their engine's view of a move (see the module comment).
fn canonical(r: &Rules, p: &Position, m: &Move) -> String {
    let dims = r.dims();
    let piece = p.piece_at(m.from).expect("a move starts on a piece");
    let betza = &r.readings[piece.kind as usize].betza;
    let stops_count = betza.contains("(c") || betza.contains("(mc");
    let mut s = dims.square_name(m.from);
    for &st in m.path().iter().filter(|_| stops_count) {
        s.push('>');
        s.push_str(&dims.square_name(st));
    }
    s.push('>');
    s.push_str(&dims.square_name(m.to));
    if m.promotes() {
        s.push('+');
    }
    s
}

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The sorted canonical moves of the side to move.
fn move_list(r: &Rules, p: &Position) -> Vec<String> {
    let mut l: Vec<String> = r
        .legal_moves(p)
        .iter()
        .map(|m| canonical(r, p, m))
        .collect();
    l.sort();
    l
}

/// Checks every `step`-th position; returns how many were checked.
fn check(step: usize) -> usize {
    let r = rules("atsa");
    let mut checked = 0;
    let lines = DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    for line in lines.step_by(step) {
        let mut f = line.splitn(3, ' ');
        let (count, digest, tsfen) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let p = taikyoku_core::notation::parse_tsfen(r, tsfen).unwrap();
        let l = move_list(r, &p);
        let ours = format!("{} {:016x}", l.len(), fnv1a(&l.join(" ")));
        assert_eq!(
            ours,
            format!("{count} {digest}"),
            "{tsfen}\n{}",
            l.join(" ")
        );
        checked += 1;
    }
    checked
}

#[test]
fn every_4th_position_has_their_move_list() {
    assert!(check(4) >= 300);
}

#[test]
#[ignore = "about 10 s in debug: cargo test --test atsa_oracle -- --ignored"]
fn every_position_has_their_move_list() {
    assert!(check(1) >= 1000);
}

/// The opening: their engine's 488 moves.
#[test]
fn the_opening_has_their_move_list() {
    let r = rules("atsa");
    let l = move_list(r, &r.start_position());
    assert_eq!(l.len(), 488);
    assert_eq!(format!("{:016x}", fnv1a(&l.join(" "))), "1a5a1b2234ba1beb");
}

/// Their parser reads the free eagle's `(cK-bK)` as a step out and back: after the great
/// general's range capture `GG19.33x19.9`, White's free eagle on 19.8 takes it without moving.
/// This is the one reply of perft 2 that the earlier reading (one more step straight on) missed.
#[test]
fn the_free_eagle_takes_the_great_general_without_moving() {
    let r = rules("atsa");
    let mut p = r.start_position();
    let gg = taikyoku_core::notation::parse_move(r, &p, "GG19.33x19.9").unwrap();
    r.play(&mut p, &gg).unwrap();
    let igui: Vec<String> = move_list(r, &p)
        .into_iter()
        .filter(|m| m.starts_with("19.8>19.9>"))
        .collect();
    assert_eq!(igui, ["19.8>19.9>19.8"]);
}

/// The lion jumps to every square within two (their data's `KDAN`) as well as taking every
/// two-step path: alone on an empty board, 24 single moves and 64 paths.
#[test]
fn the_lion_jumps_and_takes_two_steps() {
    let r = rules("atsa");
    let p = with_kings(r, Side::Black, &[("LN", Side::Black, 17, 17)]);
    let m = moves_at(r, &p, 17, 17);
    assert_eq!(m.iter().filter(|m| m.path().is_empty()).count(), 24);
    assert_eq!(m.iter().filter(|m| m.path().len() == 1).count(), 64);
}

/// Their positions written back as TSFEN (what a host sends an ATSI engine with `startgame`)
/// read as the same positions, Black or White to move.
#[test]
fn tsfens_written_read_back_as_the_same_positions() {
    let r = rules("atsa");
    let start = r.start_position();
    let lines = DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    for line in lines.step_by(8).chain(std::iter::once("")) {
        let p = match line.splitn(3, ' ').nth(2) {
            Some(tsfen) => taikyoku_core::notation::parse_tsfen(r, tsfen).unwrap(),
            None => start.clone(),
        };
        let written = taikyoku_core::notation::tsfen_string(r, &p).unwrap();
        let back = taikyoku_core::notation::parse_tsfen(r, &written).unwrap();
        assert_eq!(back, p, "{written}");
    }
    let sho = Rules::builtin("sho", "standard").unwrap();
    let p = sho.start_position();
    assert_eq!(
        taikyoku_core::notation::tsfen_string(&sho, &p),
        None,
        "no ATSA codes"
    );
}

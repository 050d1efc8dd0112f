//! Kō shōgi, the third built-in game: its data (catalogue, setup, board), its game-level rules
//! (promotion in the 6-rank camp, the end rule) on hand-built positions, and perft from the
//! opening as regression numbers.

mod common;

use common::{B, W, ko, position, sq};
use taikyoku::position::{EndReason, Outcome};

#[test]
fn the_board_setup_and_catalogue_come_from_the_data() {
    let r = ko("standard");
    assert_eq!((r.dims().files, r.dims().ranks), (19, 19));
    assert_eq!(r.game.name, "Ko shogi");
    let p = r.start_position();
    assert_eq!(p.pieces().filter(|(_, p)| p.side == B).count(), 90);
    assert_eq!(p.pieces().filter(|(_, p)| p.side == W).count(), 90);
    let setup_kinds = r.catalogue().kinds.iter().filter(|k| k.count > 0).count();
    assert_eq!((setup_kinds, r.catalogue().len()), (34, 57));
    let code = |x, y| {
        let piece = p.piece_at(sq(r, x, y)).unwrap();
        (r.catalogue().kind(piece.kind).code.as_str(), piece.side)
    };
    // Black's general on its back rank, middle file; the vanguard alone on rank 7; the
    // advance guard behind the rear guard in the corners; White's the same turned round.
    assert_eq!(code(9, 0), ("GE", B));
    assert_eq!(code(9, 6), ("VG", B));
    assert_eq!([code(0, 0), code(0, 1)], [("AG", B), ("RG", B)]);
    assert_eq!([code(1, 0), code(17, 0)], [("SM", B), ("TP", B)]);
    assert_eq!(code(9, 18), ("GE", W));
    assert_eq!(code(1, 18), ("TP", W));
    // Rank 5: patrol units on files 2, 10 and 18 (counted from Black's left).
    assert_eq!([code(1, 4).0, code(9, 4).0, code(17, 4).0], ["PU"; 3]);
}

#[test]
fn a_side_survives_with_its_general_a_governor_or_middle_troop_and_banner() {
    let r = ko("standard");
    let lone = |pieces: &[(&str, taikyoku::geometry::Side, i32, i32)]| {
        let mut all = pieces.to_vec();
        all.push(("GE", W, 18, 18));
        position(r, B, &all).outcome()
    };
    let lost = Some(Outcome {
        winner: W,
        reason: EndReason::RoyalsCaptured,
    });
    assert_eq!(lone(&[("GE", B, 0, 0)]), None);
    assert_eq!(lone(&[("+GV", B, 0, 0)]), None);
    assert_eq!(lone(&[("MT", B, 0, 0), ("BN", B, 1, 0)]), None);
    assert_eq!(lone(&[("MT", B, 0, 0)]), lost);
    assert_eq!(lone(&[("BN", B, 0, 0), ("DR", B, 2, 0)]), lost);
    // A promoted banner is a flag waver, no longer a banner.
    assert_eq!(lone(&[("MT", B, 0, 0), ("+FW", B, 1, 0)]), lost);
}

#[test]
fn capturing_the_general_without_a_governor_ends_the_game() {
    let r = ko("standard");
    let mut p = position(
        r,
        B,
        &[
            ("GE", B, 0, 0),
            ("CH", B, 5, 5),
            ("GE", W, 5, 9),
            ("MT", W, 0, 18),
        ],
    );
    let m = r
        .moves_from(&p, sq(r, 5, 5))
        .into_iter()
        .find(|m| m.to == sq(r, 5, 9))
        .unwrap();
    r.play(&mut p, &m).unwrap();
    assert_eq!(p.outcome().map(|o| o.winner), Some(B));
}

#[test]
fn perft_from_the_opening() {
    // Regression numbers with the movements as the data has them today (the shooters,
    // priests and other pieces the generator cannot express yet are simplified: see
    // pieces/koshogi.toml).
    let r = ko("standard");
    let p = r.start_position();
    assert_eq!(r.perft(&p, 1), 222);
    assert_eq!(r.perft(&p, 2), 49_178);
}

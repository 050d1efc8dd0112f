//! Every movement mechanic on hand-built positions: open board, blocked by a friend, an enemy
//! in the way, captures, the board's edge, and promotion. Pieces are the real catalogue's.

use taikyoku_testkit::*;

#[test]
fn step_mover_gold_general() {
    let r = rules("wikipedia");
    let p = position(r, B, &[("G", B, 10, 10)]);
    // WfF: orthogonal steps and the two forward diagonals.
    assert_eq!(
        rel(r, &p, 10, 10),
        set(&[(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1)])
    );
    // A friend blocks its square, an enemy can be captured.
    let p = position(
        r,
        B,
        &[("G", B, 10, 10), ("P", B, 10, 11), ("P", W, 11, 11)],
    );
    let d = rel(r, &p, 10, 10);
    assert!(!d.contains(&(0, 1)));
    assert!(d.contains(&(1, 1)));
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (11, 11))
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(11, 11)]);
    // In the corner only what is on the board remains.
    let p = position(r, B, &[("G", B, 0, 35)]);
    assert_eq!(rel(r, &p, 0, 35), set(&[(1, 0), (0, -1)]));
    // White's forward is down the board.
    let p = position(r, W, &[("G", W, 10, 10)]);
    assert_eq!(
        rel(r, &p, 10, 10),
        set(&[(0, 1), (0, -1), (1, 0), (-1, 0), (1, -1), (-1, -1)])
    );
}

#[test]
fn limited_and_unlimited_slides() {
    let r = rules("wikipedia");
    // Donkey: up to two squares orthogonally.
    let p = position(r, B, &[("DO", B, 5, 5), ("P", B, 5, 6), ("P", W, 6, 5)]);
    let d = rel(r, &p, 5, 5);
    assert_eq!(
        d,
        set(&[(1, 0), (-1, 0), (-2, 0), (0, -1), (0, -2)]),
        "friend blocks, enemy stops the slide"
    );
    // Rook: to the edge, stopping at and capturing the first enemy.
    let p = position(r, B, &[("R", B, 0, 0), ("P", W, 0, 20), ("P", B, 7, 0)]);
    let d = rel(r, &p, 0, 0);
    assert_eq!(d.len(), 20 + 6);
    assert!(d.contains(&(0, 20)) && !d.contains(&(0, 21)));
    assert!(d.contains(&(6, 0)) && !d.contains(&(7, 0)));
    // Lance: forward only.
    let p = position(r, B, &[("L", B, 3, 30)]);
    assert_eq!(
        rel(r, &p, 3, 30),
        set(&[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)])
    );
}

#[test]
fn leapers_jump_over_pieces() {
    let r = rules("wikipedia");
    // Knight: the two forward knight jumps, over anything in between.
    let p = position(
        r,
        B,
        &[
            ("N", B, 5, 5),
            ("P", B, 5, 6),
            ("P", W, 4, 6),
            ("P", W, 6, 7),
        ],
    );
    assert_eq!(rel(r, &p, 5, 5), set(&[(-1, 2), (1, 2)]));
    let m = moves_at(r, &p, 5, 5)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (6, 7))
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(6, 7)]);
    // A friend on the landing square blocks the jump; so does the board's edge.
    let p = position(r, B, &[("N", B, 5, 5), ("P", B, 6, 7)]);
    assert_eq!(rel(r, &p, 5, 5), set(&[(-1, 2)]));
    let p = position(r, B, &[("N", B, 0, 34)]);
    assert!(rel(r, &p, 0, 34).is_empty());
    // Flying dragon: the alfil jump to the second diagonal square.
    let p = position(
        r,
        B,
        &[("FD", B, 10, 10), ("P", B, 11, 11), ("P", B, 12, 12)],
    );
    assert_eq!(rel(r, &p, 10, 10), set(&[(-2, 2), (2, -2), (-2, -2)]));
}

#[test]
fn oblique_leaper_heavenly_horse() {
    let r = rules("wikipedia");
    let p = position(r, B, &[("HH", B, 10, 10), ("P", B, 10, 11)]);
    let d = rel(r, &p, 10, 10);
    // Knight jumps forward and backward, narrow; the forward slide is blocked by the pawn.
    assert_eq!(d, set(&[(-1, 2), (1, 2), (-1, -2), (1, -2)]));
}

#[test]
fn jump_then_continue_great_falcon() {
    let r = rules("wikipedia");
    // Great falcon: queen, and forward it may jump the adjacent square and slide on.
    let p = position(
        r,
        B,
        &[("GH", B, 10, 10), ("P", B, 10, 11), ("P", W, 10, 14)],
    );
    let d = rel(r, &p, 10, 10);
    assert!(d.contains(&(0, 2)) && d.contains(&(0, 3)) && d.contains(&(0, 4)));
    assert!(
        !d.contains(&(0, 5)),
        "the enemy on the 4th square stops the slide"
    );
    // A piece on the second square: the jump may capture it but not go on.
    let p = position(
        r,
        B,
        &[("GH", B, 10, 10), ("P", B, 10, 11), ("P", W, 10, 12)],
    );
    let d = rel(r, &p, 10, 10);
    assert!(d.contains(&(0, 2)) && !d.contains(&(0, 3)));
    let p = position(
        r,
        B,
        &[("GH", B, 10, 10), ("P", B, 10, 11), ("P", B, 10, 12)],
    );
    assert!(!rel(r, &p, 10, 10).iter().any(|&(x, y)| x == 0 && y > 0));
    // Backward there is no jump.
    let p = position(r, B, &[("GH", B, 10, 10), ("P", B, 10, 9)]);
    assert!(!rel(r, &p, 10, 10).iter().any(|&(x, y)| x == 0 && y < 0));
    // The move through the jump is one straight move: no recorded stop.
    let p = position(r, B, &[("GH", B, 10, 10), ("P", B, 10, 11)]);
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 15))
        .unwrap();
    assert!(m.path().is_empty());
}

#[test]
fn triple_slashed_arrow_golden_bird() {
    let r = rules("wikipedia");
    // Forward diagonals: may pass over up to three pieces of either side, then go on.
    let p = position(
        r,
        B,
        &[
            ("GO", B, 10, 10),
            ("P", B, 11, 11),
            ("P", W, 12, 12),
            ("P", B, 14, 14),
            ("P", W, 16, 16),
            ("P", W, 17, 17),
        ],
    );
    let d = rel(r, &p, 10, 10);
    // 1st piece (friend) passed, 2nd (enemy) capturable and passed, 3rd (friend) passed,
    // 4th (enemy) capturable but cannot be passed.
    assert!(!d.contains(&(1, 1)) && d.contains(&(2, 2)) && d.contains(&(3, 3)));
    assert!(!d.contains(&(4, 4)) && d.contains(&(5, 5)) && d.contains(&(6, 6)));
    assert!(!d.contains(&(7, 7)), "a fourth piece cannot be jumped");
    // Pieces jumped over are not captured.
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (15, 15))
        .unwrap();
    assert!(caps(r, &p, &m).is_empty());
    // Its other lines are ordinary.
    let p = position(r, B, &[("GO", B, 10, 10), ("P", W, 10, 12)]);
    let d = rel(r, &p, 10, 10);
    assert!(d.contains(&(0, 2)) && !d.contains(&(0, 3)));
}

#[test]
fn hook_mover_turns_once() {
    let r = rules("wikipedia");
    let p = position(
        r,
        B,
        &[
            ("HM", B, 10, 10),
            ("P", B, 10, 13),
            ("P", W, 12, 12),
            ("P", W, 15, 10),
        ],
    );
    let moves = moves_at(r, &p, 10, 10);
    let d = rel(r, &p, 10, 10);
    // Straight: up to the friend, and capturing the enemy on the right.
    assert!(d.contains(&(0, 2)) && !d.contains(&(0, 3)));
    assert!(d.contains(&(5, 0)) && !d.contains(&(6, 0)));
    // Turning at (10,12): right, stopping at and capturing the enemy on (12,12); (13,12) is
    // reached only the other way round (right along rank 10, then up).
    assert!(d.contains(&(1, 2)) && d.contains(&(2, 2)));
    let m = moves
        .iter()
        .find(|m| r.dims().xy(m.to) == (13, 12))
        .unwrap();
    assert_eq!(path(r, m), vec![(13, 10)]);
    // Beyond the friend forward nothing, even by turning after it.
    assert!(!d.contains(&(0, 4)) && !d.iter().any(|&(x, y)| y >= 3 && x == 0));
    // Squares reached via a turn after passing the friend's line are reached from the side.
    assert!(d.contains(&(1, 5)), "right along rank 10, then up");
    // No turn after a capture: no move turns at the enemy on (15,10).
    assert!(!moves.iter().any(|m| path(r, m) == vec![(15, 10)]));
    // The turn square is the move's path; the capture is the destination only.
    let m = moves
        .iter()
        .find(|m| r.dims().xy(m.to) == (12, 12))
        .unwrap();
    assert!(
        path(r, m) == vec![(10, 12)] || path(r, m) == vec![(12, 10)],
        "{:?}",
        path(r, m)
    );
    assert_eq!(caps(r, &p, m), vec![(12, 12)]);
    // The same square reached by two turns is one move.
    let p = position(r, B, &[("HM", B, 10, 10)]);
    let moves = moves_at(r, &p, 10, 10);
    assert_eq!(
        moves
            .iter()
            .filter(|m| r.dims().xy(m.to) == (13, 13))
            .count(),
        1
    );
    // A lone hook mover reaches every square of the board but its own.
    assert_eq!(rel(r, &p, 10, 10).len(), 36 * 36 - 1);
}

#[test]
fn lion_double_capture_igui_pass_and_leaps() {
    let r = rules("wikipedia");
    let p = position(
        r,
        B,
        &[
            ("LN", B, 10, 10),
            ("P", W, 10, 11),
            ("P", W, 10, 12),
            ("P", B, 11, 11),
        ],
    );
    let moves = moves_at(r, &p, 10, 10);
    let find = |to: (i32, i32), stops: &[(i32, i32)]| {
        moves
            .iter()
            .find(|m| r.dims().xy(m.to) == to && path(r, m) == stops)
            .copied()
    };
    // Double capture: both pawns.
    let m = find((10, 12), &[(10, 11)]).expect("double capture");
    assert_eq!(caps(r, &p, &m), vec![(10, 11), (10, 12)]);
    // Igui: capture the adjacent pawn and stay.
    let m = find((10, 10), &[(10, 11)]).expect("igui");
    assert_eq!(caps(r, &p, &m), vec![(10, 11)]);
    // Hit and run: capture, then step to an empty square.
    let m = find((9, 12), &[(10, 11)]).expect("capture then step");
    assert_eq!(caps(r, &p, &m), vec![(10, 11)]);
    // Pass: out to an empty square and back; the board is unchanged.
    let passes: Vec<_> = moves
        .iter()
        .filter(|m| m.to == m.from && caps(r, &p, m).is_empty())
        .collect();
    assert_eq!(
        passes.len(),
        1,
        "passes are one move whatever square is used"
    );
    // Leaps go over the friend at (11,11).
    assert!(find((12, 12), &[]).is_some());
    // Never onto a friend, never capturing a friend on the way.
    assert!(find((11, 11), &[]).is_none());
    assert!(!moves.iter().any(|m| caps(r, &p, m).contains(&(11, 11))));
    // All 24 squares within two, plus igui and pass.
    assert_eq!(rel(r, &p, 10, 10).len(), 24);
    // Surrounded by friends: no pass (it needs an empty square) and no igui.
    let mut ring = vec![("LN", B, 1, 1)];
    for (x, y) in [
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (2, 1),
        (0, 2),
        (1, 2),
        (2, 2),
    ] {
        ring.push(("P", B, x, y));
    }
    let p = position(r, B, &ring);
    assert!(!moves_at(r, &p, 1, 1).iter().any(|m| m.to == m.from));
    // At the edge: only on-board squares.
    let p = position(r, B, &[("LN", B, 0, 0)]);
    assert_eq!(rel(r, &p, 0, 0).len(), 8 + 1);
}

#[test]
fn lion_moves_differ_by_path_under_atsa() {
    // ATSA lists a lion's two-step moves by the square stepped on.
    let p_w = rules("wikipedia");
    let p_a = rules("atsa");
    let pw = position(p_w, B, &[("LN", B, 10, 10)]);
    let pa = position(p_a, B, &[("LN", B, 10, 10)]);
    let w = moves_at(p_w, &pw, 10, 10).len();
    let a = moves_at(p_a, &pa, 10, 10).len();
    assert!(a > w, "atsa {a} > wikipedia {w}");
}

#[test]
fn heavenly_tetrarch_king_igui() {
    let r = rules("wikipedia");
    let p = position(
        r,
        B,
        &[("HTK", B, 10, 10), ("P", W, 11, 10), ("P", B, 9, 10)],
    );
    let moves = moves_at(r, &p, 10, 10);
    let igui: Vec<_> = moves.iter().filter(|m| m.to == m.from).collect();
    assert_eq!(igui.len(), 1);
    assert_eq!(caps(r, &p, igui[0]), vec![(11, 10)]);
    // It jumps the friend on the left and slides on.
    let d = rel(r, &p, 10, 10);
    assert!(d.contains(&(-2, 0)) && d.contains(&(-9, 0)));
    // No pass: igui needs an enemy.
    let p = position(r, B, &[("HTK", B, 10, 10)]);
    assert!(!moves_at(r, &p, 10, 10).iter().any(|m| m.to == m.from));
}

#[test]
fn range_capture_great_general() {
    let r = rules("wikipedia");
    let p = position(
        r,
        B,
        &[
            ("GG", B, 10, 10),
            ("P", W, 10, 12),
            ("P", B, 10, 14),
            ("G", W, 10, 16),
            ("CP", W, 10, 20),
            ("VG", W, 12, 12),
        ],
    );
    let moves = moves_at(r, &p, 10, 10);
    let to = |x, y| moves.iter().find(|m| r.dims().xy(m.to) == (x, y)).copied();
    // Flies over the enemy pawn, the friendly pawn and the gold, removing all it flies over.
    let m = to(10, 17).expect("flies over three pieces");
    assert_eq!(caps(r, &p, &m), vec![(10, 12), (10, 14), (10, 16)]);
    // Captures the prince at the end of its flight, but cannot fly over it.
    let m = to(10, 20).expect("captures the prince");
    assert_eq!(
        caps(r, &p, &m),
        vec![(10, 12), (10, 14), (10, 16), (10, 20)]
    );
    assert!(to(10, 21).is_none());
    // It may not end on the friendly pawn.
    assert!(to(10, 14).is_none());
    // Vice general ranks below it: flown over.
    assert!(to(13, 13).is_some());
    // The vice general cannot fly over the great general.
    let p = position(
        r,
        B,
        &[("VG", B, 10, 10), ("GG", W, 12, 12), ("P", W, 8, 12)],
    );
    let d = dests(r, &p, 10, 10);
    assert!(d.contains(&(12, 12)) && !d.contains(&(13, 13)));
    assert!(d.contains(&(7, 13)), "flies over the pawn");
    assert!(d.contains(&(10, 12)), "its dabbaba jump");
}

#[test]
fn range_capture_differs_by_rule_set() {
    let pieces = [
        ("GG", B, 10, 10),
        ("P", W, 10, 12),
        ("P", B, 10, 14),
        ("CP", W, 10, 18),
    ];
    // Umebayashi (Tenjiku-style): jumps without removing what it jumps.
    let r = rules("umebayashi");
    let p = position(r, B, &pieces);
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 16))
        .unwrap();
    assert!(caps(r, &p, &m).is_empty());
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 18))
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(10, 18)]);
    // ATSA: may end on the lower-ranked friend, but cannot take the prince it cannot fly over.
    let r = rules("atsa");
    let p = position(r, B, &pieces);
    let d = dests(r, &p, 10, 10);
    assert!(d.contains(&(10, 14)));
    assert!(!d.contains(&(10, 18)));
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 14))
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(10, 12), (10, 14)]);
}

#[test]
fn ancient_dragon_range_jump_only_when_capturing() {
    let r = rules("wikipedia");
    let p = position(
        r,
        B,
        &[
            ("AD", B, 10, 10),
            ("P", B, 10, 11),
            ("P", W, 10, 13),
            ("P", W, 10, 20),
        ],
    );
    let d = rel(r, &p, 10, 10);
    assert!(
        d.contains(&(0, 3)) && d.contains(&(0, 10)),
        "captures beyond pieces"
    );
    assert!(
        !d.contains(&(0, 2)) && !d.contains(&(0, 5)),
        "no quiet move beyond a piece"
    );
    // Umebayashi's triple-slashed arrow: quiet moves beyond up to three pieces.
    let r = rules("umebayashi");
    let p = position(
        r,
        B,
        &[
            ("AD", B, 10, 10),
            ("P", B, 10, 11),
            ("P", W, 10, 13),
            ("P", W, 10, 20),
            ("P", W, 10, 25),
        ],
    );
    let d = rel(r, &p, 10, 10);
    assert!(
        d.contains(&(0, 2)) && d.contains(&(0, 5)) && d.contains(&(0, 10)) && d.contains(&(0, 11))
    );
    assert!(
        d.contains(&(0, 15)) && !d.contains(&(0, 16)),
        "a fourth piece can be captured, not jumped"
    );
}

#[test]
fn promotion_by_capture_is_compulsory_and_once() {
    let r = rules("wikipedia");
    let mut p = with_kings(r, B, &[("FL", B, 10, 10), ("P", W, 11, 11)]);
    let moves = moves_at(r, &p, 10, 10);
    assert!(
        moves
            .iter()
            .filter(|m| r.dims().xy(m.to) == (11, 11))
            .all(|m| m.promotes())
    );
    assert!(
        moves
            .iter()
            .filter(|m| r.dims().xy(m.to) == (10, 11))
            .all(|m| !m.promotes())
    );
    // Ferocious leopard -> bishop, which never promotes again although a setup bishop does.
    let m = *moves
        .iter()
        .find(|m| r.dims().xy(m.to) == (11, 11))
        .unwrap();
    r.play(&mut p, &m).unwrap();
    let piece = p.piece_at(sq(r, 11, 11)).unwrap();
    assert_eq!(r.catalogue().kind(piece.kind).code, "B");
    assert!(piece.promoted);
    let mut p2 = with_kings(r, B, &[("+B", B, 11, 11), ("P", W, 13, 13)]);
    let m = moves_at(r, &p2, 11, 11)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (13, 13))
        .unwrap();
    assert!(!m.promotes());
    r.play(&mut p2, &m).unwrap();
    assert_eq!(
        r.catalogue()
            .kind(p2.piece_at(sq(r, 13, 13)).unwrap().kind)
            .code,
        "B"
    );
    // A piece that does not promote never does.
    let p3 = with_kings(r, B, &[("HM", B, 10, 10), ("P", W, 10, 11)]);
    assert!(moves_at(r, &p3, 10, 10).iter().all(|m| !m.promotes()));
}

#[test]
fn zone_promotion_umebayashi_is_optional_atsa_compulsory() {
    let pieces = [("G", B, 10, 24), ("P", W, 30, 30)];
    let r = rules("umebayashi");
    let p = with_kings(r, B, &pieces);
    let into: Vec<_> = moves_at(r, &p, 10, 24)
        .into_iter()
        .filter(|m| r.dims().xy(m.to) == (10, 25))
        .collect();
    assert_eq!(into.len(), 2, "promote or not");
    let stay: Vec<_> = moves_at(r, &p, 10, 24)
        .into_iter()
        .filter(|m| r.dims().xy(m.to) == (10, 23))
        .collect();
    assert_eq!(stay.len(), 1);
    let r = rules("atsa");
    let p = with_kings(r, B, &pieces);
    let into: Vec<_> = moves_at(r, &p, 10, 24)
        .into_iter()
        .filter(|m| r.dims().xy(m.to) == (10, 25))
        .collect();
    assert_eq!(into.len(), 1);
    assert!(into[0].promotes());
    // White's zone is Black's first eleven ranks.
    let p = with_kings(r, W, &[("G", W, 10, 11)]);
    let m: Vec<_> = moves_at(r, &p, 10, 11)
        .into_iter()
        .filter(|m| r.dims().xy(m.to) == (10, 10))
        .collect();
    assert!(m[0].promotes());
}

#[test]
fn atsa_lion_promotes_when_a_step_lands_in_the_zone() {
    let r = rules("atsa");
    let p = with_kings(r, B, &[("LN", B, 10, 24), ("P", W, 10, 25)]);
    // Capture on the zone square and come back: promotes, although it ends outside.
    let igui = moves_at(r, &p, 10, 24)
        .into_iter()
        .find(|m| m.to == m.from && !r.captures(&p, m).is_empty())
        .unwrap();
    assert!(igui.promotes());
}

#[test]
fn game_ends_with_the_last_royal() {
    let r = rules("wikipedia");
    // White has a king and a prince: losing one is not the end.
    let mut p = position(
        r,
        B,
        &[
            ("K", B, 0, 0),
            ("R", B, 10, 0),
            ("K", W, 10, 30),
            ("CP", W, 20, 30),
            ("R", B, 20, 0),
        ],
    );
    let m = moves_at(r, &p, 10, 0)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 30))
        .unwrap();
    r.play(&mut p, &m).unwrap();
    assert!(p.outcome().is_none());
    assert_eq!(p.royals(W), 1);
    // White moves, then Black takes the prince: game over, and no more moves.
    let wm = r.legal_moves(&p)[0];
    r.play(&mut p, &wm).unwrap();
    let m = r.legal_moves(&p).into_iter().find(|m| {
        p.piece_at(m.to)
            .is_some_and(|x| r.catalogue().kind(x.kind).code == "CP")
    });
    if let Some(m) = m {
        r.play(&mut p, &m).unwrap();
        let o = p.outcome().expect("game over");
        assert_eq!(o.winner, B);
        assert!(r.legal_moves(&p).is_empty());
        assert!(r.play(&mut p, &wm).is_err());
    }
}

#[test]
fn drunken_elephant_promotes_to_a_royal_prince() {
    let r = rules("wikipedia");
    let mut p = position(
        r,
        B,
        &[
            ("K", B, 0, 0),
            ("DE", B, 10, 10),
            ("P", W, 10, 11),
            ("K", W, 35, 35),
        ],
    );
    assert_eq!(p.royals(B), 1);
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 11))
        .unwrap();
    r.play(&mut p, &m).unwrap();
    assert_eq!(p.royals(B), 2);
    assert_eq!(
        r.catalogue()
            .kind(p.piece_at(sq(r, 10, 11)).unwrap().kind)
            .code,
        "CP"
    );
}

#[test]
fn atsa_range_capturers_clear_every_straight_path() {
    // ATSA's web engine: the vice general's two-square jump removes the piece it jumps.
    let pieces = [
        ("VG", B, 10, 10),
        ("P", W, 10, 11),
        ("K", B, 0, 0),
        ("K", W, 35, 35),
    ];
    let r = rules("atsa");
    let p = position(r, B, &pieces);
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 12))
        .unwrap();
    assert_eq!(caps(r, &p, &m), vec![(10, 11)]);
    let r = rules("wikipedia");
    let p = position(r, B, &pieces);
    let m = moves_at(r, &p, 10, 10)
        .into_iter()
        .find(|m| r.dims().xy(m.to) == (10, 12))
        .unwrap();
    assert!(caps(r, &p, &m).is_empty(), "a plain jump elsewhere");
}

//! Position strings, JSON positions and move notation: round trips and errors.

use taikyoku_core::notation::{
    load_position, move_string, parse_move, parse_position_json, parse_position_string,
    position_string,
};
use taikyoku_core::rules::Rules;
use taikyoku_testkit::*;

fn random_positions(r: &Rules, seed: u64) -> Vec<taikyoku_core::position::Position> {
    let mut s = seed;
    let mut p = r.start_position();
    let mut out = vec![p.clone()];
    for _ in 0..250 {
        let moves = r.legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(s >> 33) as usize % moves.len()];
        r.play_unchecked(&mut p, &m);
        out.push(p.clone());
    }
    out
}

#[test]
fn position_strings_round_trip() {
    for name in ["wikipedia", "umebayashi", "atsa"] {
        let r = rules(name);
        for p in random_positions(r, 11).iter().step_by(25) {
            let s = position_string(r, p);
            let back = parse_position_string(r, &s).unwrap();
            assert_eq!(&back, p, "{s}");
            assert!(!s.contains('\n'));
        }
    }
}

#[test]
fn every_legal_move_reads_back_from_its_notation() {
    for name in ["wikipedia", "umebayashi", "atsa"] {
        let r = rules(name);
        for p in random_positions(r, 5).iter().step_by(50) {
            for m in r.legal_moves(p) {
                let s = move_string(r, p, &m);
                let back = parse_move(r, p, &s).unwrap_or_else(|e| panic!("{name}: {s}: {e}"));
                // Moves with the same effect may be listed once with another path (effect
                // identity); the notation then names that one.
                assert_eq!(
                    (back.from, back.to, back.promotes()),
                    (m.from, m.to, m.promotes()),
                    "{s}"
                );
                assert_eq!(r.captures(p, &back), r.captures(p, &m), "{s}");
            }
        }
    }
}

#[test]
fn start_position_string_and_move_notation_examples() {
    let r = rules("wikipedia");
    let p = r.start_position();
    let s = position_string(r, &p);
    assert!(
        s.starts_with("l,wt,rr,w,dm,mr,lo,bc,hr,fr,ed,wo,ft,q,rs,rg,g,cp,k,g,lg,"),
        "{s}"
    );
    assert!(s.ends_with(" b 0"));
    // Black's pawn on file 19 (x = 17) steps forward.
    let m = parse_move(r, &p, "P19.26-19.25").unwrap();
    assert_eq!(move_string(r, &p, &m), "P19.26-19.25");
    assert_eq!(parse_move(r, &p, "19.26-19.25").unwrap(), m);
    assert_eq!(parse_move(r, &p, " p 19.26 - 19.25 ").unwrap(), m);
}

#[test]
fn move_errors_explain_themselves() {
    let r = rules("wikipedia");
    let p = r.start_position();
    let e = parse_move(r, &p, "P19.26-19.24").unwrap_err().to_string();
    assert!(e.contains("illegal") && e.contains("Pawn"), "{e}");
    let e = parse_move(r, &p, "19.20-19.19").unwrap_err().to_string();
    assert!(e.contains("no piece on 19.20"), "{e}");
    let e = parse_move(r, &p, "19.11-19.12").unwrap_err().to_string();
    assert!(e.contains("white's") && e.contains("black's turn"), "{e}");
    let e = parse_move(r, &p, "G19.26-19.25").unwrap_err().to_string();
    assert!(e.contains("is a Pawn (P), not G"), "{e}");
    let e = parse_move(r, &p, "P19.26").unwrap_err().to_string();
    assert!(e.contains("start and a destination"), "{e}");
    let e = parse_move(r, &p, "P19.99-19.25").unwrap_err().to_string();
    assert!(e.contains("not a square"), "{e}");
}

#[test]
fn optional_promotion_must_be_chosen_when_typed() {
    let r = rules("umebayashi");
    let p = with_kings(r, B, &[("G", B, 10, 24)]);
    // File 26 (x = 10), rank 12 (y = 24) to rank 11.
    let e = parse_move(r, &p, "G26.12-26.11").unwrap_err().to_string();
    assert!(e.contains("add + to promote or = to decline"), "{e}");
    let yes = parse_move(r, &p, "G26.12-26.11+").unwrap();
    let no = parse_move(r, &p, "G26.12-26.11=").unwrap();
    assert!(yes.promotes() && !no.promotes());
    assert_eq!(move_string(r, &p, &yes), "G26.12-26.11+");
    assert_eq!(move_string(r, &p, &no), "G26.12-26.11=");
}

#[test]
fn lion_moves_are_typed_leg_by_leg() {
    let r = rules("wikipedia");
    let p = with_kings(
        r,
        B,
        &[("LN", B, 10, 10), ("P", W, 10, 11), ("P", W, 10, 12)],
    );
    // x = 10 is file 26; y = 10, 11, 12 are ranks 26, 25, 24.
    let double = parse_move(r, &p, "LN26.26x26.25x26.24").unwrap();
    assert_eq!(r.captures(&p, &double).len(), 2);
    let igui = parse_move(r, &p, "LN26.26x26.25-26.26").unwrap();
    assert_eq!(igui.from, igui.to);
    // Under the wikipedia rules a capture promotes: the lion becomes a furious fiend.
    assert_eq!(move_string(r, &p, &igui), "LN26.26x26.25-26.26+");
    // Start and destination alone mean the one-leg move (the leap), not the double capture.
    let leap = parse_move(r, &p, "LN26.26-26.24").unwrap();
    assert!(leap.path().is_empty());
    assert_eq!(r.captures(&p, &leap).len(), 1);
}

#[test]
fn json_positions() {
    let r = rules("wikipedia");
    let text = r#"{"to_move": "white", "pieces": [
        {"piece": "king", "side": "black", "at": [17, 0]},
        {"piece": "Crown Prince", "side": "white", "at": [17, 35]},
        {"piece": "獅子", "side": "white", "at": [5, 5], "promoted": true}
    ]}"#;
    let p = parse_position_json(r, "p.json", text).unwrap();
    assert_eq!(p.to_move(), W);
    assert!(p.piece_at(sq(r, 5, 5)).unwrap().promoted);
    let e = parse_position_json(r, "p.json", &text.replace("獅子", "lyon"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unknown piece \"lyon\"") && e.contains("Lion (LN)"),
        "{e}"
    );
    let e = parse_position_json(r, "p.json", &text.replace("[5, 5]", "[36, 5]"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("off the board"), "{e}");
    let e = parse_position_json(r, "p.json", "{\"to_move\": \"black\",\n \"pieces\": [}")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("p.json:2:"), "{e}");
    let e = load_position(r, "not a position").unwrap_err().to_string();
    assert!(e.contains("side to move"), "{e}");
}

#[test]
fn position_string_errors() {
    let r = rules("wikipedia");
    let good = position_string(r, &r.start_position());
    let e = parse_position_string(r, &good.replacen("l,wt", "l,zz", 1))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rank 1, cell 2 \"zz\": unknown piece code"),
        "{e}"
    );
    let e = parse_position_string(r, &good.replacen("/", "//", 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("rows"), "{e}");
    let e = parse_position_string(r, &good.replace(" b 0", " x 0"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("b or w"), "{e}");
    let e = parse_position_string(r, "36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36 b").unwrap_err().to_string();
    assert!(e.contains("royal"), "{e}");
}

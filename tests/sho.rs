//! Sho shogi, the second built-in game: its end rule (king and crown prince), its promotion
//! (optional in the three-rank zone, compulsory where a piece could not move again), records
//! and the command line, on hand-built positions and from the opening.

mod common;

use common::{B, W, fails, ok, position, sho, sq};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use taikyoku_core::moves::Move;
use taikyoku_core::notation::{self, position_string};
use taikyoku_core::perft;
use taikyoku_core::position::{EndReason, Outcome};
use taikyoku_core::rules::Rules;
use taikyoku_records::record::Record;
use taikyoku_records::store::{self, Overwrite};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The move of the piece on `from` to `to` that promotes (or not).
fn find(
    r: &Rules,
    p: &taikyoku_core::position::Position,
    from: (i32, i32),
    to: (i32, i32),
    promotes: bool,
) -> Move {
    r.moves_from(p, sq(r, from.0, from.1))
        .into_iter()
        .find(|m| m.to == sq(r, to.0, to.1) && m.promotes() == promotes)
        .unwrap_or_else(|| panic!("no move {from:?}-{to:?} promoting {promotes}"))
}

/// Plays that move, checking it is legal.
fn play(
    r: &Rules,
    p: &mut taikyoku_core::position::Position,
    from: (i32, i32),
    to: (i32, i32),
    promotes: bool,
) {
    let m = find(r, p, from, to, promotes);
    r.play(p, &m).unwrap();
}

/// For each destination of the piece on `from`, whether it may decline and whether it may
/// promote there.
fn choices(
    r: &Rules,
    p: &taikyoku_core::position::Position,
    from: (i32, i32),
) -> BTreeSet<((i32, i32), bool)> {
    r.moves_from(p, sq(r, from.0, from.1))
        .iter()
        .map(|m| (r.dims().xy(m.to), m.promotes()))
        .collect()
}

#[test]
fn the_board_and_setup_come_from_the_game_data() {
    let r = sho();
    assert_eq!((r.dims().files, r.dims().ranks), (9, 9));
    assert_eq!(r.game.id, "sho");
    assert_eq!(r.game.name, "Sho shogi");
    let p = r.start_position();
    assert_eq!(p.pieces().count(), 42);
    // The drunk elephant stands in front of the king (5.8 and 5.9); the bishop on 8.8, the
    // rook on 2.8.
    let at = |name: &str| {
        let k = p.piece_at(r.dims().parse_square(name).unwrap()).unwrap();
        r.catalogue().kind(k.kind).code.clone()
    };
    assert_eq!(
        [
            at("5.9"),
            at("5.8"),
            at("8.8"),
            at("2.8"),
            at("5.1"),
            at("5.2")
        ],
        ["K", "DE", "B", "R", "K", "DE"]
    );
}

#[test]
fn the_prince_is_a_second_royal() {
    let r = sho();
    // Black's rook can take White's king on 9.1; White also has a prince on 1.1.
    let mut p = position(
        r,
        B,
        &[
            ("K", B, 4, 0),
            ("R", B, 0, 1),
            ("R", B, 7, 1),
            ("K", W, 0, 8),
            ("+CP", W, 8, 8),
            ("P", W, 4, 5),
        ],
    );
    play(r, &mut p, (0, 1), (0, 8), false);
    assert_eq!(r.outcome(&p), None, "White still has its prince");
    assert_eq!(p.royals(W), 1);
    play(r, &mut p, (4, 5), (4, 4), false);
    play(r, &mut p, (7, 1), (7, 8), true);
    assert_eq!(r.outcome(&p), None);
    play(r, &mut p, (4, 4), (4, 3), false);
    play(r, &mut p, (7, 8), (8, 8), false);
    assert_eq!(
        r.outcome(&p),
        Some(Outcome {
            winner: B,
            reason: EndReason::RoyalsCaptured
        }),
        "king and prince are both gone"
    );
}

#[test]
fn a_promoted_drunk_elephant_keeps_its_side_alive() {
    let r = sho();
    let mut p = position(
        r,
        B,
        &[
            ("K", B, 4, 0),
            ("DE", B, 4, 5),
            ("R", W, 0, 0),
            ("K", W, 8, 8),
        ],
    );
    // Entering the zone, the elephant may promote or not.
    assert!(choices(r, &p, (4, 5)).is_superset(&[((4, 6), false), ((4, 6), true)].into()));
    play(r, &mut p, (4, 5), (4, 6), true);
    let prince = p.piece_at(sq(r, 4, 6)).unwrap();
    assert_eq!(r.catalogue().kind(prince.kind).code, "CP");
    assert!(prince.promoted);
    assert_eq!(p.royals(B), 2);
    // White's rook takes the king: Black plays on with the prince.
    play(r, &mut p, (0, 0), (4, 0), false);
    assert_eq!(r.outcome(&p), None);
    assert_eq!(p.royals(B), 1);
    // Unpromoted, the elephant is not royal: without the king the game would be over.
    let p = position(r, W, &[("DE", B, 4, 5), ("K", W, 8, 8)]);
    assert_eq!(r.outcome(&p).map(|o| o.winner), Some(W));
}

#[test]
fn promotion_is_optional_in_the_zone_and_compulsory_where_a_piece_would_be_stuck() {
    let r = sho();
    let p = position(
        r,
        B,
        &[
            ("K", B, 4, 0),
            ("K", W, 4, 8),
            ("P", B, 0, 5),
            ("P", B, 1, 7),
            ("L", B, 2, 3),
            ("N", B, 6, 4),
            ("N", B, 1, 5),
            ("S", B, 8, 7),
            ("S", B, 3, 6),
            ("G", B, 5, 7),
        ],
    );
    let both = |at: (i32, i32)| [(at, false), (at, true)];
    // A pawn entering the zone chooses; on the last rank it must promote.
    assert_eq!(choices(r, &p, (0, 5)), both((0, 6)).into());
    assert_eq!(choices(r, &p, (1, 7)), [((1, 8), true)].into());
    // A lance: no promotion below the zone, a choice on ranks 7 and 8 (y 6, 7), none on 9.
    let lance: BTreeSet<_> = [((2, 4), false), ((2, 5), false), ((2, 8), true)]
        .into_iter()
        .chain(both((2, 6)))
        .chain(both((2, 7)))
        .collect();
    assert_eq!(choices(r, &p, (2, 3)), lance);
    // A knight landing on the third-last rank chooses; on the last two it must promote.
    assert_eq!(
        choices(r, &p, (6, 4)),
        [both((5, 6)), both((7, 6))].concat().into_iter().collect()
    );
    assert_eq!(
        choices(r, &p, (1, 5)),
        [((0, 7), true), ((2, 7), true)].into()
    );
    // A silver on the last rank can still move back, so it may decline; leaving the zone
    // (a move that starts in it) it may promote too.
    assert!(choices(r, &p, (8, 7)).is_superset(&both((8, 8)).into()));
    assert!(choices(r, &p, (3, 6)).is_superset(&both((2, 5)).into()));
    // The gold never promotes.
    assert!(
        choices(r, &p, (5, 7))
            .iter()
            .all(|&(_, promotes)| !promotes)
    );
    // White's pawn must promote on its last rank (Black's back rank) too.
    let p = position(r, W, &[("K", B, 8, 0), ("K", W, 4, 8), ("P", W, 2, 1)]);
    assert_eq!(choices(r, &p, (2, 1)), [((2, 0), true)].into());
}

#[test]
fn a_record_of_sho_round_trips_and_checks() {
    let r = sho();
    let (record, pos) = common::random_game(r, 7, 60, false);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sho.toml");
    store::save(&path, &record, Overwrite::Never).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains("game = \"Sho shogi\"\n"), "{text}");
    assert!(text.starts_with("# A Sho shogi game record"), "{text}");
    let back = Record::load(&path).unwrap();
    let game = back
        .find_game(&taikyoku_core::game::DataDir::Embedded)
        .unwrap();
    assert_eq!(game.id, "sho");
    let replay = back.replay(&game).unwrap();
    assert!(replay.warnings.is_empty(), "{:?}", replay.warnings);
    assert_eq!(replay.history.position(), &pos);
    let out = ok(&["check", s(&path)]);
    assert!(out.contains("moves: 60\n"), "{out}");
    assert!(
        out.contains(&format!("position: {}\n", position_string(r, &pos))),
        "{out}"
    );
    // The record's game is played without --game; a --game that contradicts it is refused.
    assert!(ok(&["moves", "--record", s(&path)]).ends_with(&format!(
        "{} moves for {}\n",
        r.legal_moves(&pos).len(),
        pos.to_move()
    )));
    assert!(ok(&["--game", "sho", "check", s(&path)]).contains("moves: 60\n"));
    let e = fails(&["--game", "taikyoku", "check", s(&path)]);
    assert!(
        e.contains("this is a record of Sho shogi (sho), but --game asks for \"taikyoku\""),
        "{e}"
    );
    // A record of a game this program does not know: the error points at `game`.
    let unknown = dir.path().join("unknown.toml");
    fs::write(
        &unknown,
        text.replace("game = \"Sho shogi\"", "game = \"Wa shogi\""),
    )
    .unwrap();
    let e = fails(&["check", s(&unknown)]);
    assert!(
        e.contains(&format!("{}:5:8: game: unknown game \"Wa shogi\"; the games are: taikyoku (Taikyoku shogi), sho (Sho shogi)", s(&unknown))),
        "{e}"
    );
}

#[test]
fn the_command_line_plays_sho() {
    let moves = ok(&["--game", "sho", "moves"]);
    assert!(moves.ends_with("26 moves for black\n"), "{moves}");
    assert!(
        moves.contains("DE5.8-4.8\n") && moves.contains("R2.8-3.8\n"),
        "{moves}"
    );
    assert_eq!(ok(&["perft", "3", "--game", "sho"]), "17368\n");
    assert_eq!(ok(&["-g", "Sho shogi", "perft", "2"]), "676\n");
    let board = ok(&["--game", "sho", "board"]);
    assert!(
        board.contains("  8    .   B   .   .  DE   .   .   R   .\n"),
        "{board}"
    );
    assert!(
        board.contains("  2    .   r   .   .  de   .   .   b   .\n"),
        "{board}"
    );
    let card = ok(&["--game", "sho", "piece", "drunk elephant"]);
    assert!(
        card.contains("Promotes to: 太子 Crown prince (CP)"),
        "{card}"
    );
    let card = ok(&["--game", "sho", "piece", "CP"]);
    assert!(card.contains("royal"), "{card}");
    // A lone king in the middle of the 9×9 board (the default square) has 8 moves.
    let json = ok(&["--game", "sho", "piece", "K", "--json"]);
    assert!(json.contains("\"at\":[4,4]"), "{json}");
    assert_eq!(json.matches("],[").count() + 1, 8, "{json}");
    let rules = ok(&["--game", "sho", "rules"]);
    assert!(
        rules.starts_with("Sho shogi (--game sho): 9×9 board"),
        "{rules}"
    );
    assert!(rules.contains("standard (default)"), "{rules}");
    let pieces = ok(&["--game", "sho", "pieces"]);
    assert_eq!(pieces.lines().count(), 16, "{pieces}");
    // A game played from the shell.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.toml");
    ok(&["--game", "sho", "record", "new", s(&path)]);
    let added = ok(&["record", "add", s(&path), "5.8-4.8", "5.2-6.2"]);
    assert!(added.starts_with("DE5.8-4.8\nDE5.2-6.2\n"), "{added}");
    assert!(ok(&["check", s(&path)]).contains("moves: 2\n"));
    // Every command names the games in its help, and an unknown game lists them.
    let help = ok(&["moves", "--help"]);
    assert!(
        help.contains("taikyoku (Taikyoku shogi), sho (Sho shogi)"),
        "{help}"
    );
    let e = fails(&["--game", "chess", "moves"]);
    assert!(
        e.contains(
            "unknown game \"chess\"; the games are: taikyoku (Taikyoku shogi), sho (Sho shogi)"
        ),
        "{e}"
    );
    let e = fails(&["--game", "sho", "--rules", "wikipedia", "moves"]);
    assert!(e.contains("the rule sets are: standard"), "{e}");
    // Notation on the small board: squares are file.rank from 1 to 9.
    let r = sho();
    let p = r.start_position();
    let m = notation::parse_move(r, &p, "P7.7-7.6").unwrap();
    assert_eq!(notation::move_string(r, &p, &m), "P7.7-7.6");
}

/// A copy of Sho's built-in data with its game file edited.
fn sho_data(dir: &Path, edit: impl Fn(&str) -> String) -> taikyoku_core::game::DataDir {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/games"));
    for f in ["rules/sho.toml", "pieces/sho.toml", "setups/sho.toml"] {
        let mut text = fs::read_to_string(root.join(f)).unwrap();
        if f == "rules/sho.toml" {
            text = edit(&text);
        }
        fs::create_dir_all(dir.join(f).parent().unwrap()).unwrap();
        fs::write(dir.join(f), text).unwrap();
    }
    taikyoku_core::game::DataDir::dir(dir)
}

/// The same with its end rule replaced.
fn sho_with_end(dir: &Path, end: &str) -> taikyoku_core::game::DataDir {
    sho_data(dir, |t| {
        t.replace("end = { survives_with = [[\"royal\"]] }", end)
    })
}

#[test]
fn the_board_size_comes_from_the_game_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = sho_data(dir.path(), |t| t.replace("ranks = 9", "ranks = 11"));
    let r = Rules::new(
        taikyoku_core::game::Game::load(&data, "sho").unwrap(),
        "standard",
    )
    .unwrap();
    assert_eq!((r.dims().files, r.dims().ranks), (9, 11));
    let p = r.start_position();
    let white_king = p
        .pieces()
        .find(|(_, q)| q.side == W && r.catalogue().kind(q.kind).code == "K")
        .unwrap();
    assert_eq!(r.dims().xy(white_king.0), (4, 10));
    assert_eq!(perft::perft(&r, &p, 1), 26);
    let data = sho_data(dir.path(), |t| t.replace("ranks = 9", "ranks = 99"));
    let e = taikyoku_core::game::Game::load(&data, "sho")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rules/sho.toml:9:9: ranks must be 2 to 64"),
        "{e}"
    );
}

#[test]
fn an_end_rule_can_need_several_pieces_at_once() {
    // Kō shogi's kind of rule: a side survives while it has its king, or both a gold and a
    // silver.
    let dir = tempfile::tempdir().unwrap();
    let data = sho_with_end(
        dir.path(),
        "end = { survives_with = [[\"K\"], [\"G\", \"S\"]] }",
    );
    let game = taikyoku_core::game::Game::load(&data, "sho").unwrap();
    assert_eq!(game.end.describe(), "K, or G and S");
    let r = Rules::new(game, "standard").unwrap();
    let mut p = position(
        &r,
        W,
        &[
            ("G", B, 0, 0),
            ("S", B, 1, 1),
            ("K", W, 4, 8),
            ("R", W, 1, 8),
        ],
    );
    assert_eq!(r.outcome(&p), None, "gold and silver keep Black alive");
    play(&r, &mut p, (1, 8), (1, 1), false);
    assert_eq!(
        r.outcome(&p),
        Some(Outcome {
            winner: W,
            reason: EndReason::RoyalsCaptured
        }),
        "a gold alone is not enough"
    );
    // Bad end rules are reported where they are written.
    let data = sho_with_end(dir.path(), "end = { survives_with = [[\"K\", \"XX\"]] }");
    let e = taikyoku_core::game::Game::load(&data, "sho")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rules/sho.toml:18:32: end.survives_with: \"XX\" is not a piece code of"),
        "{e}"
    );
    let data = sho_with_end(dir.path(), "end = { survives_with = [] }");
    let e = taikyoku_core::game::Game::load(&data, "sho")
        .unwrap_err()
        .to_string();
    assert!(e.contains("end.survives_with: no alternative"), "{e}");
}

/// Random games to their end: no unpromoted pawn or lance ever stands on its last rank, nor a
/// knight on its last two (forced promotion), and a game ends by royal capture exactly when a
/// side has neither king nor prince left.
#[test]
fn random_games_keep_the_promotion_and_end_rules() {
    let r = sho();
    let code = |p: &taikyoku_core::piece::Piece| r.catalogue().kind(p.kind).code.clone();
    let mut rng = common::Rng::new(2026);
    let mut ended = 0;
    for _ in 0..60 {
        let mut p = r.start_position();
        for _ in 0..300 {
            for (s, piece) in p.pieces() {
                let (_, y) = r.dims().xy(s);
                let far = if piece.side == B { 8 - y } else { y };
                let stuck = match code(&piece).as_str() {
                    "P" | "L" => far == 0,
                    "N" => far <= 1,
                    _ => false,
                };
                assert!(!stuck, "{} on {}", code(&piece), position_string(r, &p));
            }
            let royals = |side| {
                p.pieces()
                    .filter(|(_, q)| q.side == side && ["K", "CP"].contains(&code(q).as_str()))
                    .count()
            };
            let bare = [B, W].into_iter().find(|&side| royals(side) == 0);
            assert_eq!(
                p.outcome(),
                bare.map(|side| Outcome {
                    winner: side.opponent(),
                    reason: EndReason::RoyalsCaptured
                }),
                "{}",
                position_string(r, &p)
            );
            let moves = r.legal_moves(&p);
            if moves.is_empty() {
                ended += 1;
                break;
            }
            r.play(&mut p, &moves[rng.below(moves.len())]).unwrap();
        }
    }
    assert!(ended > 30, "only {ended} games ended");
}

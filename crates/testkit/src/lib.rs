//! Helpers the workspace's tests share: the built-in rules compiled once per test binary,
//! hand-built positions, moves as coordinates, seeded random games, and the command of a
//! scripted ATSI engine. Test code only (`publish = false`; a dev-dependency).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;
use taikyoku_core::game::Game;
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::moves::Move;
use taikyoku_core::piece::Piece;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_records::history::History;

mod fake_engine;
pub use fake_engine::fake_engine;

pub const B: Side = Side::Black;
pub const W: Side = Side::White;

fn game() -> &'static Game {
    static GAME: OnceLock<Game> = OnceLock::new();
    GAME.get_or_init(|| Game::builtin("taikyoku").expect("the built-in data loads"))
}

/// The built-in Taikyoku rules under a rule set (compiled once per test binary).
pub fn rules(name: &str) -> &'static Rules {
    static RULES: OnceLock<BTreeMap<&'static str, Rules>> = OnceLock::new();
    let all = RULES.get_or_init(|| {
        ["wikipedia", "umebayashi", "atsa"]
            .into_iter()
            .map(|n| (n, Rules::new(game().clone(), n).expect("rule set compiles")))
            .collect()
    });
    &all[name]
}

/// A game from `r`'s start (with its own copy of the rules, which a history owns).
pub fn history(r: &Rules) -> History {
    let own = Rules::new(r.game.clone(), &r.rule_set.name).expect("rule set compiles");
    History::new(own, r.start_position())
}

/// The built-in Sho shogi under its one rule set (compiled once per test binary).
pub fn sho() -> &'static Rules {
    static SHO: OnceLock<Rules> = OnceLock::new();
    SHO.get_or_init(|| {
        let game = Game::builtin("sho").expect("the built-in data loads");
        Rules::new(game, "standard").expect("rule set compiles")
    })
}

/// The built-in Kō shōgi under a rule set (compiled once per test binary per rule set).
pub fn ko(rule_set: &str) -> &'static Rules {
    static KO: OnceLock<std::sync::Mutex<BTreeMap<String, &'static Rules>>> = OnceLock::new();
    let mut all = KO.get_or_init(Default::default).lock().unwrap();
    all.entry(rule_set.to_string()).or_insert_with(|| {
        let game = Game::builtin("koshogi").expect("the built-in data loads");
        Box::leak(Box::new(
            Rules::new(game, rule_set).expect("rule set compiles"),
        ))
    })
}

pub fn sq(r: &Rules, x: i32, y: i32) -> Square {
    r.dims().square(x, y).expect("square on the board")
}

/// A position with these pieces `(code, side, x, y)` (promoted when the code starts with '+')
/// and `to_move` to move. Kings are not added: a position without royals on one side is over,
/// so tests that play moves add them.
pub fn position(r: &Rules, to_move: Side, pieces: &[(&str, Side, i32, i32)]) -> Position {
    let mut p = r.empty_position();
    for &(code, side, x, y) in pieces {
        let (promoted, code) = match code.strip_prefix('+') {
            Some(c) => (true, c),
            None => (false, code),
        };
        let kind = r
            .catalogue()
            .by_code(code)
            .unwrap_or_else(|| panic!("no piece {code}"));
        r.put(
            &mut p,
            sq(r, x, y),
            Some(Piece {
                kind,
                side,
                promoted,
            }),
        );
    }
    p.set_to_move(to_move);
    p
}

/// Same as [`position`] with a king for each side in far corners, so the game is on.
pub fn with_kings(r: &Rules, to_move: Side, pieces: &[(&str, Side, i32, i32)]) -> Position {
    let mut all = pieces.to_vec();
    all.push(("K", B, 0, 0));
    all.push(("K", W, 35, 35));
    position(r, to_move, &all)
}

/// The moves of the piece on (x, y).
pub fn moves_at(r: &Rules, p: &Position, x: i32, y: i32) -> Vec<Move> {
    r.moves_from(p, sq(r, x, y))
}

/// The destinations of the piece on (x, y), as (x, y) pairs.
pub fn dests(r: &Rules, p: &Position, x: i32, y: i32) -> BTreeSet<(i32, i32)> {
    moves_at(r, p, x, y)
        .iter()
        .map(|m| r.dims().xy(m.to))
        .collect()
}

/// Destinations relative to (x, y), as (dx, dy) pairs.
pub fn rel(r: &Rules, p: &Position, x: i32, y: i32) -> BTreeSet<(i32, i32)> {
    dests(r, p, x, y)
        .into_iter()
        .map(|(a, b)| (a - x, b - y))
        .collect()
}

pub fn set(v: &[(i32, i32)]) -> BTreeSet<(i32, i32)> {
    v.iter().copied().collect()
}

/// The captures of a move as (x, y) pairs, sorted.
pub fn caps(r: &Rules, p: &Position, m: &Move) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = r.captures(p, m).iter().map(|&s| r.dims().xy(s)).collect();
    v.sort();
    v
}

pub fn path(r: &Rules, m: &Move) -> Vec<(i32, i32)> {
    m.path().iter().map(|&s| r.dims().xy(s)).collect()
}

/// A small seeded generator (SplitMix64): random games that are the same on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A record of `n` random legal moves from the opening that never ends the game (a move that
/// would is passed over), and the position reached. `quiet` plays non-capturing moves where
/// there are any, so that a long game keeps its pieces.
pub fn random_game(
    r: &Rules,
    seed: u64,
    n: usize,
    quiet: bool,
) -> (taikyoku_records::record::Record, Position) {
    let mut rng = Rng::new(seed);
    let mut history = history(r);
    for ply in 0..n {
        let pos = history.position();
        let mut moves = r.legal_moves(pos);
        if quiet && moves.iter().any(|m| r.captures(pos, m).is_empty()) {
            moves.retain(|m| r.captures(pos, m).is_empty());
        }
        loop {
            assert!(
                !moves.is_empty(),
                "seed {seed}: every move ends the game at ply {ply}"
            );
            let m = moves.swap_remove(rng.below(moves.len()));
            let mut child = pos.clone();
            r.play_unchecked(&mut child, &m);
            if r.outcome(&child).is_none() {
                history.play(&m).expect("a legal move");
                break;
            }
        }
    }
    let record = taikyoku_records::record::Record::new(&history);
    (record, history.position().clone())
}

/// The names of the files in a directory, sorted: what a test expects a save to have left.
pub fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

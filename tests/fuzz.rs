//! Fuzzing every parser (property tests, bounded so that `cargo test` runs them in seconds):
//! mutated movements, position strings, TSFENs, JSON positions, moves, records and game data
//! files load or fail with an error, and never panic or hang; an ATSI session fed refused
//! lines among its commands answers them as a clean session does. Each runs a fixed number of cases
//! (`PROPTEST_CASES` raises it for a longer local run).

mod common;

use proptest::prelude::*;
use std::path::Path;
use taikyoku_core::game::{DataDir, Game};
use taikyoku_core::notation;
use taikyoku_core::rules::Rules;

/// One edit of a text: delete a range, insert text, repeat a slice, or swap in a character.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Repeat(usize, usize, usize),
    Replace(usize, char),
}

/// Characters that matter to the parsers, and some that do not.
fn alphabet() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::sample::select(
            "()-,/+=.x0123456789 \n\"'\\[]{}:#bwfslrvmcdnpKWFRBQNDAHLPkpTSFEN_"
                .chars()
                .collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0usize..40).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), proptest::collection::vec(alphabet(), 1..12))
            .prop_map(|(a, s)| Edit::Insert(a, s.into_iter().collect())),
        (any::<usize>(), 1usize..20, 1usize..50).prop_map(|(a, n, k)| Edit::Repeat(a, n, k)),
        (any::<usize>(), alphabet()).prop_map(|(a, c)| Edit::Replace(a, c)),
    ]
}

/// A few edits of `base`, on character boundaries.
fn mutated(base: &'static str) -> impl Strategy<Value = String> {
    proptest::collection::vec(edit(), 1..4).prop_map(move |edits| {
        let mut chars: Vec<char> = base.chars().collect();
        for e in edits {
            let at = |a: usize, len: usize| if len == 0 { 0 } else { a % (len + 1) };
            match e {
                Edit::Delete(a, n) => {
                    let a = at(a, chars.len());
                    let b = (a + n).min(chars.len());
                    chars.drain(a..b);
                }
                Edit::Insert(a, s) => {
                    let a = at(a, chars.len());
                    chars.splice(a..a, s.chars());
                }
                Edit::Repeat(a, n, k) => {
                    let a = at(a, chars.len());
                    let b = (a + n).min(chars.len());
                    let slice: Vec<char> = chars[a..b].to_vec();
                    let copies = slice.repeat(k);
                    chars.splice(b..b, copies);
                }
                Edit::Replace(a, c) => {
                    if !chars.is_empty() {
                        let a = a % chars.len();
                        chars[a] = c;
                    }
                }
            }
        }
        chars.into_iter().collect()
    })
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

const MOVEMENTS: &str = "KNAD(cK-K)(K-bK) R(R-sR) p3fB xQ mfWcfF fnD (D-fR) f(4,4) vN2 WW";

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn movements(text in mutated(MOVEMENTS)) {
        if let Ok(patterns) = taikyoku_core::betza::parse(&text) {
            prop_assert!(taikyoku_core::betza::ray_bound(&patterns) <= taikyoku_core::betza::MAX_RAYS);
            let visits = taikyoku_core::betza::visit_bound(&patterns, usize::MAX);
            prop_assert!(visits <= taikyoku_core::betza::MAX_VISITS);
            for p in &patterns {
                prop_assert!(p.legs.len() <= taikyoku_core::betza::MAX_LEGS);
            }
        }
    }

    #[test]
    fn moves(text in mutated("LN26.26x26.25-26.24+ P19.26-19.25 HM17.30-17.20-10.20=")) {
        let r = common::rules("wikipedia");
        let pos = r.start_position();
        for part in text.split(' ') {
            let _ = notation::parse_move(r, &pos, part);
        }
    }
}

fn opening() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let r = common::rules("wikipedia");
        notation::position_string(r, &r.start_position())
    })
}

fn a_tsfen() -> &'static str {
    let data = include_str!("../crates/core/tests/data/atsa_positions.txt");
    let line = data.lines().find(|l| !l.starts_with('#')).unwrap();
    line.splitn(3, ' ').nth(2).unwrap()
}

/// Reads a position every way `--position` can (never from a file: the text has no path).
fn read_position(r: &Rules, text: &str) {
    let _ = notation::parse_position_string(r, text);
    let _ = notation::parse_tsfen(r, text);
    let _ = notation::parse_position_json(r, "p.json", text);
    if text.contains(',') {
        let _ = notation::load_position(r, text);
    }
}

proptest! {
    #![proptest_config(config(100))]

    #[test]
    fn position_strings(text in mutated(opening())) {
        read_position(common::rules("umebayashi"), &text);
    }

    #[test]
    fn tsfens(text in mutated(a_tsfen())) {
        read_position(common::rules("atsa"), &text);
    }

    #[test]
    fn json_positions(text in mutated(r#"{"to_move": "white", "ply": 3, "pieces": [
        {"piece": "K", "side": "black", "at": [0, 0]},
        {"piece": "獅子", "side": "white", "at": [5, 5], "promoted": true},
        {"piece": "ram's head soldier", "side": "black", "at": [35, 35]}]}"#)) {
        read_position(common::rules("wikipedia"), &text);
    }

    #[test]
    fn records(text in mutated(RECORD)) {
        if let Ok(record) = taikyoku_records::record::Record::parse("g.toml", &text) {
            let _ = record.replay(&common::rules("wikipedia").game);
        }
    }
}

const RECORD: &str = r#"format = "taikyoku-record"
version = 1
game = "Taikyoku shogi"
rules = "wikipedia"
start = "standard"
black = "A"
white = ""
started = "2026-11-30T16:00:05Z"
updated = "2026-11-30T16:07:53Z"
result = ""
termination = ""
moves = [
  "P19.26-19.25",
  "P18.11-18.12",
  "D6.25-7.24",
]
"#;

/// A copy of the built-in data in a temporary directory, for mutating one file of it.
fn data_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/games"));
    std::fs::copy(root.join("pieces.toml"), dir.path().join("pieces.toml")).unwrap();
    for sub in ["rules", "setups", "pieces"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        for f in std::fs::read_dir(root.join(sub)).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), dir.path().join(sub).join(f.file_name())).unwrap();
        }
    }
    dir
}

/// Writes `text` as `file` of a copy of the data and loads the game `id` and every rule set.
fn load_with(file: &str, text: &str, id: &str) {
    let dir = data_copy();
    std::fs::write(dir.path().join(file), text).unwrap();
    if let Ok(game) = Game::load(&DataDir::dir(dir.path()), id) {
        for rs in game.rule_sets.clone() {
            let _ = Rules::new(game.clone(), &rs.name);
        }
    }
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn game_files(text in mutated(include_str!("../games/rules/sho.toml"))) {
        load_with("rules/sho.toml", &text, "sho");
    }

    #[test]
    fn setups(text in mutated(include_str!("../games/setups/sho.toml"))) {
        load_with("setups/sho.toml", &text, "sho");
    }

    #[test]
    fn catalogues(text in mutated(include_str!("../games/pieces/sho.toml"))) {
        load_with("pieces/sho.toml", &text, "sho");
    }
}

/// A host's commands to the engine (second player, random but seeded, Sho shōgi to be quick):
/// a clean session.
const ATSI_SCRIPT: &[&str] = &[
    "atsiinit v0",
    "identify",
    "player 1",
    "time 60 1",
    "setparam policy random",
    "setparam seed 5",
    "setparam hash 1",
    "startgame initial",
    "opmove 5g 5f 60 60",
    "eval",
    "opmove 4g 4f 59 59",
    "setparam depth 2",
    "eval",
    "win royals captured",
    "startgame initial",
    "opmove 6g 6f 60 60",
    "quit",
];

/// The engine's replies to each line of `lines`, one session from the start.
fn atsi_session(lines: &[String]) -> Vec<Vec<String>> {
    use taikyoku_protocol::serve::{Flow, Policy, Session, SessionLog, Settings};
    static RULES: std::sync::OnceLock<std::sync::Arc<Rules>> = std::sync::OnceLock::new();
    let rules = RULES.get_or_init(|| {
        let game = taikyoku_core::game::Game::builtin("sho").unwrap();
        std::sync::Arc::new(Rules::new(game, "standard").unwrap())
    });
    let settings = Settings {
        policy: Policy::Search,
        depth: Some(1),
        nodes: None,
        movetime: None,
        seed: 0,
        hash: 1,
        threads: 1,
        host_safe: false,
        weights: Default::default(),
    };
    let mut s = Session::new(
        rules.clone(),
        settings,
        Default::default(),
        SessionLog::Summary,
    );
    let mut replies = Vec::new();
    for line in lines {
        let mut out = Vec::new();
        let flow = s.handle(line, &mut |r| out.push(r.to_line()));
        replies.push(out);
        if flow == Flow::Quit {
            break;
        }
    }
    replies
}

/// A line the engine must refuse: a mutated command, garbage, or a command with a bad value.
fn atsi_junk() -> impl Strategy<Value = String> {
    prop_oneof![
        mutated("opmove 5g 5f 60 60"),
        mutated("setparam threads 64"),
        mutated("startgame 9/9/9 0"),
        mutated("time 60 1"),
        mutated("player 1"),
        mutated("atsiinit v0"),
        proptest::collection::vec(alphabet(), 1..80).prop_map(|c| c.into_iter().collect()),
    ]
}

proptest! {
    #![proptest_config(config(150))]

    /// Refused lines change nothing: with them among its commands, a session answers every
    /// command as a clean session does, and each refused line with one `log error`. (A
    /// mutation that is still a command the engine takes is no refused line: such a case is
    /// passed over.)
    #[test]
    fn atsi_sessions(junk in proptest::collection::vec((0usize..ATSI_SCRIPT.len(), atsi_junk()), 1..6)) {
        let clean: Vec<String> = ATSI_SCRIPT.iter().map(|l| l.to_string()).collect();
        let mut mixed: Vec<(bool, String)> = clean.iter().map(|l| (false, l.clone())).collect();
        for (at, line) in junk.into_iter().rev() {
            let line = line.replace(['\n', '\r'], " ");
            mixed.insert(at + 1, (true, line));
        }
        let lines: Vec<String> = mixed.iter().map(|(_, l)| l.clone()).collect();
        let got = atsi_session(&lines);
        let mut answers = Vec::new();
        for ((is_junk, line), replies) in mixed.iter().zip(&got) {
            if *is_junk {
                let refused = replies.len() == 1 && replies[0].starts_with("log error: ");
                let ignored = replies.is_empty() && line.split_whitespace().next().is_none();
                prop_assume!(refused || ignored, "a refused line was taken: {:?}", line);
            } else {
                answers.push(replies.clone());
            }
        }
        let expected = atsi_session(&clean);
        let moves = expected.iter().flatten().filter(|l| l.starts_with("move ")).count();
        prop_assert_eq!(moves, 3, "the clean session plays: {:?}", expected);
        prop_assert_eq!(answers, expected);
    }
}

//! The search on small hand-built Sho shōgi positions (fast in debug builds) and on the
//! Taikyoku opening: it wins at once when it can, saves its last royal, takes free material,
//! stops on the flag, never changes the position it was given, and repeats itself for a given
//! seed and node limit.

mod common;

use common::{B, W, position, sho, sq};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use taikyoku::movegen::Move;
use taikyoku::position::Position;
use taikyoku::rules::Rules;
use taikyoku::search::{self, Limits, MATE, MATE_BOUND, SearchOptions, SearchResult, Searcher};

fn sho_rules() -> Arc<Rules> {
    Arc::new(Rules::builtin("sho", "standard").expect("sho loads"))
}

fn searcher(rules: &Arc<Rules>) -> Searcher {
    let opts = SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    };
    Searcher::new(rules.clone(), opts)
}

fn search(rules: &Arc<Rules>, pos: &Position, limits: Limits) -> SearchResult {
    searcher(rules).search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Black's rook takes White's only royal next move.
fn royal_en_prise() -> Position {
    position(
        sho(),
        B,
        &[
            ("K", B, 4, 0),
            ("K", W, 4, 8),
            ("R", B, 0, 8),
            ("G", W, 8, 7),
        ],
    )
}

/// With helper threads too (they never make the main thread's result worse than what it
/// proves).
#[test]
fn takes_the_last_royal_when_it_can() {
    let r = sho_rules();
    let p = royal_en_prise();
    for threads in [1, 2] {
        let res = threaded(&r, threads).search(&p, &depth(3), &AtomicBool::new(false), &mut |_| {});
        let best = res.best.expect("a move");
        assert_eq!(best.to, sq(&r, 4, 8));
        assert_eq!(res.score, MATE - 1, "a win in one ply");
    }
}

/// Whether the side to move can capture the other side's last royal at once.
fn royal_capturable(r: &Rules, p: &Position) -> bool {
    r.legal_moves(p).iter().any(|m| {
        let mut q = p.clone();
        r.play_unchecked(&mut q, m);
        q.outcome().is_some_and(|o| o.winner == p.to_move())
    })
}

#[test]
fn saves_its_last_royal_rather_than_take_a_bishop() {
    let r = sho_rules();
    // The rook on the open file attacks Black's only royal; a bishop hangs next to the gold.
    let p = position(
        sho(),
        B,
        &[
            ("K", B, 4, 0),
            ("G", B, 8, 0),
            ("R", W, 4, 8),
            ("B", W, 7, 1),
            ("K", W, 0, 8),
        ],
    );
    assert!(royal_capturable(&r, &{
        let mut q = p.clone();
        q.set_to_move(W);
        q
    }));
    for d in 1..=3 {
        let best = search(&r, &p, depth(d)).best.expect("a move");
        let mut q = p.clone();
        r.play_unchecked(&mut q, &best);
        assert!(
            !royal_capturable(&r, &q),
            "depth {d}: {best:?} leaves the king"
        );
    }
}

#[test]
fn a_free_rook_is_taken_at_depth_one() {
    let r = sho_rules();
    let p = position(
        sho(),
        B,
        &[
            ("K", B, 4, 0),
            ("K", W, 4, 8),
            ("S", B, 2, 2),
            ("R", W, 2, 3),
        ],
    );
    let res = search(&r, &p, depth(1));
    let best = res.best.expect("a move");
    assert_eq!((best.from, best.to), (sq(&r, 2, 2), sq(&r, 2, 3)));
    // Before: a silver against a rook; after: a silver against nothing.
    assert!(res.score > 200, "a silver up: {}", res.score);
    let greedy = search::greedy_move(&r, &p, 7).expect("a move");
    assert_eq!(greedy.to, sq(&r, 2, 3));
}

#[test]
fn random_and_greedy_moves_are_legal_and_seeded() {
    let r = sho_rules();
    let p = r.start_position();
    let legal = r.legal_moves(&p);
    let picks: Vec<Move> = (0..20)
        .map(|s| search::random_move(&r, &p, s).expect("a move"))
        .collect();
    assert!(picks.iter().all(|m| legal.contains(m)));
    assert!(picks.iter().any(|m| *m != picks[0]), "the seed varies it");
    assert_eq!(
        search::random_move(&r, &p, 3),
        search::random_move(&r, &p, 3)
    );
    assert!(legal.contains(&search::greedy_move(&r, &p, 1).expect("a move")));
}

/// A Sho position some seeded random moves into a game.
fn midgame(r: &Rules, plies: u64) -> Position {
    let mut p = r.start_position();
    for s in 0..plies {
        let Some(m) = search::greedy_move(r, &p, s) else {
            break;
        };
        r.play_unchecked(&mut p, &m);
    }
    p
}

#[test]
fn searching_leaves_the_position_as_it_was() {
    let r = sho_rules();
    let p = midgame(&r, 12);
    let before = p.clone();
    let res = search(
        &r,
        &p,
        Limits {
            nodes: Some(3000),
            ..Limits::default()
        },
    );
    assert!(res.best.is_some());
    assert_eq!(p, before);
    assert_eq!(p.hash(), before.hash());
    assert!(r.is_consistent(&p));
}

#[test]
fn a_node_limit_makes_the_search_repeatable() {
    let r = sho_rules();
    let p = midgame(&r, 8);
    let limits = Limits {
        nodes: Some(4000),
        ..Limits::default()
    };
    let a = search(&r, &p, limits.clone());
    let b = search(&r, &p, limits);
    assert_eq!(a.best, b.best);
    assert_eq!((a.score, a.depth, a.nodes), (b.score, b.depth, b.nodes));
    assert_eq!(a.pv, b.pv);
    assert!(a.nodes <= 4000 && a.nodes >= 3990, "{}", a.nodes);
}

#[test]
fn the_stop_flag_returns_a_legal_move_at_once() {
    let r = Arc::new(Rules::builtin("taikyoku", "wikipedia").expect("loads"));
    let p = r.start_position();
    let mut s = searcher(&r);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
        Instant::now()
    });
    let res = s.search(&p, &Limits::default(), &stop, &mut |_| {});
    let returned = Instant::now();
    let set = setter.join().expect("setter");
    let best = res.best.expect("a move");
    assert!(r.legal_moves(&p).contains(&best));
    // The issue asks for 50 ms; a debug build on a busy machine gets a generous bound.
    let late = returned.saturating_duration_since(set);
    assert!(
        late < Duration::from_millis(250),
        "returned {late:?} after the stop"
    );
}

#[test]
fn a_lost_position_scores_as_a_loss() {
    let r = sho_rules();
    // White's rook takes Black's only royal next, whatever Black does (the king is walled in
    // by its own pieces).
    let p = position(
        sho(),
        B,
        &[
            ("K", B, 0, 0),
            ("L", B, 1, 0),
            ("L", B, 1, 1),
            ("R", W, 0, 8),
            ("K", W, 8, 8),
        ],
    );
    let res = search(&r, &p, depth(3));
    assert!(res.score < -MATE_BOUND, "{}", res.score);
}

/// Along seeded random games (captures preferred, so range captures and promotions happen),
/// the gain the search adds up move by move equals the evaluation computed afresh.
#[test]
fn the_incremental_evaluation_matches_a_fresh_one() {
    for (game, set, plies) in [
        ("sho", "standard", 150),
        ("taikyoku", "wikipedia", 150),
        ("taikyoku", "atsa", 150),
    ] {
        let r = Rules::builtin(game, set).expect("loads");
        let eval = search::shared_eval(&r);
        let mut p = r.start_position();
        let mut running = eval.evaluate(&p);
        for s in 0..plies {
            let Some(m) = search::greedy_move(&r, &p, s) else {
                break;
            };
            let gain = eval.move_gain(&r, &p, &m);
            running += if p.to_move() == B { gain } else { -gain };
            r.play_unchecked(&mut p, &m);
            assert_eq!(running, eval.evaluate(&p), "{game} {set}: move {s}");
        }
    }
}

fn threaded(rules: &Arc<Rules>, threads: usize) -> Searcher {
    let opts = SearchOptions {
        hash_mb: 4,
        threads,
        seed: 3,
    };
    Searcher::new(rules.clone(), opts)
}

#[test]
fn a_searcher_can_think_in_another_thread() {
    fn send<T: Send>() {}
    send::<Searcher>();
}

/// With helper threads: the main thread completes and reports every depth asked, the move is
/// legal, the position is untouched, and the same searcher serves again.
#[test]
fn helper_threads_search_the_same_root() {
    let r = sho_rules();
    let p = midgame(&r, 10);
    let before = p.clone();
    let mut s = threaded(&r, 3);
    let stop = AtomicBool::new(false);
    for _ in 0..2 {
        let mut depths = Vec::new();
        let res = s.search(&p, &depth(4), &stop, &mut |i| depths.push(i.depth));
        assert_eq!(depths, [1, 2, 3, 4]);
        assert_eq!(res.depth, 4);
        assert!(r.legal_moves(&p).contains(&res.best.expect("a move")));
        assert!(res.nodes > 0);
        assert_eq!(p, before);
    }
}

/// A node limit stops the helpers too: the search returns, a legal move, the main thread's
/// nodes within the limit.
#[test]
fn helper_threads_stop_with_the_main_thread() {
    let r = Arc::new(Rules::builtin("taikyoku", "wikipedia").expect("loads"));
    let p = r.start_position();
    let limits = Limits {
        nodes: Some(300),
        ..Limits::default()
    };
    let res = threaded(&r, 2).search(&p, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(r.legal_moves(&p).contains(&res.best.expect("a move")));
    assert!(res.nodes >= 300, "the main thread's 300 and the helper's");
}

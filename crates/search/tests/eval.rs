//! The evaluation's terms beyond material on hand-built positions: mobility, the royal danger
//! that grows with the lead, and the king hunt of a side far ahead.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_search::eval::{self, Weights, capturable_royals};
use taikyoku_search::{Limits, SearchOptions, SearchResult, Searcher};
use taikyoku_testkit::{B, W, position, rules, sho, sq};

fn sho_rules() -> Arc<Rules> {
    Arc::new(Rules::builtin("sho", "standard").expect("sho loads"))
}

fn search_with(rules: &Arc<Rules>, pos: &Position, depth: u32, weights: &str) -> SearchResult {
    let opts = SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    };
    let mut s = Searcher::new(rules.clone(), opts);
    s.set_weights(weights.parse().expect("weights"));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

#[test]
fn weights_parse_by_name_and_refuse_what_they_do_not_know() {
    let w: Weights = "mobility=0, hunt=3".parse().expect("parses");
    assert_eq!(
        (w.mobility, w.stake, w.hunt),
        (0, Weights::default().stake, 3)
    );
    assert_eq!("".parse::<Weights>(), Ok(Weights::default()));
    for bad in ["mobility", "speed=1", "hunt=-1", "stake=x"] {
        assert!(bad.parse::<Weights>().is_err(), "{bad}");
    }
}

/// The same material on both sides, Black's rook free in the middle, White's boxed in by its
/// own pawns: the mobility term scores it for Black (the leaf's own moves counted there or
/// two plies up), and not at all with a weight of 0.
#[test]
fn mobility_scores_the_freer_side_higher() {
    let r = sho_rules();
    let p = position(
        sho(),
        B,
        &[
            ("K", B, 4, 0),
            ("K", W, 4, 8),
            ("R", B, 2, 4),
            ("P", B, 0, 2),
            ("P", B, 1, 2),
            ("R", W, 8, 8),
            ("P", W, 8, 7),
            ("P", W, 7, 7),
        ],
    );
    let off = search_with(&r, &p, 2, "mobility=0,stake=0,hunt=0").score;
    for exact in [0, 1] {
        let weights = format!("mobility=10,stake=0,hunt=0,exact={exact}");
        let on = search_with(&r, &p, 2, &weights).score;
        assert!(on > off + 10, "{weights}: {on}, without mobility {off}");
    }
    let eval = eval::shared_eval(&r);
    assert!(eval.mobility(30, 20) > 0 && eval.mobility(20, 30) < 0);
}

/// Black's last king with a White silver two squares away: the danger counts for more the
/// further Black leads (what it would lose), up to a cap; a stake of 0 keeps it fixed.
#[test]
fn the_last_royals_danger_grows_with_the_lead() {
    let r = sho_rules();
    let p = position(sho(), B, &[("K", B, 4, 0), ("K", W, 4, 8), ("S", W, 4, 2)]);
    let mut e = (*eval::shared_eval(&r)).clone();
    let level = e.royal_safety(&p, 0);
    assert!(level < 0, "an attacker near the king: {level}");
    let ahead = e.royal_safety(&p, 2_000);
    let far_ahead = e.royal_safety(&p, 10_000_000);
    assert!(
        far_ahead < ahead && ahead < 2 * level,
        "{level} {ahead} {far_ahead}"
    );
    assert_eq!(
        e.royal_safety(&p, -2_000),
        level,
        "behind: no more at stake"
    );
    e.weights.stake = 0;
    assert_eq!(e.royal_safety(&p, 2_000), level);
}

/// Far ahead with its last king in some danger (a dragon and a horse two squares off), Black
/// (to move) could take a pawn on the far side with its rook; with the danger grown by the
/// stake it spends the move on its king's safety instead.
#[test]
fn far_ahead_the_search_puts_its_last_royals_safety_before_a_pawn() {
    let r = sho_rules();
    let mut pieces = vec![
        ("K", B, 4, 1),
        ("K", W, 4, 8),
        ("+R", W, 3, 3),
        ("+B", W, 5, 3),
        ("R", B, 0, 4),
        ("P", W, 0, 6),
    ];
    for x in [0, 1, 2, 6, 7, 8] {
        pieces.push(("G", B, x, 0));
        pieces.push(("S", B, x, 1));
    }
    let p = position(sho(), B, &pieces);
    let fixed = search_with(&r, &p, 2, "mobility=0,stake=0,hunt=0");
    let staked = search_with(&r, &p, 2, "mobility=0,hunt=0");
    let takes = |res: &SearchResult| res.best.expect("a move").to == sq(&r, 0, 6);
    assert!(
        takes(&fixed),
        "without the stake it takes the pawn: {:?}",
        fixed.best
    );
    assert!(!takes(&staked), "with it, not: {:?}", staked.best);
    assert!(
        staked.score < fixed.score,
        "{} {}",
        staked.score,
        fixed.score
    );
}

/// Under ATSA's rules a range capturer cannot take a higher-ranked piece: the great general
/// cannot capture the king or the prince; under Wikipedia's it may end on a higher-ranked
/// piece; a pawn can take either royal under both.
#[test]
fn which_pieces_can_capture_a_royal_is_asked_of_the_generator() {
    for (set, gg_takes) in [("atsa", false), ("wikipedia", true)] {
        let r = rules(set);
        let cat = r.catalogue();
        let k = |c: &str| cat.by_code(c).expect("kind");
        let takes = capturable_royals(r);
        for royal in ["K", "CP"] {
            assert_eq!(
                takes[k("GG") as usize].contains(&k(royal)),
                gg_takes,
                "{set} {royal}"
            );
            assert!(takes[k("P") as usize].contains(&k(royal)), "{set} {royal}");
        }
    }
}

/// Black, with a lone White king against its king, two golds and a rook, hunts: the hunt is
/// on, a gold standing nearer the White king scores more, and the search's move brings a
/// piece nearer it. Level material switches the hunt off.
#[test]
fn far_ahead_the_pieces_that_can_take_the_royal_close_in() {
    let r = sho_rules();
    let base = [
        ("K", B, 0, 0),
        ("K", W, 8, 8),
        ("G", B, 1, 0),
        ("G", B, 2, 0),
        ("R", B, 3, 0),
    ];
    let p = position(sho(), B, &base);
    let e = eval::shared_eval(&r).for_position(&r, &p);
    assert_eq!(e.hunter(), Some(B));
    let mut nearer = base.to_vec();
    nearer[2] = ("G", B, 6, 6);
    let q = position(sho(), B, &nearer);
    assert!(e.evaluate(&q) > e.evaluate(&p) + 5 * Weights::default().hunt);
    let mut off = (*eval::shared_eval(&r)).clone();
    off.weights.hunt = 0;
    assert_eq!(off.for_position(&r, &p).hunter(), None);
    let level = position(
        sho(),
        B,
        &[
            ("K", B, 0, 0),
            ("K", W, 8, 8),
            ("G", W, 5, 5),
            ("G", B, 1, 0),
        ],
    );
    assert_eq!(
        eval::shared_eval(&r).for_position(&r, &level).hunter(),
        None
    );
    let res = search_with(&r, &p, 2, "mobility=0");
    let m = res.best.expect("a move");
    let d = |s| {
        let (x, y) = r.dims().xy(s);
        (8 - x).abs().max(8 - y)
    };
    assert!(d(m.to) < d(m.from), "{m:?}");
}

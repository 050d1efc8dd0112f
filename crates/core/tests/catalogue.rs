//! The catalogue as a whole: 301 kinds, every movement parses and compiles under every rule
//! set, promotions exist, the setup's counts, names and labels.

use std::collections::{BTreeMap, BTreeSet};
use taikyoku_core::catalogue::Lookup;
use taikyoku_core::game::Game;
use taikyoku_core::geometry::Side;
use taikyoku_testkit::*;
use unicode_width::UnicodeWidthStr;

#[test]
fn three_hundred_and_one_kinds_209_in_the_setup() {
    let game = Game::builtin("taikyoku").unwrap();
    let cat = &game.catalogue;
    assert_eq!(cat.len(), 301);
    let in_setup = cat.kinds.iter().filter(|k| k.count > 0).count();
    assert_eq!(in_setup, 209);
    let per_side: u32 = cat.kinds.iter().map(|k| k.count as u32).sum();
    assert_eq!(per_side, 402);
    // The setup has exactly those counts, per side.
    for side in Side::BOTH {
        let mut counts: BTreeMap<u16, u32> = BTreeMap::new();
        for (_, p) in game.setup.pieces.iter().filter(|(_, p)| p.side == side) {
            *counts.entry(p.kind).or_default() += 1;
        }
        for k in &cat.kinds {
            assert_eq!(
                counts.get(&k.id).copied().unwrap_or(0),
                k.count as u32,
                "{} {side}",
                k.code
            );
        }
    }
    assert_eq!(game.setup.pieces.len(), 804);
}

#[test]
fn every_promotion_target_exists_and_promotion_only_kinds_are_reachable() {
    let game = Game::builtin("taikyoku").unwrap();
    let cat = &game.catalogue;
    for rs in &game.rule_sets {
        let targets: BTreeSet<u16> = cat
            .kinds
            .iter()
            .filter_map(|k| game.reading(k, rs).promotes_to)
            .collect();
        for k in cat.kinds.iter().filter(|k| k.count == 0) {
            assert!(
                targets.contains(&k.id),
                "{}: promotion-only {} is no piece's promotion",
                rs.name,
                k.code
            );
        }
    }
    // Wikipedia's table: 92 promotion-only kinds, and no promotion-only kind promotes further.
    let wiki = game.rule_set("wikipedia").unwrap();
    assert_eq!(cat.kinds.iter().filter(|k| k.count == 0).count(), 92);
    for k in cat.kinds.iter().filter(|k| k.count == 0) {
        assert!(
            game.reading(k, wiki).promotes_to.is_none(),
            "{} promotes",
            k.code
        );
    }
    // The 14 setup pieces that never promote (rules.md §A1).
    let never: BTreeSet<&str> = cat
        .kinds
        .iter()
        .filter(|k| k.count > 0 && game.reading(k, wiki).promotes_to.is_none())
        .map(|k| k.code.as_str())
        .collect();
    let expected: BTreeSet<&str> = [
        "K", "WO", "CD", "LO", "PM", "KM", "GG", "HM", "MT", "RM", "FE", "LI", "GE", "GM",
    ]
    .into_iter()
    .collect();
    assert_eq!(never, expected);
}

#[test]
fn every_movement_compiles_under_every_rule_set() {
    for name in ["wikipedia", "umebayashi", "atsa"] {
        let r = rules(name);
        // A lone piece in the middle of the board moves somewhere.
        for k in &r.catalogue().kinds {
            let p = position(r, B, &[(k.code.as_str(), B, 17, 17)]);
            assert!(
                !moves_at(r, &p, 17, 17).is_empty(),
                "{name}: {} cannot move",
                k.code
            );
        }
    }
}

#[test]
fn rule_set_overrides_change_something() {
    let game = Game::builtin("taikyoku").unwrap();
    let wiki = game.rule_set("wikipedia").unwrap();
    for k in &game.catalogue.kinds {
        for (name, o) in &k.overrides {
            let rs = game
                .rule_sets
                .iter()
                .find(|r| r.readings.contains(name))
                .unwrap();
            let a = game.reading(k, wiki);
            let b = game.reading(k, rs);
            assert!(
                a.betza != b.betza || a.promotes_to != b.promotes_to,
                "{}: [piece.rules.{name}] repeats the default",
                k.code
            );
            assert!(
                o.betza.is_some() || o.promotes_to.is_some(),
                "{}: empty override",
                k.code
            );
        }
    }
}

#[test]
fn royal_pieces_and_ranks() {
    let game = Game::builtin("taikyoku").unwrap();
    let cat = &game.catalogue;
    let royal: BTreeSet<&str> = cat
        .kinds
        .iter()
        .filter(|k| k.royal)
        .map(|k| k.code.as_str())
        .collect();
    assert_eq!(royal, ["CP", "K"].into_iter().collect());
    let rank = |c: &str| cat.kind(cat.by_code(c).unwrap()).rank;
    assert_eq!(
        (rank("K"), rank("CP"), rank("GG"), rank("VG")),
        (Some(1), Some(1), Some(2), Some(3))
    );
    for c in ["RO", "BG", "VD", "FCR"] {
        assert_eq!(rank(c), Some(4), "{c}");
    }
    assert_eq!(cat.kinds.iter().filter(|k| k.rank.is_some()).count(), 8);
}

#[test]
fn names_codes_kanji_and_labels() {
    let game = Game::builtin("taikyoku").unwrap();
    let cat = &game.catalogue;
    let mut names = BTreeSet::new();
    for k in &cat.kinds {
        assert!(
            names.insert(taikyoku_core::catalogue::fold(&k.name)),
            "duplicate name {}",
            k.name
        );
        assert_eq!(k.label.chars().count(), 1, "{}", k.code);
        assert_eq!(k.label.width(), 2, "{}", k.code);
        assert!(
            k.kanji.contains(&k.label) || k.kanji.chars().any(|c| !c.is_alphanumeric()),
            "{}: label {} not in {}",
            k.code,
            k.label,
            k.kanji
        );
        // Every name, alias, code and kanji finds a piece (aliases and kanji may be shared).
        assert_eq!(cat.lookup(&k.code), Lookup::Found(k.id));
        assert_eq!(cat.lookup(&k.name), Lookup::Found(k.id), "{}", k.name);
        for a in &k.aliases {
            assert!(
                matches!(cat.lookup(a), Lookup::Found(_) | Lookup::Ambiguous(_)),
                "{a}"
            );
        }
        assert!(k.atsa_code.is_some(), "{} has no ATSA code", k.code);
    }
    // Lookup is forgiving about case, spaces, hyphens and apostrophes.
    let he = cat.by_code("HE").unwrap();
    for q in [
        "Ram's-Head Soldier",
        "rams head soldier",
        "RAMSHEADSOLDIER",
        "羊兵",
    ] {
        assert_eq!(cat.lookup(q), Lookup::Found(he), "{q}");
    }
}

/// Every kind of every game has its own two-kanji board label (issue 7 point 9: one kanji
/// stood for up to 7 kinds), and the labels the board shows find the pieces.
#[test]
fn every_kind_has_a_board_label_of_its_own_that_finds_it() {
    for id in ["taikyoku", "sho", "chu", "dai"] {
        let game = Game::builtin(id).unwrap();
        let cat = &game.catalogue;
        let mut seen = BTreeMap::new();
        for k in &cat.kinds {
            assert!(
                (2..=4).contains(&k.label2.width()),
                "{id} {}: {:?}",
                k.code,
                k.label2
            );
            if let Some(other) = seen.insert(k.label2.clone(), k.code.clone()) {
                panic!("{id}: {} and {other} share the label {}", k.code, k.label2);
            }
            assert!(
                match cat.lookup(&k.label2) {
                    Lookup::Found(f) => f == k.id || cat.kind(f).kanji == k.label2,
                    Lookup::Ambiguous(ks) => ks.contains(&k.id),
                    Lookup::NotFound(_) => false,
                },
                "{id} {}: {}",
                k.code,
                k.label2
            );
            // The one-kanji label finds this kind among the others that share it.
            match cat.lookup(&k.label) {
                Lookup::Found(f) => assert!(
                    f == k.id || cat.kind(f).kanji == k.label,
                    "{} {} {}",
                    k.code,
                    k.label,
                    cat.kind(f).code
                ),
                Lookup::Ambiguous(ks) => assert!(ks.contains(&k.id), "{}", k.label),
                Lookup::NotFound(_) => panic!("{} not found", k.label),
            }
        }
    }
    // `/獅` finds the lions.
    let game = Game::builtin("taikyoku").unwrap();
    let cat = &game.catalogue;
    let lion = cat.by_code("LN").unwrap();
    let found = cat.lookup("獅");
    assert!(
        matches!(&found, Lookup::Ambiguous(ks) if ks.contains(&lion)),
        "{found:?}"
    );
    assert_eq!(cat.lookup("獅子"), Lookup::Found(lion));
}

//! Piece cards agree with the move generator: for every kind under every rule set, what the
//! words claim (each direction and distance) is what the generator gives a lone Black piece in
//! the middle of the board, and the other way round; the diagram marks exactly the squares the
//! generator reaches. The cards checked are kept as golden files (words, captures, diagram), so
//! a change in what a card says shows up as a readable diff.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use taikyoku_core::card::PieceCard;
use taikyoku_core::catalogue::KindId;
use taikyoku_core::explain::Movement;
use taikyoku_core::rules::Rules;
use taikyoku_testkit::*;

const C: i32 = 17;
type Off = (i32, i32);

/// The piece on the centre, with White pawns on every square at the distances `ring` selects:
/// (destinations of moves without stops, of range moves, of moves with stops, stops).
struct Seen {
    single: BTreeSet<Off>,
    range: BTreeSet<Off>,
    multi: BTreeSet<Off>,
    first_legs: BTreeSet<Off>,
}

/// Rule set, piece code, distances of the rings of pawns.
type ProbeKey = (String, String, Vec<i32>);

/// [`probe`], once per rule set, piece and rings.
fn seen(r: &Rules, code: &str, rings: &[i32]) -> Rc<Seen> {
    thread_local! {
        static SEEN: RefCell<HashMap<ProbeKey, Rc<Seen>>> = RefCell::default();
    }
    let key = (r.rule_set.name.clone(), code.to_string(), rings.to_vec());
    if let Some(s) = SEEN.with(|c| c.borrow().get(&key).cloned()) {
        return s;
    }
    let s = Rc::new(probe(r, code, |d| rings.contains(&d)));
    SEEN.with(|c| c.borrow_mut().insert(key, s.clone()));
    s
}

fn probe(r: &Rules, code: &str, ring: impl Fn(i32) -> bool) -> Seen {
    let mut pieces = vec![(code, B, C, C)];
    for y in 0..36 {
        for x in 0..36 {
            let d = (x - C).abs().max((y - C).abs());
            if d > 0 && ring(d) {
                pieces.push(("P", W, x, y));
            }
        }
    }
    let p = position(r, B, &pieces);
    let off = |s| {
        let (x, y) = r.dims().xy(s);
        (x - C, y - C)
    };
    let mut s = Seen {
        single: BTreeSet::new(),
        range: BTreeSet::new(),
        multi: BTreeSet::new(),
        first_legs: BTreeSet::new(),
    };
    for m in r.moves_from_all_paths(&p, sq(r, C, C)) {
        match m.path().first() {
            None => {
                s.single.insert(off(m.to));
                if m.is_range() {
                    s.range.insert(off(m.to));
                }
            }
            Some(&first) => {
                s.multi.insert(off(m.to));
                let (x, y) = off(first);
                s.first_legs.insert((x.signum(), y.signum()));
                for &stop in m.path() {
                    s.multi.insert(off(stop));
                }
            }
        }
    }
    s
}

fn unit(name: &str) -> Off {
    match name {
        "forward" => (0, 1),
        "backward" => (0, -1),
        "left" => (-1, 0),
        "right" => (1, 0),
        "forward-left" => (-1, 1),
        "forward-right" => (1, 1),
        "backward-left" => (-1, -1),
        "backward-right" => (1, -1),
        _ => panic!("unknown direction {name:?}"),
    }
}

const ALL: [Off; 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The directions or vectors a words line names.
fn directions(text: &str) -> Vec<Off> {
    match text {
        "in every direction" | "in any direction" => ALL.to_vec(),
        "orthogonally" => ALL.iter().copied().filter(|d| d.0 * d.1 == 0).collect(),
        "diagonally" => ALL.iter().copied().filter(|d| d.0 * d.1 != 0).collect(),
        _ if text.starts_with('(') => text
            .trim_start_matches('(')
            .trim_end_matches(')')
            .split("), (")
            .map(|v| {
                let (f, s) = v.split_once(", ").unwrap();
                let num = |t: &str| t.split(' ').next().unwrap().parse::<i32>().unwrap();
                let y = if f.ends_with("back") { -num(f) } else { num(f) };
                let x = if s.ends_with("left") { -num(s) } else { num(s) };
                (x, y)
            })
            .collect(),
        _ => text.split([',', '/']).map(|n| unit(n.trim())).collect(),
    }
}

fn edge(d: Off) -> i32 {
    (1..).take_while(|&n| on_board(d.0 * n, d.1 * n)).count() as i32
}

fn on_board(x: i32, y: i32) -> bool {
    (0..36).contains(&(C + x)) && (0..36).contains(&(C + y))
}

fn ordinal(t: &str) -> i32 {
    t.trim_end_matches(|c: char| c.is_alphabetic())
        .parse()
        .unwrap()
}

/// Checks one single-leg line of words against the generator; returns the squares it claims
/// on the empty board, and those it claims beyond a ring of pieces around it.
fn check_line(
    r: &Rules,
    code: &str,
    class: &str,
    dirs: &[Off],
    empty: &Seen,
) -> (BTreeSet<Off>, BTreeSet<Off>) {
    let mut claimed = BTreeSet::new();
    let mut over_ring = BTreeSet::new();
    let capturing_only = class.ends_with("(capturing only)");
    let class = class
        .trim_end_matches(" (capturing only)")
        .trim_end_matches(" (not capturing)");
    let ctx = format!("{code} under {}: {class:?}", r.rule_set.name);
    for &d in dirs {
        let at = |n: i32| (d.0 * n, d.1 * n);
        let e = edge(d);
        if d.0.abs() > 1 || d.1.abs() > 1 {
            // An oblique leap: there on the empty board, and over a ring of pieces.
            assert!(empty.single.contains(&d), "{ctx}: {d:?} not reached");
            if class == "jumps" {
                assert!(
                    seen(r, code, &[1]).single.contains(&d),
                    "{ctx}: no jump to {d:?}"
                );
            }
            claimed.insert(d);
            if class == "jumps" {
                over_ring.insert(d);
            }
            continue;
        }
        let reach = |n: i32| {
            if capturing_only {
                seen(r, code, &[n]).single.contains(&at(n))
            } else {
                empty.single.contains(&at(n))
            }
        };
        if let Some(rest) = class.strip_prefix("jumps over the ") {
            // "jumps over the 1st square, landing anywhere from the 3rd square on" / "landing
            // from the 3rd to the 5th square".
            let (b, land) = rest.split_once(" square, landing ").unwrap();
            let words: Vec<&str> = land.split(' ').filter(|w| w.len() > 2).collect();
            let ords: Vec<i32> = words
                .iter()
                .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
                .map(|w| ordinal(w))
                .collect();
            let last = if land.ends_with(" on") { e } else { ords[1] };
            let over = seen(r, code, &[ordinal(b)]);
            for n in ords[0]..=last {
                assert!(
                    over.single.contains(&at(n)),
                    "{ctx}: {:?} not reached",
                    at(n)
                );
                claimed.insert(at(n));
                if ordinal(b) == 1 {
                    over_ring.insert(at(n));
                }
            }
            continue;
        }
        if let Some(rest) = class.strip_prefix("jumps to the ") {
            let (ks, then) = rest.split_once(" square").unwrap();
            let ks: Vec<i32> = ks
                .split([',', ' '])
                .filter(|t| t.len() > 2)
                .map(ordinal)
                .collect();
            for &k in &ks {
                let over = seen(r, code, &[k - 1]);
                assert!(
                    over.single.contains(&at(k)),
                    "{ctx}: no jump to {:?}",
                    at(k)
                );
                let on = if then.contains("any distance") {
                    e - k
                } else if let Some(n) = then.strip_prefix(", then on up to ") {
                    n.split(' ').next().unwrap().parse().unwrap()
                } else {
                    0
                };
                for n in k..=k + on {
                    assert!(
                        over.single.contains(&at(n)),
                        "{ctx}: {:?} not reached",
                        at(n)
                    );
                    claimed.insert(at(n));
                    over_ring.insert(at(n));
                }
            }
            continue;
        }
        if capturing_only && class.starts_with("any distance, jumping over") {
            // It jumps to capture only: over a piece on the 1st square, onto one further on.
            for n in 2..=e {
                let screened = seen(r, code, &[1, n]);
                assert!(
                    screened.single.contains(&at(n)),
                    "{ctx}: no capture at {:?}",
                    at(n)
                );
            }
            continue;
        }
        let far = match class {
            "1 square" => 1,
            c if c.starts_with("up to ") => c[6..].split(' ').next().unwrap().parse().unwrap(),
            _ => e,
        };
        for n in 1..=far {
            assert!(reach(n), "{ctx}: {:?} not reached", at(n));
            claimed.insert(at(n));
        }
        if class.starts_with("any distance, jumping over")
            || class.starts_with("any distance by range")
        {
            let over = seen(r, code, &[1]);
            assert!(over.single.contains(&at(2)), "{ctx}: does not pass a piece");
            over_ring.extend((2..=e).map(at));
            if class.contains("range") {
                assert!(over.range.contains(&at(2)), "{ctx}: not a range move");
            }
        }
    }
    (claimed, over_ring)
}

/// Every claim of a card's words and diagram holds, and every generated move is claimed.
fn check_card(r: &Rules, k: KindId, m: &Movement) {
    let code = r.catalogue().kind(k).code.clone();
    let empty = seen(r, &code, &[]);
    let ring = seen(r, &code, &[1]);
    let mut claimed = BTreeSet::new();
    let mut over_ring = BTreeSet::new();
    let mut first_legs = BTreeSet::new();
    for line in &m.words {
        match line.split_once(": ") {
            Some((class, dirs)) if !class.contains(", then ") || class.starts_with("jumps") => {
                let (c, o) = check_line(r, &code, class, &directions(dirs), &empty);
                claimed.extend(c);
                over_ring.extend(o);
            }
            _ => {
                // A multi-leg way: "<distance> <directions>[ action], then …".
                let first = line.split(", then ").next().unwrap();
                let first = first
                    .trim_end_matches(" to an empty square")
                    .trim_end_matches(", capturing there if an enemy stands there")
                    .trim_end_matches(", capturing there");
                let dirs = match first.rsplit(' ').next().unwrap() {
                    "direction" => "in any direction",
                    d => d,
                };
                for d in directions(dirs) {
                    assert!(
                        empty.first_legs.contains(&d) || ring.first_legs.contains(&d),
                        "{code} under {}: {line:?}: no multi-leg move starts {d:?}",
                        r.rule_set.name
                    );
                    first_legs.insert(d);
                }
            }
        }
    }
    let name = &r.rule_set.name;
    for v in &empty.single {
        assert!(
            claimed.contains(v),
            "{code} under {name}: the words do not say it reaches {v:?}: {:#?}",
            m.words
        );
    }
    // Whatever it reaches past a ring of pieces next to it, the words say it jumps there.
    for v in ring
        .single
        .iter()
        .filter(|v| v.0.abs() > 1 || v.1.abs() > 1)
    {
        assert!(
            over_ring.contains(v),
            "{code} under {name}: the words do not say it jumps to {v:?}: {:#?}",
            m.words
        );
    }
    for d in empty.first_legs.union(&ring.first_legs) {
        assert!(
            first_legs.contains(d),
            "{code} under {name}: the words miss the multi-leg moves starting {d:?}: {:#?}",
            m.words
        );
    }
    // The diagram marks every square reached on the empty board, and only squares reached.
    let rows: Vec<&str> = m.diagram.lines().collect();
    let radius = rows.len() as i32 / 2;
    for (i, row) in rows.iter().enumerate() {
        for (j, c) in row.chars().step_by(2).enumerate() {
            let v = (j as i32 - radius, radius - i as i32);
            if v == (0, 0) {
                continue;
            }
            let reached = empty.single.contains(&v) || empty.multi.contains(&v);
            let shown = c != '·' && c != '☖';
            let near = ring.single.contains(&v) || ring.multi.contains(&v);
            assert!(
                shown == reached || (shown && near),
                "{code} under {name}: diagram square {v:?} is {c:?}:\n{}",
                m.diagram
            );
        }
    }
}

/// A card as the golden files show it: code, name, Betza, words, captures, diagram.
fn card_text(card: &PieceCard) -> String {
    let mut out = format!("{} {} {}\n", card.code, card.name, card.betza);
    for w in &card.movement.words {
        out.push_str(&format!("  - {w}\n"));
    }
    out.push_str(&format!("  captures: {}\n", card.movement.captures));
    for row in card.movement.diagram.lines() {
        out.push_str(&format!("  {row}\n"));
    }
    out
}

/// Checks every card of a rule set, and returns them as text for the golden file.
fn cards(name: &str) -> String {
    let r = rules(name);
    let mut out = String::new();
    for k in &r.catalogue().kinds {
        let card = PieceCard::new(r, k.id);
        check_card(r, k.id, &card.movement);
        out.push_str(&card_text(&card));
    }
    out
}

#[test]
fn golden_cards_wikipedia() {
    insta::assert_snapshot!("wikipedia", cards("wikipedia"));
}

#[test]
fn golden_cards_umebayashi() {
    insta::assert_snapshot!("umebayashi", cards("umebayashi"));
}

#[test]
fn golden_cards_atsa() {
    insta::assert_snapshot!("atsa", cards("atsa"));
}

/// Kō shōgi: the moves of a lone Black `code` in the middle of the board, with a White `enemy`
/// at an offset when given; and where the move reaching offset `v` ends or stops (not shots).
fn ko_moves(r: &Rules, code: &str, enemy: Option<(&str, Off)>) -> Vec<taikyoku_core::moves::Move> {
    let c = (r.dims().files as i32 - 1) / 2;
    let mut pieces = vec![(code, B, c, c)];
    pieces.extend(enemy.map(|(e, v)| (e, W, c + v.0, c + v.1)));
    let p = position(r, B, &pieces);
    r.moves_from_all_paths(&p, sq(r, c, c))
}

/// The offset of `s` from the middle of the board.
fn ko_off(r: &Rules, s: taikyoku_core::geometry::Square) -> Off {
    let c = (r.dims().files as i32 - 1) / 2;
    let (x, y) = r.dims().xy(s);
    (x - c, y - c)
}

/// Where moves end or stop (shots aside), as offsets.
fn ko_goes(r: &Rules, moves: &[taikyoku_core::moves::Move]) -> BTreeSet<Off> {
    let mut out = BTreeSet::new();
    for m in moves {
        out.insert(ko_off(r, m.to));
        for (i, &s) in m.path().iter().enumerate() {
            if !m.is_shot(i) {
                out.insert(ko_off(r, s));
            }
        }
    }
    out
}

/// Kō shōgi, every kind under the standard rules and every other reading under its rule set:
/// the card's diagram marks × exactly where the generator shoots a lone enemy, ▒ where it
/// burns one, ░ its fog's reach, a move mark only where a move goes, nothing elsewhere; and
/// the words say it shoots, burns, freezes or fogs exactly when it does.
#[test]
fn ko_diagrams_mark_shots_burns_and_auras_as_the_generator_does() {
    let game = taikyoku_core::game::Game::builtin("koshogi").unwrap();
    let standard = ko("standard");
    let c0 = (standard.dims().files as i32 - 1) / 2;
    for rs in game.rule_sets.iter().map(|r| r.name.clone()) {
        let r = ko(&rs);
        let cat = r.catalogue();
        // The explainer's probe enemy: the first kind without a rank that is not royal.
        let enemy = cat
            .kinds
            .iter()
            .find(|k| k.rank.is_none() && !k.royal)
            .map(|k| k.code.clone())
            .unwrap();
        for k in &cat.kinds {
            let reading = &r.readings[k.id as usize];
            if rs != "standard" && reading.betza == standard.readings[k.id as usize].betza {
                continue;
            }
            let may_shoot = reading
                .patterns
                .iter()
                .any(|p| p.legs.iter().any(|l| l.shoot));
            let m = Movement::of(r, k.id);
            let ctx = format!("{} under {rs}", k.code);
            let alone = ko_moves(r, &k.code, None);
            let goes_empty = ko_goes(r, &alone);
            // Where it ends (a multi-leg move's stops on the way are not drawn).
            let ends: BTreeSet<Off> = alone.iter().map(|m| ko_off(r, m.to)).collect();
            let rows: Vec<&str> = m.diagram.lines().collect();
            let radius = rows.len() as i32 / 2;
            let (mut shoots, mut burns) = (false, false);
            for (i, row) in rows.iter().enumerate() {
                for (j, c) in row.chars().step_by(2).enumerate() {
                    let v = (j as i32 - radius, radius - i as i32);
                    if v == (0, 0) || !r.dims().contains(c0 + v.0, c0 + v.1) {
                        continue;
                    }
                    let (mut shot, mut burnt, mut goes) = (false, false, goes_empty.contains(&v));
                    if may_shoot || k.burns {
                        let moves = ko_moves(r, &k.code, Some((&enemy, v)));
                        shot = moves.iter().any(|m| m.shots().any(|s| ko_off(r, s) == v));
                        burnt = moves
                            .iter()
                            .any(|m| m.burnt(r.dims()).any(|s| ko_off(r, s) == v));
                        goes |= ko_goes(r, &moves).contains(&v);
                    }
                    let fog = v.0.abs().max(v.1.abs()) <= k.fog as i32;
                    shoots |= shot;
                    burns |= burnt;
                    let right = match c {
                        '×' => shot,
                        '▒' => burnt && !shot,
                        '░' => fog && !shot && !burnt,
                        '·' => !shot && !burnt && !fog && !ends.contains(&v),
                        _ => goes,
                    };
                    assert!(right, "{ctx}: square {v:?} is {c:?}:\n{}", m.diagram);
                    assert!(
                        goes || !(shot || burnt) || matches!(c, '×' | '▒'),
                        "{ctx}: {v:?} shot or burnt but shown {c:?}:\n{}",
                        m.diagram
                    );
                }
            }
            let words = m.words.join("\n");
            assert_eq!(shoots, words.contains("shoots"), "{ctx}: {words}");
            assert_eq!(
                burns,
                m.captures.contains("burning"),
                "{ctx}: {}",
                m.captures
            );
            assert_eq!(
                k.freezes,
                words.contains("freezes the first enemy"),
                "{ctx}: {words}"
            );
            assert_eq!(
                k.fog > 0,
                words.contains("fog: no enemy piece within"),
                "{ctx}: {words}"
            );
        }
    }
}

/// Kō shōgi's cards under the standard rules, as text for the golden file (words, captures,
/// diagram with its shots, burns and auras).
#[test]
fn golden_cards_koshogi() {
    let r = ko("standard");
    let mut out = String::new();
    for k in &r.catalogue().kinds {
        let card = PieceCard::new(r, k.id);
        out.push_str(&card_text(&card));
    }
    insta::assert_snapshot!("koshogi", out);
}

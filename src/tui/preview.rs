//! What a move does, in words, before it is committed: its notation, what it takes (and how
//! many of the mover's own pieces), the distinct ways of ending a move on a square, and the
//! royal pieces the opponent could take next. All of it is read off the generated moves.

use super::text::capital;
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::reach::split;
use taikyoku_core::rules::Rules;
use taikyoku_records::history::History;

/// One distinct way to end a move on a square: the same squares emptied; with and without
/// promotion when that is a choice (asked afterwards).
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    pub moves: Vec<Move>,
    pub text: String,
}

/// The pieces `m` removes: (square, side) of each.
fn victims(h: &History, m: &Move) -> Vec<(Square, Side)> {
    let pos = h.position();
    m.victims(h.rules().dims())
        .filter_map(|s| pos.piece_at(s).map(|p| (s, p.side)))
        .collect()
}

/// Every square whose piece `m` removes: its victims (shots and burns included), then what
/// its effects kill (a clerk's promotion kills the enemy's poison flames).
pub fn removed(h: &History, m: &Move) -> Vec<Square> {
    let (rules, pos) = (h.rules(), h.position());
    let mut out: Vec<Square> = m.victims(rules.dims()).collect();
    out.extend(rules.effect_changes(pos, m).removed);
    out
}

/// What `m`'s effects do beyond its own victims, in words ("; its effects remove the Poison
/// flame on 3.4 and turn the Rear guard on 5.5 into an Earthward net"), or nothing.
fn effects_text(h: &History, m: &Move) -> String {
    let (rules, pos) = (h.rules(), h.position());
    let fx = rules.effect_changes(pos, m);
    if fx.is_empty() {
        return String::new();
    }
    let cat = rules.catalogue();
    let at = |s: Square| rules.dims().square_name(s);
    let mut parts: Vec<String> = fx
        .removed
        .iter()
        .filter_map(|&s| {
            pos.piece_at(s)
                .map(|p| format!("remove the {} on {}", cat.kind(p.kind).name, at(s)))
        })
        .collect();
    for &(s, p) in &fx.changed {
        let was = pos.piece_at(s).map_or("piece", |q| &cat.kind(q.kind).name);
        parts.push(format!(
            "turn the {was} on {} into a {}",
            at(s),
            cat.kind(p.kind).name
        ));
    }
    format!("; its effects {}", parts.join(", "))
}

/// How many of the mover's own pieces `m` removes.
pub fn own_losses(h: &History, m: &Move) -> usize {
    let mover = h.position().piece_at(m.from).map(|p| p.side);
    victims(h, m)
        .iter()
        .filter(|(_, s)| Some(*s) == mover)
        .count()
}

/// A move in words: its notation, then what it takes ("takes the Pawn on 19.25"), and for a
/// move removing several pieces "removes 3 pieces, 1 of them yours".
pub fn describe(h: &History, m: &Move) -> String {
    let (rules, pos) = (h.rules(), h.position());
    let text = notation::move_string(rules, pos, m);
    let v = victims(h, m);
    let own = own_losses(h, m);
    let fx = effects_text(h, m);
    let name = |s: Square| {
        let p = pos.piece_at(s).expect("a victim stands somewhere");
        let k = &rules.catalogue().kind(p.kind).name;
        format!("{k} on {}", rules.dims().square_name(s))
    };
    let said = match v.len() {
        0 => format!("{text}: takes nothing"),
        1 if own == 0 && m.burnt(rules.dims()).any(|s| s == v[0].0) => {
            format!("{text}: burns the {}", name(v[0].0))
        }
        1 if own == 0 => format!("{text}: takes the {}", name(v[0].0)),
        1 => format!("{text}: removes your own {}", name(v[0].0)),
        n => {
            let mine = match own {
                0 => String::new(),
                k => format!(", {k} of them yours"),
            };
            // Whose each is, so that "1 of them yours" is not read as all of them.
            let mover = pos.piece_at(m.from).map(|p| p.side);
            let whose = |side: Side| match Some(side) == mover {
                true => "your".to_string(),
                false => format!("{}'s", capital(side.name())),
            };
            let listed: Vec<String> = v
                .iter()
                .take(3)
                .map(|&(s, side)| format!("{} {}", whose(side), name(s)))
                .collect();
            let more = if n > 3 { ", …" } else { "" };
            format!(
                "{text}: removes {n} pieces{mine} ({}{more})",
                listed.join(", ")
            )
        }
    };
    format!("{said}{fx}")
}

/// The distinct ways the `moves` (of one piece, all legal) end on `to`: grouped by the squares
/// they empty before the piece lands, fewest first. The promotion choice, and the shots fired
/// from where it lands (chosen afterwards), stay within a group.
pub fn endings<'a>(
    h: &History,
    moves: impl IntoIterator<Item = &'a Move>,
    to: Square,
) -> Vec<Ending> {
    let dims = h.rules().dims();
    let mut groups: Vec<(Vec<Square>, Vec<Move>)> = Vec::new();
    for m in moves.into_iter().filter(|m| m.to == to) {
        let shots = split(m).1;
        let mut v: Vec<Square> = m.victims(dims).filter(|s| !shots.contains(s)).collect();
        v.sort();
        match groups.iter_mut().find(|g| g.0 == v) {
            Some(g) => g.1.push(*m),
            None => groups.push((v, vec![*m])),
        }
    }
    groups.sort_by_key(|g| g.0.len());
    groups
        .into_iter()
        .map(|(_, moves)| {
            let unshot = |m: &&Move| split(m).1.is_empty();
            let plain = moves
                .iter()
                .filter(unshot)
                .find(|m| !m.promotes())
                .or_else(|| moves.iter().find(unshot))
                .unwrap_or(&moves[0]);
            let mut text = describe(h, plain);
            if moves.iter().any(|m| !split(m).1.is_empty()) {
                text.push_str(" (then it may shoot)");
            } else if moves.len() > 1 && moves.iter().any(|m| m.promotes() != plain.promotes()) {
                // Not `=` (declines) nor `+`: which it is, is asked.
                let written = notation::move_string(h.rules(), h.position(), plain);
                if let Some(rest) = text.strip_prefix(written.as_str()) {
                    text = format!("{}{rest}", written.trim_end_matches(['=', '+']));
                }
                text.push_str(" (promotion asked)");
            }
            Ending { moves, text }
        })
        .collect()
}

/// The side to move's royal pieces the opponent could take on its next move, with one piece
/// that could take each; also, where no kind is royal (Kō shōgi's general), the pieces the end
/// rule needs whose capture would end the game.
pub fn royals_in_danger(h: &History) -> Vec<(Square, Square)> {
    let mut out: Vec<(Square, Square)> = Vec::new();
    for (royal, by) in threats(h.rules(), h.position()) {
        if !out.iter().any(|o| o.0 == royal) {
            out.push((royal, by));
        }
    }
    out
}

/// The royals in danger that the last move put there: a royal not in danger before it, or
/// one a piece can now take that could not before (a threat that is new or grows). The
/// standard opening's own threats are not new (the `&` mark shows them); a set-up
/// position's are.
pub fn new_royal_threats(h: &History) -> Vec<(Square, Square)> {
    let Some(n) = h.point().checked_sub(1) else {
        // A set-up position's threats are news; the standard opening's are in every game.
        return match *h.position() == h.rules().start_position() {
            true => Vec::new(),
            false => royals_in_danger(h),
        };
    };
    let rules = h.rules();
    let mut before = h.position_at(n);
    before.set_to_move(h.position().to_move());
    let old = threats(rules, &before);
    let mut out: Vec<(Square, Square)> = Vec::new();
    for pair in threats(rules, h.position()) {
        if !old.contains(&pair) && !out.iter().any(|o| o.0 == pair.0) {
            out.push(pair);
        }
    }
    out
}

/// Every (royal, attacker) pair: a royal of the side to move in `pos` and an enemy piece
/// that could take it next.
fn threats(rules: &Rules, pos: &Position) -> Vec<(Square, Square)> {
    let side = pos.to_move();
    let cat = rules.catalogue();
    let mut out: Vec<(Square, Square)> = Vec::new();
    for m in rules.royal_threats(pos) {
        let ends = || {
            let mut after = pos.clone();
            after.set_to_move(side.opponent());
            rules.play(&mut after, &m).is_ok()
                && rules.outcome(&after).is_some_and(|o| o.winner != side)
        };
        for s in m.victims(rules.dims()) {
            let Some(p) = pos.piece_at(s).filter(|p| p.side == side) else {
                continue;
            };
            let needed = rules.game.end.involves(p.kind);
            let counts = cat.kind(p.kind).royal || (needed && ends());
            if counts && !out.contains(&(s, m.from)) {
                out.push((s, m.from));
            }
        }
    }
    out
}

/// "Your King on 18.36 can be taken (by the Lion on 18.34)." for each royal in danger.
pub fn danger_text(h: &History, danger: &[(Square, Square)]) -> Option<String> {
    let (rules, pos) = (h.rules(), h.position());
    let name = |s: Square| {
        let k = pos
            .piece_at(s)
            .map_or("piece", |p| &rules.catalogue().kind(p.kind).name);
        format!("{k} on {}", rules.dims().square_name(s))
    };
    let parts: Vec<String> = danger
        .iter()
        .map(|&(royal, by)| {
            format!(
                "{}'s {} can be taken (by the {})!",
                super::text::capital(pos.to_move().name()),
                name(royal),
                name(by)
            )
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

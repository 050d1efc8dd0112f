//! What a move does, in words, before it is committed: its notation, what it takes (and how
//! many of the mover's own pieces), the distinct ways of ending a move on a square, and the
//! royal pieces the opponent could take next. All of it is read off the generated moves.

use super::text::capital;
use taikyoku_core::geometry::{Side, Square};
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::reach::split;
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
    let (rules, pos) = (h.rules(), h.position());
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
            if counts && !out.iter().any(|o| o.0 == s) {
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

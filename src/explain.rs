//! Pieces explained for people: movement in words and a move diagram on an empty board.

use crate::betza::{Dirs, Leg, LegKind, Mode, Pattern};
use crate::catalogue::KindId;
use crate::geometry::Vec2;
use crate::rules::Rules;
use std::collections::BTreeMap;

fn dir_name(u: Vec2) -> &'static str {
    match (u.x, u.y) {
        (0, 1) => "forward",
        (0, -1) => "backward",
        (-1, 0) => "left",
        (1, 0) => "right",
        (-1, 1) => "forward-left",
        (1, 1) => "forward-right",
        (-1, -1) => "backward-left",
        _ => "backward-right",
    }
}

/// Words for a vector in the piece's frame.
fn vector_name(v: Vec2) -> String {
    match v.unit() {
        Some(u) => dir_name(u).to_string(),
        None => {
            let side = match v.x.signum() {
                -1 => format!("{} left", v.x.abs()),
                _ => format!("{} right", v.x),
            };
            let fwd = match v.y.signum() {
                -1 => format!("{} back", v.y.abs()),
                _ => format!("{} forward", v.y),
            };
            format!("({fwd}, {side})")
        }
    }
}

fn mode_note(m: Mode) -> &'static str {
    match (m.quiet, m.capture, m.own) {
        (true, false, false) => " (not capturing)",
        (false, true, false) => " (capturing only)",
        (_, _, true) => " (may capture its own pieces)",
        _ => "",
    }
}

fn ordinal(n: i32) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// How far a leg goes, in words: "1 square", "up to 3 squares", "any distance", "jumps to …".
fn reach_words(leg: &Leg, v: Vec2) -> String {
    let range = leg.range;
    let base = match leg.kind {
        LegKind::Hop(Some(n)) => format!(
            "any distance, jumping over up to {n} piece{}",
            if n == 1 { "" } else { "s" }
        ),
        LegKind::Hop(None) => "any distance, jumping over any number of pieces".into(),
        LegKind::RangeCapture => {
            "any distance by range capture (flying over lower-ranked pieces)".into()
        }
        LegKind::Lame => format!(
            "{} squares (every square on the way must be empty)",
            v.king_len()
        ),
        LegKind::Plain => match (v.unit(), range) {
            (Some(_), 1) if v.king_len() == 1 => "1 square".into(),
            (Some(_), 1) => format!("jumps to the {} square", ordinal(v.king_len())),
            (Some(_), 0) if v.king_len() == 1 => "any distance".into(),
            (Some(_), n) if v.king_len() == 1 => format!("up to {n} squares"),
            (_, 1) => "jumps".into(),
            (_, 0) => "rides any number of jumps".into(),
            (_, n) => format!("rides up to {n} jumps"),
        },
    };
    if matches!(leg.kind, LegKind::Plain | LegKind::Lame) && range > 1 && v.king_len() > 1 {
        format!("{base} of {}", v.king_len())
    } else {
        base
    }
}

/// One line per group of single-leg moves with the same reach, then one per multi-leg pattern.
pub fn describe(patterns: &[Pattern]) -> Vec<String> {
    let mut groups: BTreeMap<String, Vec<Vec2>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut lines = Vec::new();
    for p in patterns {
        if p.legs.len() == 1 {
            let leg = &p.legs[0];
            let Ok(vs) = leg.vectors(None) else { continue };
            for v in vs {
                let key = format!("{}{}", reach_words(leg, v), mode_note(leg.mode));
                let entry = groups.entry(key.clone()).or_default();
                if entry.is_empty() {
                    order.push(key);
                }
                if !entry.contains(&v) {
                    entry.push(v);
                }
            }
        } else {
            lines.push(describe_chain(p));
        }
    }
    let mut out: Vec<String> = order
        .into_iter()
        .map(|k| {
            let mut vs = groups[&k].clone();
            // As on a diagram: forward rows first, each from left to right.
            vs.sort_by_key(|v| (-v.y, v.x));
            let dirs = if vs.len() == 8 && !k.starts_with("jumps") {
                "in every direction".to_string()
            } else {
                vs.iter()
                    .map(|&v| vector_name(v))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{k}: {dirs}")
        })
        .collect();
    out.extend(lines);
    out
}

fn relative_words(leg: &Leg) -> String {
    match &leg.dirs {
        Dirs::All => "in any direction".into(),
        Dirs::Relative(_) | Dirs::Absolute(_) => {
            let names: Vec<&str> = leg
                .letters
                .chars()
                .map(|c| match c {
                    'f' => "straight on",
                    'b' => "back",
                    'l' => "turning left",
                    'r' => "turning right",
                    's' => "turning 90°",
                    _ => "straight on or back",
                })
                .collect();
            names.join(" or ")
        }
    }
}

fn describe_chain(p: &Pattern) -> String {
    let mut parts = Vec::new();
    for (k, leg) in p.legs.iter().enumerate() {
        let dirs = if k == 0 {
            match leg.vectors(None) {
                Ok(vs)
                    if vs.len() == 8
                        || (vs.len() == 4 && leg.atoms.len() == 1) && leg.letters.is_empty() =>
                {
                    "in any direction".to_string()
                }
                Ok(vs) => vs
                    .iter()
                    .map(|&v| vector_name(v))
                    .collect::<Vec<_>>()
                    .join("/"),
                Err(e) => e,
            }
        } else {
            relative_words(leg)
        };
        let v = leg.atoms[0];
        let how = reach_words(leg, v);
        let act = match (leg.mode.quiet, leg.mode.capture, k + 1 == p.legs.len()) {
            (false, true, false) => ", capturing there",
            (true, true, false) => ", capturing there if an enemy stands there",
            (true, false, false) => " to an empty square",
            _ => "",
        };
        parts.push(format!("{how} {dirs}{act}"));
    }
    let back_home = p.legs.len() == 2
        && matches!(&p.legs[1].dirs, Dirs::Relative(d) if p.legs[1].letters == "b" && !d.is_empty());
    let note = if back_home && p.legs[0].mode.capture && !p.legs[0].mode.quiet {
        " (igui: captures without moving)"
    } else if back_home && p.legs[0].mode.quiet && !p.legs[0].mode.capture {
        " (a pass)"
    } else if back_home {
        " (igui, or a pass)"
    } else {
        ""
    };
    format!("{}{}", parts.join(", then "), note)
}

/// How a square is reached, for the diagram; lower sorts first and wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    Line(char),
    Step,
    Jump,
    Hop,
    Range,
    Second,
    Igui,
}

impl Mark {
    fn glyph(self) -> char {
        match self {
            Mark::Line(c) => c,
            Mark::Step => '○',
            Mark::Jump => '☆',
            Mark::Hop => '◇',
            Mark::Range => '◆',
            Mark::Second => '◎',
            Mark::Igui => '!',
        }
    }
}

fn line_glyph(u: Vec2) -> char {
    match (u.x, u.y) {
        (0, _) => '│',
        (_, 0) => '─',
        (a, b) if a == b => '╱',
        _ => '╲',
    }
}

/// A move diagram of the patterns on an empty board, the piece (☖) in the middle facing up.
pub fn diagram(patterns: &[Pattern]) -> String {
    let mut marks: BTreeMap<(i32, i32), Mark> = BTreeMap::new();
    let mut radius = 3;
    let note = |pos: Vec2, m: Mark, marks: &mut BTreeMap<(i32, i32), Mark>| {
        let e = marks.entry((pos.x, pos.y)).or_insert(m);
        if m < *e {
            *e = m;
        }
    };
    for p in patterns {
        for leg in &p.legs {
            for &a in &leg.atoms {
                let n = if leg.range == 0 { 1 } else { leg.range as i32 };
                radius = radius.max(a.king_len() * n * p.legs.len() as i32 + 1);
            }
        }
    }
    let radius = radius.min(8);
    for p in patterns {
        if p.legs.len() == 1 {
            let leg = &p.legs[0];
            let Ok(vs) = leg.vectors(None) else { continue };
            for v in vs {
                let max = if leg.range == 0 {
                    radius
                } else {
                    leg.range as i32
                };
                for k in 1..=max {
                    let at = v.scale(k);
                    if at.king_len() > radius {
                        break;
                    }
                    let m = match (leg.kind, v.unit()) {
                        (LegKind::Hop(_), _) => Mark::Hop,
                        (LegKind::RangeCapture, _) => Mark::Range,
                        (LegKind::Lame, _) => Mark::Step,
                        (LegKind::Plain, Some(u)) if v.king_len() == 1 && leg.range == 0 => {
                            Mark::Line(line_glyph(u))
                        }
                        (LegKind::Plain, _) if v.king_len() == 1 => Mark::Step,
                        _ => Mark::Jump,
                    };
                    note(at, m, &mut marks);
                }
            }
        } else {
            walk_chain(p, 0, Vec2::new(0, 0), None, radius, &mut |at, m| {
                note(at, m, &mut marks)
            });
        }
    }
    let mut out = String::new();
    for y in (-radius..=radius).rev() {
        let mut row = String::new();
        for x in -radius..=radius {
            let c = if (x, y) == (0, 0) {
                '☖'
            } else {
                marks.get(&(x, y)).map_or('·', |m| m.glyph())
            };
            row.push(c);
            row.push(' ');
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

fn walk_chain(
    p: &Pattern,
    k: usize,
    at: Vec2,
    previous: Option<Vec2>,
    radius: i32,
    mark: &mut dyn FnMut(Vec2, Mark),
) {
    let leg = &p.legs[k];
    let Ok(vs) = leg.vectors(previous) else {
        return;
    };
    let last = k + 1 == p.legs.len();
    for v in vs {
        let max = if leg.range == 0 {
            radius
        } else {
            leg.range as i32
        };
        for s in 1..=max {
            let to = at + v.scale(s);
            if to.king_len() > radius {
                break;
            }
            if last {
                if to == Vec2::new(0, 0) {
                    // Coming back: igui where the first leg could capture.
                    if p.legs[0].mode.capture {
                        mark(at, Mark::Igui);
                    }
                } else {
                    mark(to, Mark::Second);
                }
            } else {
                walk_chain(p, k + 1, to, Some(v), radius, mark);
            }
        }
    }
}

/// The diagram's key.
pub const LEGEND: &str = "☖ the piece (facing up)  ○ steps (or limited range)  │─╱╲ ranges any distance  ☆ jumps to\n\
◇ ranges jumping over pieces  ◆ range capture  ◎ reached by a multi-leg move  ! igui (captures there without moving)";

/// How a piece captures, in words, from its patterns and the rule set.
pub fn capture_words(rules: &Rules, k: KindId) -> String {
    let reading = &rules.readings[k as usize];
    let mut ways = vec!["by moving onto an enemy piece".to_string()];
    let legs = || reading.patterns.iter().flat_map(|p| p.legs.iter());
    if reading
        .patterns
        .iter()
        .any(|p| p.legs.len() > 1 && p.legs[..p.legs.len() - 1].iter().any(|l| l.mode.capture))
    {
        ways.push("on the way of a multi-leg move, then moving on (up to two captures a move; igui when it comes back)".into());
    }
    if legs().any(|l| l.kind == LegKind::RangeCapture) {
        let r = &rules.rule_set.params.range;
        ways.push(format!(
            "by range capture: it flies over lower-ranked pieces of either side{}{}",
            if r.captures_flown_over {
                " and removes them all"
            } else {
                ", leaving them on the board"
            },
            if r.end_on_friend {
                "; it may end on a lower-ranked friendly piece"
            } else {
                ""
            }
        ));
    }
    if legs().any(|l| matches!(l.kind, LegKind::Hop(_))) {
        ways.push("after jumping over pieces on its line".into());
    }
    if legs().all(|l| !l.mode.capture) {
        return "never".into();
    }
    ways.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::betza::parse;

    #[test]
    fn words_for_simple_and_multi_leg_moves() {
        let d = describe(&parse("fWfF").unwrap());
        assert_eq!(d, vec!["1 square: forward-left, forward, forward-right"]);
        let d = describe(&parse("K2").unwrap());
        assert_eq!(d, vec!["up to 2 squares: in every direction"]);
        let d = describe(&parse("ffN").unwrap());
        assert_eq!(d, vec!["jumps: (2 forward, 1 left), (2 forward, 1 right)"]);
        let d = describe(&parse("fsW").unwrap());
        assert_eq!(d, vec!["1 square: forward, left, right"]);
        let d = describe(&parse("fD").unwrap());
        assert_eq!(d, vec!["jumps to the 2nd square: forward"]);
        let d = describe(&parse("R(R-sR)").unwrap());
        assert_eq!(
            d[1],
            "any distance in any direction to an empty square, then any distance turning 90°"
        );
        let d = describe(&parse("(cK-bK)").unwrap());
        assert_eq!(
            d[0],
            "1 square in any direction, capturing there, then 1 square back (igui: captures without moving)"
        );
    }

    #[test]
    fn diagram_of_a_gold_general_and_a_lion() {
        let g = diagram(&parse("WfF").unwrap());
        let rows: Vec<&str> = g.lines().collect();
        assert_eq!(rows.len(), 7);
        assert_eq!(rows[2], "· · ○ ○ ○ · ·");
        assert_eq!(rows[3], "· · ○ ☖ ○ · ·");
        assert_eq!(rows[4], "· · · ○ · ·  ·".replace("·  ·", "· ·"));
        let l = diagram(&parse("KNAD(cK-K)(K-bK)").unwrap());
        assert!(l.contains("☆ ☆ ☆ ☆ ☆"), "{l}");
        assert!(
            !l.contains('◎'),
            "every lion destination is also a leap: {l}"
        );
        let r = diagram(&parse("fR").unwrap());
        let rows: Vec<&str> = r.lines().collect();
        assert_eq!(rows[0], "· · · │ · · ·");
        assert_eq!(rows[3], "· · · ☖ · · ·");
        assert_eq!(rows[4], "· · · · · · ·");
    }
}

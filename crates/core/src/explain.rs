//! Pieces explained for people: their movement in words, a move diagram and how they capture.
//!
//! Everything here is read off the move generator, never off the Betza string: a lone piece is
//! put in the middle of an empty board, then with rings of enemy pieces around it (to see what
//! it jumps, what it captures and where a multi-leg move can take a piece on its way), and its
//! generated moves are summarised. So a card says what the generator does, and a new mechanic
//! needs no change here to be shown.

use crate::betza::octant;
use crate::catalogue::KindId;
use crate::geometry::{Side, Square, Vec2};
use crate::piece::Piece;
use crate::position::Position;
use crate::rules::Rules;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// A hopper seen passing this many pieces is said to pass any number.
const MAX_HOPS: i32 = 5;
/// The diagram shows at most this many squares on each side of the piece.
const MAX_RADIUS: i32 = 8;

/// The eight directions in the piece's frame (x = its right, y = its forward), in reading order.
const DIRS: [Vec2; 8] = [
    Vec2::new(-1, 1),
    Vec2::new(0, 1),
    Vec2::new(1, 1),
    Vec2::new(-1, 0),
    Vec2::new(1, 0),
    Vec2::new(-1, -1),
    Vec2::new(0, -1),
    Vec2::new(1, -1),
];

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

fn ordinal(n: i32) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

fn squares(n: i32) -> String {
    if n == 1 {
        "1 square".into()
    } else {
        format!("{n} squares")
    }
}

/// "a, b or c".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The piece's moves on one probe board, as offsets from its square (its frame: it is Black).
#[derive(Default)]
struct Probe {
    /// Destinations of moves without stops, and whether one of those moves is a range move.
    single: HashMap<Vec2, bool>,
    /// Squares holding an enemy piece.
    occupied: HashSet<Vec2>,
    /// Moves with stops: every point from the start (0, 0) to the destination.
    multi: Vec<Vec<Vec2>>,
    /// The most pieces one multi-leg move removes.
    most_taken_on_the_way: usize,
    /// Moves that shoot: where the piece ends, and the squares it shoots.
    shots: Vec<(Vec2, Vec<Vec2>)>,
}

impl Probe {
    fn reaches(&self, v: Vec2) -> bool {
        self.single.contains_key(&v)
    }

    fn captures_at(&self, v: Vec2) -> bool {
        self.reaches(v) && self.occupied.contains(&v)
    }
}

/// Puts the piece on probe boards and watches the generator.
struct Lab<'a> {
    rules: &'a Rules,
    kind: KindId,
    /// The enemy the rings are made of: a lowest-ranked, non-royal kind.
    enemy: KindId,
    centre: (i32, i32),
}

impl<'a> Lab<'a> {
    fn new(rules: &'a Rules, kind: KindId) -> Lab<'a> {
        let cat = rules.catalogue();
        let enemy = cat
            .kinds
            .iter()
            .find(|k| k.rank.is_none() && !k.royal)
            .or_else(|| cat.kinds.iter().max_by_key(|k| k.rank))
            .map_or(kind, |k| k.id);
        let d = rules.dims();
        Lab {
            rules,
            kind,
            enemy,
            centre: ((d.files as i32 - 1) / 2, (d.ranks as i32 - 1) / 2),
        }
    }

    fn on_board(&self, v: Vec2) -> bool {
        self.rules
            .dims()
            .contains(self.centre.0 + v.x, self.centre.1 + v.y)
    }

    /// How many squares there are from `at` to the edge along `u`.
    fn edge_from(&self, at: Vec2, u: Vec2) -> i32 {
        let mut n = 0;
        while self.on_board(at + u.scale(n + 1)) {
            n += 1;
        }
        n
    }

    /// The piece in the middle of a board with enemies on the squares `enemy` selects (as
    /// offsets from it): the position, where the piece stands, and the enemies' offsets.
    fn board(&self, enemy: impl Fn(Vec2) -> bool) -> (Position, Square, HashSet<Vec2>) {
        let dims = self.rules.dims();
        let mut pos = self.rules.empty_position();
        let (cx, cy) = self.centre;
        let mut occupied = HashSet::new();
        for sq in dims.squares() {
            let (x, y) = dims.xy(sq);
            let v = Vec2::new(x - cx, y - cy);
            if v.king_len() > 0 && enemy(v) {
                let enemy = Piece {
                    kind: self.enemy,
                    side: Side::White,
                    promoted: false,
                };
                self.rules.put(&mut pos, sq, Some(enemy));
                occupied.insert(v);
            }
        }
        let from = dims.square(cx, cy).expect("the centre is on the board");
        let piece = Piece {
            kind: self.kind,
            side: Side::Black,
            promoted: false,
        };
        self.rules.put(&mut pos, from, Some(piece));
        (pos, from, occupied)
    }

    /// With a lone enemy at `v`: whether a move shoots it, and whether a move burns it.
    fn lone(&self, v: Vec2) -> (bool, bool) {
        let (pos, from, _) = self.board(|w| w == v);
        let dims = self.rules.dims();
        let Some(sq) = dims.square(self.centre.0 + v.x, self.centre.1 + v.y) else {
            return (false, false);
        };
        let moves = self.rules.moves_from_all_paths(&pos, from);
        (
            moves.iter().any(|m| m.shots().any(|s| s == sq)),
            moves.iter().any(|m| m.burnt(dims).any(|s| s == sq)),
        )
    }

    /// The piece's moves with enemies on every square at the king distances `rings` selects.
    fn probe(&self, rings: impl Fn(i32) -> bool) -> Probe {
        let dims = self.rules.dims();
        let (cx, cy) = self.centre;
        let (pos, from, occupied) = self.board(|v| rings(v.king_len()));
        let mut probe = Probe {
            occupied,
            ..Probe::default()
        };
        let at = |s: Square| {
            let (x, y) = dims.xy(s);
            Vec2::new(x - cx, y - cy)
        };
        for m in self.rules.moves_from_all_paths(&pos, from) {
            if m.shots().next().is_some() {
                probe.shots.push((at(m.to), m.shots().map(at).collect()));
            } else if m.path().is_empty() {
                *probe.single.entry(at(m.to)).or_default() |= m.is_range();
            } else {
                let taken = self.rules.captures(&pos, &m).len();
                probe.most_taken_on_the_way = probe.most_taken_on_the_way.max(taken);
                let mut points = vec![Vec2::new(0, 0)];
                points.extend(m.path().iter().map(|&s| at(s)));
                points.push(at(m.to));
                probe.multi.push(points);
            }
        }
        probe
    }
}

/// What a rider that passes pieces does along a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rider {
    /// Flies over lower-ranked pieces (range capture).
    Range,
    /// Jumps over up to this many pieces (`None`: any number), moving and capturing.
    Hop(Option<i32>),
    /// Jumps over pieces only to capture.
    CaptureHop(Option<i32>),
}

/// What the piece does along one of the eight directions.
#[derive(Clone, Debug)]
struct LineReach {
    dir: Vec2,
    /// Squares it slides (a step is a slide of 1), blocked by the first piece; 0 for none.
    slide: i32,
    /// The slide goes to the edge of the board: any distance.
    to_edge: bool,
    quiet: bool,
    capture: bool,
    /// Squares it jumps to (over whatever stands before them), each with how far it may then
    /// go on (`None`: to the edge).
    leaps: Vec<(i32, Option<i32>)>,
    /// Squares it jumps over without being able to stop just beyond (it must go on): the
    /// square jumped, then the first and last squares it may land on (`None`: the edge).
    passes: Vec<(i32, i32, Option<i32>)>,
    rider: Option<Rider>,
}

/// A multi-leg way of moving: its legs' distances and actions, by first direction and turns.
#[derive(Default)]
struct Chain {
    /// Per leg: the distances seen, and whether one of them reached (nearly) the edge.
    dist: Vec<(BTreeSet<i32>, bool)>,
    /// Per leg before the last: whether it stopped on an empty square, or took a piece there.
    quiet: Vec<bool>,
    capture: Vec<bool>,
    /// Every move of this shape came back to its start.
    returns: bool,
    /// The farthest destination (king steps).
    far: i32,
}

/// One leg's direction: the first leg's in the piece's frame, a later leg's relative to the
/// leg before (eighth turns counter-clockwise), or a leap's vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Heading {
    Dir(Vec2),
    Turn(i32),
    Leap(Vec2),
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
    /// A lone enemy here can be shot.
    Shot,
    /// A lone enemy here is burnt by a move landing next to it.
    Burnt,
    /// Within its aura: no enemy shooter here may shoot (a fog).
    Aura,
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
            Mark::Shot => '×',
            Mark::Burnt => '▒',
            Mark::Aura => '░',
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

/// A piece's movement as the generator makes it, in words and as a diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movement {
    /// One line per way of moving.
    pub words: Vec<String>,
    /// The diagram, the piece (☖) in the middle facing up; see [`LEGEND`].
    pub diagram: String,
    /// How it captures, in words ("never" when it cannot).
    pub captures: String,
}

/// Everything the probes showed.
struct Observed {
    lines: Vec<LineReach>,
    /// Oblique destinations, and whether the piece jumps there (else it can be blocked).
    leaps: BTreeMap<Vec2, bool>,
    chains: BTreeMap<(Heading, Vec<Heading>), Chain>,
    /// Destinations of multi-leg moves, and the squares where it takes a piece without moving.
    multi_to: BTreeSet<Vec2>,
    igui: BTreeSet<Vec2>,
    ends_on_enemy: bool,
    /// It takes a piece on the way of a multi-leg move and ends elsewhere than its start.
    takes_and_moves_on: bool,
    most_taken: usize,
    range: bool,
    shots: Shots,
    /// Squares where a lone enemy is shot, or burnt, by some move.
    shot_at: BTreeSet<Vec2>,
    burnt_at: BTreeSet<Vec2>,
    /// Its aura: how far its fog reaches, and whether it freezes (nets).
    fog: i32,
    freezes: bool,
}

/// What the piece shoots (takes from afar without moving there), seen on the probes.
#[derive(Default)]
struct Shots {
    /// Per direction from where it stands, the farthest piece it shot.
    reach: BTreeMap<Vec2, i32>,
    /// The most pieces one move shoots.
    most: usize,
    /// It shot a piece with another between them.
    over: bool,
    /// It shot from the square it started on.
    in_place: bool,
}

impl Shots {
    fn observe(&mut self, p: &Probe) {
        for (at, targets) in &p.shots {
            self.most = self.most.max(targets.len());
            self.in_place |= *at == Vec2::new(0, 0);
            for &t in targets {
                let v = Vec2::new(t.x - at.x, t.y - at.y);
                let Some(u) = v.unit() else { continue };
                let far = self.reach.entry(u).or_default();
                *far = (*far).max(v.king_len());
                self.over |= (1..v.king_len()).any(|k| {
                    let between = *at + u.scale(k);
                    p.occupied.contains(&between) && !targets.contains(&between)
                });
            }
        }
    }

    /// "Shoots …" in words, or nothing.
    fn words(&self) -> Option<String> {
        if self.reach.is_empty() {
            return None;
        }
        let mut by_range: BTreeMap<i32, Vec<Vec2>> = BTreeMap::new();
        for (&u, &n) in &self.reach {
            by_range.entry(n).or_default().push(u);
        }
        let ways: Vec<String> = by_range
            .into_iter()
            .map(|(n, mut us)| {
                us.sort_by_key(|v| (-v.y, v.x));
                format!("up to {} {}", squares(n), dirs_words(&us, ", "))
            })
            .collect();
        let count = match self.most {
            1 => "one enemy piece".to_string(),
            n => format!("up to {n} enemy pieces one after another"),
        };
        let when = if self.in_place {
            "where it stands or after moving"
        } else {
            "after moving"
        };
        let over = if self.over {
            ", over pieces between"
        } else {
            ""
        };
        Some(format!(
            "shoots {count} {when}, taking without going there{over}: {}",
            ways.join("; ")
        ))
    }
}

impl Movement {
    /// Watches the generator move a lone Black piece of `kind` under `rules`.
    pub fn of(rules: &Rules, kind: KindId) -> Movement {
        let lab = Lab::new(rules, kind);
        let obs = observe(&lab);
        let mut words = words(&obs);
        words.extend(aura_words(rules, kind, &obs));
        Movement {
            words,
            diagram: diagram(&obs),
            captures: capture_words(rules, &obs, rules.catalogue().kind(kind).burns),
        }
    }
}

fn observe(lab: &Lab) -> Observed {
    let empty = lab.probe(|_| false);
    let far = DIRS
        .iter()
        .map(|&u| lab.edge_from(Vec2::new(0, 0), u))
        .max()
        .unwrap_or(0);
    // rings[n]: enemies on every square at distance n (rings[0]: the empty board).
    let rings: Vec<Probe> = std::iter::once(empty)
        .chain((1..=far).map(|n| lab.probe(|d| d == n)))
        .collect();
    // hops[k]: enemies on the k + 1 nearest rings, to count the pieces a hopper passes.
    let hops: Vec<Probe> = (1..=MAX_HOPS).map(|k| lab.probe(|d| d <= k + 1)).collect();
    let lines: Vec<LineReach> = DIRS
        .iter()
        .map(|&u| line_reach(lab, u, &rings, &hops))
        .collect();
    let mut leaps = BTreeMap::new();
    for y in -MAX_RADIUS..=MAX_RADIUS {
        for x in -MAX_RADIUS..=MAX_RADIUS {
            let v = Vec2::new(x, y);
            if v.unit().is_some() || v.king_len() == 0 {
                continue;
            }
            let n = v.king_len() as usize;
            if rings[0].reaches(v) || rings.get(n).is_some_and(|p| p.captures_at(v)) {
                leaps.insert(v, rings[1].reaches(v));
            }
        }
    }
    let mut obs = Observed {
        lines,
        leaps,
        chains: BTreeMap::new(),
        multi_to: BTreeSet::new(),
        igui: BTreeSet::new(),
        ends_on_enemy: false,
        takes_and_moves_on: false,
        most_taken: 0,
        range: false,
        shots: Shots::default(),
        shot_at: BTreeSet::new(),
        burnt_at: BTreeSet::new(),
        fog: lab.rules.catalogue().kind(lab.kind).fog as i32,
        freezes: lab.rules.catalogue().kind(lab.kind).freezes,
    };
    for p in rings.iter().chain(&hops) {
        obs.ends_on_enemy |= p.single.keys().any(|v| p.occupied.contains(v))
            || p.multi.iter().any(|m| p.occupied.contains(&m[m.len() - 1]));
        obs.range |= p.single.values().any(|&r| r);
        obs.shots.observe(p);
    }
    if !obs.shots.reach.is_empty() {
        // Two rings beyond the first: a shot that takes the outer one passes the inner one.
        obs.shots.observe(&lab.probe(|d| d == 2 || d == 3));
    }
    if !obs.shots.reach.is_empty() || lab.rules.catalogue().kind(lab.kind).burns {
        for y in -MAX_RADIUS..=MAX_RADIUS {
            for x in -MAX_RADIUS..=MAX_RADIUS {
                let v = Vec2::new(x, y);
                if v.king_len() == 0 || !lab.on_board(v) {
                    continue;
                }
                let (shot, burnt) = lab.lone(v);
                if shot {
                    obs.shot_at.insert(v);
                }
                if burnt {
                    obs.burnt_at.insert(v);
                }
            }
        }
    }
    // Multi-leg moves on the empty board and among one to four rings of pieces: where they
    // can stop, take pieces on the way, and go on. The diagram shows the first two.
    for (i, p) in rings[..2].iter().chain(&hops[..3]).enumerate() {
        obs.most_taken = obs.most_taken.max(p.most_taken_on_the_way);
        for m in &p.multi {
            chain(lab, p, m, &mut obs, i < 2);
        }
    }
    obs
}

/// Records one multi-leg move.
fn chain(lab: &Lab, p: &Probe, m: &[Vec2], obs: &mut Observed, drawn: bool) {
    let last = m[m.len() - 1];
    let stops = &m[1..m.len() - 1];
    let takes = stops.iter().any(|s| p.occupied.contains(s));
    let back = last == Vec2::new(0, 0);
    if drawn && !back {
        obs.multi_to.insert(last);
    } else if drawn
        && let Some(&first) = stops.first()
        && p.occupied.contains(&first)
    {
        obs.igui.insert(first);
    }
    obs.takes_and_moves_on |= takes && !back;
    let mut headings = Vec::new();
    let mut legs = Vec::new();
    let mut previous: Option<Vec2> = None;
    for w in m.windows(2) {
        let v = Vec2::new(w[1].x - w[0].x, w[1].y - w[0].y);
        let heading = match (v.unit(), previous.and_then(octant)) {
            (None, _) => Heading::Leap(v),
            (Some(u), Some(b)) => Heading::Turn((octant(u).unwrap_or(0) - b).rem_euclid(8)),
            (Some(u), None) => Heading::Dir(u),
        };
        let n = if v.unit().is_some() { v.king_len() } else { 1 };
        let near_edge = v
            .unit()
            .is_some_and(|u| n >= lab.edge_from(w[0], u) - 1 && n > 1);
        headings.push(heading);
        legs.push((n, near_edge));
        previous = Some(v);
    }
    let key = (headings[0], headings[1..].to_vec());
    let entry = obs.chains.entry(key).or_insert_with(|| Chain {
        dist: vec![(BTreeSet::new(), false); legs.len()],
        quiet: vec![false; stops.len()],
        capture: vec![false; stops.len()],
        returns: true,
        far: 0,
    });
    entry.far = entry.far.max(last.king_len());
    for (slot, (n, edge)) in entry.dist.iter_mut().zip(legs) {
        slot.0.insert(n);
        slot.1 |= edge;
    }
    for (k, s) in stops.iter().enumerate() {
        if p.occupied.contains(s) {
            entry.capture[k] = true;
        } else {
            entry.quiet[k] = true;
        }
    }
    entry.returns &= last == Vec2::new(0, 0);
}

/// What the piece does along direction `u`: `rings[n]` has enemies at distance `n` only.
fn line_reach(lab: &Lab, u: Vec2, rings: &[Probe], hops: &[Probe]) -> LineReach {
    let origin = Vec2::new(0, 0);
    let edge = lab.edge_from(origin, u);
    let at = |n: i32| u.scale(n);
    let ring = |n: i32| &rings[n as usize];
    let quiet = |n: i32| rings[0].reaches(at(n));
    let capture = |n: i32| ring(n).captures_at(at(n));
    let mut slide = 0;
    while slide < edge && (quiet(slide + 1) || capture(slide + 1)) {
        slide += 1;
    }
    // It jumps to the kth square when it gets there over a piece on the square before.
    let jumps: Vec<i32> = (2..=edge).filter(|&k| ring(k - 1).reaches(at(k))).collect();
    let passes = |k: i32| hops[k as usize - 1].captures_at(at(k + 1));
    let hop_count = || {
        let n = (1..=MAX_HOPS).take_while(|&k| passes(k)).count() as i32;
        (n < MAX_HOPS).then_some(n)
    };
    let mut line = LineReach {
        dir: u,
        slide,
        to_edge: slide == edge && edge > 0,
        quiet: (1..=slide).any(quiet),
        capture: (1..=slide).any(capture),
        leaps: Vec::new(),
        passes: Vec::new(),
        rider: None,
    };
    if edge >= 2 && jumps.len() as i32 == edge - 1 && slide == edge {
        let range = (1..edge).any(|n| ring(n).single.get(&at(n + 1)) == Some(&true));
        line.rider = Some(if range {
            Rider::Range
        } else {
            Rider::Hop(hop_count())
        });
        return line;
    }
    if edge >= 2 && (1..=MAX_HOPS.min(edge - 1)).all(passes) {
        line.rider = Some(Rider::CaptureHop(hop_count()));
    }
    // A slide whose last square is also a jump is a shorter slide and a jump.
    while line.slide >= 2 && jumps.contains(&line.slide) {
        line.slide -= 1;
        line.to_edge = false;
    }
    for &k in &jumps {
        // How far it goes on past a piece on the square before the one it jumps to.
        let on = (k + 1..=edge)
            .take_while(|&n| ring(k - 1).reaches(at(n)))
            .count() as i32;
        let only_jumps = (k + 1..=k + on).all(|n| jumps.contains(&n));
        let on = if on == 0 || only_jumps {
            Some(0)
        } else if k + on == edge {
            None
        } else {
            Some(on)
        };
        line.leaps.push((k, on));
    }
    // Jumps over a piece that the leaps above (which pass whatever stands before them) do
    // not explain: it lands further on.
    for b in 1..edge {
        let explained = |n: i32| {
            line.leaps
                .iter()
                .any(|&(k, on)| k > b && (k..=k + on.unwrap_or(edge)).contains(&n))
        };
        let beyond: Vec<i32> = (b + 1..=edge)
            .filter(|&n| ring(b).reaches(at(n)) && !explained(n))
            .collect();
        if let (Some(&first), Some(&last)) = (beyond.first(), beyond.last())
            && beyond.len() as i32 == last - first + 1
        {
            line.passes.push((b, first, (last < edge).then_some(last)));
        }
    }
    line
}

fn mode_note(quiet: bool, capture: bool) -> &'static str {
    match (quiet, capture) {
        (true, false) => " (not capturing)",
        (false, true) => " (capturing only)",
        _ => "",
    }
}

/// The single-leg ways of moving along a line, as (sort key, words) pairs.
fn line_words(l: &LineReach) -> Vec<((u8, i32), String)> {
    let mut out = Vec::new();
    let note = mode_note(l.quiet, l.capture);
    match l.rider {
        Some(Rider::Range) => out.push((
            (4, 0),
            "any distance by range capture (flying over lower-ranked pieces)".into(),
        )),
        Some(Rider::Hop(n)) => out.push(((3, 0), format!("any distance, {}{note}", pieces(n)))),
        _ => {}
    }
    if let Some(Rider::CaptureHop(n)) = l.rider {
        out.push((
            (3, 1),
            format!("any distance, {} (capturing only)", pieces(n)),
        ));
    }
    if matches!(l.rider, Some(Rider::Range | Rider::Hop(_))) {
        return out;
    }
    if l.slide > 0 {
        let w = match (l.slide, l.to_edge) {
            (_, true) => "any distance".to_string(),
            (1, _) => "1 square".to_string(),
            (n, _) => format!("up to {n} squares"),
        };
        let order = if l.to_edge { 99 } else { l.slide };
        out.push(((0, order), format!("{w}{note}")));
    }
    // Jumps that go on alike are said together: "jumps to the 2nd or 3rd square".
    let mut by_on: BTreeMap<Option<i32>, Vec<i32>> = BTreeMap::new();
    for &(k, on) in &l.leaps {
        by_on.entry(on).or_default().push(k);
    }
    for &(b, first, last) in &l.passes {
        let land = match last {
            None => format!("landing anywhere from the {} square on", ordinal(first)),
            Some(n) => format!(
                "landing from the {} to the {} square",
                ordinal(first),
                ordinal(n)
            ),
        };
        out.push((
            (2, b),
            format!("jumps over the {} square, {land}", ordinal(b)),
        ));
    }
    for (on, ks) in by_on {
        let names: Vec<String> = ks.iter().map(|&k| ordinal(k)).collect();
        let then = match on {
            Some(0) => String::new(),
            Some(n) => format!(", then on up to {}", squares(n)),
            None => ", then on any distance".into(),
        };
        out.push((
            (1, ks[0]),
            format!("jumps to the {} square{then}", or_list(&names)),
        ));
    }
    out
}

fn pieces(n: Option<i32>) -> String {
    match n {
        None => "jumping over any number of pieces".into(),
        Some(1) => "jumping over up to 1 piece".into(),
        Some(n) => format!("jumping over up to {n} pieces"),
    }
}

/// Names for a set of first-leg directions.
fn dirs_words(dirs: &[Vec2], sep: &str) -> String {
    let orth = dirs.iter().all(|d| d.x == 0 || d.y == 0);
    let diag = dirs
        .iter()
        .all(|d| d.x != 0 && d.y != 0 && d.unit().is_some());
    match dirs.len() {
        8 => "in every direction".into(),
        4 if orth => "orthogonally".into(),
        4 if diag => "diagonally".into(),
        _ => dirs
            .iter()
            .map(|&v| vector_name(v))
            .collect::<Vec<_>>()
            .join(sep),
    }
}

/// Words for later legs' turns relative to the leg before.
fn turn_words(turns: &BTreeSet<i32>) -> String {
    let t: Vec<i32> = turns.iter().copied().collect();
    match t.as_slice() {
        [0, 1, 2, 3, 4, 5, 6, 7] => "in any direction".into(),
        [0, 1, 2, 3, 5, 6, 7] => "in any direction but back".into(),
        [2, 6] => "turning 90°".into(),
        [1, 7] => "turning 45°".into(),
        [3, 5] => "turning 135°".into(),
        _ => or_list(
            &t.iter()
                .map(|&k| {
                    match k {
                        0 => "straight on",
                        1 => "turning 45° left",
                        2 => "turning left",
                        3 => "turning 135° left",
                        4 => "back",
                        5 => "turning 135° right",
                        6 => "turning right",
                        _ => "turning 45° right",
                    }
                    .to_string()
                })
                .collect::<Vec<_>>(),
        ),
    }
}

fn distance_words(ns: &BTreeSet<i32>, near_edge: bool) -> String {
    let v: Vec<i32> = ns.iter().copied().collect();
    let contiguous = v.windows(2).all(|w| w[1] == w[0] + 1);
    match v.as_slice() {
        [1] => "1 square".into(),
        [1, ..] if contiguous && near_edge => "any distance".into(),
        [1, .., m] if contiguous => format!("up to {m} squares"),
        _ => {
            let names: Vec<String> = v.iter().map(|n| n.to_string()).collect();
            format!("{} squares", or_list(&names))
        }
    }
}

/// The later legs' headings of multi-leg moves, by their first leg's heading.
type ByFirst = BTreeMap<Heading, BTreeSet<Vec<Heading>>>;

/// One sentence per multi-leg way of moving.
fn chain_words(obs: &Observed) -> Vec<String> {
    // Shapes that read alike, with the first directions and later turns that make them.
    let mut alike: BTreeMap<(Vec<String>, String), ByFirst> = BTreeMap::new();
    for ((first, later), c) in &obs.chains {
        let mut parts = Vec::new();
        for (k, (ns, edge)) in c.dist.iter().enumerate() {
            let act = match (c.quiet.get(k), c.capture.get(k)) {
                (Some(true), Some(false)) => " to an empty square",
                (Some(false), Some(true)) => ", capturing there",
                (Some(true), Some(true)) => ", capturing there if an enemy stands there",
                _ => "",
            };
            parts.push((distance_words(ns, *edge), act));
        }
        let note = match (c.returns, c.quiet[0], c.capture[0]) {
            (false, ..) => "",
            (true, false, true) => " (igui: captures without moving)",
            (true, true, false) => " (a pass)",
            _ => " (igui, or a pass)",
        };
        let key: Vec<String> = parts.iter().map(|(d, a)| format!("{d}\u{0}{a}")).collect();
        alike
            .entry((key, note.to_string()))
            .or_default()
            .entry(*first)
            .or_default()
            .insert(later.clone());
    }
    let mut out = Vec::new();
    for ((parts, note), by_first) in alike {
        // First directions with the same set of turns make one sentence.
        let mut by_turns: BTreeMap<&BTreeSet<Vec<Heading>>, Vec<Heading>> = BTreeMap::new();
        for (first, turns) in &by_first {
            by_turns.entry(turns).or_default().push(*first);
        }
        for (turns, firsts) in by_turns {
            out.push(chain_sentence(&parts, &note, &firsts, turns));
        }
    }
    out
}

fn chain_sentence(
    parts: &[String],
    note: &str,
    firsts: &[Heading],
    turns: &BTreeSet<Vec<Heading>>,
) -> String {
    let vector = |h: &Heading| match *h {
        Heading::Dir(v) | Heading::Leap(v) => v,
        Heading::Turn(_) => Vec2::new(0, 0),
    };
    let mut dirs: Vec<Vec2> = firsts.iter().map(vector).collect();
    dirs.sort_by_key(|v| DIRS.iter().position(|d| d == v).unwrap_or(8));
    let mut words = Vec::new();
    for (k, part) in parts.iter().enumerate() {
        let (dist, act) = part.split_once('\u{0}').unwrap_or((part, ""));
        let way = if k == 0 {
            match dirs_words(&dirs, "/").as_str() {
                "in every direction" => "in any direction".to_string(),
                w => w.to_string(),
            }
        } else {
            let at_k: BTreeSet<i32> = turns
                .iter()
                .filter_map(|t| match t.get(k - 1) {
                    Some(Heading::Turn(n)) => Some(*n),
                    _ => None,
                })
                .collect();
            if at_k.is_empty() {
                "by a leap".into()
            } else {
                turn_words(&at_k)
            }
        };
        words.push(format!("{dist} {way}{act}"));
    }
    format!("{}{note}", words.join(", then "))
}

/// One line per group of single-leg moves that go alike, then one per multi-leg way.
fn words(obs: &Observed) -> Vec<String> {
    let mut groups: BTreeMap<((u8, i32), String), Vec<Vec2>> = BTreeMap::new();
    for l in &obs.lines {
        for (key, w) in line_words(l) {
            groups.entry((key, w)).or_default().push(l.dir);
        }
    }
    for (&v, &jumps) in &obs.leaps {
        let w = if jumps {
            "jumps"
        } else {
            "goes (blocked by a piece in the way)"
        };
        groups.entry(((5, 0), w.into())).or_default().push(v);
    }
    let mut out: Vec<String> = groups
        .into_iter()
        .map(|((_, w), mut vs)| {
            // As on a diagram: forward rows first, each from left to right.
            vs.sort_by_key(|v| (-v.y, v.x));
            let dirs = if vs.iter().all(|v| v.unit() == Some(*v)) {
                dirs_words(&vs, ", ")
            } else {
                vs.iter()
                    .map(|&v| vector_name(v))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{w}: {dirs}")
        })
        .collect();
    out.extend(chain_words(obs));
    out.extend(obs.shots.words());
    out
}

/// What its aura does to enemy pieces, in words (Kō shōgi's nets and fog), and whether it
/// shoots within an enemy fog.
fn aura_words(rules: &Rules, kind: KindId, obs: &Observed) -> Vec<String> {
    let cat = rules.catalogue();
    let k = cat.kind(kind);
    let mut out = Vec::new();
    if obs.freezes {
        let mut lines: Vec<Vec2> = obs
            .lines
            .iter()
            .filter(|l| l.slide > 1 || l.rider.is_some())
            .map(|l| l.dir)
            .collect();
        lines.sort_by_key(|v| (-v.y, v.x));
        out.push(format!(
            "freezes the first enemy piece on each line it ranges along ({}): that piece cannot move",
            dirs_words(&lines, ", ")
        ));
    }
    if obs.fog > 0 {
        let seers: Vec<String> = cat
            .kinds
            .iter()
            .filter(|o| o.sees_in_fog)
            .map(|o| o.name.clone())
            .collect();
        let except = match seers.len() {
            0 => String::new(),
            _ => format!(" (except the {})", or_list(&seers)),
        };
        out.push(format!(
            "fog: no enemy piece within {} of it may shoot{except}",
            squares(obs.fog)
        ));
    }
    if k.sees_in_fog && cat.kinds.iter().any(|o| o.fog > 0) && !obs.shots.reach.is_empty() {
        out.push("shoots within an enemy fog all the same".into());
    }
    out
}

/// How far the diagram must reach to show everything that does not go to the edge.
fn radius(obs: &Observed) -> i32 {
    let mut r = 2;
    for l in &obs.lines {
        if !l.to_edge {
            r = r.max(l.slide);
        }
        for &(k, on) in &l.leaps {
            r = r.max(k + on.unwrap_or(0));
        }
        for &(_, first, last) in &l.passes {
            r = r.max(last.unwrap_or(first));
        }
    }
    for v in obs.leaps.keys() {
        r = r.max(v.king_len());
    }
    for c in obs.chains.values() {
        if c.dist.iter().all(|(_, edge)| !edge) {
            r = r.max(c.far);
        }
    }
    for v in obs.shot_at.iter().chain(&obs.burnt_at) {
        r = r.max(v.king_len());
    }
    r = r.max(obs.fog);
    (r + 1).clamp(3, MAX_RADIUS)
}

fn diagram(obs: &Observed) -> String {
    let radius = radius(obs);
    let mut marks: BTreeMap<(i32, i32), Mark> = BTreeMap::new();
    let mut note = |v: Vec2, m: Mark| {
        if v.king_len() <= radius {
            let e = marks.entry((v.x, v.y)).or_insert(m);
            *e = (*e).min(m);
        }
    };
    for l in &obs.lines {
        let u = l.dir;
        let rides = matches!(l.rider, Some(Rider::Range | Rider::Hop(_)));
        for n in 1..=if rides { 0 } else { l.slide.min(radius) } {
            note(
                u.scale(n),
                if l.to_edge {
                    Mark::Line(line_glyph(u))
                } else {
                    Mark::Step
                },
            );
        }
        for &(k, on) in &l.leaps {
            for n in k..=k + on.unwrap_or(radius) {
                note(u.scale(n), Mark::Jump);
            }
        }
        for &(_, first, last) in &l.passes {
            for n in first..=last.unwrap_or(radius) {
                note(u.scale(n), Mark::Jump);
            }
        }
        let rider = match l.rider {
            Some(Rider::Range) => Some(Mark::Range),
            Some(_) => Some(Mark::Hop),
            None => None,
        };
        if let Some(m) = rider {
            for n in 1..=radius {
                note(u.scale(n), m);
            }
        }
    }
    for (&v, &jumps) in &obs.leaps {
        note(v, if jumps { Mark::Jump } else { Mark::Step });
    }
    for &v in &obs.multi_to {
        note(v, Mark::Second);
    }
    for &v in &obs.igui {
        note(v, Mark::Igui);
    }
    for &v in &obs.shot_at {
        note(v, Mark::Shot);
    }
    for &v in &obs.burnt_at {
        note(v, Mark::Burnt);
    }
    for y in -obs.fog..=obs.fog {
        for x in -obs.fog..=obs.fog {
            note(Vec2::new(x, y), Mark::Aura);
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

/// The diagram's key.
pub const LEGEND: &str = "☖ the piece (facing up)  ○ steps (or limited range)  │─╱╲ ranges any distance  ☆ jumps to\n\
◇ ranges jumping over pieces  ◆ range capture  ◎ reached by a multi-leg move  ! igui (captures there without moving)\n\
× a lone enemy here can be shot  ▒ a lone piece here is burnt  ░ its fog: no enemy shooter here may shoot";

/// How the piece captures, in words, from what the probes showed and the rule set.
fn capture_words(rules: &Rules, obs: &Observed, burns: bool) -> String {
    let mut ways = Vec::new();
    if burns {
        ways.push("by burning: wherever it lands, every piece next to it goes, its own too".into());
    }
    if obs.ends_on_enemy {
        ways.push("by moving onto an enemy piece".to_string());
    }
    if obs.takes_and_moves_on {
        let most = if obs.most_taken >= 2 {
            format!(" (up to {} captures a move)", obs.most_taken)
        } else {
            String::new()
        };
        ways.push(format!(
            "on the way of a multi-leg move, then moving on{most}"
        ));
    }
    if !obs.igui.is_empty() {
        ways.push("without moving (igui: a step out and back)".into());
    }
    if obs.range {
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
    if obs
        .lines
        .iter()
        .any(|l| matches!(l.rider, Some(Rider::Hop(_) | Rider::CaptureHop(_))))
    {
        ways.push("after jumping over pieces on its line".into());
    }
    if !obs.shots.reach.is_empty() {
        ways.push("by shooting, without moving there".into());
    }
    if ways.is_empty() {
        return "never".into();
    }
    ways.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn movement(code: &str) -> Movement {
        let rules = Rules::builtin("taikyoku", "wikipedia").unwrap();
        let k = rules.catalogue().by_code(code).unwrap();
        Movement::of(&rules, k)
    }

    #[test]
    fn words_and_diagram_of_a_gold_general() {
        let g = movement("G");
        assert_eq!(
            g.words,
            vec!["1 square: forward-left, forward, forward-right, left, right, backward",]
        );
        let rows: Vec<&str> = g.diagram.lines().collect();
        assert_eq!(rows.len(), 7);
        assert_eq!(rows[2], "· · ○ ○ ○ · ·");
        assert_eq!(rows[3], "· · ○ ☖ ○ · ·");
        assert_eq!(rows[4], "· · · ○ · · ·");
        assert_eq!(g.captures, "by moving onto an enemy piece");
    }
}

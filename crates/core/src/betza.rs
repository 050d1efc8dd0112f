//! The Betza/XBetza parser: turns a piece's movement string into [`Pattern`]s, the intermediate
//! form the move generator compiles. The accepted dialect is documented in `docs/betza.md`.

use crate::geometry::{MAX_SIDE, Vec2};
use std::fmt;

/// The most legs a move can have.
pub const MAX_LEGS: usize = 5;

/// The most stops a move makes on its way (between its legs): what a move holds.
pub const MAX_STOPS: usize = MAX_LEGS - 1;

/// The most rays a movement may compile to (every leg's every direction, after every direction
/// of the legs before it); the generator walks them all, so this bounds memory and time.
pub const MAX_RAYS: usize = 8192;

/// The most squares a movement's legs may visit from the centre of the largest board (every
/// stop of every leg, after every stop of the legs before it, on an empty board): the work
/// of generating its moves. Directions alone do not bound it: `(Q-Q-Q-Q)` has 4,680 rays
/// but visits about 4·10⁹ squares.
pub const MAX_VISITS: usize = 1 << 20;

/// A parse failure: what was expected, at which byte of the string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.offset + 1, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Why a leg's directions cannot be followed (a parse error says where).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LegError {
    #[error("direction letters after a leap that is not along a line")]
    AfterOblique,
    #[error("the direction letters select no move of this atom")]
    SelectsNothing,
    #[error("range capture (x) is supported only as a single-leg move")]
    RangeInChain,
}

/// One way a piece may move: a single leg, or several legs made in one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub legs: Vec<Leg>,
}

/// One leg of a move: which vectors, how far, what it may land on and how it treats pieces on
/// its way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    /// Base vectors, e.g. `(1,0)` for `W`; every rotation and reflection is meant.
    pub atoms: Vec<Vec2>,
    pub dirs: Dirs,
    /// Steps along the vector: 1 for a step or leap, `n` for a rider, 0 for unlimited.
    pub range: u8,
    pub mode: Mode,
    pub kind: LegKind,
    /// A shot (`!`): the leg captures where it ends without the piece going there; the piece
    /// stays where the leg started, and a later leg starts from there again.
    pub shoot: bool,
    /// The direction letters as written.
    pub letters: String,
}

/// What a leg's destination may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// May end on an empty square.
    pub quiet: bool,
    /// May end on (and capture) an enemy piece.
    pub capture: bool,
    /// May end on (and capture) a friendly piece.
    pub own: bool,
}

/// How a leg treats pieces between its start and its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegKind {
    /// Leapers ignore them; riders are blocked by the first one.
    Plain,
    /// A leaper blocked by pieces on the squares it crosses.
    Lame,
    /// A leaper blocked only by its own side's pieces on the squares it crosses (it leaps
    /// enemies): `~D`.
    LameByOwn,
    /// A rider that may pass over up to `n` pieces (`None`: any number).
    Hop(Option<u8>),
    /// A rider that flies over lower-ranked pieces (range capture).
    RangeCapture,
}

/// Direction selection of a leg: all vectors, or the letters given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dirs {
    All,
    /// Letters of the first leg, relative to the piece's forward direction.
    Absolute(Vec<Dir>),
    /// Letters of a later leg, relative to the previous leg's direction.
    Relative(Vec<Dir>),
}

/// A direction token: a single letter or a two-letter quadrant/compound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    F,
    B,
    L,
    R,
    V,
    S,
    FL,
    FR,
    BL,
    BR,
    FF,
    BB,
    FS,
    BS,
    LL,
    RR,
    LV,
    RV,
}

/// The shape of an atom's vectors, which decides how direction letters read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn shape(a: Vec2) -> Shape {
    if a.x == 0 || a.y == 0 {
        Shape::Orthogonal
    } else if a.x.abs() == a.y.abs() {
        Shape::Diagonal
    } else {
        Shape::Oblique
    }
}

/// All rotations and reflections of a base vector, without repeats, in a fixed order.
pub fn symmetries(a: Vec2) -> Vec<Vec2> {
    let mut out = Vec::with_capacity(8);
    for (x, y) in [
        (a.x, a.y),
        (a.y, a.x),
        (-a.y, a.x),
        (-a.x, a.y),
        (-a.x, -a.y),
        (-a.y, -a.x),
        (a.y, -a.x),
        (a.x, -a.y),
    ] {
        let v = Vec2::new(x, y);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

impl Dir {
    /// Whether vector `v`, split into `fwd`/`side` components (side > 0 = right) relative to the
    /// first leg's frame, is selected by this token (XBetza's absolute reading).
    fn selects_absolute(self, sh: Shape, fwd: i32, side: i32) -> bool {
        let narrow = fwd.abs() > side.abs();
        let wide = side.abs() > fwd.abs();
        match self {
            Dir::F => fwd > 0,
            Dir::B => fwd < 0,
            Dir::L => side < 0,
            Dir::R => side > 0,
            Dir::V if sh == Shape::Oblique => narrow,
            Dir::S if sh == Shape::Oblique => wide,
            Dir::V => fwd != 0,
            Dir::S => side != 0,
            Dir::FL => fwd > 0 && side < 0,
            Dir::FR => fwd > 0 && side > 0,
            Dir::BL => fwd < 0 && side < 0,
            Dir::BR => fwd < 0 && side > 0,
            Dir::FF => fwd > 0 && narrow,
            Dir::BB => fwd < 0 && narrow,
            Dir::FS => fwd > 0 && wide,
            Dir::BS => fwd < 0 && wide,
            Dir::LL => side < 0 && wide,
            Dir::RR => side > 0 && wide,
            Dir::LV => side < 0 && narrow,
            Dir::RV => side > 0 && narrow,
        }
    }

    /// Whether a vector at `turn` eighths of a circle counter-clockwise from the previous leg's
    /// direction is selected (the relative, compass reading of later legs).
    fn selects_turn(self, turn: i32) -> bool {
        match self {
            Dir::F => turn == 0,
            Dir::B => turn == 4,
            Dir::L => turn == 2,
            Dir::R => turn == 6,
            Dir::V => turn == 0 || turn == 4,
            Dir::S => turn == 2 || turn == 6,
            Dir::FL => turn == 1,
            Dir::FR => turn == 7,
            Dir::BL => turn == 3,
            Dir::BR => turn == 5,
            _ => false,
        }
    }
}

/// The eighth-turn index (0..8, counter-clockwise from +x) of a vector on an orthogonal or
/// diagonal line.
pub fn octant(v: Vec2) -> Option<i32> {
    let u = v.unit()?;
    Some(match (u.x, u.y) {
        (1, 0) => 0,
        (1, 1) => 1,
        (0, 1) => 2,
        (-1, 1) => 3,
        (-1, 0) => 4,
        (-1, -1) => 5,
        (0, -1) => 6,
        _ => 7,
    })
}

impl Leg {
    /// The vectors of this leg. For the first leg they are in the piece's frame (x = its right,
    /// y = its forward); for a later leg, `previous` is the board vector of the leg before and the
    /// result is in board coordinates. Errors when the letters select nothing.
    pub fn vectors(&self, previous: Option<Vec2>) -> Result<Vec<Vec2>, LegError> {
        let mut out = Vec::new();
        for &atom in &self.atoms {
            let sh = shape(atom);
            for v in symmetries(atom) {
                let keep = match (&self.dirs, previous) {
                    (Dirs::All, _) => true,
                    (Dirs::Absolute(ds), _) => ds.iter().any(|d| d.selects_absolute(sh, v.y, v.x)),
                    (Dirs::Relative(ds), Some(p)) => match (octant(v), octant(p)) {
                        (Some(a), Some(b)) => {
                            let turn = (a - b).rem_euclid(8);
                            ds.iter().any(|d| d.selects_turn(turn))
                        }
                        (None, None) => after_oblique(&self.letters, p, v),
                        _ => {
                            return Err(LegError::AfterOblique);
                        }
                    },
                    (Dirs::Relative(_), None) => false,
                };
                if keep && !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        if out.is_empty() {
            return Err(LegError::SelectsNothing);
        }
        Ok(out)
    }

    /// Whether this leg can go further than one step of its vectors.
    pub fn is_rider(&self) -> bool {
        self.range != 1
    }
}

/// Whether a later leg's `letters` select oblique vector `v` after the oblique leap `p`.
/// Single letters turn the leap as a whole: `f` the same leap again, `b` straight back, `l`/`r`
/// turned 90°, `v`/`s` either; two letters read in the frame whose forward is the leap's
/// longer component and right its shorter one: `ff` = the two leaps in the same orthogonal
/// sense (Kō shōgi's cavalry), `bb` the two back, `fs` = `ff`'s wide pair, and so on.
fn after_oblique(letters: &str, p: Vec2, v: Vec2) -> bool {
    let (fwd, right) = if p.y.abs() > p.x.abs() {
        (Vec2::new(0, p.y.signum()), Vec2::new(p.x.signum(), 0))
    } else {
        (Vec2::new(p.x.signum(), 0), Vec2::new(0, p.y.signum()))
    };
    let f = v.x * fwd.x + v.y * fwd.y;
    let s = v.x * right.x + v.y * right.y;
    let left = Vec2::new(-p.y, p.x);
    split_tokens(letters, true, true).iter().any(|d| match d {
        Dir::F => v == p,
        Dir::B => v == p.scale(-1),
        Dir::L => v == left,
        Dir::R => v == left.scale(-1),
        Dir::V => v == p || v == p.scale(-1),
        Dir::S => v == left || v == left.scale(-1),
        _ => d.selects_absolute(Shape::Oblique, f, s),
    })
}

/// Parses a movement string into its patterns.
pub fn parse(s: &str) -> Result<Vec<Pattern>, ParseError> {
    let mut p = Parser {
        s: s.as_bytes(),
        i: 0,
    };
    let mut out = Vec::new();
    p.skip_ws();
    if p.at_end() {
        return Err(p.err("an empty movement; expected at least one atom such as W, F or R"));
    }
    let (mut rays, mut visits) = (0, 0);
    while !p.at_end() {
        let start = p.i;
        let before = out.len();
        if p.peek() == Some(b'(') && !p.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            out.push(p.chain()?);
        } else {
            for leg in p.leg(true)?.0 {
                out.push(Pattern { legs: vec![leg] });
            }
        }
        rays += ray_bound(&out[before..]);
        visits += visit_bound(&out[before..], MAX_VISITS - visits);
        let too_large = match () {
            _ if rays > MAX_RAYS => format!("more than {MAX_RAYS} directions to follow in all"),
            _ if visits > MAX_VISITS => format!(
                "more than {MAX_VISITS} squares to visit in all from the middle of a \
                 {MAX_SIDE}×{MAX_SIDE} board"
            ),
            _ => String::new(),
        };
        if !too_large.is_empty() {
            return Err(ParseError {
                offset: start,
                message: format!("the movement is too large: {too_large}"),
            });
        }
        p.skip_ws();
    }
    Ok(out)
}

/// At most how many rays these patterns compile to (per side).
pub fn ray_bound(patterns: &[Pattern]) -> usize {
    patterns.iter().map(Pattern::ray_bound).sum()
}

/// How many squares these patterns' legs visit from the centre of the largest board,
/// counted up to just over `cap` (the count stops there, so that counting is bounded too).
pub fn visit_bound(patterns: &[Pattern], cap: usize) -> usize {
    let mut count = 0;
    for p in patterns {
        let centre = Vec2::new(i32::from(MAX_SIDE) / 2, i32::from(MAX_SIDE) / 2);
        p.visit(0, centre, None, cap, &mut count);
        if count > cap {
            break;
        }
    }
    count
}

impl Pattern {
    /// Counts into `count` (up to just over `cap`) the squares legs `k..` visit from `at` on
    /// an empty board of the largest size, `previous` the direction of leg `k - 1`. Every
    /// rider slides to the edge (a hopper could, over pieces); a shot's next leg starts
    /// where the shot did.
    fn visit(&self, k: usize, at: Vec2, previous: Option<Vec2>, cap: usize, count: &mut usize) {
        let Some(leg) = self.legs.get(k) else { return };
        // Directions that select nothing are refused elsewhere, with their place.
        let Ok(vectors) = leg.vectors(previous) else {
            return;
        };
        let side = i32::from(MAX_SIDE);
        for v in vectors {
            let (mut sq, mut steps) = (at, 0);
            loop {
                sq = sq + v;
                steps += 1;
                let on_board = (0..side).contains(&sq.x) && (0..side).contains(&sq.y);
                if !on_board || (leg.range != 0 && steps > u32::from(leg.range)) {
                    break;
                }
                *count += 1;
                if *count > cap {
                    return;
                }
                let next = if leg.shoot { at } else { sq };
                self.visit(k + 1, next, Some(v), cap, count);
            }
        }
    }

    /// Checks what the generator would refuse when compiling a multi-leg move, so that the
    /// error can say where: range capture in a chain, and later legs whose letters select
    /// nothing after some direction of the leg before. Errs with the leg's index.
    fn check_chain(&self) -> Result<(), (usize, LegError)> {
        let mut previous: Vec<Vec2> = Vec::new();
        for (k, leg) in self.legs.iter().enumerate() {
            if leg.kind == LegKind::RangeCapture {
                return Err((k, LegError::RangeInChain));
            }
            let next = if k == 0 {
                leg.vectors(None).map_err(|e| (k, e))?
            } else {
                let mut next = Vec::new();
                for &p in &previous {
                    for v in leg.vectors(Some(p)).map_err(|e| (k, e))? {
                        if !next.contains(&v) {
                            next.push(v);
                        }
                    }
                }
                next
            };
            previous = next;
        }
        Ok(())
    }

    /// At most how many rays this pattern compiles to: the product of its legs' directions.
    fn ray_bound(&self) -> usize {
        let mut paths = 1usize;
        let mut total = 0usize;
        for leg in &self.legs {
            let dirs: usize = leg.atoms.iter().map(|&a| symmetries(a).len()).sum();
            paths = paths.saturating_mul(dirs);
            total = total.saturating_add(paths);
        }
        total
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

#[derive(Default)]
struct Modifiers {
    dirs: String,
    quiet: bool,
    capture: bool,
    own: bool,
    lame: bool,
    /// `~`: lame for its own side's pieces only.
    friend_lame: bool,
    range_capture: bool,
    shoot: bool,
    hop: Option<Option<u8>>,
    start: usize,
}

impl Parser<'_> {
    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }
    /// The whole character at the current byte (not its first byte, which for a non-ASCII
    /// character would print as something else).
    fn char_here(&self) -> char {
        let rest = &self.s[self.i..];
        let len = rest.len().min(4);
        (1..=len)
            .find_map(|n| std::str::from_utf8(&rest[..n]).ok())
            .and_then(|t| t.chars().next())
            .unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    fn err(&self, msg: impl Into<String>) -> ParseError {
        ParseError {
            offset: self.i,
            message: msg.into(),
        }
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        (self.i > start).then(|| {
            std::str::from_utf8(&self.s[start..self.i])
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or(u32::MAX)
        })
    }

    /// `(leg-leg-…)`
    fn chain(&mut self) -> Result<Pattern, ParseError> {
        let open = self.i;
        self.i += 1;
        let mut legs = Vec::new();
        let mut starts = Vec::new();
        loop {
            if legs.len() == MAX_LEGS {
                return Err(self.err(format!(
                    "a move has at most {MAX_LEGS} legs ({MAX_STOPS} stops on its way); this is leg {}",
                    MAX_LEGS + 1
                )));
            }
            starts.push(self.i);
            let (mut parts, explicit) = self.leg(false)?;
            let mut leg = parts.remove(0);
            if !explicit {
                // Until we know whether it is the last leg, remember "no mode letters" as quiet.
                leg.mode.capture = false;
            }
            legs.push((leg, explicit));
            match self.peek() {
                Some(b'-') => self.i += 1,
                Some(b')') => {
                    self.i += 1;
                    break;
                }
                None => {
                    return Err(ParseError {
                        offset: open,
                        message: "this '(' is never closed; expected ')'".into(),
                    });
                }
                Some(_) => return Err(self.err("expected '-' (next leg) or ')' (end of the move)")),
            }
        }
        if legs.len() < 2 {
            return Err(ParseError {
                offset: open,
                message: "a parenthesised move needs at least two legs, e.g. (D-fR)".into(),
            });
        }
        let last = legs.len() - 1;
        let legs = legs
            .into_iter()
            .enumerate()
            .map(|(k, (mut leg, explicit))| {
                // A leg other than the last must end on an empty square unless it says otherwise;
                // the last leg may end on an empty square or capture.
                if k == last && !explicit {
                    leg.mode.capture = true;
                }
                if k > 0 && !leg.letters.is_empty() {
                    leg.dirs = Dirs::Relative(relative_tokens(&leg.letters));
                }
                leg
            })
            .collect();
        let pattern = Pattern { legs };
        pattern.check_chain().map_err(|(k, e)| ParseError {
            offset: starts[k],
            message: e.to_string(),
        })?;
        Ok(pattern)
    }

    fn modifiers(&mut self) -> Result<Modifiers, ParseError> {
        let mut m = Modifiers {
            start: self.i,
            ..Default::default()
        };
        while let Some(c) = self.peek() {
            match c {
                b'f' | b'b' | b'l' | b'r' | b'v' | b's' => m.dirs.push(c as char),
                b'm' => m.quiet = true,
                b'c' => m.capture = true,
                b'd' => m.own = true,
                b'n' => m.lame = true,
                b'~' => m.friend_lame = true,
                b'x' => m.range_capture = true,
                b'!' => m.shoot = true,
                b'p' => {
                    self.i += 1;
                    let n = self.number();
                    m.hop = Some(match n {
                        None => None,
                        Some(n @ 1..=99) => Some(n as u8),
                        Some(_) => return Err(self.err("a hop count must be between 1 and 99")),
                    });
                    continue;
                }
                b'a' | b'g' | b'i' | b'e' | b'u' | b'k' | b'o' | b'q' | b'z' | b'y' | b'j'
                | b't' | b'h' | b'w' => {
                    return Err(self.err(format!(
                        "unsupported modifier '{}' (see docs/betza.md for the dialect)",
                        c as char
                    )));
                }
                _ => break,
            }
            self.i += 1;
        }
        Ok(m)
    }

    /// Modifiers, atom and range. A compound atom (`K`, `Q`) makes one leg with two base
    /// vectors; at top level (`split`) it is split into one pattern per base vector so that each
    /// reads its letters by its own shape.
    fn leg(&mut self, split: bool) -> Result<(Vec<Leg>, bool), ParseError> {
        let m = self.modifiers()?;
        let (atoms, range) = self.atom()?;
        let kind = m.kind(range, &atoms)?;
        if m.shoot && (m.quiet || kind == LegKind::RangeCapture) {
            return Err(m.err("a shot (!) only captures: no m or x with it"));
        }
        // A shot always captures: it has no mode letters to wait for.
        let explicit = m.quiet || m.capture || m.own || m.shoot;
        let make = |atoms: Vec<Vec2>| Leg {
            dirs: m.dirs_for(&atoms),
            atoms,
            range,
            mode: m.mode(explicit),
            kind,
            shoot: m.shoot,
            letters: m.dirs.clone(),
        };
        let legs: Vec<Leg> = if split && atoms.len() > 1 {
            atoms.iter().map(|&a| make(vec![a])).collect()
        } else {
            vec![make(atoms)]
        };
        // Reject letter sets that select nothing now, with the position of the letters.
        for leg in &legs {
            if matches!(leg.dirs, Dirs::Absolute(_))
                && let Err(e) = leg.vectors(None)
            {
                return Err(m.err(e.to_string()));
            }
        }
        Ok((legs, explicit))
    }

    /// An atom (a letter, or a leaper `(x,y)`), doubled for a rider, and its range.
    fn atom(&mut self) -> Result<(Vec<Vec2>, u8), ParseError> {
        let Some(c) = self.peek() else {
            return Err(
                self.err("expected an atom (W, F, D, N, A, H, C, Z, G, K, R, B, Q or (x,y))")
            );
        };
        let (atoms, mut range) = if c == b'(' {
            (vec![self.leaper()?], 1)
        } else {
            let atom = self.letter_atom(c)?;
            self.i += 1;
            atom
        };
        // Doubling an atom (seed 000's `WW`) makes it an unlimited rider.
        if c != b'('
            && self.peek() == Some(c)
            && matches!(c, b'W' | b'F' | b'D' | b'A' | b'H' | b'G' | b'N')
        {
            self.i += 1;
            range = 0;
        }
        if let Some(n) = self.number() {
            if n > 99 {
                return Err(self.err("a range must be at most 99"));
            }
            range = n as u8;
        }
        Ok((atoms, range))
    }

    /// A leaper written `(x,y)`.
    fn leaper(&mut self) -> Result<Vec2, ParseError> {
        let atom_at = self.i;
        self.i += 1;
        let a = self.number();
        let comma = self.peek() == Some(b',');
        self.i += comma as usize;
        let b = self.number();
        let at = |message: &str| ParseError {
            offset: atom_at,
            message: message.into(),
        };
        if a.is_none() || !comma || b.is_none() || self.peek() != Some(b')') {
            return Err(at(
                "expected a leaper such as (4,4): '(' number ',' number ')'",
            ));
        }
        self.i += 1;
        let (a, b) = (a.unwrap_or(0) as i32, b.unwrap_or(0) as i32);
        if (a == 0 && b == 0) || a > 35 || b > 35 {
            return Err(at("a leaper's vector must be non-zero and at most 35"));
        }
        Ok(Vec2::new(a, b))
    }

    /// The base vectors and range of an atom letter.
    fn letter_atom(&self, c: u8) -> Result<(Vec<Vec2>, u8), ParseError> {
        let v = Vec2::new;
        Ok(match c {
            b'W' => (vec![v(1, 0)], 1),
            b'F' => (vec![v(1, 1)], 1),
            b'D' => (vec![v(2, 0)], 1),
            b'N' => (vec![v(2, 1)], 1),
            b'A' => (vec![v(2, 2)], 1),
            b'H' => (vec![v(3, 0)], 1),
            b'C' => (vec![v(3, 1)], 1),
            b'Z' => (vec![v(3, 2)], 1),
            b'G' => (vec![v(3, 3)], 1),
            b'K' => (vec![v(1, 0), v(1, 1)], 1),
            b'R' => (vec![v(1, 0)], 0),
            b'B' => (vec![v(1, 1)], 0),
            b'Q' => (vec![v(1, 0), v(1, 1)], 0),
            b'L' | b'J' | b'E' | b'O' | b'M' | b'I' | b'P' | b'S' | b'T' | b'U' | b'V' | b'X'
            | b'Y' => {
                return Err(self.err(format!(
                    "unsupported atom '{}' (see docs/betza.md for the dialect)",
                    c as char
                )));
            }
            _ => {
                return Err(self.err(format!(
                    "unexpected '{}'; expected an atom (W, F, D, N, A, H, C, Z, G, K, R, B, Q or (x,y))",
                    self.char_here()
                )));
            }
        })
    }
}

impl Modifiers {
    /// An error at the modifiers.
    fn err(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            offset: self.start,
            message: message.into(),
        }
    }

    /// How the leg treats pieces on its way, checked against its atom and range.
    fn kind(&self, range: u8, atoms: &[Vec2]) -> Result<LegKind, ParseError> {
        let kind = match (self.lame, self.friend_lame, self.range_capture, self.hop) {
            (false, false, false, None) => LegKind::Plain,
            (true, false, false, None) => LegKind::Lame,
            (false, true, false, None) => LegKind::LameByOwn,
            (false, false, true, None) => LegKind::RangeCapture,
            (false, false, false, Some(h)) => LegKind::Hop(h),
            _ => {
                return Err(self
                    .err("at most one of n or ~ (lame), x (range capture) and p (hop) per atom"));
            }
        };
        let lame = matches!(kind, LegKind::Lame | LegKind::LameByOwn);
        if lame && (range != 1 || atoms.iter().any(|a| a.king_len() < 2)) {
            return Err(self
                .err("n and ~ (lame) apply to a single leap of two or more squares, such as nD"));
        }
        if matches!(kind, LegKind::RangeCapture | LegKind::Hop(_)) && range == 1 {
            return Err(self.err("x (range capture) and p (hop) apply to riders such as R or B"));
        }
        Ok(kind)
    }

    /// What the leg's destination may hold; without mode letters (`explicit` false), an empty
    /// square or an enemy.
    fn mode(&self, explicit: bool) -> Mode {
        if self.shoot {
            Mode {
                quiet: false,
                capture: true,
                own: self.own,
            }
        } else if !explicit {
            Mode {
                quiet: true,
                capture: true,
                own: false,
            }
        } else {
            Mode {
                quiet: self.quiet,
                capture: self.capture,
                own: self.own,
            }
        }
    }

    /// The directions the letters select for these atoms.
    fn dirs_for(&self, atoms: &[Vec2]) -> Dirs {
        if self.dirs.is_empty() {
            Dirs::All
        } else {
            Dirs::Absolute(tokens(&self.dirs, atoms))
        }
    }
}

/// Splits direction letters into tokens. Two letters form one quadrant token when the atom has
/// vectors there (diagonal and oblique atoms); otherwise letters stand alone and are unions.
fn tokens(letters: &str, atoms: &[Vec2]) -> Vec<Dir> {
    let shapes: Vec<Shape> = atoms.iter().map(|&a| shape(a)).collect();
    let oblique = shapes.contains(&Shape::Oblique);
    let quadrant = shapes.iter().all(|&s| s != Shape::Orthogonal);
    split_tokens(letters, quadrant, oblique)
}

/// A later leg's letters: single letters, and `fl fr bl br` (either order) for 45° turns.
fn relative_tokens(letters: &str) -> Vec<Dir> {
    split_tokens(letters, true, false)
}

/// Tokens of a letter string: quadrant pairs (`fl`…) when `quadrant`, the doubled and mixed
/// pairs of oblique atoms (`ff`, `fs`…) when `oblique`, single letters otherwise.
fn split_tokens(letters: &str, quadrant: bool, oblique: bool) -> Vec<Dir> {
    let b = letters.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let pair = b.get(i + 1).map(|&n| (b[i], n));
        let two = match pair {
            Some((b'f', b'l')) | Some((b'l', b'f')) if quadrant => Some(Dir::FL),
            Some((b'f', b'r')) | Some((b'r', b'f')) if quadrant => Some(Dir::FR),
            Some((b'b', b'l')) | Some((b'l', b'b')) if quadrant => Some(Dir::BL),
            Some((b'b', b'r')) | Some((b'r', b'b')) if quadrant => Some(Dir::BR),
            Some((b'f', b'f')) if oblique => Some(Dir::FF),
            Some((b'b', b'b')) if oblique => Some(Dir::BB),
            Some((b'f', b's')) if oblique => Some(Dir::FS),
            Some((b'b', b's')) if oblique => Some(Dir::BS),
            Some((b'l', b'l')) if oblique => Some(Dir::LL),
            Some((b'r', b'r')) if oblique => Some(Dir::RR),
            Some((b'l', b'v')) if oblique => Some(Dir::LV),
            Some((b'r', b'v')) if oblique => Some(Dir::RV),
            _ => None,
        };
        match two {
            Some(t) => {
                out.push(t);
                i += 2;
            }
            None => {
                out.push(single(b[i]));
                i += 1;
            }
        }
    }
    out
}

fn single(c: u8) -> Dir {
    match c {
        b'f' => Dir::F,
        b'b' => Dir::B,
        b'l' => Dir::L,
        b'r' => Dir::R,
        b'v' => Dir::V,
        _ => Dir::S,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first-leg vectors of every pattern, in the piece's frame, with each leg's range.
    fn first_legs(s: &str) -> Vec<(i32, i32, u8)> {
        let mut out: Vec<(i32, i32, u8)> = parse(s)
            .unwrap()
            .iter()
            .filter(|p| p.legs.len() == 1)
            .flat_map(|p| {
                let leg = &p.legs[0];
                leg.vectors(None)
                    .unwrap()
                    .into_iter()
                    .map(move |v| (v.x, v.y, leg.range))
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn simple_atoms_and_directions() {
        assert_eq!(first_legs("fW"), vec![(0, 1, 1)]);
        assert_eq!(first_legs("ffN"), vec![(-1, 2, 1), (1, 2, 1)]);
        assert_eq!(first_legs("bbN"), vec![(-1, -2, 1), (1, -2, 1)]);
        assert_eq!(first_legs("fsN"), vec![(-2, 1, 1), (2, 1, 1)]);
        assert_eq!(first_legs("vN").len(), 4);
        assert_eq!(first_legs("flF"), vec![(-1, 1, 1)]);
        assert_eq!(first_legs("fF"), vec![(-1, 1, 1), (1, 1, 1)]);
        // W letters are unions.
        assert_eq!(first_legs("fsW"), vec![(-1, 0, 1), (0, 1, 1), (1, 0, 1)]);
        assert_eq!(first_legs("vrR"), vec![(0, -1, 0), (0, 1, 0), (1, 0, 0)]);
        // On a diagonal atom v and s are unions of half-planes: all four diagonals.
        assert_eq!(first_legs("vF").len(), 4);
    }

    #[test]
    fn compound_atoms_read_letters_per_part() {
        // Drunken elephant: every step but straight back.
        let de = first_legs("fsK");
        assert_eq!(de.len(), 7);
        assert!(!de.contains(&(0, -1, 1)));
        // Ferocious leopard: forward, backward and the four diagonals.
        assert_eq!(
            first_legs("vK"),
            vec![
                (-1, -1, 1),
                (-1, 1, 1),
                (0, -1, 1),
                (0, 1, 1),
                (1, -1, 1),
                (1, 1, 1)
            ]
        );
        assert_eq!(first_legs("bK"), vec![(-1, -1, 1), (0, -1, 1), (1, -1, 1)]);
        assert_eq!(first_legs("K2").len(), 8);
        assert!(first_legs("Q").iter().all(|&(_, _, r)| r == 0));
    }

    #[test]
    fn ranges_and_doubling() {
        assert_eq!(first_legs("fR2"), vec![(0, 1, 2)]);
        assert_eq!(first_legs("WW").len(), 4);
        assert!(first_legs("WW").iter().all(|&(_, _, r)| r == 0));
        assert_eq!(first_legs("fF3"), vec![(-1, 1, 3), (1, 1, 3)]);
        assert_eq!(first_legs("R0"), first_legs("R"));
        assert_eq!(first_legs("(4,4)").len(), 4);
        assert_eq!(first_legs("f(4,4)"), vec![(-4, 4, 1), (4, 4, 1)]);
        assert_eq!(first_legs("(4,1)").len(), 8);
    }

    #[test]
    fn modes_and_kinds() {
        let p = parse("mfWcfF").unwrap();
        assert_eq!(
            p[0].legs[0].mode,
            Mode {
                quiet: true,
                capture: false,
                own: false
            }
        );
        assert!(!p[1].legs[0].mode.quiet && p[1].legs[0].mode.capture);
        assert_eq!(parse("fnD").unwrap()[0].legs[0].kind, LegKind::Lame);
        assert_eq!(parse("~D").unwrap()[0].legs[0].kind, LegKind::LameByOwn);
        assert_eq!(
            parse("(mc~D-F)").unwrap()[0].legs[0].kind,
            LegKind::LameByOwn
        );
        assert_eq!(
            parse("p3fB").unwrap()[0].legs[0].kind,
            LegKind::Hop(Some(3))
        );
        assert_eq!(parse("pvR").unwrap()[0].legs[0].kind, LegKind::Hop(None));
        assert_eq!(parse("xB").unwrap()[0].legs[0].kind, LegKind::RangeCapture);
        assert!(parse("cdR").unwrap()[0].legs[0].mode.own);
    }

    #[test]
    fn chains_default_to_quiet_and_read_later_letters_relatively() {
        let p = parse("R(R-sR)").unwrap();
        assert_eq!(p.len(), 2);
        let hook = &p[1];
        assert!(hook.legs[0].mode.quiet && !hook.legs[0].mode.capture);
        assert!(matches!(hook.legs[1].dirs, Dirs::Relative(_)));
        let up = Vec2::new(0, 1);
        let mut turns = hook.legs[1].vectors(Some(up)).unwrap();
        turns.sort();
        assert_eq!(turns, vec![Vec2::new(-1, 0), Vec2::new(1, 0)]);
        // Igui: back is exactly back, also after a diagonal step.
        let igui = &parse("(cK-bK)").unwrap()[0];
        assert_eq!(
            igui.legs[1].vectors(Some(Vec2::new(1, 1))).unwrap(),
            vec![Vec2::new(-1, -1)]
        );
        assert!(igui.legs[0].mode.capture && !igui.legs[0].mode.quiet);
        // Straight on after a leap: the unit direction of the leap.
        let jump = &parse("(D-fR)").unwrap()[0];
        assert_eq!(
            jump.legs[1].vectors(Some(Vec2::new(0, -2))).unwrap(),
            vec![Vec2::new(0, -1)]
        );
        // No letters: every direction.
        let lion = &parse("(cK-K)").unwrap()[0];
        assert_eq!(lion.legs[1].vectors(Some(up)).unwrap().len(), 8);
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse("fWq").unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("unsupported modifier 'q'"), "{e}");
        let e = parse("fW3Y").unwrap_err();
        assert_eq!(e.offset, 3);
        let e = parse("(D-fR").unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.message.contains("never closed"));
        assert!(parse("").is_err());
        assert!(parse("(D)").unwrap_err().message.contains("two legs"));
        assert!(parse("nW").unwrap_err().message.contains("lame"));
        assert!(parse("~R").unwrap_err().message.contains("lame"));
        assert!(parse("n~D").unwrap_err().message.contains("at most one"));
        assert!(parse("xW").unwrap_err().message.contains("riders"));
        assert!(parse("(4,)").unwrap_err().message.contains("leaper"));
        assert!(parse("ffW").is_ok());
        assert!(parse("aW").unwrap_err().message.contains("unsupported"));
    }

    #[test]
    fn relative_letters_that_select_nothing_are_errors() {
        // A 45° turn of a rook leg does not exist.
        assert!(parse("(R-flR)").is_err());
        // Letters after a knight leap have no line to be relative to.
        assert!(parse("(N-fR)").is_err());
        // A 45° turn of a king step does.
        let p = parse("(K-flK)").unwrap();
        assert_eq!(
            p[0].legs[1].vectors(Some(Vec2::new(0, 1))).unwrap(),
            vec![Vec2::new(-1, 1)]
        );
    }

    #[test]
    fn moves_beyond_what_the_generator_holds_are_refused_where_they_start() {
        assert!(parse("(W-W-W-W-W)").is_ok());
        let e = parse("(K-K-K-K-K-K-K-K)").unwrap_err();
        assert_eq!(e.offset, 11, "{e}");
        assert!(e.message.contains("at most 5 legs"), "{e}");
        // A huge chain fails at its sixth leg, without reading (or recursing into) the rest.
        let long = format!("({}K)", "K-".repeat(40_000));
        assert_eq!(parse(&long).unwrap_err().offset, 11);
        // Many patterns: bounded in total.
        let many = "(K-K-K-K)".repeat(20);
        let e = parse(&many).unwrap_err();
        assert!(e.message.contains("directions to follow"), "{e}");
        assert!(e.offset > 0 && e.offset.is_multiple_of(9), "{e}");
    }

    /// Few directions can still mean too much work: riders after riders visit the board's
    /// every square from every square they stop on. Refused at once, without walking them.
    #[test]
    fn movements_that_visit_too_many_squares_are_refused_quickly() {
        let start = std::time::Instant::now();
        for (movement, offset) in [
            ("(Q-Q-Q-Q)", 0),
            ("(mcQ-mcQ-mcQ-mcQ)", 0),
            ("(R-R-R-R)", 0),
            ("(Q-Q-Q)", 0),
            (
                "K(R-R-K)(R-R-K)(R-R-K)(R-R-K)(R-R-K)(R-R-K)(R-R-K)(R-R-K)",
                50,
            ),
        ] {
            let e = parse(movement).unwrap_err();
            assert!(e.message.contains("squares to visit"), "{movement}: {e}");
            assert_eq!(e.offset, offset, "{movement}: {e}");
        }
        assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
        // The largest real movement (Kō shōgi's) visits 68,268: well within.
        let real = parse("mR5(mR5-!Q7)(mR5-!Q7-!Q7)!Q7(!Q7-!Q7)").unwrap();
        assert_eq!(visit_bound(&real, usize::MAX), 68_268);
        assert_eq!(visit_bound(&parse("R(R-sR)").unwrap(), usize::MAX), 8190);
    }

    #[test]
    fn what_would_not_compile_is_refused_with_its_place() {
        let e = parse("W(N-lR)").unwrap_err();
        assert_eq!(e.offset, 4, "{e}");
        assert!(e.message.contains("not along a line"), "{e}");
        let e = parse("(K-xR)").unwrap_err();
        assert_eq!(e.offset, 3, "{e}");
        assert!(e.message.contains("single-leg"), "{e}");
        let e = parse("(R-flR)").unwrap_err();
        assert!(e.message.contains("select no move"), "{e}");
        assert_eq!(e.offset, 3);
    }

    #[test]
    fn a_non_ascii_character_is_shown_whole() {
        let e = parse("fW獅").unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("unexpected '獅'"), "{e}");
    }
}

//! A piece being moved leg by leg: the stops entered so far, then where it lands, then the
//! shots it fires from there, one at a time (Kō shōgi's bows and cannons). Every choice is
//! checked against the piece's generated moves; a menu is offered only where one square ends
//! the move in ways that take different pieces.

use super::msg::Msg;
use super::preview;
use taikyoku_core::geometry::Square;
use taikyoku_core::moves::Move;
use taikyoku_core::reach::{self, split};
use taikyoku_records::history::History;

/// A piece chosen to move, and the legs entered so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    pub from: Square,
    /// The stops entered before the landing.
    pub legs: Vec<Square>,
    /// Every legal move of the piece, by every path.
    pub moves: Vec<Move>,
    /// Once chosen: where the piece lands while its shots are still to choose.
    pub landing: Option<Landing>,
}

/// Where the piece lands, the moves that land there (taking the same pieces before it
/// shoots), and the shots chosen so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Landing {
    pub at: Square,
    pub moves: Vec<Move>,
    pub shots: Vec<Square>,
}

impl Landing {
    /// The moves that fire the shots chosen so far first.
    fn live(&self) -> impl Iterator<Item = &Move> {
        self.moves
            .iter()
            .filter(|m| split(m).1.starts_with(&self.shots))
    }

    /// The moves that fire exactly the shots chosen so far (and, with `next`, that one more).
    fn ending(&self, next: Option<Square>) -> Vec<Move> {
        let mut want = self.shots.clone();
        want.extend(next);
        self.moves
            .iter()
            .filter(|m| split(m).1 == &want[..])
            .copied()
            .collect()
    }
}

impl Selection {
    pub fn new(from: Square, moves: Vec<Move>) -> Selection {
        Selection {
            from,
            legs: Vec::new(),
            moves,
            landing: None,
        }
    }

    /// The moves that go through the legs entered so far.
    pub fn candidates(&self) -> impl Iterator<Item = &Move> {
        self.moves
            .iter()
            .filter(|m| split(m).0.starts_with(&self.legs))
    }

    /// The squares entered so far: stops, the landing, the shots.
    pub fn entered(&self) -> Vec<Square> {
        let mut out = self.legs.clone();
        if let Some(l) = &self.landing {
            out.push(l.at);
            out.extend(&l.shots);
        }
        out
    }

    /// The board's marks for what can come next.
    pub fn marks(&self, h: &History) -> Vec<(Square, u16)> {
        let (rules, pos) = (h.rules(), h.position());
        match &self.landing {
            Some(l) => reach::reach_shots(rules, pos, &l.moves, &l.shots),
            None => reach::reach(rules, pos, self.candidates(), self.legs.len()),
        }
    }

    /// The ways the move can end on `sq` after the legs entered, and whether it can go on
    /// from there.
    fn endings_at(&self, h: &History, sq: Square) -> (Vec<preview::Ending>, bool) {
        let k = self.legs.len();
        let ends = preview::endings(h, self.candidates().filter(|m| split(m).0.len() >= k), sq);
        let goes_on = self.candidates().any(|m| split(m).0.get(k) == Some(&sq));
        (ends, goes_on)
    }

    /// Enter on `sq`: the next leg, the landing, a shot, or the end of the move. `None` when
    /// nothing fits (the board explains why).
    pub fn choose(&mut self, h: &History, sq: Square) -> Option<Msg> {
        let name = h.rules().dims().square_name(sq);
        if self.landing.is_some() {
            return Some(self.shoot(h, sq));
        }
        let k = self.legs.len();
        // Choosing the last stop again ends the move there.
        if k > 0 && self.legs[k - 1] == sq {
            let back = self
                .moves
                .iter()
                .filter(|m| split(m).0 == &self.legs[..k - 1]);
            if let [one] = &preview::endings(h, back, sq)[..] {
                return self.land(h, one.moves.clone());
            }
        }
        match self.endings_at(h, sq) {
            (ends, _) if ends.len() == 1 => self.land(h, ends[0].moves.clone()),
            (ends, true) if ends.is_empty() => {
                self.legs.push(sq);
                Some(Msg::Say(format!("Through {name}: choose the next square.")))
            }
            (ends, false) if ends.is_empty() => self.shoot_first(h, sq),
            (ends, _) => Some(Msg::ChooseEnding {
                title: format!("{} ways to end on {name}", ends.len()),
                endings: ends,
            }),
        }
    }

    /// The move ends where `moves` land (one way, perhaps with and without promotion): played,
    /// or, when it can shoot from there, the landing is taken and the shots are chosen next.
    pub fn land(&mut self, h: &History, moves: Vec<Move>) -> Option<Msg> {
        if moves.iter().all(|m| split(m).1.is_empty()) {
            return finish(moves);
        }
        let at = moves[0].to;
        let landing = Landing {
            at,
            moves,
            shots: Vec::new(),
        };
        let may_stop = !landing.ending(None).is_empty();
        self.landing = Some(landing);
        Some(Msg::Say(shoot_prompt(h, at, may_stop, "")))
    }

    /// With the landing chosen: `sq` is the next piece to shoot, or (the landing, or the last
    /// piece shot, again) the end of the move.
    fn shoot(&mut self, h: &History, sq: Square) -> Msg {
        let Some(l) = self.landing.as_mut() else {
            return Msg::say("");
        };
        let name = |s: Square| h.rules().dims().square_name(s);
        if sq == l.at || l.shots.last() == Some(&sq) {
            return finish(l.ending(None)).unwrap_or_else(|| {
                Msg::warn(format!(
                    "From {} the piece must shoot: choose a piece marked % (Esc takes a leg back).",
                    name(l.at)
                ))
            });
        }
        let k = l.shots.len();
        if !l.live().any(|m| split(m).1.get(k) == Some(&sq)) {
            return Msg::warn(format!(
                "Illegal: it cannot shoot {} from {}; the pieces it can shoot are marked %.",
                name(sq),
                name(l.at)
            ));
        }
        l.shots.push(sq);
        let goes_on = l.live().any(|m| split(m).1.len() > k + 1);
        let ending = l.ending(None);
        match finish(ending) {
            Some(done) if !goes_on => done,
            _ => Msg::Say(shoot_prompt(
                h,
                l.at,
                !l.ending(None).is_empty(),
                &format!("Shoots {}. ", name(sq)),
            )),
        }
    }

    /// Enter on a piece the selected one can shoot, before its landing is chosen: the landing
    /// is taken when only one leads to that shot.
    fn shoot_first(&mut self, h: &History, sq: Square) -> Option<Msg> {
        let d = h.rules().dims();
        match &self.shot_landings(sq)[..] {
            [] => None,
            [at] => {
                let ends = preview::endings(h, self.candidates(), *at);
                let [one] = &ends[..] else {
                    return Some(Msg::warn(format!(
                        "Choose where the piece goes first: it can end on {} in {} ways.",
                        d.square_name(*at),
                        ends.len()
                    )));
                };
                self.land(h, one.moves.clone());
                Some(self.shoot(h, sq))
            }
            more => Some(Msg::warn(format!(
                "It can shoot {} after going to {}: choose where it goes first.",
                d.square_name(sq),
                or_names(h, more)
            ))),
        }
    }

    /// Where the piece can land to shoot `sq` first, after the legs entered.
    fn shot_landings(&self, sq: Square) -> Vec<Square> {
        let k = self.legs.len();
        let mut landings = Vec::new();
        for m in self.candidates() {
            if split(m).0.len() == k && split(m).1.first() == Some(&sq) && !landings.contains(&m.to)
            {
                landings.push(m.to);
            }
        }
        landings
    }

    /// What Enter on `sq`, a square no move ends on or goes through, would do: shoot the piece
    /// there from the one landing it can be shot from, or nothing.
    fn hover_shot(&self, h: &History, sq: Square) -> String {
        let name = h.rules().dims().square_name(sq);
        match &self.shot_landings(sq)[..] {
            [] => format!("{name}: the selected piece cannot go there."),
            [at] => {
                let ends = preview::endings(h, self.candidates(), *at);
                let shot = match &ends[..] {
                    [one] => one.moves.iter().find(|m| split(m).1 == [sq]),
                    _ => None,
                };
                match shot {
                    Some(m) => preview::describe(h, m),
                    None => format!(
                        "{name}: it can shoot this from {}; choose there first.",
                        h.rules().dims().square_name(*at)
                    ),
                }
            }
            more => format!(
                "{name}: it can shoot this after going to {}: choose where it goes first.",
                or_names(h, more)
            ),
        }
    }

    /// What choosing `sq` would do, for the status line.
    pub fn hover(&self, h: &History, sq: Square) -> String {
        let name = h.rules().dims().square_name(sq);
        if let Some(l) = &self.landing {
            let k = l.shots.len();
            let next = if sq == l.at || l.shots.last() == Some(&sq) {
                None
            } else if l.live().any(|m| split(m).1.get(k) == Some(&sq)) {
                Some(sq)
            } else {
                return format!(
                    "{name}: it cannot shoot this from {}.",
                    h.rules().dims().square_name(l.at)
                );
            };
            return match (l.ending(next).first(), next) {
                (Some(m), _) => preview::describe(h, m),
                (None, Some(_)) => format!("{name}: shoot it, then shoot again."),
                (None, None) => format!("{name}: it must shoot first."),
            };
        }
        match self.endings_at(h, sq) {
            (ends, false) if ends.is_empty() => self.hover_shot(h, sq),
            (ends, true) if ends.is_empty() => {
                format!("{name}: a stop; the move goes on from there.")
            }
            (ends, _) if ends.len() == 1 => ends[0].text.clone(),
            (ends, _) => format!(
                "{name}: {} ways to end here, taking different pieces; choose to see them.",
                ends.len()
            ),
        }
    }

    /// Takes the last choice back: a shot, the landing, a stop. `false` when there was none.
    pub fn back(&mut self) -> bool {
        match &mut self.landing {
            Some(l) => {
                if l.shots.pop().is_none() {
                    self.landing = None;
                }
                true
            }
            None => self.legs.pop().is_some(),
        }
    }

    /// The moves (of every way of ending) that the cursor on `sq` would choose, to mark what
    /// they remove before the move is confirmed: one way of ending only.
    pub fn previewed(&self, h: &History, sq: Square) -> Option<Move> {
        match &self.landing {
            Some(l) => {
                let next = (sq != l.at && l.shots.last() != Some(&sq)).then_some(sq);
                l.ending(next).first().copied()
            }
            None => match &self.endings_at(h, sq).0[..] {
                [one] => one.moves.iter().find(|m| split(m).1.is_empty()).copied(),
                _ => None,
            },
        }
    }
}

/// "On 9.9: choose a piece to shoot (%), or 9.9 again for no more."
fn shoot_prompt(h: &History, at: Square, may_stop: bool, before: &str) -> String {
    let at = h.rules().dims().square_name(at);
    let stop = if may_stop {
        format!(", or {at} again for no more")
    } else {
        String::new()
    };
    format!("{before}On {at}: choose a piece to shoot (%){stop}.")
}

/// "9.9, 11.9 or 10.8".
fn or_names(h: &History, squares: &[Square]) -> String {
    let names: Vec<String> = squares
        .iter()
        .map(|&s| h.rules().dims().square_name(s))
        .collect();
    match &names[..] {
        [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => names.join(""),
    }
}

/// The move among `moves` (which differ only in promotion), or the promotion question.
pub fn finish(moves: Vec<Move>) -> Option<Msg> {
    let yes = moves.iter().find(|m| m.promotes()).copied();
    let no = moves.iter().find(|m| !m.promotes()).copied();
    match (yes, no) {
        (Some(yes), Some(no)) => Some(Msg::AskPromotion { yes, no }),
        (Some(m), None) | (None, Some(m)) => Some(Msg::Play(m)),
        (None, None) => None,
    }
}

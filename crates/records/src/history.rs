//! A game as it is played: its start, its line of moves, the point the game has reached in
//! that line, and how it ended.
//!
//! Undo, redo and going to any move of a replay are one thing: moving the point along the line.
//! Playing a move at an earlier point starts a new line from there (the moves after it go,
//! unless the move played is the next one of the line, which is then simply redone). A
//! resignation ends the line where it is made; undo takes it back first. The record
//! ([`crate::record`]) is what a history looks like on disk.

use std::cell::OnceCell;
use std::sync::Arc;
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::notation::{self, MoveError};
use taikyoku_core::position::{EndReason, Outcome, Position};
use taikyoku_core::rules::{Rules, RulesError};

/// How often the history keeps a copy of the position: going to any move then plays at most
/// this many moves.
const CHECKPOINT_EVERY: usize = 32;

/// A move of the line, with what is shown of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub mv: Move,
    /// The side that played it.
    pub side: Side,
    /// Its notation, written out in full in the position before it.
    pub text: String,
}

/// What [`History::undo`] took back.
#[derive(Clone, Debug, PartialEq)]
pub enum Undone {
    /// A resignation, or another concession (a loss on time or by forfeit).
    Resignation(Side),
    Move(Played),
}

/// A game: the rules, the start, the line of moves and the point reached in it.
#[derive(Clone, Debug)]
pub struct History {
    rules: Arc<Rules>,
    line: Vec<Played>,
    point: usize,
    /// The position after `k * CHECKPOINT_EVERY` moves of the line, for every such k.
    checkpoints: Vec<Position>,
    /// The position at the point.
    pos: Position,
    /// The side that resigned (or lost on time, or forfeited), at the end of the line.
    conceded: Option<(Side, EndReason)>,
    /// How the game stands at the point, worked out when first asked (it generates every
    /// move) and kept until the point moves.
    outcome: OnceCell<Option<Outcome>>,
}

impl History {
    /// A game from `start`, with no move played.
    pub fn new(rules: impl Into<Arc<Rules>>, start: Position) -> History {
        History {
            rules: rules.into(),
            line: Vec::new(),
            point: 0,
            checkpoints: vec![start.clone()],
            pos: start,
            conceded: None,
            outcome: OnceCell::new(),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules, to share with other threads (an engine thinking in the background).
    pub fn shared_rules(&self) -> Arc<Rules> {
        self.rules.clone()
    }

    pub fn start(&self) -> &Position {
        &self.checkpoints[0]
    }

    /// The position at the point.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The number of moves played to reach the point.
    pub fn point(&self) -> usize {
        self.point
    }

    /// The whole line, also the moves after the point (which redo plays again).
    pub fn line(&self) -> &[Played] {
        &self.line
    }

    /// The moves played to reach the point.
    pub fn played(&self) -> &[Played] {
        &self.line[..self.point]
    }

    /// The move that reached the point.
    pub fn last(&self) -> Option<&Played> {
        self.played().last()
    }

    /// How the game stands at the point: over by royal capture, no legal move or resignation.
    pub fn outcome(&self) -> Option<Outcome> {
        *self.outcome.get_or_init(|| self.rules.outcome(&self.pos))
    }

    /// The side that resigned (or conceded otherwise: time, forfeit), if the game ended so.
    pub fn resigned(&self) -> Option<Side> {
        self.conceded().map(|(side, _)| side)
    }

    /// The side that conceded the game at the end of the line, and why.
    fn conceded(&self) -> Option<(Side, EndReason)> {
        self.conceded.filter(|_| self.point == self.line.len())
    }

    /// The position after `n` moves of the line (`n` past the end: the end).
    pub fn position_at(&self, n: usize) -> Position {
        let n = n.min(self.line.len());
        if n == self.point {
            return self.pos.clone();
        }
        let k = (n / CHECKPOINT_EVERY).min(self.checkpoints.len() - 1);
        let mut pos = self.checkpoints[k].clone();
        for p in &self.line[k * CHECKPOINT_EVERY..n] {
            self.rules.play_unchecked(&mut pos, &p.mv);
        }
        pos
    }

    /// Moves the point to after `n` moves of the line (at most its end).
    pub fn goto(&mut self, n: usize) {
        let n = n.min(self.line.len());
        if n == self.point + 1 {
            self.rules
                .play_unchecked(&mut self.pos, &self.line[self.point].mv);
        } else if n != self.point {
            self.pos = self.position_at(n);
        }
        self.point = n;
        self.settle();
    }

    /// Plays a legal move at the point. A move other than the line's next one starts a new
    /// line from here.
    pub fn play(&mut self, m: &Move) -> Result<&Played, RulesError> {
        self.rules.check(&self.pos, m)?;
        Ok(self.push(m, None))
    }

    /// Reads a move in notation and plays it at the point.
    pub fn play_text(&mut self, text: &str) -> Result<&Played, MoveError> {
        let (m, full) = notation::read_move(&self.rules, &self.pos, text)?;
        Ok(self.push(&m, Some(full)))
    }

    /// Plays a move known to be legal at the point; `text`: its notation in full, if known.
    fn push(&mut self, m: &Move, text: Option<String>) -> &Played {
        if self.line.get(self.point).is_some_and(|p| p.mv == *m) {
            self.goto(self.point + 1);
            return &self.line[self.point - 1];
        }
        self.cut();
        let played = Played {
            mv: *m,
            side: self.pos.to_move(),
            text: text.unwrap_or_else(|| notation::move_string(&self.rules, &self.pos, m)),
        };
        self.line.push(played);
        self.goto(self.point + 1);
        &self.line[self.point - 1]
    }

    /// Ends the line at the point: what came after it (moves, a resignation) goes.
    fn cut(&mut self) {
        if self.point < self.line.len() {
            self.line.truncate(self.point);
            self.conceded = None;
        }
        self.checkpoints.truncate(self.point / CHECKPOINT_EVERY + 1);
    }

    /// The side to move resigns at the point, which ends the line. Nothing happens (and
    /// `None` comes back) once the game is over.
    pub fn resign(&mut self) -> Option<Side> {
        self.concede(EndReason::Resignation)
    }

    /// The side to move loses at the point for a reason the moves cannot show (resignation,
    /// time, forfeit: [`EndReason::is_conceded`]), which ends the line; undo takes it back
    /// as it takes back a resignation. Nothing happens (and `None` comes back) once the game
    /// is over.
    pub fn concede(&mut self, reason: EndReason) -> Option<Side> {
        debug_assert!(reason.is_conceded(), "{reason:?} is shown by the moves");
        if self.outcome().is_some() {
            return None;
        }
        self.cut();
        let side = self.pos.to_move();
        self.conceded = Some((side, reason));
        self.settle();
        Some(side)
    }

    /// Takes back the resignation, else the last move (which redo plays again).
    pub fn undo(&mut self) -> Option<Undone> {
        if let Some(side) = self.resigned() {
            self.conceded = None;
            self.settle();
            return Some(Undone::Resignation(side));
        }
        let last = self.last()?.clone();
        self.goto(self.point - 1);
        Some(Undone::Move(last))
    }

    /// Plays the next move of the line again.
    pub fn redo(&mut self) -> Option<&Played> {
        if self.point == self.line.len() {
            return None;
        }
        self.goto(self.point + 1);
        self.last()
    }

    /// A new game that starts like this one and goes on from its first `n` moves (all of them
    /// when `n` is larger), at its end, without a result unless its moves give one.
    pub fn branch(&self, n: usize) -> History {
        let n = n.min(self.line.len());
        let mut h = self.clone();
        h.goto(n);
        h.cut();
        h.conceded = None;
        h.settle();
        h
    }

    /// After the point or the line changed: keeps the checkpoints and the outcome up to date.
    fn settle(&mut self) {
        if self.point.is_multiple_of(CHECKPOINT_EVERY)
            && self.checkpoints.len() == self.point / CHECKPOINT_EVERY
        {
            self.checkpoints.push(self.pos.clone());
        }
        // The position says so too, so that no move is generated in a resigned game.
        let in_position = self.pos.outcome().is_some_and(|o| o.reason.is_conceded());
        if let Some((_, reason)) = self.conceded() {
            self.rules.concede(&mut self.pos, reason);
        } else if in_position {
            self.rules.withdraw_concession(&mut self.pos);
        }
        self.outcome = OnceCell::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taikyoku_core::game::Game;

    fn game() -> History {
        let r = Rules::new(Game::builtin("taikyoku").unwrap(), "wikipedia").unwrap();
        let start = r.start_position();
        History::new(r, start)
    }

    /// Plays `n` quiet moves (the `i % 3`-th non-capturing one each time).
    fn play_quiet(h: &mut History, n: usize) {
        for i in 0..n {
            let pos = h.position().clone();
            let m = h
                .rules()
                .legal_moves(&pos)
                .into_iter()
                .filter(|m| h.rules().captures(&pos, m).is_empty())
                .nth(i % 3)
                .unwrap();
            h.play(&m).unwrap();
        }
    }

    #[test]
    fn undo_and_redo_go_back_and_forth_without_limit() {
        let mut h = game();
        let start = h.position().clone();
        play_quiet(&mut h, 70);
        let end = h.position().clone();
        let mut seen = vec![end.clone()];
        while let Some(Undone::Move(p)) = h.undo() {
            assert_eq!(h.position().to_move(), p.side);
            seen.push(h.position().clone());
        }
        assert_eq!(h.point(), 0);
        assert_eq!(h.position(), &start);
        assert_eq!(h.undo(), None, "nothing before the start");
        assert_eq!(h.line().len(), 70, "the line stays for redo");
        for n in 1..=70 {
            let text = h.redo().unwrap().text.clone();
            assert_eq!(text, h.line()[n - 1].text);
            assert_eq!(h.position(), &seen[70 - n], "after {n} moves");
        }
        assert_eq!(h.redo(), None);
        assert_eq!(h.position(), &end);
    }

    #[test]
    fn going_to_any_move_gives_the_position_played_to_there() {
        let mut h = game();
        let mut seen = vec![h.position().clone()];
        for _ in 0..70 {
            play_quiet(&mut h, 1);
            seen.push(h.position().clone());
        }
        for n in [0, 69, 31, 32, 33, 64, 1, 70, 5] {
            h.goto(n);
            assert_eq!(h.point(), n);
            assert_eq!(h.position(), &seen[n], "after {n} moves");
            assert_eq!(h.position_at(70), seen[70]);
        }
        h.goto(500);
        assert_eq!(h.point(), 70, "past the end: the end");
    }

    #[test]
    fn playing_at_an_earlier_point_starts_a_new_line() {
        let mut h = game();
        play_quiet(&mut h, 40);
        h.goto(35);
        // The line's own next move is a redo: the rest of the line stays.
        let next = h.line()[35].mv;
        h.play(&next).unwrap();
        assert_eq!((h.point(), h.line().len()), (36, 40));
        // Another move drops the old line after it.
        h.undo();
        let other = h
            .rules()
            .legal_moves(h.position())
            .into_iter()
            .find(|m| *m != next)
            .unwrap();
        h.play(&other).unwrap();
        assert_eq!((h.point(), h.line().len()), (36, 36));
        assert_eq!(h.line()[35].mv, other);
        assert_eq!(h.redo(), None);
        // Its positions are the new line's.
        let end = h.position().clone();
        h.goto(0);
        h.goto(36);
        assert_eq!(h.position(), &end);
    }

    #[test]
    fn a_branch_is_a_new_game_from_an_earlier_move() {
        let mut h = game();
        play_quiet(&mut h, 10);
        h.resign();
        let b = h.branch(4);
        assert_eq!((b.point(), b.line().len()), (4, 4));
        assert_eq!(b.outcome(), None);
        assert_eq!(b.position(), &h.position_at(4));
        assert_eq!(h.line().len(), 10, "the game branched from stays as it was");
        assert!(h.outcome().is_some());
    }

    #[test]
    fn resignation_ends_the_game_and_undo_takes_it_back() {
        let mut h = game();
        play_quiet(&mut h, 3);
        assert_eq!(h.resign(), Some(Side::White));
        let o = h.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (Side::Black, EndReason::Resignation));
        assert_eq!(h.resign(), None, "once over, no second resignation");
        assert!(h.rules().legal_moves(h.position()).is_empty());
        let m = h.line()[0].mv;
        assert!(h.play(&m).is_err());
        assert_eq!(h.undo(), Some(Undone::Resignation(Side::White)));
        assert_eq!(h.outcome(), None);
        assert_eq!(h.point(), 3);
        assert!(!h.rules().legal_moves(h.position()).is_empty());
        // Resigning at an earlier point ends the line there.
        h.goto(1);
        h.resign();
        assert_eq!(h.line().len(), 1);
        assert_eq!(h.outcome().unwrap().winner, Side::Black);
    }

    #[test]
    fn a_forfeit_ends_the_game_like_a_resignation() {
        let mut h = game();
        play_quiet(&mut h, 2);
        assert_eq!(h.concede(EndReason::Forfeit), Some(Side::Black));
        let o = h.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (Side::White, EndReason::Forfeit));
        assert_eq!(h.resigned(), Some(Side::Black));
        assert!(h.rules().legal_moves(h.position()).is_empty());
        assert_eq!(h.undo(), Some(Undone::Resignation(Side::Black)));
        assert_eq!(h.outcome(), None);
        assert_eq!(h.point(), 2);
    }

    #[test]
    fn capturing_the_last_royal_ends_the_game() {
        let r = Rules::new(Game::builtin("taikyoku").unwrap(), "wikipedia").unwrap();
        let mut p = r.empty_position();
        let piece = |code, side| {
            Some(taikyoku_core::piece::Piece {
                kind: r.catalogue().by_code(code).unwrap(),
                side,
                promoted: false,
            })
        };
        let sq = |x, y| r.dims().square(x, y).unwrap();
        r.put(&mut p, sq(0, 0), piece("K", Side::Black));
        r.put(&mut p, sq(35, 35), piece("K", Side::White));
        r.put(&mut p, sq(35, 0), piece("R", Side::Black));
        let king = sq(35, 35);
        let mut h = History::new(r, p);
        h.play_text("R1.36x1.1").unwrap();
        let o = h.outcome().unwrap();
        assert_eq!(
            (o.winner, o.reason),
            (Side::Black, EndReason::RoyalsCaptured)
        );
        let taken: Vec<_> = h.last().unwrap().mv.victims(h.rules().dims()).collect();
        assert_eq!(taken, vec![king]);
        let again = h.line()[0].mv;
        let e = h.play(&again).unwrap_err();
        assert!(e.to_string().contains("the game is over"), "{e}");
        h.undo();
        assert_eq!(h.outcome(), None);
    }
}

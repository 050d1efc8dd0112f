//! Scoring a whole game, as `taikyoku analyse` and the replay's score graph do: every position
//! of the line is searched (through the search's [`Computer`]), and every move is judged by
//! what it gave away: the best score before it, for its mover, less the score after it. A move
//! that lost more than a margin, where the search preferred another, names the better move.
//!
//! Scores are the computer's, in centipawn-like units (a pawn is about 100). A score that
//! means taking the last royal is capped at [`CAP`], so that a loss stays a number.

use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_search::{Computer, Limits, MATE_BOUND, Stop};

/// The biggest score a review works with: twenty queens' worth (a won game).
pub const CAP: i32 = 100_000;
/// A move is flagged when it loses more than this, unless told otherwise (two pawns).
pub const MARGIN: i32 = 200;

/// One position searched: its score for the side to move, and the move the search liked.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub score: i32,
    pub best: Option<Move>,
    pub depth: u32,
}

/// Searches `pos` within `limits` (or until `stop`); a finished game scores [`CAP`] for the
/// winner.
pub fn score(computer: &mut Computer, pos: &Position, limits: &Limits, stop: &Stop) -> Scored {
    if let Some(o) = pos.outcome() {
        let won = o.winner == pos.to_move();
        let score = if won { CAP } else { -CAP };
        return Scored {
            score,
            best: None,
            depth: 0,
        };
    }
    let r = computer.think(pos, limits, stop, &mut |_| {});
    Scored {
        score: capped(r.score),
        best: r.best,
        depth: r.depth,
    }
}

/// A search score with a won or lost game capped at [`CAP`].
pub fn capped(score: i32) -> i32 {
    match score {
        s if s >= MATE_BOUND => CAP,
        s if s <= -MATE_BOUND => -CAP,
        s => s.clamp(-CAP, CAP),
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// 1-based.
    pub number: usize,
    pub side: Side,
    pub text: String,
    /// The score after the move, Black's view.
    pub eval: i32,
    /// What it lost for its mover against the best the search saw (0 at best).
    pub loss: i32,
    /// The move the search preferred and its score for the mover, when this one lost more
    /// than the margin.
    pub better: Option<(String, i32)>,
    pub depth: u32,
}

impl Judged {
    /// Whether the move lost more than the margin.
    pub fn flagged(&self) -> bool {
        self.better.is_some()
    }

    /// The note `analyse --write` puts beside the move in the record: "eval +0.35 · loses
    /// 1.40 · better B8.8x2.2 +1.05 · depth 4".
    pub fn note(&self) -> String {
        let mut parts = vec![format!("eval {}", pawns(self.eval))];
        if let Some((m, s)) = &self.better {
            parts.push(format!("loses {:.2}", self.loss as f64 / 100.0));
            parts.push(format!("better {m} {}", pawns(*s)));
        }
        parts.push(format!("depth {}", self.depth));
        parts.join(" · ")
    }
}

/// "+0.35", "-1.20" (a capped score: "+won", "-won").
pub fn pawns(score: i32) -> String {
    match score {
        CAP => "+won".into(),
        s if s == -CAP => "-won".into(),
        s => format!("{:+.2}", s as f64 / 100.0),
    }
}

/// The score after a move, Black's view, read back from a note [`Judged::note`] wrote.
pub fn eval_of_note(note: &str) -> Option<i32> {
    let value = note.split(" · ").find_map(|p| p.strip_prefix("eval "))?;
    match value {
        "+won" => Some(CAP),
        "-won" => Some(-CAP),
        v => v
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(|x| ((x * 100.0).round() as i32).clamp(-CAP, CAP)),
    }
}

/// Judges the moves of a line from the scores of its positions: `scores[i]` is of the
/// position before move `i` (and the last one of the position after the line); `positions`
/// the same positions, to write the better moves in.
pub fn judge(
    rules: &Rules,
    positions: &[Position],
    moves: &[(Side, String, Move)],
    scores: &[Scored],
    margin: i32,
) -> Vec<Judged> {
    moves
        .iter()
        .enumerate()
        .map(|(i, (side, text, mv))| {
            let (before, after) = (&scores[i], &scores[i + 1]);
            // The mover's view after its move is the opponent's score turned round.
            let got = -after.score;
            let loss = (before.score - got).max(0);
            let better = before.best.filter(|b| loss > margin && b != mv).map(|b| {
                (
                    notation::move_string(rules, &positions[i], &b),
                    before.score,
                )
            });
            let black = |s: i32| if *side == Side::Black { s } else { -s };
            Judged {
                number: i + 1,
                side: *side,
                text: text.clone(),
                eval: black(got),
                loss,
                better,
                depth: after.depth.max(before.depth),
            }
        })
        .collect()
}

/// The numbers of the `n` moves that lost the most (more than `margin`), worst first.
pub fn worst(judged: &[Judged], n: usize) -> Vec<usize> {
    let mut bad: Vec<&Judged> = judged.iter().filter(|j| j.flagged()).collect();
    bad.sort_by_key(|j| (std::cmp::Reverse(j.loss), j.number));
    bad.iter().take(n).map(|j| j.number).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(score: i32, best: Option<Move>) -> Scored {
        Scored {
            score,
            best,
            depth: 3,
        }
    }

    /// Black blunders a piece on move 2; the better move is named, the score after each move
    /// is Black's, and the note reads back.
    #[test]
    fn a_move_that_loses_more_than_the_margin_names_the_better_one() {
        let rules = Rules::builtin("sho", "standard").unwrap();
        let p0 = rules.start_position();
        let legal = rules.legal_moves(&p0);
        let (good, bad) = (legal[0], legal[1]);
        let mut p1 = p0.clone();
        rules.play_unchecked(&mut p1, &bad);
        let reply = rules.legal_moves(&p1)[0];
        let mut p2 = p1.clone();
        rules.play_unchecked(&mut p2, &reply);
        let text = |p: &Position, m: &Move| notation::move_string(&rules, p, m);
        let moves = [
            (Side::Black, text(&p0, &bad), bad),
            (Side::White, text(&p1, &reply), reply),
        ];
        // Before: Black +0.20 with `good`; after `bad`, White to move scores +5.00.
        let scores = [
            scored(20, Some(good)),
            scored(500, Some(reply)),
            scored(-480, None),
        ];
        let positions = [p0.clone(), p1, p2];
        let j = judge(&rules, &positions, &moves, &scores, MARGIN);
        assert_eq!((j[0].eval, j[0].loss), (-500, 520));
        assert_eq!(j[0].better, Some((text(&p0, &good), 20)));
        assert_eq!(
            (j[1].eval, j[1].loss, j[1].better.is_some()),
            (-480, 20, false)
        );
        assert_eq!(worst(&j, 3), [1]);
        let note = j[0].note();
        assert!(
            note.starts_with("eval -5.00 · loses 5.20 · better "),
            "{note}"
        );
        assert_eq!(eval_of_note(&note), Some(-500));
        assert_eq!(eval_of_note("eval +won · depth 2"), Some(CAP));
        assert_eq!(eval_of_note("a note a person wrote"), None);
        assert_eq!(eval_of_note("eval NaN"), None);
        assert_eq!(
            (capped(taikyoku_search::MATE - 3), pawns(-CAP)),
            (CAP, "-won".into())
        );
    }
}

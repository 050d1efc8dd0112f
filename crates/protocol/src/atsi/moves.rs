//! Moves as ATSI squares: writing one of our moves as the squares the protocol asks for, and
//! finding the legal move a list of squares stands for (in the spec's order or tomatene's).

use super::codec::AtsiMove;
use super::error::{AtsiError, MoveProblem};
use super::square::AtsiSquare;
use taikyoku_core::geometry::{Dims, Square};
use taikyoku_core::moves::Move;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;

/// Which order a move's squares came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The spec's: start, steps, destination.
    Spec,
    /// tomatene's: start, destination, steps.
    StepsAfter,
}

/// What a move does, for telling apart paths that end alike: the destination, the squares it
/// empties (sorted) and whether it promotes.
fn outcome(m: &Move, dims: Dims) -> (Square, Vec<Square>, bool) {
    let mut v: Vec<Square> = m.victims(dims).collect();
    v.sort_unstable();
    (m.to, v, m.promotes())
}

/// The moves of the piece on a square: as listed (one per result, or per path where the rule
/// set counts paths), then every other path.
struct PieceMoves {
    listed: Vec<Move>,
    all: Vec<Move>,
}

impl PieceMoves {
    fn of(rules: &Rules, pos: &Position, from: Square) -> PieceMoves {
        PieceMoves {
            listed: rules.moves_from(pos, from),
            all: rules.moves_from_all_paths(pos, from),
        }
    }

    /// The move `from [steps] to` stands for: with steps, the path that stops exactly there
    /// (or, failing that, the path that empties exactly the steps: a list of what it takes);
    /// without, a move without stops if there is one, else one whose stops take nothing.
    /// Where promotion is a choice, `promote` picks, else the move that does not promote.
    fn resolve(
        &self,
        dims: Dims,
        to: Square,
        steps: &[Square],
        promote: Option<bool>,
    ) -> Option<Move> {
        let ends = || self.listed.iter().chain(&self.all).filter(|m| m.to == to);
        let fits: Vec<&Move> = if steps.is_empty() {
            let plain: Vec<&Move> = ends().filter(|m| m.path().is_empty()).collect();
            if plain.is_empty() {
                ends()
                    .filter(|m| m.path().iter().all(|s| !m.victims(dims).any(|v| v == *s)))
                    .collect()
            } else {
                plain
            }
        } else {
            let exact: Vec<&Move> = ends().filter(|m| m.path() == steps).collect();
            if exact.is_empty() {
                let mut want = steps.to_vec();
                want.sort_unstable();
                want.dedup();
                ends()
                    .filter(|m| {
                        let mut v: Vec<Square> = m.victims(dims).filter(|&v| v != to).collect();
                        v.sort_unstable();
                        v == want
                    })
                    .collect()
            } else {
                exact
            }
        };
        let wanted = promote.unwrap_or(false);
        fits.iter()
            .find(|m| m.promotes() == wanted)
            .or_else(|| promote.is_none().then(|| fits.first()).flatten())
            .map(|m| **m)
    }
}

/// A move as ATSI writes it: its start, the steps only where the destination alone would
/// stand for another outcome or the move comes back to its start (ATSA's host takes every
/// step listed as a square emptied and promotes on a step in the zone, so they are never
/// written without need), its destination, and `+`/`=` only where promotion is a choice and
/// the default would be wrong.
pub fn move_to_atsi(rules: &Rules, pos: &Position, m: &Move) -> String {
    atsi_move(rules, pos, m).to_string()
}

/// [`move_to_atsi`] as squares.
pub fn atsi_move(rules: &Rules, pos: &Position, m: &Move) -> AtsiMove {
    let dims = pos.dims();
    let moves = PieceMoves::of(rules, pos, m.from);
    let want = outcome(m, dims);
    let same = |steps: &[Square], promote| {
        moves
            .resolve(dims, m.to, steps, promote)
            .is_some_and(|r| outcome(&r, dims) == want)
    };
    let suffix = Some(m.promotes());
    // A move back to its start (igui, a pass) always names its step: ATSA's host reads
    // `A A` as taking the piece on A, its own.
    let returns = m.from == m.to && !m.path().is_empty();
    let (steps, promote) = [
        (&[][..], None),
        (&[][..], suffix),
        (m.path(), None),
        (m.path(), suffix),
    ]
    .into_iter()
    .filter(|(s, _)| !(returns && s.is_empty()))
    .find(|&(s, p)| same(s, p))
    .unwrap_or((m.path(), suffix));
    let squares = std::iter::once(m.from)
        .chain(steps.iter().copied())
        .chain(std::iter::once(m.to))
        .map(|s| AtsiSquare::of(s, dims))
        .collect();
    AtsiMove { squares, promote }
}

/// Finds the legal move (of the side to move) that ATSI text stands for. The spec's order is
/// tried first; a text with steps that fits no move that way is read in tomatene's order
/// (steps after the destination). Returns which order was used.
pub fn move_from_atsi(
    rules: &Rules,
    pos: &Position,
    text: &str,
) -> Result<(Move, Order), AtsiError> {
    let mv: AtsiMove = text.parse()?;
    move_from_squares(rules, pos, &mv, Order::Spec)
}

/// [`move_from_atsi`] for parsed squares, trying the order `first` before the other (a host
/// that knows its engine writes tomatene's order passes [`Order::StepsAfter`]).
pub fn move_from_squares(
    rules: &Rules,
    pos: &Position,
    mv: &AtsiMove,
    first: Order,
) -> Result<(Move, Order), AtsiError> {
    let dims = pos.dims();
    let illegal = |why| AtsiError::IllegalMove {
        text: mv.to_string(),
        why,
    };
    let squares = mv
        .squares
        .iter()
        .map(|&a| a.on_board(dims))
        .collect::<Result<Vec<Square>, _>>()?;
    let (from, at) = (squares[0], mv.squares[0]);
    let piece = pos
        .piece_at(from)
        .ok_or_else(|| illegal(MoveProblem::NoPiece { at }))?;
    let kind = rules.catalogue().kind(piece.kind).name.clone();
    if let Some(o) = pos.outcome() {
        return Err(illegal(MoveProblem::GameOver { winner: o.winner }));
    }
    if piece.side != pos.to_move() {
        return Err(illegal(MoveProblem::NotItsTurn {
            kind,
            at,
            owner: piece.side,
            to_move: pos.to_move(),
        }));
    }
    let moves = PieceMoves::of(rules, pos, from);
    let read = |order| {
        let (to, steps) = match order {
            Order::Spec => (squares[squares.len() - 1], &squares[1..squares.len() - 1]),
            Order::StepsAfter => (squares[1], &squares[2..]),
        };
        moves
            .resolve(dims, to, steps, mv.promote)
            .map(|m| (m, order))
    };
    let found = read(first).or_else(|| (squares.len() > 2).then(|| read(first.other())).flatten());
    found.ok_or_else(|| illegal(moves.why_not(kind, at, squares[squares.len() - 1], dims)))
}

impl Order {
    fn other(self) -> Order {
        match self {
            Order::Spec => Order::StepsAfter,
            Order::StepsAfter => Order::Spec,
        }
    }
}

impl PieceMoves {
    /// Why the piece (a `kind` on `at`) has no move to `to` as asked.
    fn why_not(&self, kind: String, at: AtsiSquare, to: Square, dims: Dims) -> MoveProblem {
        let to_atsi = AtsiSquare::of(to, dims);
        if self.all.is_empty() {
            MoveProblem::NoLegalMove { kind, at }
        } else if self.all.iter().any(|m| m.to == to) {
            MoveProblem::NotThatWay {
                kind,
                at,
                to: to_atsi,
            }
        } else {
            MoveProblem::Unreachable {
                kind,
                at,
                to: to_atsi,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsi::test_support::{position, sq};
    use proptest::prelude::*;
    use taikyoku_core::geometry::Side;
    use taikyoku_testkit::rules;

    /// Every legal move, written and read back, is itself (same destination, victims and
    /// promotion), read in the spec's order.
    fn round_trips(r: &Rules, p: &Position) {
        for m in r.legal_moves(p) {
            let text = move_to_atsi(r, p, &m);
            let (back, order) = move_from_atsi(r, p, &text).unwrap();
            assert_eq!(order, Order::Spec, "{text}");
            assert_eq!(outcome(&back, p.dims()), outcome(&m, p.dims()), "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(6))]

        /// Positions of random games: every legal move survives writing and reading back.
        #[test]
        fn moves_of_random_games_round_trip(seed in any::<u64>(), plies in 0usize..300, set in 0usize..3) {
            let r = rules(["atsa", "wikipedia", "umebayashi"][set]);
            let mut p = r.start_position();
            let mut rng = seed | 1;
            for _ in 0..plies {
                let moves = r.legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                r.play_unchecked(&mut p, &moves[(rng % moves.len() as u64) as usize]);
            }
            round_trips(r, &p);
        }
    }

    #[test]
    fn the_opening_round_trips_under_every_rule_set() {
        for name in ["atsa", "wikipedia", "umebayashi"] {
            let r = rules(name);
            round_trips(r, &r.start_position());
        }
    }

    #[test]
    fn a_lion_writes_its_step_only_where_it_matters() {
        let r = rules("atsa");
        let p = position(
            r,
            Side::Black,
            &[
                ("LN", Side::Black, "18r"),
                ("P", Side::White, "18q"),
                ("P", Side::White, "18p"),
            ],
        );
        let text = |from: &str, to: &str, path: &[&str]| {
            let path: Vec<Square> = path.iter().map(|s| sq(s)).collect();
            let m = r
                .legal_moves(&p)
                .into_iter()
                .find(|m| m.from == sq(from) && m.to == sq(to) && m.path() == path)
                .unwrap();
            move_to_atsi(r, &p, &m)
        };
        // Two captures, igui and a plain step or jump.
        assert_eq!(text("18r", "18p", &["18q"]), "18r 18q 18p");
        assert_eq!(text("18r", "18r", &["18q"]), "18r 18q 18r");
        assert_eq!(text("18r", "18q", &[]), "18r 18q");
        assert_eq!(text("18r", "18p", &[]), "18r 18p");
        // A step through an empty square to where a jump goes: the same outcome.
        assert_eq!(text("18r", "18t", &["18s"]), "18r 18t");
        // Read back; and tomatene's order, steps after the destination.
        let (m, o) = move_from_atsi(r, &p, "18r 18q 18p").unwrap();
        assert_eq!((m.path(), o), (&[sq("18q")][..], Order::Spec));
        let (m, o) = move_from_atsi(r, &p, "18r 18p 18q").unwrap();
        assert_eq!(
            (m.to, m.path(), o),
            (sq("18p"), &[sq("18q")][..], Order::StepsAfter)
        );
        round_trips(r, &p);
    }

    #[test]
    fn illegal_and_foreign_moves_say_why() {
        let r = rules("atsa");
        let p = r.start_position();
        let why = |t: &str| move_from_atsi(r, &p, t).unwrap_err().to_string();
        assert!(
            why("18r 18q").contains("no piece on 18r"),
            "{}",
            why("18r 18q")
        );
        assert!(
            why("18k 18l").contains("it is black's turn"),
            "{}",
            why("18k 18l")
        );
        assert!(
            why("18z 18t").contains("cannot reach 18t"),
            "{}",
            why("18z 18t")
        );
        assert!(why("18z").contains("at least its start and destination"));
        assert!(why("18z 99y").contains("not a square"));
        assert_eq!(move_from_atsi(r, &p, "18z 18y").unwrap().1, Order::Spec);
    }

    #[test]
    fn a_hook_mover_may_name_its_turn() {
        let r = rules("atsa");
        let p = position(r, Side::Black, &[("LO", Side::Black, "18r")]);
        let m = move_from_atsi(r, &p, "18r 16p 14r").unwrap().0;
        assert_eq!(m.path(), &[sq("16p")]);
        assert_eq!(move_from_atsi(r, &p, "18r 14r").unwrap().0.to, sq("14r"));
        assert!(move_from_atsi(r, &p, "18r 17q 14r").is_err());
        round_trips(r, &p);
    }

    #[test]
    fn optional_promotion_is_written_only_when_declined_is_not_the_default() {
        let r = rules("umebayashi");
        let p = position(r, Side::Black, &[("R", Side::Black, "18m")]);
        let moves = r.legal_moves(&p);
        let into_zone: Vec<&Move> = moves.iter().filter(|m| m.to == sq("18k")).collect();
        assert_eq!(into_zone.len(), 2);
        for m in into_zone {
            let t = move_to_atsi(r, &p, m);
            assert_eq!(t, if m.promotes() { "18m 18k+" } else { "18m 18k" });
        }
        round_trips(r, &p);
    }
}

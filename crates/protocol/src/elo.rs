//! Match statistics: the score of a series of games between two players, the Elo difference
//! it implies and its 95 % error margin, the likelihood of superiority and the draw ratio,
//! computed as cutechess-cli computes them (and fastchess prints as "Elo"), so that figures
//! from this program and from theirs can be compared.
//!
//! The Elo difference of a score `p` (the first player's points per game) is
//! `-400 log10(1/p - 1)`. Its margin comes from the standard deviation of the per-game result
//! (win 1, draw ½, loss 0) around `p`, divided by √n, carried through the same curve at the
//! 2.5 % and 97.5 % quantiles of the normal distribution and halved.

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Score {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Points per game (NaN without games).
    pub fn ratio(&self) -> f64 {
        self.points() / f64::from(self.games())
    }

    /// The same games seen from the second player.
    pub fn swapped(&self) -> Score {
        Score {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The Elo difference the score implies (±infinity for a clean sweep, NaN without games).
    pub fn elo(&self) -> f64 {
        elo_of(self.ratio())
    }

    /// Half the width of the 95 % confidence interval of [`Score::elo`] (NaN when it is
    /// infinite or there are no games).
    pub fn elo_margin(&self) -> f64 {
        let n = f64::from(self.games());
        let mu = self.ratio();
        let deviation = |count: u32, result: f64| f64::from(count) / n * (result - mu).powi(2);
        let variance =
            deviation(self.wins, 1.0) + deviation(self.draws, 0.5) + deviation(self.losses, 0.0);
        let stdev = variance.sqrt() / n.sqrt();
        let low = mu + phi_inv(0.025) * stdev;
        let high = mu + phi_inv(0.975) * stdev;
        (elo_of(high) - elo_of(low)) / 2.0
    }

    /// The likelihood of superiority, 0 to 1: how likely the first player is the stronger,
    /// from wins and losses (draws say nothing).
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The share of draws, 0 to 1.
    pub fn draw_ratio(&self) -> f64 {
        f64::from(self.draws) / f64::from(self.games())
    }
}

/// The Elo difference of a score ratio.
fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The inverse of the standard normal distribution function.
fn phi_inv(p: f64) -> f64 {
    std::f64::consts::SQRT_2 * erf_inv(2.0 * p - 1.0)
}

/// The inverse error function, by the closed-form approximation cutechess-cli uses (Winitzki's,
/// a = 8(π-3)/(3π(4-π))), so that margins agree with its to the printed digit.
fn erf_inv(x: f64) -> f64 {
    let pi = std::f64::consts::PI;
    let a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi));
    let y = (1.0 - x * x).ln();
    let z = 2.0 / (pi * a) + y / 2.0;
    let r = ((z * z - y / a).sqrt() - z).sqrt();
    if x < 0.0 { -r } else { r }
}

/// The error function (Abramowitz and Stegun 7.1.26 is not precise enough for LOS near 0 or
/// 1; this is the series / continued fraction of Numerical Recipes' `erfc`, error < 1.2e-7).
fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(wins: u32, losses: u32, draws: u32) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    /// Rounded as cutechess-cli prints: one decimal.
    fn one(x: f64) -> f64 {
        (x * 10.0).round() / 10.0
    }

    /// Published cutechess-cli results ("Score of A vs B: W - L - D", "Elo difference: E +/- M,
    /// LOS: X %, DrawRatio: Y %"), from engine authors' pull requests.
    #[test]
    fn matches_cutechess_outputs() {
        for (w, l, d, elo, margin, los, draws) in [
            (332, 316, 352, 5.6, 17.3, 73.5, 35.2),
            (1342, 1317, 1341, 2.2, 8.8, 68.6, 33.5),
            (143, 129, 368, 7.6, 17.5, 80.2, 57.5),
            (745, 678, 501, 12.1, 13.3, 96.2, 26.0),
            (65, 66, 69, -1.7, 39.1, 46.5, 34.5),
            (540, 531, 1590, 1.2, 8.4, 60.8, 59.8),
        ] {
            let s = score(w, l, d);
            assert_eq!(one(s.elo()), elo, "{w}-{l}-{d} elo");
            assert_eq!(one(s.elo_margin()), margin, "{w}-{l}-{d} margin");
            assert_eq!(one(s.los() * 100.0), los, "{w}-{l}-{d} los");
            assert_eq!(one(s.draw_ratio() * 100.0), draws, "{w}-{l}-{d} draws");
        }
    }

    #[test]
    fn even_score_is_zero_and_symmetric() {
        let s = score(7, 7, 6);
        assert_eq!(s.elo(), 0.0);
        assert!((s.los() - 0.5).abs() < 1e-6);
        let t = score(30, 10, 5);
        assert!((t.elo() + t.swapped().elo()).abs() < 1e-9);
        assert!((t.elo_margin() - t.swapped().elo_margin()).abs() < 1e-9);
        assert_eq!(t.points(), 32.5);
        assert_eq!(t.games(), 45);
    }

    #[test]
    fn sweeps_and_empty_matches_have_no_finite_figures() {
        assert_eq!(score(4, 0, 0).elo(), f64::INFINITY);
        assert_eq!(score(0, 4, 0).elo(), f64::NEG_INFINITY);
        assert!(score(4, 0, 0).elo_margin().is_nan());
        assert!(Score::default().elo().is_nan());
        assert!(Score::default().elo_margin().is_nan());
        assert!(
            score(0, 0, 3).los().is_nan(),
            "only draws: no evidence either way"
        );
    }
}

//! Match statistics: one player's wins, losses and draws against another, and the Elo
//! difference they imply with a 95% confidence interval.
//!
//! With `W` wins, `D` draws and `L` losses in `N` games the score is `s = (W + D/2) / N` and
//! the logistic Elo difference is `elo(s) = -400 · log10(1/s - 1)` (75% → +190.8).
//!
//! The interval comes from the normal approximation of the score: each game scores 1, ½ or 0
//! with the observed frequencies `w = W/N`, `d = D/N`, `l = L/N`, so one game's variance is
//! the trinomial `σ² = w(1-s)² + d(½-s)² + l·s²` and the score's standard error is
//! `σ / √N`. The interval's ends are `elo(s ± 1.96 σ/√N)`; an end that falls at or beyond
//! 0 or 1 leaves that side unbounded.
//!
//! At a score of exactly 0% or 100% the variance is zero and the estimate infinite, so only a
//! bound is reported instead: with every game won, the Clopper–Pearson lower 95% limit of the
//! win rate is `0.025^(1/N)` and the difference is above `elo(0.025^(1/N))` (100 wins out of
//! 100: above +570); every game lost mirrors it.

use std::fmt;

use serde::Serialize;

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Results of one player against another, from the first player's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The same games from the other player's side.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// The score fraction `(W + D/2) / N`; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// The Elo difference and its 95% interval; `None` before any game.
    pub fn elo(&self) -> Option<Elo> {
        let s = self.score()?;
        let n = self.games() as f64;
        if self.losses + self.draws == 0 {
            let bound = elo_of_score(0.025f64.powf(1.0 / n));
            return Some(Elo {
                estimate: None,
                low: Some(bound),
                high: None,
            });
        }
        if self.wins + self.draws == 0 {
            return Some(self.reversed().elo()?.reversed());
        }
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let margin = Z95 * (variance / n).sqrt();
        let end = |score: f64| (score > 0.0 && score < 1.0).then(|| elo_of_score(score));
        Some(Elo {
            estimate: Some(elo_of_score(s)),
            low: end(s - margin),
            high: end(s + margin),
        })
    }
}

/// The logistic Elo difference of a score fraction strictly between 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    // Written as 400·log10(s/(1-s)) so that an even score gives +0, not -0.
    400.0 * (score / (1.0 - score)).log10()
}

/// An Elo difference: the estimate with the ends of its 95% interval. `None` ends are
/// unbounded; an all-win or all-loss match has no estimate and one finite end, the bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Elo {
    pub estimate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Elo {
    /// The other player's side: every figure negated, the ends swapped.
    fn reversed(self) -> Elo {
        Elo {
            estimate: self.estimate.map(|e| -e),
            low: self.high.map(|h| -h),
            high: self.low.map(|l| -l),
        }
    }
}

/// `+190.8 (95%: +119.2 to +281.5)`, `+12.0 (95%: -inf to +300.1)`, `> +570.0`, `< -570.0`.
impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = |value: Option<f64>, infinite: &str| {
            value.map_or(infinite.to_string(), |v| format!("{v:+.1}"))
        };
        match (self.estimate, self.low, self.high) {
            (Some(e), low, high) => write!(
                f,
                "{e:+.1} (95%: {} to {})",
                end(low, "-inf"),
                end(high, "+inf")
            ),
            (None, Some(low), _) => write!(f, "> {low:+.1}"),
            (None, None, Some(high)) => write!(f, "< {high:+.1}"),
            (None, None, None) => f.write_str("unknown"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            losses,
            draws,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.05
    }

    #[test]
    fn even_score_is_zero_and_three_quarters_is_190_8() {
        assert_eq!(elo_of_score(0.5), 0.0);
        assert!(close(elo_of_score(0.75), 190.8), "{}", elo_of_score(0.75));
        assert!(close(elo_of_score(0.25), -190.8));
    }

    #[test]
    fn interval_uses_the_trinomial_variance() {
        // Values computed independently from the formula in the module documentation.
        let elo = tally(75, 0, 25).elo().unwrap();
        assert!(close(elo.estimate.unwrap(), 190.8), "{elo:?}");
        assert!(close(elo.low.unwrap(), 119.2), "{elo:?}");
        assert!(close(elo.high.unwrap(), 281.5), "{elo:?}");
        assert_eq!(elo.to_string(), "+190.8 (95%: +119.2 to +281.5)");
        // Draws shrink the variance: 30-40-30 is narrower than 5-0-5.
        let drawish = tally(30, 40, 30).elo().unwrap();
        assert!(close(drawish.estimate.unwrap(), 0.0));
        assert!(close(drawish.high.unwrap(), 53.2), "{drawish:?}");
        assert!(close(drawish.low.unwrap(), -53.2), "{drawish:?}");
        let even = tally(5, 0, 5).elo().unwrap();
        assert!(close(even.high.unwrap(), 251.8), "{even:?}");
    }

    #[test]
    fn an_interval_end_beyond_the_score_range_is_unbounded() {
        let elo = tally(3, 0, 1).elo().unwrap();
        assert!(close(elo.estimate.unwrap(), 190.8));
        assert_eq!(elo.high, None);
        assert!(elo.low.is_some());
        assert!(elo.to_string().ends_with("to +inf)"), "{elo}");
    }

    #[test]
    fn all_wins_and_all_losses_give_bounds() {
        let wins = tally(100, 0, 0).elo().unwrap();
        assert_eq!(wins.estimate, None);
        assert!(close(wins.low.unwrap(), 570.0), "{wins:?}");
        assert_eq!(wins.high, None);
        assert_eq!(wins.to_string(), "> +570.0");
        let losses = tally(0, 0, 10).elo().unwrap();
        assert!(close(losses.high.unwrap(), -140.2), "{losses:?}");
        assert_eq!(losses.low, None);
        assert_eq!(losses.to_string(), "< -140.2");
    }

    #[test]
    fn all_draws_is_an_even_match_and_no_games_is_nothing() {
        let draws = tally(0, 4, 0);
        assert_eq!(draws.score(), Some(0.5));
        assert_eq!(draws.elo().unwrap().estimate, Some(0.0));
        assert_eq!(Tally::default().score(), None);
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn reversing_swaps_wins_and_losses() {
        let t = tally(7, 2, 1);
        assert_eq!(t.reversed(), tally(1, 2, 7));
        assert_eq!(t.reversed().reversed(), t);
        let (a, b) = (t.elo().unwrap(), t.reversed().elo().unwrap());
        assert!(close(a.estimate.unwrap(), -b.estimate.unwrap()));
    }
}

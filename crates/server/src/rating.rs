//! Glicko-2 ratings, as Glickman describes them ("Example of the Glicko-2 system", 2012),
//! updated as lichess does: every game is a rating period of its own, with τ = 0.5.

/// The system constant τ: how much volatility may change.
pub const TAU: f64 = 0.5;
/// The Glicko-1 scale's factor (400 / ln 10).
const SCALE: f64 = 173.7178;
/// Where the volatility iteration stops.
const EPSILON: f64 = 0.000_001;
/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A player's rating: its value, its deviation (uncertainty) and its volatility.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player's rating: 1500 / 350 / 0.06.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// One game's result for the player rated: 1 a win, 0.5 a draw, 0 a loss.
pub type Score = f64;

impl Rating {
    /// Whether the rating is still provisional (deviation above 110).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after one rating period with `games`: each opponent's rating before the
    /// period, and this player's score against it. Without games only the deviation grows.
    pub fn after(&self, games: &[(Rating, Score)]) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        if games.is_empty() {
            let grown = (phi * phi + self.volatility * self.volatility).sqrt();
            return Rating {
                deviation: grown * SCALE,
                ..*self
            };
        }
        // Step 3: the estimated variance v; step 4: the estimated improvement Δ.
        let (mut inverse_v, mut sum) = (0.0, 0.0);
        for (opponent, score) in games {
            let mu_j = (opponent.rating - 1500.0) / SCALE;
            let g = g(opponent.deviation / SCALE);
            let expected = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
            inverse_v += g * g * expected * (1.0 - expected);
            sum += g * (score - expected);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = new_volatility(phi, self.volatility, v, delta);
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * sum;
        Rating {
            rating: SCALE * new_mu + 1500.0,
            deviation: SCALE * new_phi,
            volatility: sigma,
        }
    }
}

/// How much an opponent's deviation `phi` weakens what a game against it says.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Step 5 of Glickman's description: the Illinois algorithm finds the new volatility.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman's worked example: 1500 / 200 / 0.06 beats 1400 / 30 and loses to 1550 / 100
    /// and 1700 / 300, and ends at 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_example() {
        let after = rating(1500.0, 200.0).after(&[
            (rating(1400.0, 30.0), 1.0),
            (rating(1550.0, 100.0), 0.0),
            (rating(1700.0, 300.0), 0.0),
        ]);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    /// Two new players: the winner goes to 1662.3 and the loser to 1337.7, both with
    /// deviation 290.3.
    #[test]
    fn two_new_players() {
        let new = Rating::default();
        let winner = new.after(&[(new, 1.0)]);
        let loser = new.after(&[(new, 0.0)]);
        assert!(close(winner.rating, 1662.3, 0.05), "{winner:?}");
        assert!(close(loser.rating, 1337.7, 0.05), "{loser:?}");
        assert!(close(winner.deviation, 290.3, 0.05), "{winner:?}");
        assert!(close(loser.deviation, 290.3, 0.05), "{loser:?}");
        assert!(winner.provisional() && loser.provisional());
        let draw = new.after(&[(new, 0.5)]);
        assert!(close(draw.rating, 1500.0, 1e-9), "{draw:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let before = rating(1600.0, 50.0);
        let after = before.after(&[]);
        assert_eq!((after.rating, after.volatility), (1600.0, 0.06));
        assert!(after.deviation > 50.0);
    }
}

//! What a bot seeking a game accepts, and the game two seeks make: the same rule set, with
//! parameters and clocks that each side accepts. A seek names its parameters or takes any;
//! it names its clock, takes none, any clock whose initial time lies in a range, or anything.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use toroid_rules::GameKind;

use crate::api::{AnyWord, ClockRange, SeekClock, SeekParams};
use crate::error::ApiError;
use crate::model::{GameSpec, TimeControl};

/// The parameters a seek accepts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamsTerms {
    /// Whatever the other side asks; the rule set's defaults when neither asks.
    Any,
    /// These, resolved with the defaults (a JSON object of every parameter).
    Exactly(Map<String, Value>),
}

/// The clocks a seek accepts.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockTerms {
    /// No clock.
    None,
    Exactly(TimeControl),
    /// A clock whose initial time is within these bounds (in milliseconds), any increment.
    Range {
        min_ms: i64,
        max_ms: i64,
    },
    /// A clock or none.
    Any,
}

/// What a seek accepts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeekTerms {
    pub game: GameKind,
    pub params: ParamsTerms,
    pub clock: ClockTerms,
    /// Rated seeks pair only with rated ones, at the default parameters with a clock.
    #[serde(default)]
    pub rated: bool,
}

impl SeekTerms {
    /// The terms of a seek message, checked: a known rule set, valid parameters and clocks.
    pub fn read(
        game: GameKind,
        params: &SeekParams,
        clock: Option<&SeekClock>,
        rated: bool,
    ) -> Result<SeekTerms, ApiError> {
        // Whether the parameters asked for may make a rated game.
        let (params, poolable) = match params {
            SeekParams::Any(AnyWord::Any) => (ParamsTerms::Any, true),
            SeekParams::Given(given) => {
                let spec = GameSpec::for_players(game, given, true)
                    .map_err(|e| ApiError::BadRequest(format!("{game}: {e}")))?;
                (
                    ParamsTerms::Exactly(spec.params_object()),
                    spec.at_defaults(),
                )
            }
        };
        let clock = match clock {
            None => ClockTerms::None,
            Some(SeekClock::Exactly(control)) => ClockTerms::Exactly(*control),
            Some(SeekClock::Range(range)) => range_terms(range)?,
            Some(SeekClock::Any(AnyWord::Any)) => ClockTerms::Any,
        };
        if rated && (clock == ClockTerms::None || !poolable) {
            return Err(ApiError::BadRequest(
                "a rated seek asks for a clock (or any) and the default parameters (or any)".into(),
            ));
        }
        Ok(SeekTerms {
            game,
            params,
            clock,
            rated,
        })
    }

    /// The game of a seek with these terms and one with `other`'s, if each accepts the
    /// other: what game it is, and its clock.
    pub fn pair(&self, other: &SeekTerms) -> Option<(GameSpec, Option<TimeControl>)> {
        if self.game != other.game || self.rated != other.rated {
            return None;
        }
        let params = match (&self.params, &other.params) {
            (ParamsTerms::Exactly(a), ParamsTerms::Exactly(b)) if a != b => return None,
            (ParamsTerms::Exactly(given), _) | (_, ParamsTerms::Exactly(given)) => given.clone(),
            (ParamsTerms::Any, ParamsTerms::Any) => Map::new(),
        };
        let clock = pair_clocks(self.clock, other.clock)?;
        // Two rated seeks that take any clock make a game without one, which is not rated.
        if self.rated && clock.is_none() {
            return None;
        }
        Some((GameSpec::for_players(self.game, &params, true).ok()?, clock))
    }

    /// The terms as the list of open seeks shows them, in the seek message's words.
    pub fn view(&self) -> Value {
        let params = match &self.params {
            ParamsTerms::Any => json!("any"),
            ParamsTerms::Exactly(given) => Value::Object(given.clone()),
        };
        let seconds = |ms: i64| ms as f64 / 1000.0;
        let clock = match self.clock {
            ClockTerms::None => Value::Null,
            ClockTerms::Exactly(control) => json!(control),
            ClockTerms::Range { min_ms, max_ms } => {
                json!({"min_initial_s": seconds(min_ms), "max_initial_s": seconds(max_ms)})
            }
            ClockTerms::Any => json!("any"),
        };
        json!({"game": self.game, "params": params, "clock": clock, "rated": self.rated})
    }
}

fn range_terms(range: &ClockRange) -> Result<ClockTerms, ApiError> {
    let (min, max) = (range.min_initial_s, range.max_initial_s);
    let ok = |s: f64| s.is_finite() && (1.0..=86_400.0).contains(&s);
    if !ok(min) || !ok(max) || min > max {
        return Err(ApiError::BadRequest(
            "a clock range has min_initial_s ≤ max_initial_s, each from 1 to 86400 seconds".into(),
        ));
    }
    Ok(ClockTerms::Range {
        min_ms: (min * 1000.0).round() as i64,
        max_ms: (max * 1000.0).round() as i64,
    })
}

/// The clock of a game between seeks that accept `a` and `b`: `None` if they disagree,
/// `Some(None)` for a game without a clock. Two ranges meet at the shortest time both
/// accept, without increment.
fn pair_clocks(a: ClockTerms, b: ClockTerms) -> Option<Option<TimeControl>> {
    use ClockTerms::{Any, Exactly, None as NoClock, Range};
    let within = |t: TimeControl, min: i64, max: i64| (min..=max).contains(&t.initial_ms());
    // A game at `initial_ms` without increment (a range's bounds were checked as a clock's
    // initial time is).
    let from = |initial_ms| TimeControl::new(initial_ms, 0).ok().map(Some);
    match (a, b) {
        (NoClock | Any, NoClock) | (NoClock, Any) | (Any, Any) => Some(None),
        (Exactly(t), Exactly(u)) => (t == u).then_some(Some(t)),
        (Exactly(t), Any) | (Any, Exactly(t)) => Some(Some(t)),
        (Exactly(t), Range { min_ms, max_ms }) | (Range { min_ms, max_ms }, Exactly(t)) => {
            within(t, min_ms, max_ms).then_some(Some(t))
        }
        (Range { min_ms, .. }, Any) | (Any, Range { min_ms, .. }) => from(min_ms),
        (
            Range {
                min_ms: a,
                max_ms: b,
            },
            Range {
                min_ms: c,
                max_ms: d,
            },
        ) => (a.max(c) <= b.min(d)).then(|| from(a.max(c))).flatten(),
        (NoClock, Exactly(_) | Range { .. }) | (Exactly(_) | Range { .. }, NoClock) => None,
    }
}

#[cfg(test)]
mod tests {
    use toroid_rules::Position;

    use super::*;

    fn terms(params: ParamsTerms, clock: ClockTerms) -> SeekTerms {
        SeekTerms {
            game: GameKind::Go,
            params,
            clock,
            rated: false,
        }
    }

    fn size(n: i64) -> ParamsTerms {
        let spec =
            GameSpec::new(GameKind::Go, &Map::from_iter([("size".into(), json!(n))])).unwrap();
        ParamsTerms::Exactly(spec.params_object())
    }

    fn control(initial_ms: i64, increment_ms: i64) -> TimeControl {
        TimeControl::new(initial_ms, increment_ms).unwrap()
    }

    #[test]
    fn parameters_pair_when_equal_or_either_side_takes_any() {
        let none = ClockTerms::None;
        let pair = |a, b| {
            terms(a, none)
                .pair(&terms(b, none))
                .map(|(g, _)| g.start().topology().width())
        };
        assert_eq!(pair(size(9), size(9)), Some(9));
        assert_eq!(pair(size(9), size(13)), None);
        assert_eq!(pair(ParamsTerms::Any, size(13)), Some(13));
        assert_eq!(pair(size(7), ParamsTerms::Any), Some(7));
        assert_eq!(
            pair(ParamsTerms::Any, ParamsTerms::Any),
            Some(9),
            "the defaults"
        );
        let other_game = SeekTerms {
            game: GameKind::Torus,
            ..terms(ParamsTerms::Any, none)
        };
        assert!(terms(ParamsTerms::Any, none).pair(&other_game).is_none());
    }

    #[test]
    fn clocks_pair_by_the_table() {
        use ClockTerms::{Any, Exactly, None as NoClock, Range};
        let blitz = control(180_000, 2_000);
        let range = |min_ms, max_ms| Range { min_ms, max_ms };
        let cases = [
            (NoClock, NoClock, Some(None)),
            (NoClock, Any, Some(None)),
            (Any, Any, Some(None)),
            (NoClock, Exactly(blitz), None),
            (NoClock, range(1_000, 9_000), None),
            (Exactly(blitz), Exactly(blitz), Some(Some(blitz))),
            (Exactly(blitz), Exactly(control(180_000, 0)), None),
            (Exactly(blitz), Any, Some(Some(blitz))),
            (range(60_000, 300_000), Exactly(blitz), Some(Some(blitz))),
            (range(60_000, 120_000), Exactly(blitz), None),
            (
                range(60_000, 300_000),
                range(120_000, 600_000),
                Some(Some(control(120_000, 0))),
            ),
            (range(60_000, 90_000), range(120_000, 600_000), None),
            (range(60_000, 300_000), Any, Some(Some(control(60_000, 0)))),
        ];
        for (a, b, expected) in cases {
            assert_eq!(pair_clocks(a, b), expected, "{a:?} with {b:?}");
            assert_eq!(pair_clocks(b, a), expected, "{b:?} with {a:?}");
        }
    }
}

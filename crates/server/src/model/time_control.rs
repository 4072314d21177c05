//! A game's clock: one type, counted in milliseconds, read and written in seconds on the wire.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::openapi::{schema::Schema, RefOr};
use utoipa::{PartialSchema, ToSchema};

/// A time control: the initial time and the increment per move, in milliseconds. On the wire
/// (the API and the bot protocol) it is `{"initial_s": 300, "increment_s": 2}`, and reading it
/// checks it: an initial time from 1 s to a day, an increment from 0 to an hour. A value of
/// this type is always within those bounds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Seconds", into = "Seconds")]
pub struct TimeControl {
    initial_ms: i64,
    increment_ms: i64,
}

const INITIAL_MS: std::ops::RangeInclusive<i64> = 1_000..=86_400_000;
const INCREMENT_MS: std::ops::RangeInclusive<i64> = 0..=3_600_000;
const DAY_MS: i64 = 86_400_000;
/// The days per move a correspondence clock gives.
const DAYS_PER_MOVE: std::ops::RangeInclusive<i64> = 1..=14;

impl TimeControl {
    /// A time control of `initial_ms` and `increment_ms`, if both are within bounds.
    pub fn new(initial_ms: i64, increment_ms: i64) -> Result<TimeControl, OutOfBounds> {
        let fischer = INITIAL_MS.contains(&initial_ms) && INCREMENT_MS.contains(&increment_ms);
        // A correspondence clock is stored as its days both as initial time and increment,
        // which no Fischer clock has (its increment is an hour at most).
        let days =
            (initial_ms % DAY_MS == 0 && increment_ms == initial_ms).then_some(initial_ms / DAY_MS);
        if fischer || days.is_some_and(|d| DAYS_PER_MOVE.contains(&d)) {
            Ok(TimeControl {
                initial_ms,
                increment_ms,
            })
        } else {
            Err(OutOfBounds)
        }
    }

    pub fn initial_ms(self) -> i64 {
        self.initial_ms
    }

    pub fn increment_ms(self) -> i64 {
        self.increment_ms
    }

    /// A correspondence clock of `days` days per move: after each move the mover's clock is
    /// full again, as lichess's correspondence games are.
    pub fn correspondence(days: i64) -> Result<TimeControl, OutOfBounds> {
        TimeControl::new(days * DAY_MS, days * DAY_MS)
    }

    /// The days per move of a correspondence clock; `None` for a Fischer clock.
    pub fn days_per_move(self) -> Option<i64> {
        (self.increment_ms >= DAY_MS).then_some(self.initial_ms / DAY_MS)
    }
}

/// A clock outside the bounds a time control keeps.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a clock has initial_s from 1 to 86400 seconds and increment_s from 0 to 3600, or days_per_move from 1 to 14")]
pub struct OutOfBounds;

/// The wire form: seconds, fractions allowed; or a correspondence clock's days per move
/// (`{"days_per_move": 3}`, written with its seconds too, for clients that read only them).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct Seconds {
    #[serde(default)]
    initial_s: f64,
    #[serde(default)]
    increment_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    days_per_move: Option<i64>,
}

impl TryFrom<Seconds> for TimeControl {
    type Error = OutOfBounds;

    fn try_from(s: Seconds) -> Result<TimeControl, OutOfBounds> {
        if let Some(days) = s.days_per_move {
            return TimeControl::correspondence(days);
        }
        let ms = |seconds: f64| {
            let ms = (seconds * 1000.0).round();
            // NaN, infinities and huge values fail here rather than saturating into range.
            (ms.is_finite() && ms.abs() < 1e15).then_some(ms as i64)
        };
        match (ms(s.initial_s), ms(s.increment_s)) {
            (Some(initial), Some(increment)) => TimeControl::new(initial, increment),
            _ => Err(OutOfBounds),
        }
    }
}

impl From<TimeControl> for Seconds {
    fn from(t: TimeControl) -> Seconds {
        Seconds {
            initial_s: t.initial_ms as f64 / 1000.0,
            increment_s: t.increment_ms as f64 / 1000.0,
            days_per_move: t.days_per_move(),
        }
    }
}

impl PartialSchema for TimeControl {
    fn schema() -> RefOr<Schema> {
        Seconds::schema()
    }
}

impl ToSchema for TimeControl {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("TimeControl")
    }
}

/// The stored form of a time control inside a JSON column (a tournament's state):
/// `{"initial_ms": …, "increment_ms": …}`, as rows written before the wire form existed have
/// it. Use with `#[serde(with = "stored_millis")]`.
pub mod stored_millis {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::TimeControl;

    #[derive(Serialize, Deserialize)]
    struct Millis {
        initial_ms: i64,
        increment_ms: i64,
    }

    pub fn serialize<S: Serializer>(t: &TimeControl, s: S) -> Result<S::Ok, S::Error> {
        Millis {
            initial_ms: t.initial_ms(),
            increment_ms: t.increment_ms(),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let m = Millis::deserialize(d)?;
        TimeControl::new(m.initial_ms, m.increment_ms).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_wire_form_is_seconds_and_reading_it_checks_the_bounds() {
        let t: TimeControl =
            serde_json::from_value(json!({"initial_s": 0.5e3, "increment_s": 2.5})).unwrap();
        assert_eq!(t, TimeControl::new(500_000, 2_500).unwrap());
        assert_eq!(
            serde_json::to_value(t).unwrap(),
            json!({"initial_s": 500.0, "increment_s": 2.5})
        );
        let no_increment: TimeControl = serde_json::from_value(json!({"initial_s": 60})).unwrap();
        assert_eq!(no_increment.increment_ms, 0);
        for refused in [
            json!({"initial_s": 0}),
            json!({"initial_s": 86_401}),
            json!({"initial_s": 60, "increment_s": -1}),
            json!({"initial_s": 60, "increment_s": 3_601}),
            json!({"initial_s": 1e300}),
            json!({"initial_s": 60, "minutes": 1}),
        ] {
            assert!(
                serde_json::from_value::<TimeControl>(refused.clone()).is_err(),
                "{refused}"
            );
        }
    }

    #[test]
    fn the_stored_form_keeps_milliseconds() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Row {
            #[serde(with = "stored_millis")]
            clock: TimeControl,
        }
        let row = Row {
            clock: TimeControl::new(90_000, 1_000).unwrap(),
        };
        let json = serde_json::to_value(&row).unwrap();
        assert_eq!(
            json,
            json!({"clock": {"initial_ms": 90_000, "increment_ms": 1_000}})
        );
        assert_eq!(serde_json::from_value::<Row>(json).unwrap(), row);
    }

    #[test]
    fn a_correspondence_clock_is_days_per_move_and_no_fischer_clock_is_one() {
        let t: TimeControl = serde_json::from_value(json!({"days_per_move": 3})).unwrap();
        assert_eq!((t.days_per_move(), t.initial_ms), (Some(3), 3 * DAY_MS));
        let wire = serde_json::to_value(t).unwrap();
        assert_eq!(wire["days_per_move"], 3);
        assert_eq!(serde_json::from_value::<TimeControl>(wire).unwrap(), t);
        for days in [0, 15] {
            assert!(serde_json::from_value::<TimeControl>(json!({"days_per_move": days})).is_err());
        }
        let longest = TimeControl::new(86_400_000, 3_600_000).unwrap();
        assert_eq!(longest.days_per_move(), None);
        assert!(
            TimeControl::new(2 * DAY_MS, 0).is_err(),
            "two days of Fischer time"
        );
    }
}

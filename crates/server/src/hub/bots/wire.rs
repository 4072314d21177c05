//! The JSON shapes of registered bots.
//! `crate::api` gathers every feature's.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::model::TimeControl;

/// The word `any`, for what a seek leaves open.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub enum AnyWord {
    #[serde(rename = "any")]
    Any,
}

/// The parameters a seek asks for: given ones (the others take their defaults), or `any`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SeekParams {
    Any(AnyWord),
    Given(Map<String, Value>),
}

impl Default for SeekParams {
    fn default() -> SeekParams {
        SeekParams::Given(Map::new())
    }
}

/// The clock a seek asks for (null: none): exactly one, any whose initial time is in a
/// range, or `any` (a clock or none).
#[derive(Copy, Clone, Debug, PartialEq, ToSchema)]
pub enum SeekClock {
    Exactly(TimeControl),
    Range(ClockRange),
    Any(AnyWord),
}

/// Told apart by their fields, so that a clock out of bounds is refused with its own
/// reason rather than serde's "matches no variant".
impl<'de> Deserialize<'de> for SeekClock {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SeekClock, D::Error> {
        use serde::de::Error;
        fn read<T: serde::de::DeserializeOwned, E: Error>(value: Value) -> Result<T, E> {
            serde_json::from_value(value).map_err(E::custom)
        }
        let value = Value::deserialize(deserializer)?;
        match &value {
            Value::String(_) => read(value).map(SeekClock::Any),
            Value::Object(fields) if fields.contains_key("initial_s") => {
                read(value).map(SeekClock::Exactly)
            }
            Value::Object(_) => read(value).map(SeekClock::Range),
            _ => Err(D::Error::custom(
                "a seek's clock is a clock, a range of initial times, or \"any\"",
            )),
        }
    }
}

/// Any clock whose initial time is within these bounds, in seconds.
#[derive(Copy, Clone, Debug, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockRange {
    pub min_initial_s: f64,
    pub max_initial_s: f64,
}

/// A bot's open seek, in `GET /api/bots/seeks`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct SeekView {
    pub bot: String,
    /// `game`, `params` (an object or `"any"`) and `clock` (null, a clock, a range or
    /// `"any"`), as the seek said them.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub terms: Value,
}

/// `POST /api/bots`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBot {
    /// 1 to 32 letters, digits, `-`, `_` or `.`; unique.
    pub name: String,
}

/// A bot just registered: its token is shown this once (the server keeps only its hash).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct BotCreated {
    pub id: String,
    pub name: String,
    /// For `Authorization: Bearer TOKEN` on `/api/bot/ws`.
    pub token: String,
}

/// A bot of the asker's, for `GET /api/bots/mine`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct OwnBot {
    pub id: String,
    pub name: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Whether it is connected now.
    pub online: bool,
}

/// The asker's bots, oldest first.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct OwnBots {
    pub bots: Vec<OwnBot>,
}

/// The bots connected now, which people can challenge by name.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct OnlineBots {
    pub online: Vec<String>,
}

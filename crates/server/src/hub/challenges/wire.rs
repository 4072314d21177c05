//! The JSON shapes of challenges.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toroid_protocol::view::ParamsView;
use toroid_rules::{Color, GameKind};
use utoipa::ToSchema;

use crate::api::{ColorChoice, PlayerView};
use crate::model::TimeControl;

/// `POST /api/challenges`, and a bot's `challenge-player`: a game offered to the player
/// called `to` (an account or a registered bot), kept until answered, withdrawn or expired.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// The player's name.
    pub to: String,
    /// A rule set's name (`GET /api/rules`).
    #[schema(value_type = String)]
    pub game: GameKind,
    /// Parameters by name, numbers or strings; the others take their defaults.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub params: Map<String, Value>,
    /// No clock when null or absent.
    #[serde(default)]
    pub clock: Option<TimeControl>,
    /// The challenger's colour.
    #[serde(default)]
    pub color: ColorChoice,
    #[serde(default)]
    pub rated: bool,
    /// How long it waits for an answer, in seconds: 10 to 604800 (a week); a day when
    /// absent.
    #[serde(default)]
    pub wait_s: Option<u64>,
}

/// A challenge to a player by name, as both players see it.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ChallengeView {
    pub id: String,
    pub from: PlayerView,
    pub to: PlayerView,
    #[schema(value_type = String)]
    pub game: GameKind,
    #[schema(value_type = Object)]
    pub params: ParamsView,
    pub clock: Option<TimeControl>,
    /// The colour of the player challenged.
    #[schema(value_type = String)]
    pub color: Color,
    pub rated: bool,
    /// `open`, `accepted` (`game_id` is the game), `declined` (`reason` says why),
    /// `withdrawn` or `expired`.
    pub status: &'static str,
    pub game_id: Option<String>,
    pub reason: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub expires_at: i64,
}

/// `GET /api/challenges`: the asker's challenges.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChallengeList {
    /// To the asker, open, oldest first.
    pub incoming: Vec<ChallengeView>,
    /// The asker's own, open or ended in the last hour, oldest first.
    pub outgoing: Vec<ChallengeView>,
}

/// `POST /api/challenges/{id}/decline`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclineChallenge {
    /// Shown to the challenger; 200 characters at most.
    #[serde(default)]
    pub reason: Option<String>,
}

/// `POST /api/challenges/{id}/accept`: the game it opened.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AcceptedChallenge {
    pub game_id: String,
}

//! The JSON shapes of the lobby (new games, invitations).
//! `crate::api` gathers every feature's.

use serde::Deserialize;
use serde_json::{Map, Value};
use toroid_rules::GameKind;
use utoipa::ToSchema;

use crate::model::TimeControl;

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
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
    pub opponent: Opponent,
    #[serde(default)]
    pub color: ColorChoice,
    /// Whether the game changes the players' ratings: only between accounts, registered
    /// bots and house bots, with a clock, at the rule set's default parameters.
    #[serde(default)]
    pub rated: bool,
}

/// `POST /api/pool`: quick pairing with anyone who asks for the same game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuickPairing {
    #[schema(value_type = String)]
    pub game: GameKind,
    /// As `NewGame::params`; the lobby's grid asks for the defaults.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub params: Map<String, Value>,
    #[serde(default)]
    pub clock: Option<TimeControl>,
    #[serde(default)]
    pub rated: bool,
}

impl From<QuickPairing> for NewGame {
    /// The open game that waits for a pairing, in a colour drawn at random.
    fn from(pairing: QuickPairing) -> NewGame {
        NewGame {
            game: pairing.game,
            params: pairing.params,
            clock: pairing.clock,
            opponent: Opponent::Open {},
            color: ColorChoice::Random,
            rated: pairing.rated,
        }
    }
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Opponent {
    /// A house bot of a level (`GET /api/levels`).
    House { level: String },
    /// A person who opens the invite link. (Braces, so that unknown fields are refused:
    /// serde checks them only on the struct variants of an internally tagged enum.)
    Invite {},
    /// A registered bot, connected now, that accepts the challenge.
    Bot { name: String },
    /// Anyone: an open game, listed with the waiting games, that a person joins from its
    /// page or by quick pairing (`POST /api/pool`).
    Open {},
}

#[derive(Copy, Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    Black,
    White,
    #[default]
    Random,
}

/// `POST /api/games/{id}/join` and `POST /api/join`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The code of the invite link (`/join/CODE`); none to join an open game.
    #[serde(default)]
    pub code: Option<String>,
}

//! The JSON shapes of ratings.
//! `crate::api` gathers every feature's.

use serde::Serialize;
use toroid_rules::GameKind;
use utoipa::ToSchema;

use crate::hub::games::wire::GameSummary;

/// A player's rating in one pool (a rule set), in `GET /api/leaderboard/{game}` and
/// `GET /api/players/{name}`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct RatingView {
    /// The player's name when last rated.
    pub name: String,
    /// `person` (an account), `bot` or `house`.
    pub kind: &'static str,
    /// The rule set.
    #[schema(value_type = String)]
    pub pool: GameKind,
    /// Glicko-2, rounded to a tenth.
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: i64,
    /// While the deviation is above 110.
    pub provisional: bool,
}

/// One point of a rating's history: the rating after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct RatingPoint {
    pub game_id: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    pub rating: f64,
}

/// A pool's rating and its history, on a player's page.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PoolRating {
    #[serde(flatten)]
    pub rating: RatingView,
    pub history: Vec<RatingPoint>,
}

/// `GET /api/players/{name}`: a player's ratings in every pool with their history, its
/// recent games, and an account's bots.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerPage {
    pub name: String,
    pub kind: &'static str,
    pub ratings: Vec<PoolRating>,
    pub games: Vec<GameSummary>,
    pub bots: Vec<String>,
}

/// What a rated game did to a player's rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, ToSchema)]
pub struct RatingChange {
    pub before: f64,
    pub after: f64,
}

/// `GET /api/games/{id}/ratings`: in a rated game, each player's rating in the rule set's
/// pool as it stands (shown beside the names), and once it is over what the game did to it.
/// Both null for an unrated game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct GameRatings {
    #[schema(value_type = Object)]
    pub ratings: toroid_protocol::view::PerColor<Option<f64>>,
    #[schema(value_type = Object)]
    pub changes: toroid_protocol::view::PerColor<Option<RatingChange>>,
}

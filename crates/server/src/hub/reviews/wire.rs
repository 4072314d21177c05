//! The JSON shapes of reviews.
//! `crate::api` gathers every feature's.

use serde::{Deserialize, Serialize};
use toroid_rules::Color;
use utoipa::ToSchema;

/// `GET /api/games/{id}/review`: the house engine's review of a finished game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ReviewView {
    /// `none` (nobody asked for one yet), `running`, `done` or `failed`.
    pub status: &'static str,
    /// Positions reviewed so far, of `total` (the moves plus one).
    pub done: usize,
    pub total: usize,
    /// Each position reviewed, from the start.
    pub positions: Vec<ReviewedPosition>,
    /// Each move whose positions before and after are reviewed.
    pub moves: Vec<ReviewedMove>,
}

/// What the engine found in the position after `ply` moves.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ReviewedPosition {
    pub ply: usize,
    #[serde(flatten)]
    pub found: Finding,
}

/// What the engine finds in a position (stored so, a JSON array of them a review).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Finding {
    /// Black's chance to win (0 to 1; a draw counts half): the search's, or the result's
    /// where the rules ended the game.
    pub black: f64,
    /// The engine's move here and the line it expects (none once the game is over).
    pub best: Option<String>,
    #[serde(default)]
    pub line: Vec<String>,
}

/// How good move `ply` (1 for the first) was.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ReviewedMove {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: String,
    #[schema(value_type = String)]
    pub color: Color,
    /// The mover's chance to win that the move gave away (0 when it kept or raised it).
    pub loss: f64,
    /// `inaccuracy`, `mistake` or `blunder` by the loss (docs/server.md), or null.
    pub judgement: Option<&'static str>,
}

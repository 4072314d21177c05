//! The JSON shapes of puzzles.
//! `crate::api` gathers every feature's.

use serde::{Deserialize, Serialize};
use toroid_protocol::view::{GameView, TopologyView};
use utoipa::ToSchema;

/// A puzzle, as the player to solve it sees it: the position and what to find, not the
/// answer (`GET /api/puzzles/{id}`, `GET /api/puzzles/next`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleView {
    pub id: String,
    /// The rule set.
    pub game: &'static str,
    /// `win` (find the quickest win) or `save` (find the one move that does not lose at once).
    pub goal: &'static str,
    /// For a win: in how many plies the answer wins with best play (1: at once).
    pub plies: i64,
    /// What to find, in words.
    pub prompt: String,
    #[schema(value_type = Object)]
    pub position: GameView,
    #[schema(value_type = Object)]
    pub topology: TopologyView,
    /// The puzzle's rating (Glicko-2, from the attempts of signed-in players).
    pub rating: f64,
    pub attempts: i64,
    pub solved: i64,
    /// Whether the viewer's account tried it before, and solved it (null if not or a guest).
    pub tried: Option<bool>,
}

/// The query of `GET /api/puzzles/next`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// The rule set.
    pub game: String,
    /// A puzzle not to give (the one just done).
    #[serde(default)]
    pub skip: String,
}

/// The body of `POST /api/puzzles/{id}/attempt`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PuzzleMove {
    #[serde(rename = "move")]
    pub mv: String,
}

/// The verdict on an attempt: whether it solved the puzzle, why, the answer, and the rating
/// change of a first attempt by a signed-in player.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleAnswer {
    pub solved: bool,
    pub explanation: String,
    /// The puzzle's answer, and the position after it.
    pub answer: String,
    #[schema(value_type = Object)]
    pub position: GameView,
    /// The player's puzzle rating before and after, on a first attempt while signed in.
    pub rating: Option<PuzzleRatingChange>,
    /// The puzzle's rating now.
    pub puzzle_rating: f64,
    /// The game the puzzle comes from, and the moves played before it there.
    pub game_id: String,
    pub ply: i64,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleRatingChange {
    pub before: f64,
    pub after: f64,
}

/// `GET /api/puzzles`: for each rule set, its puzzles and the viewer's puzzle rating.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzlePool {
    pub game: &'static str,
    pub puzzles: i64,
    /// The viewer's puzzle rating there (null for a guest or before a first attempt).
    pub rating: Option<f64>,
    pub attempts: i64,
}

/// A puzzle mined from a game (`GET /api/games/{id}/puzzles`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleSummary {
    pub id: String,
    pub ply: i64,
    pub goal: &'static str,
    pub rating: f64,
}

//! The HTTP routes of ratings.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

use super::wire::{GameRatings, PlayerPage, RatingView};
use crate::error::ApiError;
use crate::http::{AppState, ErrorBody};

/// The rating pool of a rule set: its players by rating (at most 100).
#[utoipa::path(get, path = "/api/leaderboard/{game}", tag = "ratings",
    params(("game" = String, Path, description = "a rule set")),
    responses((status = 200, body = Vec<RatingView>), (status = 404, body = ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> Result<Json<Vec<RatingView>>, ApiError> {
    Ok(Json(state.hub.leaderboard(&game).await?))
}

/// A player: an account (whatever the name's case), else a registered bot, else a house
/// level; its ratings with their history, its recent games and an account's bots.
#[utoipa::path(get, path = "/api/players/{name}", tag = "ratings",
    params(("name" = String, Path)),
    responses((status = 200, body = PlayerPage), (status = 404, body = ErrorBody)))]
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PlayerPage>, ApiError> {
    Ok(Json(state.hub.player(&name).await?))
}

/// The ratings of a rated game's players, and once it is over their changes.
#[utoipa::path(get, path = "/api/games/{id}/ratings", tag = "ratings",
    params(("id" = String, Path)),
    responses((status = 200, body = GameRatings), (status = 404, body = ErrorBody)))]
pub async fn game_ratings(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameRatings>, ApiError> {
    Ok(Json(state.hub.game_ratings(&id).await?))
}

/// Adds the routes of ratings to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/leaderboard/{game}", get(leaderboard))
        .route("/players/{name}", get(player))
        .route("/games/{id}/ratings", get(game_ratings))
}

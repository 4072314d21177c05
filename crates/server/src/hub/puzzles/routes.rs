//! The HTTP routes of puzzles.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};

use super::wire::{NextQuery, PuzzleAnswer, PuzzleMove, PuzzlePool, PuzzleSummary, PuzzleView};
use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiQuery, Viewer};
use crate::http::{AppState, ErrorBody};

/// Every rule set with its number of puzzles and the viewer's puzzle rating there.
#[utoipa::path(get, path = "/api/puzzles", tag = "puzzles",
    responses((status = 200, body = Vec<PuzzlePool>)))]
pub async fn pools(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
) -> Result<Json<Vec<PuzzlePool>>, ApiError> {
    Ok(Json(state.hub.puzzle_pools(viewer.as_ref()).await?))
}

/// A puzzle of a rule set for the viewer: one a signed-in player has not tried, rated near
/// its puzzle rating.
#[utoipa::path(get, path = "/api/puzzles/next", tag = "puzzles", params(NextQuery),
    responses((status = 200, body = PuzzleView),
        (status = 404, body = ErrorBody, description = "no such rule set, or no puzzle left")))]
pub async fn next(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiQuery(query): ApiQuery<NextQuery>,
) -> Result<Json<PuzzleView>, ApiError> {
    let puzzle = state
        .hub
        .next_puzzle(&query.game, viewer.as_ref(), &query.skip);
    Ok(Json(puzzle.await?))
}

/// A puzzle: its position and what to find (not the answer).
#[utoipa::path(get, path = "/api/puzzles/{id}", tag = "puzzles", params(("id" = String, Path)),
    responses((status = 200, body = PuzzleView), (status = 404, body = ErrorBody)))]
pub async fn puzzle(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    Ok(Json(state.hub.puzzle(&id, viewer.as_ref()).await?))
}

/// Plays a move in a puzzle: whether it solves it, why, and the answer. A signed-in
/// player's first attempt changes its puzzle rating; any other changes nothing.
#[utoipa::path(post, path = "/api/puzzles/{id}/attempt", tag = "puzzles", request_body = PuzzleMove,
    params(("id" = String, Path)),
    responses((status = 200, body = PuzzleAnswer),
        (status = 400, body = ErrorBody, description = "not a legal move of the position"),
        (status = 404, body = ErrorBody)))]
pub async fn attempt(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<PuzzleMove>,
) -> Result<Json<PuzzleAnswer>, ApiError> {
    let answer = state.hub.attempt_puzzle(&id, &request.mv, viewer.as_ref());
    Ok(Json(answer.await?))
}

/// The puzzles mined from a finished game.
#[utoipa::path(get, path = "/api/games/{id}/puzzles", tag = "puzzles",
    params(("id" = String, Path)), responses((status = 200, body = Vec<PuzzleSummary>)))]
pub async fn from_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Vec<PuzzleSummary>>, ApiError> {
    Ok(Json(state.hub.puzzles_from(&id).await?))
}

/// Adds the routes of puzzles to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/puzzles", get(pools))
        .route("/puzzles/next", get(next))
        .route("/puzzles/{id}", get(puzzle))
        .route("/puzzles/{id}/attempt", post(attempt))
        .route("/games/{id}/puzzles", get(from_game))
}

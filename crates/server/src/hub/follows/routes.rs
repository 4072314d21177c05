//! The HTTP routes of follows.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, put};
use axum::{Json, Router};

use super::wire::FollowView;
use crate::error::ApiError;
use crate::http::extract::Player;
use crate::http::{AppState, ErrorBody};

/// The players one follows: online or not, and their live games.
#[utoipa::path(get, path = "/api/follows", tag = "ratings",
    responses((status = 200, body = Vec<FollowView>), (status = 401, body = ErrorBody)))]
pub async fn follows(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<Json<Vec<FollowView>>, ApiError> {
    Ok(Json(state.hub.follows(&session).await?))
}

/// Follows a player (an account, a bot or a guest's name in use).
#[utoipa::path(put, path = "/api/follows/{name}", tag = "ratings", params(("name" = String, Path)),
    responses((status = 204, description = "Followed"), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn follow(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.hub.follow(&session, &name, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// No longer follows a player.
#[utoipa::path(delete, path = "/api/follows/{name}", tag = "ratings", params(("name" = String, Path)),
    responses((status = 204, description = "No longer followed"), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn unfollow(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.hub.follow(&session, &name, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Adds the routes of follows to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/follows", get(follows))
        .route("/follows/{name}", put(follow).delete(unfollow))
}

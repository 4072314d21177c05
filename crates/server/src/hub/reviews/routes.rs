//! The HTTP routes of reviews.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

use super::wire::ReviewView;
use crate::error::ApiError;
use crate::http::extract::Player;
use crate::http::{AppState, ErrorBody};

/// The review of a finished game so far (`status` `none` until someone asks for one).
#[utoipa::path(get, path = "/api/games/{id}/review", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, body = ReviewView), (status = 404, body = ErrorBody)))]
pub async fn review(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ReviewView>, ApiError> {
    Ok(Json(state.hub.review(&id).await?))
}

/// Asks the house engine to review a finished game, in the background: once for all (a
/// second ask gets the review under way or made).
#[utoipa::path(post, path = "/api/games/{id}/review", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, body = ReviewView), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "the game is not over"),
        (status = 503, body = ErrorBody, description = "busy: as many reviews as the server makes at once")))]
pub async fn request_review(
    State(state): State<AppState>,
    Player(_session): Player,
    Path(id): Path<String>,
) -> Result<Json<ReviewView>, ApiError> {
    Ok(Json(state.hub.request_review(&id).await?))
}

/// Adds the routes of reviews to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router.route("/games/{id}/review", get(review).post(request_review))
}

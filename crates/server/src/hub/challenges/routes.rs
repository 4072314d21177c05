//! The HTTP routes of challenges to a player by name. Each is described for OpenAPI;
//! `crate::http::openapi` lists them.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{delete, post};
use axum::{Json, Router};

use super::wire::{
    AcceptedChallenge, ChallengeList, ChallengeView, DeclineChallenge, NewChallenge,
};
use crate::error::ApiError;
use crate::http::extract::{ApiJson, Player};
use crate::http::{AppState, ErrorBody};

/// Challenges a player by name (an account or a registered bot, online or not, or a guest
/// whose page is open), who accepts or declines it until it expires.
#[utoipa::path(post, path = "/api/challenges", tag = "play", request_body = NewChallenge,
    responses((status = 201, body = ChallengeView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody, description = "blocked"),
        (status = 404, body = ErrorBody, description = "no such player (or guest online)"),
        (status = 409, body = ErrorBody, description = "several guests online use the name"),
        (status = 429, body = ErrorBody, description = "too many open challenges")))]
pub async fn create(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewChallenge>,
) -> Result<impl IntoResponse, ApiError> {
    let challenge = state.hub.create_challenge(session.seat(), request).await?;
    Ok((StatusCode::CREATED, Json(challenge)))
}

/// The asker's challenges: those to it, open, and its own, open or ended in the last hour.
#[utoipa::path(get, path = "/api/challenges", tag = "play",
    responses((status = 200, body = ChallengeList), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<Json<ChallengeList>, ApiError> {
    Ok(Json(state.hub.challenges_of(&session.seat()).await?))
}

/// Accepts a challenge to the asker (its account, or the guest it is): the game opens at once.
#[utoipa::path(post, path = "/api/challenges/{id}/accept", tag = "play", params(("id" = String, Path)),
    responses((status = 200, body = AcceptedChallenge), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "the challenge is to someone else"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "answered, withdrawn or expired")))]
pub async fn accept(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<AcceptedChallenge>, ApiError> {
    let game_id = state.hub.accept_challenge(&id, session.seat()).await?;
    Ok(Json(AcceptedChallenge { game_id }))
}

/// Declines a challenge to the asker, saying why.
#[utoipa::path(post, path = "/api/challenges/{id}/decline", tag = "play", params(("id" = String, Path)),
    request_body = DeclineChallenge,
    responses((status = 204, description = "Declined"), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn decline(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<DeclineChallenge>,
) -> Result<StatusCode, ApiError> {
    (state.hub)
        .decline_challenge(&id, session.seat(), request.reason)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Withdraws one's own challenge.
#[utoipa::path(delete, path = "/api/challenges/{id}", tag = "play", params(("id" = String, Path)),
    responses((status = 204, description = "Withdrawn"), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn withdraw(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.hub.withdraw_challenge(&id, &session.seat()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Adds the routes of challenges to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/challenges", post(create).get(list))
        .route("/challenges/{id}", delete(withdraw))
        .route("/challenges/{id}/accept", post(accept))
        .route("/challenges/{id}/decline", post(decline))
}

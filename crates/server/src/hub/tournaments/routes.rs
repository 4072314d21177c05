//! The HTTP routes of tournaments.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};

use super::wire::{NewTournament, TournamentListQuery, TournamentSummary, TournamentView};
use crate::error::ApiError;
use crate::http::connections::ClientAddr;
use crate::http::extract::{ApiJson, ApiQuery, Player};
use crate::http::{AppState, ErrorBody};
use crate::hub::DEFAULT_LIST;

/// Tournaments, newest first.
#[utoipa::path(get, path = "/api/tournaments", tag = "ratings", params(TournamentListQuery),
    responses((status = 200, body = Vec<TournamentSummary>), (status = 400, body = ErrorBody)))]
pub async fn tournaments(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<TournamentListQuery>,
) -> Result<Json<Vec<TournamentSummary>>, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIST);
    Ok(Json(state.hub.tournaments(limit).await?))
}

/// Creates a tournament (an account's session): open for players until its creator starts
/// it.
#[utoipa::path(post, path = "/api/tournaments", tag = "ratings", request_body = NewTournament,
    responses((status = 201, body = TournamentView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn create_tournament(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewTournament>,
) -> Result<impl IntoResponse, ApiError> {
    let view = (state.hub)
        .create_tournament(&session, request, address.ip())
        .await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A tournament: settings, players, rounds with their games, standings.
#[utoipa::path(get, path = "/api/tournaments/{id}", tag = "ratings",
    params(("id" = String, Path)),
    responses((status = 200, body = TournamentView), (status = 404, body = ErrorBody)))]
pub async fn tournament(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(state.hub.tournament(&id).await?))
}

/// Joins an open tournament (an account's session).
#[utoipa::path(post, path = "/api/tournaments/{id}/join", tag = "ratings",
    params(("id" = String, Path)),
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn join_tournament(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(
        state.hub.join_tournament_as_person(&session, &id).await?,
    ))
}

/// Starts a tournament (its creator): the first round's games begin, and each next round
/// once the previous one is over.
#[utoipa::path(post, path = "/api/tournaments/{id}/start", tag = "ratings",
    params(("id" = String, Path)),
    responses((status = 200, body = TournamentView), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn start_tournament(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    let account = session.account_id.as_deref();
    Ok(Json(state.hub.start_tournament(account, &id).await?))
}

/// Adds the routes of tournaments to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/tournaments", post(create_tournament).get(tournaments))
        .route("/tournaments/{id}", get(tournament))
        .route("/tournaments/{id}/join", post(join_tournament))
        .route("/tournaments/{id}/start", post(start_tournament))
}

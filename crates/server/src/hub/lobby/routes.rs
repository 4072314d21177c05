//! The HTTP routes of the lobby (new games, invitations).
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};

use super::wire::{JoinRequest, NewGame, QuickPairing};
use crate::error::ApiError;
use crate::http::connections::ClientAddr;
use crate::http::extract::{ApiJson, Player};
use crate::http::{AppState, ErrorBody};
use crate::hub::games::wire::GameState;

/// Creates a game against a house bot (live at once) or an invite game (waiting).
#[utoipa::path(post, path = "/api/games", tag = "games", request_body = NewGame,
    responses((status = 201, body = GameState), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn create_game(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewGame>,
) -> Result<impl IntoResponse, ApiError> {
    let game = (state.hub)
        .create_game(&session, address.ip(), request)
        .await?;
    Ok((StatusCode::CREATED, Json(game)))
}

/// Takes the open seat of an invite game with its code (`{id}` may also be the code), or of
/// an open game without one.
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", request_body = JoinRequest,
    params(("id" = String, Path)),
    responses((status = 200, body = GameState), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn join_game(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<JoinRequest>,
) -> Result<Json<GameState>, ApiError> {
    let code = request.code.as_deref();
    Ok(Json(match code == Some(id.as_str()) {
        true => state.hub.join_by_code(&session, &id).await?,
        false => state.hub.join(&session, &id, code).await?,
    }))
}

/// Replaces the invite code of a waiting game its creator made: the old link stops working,
/// and the answer holds the new one (`invite`).
#[utoipa::path(post, path = "/api/games/{id}/invite", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, body = GameState), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "not-a-player: not the game's creator"),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "the game has started")))]
pub async fn new_invite(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(state.hub.new_invite(&session, &id).await?))
}

/// Takes the open seat of the invite game whose code this is (the page at `/join/CODE`
/// knows only the code).
#[utoipa::path(post, path = "/api/join", tag = "games", request_body = JoinRequest,
    responses((status = 200, body = GameState), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn join_by_code(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<JoinRequest>,
) -> Result<Json<GameState>, ApiError> {
    let code = (request.code)
        .ok_or_else(|| ApiError::BadRequest("the invite's code is missing".into()))?;
    Ok(Json(state.hub.join_by_code(&session, &code).await?))
}

/// Quick pairing, as lichess's lobby: joins the oldest open game of the same rule set,
/// parameters, clock and rating that someone else opened (`200`, live), or opens one and
/// waits in it (`201`, waiting; the same one again for a second click). Withdraw it with
/// `POST /api/games/{id}/withdraw`; one whose creator leaves its page is withdrawn by the
/// server.
#[utoipa::path(post, path = "/api/pool", tag = "games", request_body = QuickPairing,
    responses((status = 200, body = GameState, description = "paired: the game is live"),
        (status = 201, body = GameState, description = "waiting for someone to pair with"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn quick_pairing(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    Player(session): Player,
    ApiJson(request): ApiJson<QuickPairing>,
) -> Result<impl IntoResponse, ApiError> {
    let (game, paired) = (state.hub)
        .quick_pair(&session, address.ip(), request)
        .await?;
    let status = if paired {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, Json(game)))
}

/// The game an invite code opens, as anyone sees it (the invited person looks before
/// choosing a name and joining with `POST /api/join`).
#[utoipa::path(get, path = "/api/invites/{code}", tag = "games",
    params(("code" = String, Path)),
    responses((status = 200, body = GameState), (status = 404, body = ErrorBody)))]
pub async fn invitation(
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(state.hub.invitation(&code).await?))
}

/// Adds the routes of the lobby (new games, invitations) to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/games", post(create_game))
        .route("/games/{id}/join", post(join_game))
        .route("/games/{id}/invite", post(new_invite))
        .route("/join", post(join_by_code))
        .route("/pool", post(quick_pairing))
        .route("/invites/{code}", get(invitation))
}

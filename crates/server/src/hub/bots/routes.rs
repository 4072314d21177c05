//! The HTTP routes of registered bots.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{Path, State};
use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use axum::{Json, Router};

use super::wire::{BotCreated, NewBot, OnlineBots, OwnBot, OwnBots, SeekView};
use crate::error::ApiError;
use crate::http::extract::{ApiJson, Player};
use crate::http::{AppState, ErrorBody};
use crate::hub::games::wire::GameState;
use crate::model::Status;
use crate::storage::BotRow;

/// The live games of the bot whose token is given, each in full.
#[utoipa::path(get, path = "/api/bot/games", tag = "bots", security(("bot_token" = [])),
    responses((status = 200, body = Vec<GameState>), (status = 401, body = ErrorBody)))]
pub async fn bot_games(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Vec<GameState>>, ApiError> {
    let bot = bearer_bot(&state, &headers).await?;
    let mut games = Vec::new();
    for id in state.hub.bot_games(&bot.id).await? {
        match state.hub.state(&id, None).await {
            Ok(game) if game.status != Status::Finished => games.push(game),
            // Ended or gone between the two questions.
            Ok(_) | Err(ApiError::NotFound(_)) => {}
            Err(error) => return Err(error),
        }
    }
    games.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(Json(games))
}

/// The registered bot whose token the request carries (`Authorization: Bearer TOKEN`).
pub async fn bearer_bot(state: &AppState, headers: &HeaderMap) -> Result<BotRow, ApiError> {
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or(ApiError::BadToken)?;
    state.hub.bot(token.trim()).await?.ok_or(ApiError::BadToken)
}

/// Registers a bot; the answer holds its token, shown only this once.
#[utoipa::path(post, path = "/api/bots", tag = "bots", request_body = NewBot,
    responses((status = 201, body = BotCreated), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 409, body = ErrorBody, description = "the name is taken")))]
pub async fn register_bot(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewBot>,
) -> Result<impl IntoResponse, ApiError> {
    let (bot, token) = state.hub.register_bot(&session, &request.name).await?;
    let body = BotCreated {
        id: bot.id,
        name: bot.name,
        token,
    };
    Ok((StatusCode::CREATED, Json(body)))
}

/// The asker's bots, and which are connected.
#[utoipa::path(get, path = "/api/bots/mine", tag = "bots",
    responses((status = 200, body = OwnBots), (status = 401, body = ErrorBody)))]
pub async fn own_bots(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<Json<OwnBots>, ApiError> {
    let bots = (state.hub.bots_of(&session).await?)
        .into_iter()
        .map(|(bot, online)| OwnBot {
            id: bot.id,
            name: bot.name,
            created_at: bot.created_at,
            online,
        })
        .collect();
    Ok(Json(OwnBots { bots }))
}

/// A new token for one of the asker's bots, shown this once; the old one stops working.
#[utoipa::path(post, path = "/api/bots/{name}/token", tag = "bots",
    params(("name" = String, Path, description = "the bot's name")),
    responses((status = 200, body = BotCreated), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no bot of the asker's by that name")))]
pub async fn rotate_token(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<Json<BotCreated>, ApiError> {
    let (bot, token) = state.hub.rotate_token(&session, &name).await?;
    Ok(Json(BotCreated {
        id: bot.id,
        name: bot.name,
        token,
    }))
}

/// Deletes one of the asker's bots that has no unfinished game; its name stays retired.
#[utoipa::path(delete, path = "/api/bots/{name}", tag = "bots",
    params(("name" = String, Path, description = "the bot's name")),
    responses((status = 204), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no bot of the asker's by that name"),
        (status = 409, body = ErrorBody, description = "it has unfinished games")))]
pub async fn delete_bot(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.hub.delete_bot(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The bots connected now.
#[utoipa::path(get, path = "/api/bots", tag = "bots",
    responses((status = 200, body = OnlineBots)))]
pub async fn online_bots(State(state): State<AppState>) -> Result<Json<OnlineBots>, ApiError> {
    Ok(Json(OnlineBots {
        online: state.hub.online_bots().await?,
    }))
}

/// The bots' open seeks, oldest first.
#[utoipa::path(get, path = "/api/bots/seeks", tag = "bots",
    responses((status = 200, body = Vec<SeekView>)))]
pub async fn open_seeks(State(state): State<AppState>) -> Result<Json<Vec<SeekView>>, ApiError> {
    Ok(Json(state.hub.open_seeks().await?))
}

/// Adds the routes of registered bots to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/bots", post(register_bot).get(online_bots))
        .route("/bots/mine", get(own_bots))
        .route("/bots/seeks", get(open_seeks))
        .route("/bots/{name}/token", post(rotate_token))
        .route("/bots/{name}", delete(delete_bot))
        .route("/bot/ws", get(super::ws::bot_ws))
        .route("/bot/games", get(bot_games))
}

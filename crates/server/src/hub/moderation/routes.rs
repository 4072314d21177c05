//! The HTTP routes of reports, blocks, one's password, and the moderators' and admins' acts
//! (under `/api/admin`). Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};

use super::wire::{
    AccountSummary, ActDone, BlockView, ChatRecord, NewReport, PasswordChange, ReportMade,
    ReportView, ReportsQuery, RoleChange, SignUps,
};
use super::Act;
use crate::error::ApiError;
use crate::http::connections::ClientAddr;
use crate::http::extract::{ApiJson, ApiQuery, Player};
use crate::http::{AppState, ErrorBody};

/// Reports a player, or one of their chat lines, to the moderators.
#[utoipa::path(post, path = "/api/reports", tag = "moderation", request_body = NewReport,
    responses((status = 201, body = ReportMade), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody, description = "no such player or chat line"),
        (status = 429, body = ErrorBody)))]
pub async fn report(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewReport>,
) -> Result<impl IntoResponse, ApiError> {
    let id = state.hub.report(&session, request).await?;
    Ok((StatusCode::CREATED, Json(ReportMade { id })))
}

/// The players one blocks.
#[utoipa::path(get, path = "/api/blocks", tag = "moderation",
    responses((status = 200, body = Vec<BlockView>), (status = 401, body = ErrorBody)))]
pub async fn blocks(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<Json<Vec<BlockView>>, ApiError> {
    Ok(Json(state.hub.blocks(&session).await?))
}

/// Blocks a player: no game, challenge, invitation or rematch between the two, and their
/// chat lines are not shown to the blocker.
#[utoipa::path(put, path = "/api/blocks/{name}", tag = "moderation", params(("name" = String, Path)),
    responses((status = 204, description = "Blocked"), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn block(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.hub.block(&session, &name, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Unblocks a player.
#[utoipa::path(delete, path = "/api/blocks/{name}", tag = "moderation", params(("name" = String, Path)),
    responses((status = 204, description = "Unblocked"), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn unblock(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.hub.block(&session, &name, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Changes one's password (an account's session); one's other sessions end.
#[utoipa::path(put, path = "/api/account/password", tag = "sessions", request_body = PasswordChange,
    responses((status = 204, description = "Changed"), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody, description = "no session, or not the current password"),
        (status = 429, body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    Player(session): Player,
    ApiJson(request): ApiJson<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    (state.hub)
        .change_password(&session, &request.current, &request.new, address.ip())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Reports, newest first: those not dealt with, or all (moderators).
#[utoipa::path(get, path = "/api/admin/reports", tag = "moderation", params(ReportsQuery),
    responses((status = 200, body = Vec<ReportView>), (status = 403, body = ErrorBody)))]
pub async fn reports(
    State(state): State<AppState>,
    Player(session): Player,
    ApiQuery(query): ApiQuery<ReportsQuery>,
) -> Result<Json<Vec<ReportView>>, ApiError> {
    Ok(Json(state.hub.reports(&session, query.all).await?))
}

/// The latest sign-ups (moderators).
#[utoipa::path(get, path = "/api/admin/accounts", tag = "moderation",
    responses((status = 200, body = Vec<AccountSummary>), (status = 403, body = ErrorBody)))]
pub async fn accounts(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<Json<Vec<AccountSummary>>, ApiError> {
    Ok(Json(state.hub.recent_accounts(&session).await?))
}

/// A player's latest chat lines, deleted ones too (moderators).
#[utoipa::path(get, path = "/api/admin/players/{name}/chat", tag = "moderation",
    params(("name" = String, Path)),
    responses((status = 200, body = Vec<ChatRecord>), (status = 403, body = ErrorBody)))]
pub async fn chat_by(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<Json<Vec<ChatRecord>>, ApiError> {
    Ok(Json(state.hub.chat_by(&session, &name).await?))
}

async fn act(
    state: &AppState,
    session: &crate::storage::SessionRow,
    act: Act,
) -> Result<Json<ActDone>, ApiError> {
    let done = state.hub.staff_act(session, act).await?;
    Ok(Json(ActDone {
        message: done.said,
        password: done.password,
    }))
}

/// Marks a report dealt with (moderators).
#[utoipa::path(post, path = "/api/admin/reports/{id}/resolve", tag = "moderation",
    params(("id" = String, Path)),
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn resolve_report(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<ActDone>, ApiError> {
    act(&state, &session, Act::ResolveReport { id }).await
}

/// Deletes a chat line: nobody sees it any more (moderators).
#[utoipa::path(delete, path = "/api/admin/chat/{id}", tag = "moderation",
    params(("id" = String, Path)),
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_chat(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<ActDone>, ApiError> {
    act(&state, &session, Act::DeleteChat { id }).await
}

/// Takes a finished game off the lists (moderators).
#[utoipa::path(delete, path = "/api/admin/games/{id}", tag = "moderation",
    params(("id" = String, Path)),
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "the game is not over")))]
pub async fn hide_game(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<ActDone>, ApiError> {
    act(&state, &session, Act::HideGame { id }).await
}

/// Cancels a tournament: the games of its round under way are aborted, no rating changes by
/// them (moderators).
#[utoipa::path(post, path = "/api/admin/tournaments/{id}/cancel", tag = "moderation",
    params(("id" = String, Path)),
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "it is over")))]
pub async fn cancel_tournament(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<ActDone>, ApiError> {
    act(&state, &session, Act::CancelTournament { id }).await
}

/// Bans an account: its sessions end and its sockets close, its bots go offline, it signs in
/// no more (moderators, who ban players without a role; admins).
#[utoipa::path(put, path = "/api/admin/accounts/{name}/ban", tag = "moderation",
    params(("name" = String, Path)),
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn ban(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<Json<ActDone>, ApiError> {
    act(&state, &session, Act::Ban { name, banned: true }).await
}

/// Lifts a ban.
#[utoipa::path(delete, path = "/api/admin/accounts/{name}/ban", tag = "moderation",
    params(("name" = String, Path)),
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn unban(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<Json<ActDone>, ApiError> {
    act(
        &state,
        &session,
        Act::Ban {
            name,
            banned: false,
        },
    )
    .await
}

/// Gives an account a role: `admin`, `moderator` or `none` (admins).
#[utoipa::path(put, path = "/api/admin/accounts/{name}/role", tag = "moderation",
    params(("name" = String, Path)), request_body = RoleChange,
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_role(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
    ApiJson(request): ApiJson<RoleChange>,
) -> Result<Json<ActDone>, ApiError> {
    act(
        &state,
        &session,
        Act::Role {
            name,
            role: request.role,
        },
    )
    .await
}

/// Gives an account a new random password, shown once in the answer; its sessions end
/// (admins).
#[utoipa::path(post, path = "/api/admin/accounts/{name}/password", tag = "moderation",
    params(("name" = String, Path)),
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn reset_password(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<Json<ActDone>, ApiError> {
    act(&state, &session, Act::ResetPassword { name }).await
}

/// Opens or closes sign-ups (admins).
#[utoipa::path(put, path = "/api/admin/sign-ups", tag = "moderation", request_body = SignUps,
    responses((status = 200, body = ActDone), (status = 403, body = ErrorBody)))]
pub async fn sign_ups(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<SignUps>,
) -> Result<Json<ActDone>, ApiError> {
    act(&state, &session, Act::SignUps { open: request.open }).await
}

/// Adds the routes of moderation to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/reports", post(report))
        .route("/blocks", get(blocks))
        .route("/blocks/{name}", put(block).delete(unblock))
        .route("/account/password", put(change_password))
        .route("/admin/reports", get(reports))
        .route("/admin/reports/{id}/resolve", post(resolve_report))
        .route("/admin/accounts", get(accounts))
        .route("/admin/accounts/{name}/ban", put(ban).delete(unban))
        .route("/admin/accounts/{name}/role", put(set_role))
        .route("/admin/accounts/{name}/password", post(reset_password))
        .route("/admin/players/{name}/chat", get(chat_by))
        .route("/admin/chat/{id}", delete(delete_chat))
        .route("/admin/games/{id}", delete(hide_game))
        .route("/admin/tournaments/{id}/cancel", post(cancel_tournament))
        .route("/admin/sign-ups", put(sign_ups))
}

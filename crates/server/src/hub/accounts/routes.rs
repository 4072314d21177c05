//! The HTTP routes of sessions and accounts.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{ConnectInfo, State};
use axum::http::header::SET_COOKIE;
use axum::http::HeaderName;
use axum::http::StatusCode;
use axum::response::{AppendHeaders, IntoResponse};
use axum::routing::post;
use axum::{Extension, Json, Router};

use super::wire::{NewAccount, NewSession, SessionView};
use crate::error::ApiError;
use crate::http::connections::{ClientAddr, ViaHttps};
use crate::http::extract::{session_cookie, ApiJson, Player, Viewer};
use crate::http::{AppState, ErrorBody};
use crate::storage::SessionRow;

/// Starts a guest session, or with a password signs in to an account; sets its cookie.
#[utoipa::path(post, path = "/api/session", tag = "sessions", request_body = NewSession,
    responses((status = 201, body = SessionView, description = "Also sets the toroid_session cookie"),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody, description = "bad-credentials: no account has this name and password"),
        (status = 409, body = ErrorBody, description = "a guest may not take an account's name"),
        (status = 429, body = ErrorBody, description = "too many sign-in attempts")))]
pub async fn create_session(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    https: Option<Extension<ViaHttps>>,
    ApiJson(request): ApiJson<NewSession>,
) -> Result<impl IntoResponse, ApiError> {
    let (session, token) = match &request.password {
        Some(password) => {
            (state.hub)
                .sign_in(&request.name, password, address.ip())
                .await?
        }
        None => {
            (state.hub)
                .create_session(&request.name, address.ip())
                .await?
        }
    };
    Ok((
        StatusCode::CREATED,
        session_cookies(Some(&token), https),
        Json(session_view(&state, &session).await?),
    ))
}

/// Claims a name with a password: a new account, which the asker's guest session (if any)
/// is signed in to, its bots becoming the account's; else a new session and its cookie.
#[utoipa::path(post, path = "/api/accounts", tag = "sessions", request_body = NewAccount,
    responses((status = 201, body = SessionView, description = "Sets a new toroid_session cookie (also for a guest who claims its name)"),
        (status = 400, body = ErrorBody, description = "a bad name, or a password not of 8 to 128 characters"),
        (status = 409, body = ErrorBody, description = "the name is taken, whatever its case")))]
pub async fn create_account(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    https: Option<Extension<ViaHttps>>,
    Viewer(guest): Viewer,
    ApiJson(request): ApiJson<NewAccount>,
) -> Result<axum::response::Response, ApiError> {
    let (session, token) = (state.hub)
        .create_account(guest, &request.name, &request.password, address.ip())
        .await?;
    let cookies = session_cookies(Some(&token), https);
    let view = session_view(&state, &session).await?;
    Ok((StatusCode::CREATED, cookies, Json(view)).into_response())
}

/// The session's cookies: set to `token` for a year (a guest session has no password, the
/// cookie is all there is), or cleared when `token` is `None`; `Secure`, and named with the
/// `__Host-` prefix, for a client that came over HTTPS.
///
/// With the session's goes `toroid_signed_in=1`, which scripts may read (the session's cookie
/// is HttpOnly): the page asks for its session only when it has one, so a first visit makes
/// no request that fails.
fn session_cookies(
    token: Option<&str>,
    https: Option<Extension<ViaHttps>>,
) -> AppendHeaders<[(HeaderName, String); 2]> {
    let https = matches!(https, Some(Extension(ViaHttps(true))));
    let secure = if https { "; Secure" } else { "" };
    let (session, signed_in, max_age) = match token {
        Some(token) => (token, "1", 31_536_000),
        None => ("", "", 0),
    };
    let attributes = format!("SameSite=Lax; Path=/; Max-Age={max_age}{secure}");
    AppendHeaders([
        (
            SET_COOKIE,
            format!(
                "{}={session}; HttpOnly; {attributes}",
                session_cookie(https)
            ),
        ),
        (
            SET_COOKIE,
            format!("{SIGNED_IN_COOKIE}={signed_in}; {attributes}"),
        ),
    ])
}

/// The cookie that tells the page's script that a session cookie is set.
const SIGNED_IN_COOKIE: &str = "toroid_signed_in";

async fn session_view(state: &AppState, session: &SessionRow) -> Result<SessionView, ApiError> {
    Ok(SessionView {
        id: session.id.clone(),
        name: session.name.clone(),
        account: session.account_id.is_some(),
        role: state.hub.role(session).await?,
    })
}

/// The session of the cookie.
#[utoipa::path(get, path = "/api/session", tag = "sessions",
    responses((status = 200, body = SessionView), (status = 401, body = ErrorBody)))]
pub async fn get_session(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<Json<SessionView>, ApiError> {
    Ok(Json(session_view(&state, &session).await?))
}

/// Signs out: the session ends at once and its cookie is cleared. Its games keep their
/// seats; nobody can act in them as this session again.
#[utoipa::path(delete, path = "/api/session", tag = "sessions",
    responses((status = 204, description = "Signed out"), (status = 401, body = ErrorBody)))]
pub async fn end_session(
    State(state): State<AppState>,
    https: Option<Extension<ViaHttps>>,
    Player(session): Player,
) -> Result<impl IntoResponse, ApiError> {
    state.hub.end_session(&session).await?;
    Ok((StatusCode::NO_CONTENT, session_cookies(None, https)))
}

/// Adds the routes of sessions and accounts to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route(
            "/session",
            post(create_session).get(get_session).delete(end_session),
        )
        .route("/accounts", post(create_account))
}

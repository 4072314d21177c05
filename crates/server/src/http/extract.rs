//! What handlers take from a request: JSON bodies and queries whose errors are API errors,
//! and the guest session named by the `toroid_session` cookie.

use axum::extract::{FromRequest, FromRequestParts};
use axum::http::header::COOKIE;
use axum::http::request::Parts;

use super::connections::ViaHttps;
use super::AppState;
use crate::error::ApiError;
use crate::storage::SessionRow;

/// The session cookie's name, over HTTPS with the `__Host-` prefix: a browser takes such a
/// cookie only from this very host, over HTTPS, for every path, so a sibling subdomain or
/// a plain-HTTP page cannot plant one.
pub fn session_cookie(https: bool) -> &'static str {
    match https {
        true => "__Host-toroid_session",
        false => "toroid_session",
    }
}

/// A JSON body; malformed JSON, a wrong shape or a body too large is an [`ApiError`].
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct ApiJson<T>(pub T);

/// A query string, refused as [`ApiError::BadRequest`] when malformed.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct ApiQuery<T>(pub T);

/// The value of the session cookie, if the request has one (over HTTPS, only the one of
/// the `__Host-` name counts).
fn session_token(parts: &Parts) -> Option<&str> {
    let https = matches!(parts.extensions.get(), Some(ViaHttps(true)));
    let name = session_cookie(https);
    parts
        .headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(cookie, _)| *cookie == name)
        .map(|(_, value)| value)
}

/// Whoever asks: a session, or nobody (reading needs none).
pub struct Viewer(pub Option<SessionRow>);

/// A request that acts: it must come with a session.
pub struct Player(pub SessionRow);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Viewer, ApiError> {
        match session_token(parts) {
            Some(token) => Ok(Viewer(state.hub.session(token).await?)),
            None => Ok(Viewer(None)),
        }
    }
}

impl FromRequestParts<AppState> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Player, ApiError> {
        let Viewer(session) = Viewer::from_request_parts(parts, state).await?;
        session.map(Player).ok_or(ApiError::NoSession)
    }
}

impl Viewer {
    pub fn id(&self) -> Option<&str> {
        self.0.as_ref().map(|s| s.id.as_str())
    }
}

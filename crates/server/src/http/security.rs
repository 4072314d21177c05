//! Cross-site protection: requests that act (WebSocket upgrades and every method but GET and
//! HEAD) from a browser page of another origin are refused, and every response carries the
//! security headers (docs/server.md, "Security and limits").

use axum::extract::{Request, State};
use axum::http::header::{
    CONTENT_SECURITY_POLICY, HOST, ORIGIN, REFERRER_POLICY, UPGRADE, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::AppState;
use crate::error::ApiError;

/// The page loads its scripts, styles and data from its own origin only, and no other page
/// may frame it.
const CSP: &str = "default-src 'self'; connect-src 'self'; img-src 'self' data:; \
                   object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Refuses a cross-origin request that acts, and adds the security headers to the answer.
pub async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let acts = !matches!(*request.method(), Method::GET | Method::HEAD)
        || request.headers().contains_key(UPGRADE);
    let mut response = if acts && !origin_allowed(request.headers(), &state.allowed_origins) {
        let origin = request.headers().get(ORIGIN);
        let origin = origin.and_then(|o| o.to_str().ok()).unwrap_or("?");
        ApiError::CrossOrigin(origin.to_string()).into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (CONTENT_SECURITY_POLICY, CSP),
        (X_FRAME_OPTIONS, "DENY"),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // Invite links hold their code: no other site learns it from a referrer.
        (REFERRER_POLICY, "no-referrer"),
    ] {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    response
}

/// Whether a request may act from where it comes: with no `Origin` (not sent by a browser
/// page), from the server's own origin (`Origin` names the host the request was sent to),
/// or from an origin that `--allowed-origin` names.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if allowed.iter().any(|a| a.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let origin_host = (origin.strip_prefix("http://")).or_else(|| origin.strip_prefix("https://"));
    let host = headers.get(HOST).and_then(|h| h.to_str().ok());
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Checks an `--allowed-origin` value: `http://` or `https://`, a host, perhaps a port, and
/// nothing else (browsers send exactly that in `Origin`).
pub fn parse_origin(text: &str) -> Result<String, String> {
    let text = text.trim().trim_end_matches('/');
    let rest = (text.strip_prefix("http://"))
        .or_else(|| text.strip_prefix("https://"))
        .ok_or_else(|| format!("'{text}' is not an origin: it starts with http:// or https://"))?;
    let host_ok = !rest.is_empty()
        && (rest.chars()).all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c));
    if !host_ok {
        return Err(format!(
            "'{text}' is not an origin: scheme://host[:port], with no path"
        ));
    }
    Ok(text.to_ascii_lowercase())
}

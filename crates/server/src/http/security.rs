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

use super::connections::ViaHttps;
use super::AppState;
use crate::error::ApiError;

/// The page loads its scripts, styles and data from its own origin only, and no other page
/// may frame it.
const CSP: &str = "default-src 'self'; connect-src 'self'; img-src 'self' data:; \
                   object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Refuses a request for a host this server is not served at, and a cross-origin request
/// that acts; adds the security headers to the answer.
pub async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let acts = !matches!(*request.method(), Method::GET | Method::HEAD)
        || request.headers().contains_key(UPGRADE);
    let host = request.headers().get(HOST).and_then(|h| h.to_str().ok());
    let https = matches!(request.extensions().get(), Some(ViaHttps(true)));
    // Probes come from load balancers and orchestrators, by whatever name they use.
    let probe = matches!(request.uri().path(), "/healthz" | "/readyz");
    let mut response = if !probe && !host_served(host, &state.public_origins) {
        ApiError::UnknownHost(host.unwrap_or("").chars().take(100).collect()).into_response()
    } else if acts && !origin_allowed(request.headers(), https, &state) {
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

/// Whether `host` (a `Host` header: a name or address, perhaps a port) is one this server
/// is served at: a public origin's, or with none given an IP address or `localhost`. A
/// name that merely resolves here (DNS rebinding) is refused.
fn host_served(host: Option<&str>, public: &[String]) -> bool {
    let Some(host) = host else {
        return false;
    };
    if !public.is_empty() {
        return (public.iter()).any(|origin| authority(origin).eq_ignore_ascii_case(host));
    }
    let name = match host.rsplit_once(':') {
        Some((name, port)) if !name.ends_with(':') && port.parse::<u16>().is_ok() => name,
        _ => host,
    };
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost") || bare.parse::<std::net::IpAddr>().is_ok()
}

/// The `host[:port]` of an origin (`https://host[:port]`).
fn authority(origin: &str) -> &str {
    origin.split_once("://").map_or(origin, |(_, rest)| rest)
}

/// Whether a request may act from where it comes: with no `Origin` (not sent by a browser
/// page), from the server's own origin (scheme, host and port: `Origin` names the scheme
/// the client used, as a trusted proxy says, and the host it sent the request to), or from
/// a public origin or one that `--allowed-origin` names.
fn origin_allowed(headers: &HeaderMap, https: bool, state: &AppState) -> bool {
    let Some(origin) = headers.get(ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let listed = (state.allowed_origins.iter()).chain(state.public_origins.iter());
    if listed.into_iter().any(|a| a.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let scheme = if https { "https" } else { "http" };
    let host = headers.get(HOST).and_then(|h| h.to_str().ok());
    host.is_some_and(|host| origin.eq_ignore_ascii_case(&format!("{scheme}://{host}")))
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

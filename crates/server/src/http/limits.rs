//! Rate limits: HTTP requests per second per IP address, and messages per second on one
//! WebSocket. (Connections are limited in `connections`.)

use std::num::NonZeroU32;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use super::connections::ClientAddr;
use super::AppState;
use crate::error::ApiError;

fn quota(per_second: u32, burst: u32) -> Quota {
    let nz = |n: u32| NonZeroU32::new(n.max(1)).expect("at least 1");
    Quota::per_second(nz(per_second)).allow_burst(nz(burst))
}

/// Messages per second on one WebSocket.
pub fn message_limiter(per_second: u32, burst: u32) -> DefaultDirectRateLimiter {
    RateLimiter::direct(quota(per_second, burst))
}

/// Middleware: refuses a request over its address's rate with 429 (the rate counted on all
/// the nodes of a cluster together: `Hub::allows_request`).
pub async fn limit_requests(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(addr)): ConnectInfo<ClientAddr>,
    request: Request,
    next: Next,
) -> Response {
    match state.hub.allows_request(addr.ip()).await {
        true => next.run(request).await,
        false => ApiError::RateLimited.into_response(),
    }
}

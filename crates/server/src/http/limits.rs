//! Rate limits: HTTP requests per second per IP address, and messages per second on one
//! WebSocket. (Connections are limited in `connections`.)

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::connections::ClientAddr;
use crate::error::ApiError;

fn quota(per_second: u32, burst: u32) -> Quota {
    let nz = |n: u32| NonZeroU32::new(n.max(1)).expect("at least 1");
    Quota::per_second(nz(per_second)).allow_burst(nz(burst))
}

/// Requests per second per IP address.
pub fn request_limiter(per_second: u32, burst: u32) -> Arc<DefaultKeyedRateLimiter<IpAddr>> {
    let limiter = Arc::new(RateLimiter::keyed(quota(per_second, burst)));
    // Forget idle addresses now and then, so the table stays small.
    let weak = Arc::downgrade(&limiter);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every.tick().await;
            match weak.upgrade() {
                Some(limiter) => limiter.retain_recent(),
                None => return,
            }
        }
    });
    limiter
}

/// Messages per second on one WebSocket.
pub fn message_limiter(per_second: u32, burst: u32) -> DefaultDirectRateLimiter {
    RateLimiter::direct(quota(per_second, burst))
}

/// Middleware: refuses a request over its address's rate with 429.
pub async fn limit_requests(
    State(limiter): State<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
    ConnectInfo(ClientAddr(addr)): ConnectInfo<ClientAddr>,
    request: Request,
    next: Next,
) -> Response {
    match limiter.check_key(&addr.ip()) {
        Ok(()) => next.run(request).await,
        Err(_) => ApiError::RateLimited.into_response(),
    }
}

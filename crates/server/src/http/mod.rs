//! The HTTP side: the router, its limits, and the server's start and shutdown.

mod assets;
pub mod connections;
mod error;
pub mod extract;
pub mod health;
pub mod heartbeat;
pub mod limits;
mod openapi;
pub mod security;

use std::sync::Arc;

use axum::extract::{ConnectInfo, DefaultBodyLimit, MatchedPath, Request};
use axum::middleware;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;

use crate::config::Limits;
use crate::error::ApiError;
use crate::hub::{
    accounts, bots, challenges, follows, games, lobby, moderation, news, puzzles, ratings, reviews,
    tournaments, Hub,
};
use connections::ClientAddr;

pub use error::{ErrorBody, ErrorDetail};
pub use openapi::ApiDoc;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    pub limits: Arc<Limits>,
    /// Origins besides the server's own whose pages may act here (`--allowed-origin`).
    pub allowed_origins: Arc<[String]>,
    /// The origins the site is served at (`--public-origin`), whose hosts alone `Host` may
    /// name.
    pub public_origins: Arc<[String]>,
}

/// Every route of the server.
pub fn router(state: AppState) -> Router {
    // Each feature adds its own routes.
    let features = [
        accounts::routes::add,
        games::routes::add,
        lobby::routes::add,
        bots::routes::add,
        ratings::routes::add,
        tournaments::routes::add,
        moderation::routes::add,
        challenges::routes::add,
        news::routes::add,
        reviews::routes::add,
        puzzles::routes::add,
        follows::routes::add,
    ];
    let api = (features.into_iter())
        .fold(Router::new(), |router, add| add(router))
        .route("/openapi.json", get(openapi::openapi))
        .route_layer(middleware::from_fn(tag_route))
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // Only the API counts against an address's rate: the page's files are served from
        // memory (304 once cached), and a page of a dozen modules would spend the burst.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            limits::limit_requests,
        ));
    // The page's files go gzipped to browsers that take it: a first visit loads a third.
    let page = Router::new()
        .route("/", get(assets::page))
        .route("/game/{id}", get(assets::page))
        .route("/join/{code}", get(assets::page))
        .route("/signin", get(assets::page))
        .route("/signup", get(assets::page))
        .route("/leaderboard/{game}", get(assets::page))
        .route("/player/{name}", get(assets::page))
        .route("/tournaments", get(assets::page))
        .route("/tournament/{id}", get(assets::page))
        .route("/settings", get(assets::page))
        .route("/learn", get(assets::page))
        .route("/puzzles", get(assets::page))
        .route("/puzzles/{id}", get(assets::page))
        .route("/admin", get(assets::page))
        .route("/assets/{*name}", get(assets::asset))
        .route_layer(middleware::from_fn(tag_route))
        .layer(CompressionLayer::new());
    let probes = Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route_layer(middleware::from_fn(tag_route));
    Router::new()
        .nest("/api", api)
        .merge(page)
        .merge(probes)
        .layer(DefaultBodyLimit::max(state.limits.body_bytes))
        .layer(RequestBodyTimeoutLayer::new(state.limits.header_timeout))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            security::guard,
        ))
        .with_state(state)
        .layer(middleware::from_fn(access_log))
}

/// The router of the metrics address (`--metrics`): `/metrics` alone, in Prometheus's text
/// format.
pub fn metrics_router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(hub)
}

async fn metrics(axum::extract::State(hub): axum::extract::State<Arc<Hub>>) -> Response {
    let text = hub.metrics_text();
    let kind = "text/plain; version=0.0.4; charset=utf-8";
    ([(axum::http::header::CONTENT_TYPE, kind)], text).into_response()
}

/// The route pattern that answered a request (`/api/games/{id}`), put on its response by
/// [`tag_route`] for [`access_log`]: the log and the metrics name routes, never a path, which
/// may hold an id or an invite code.
#[derive(Clone)]
struct RoutePattern(MatchedPath);

/// Tags a routed request's response with its route's pattern.
async fn tag_route(matched: MatchedPath, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response.extensions_mut().insert(RoutePattern(matched));
    response
}

/// One access line per request at `info` (the client's address, as `--trusted-proxy` makes
/// it, the method, the route's pattern, the status and the time taken), and its metrics. A
/// request that matched no route (an unknown path, or one a limit refused before routing)
/// is logged with the route `-`.
async fn access_log(request: Request, next: Next) -> Response {
    let start = std::time::Instant::now();
    let client = (request.extensions().get::<ConnectInfo<ClientAddr>>())
        .map(|ConnectInfo(ClientAddr(addr))| addr.ip().to_string())
        .unwrap_or_default();
    let method = request.method().as_str().to_string();
    let response = next.run(request).await;
    let route = (response.extensions().get::<RoutePattern>())
        .map_or("-".to_string(), |RoutePattern(m)| m.as_str().to_string());
    let status = response.status().as_u16();
    let seconds = crate::metrics::since(start);
    tracing::info!(target: "toroid::access", %client, %method, %route, status,
        ms = (seconds * 1000.0 * 10.0).round() / 10.0, "request");
    let labels = [("route", route), ("method", method)];
    metrics::histogram!("toroid_http_request_duration_seconds", &labels).record(seconds);
    let [route, method] = labels;
    let status = ("status", status.to_string());
    metrics::counter!("toroid_http_requests_total", &[route, method, status]).increment(1);
    response
}

async fn api_not_found(request: Request) -> Response {
    ApiError::NotFound(format!("route '{}'", request.uri().path())).into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::MethodNotAllowed.into_response()
}

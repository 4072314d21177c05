//! The HTTP side: the router, its limits, and the server's start and shutdown.

mod assets;
mod bot_protocol;
mod bot_ws;
pub mod connections;
mod error;
mod extract;
mod heartbeat;
pub mod limits;
mod openapi;
mod routes;
pub mod security;
mod ws;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::config::Limits;
use crate::error::ApiError;
use crate::hub::Hub;

pub use error::{ErrorBody, ErrorDetail};
pub use openapi::ApiDoc;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    pub limits: Arc<Limits>,
    /// Origins besides the server's own whose pages may act here (`--allowed-origin`).
    pub allowed_origins: Arc<[String]>,
}

/// Every route of the server.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route(
            "/session",
            post(routes::create_session)
                .get(routes::get_session)
                .delete(routes::end_session),
        )
        .route("/accounts", post(routes::create_account))
        .route("/rules", get(routes::rules))
        .route("/rules/{game}/help", get(routes::rules_help))
        .route("/leaderboard/{game}", get(routes::leaderboard))
        .route("/players/{name}", get(routes::player))
        .route(
            "/tournaments",
            post(routes::create_tournament).get(routes::tournaments),
        )
        .route("/tournaments/{id}", get(routes::tournament))
        .route("/tournaments/{id}/join", post(routes::join_tournament))
        .route("/tournaments/{id}/start", post(routes::start_tournament))
        .route("/levels", get(routes::levels))
        .route("/games", post(routes::create_game).get(routes::list_games))
        .route("/games/{id}", get(routes::get_game))
        .route("/games/{id}/join", post(routes::join_game))
        .route("/games/{id}/invite", post(routes::new_invite))
        .route("/join", post(routes::join_by_code))
        .route("/invites/{code}", get(routes::invitation))
        .route("/games/{id}/topology", get(routes::topology))
        .route("/games/{id}/history", get(routes::history))
        .route("/games/{id}/moves", post(routes::play))
        .route("/games/{id}/{action}", post(routes::act))
        .route("/games/{id}/sgf", get(routes::sgf))
        .route("/games/{id}/analysis", get(routes::analysis))
        .route("/games/{id}/ws", get(ws::game_ws))
        .route("/bots", post(routes::register_bot).get(routes::online_bots))
        .route("/bots/mine", get(routes::own_bots))
        .route("/bots/seeks", get(routes::open_seeks))
        .route("/bots/{name}/token", post(routes::rotate_token))
        .route("/bots/{name}", delete(routes::delete_bot))
        .route("/bot/ws", get(bot_ws::bot_ws))
        .route("/bot/games", get(routes::bot_games))
        .route("/openapi.json", get(openapi::openapi))
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
        .route("/assets/{*name}", get(assets::asset))
        .layer(CompressionLayer::new());
    Router::new()
        .nest("/api", api)
        .merge(page)
        .layer(DefaultBodyLimit::max(state.limits.body_bytes))
        .layer(RequestBodyTimeoutLayer::new(state.limits.header_timeout))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            security::guard,
        ))
        .with_state(state)
        .layer(TraceLayer::new_for_http())
}

async fn api_not_found(request: Request) -> Response {
    ApiError::NotFound(format!("route '{}'", request.uri().path())).into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::MethodNotAllowed.into_response()
}

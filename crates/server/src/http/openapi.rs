//! The OpenAPI 3 description of the API, served at `/api/openapi.json`.

use axum::Json;
use utoipa::OpenApi;

use super::{routes, ws};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "toroid",
        description = "Board games on wrapped surfaces: guest sessions, games against house \
            bots and people, live play over WebSocket, records. Errors are \
            {\"error\":{\"code\",\"message\"}}. See docs/server.md."
    ),
    paths(
        routes::create_session,
        routes::get_session,
        routes::rules,
        routes::levels,
        routes::create_game,
        routes::list_games,
        routes::get_game,
        routes::join_game,
        routes::join_by_code,
        routes::topology,
        routes::play,
        routes::resign,
        routes::sgf,
        routes::analysis,
        ws::game_ws,
        openapi,
    ),
    tags(
        (name = "sessions", description = "Guest sessions: a name and a cookie"),
        (name = "games", description = "Creating, finding and reading games"),
        (name = "play", description = "Moves and resignations, over HTTP or the WebSocket"),
    )
)]
pub struct ApiDoc;

/// This description.
#[utoipa::path(get, path = "/api/openapi.json", tag = "games",
    responses((status = 200, body = Object, description = "OpenAPI 3")))]
pub async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

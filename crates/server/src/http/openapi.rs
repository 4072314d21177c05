//! The OpenAPI 3 description of the API, served at `/api/openapi.json`.

use axum::Json;
use utoipa::OpenApi;

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::Modify;

use super::{bot_ws, routes, ws};

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
        routes::end_session,
        routes::create_account,
        routes::rules,
        routes::rules_help,
        routes::levels,
        routes::create_game,
        routes::list_games,
        routes::get_game,
        routes::join_game,
        routes::new_invite,
        routes::join_by_code,
        routes::invitation,
        routes::topology,
        routes::history,
        routes::play,
        routes::act,
        routes::sgf,
        routes::analysis,
        ws::game_ws,
        routes::register_bot,
        routes::online_bots,
        routes::open_seeks,
        routes::own_bots,
        routes::rotate_token,
        routes::delete_bot,
        bot_ws::bot_ws,
        routes::leaderboard,
        routes::player,
        routes::tournaments,
        routes::create_tournament,
        routes::tournament,
        routes::join_tournament,
        routes::start_tournament,
        routes::bot_games,
        openapi,
    ),
    components(schemas(super::bot_protocol::FromBot, super::bot_protocol::ToBot)),
    modifiers(&BotToken),
    tags(
        (name = "sessions", description = "Guest sessions (a name and a cookie) and accounts (a name claimed with a password)"),
        (name = "games", description = "Creating, finding and reading games"),
        (name = "play", description = "Moves, resignations, draws, aborts and claims, over HTTP or the WebSocket"),
        (name = "ratings", description = "Glicko-2 ratings: leaderboards and players"),
        (name = "bots", description = "Registered bots and their WebSocket (docs/protocol.md)"),
    )
)]
pub struct ApiDoc;

/// The bot WebSocket's `Authorization: Bearer TOKEN`.
struct BotToken;

impl Modify for BotToken {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        let scheme = HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build();
        api.components
            .get_or_insert_with(Default::default)
            .add_security_scheme("bot_token", SecurityScheme::Http(scheme));
    }
}

/// This description.
#[utoipa::path(get, path = "/api/openapi.json", tag = "games",
    responses((status = 200, body = Object, description = "OpenAPI 3")))]
pub async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

//! The OpenAPI 3 description of the API, served at `/api/openapi.json`.

use axum::Json;
use utoipa::OpenApi;

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::Modify;

use crate::hub::{
    accounts, bots, challenges, follows, games, lobby, moderation, news, puzzles, ratings, reviews,
    tournaments,
};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "toroid",
        description = "Board games on wrapped surfaces: guest sessions, games against house \
            bots and people, live play over WebSocket, records. Errors are \
            {\"error\":{\"code\",\"message\"}}. See docs/server.md."
    ),
    paths(
        accounts::routes::create_session,
        accounts::routes::get_session,
        accounts::routes::end_session,
        accounts::routes::create_account,
        games::routes::rules,
        games::routes::rules_help,
        games::routes::rule_lessons,
        games::routes::answer_lesson,
        games::routes::levels,
        games::routes::levels_of,
        lobby::routes::create_game,
        games::routes::list_games,
        games::routes::get_game,
        lobby::routes::join_game,
        lobby::routes::new_invite,
        lobby::routes::join_by_code,
        lobby::routes::quick_pairing,
        lobby::routes::invitation,
        games::routes::topology,
        games::routes::history,
        games::routes::play,
        games::routes::act,
        challenges::routes::create,
        challenges::routes::list,
        challenges::routes::accept,
        challenges::routes::decline,
        challenges::routes::withdraw,
        games::routes::toggle_dead,
        games::routes::accept_dead,
        games::routes::sgf,
        games::routes::analysis,
        reviews::routes::review,
        reviews::routes::request_review,
        puzzles::routes::pools,
        puzzles::routes::next,
        puzzles::routes::puzzle,
        puzzles::routes::attempt,
        puzzles::routes::from_game,
        games::ws::game_ws,
        news::ws::news_ws,
        bots::routes::register_bot,
        bots::routes::online_bots,
        bots::routes::open_seeks,
        bots::routes::own_bots,
        bots::routes::rotate_token,
        bots::routes::delete_bot,
        bots::ws::bot_ws,
        ratings::routes::leaderboard,
        ratings::routes::player,
        ratings::routes::game_ratings,
        follows::routes::follows,
        follows::routes::follow,
        follows::routes::unfollow,
        tournaments::routes::tournaments,
        tournaments::routes::create_tournament,
        tournaments::routes::tournament,
        tournaments::routes::join_tournament,
        tournaments::routes::start_tournament,
        bots::routes::bot_games,
        moderation::routes::report,
        moderation::routes::blocks,
        moderation::routes::block,
        moderation::routes::unblock,
        moderation::routes::change_password,
        moderation::routes::reports,
        moderation::routes::accounts,
        moderation::routes::chat_by,
        moderation::routes::resolve_report,
        moderation::routes::delete_chat,
        moderation::routes::hide_game,
        moderation::routes::cancel_tournament,
        moderation::routes::ban,
        moderation::routes::unban,
        moderation::routes::set_role,
        moderation::routes::reset_password,
        moderation::routes::sign_ups,
        openapi,
    ),
    components(schemas(bots::protocol::FromBot, bots::protocol::ToBot, news::wire::NewsMessage)),
    modifiers(&BotToken),
    tags(
        (name = "sessions", description = "Guest sessions (a name and a cookie) and accounts (a name claimed with a password)"),
        (name = "games", description = "Creating, finding and reading games"),
        (name = "play", description = "Moves, resignations, draws, aborts and claims, over HTTP or the WebSocket"),
        (name = "ratings", description = "Glicko-2 ratings: leaderboards and players"),
        (name = "puzzles", description = "Puzzles mined from finished games, with puzzle ratings"),
        (name = "bots", description = "Registered bots and their WebSocket (docs/protocol.md)"),
        (name = "moderation", description = "Reports and blocks for everyone; under /api/admin, the acts of moderators and admins (docs/operations.md)"),
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

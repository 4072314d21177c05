//! The HTTP routes of games and play.
//! Each is described for OpenAPI; `crate::http::openapi` lists them.

use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use toroid_protocol::help::{
    answer, help, lessons, LessonAnswer, LessonError, LessonView, RulesHelp,
};
use toroid_protocol::view::{GameInfo, TopologyView};
use toroid_rules::{GameKind, Position};
use toroid_search::Level;

use super::wire::{
    AcceptDeadRequest, AnalysisQuery, AnalysisView, GameHistory, GameState, GameSummary, ListQuery,
    MoveRequest, ToggleDeadRequest,
};
use crate::error::ApiError;
use crate::game::{Actor, CountingAct, MoveInput};
use crate::http::extract::{ApiJson, ApiQuery, Player, Viewer};
use crate::http::{AppState, ErrorBody};
use crate::hub::{Action, DEFAULT_LIST};
use crate::model::Status;

/// Analysis time when the query does not say.
const DEFAULT_ANALYSIS_MS: u64 = 500;

/// Every rule set with its parameters (as `toroid games --json`).
#[utoipa::path(get, path = "/api/rules", tag = "games",
    responses((status = 200, body = Object, description = "An array of rule sets")))]
pub async fn rules() -> Json<Vec<GameInfo>> {
    Json(GameKind::ALL.into_iter().map(GameInfo::new).collect())
}

/// How to play a rule set: short paragraphs and worked examples, each a position (as in a
/// game's state) with its topology, for the page's rules panel.
#[utoipa::path(get, path = "/api/rules/{game}/help", tag = "games",
    params(("game" = String, Path)),
    responses((status = 200, body = Object, description = "{game, paragraphs, examples: [{title, text, position, topology}]}"),
        (status = 404, body = ErrorBody)))]
pub async fn rules_help(Path(game): Path<String>) -> Result<Json<RulesHelp>, ApiError> {
    Ok(Json(help(rule_set(&game)?)))
}

/// A rule set by name (`404` for none).
fn rule_set(game: &str) -> Result<GameKind, ApiError> {
    game.parse().map_err(|e| ApiError::NotFound(format!("{e}")))
}

/// A rule set's lessons: positions from its examples, each asking the player to move to win
/// or to capture.
#[utoipa::path(get, path = "/api/rules/{game}/lessons", tag = "games",
    params(("game" = String, Path)),
    responses((status = 200, body = Object, description = "[{title, prompt, goal: win|capture, position, topology}]"),
        (status = 404, body = ErrorBody)))]
pub async fn rule_lessons(Path(game): Path<String>) -> Result<Json<Vec<LessonView>>, ApiError> {
    Ok(Json(lessons(rule_set(&game)?)))
}

/// Plays `move` in lesson `n` of a rule set: whether it does what the lesson asks, as the
/// rules say, and why (nothing is stored).
#[utoipa::path(post, path = "/api/rules/{game}/lessons/{n}", tag = "games", request_body = LessonMove,
    params(("game" = String, Path), ("n" = usize, Path)),
    responses((status = 200, body = Object, description = "{solved, explanation, position}"),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn answer_lesson(
    Path((game, n)): Path<(String, usize)>,
    ApiJson(request): ApiJson<LessonMove>,
) -> Result<Json<LessonAnswer>, ApiError> {
    match answer(rule_set(&game)?, n, &request.mv) {
        Ok(answered) => Ok(Json(answered)),
        Err(error @ LessonError::NoLesson(..)) => Err(ApiError::NotFound(error.to_string())),
        Err(error @ LessonError::NotAMove(_)) => Err(ApiError::BadRequest(error.to_string())),
    }
}

/// The body of `POST /api/rules/{game}/lessons/{n}`.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LessonMove {
    #[serde(rename = "move")]
    pub mv: String,
}

/// The house bots' levels: the search ladder weakest first, then `zero`, which plays only the
/// rule sets that have a network.
#[utoipa::path(get, path = "/api/levels", tag = "games",
    responses((status = 200, body = Vec<String>)))]
pub async fn levels() -> Json<Vec<&'static str>> {
    Json(Level::ALL.into_iter().map(Level::name).collect())
}

/// The house bots' levels that play a rule set.
#[utoipa::path(get, path = "/api/levels/{game}", tag = "games",
    params(("game" = String, Path)),
    responses((status = 200, body = Vec<String>), (status = 404, body = ErrorBody)))]
pub async fn levels_of(Path(game): Path<String>) -> Result<Json<Vec<&'static str>>, ApiError> {
    let kind = rule_set(&game)?;
    Ok(Json(Level::playing(kind).map(Level::name).collect()))
}

/// Games, newest first.
#[utoipa::path(get, path = "/api/games", tag = "games", params(ListQuery),
    responses((status = 200, body = Vec<GameSummary>), (status = 400, body = ErrorBody)))]
pub async fn list_games(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let status = query
        .status
        .map(|s| {
            Status::parse(&s).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "unknown status '{s}': use live, finished or waiting"
                ))
            })
        })
        .transpose()?;
    let limit = query.limit.unwrap_or(DEFAULT_LIST);
    if query.mine == Some(true) {
        if query.player.is_some() {
            return Err(ApiError::BadRequest(
                "ask for 'mine' or for a 'player', not both".into(),
            ));
        }
        let session = viewer.ok_or(ApiError::NoSession)?;
        return Ok(Json(state.hub.list_mine(&session, status, limit).await?));
    }
    let player = query.player.as_deref();
    Ok(Json(state.hub.list(status, player, limit).await?))
}

/// A game's state.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, body = GameState), (status = 404, body = ErrorBody)))]
pub async fn get_game(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(state.hub.state(&id, viewer.id()).await?))
}

/// A game's cell graph (as `toroid topology --json`).
#[utoipa::path(get, path = "/api/games/{id}/topology", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, body = Object, description = "cells and edges"),
        (status = 404, body = ErrorBody)))]
pub async fn topology(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TopologyView>, ApiError> {
    let live = state.hub.find(&id).await?;
    let game = live.game.lock().await;
    Ok(Json(TopologyView::new(game.position.topology())))
}

/// Every board of a game from its start as the rules made them, with the captures, the
/// score and the clocks after each move: a page steps through a game with them without
/// knowing the rules.
#[utoipa::path(get, path = "/api/games/{id}/history", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, body = GameHistory), (status = 404, body = ErrorBody)))]
pub async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameHistory>, ApiError> {
    Ok(Json(state.hub.history(&id).await?))
}

/// Plays a move. Answered only once the move is stored.
#[utoipa::path(post, path = "/api/games/{id}/moves", tag = "play", request_body = MoveRequest,
    params(("id" = String, Path)),
    responses((status = 200, body = GameState),
        (status = 400, body = ErrorBody, description = "bad-json, bad-request"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody, description = "not-a-player"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "not-your-turn, stale-ply, game-over, not-started"),
        (status = 422, body = ErrorBody, description = "illegal-move")))]
pub async fn play(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    let live = state.hub.find(&id).await?;
    let actor = Actor::Session(&session.id);
    Ok(Json(
        state
            .hub
            .play(&live, actor, request.ply, MoveInput::Text(&request.mv))
            .await?,
    ))
}

/// Acts in a game: `resign`; `draw` offers a draw or accepts the opponent's offer;
/// `decline-draw` declines it or withdraws one's own; `abort` ends the game without a
/// result before both sides have moved; `claim-victory` wins against a registered bot
/// disconnected for 60 seconds; `takeback` asks to take back one's last turn or accepts
/// the opponent's request, `decline-takeback` declines or withdraws; once a game between
/// two people is over, `rematch` offers a rematch or accepts the opponent's offer, and
/// `decline-rematch` declines or withdraws; `resume-play` disputes the dead stones marked
/// after two passes (play goes on as cleanup); `withdraw` ends a waiting game one created.
#[utoipa::path(post, path = "/api/games/{id}/{action}", tag = "play",
    params(("id" = String, Path),
        ("action" = Action, Path, description = "resign, draw, decline-draw, abort, claim-victory, takeback, decline-takeback, rematch, decline-rematch, resume-play or withdraw")),
    responses((status = 200, body = GameState), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody, description = "no such game or action"),
        (status = 409, body = ErrorBody, description = "game-over, not-started, or conflict: too late to abort, no offer to decline, the opponent has not left, no takebacks in this game or nothing to take back, no rematch here or one has started")))]
pub async fn act(
    State(state): State<AppState>,
    Player(session): Player,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<GameState>, ApiError> {
    let action: Action = serde_json::from_value(serde_json::Value::String(action.clone()))
        .map_err(|_| ApiError::NotFound(format!("action '{action}'")))?;
    let live = state.hub.find(&id).await?;
    let actor = Actor::Session(&session.id);
    Ok(Json(state.hub.act(&live, actor, action).await?))
}

/// After two passes under `scoring_phase=agreement`: marks the chain on `point` dead, or
/// alive again. Every acceptance is withdrawn.
#[utoipa::path(post, path = "/api/games/{id}/toggle-dead", tag = "play", request_body = ToggleDeadRequest,
    params(("id" = String, Path)),
    responses((status = 200, body = GameState), (status = 400, body = ErrorBody, description = "not a point, or no stone there"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody, description = "not-a-player"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "game-over, or conflict: the players are not agreeing on dead stones, or the marks changed meanwhile")))]
pub async fn toggle_dead(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<ToggleDeadRequest>,
) -> Result<Json<GameState>, ApiError> {
    let live = state.hub.find(&id).await?;
    let act = CountingAct::Toggle(&request.point);
    let actor = Actor::Session(&session.id);
    Ok(Json(state.hub.count(&live, actor, act).await?))
}

/// After two passes under `scoring_phase=agreement`: accepts the dead stones marked, which
/// must be `dead`. When both players have accepted, the game ends, scored with them taken
/// off. `POST /api/games/{id}/resume-play` disputes them instead.
#[utoipa::path(post, path = "/api/games/{id}/accept-dead", tag = "play", request_body = AcceptDeadRequest,
    params(("id" = String, Path)),
    responses((status = 200, body = GameState), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody, description = "not-a-player"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "game-over, or conflict: not agreeing on dead stones, or the marks are not those sent")))]
pub async fn accept_dead(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<AcceptDeadRequest>,
) -> Result<Json<GameState>, ApiError> {
    let live = state.hub.find(&id).await?;
    let act = CountingAct::Accept(&request.dead);
    let actor = Actor::Session(&session.id);
    Ok(Json(state.hub.count(&live, actor, act).await?))
}

/// The game's SGF record.
#[utoipa::path(get, path = "/api/games/{id}/sgf", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, content_type = "application/x-go-sgf", body = String),
        (status = 404, body = ErrorBody)))]
pub async fn sgf(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let record = state.hub.record(&id).await?;
    let disposition = format!("attachment; filename=\"toroid-{id}.sgf\"");
    Ok((
        [
            (CONTENT_TYPE, "application/x-go-sgf".to_string()),
            (CONTENT_DISPOSITION, disposition),
        ],
        record.to_sgf(),
    ))
}

/// A short search of the game's position: after the end for everyone; while the game is
/// played only for a person playing a house bot.
#[utoipa::path(get, path = "/api/games/{id}/analysis", tag = "games",
    params(("id" = String, Path), AnalysisQuery),
    responses((status = 200, body = AnalysisView), (status = 404, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "no-analysis: not during this game, not for you"),
        (status = 503, body = ErrorBody, description = "busy: every search thread is in use")))]
pub async fn analysis(
    State(state): State<AppState>,
    Viewer(session): Viewer,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<AnalysisQuery>,
) -> Result<Json<AnalysisView>, ApiError> {
    let ms = query.ms.unwrap_or(DEFAULT_ANALYSIS_MS);
    let viewer = session.as_ref().map(|s| s.id.as_str());
    Ok(Json(state.hub.analyse(&id, viewer, ms).await?))
}

/// Adds the routes of games and play to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/rules", get(rules))
        .route("/rules/{game}/help", get(rules_help))
        .route("/rules/{game}/lessons", get(rule_lessons))
        .route("/rules/{game}/lessons/{n}", post(answer_lesson))
        .route("/levels", get(levels))
        .route("/levels/{game}", get(levels_of))
        .route("/games", get(list_games))
        .route("/games/{id}", get(get_game))
        .route("/games/{id}/topology", get(topology))
        .route("/games/{id}/history", get(history))
        .route("/games/{id}/moves", post(play))
        .route("/games/{id}/toggle-dead", post(toggle_dead))
        .route("/games/{id}/accept-dead", post(accept_dead))
        .route("/games/{id}/{action}", post(act))
        .route("/games/{id}/sgf", get(sgf))
        .route("/games/{id}/analysis", get(analysis))
        .route("/games/{id}/ws", get(super::ws::game_ws))
}

//! The HTTP routes of the API, each described for OpenAPI (`openapi.rs` lists them).

use axum::extract::{ConnectInfo, Path, State};
use axum::http::header::{AUTHORIZATION, CONTENT_DISPOSITION, CONTENT_TYPE, SET_COOKIE};
use axum::http::StatusCode;
use axum::http::{HeaderMap, HeaderName};
use axum::response::{AppendHeaders, IntoResponse};
use axum::Json;
use toroid_protocol::help::{help, RulesHelp};
use toroid_protocol::view::{GameInfo, TopologyView};
use toroid_rules::{GameKind, Position};
use toroid_search::Level;

use super::connections::ClientAddr;
use super::error::ErrorBody;
use super::extract::{ApiJson, ApiQuery, Player, Viewer, SESSION_COOKIE};
use super::AppState;
use crate::api::{
    AnalysisQuery, AnalysisView, BotCreated, GameHistory, GameState, GameSummary, JoinRequest,
    ListQuery, MoveRequest, NewAccount, NewBot, NewGame, NewSession, NewTournament, OnlineBots,
    OwnBot, OwnBots, PlayerPage, RatingView, SeekView, SessionView, TournamentListQuery,
    TournamentSummary, TournamentView,
};
use crate::error::ApiError;
use crate::game::{Actor, MoveInput};
use crate::hub::Action;
use crate::model::Status;
use crate::storage::{BotRow, SessionRow};

/// Games a list returns when the query does not say.
const DEFAULT_LIST: u32 = 50;
/// Analysis time when the query does not say.
const DEFAULT_ANALYSIS_MS: u64 = 500;

/// Starts a guest session, or with a password signs in to an account; sets its cookie.
#[utoipa::path(post, path = "/api/session", tag = "sessions", request_body = NewSession,
    responses((status = 201, body = SessionView, description = "Also sets the toroid_session cookie"),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody, description = "bad-credentials: no account has this name and password"),
        (status = 409, body = ErrorBody, description = "a guest may not take an account's name"),
        (status = 429, body = ErrorBody, description = "too many sign-in attempts")))]
pub async fn create_session(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    ApiJson(request): ApiJson<NewSession>,
) -> Result<impl IntoResponse, ApiError> {
    let (session, token) = match &request.password {
        Some(password) => {
            (state.hub)
                .sign_in(&request.name, password, address.ip())
                .await?
        }
        None => {
            (state.hub)
                .create_session(&request.name, address.ip())
                .await?
        }
    };
    Ok((
        StatusCode::CREATED,
        session_cookies(&token),
        Json(session_view(&session)),
    ))
}

/// Claims a name with a password: a new account, which the asker's guest session (if any)
/// is signed in to, its bots becoming the account's; else a new session and its cookie.
#[utoipa::path(post, path = "/api/accounts", tag = "sessions", request_body = NewAccount,
    responses((status = 201, body = SessionView, description = "Sets the toroid_session cookie when the session is new"),
        (status = 400, body = ErrorBody, description = "a bad name, or a password not of 8 to 128 characters"),
        (status = 409, body = ErrorBody, description = "the name is taken, whatever its case")))]
pub async fn create_account(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    Viewer(guest): Viewer,
    ApiJson(request): ApiJson<NewAccount>,
) -> Result<axum::response::Response, ApiError> {
    let (session, token) = (state.hub)
        .create_account(guest, &request.name, &request.password, address.ip())
        .await?;
    let body = Json(session_view(&session));
    Ok(match token {
        Some(token) => (StatusCode::CREATED, session_cookies(&token), body).into_response(),
        None => (StatusCode::CREATED, body).into_response(),
    })
}

/// The cookie of a session. A year: a guest session has no password, the cookie is all
/// there is.
///
/// With it goes `toroid_signed_in=1`, which scripts may read (the session's cookie is
/// HttpOnly): the page asks for its session only when it has one, so a first visit makes no
/// request that fails.
fn session_cookies(token: &str) -> AppendHeaders<[(HeaderName, String); 2]> {
    const YEAR: &str = "SameSite=Lax; Path=/; Max-Age=31536000";
    AppendHeaders([
        (
            SET_COOKIE,
            format!("{SESSION_COOKIE}={token}; HttpOnly; {YEAR}"),
        ),
        (SET_COOKIE, format!("{SIGNED_IN_COOKIE}=1; {YEAR}")),
    ])
}

/// The cookie that tells the page's script that a session cookie is set.
const SIGNED_IN_COOKIE: &str = "toroid_signed_in";

fn session_view(session: &SessionRow) -> SessionView {
    SessionView {
        id: session.id.clone(),
        name: session.name.clone(),
        account: session.account_id.is_some(),
    }
}

/// The session of the cookie.
#[utoipa::path(get, path = "/api/session", tag = "sessions",
    responses((status = 200, body = SessionView), (status = 401, body = ErrorBody)))]
pub async fn get_session(Player(session): Player) -> Json<SessionView> {
    Json(session_view(&session))
}

/// Signs out: the session ends at once and its cookie is cleared. Its games keep their
/// seats; nobody can act in them as this session again.
#[utoipa::path(delete, path = "/api/session", tag = "sessions",
    responses((status = 204, description = "Signed out"), (status = 401, body = ErrorBody)))]
pub async fn end_session(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<impl IntoResponse, ApiError> {
    state.hub.end_session(&session).await?;
    let gone = "SameSite=Lax; Path=/; Max-Age=0";
    let cookies = AppendHeaders([
        (SET_COOKIE, format!("{SESSION_COOKIE}=; HttpOnly; {gone}")),
        (SET_COOKIE, format!("{SIGNED_IN_COOKIE}=; {gone}")),
    ]);
    Ok((StatusCode::NO_CONTENT, cookies))
}

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
    let kind: GameKind = game
        .parse()
        .map_err(|e| ApiError::NotFound(format!("{e}")))?;
    Ok(Json(help(kind)))
}

/// The house bots' levels, weakest first.
#[utoipa::path(get, path = "/api/levels", tag = "games",
    responses((status = 200, body = Vec<String>)))]
pub async fn levels() -> Json<Vec<&'static str>> {
    Json(Level::ALL.into_iter().map(Level::name).collect())
}

/// Creates a game against a house bot (live at once) or an invite game (waiting).
#[utoipa::path(post, path = "/api/games", tag = "games", request_body = NewGame,
    responses((status = 201, body = GameState), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn create_game(
    State(state): State<AppState>,
    ConnectInfo(ClientAddr(address)): ConnectInfo<ClientAddr>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewGame>,
) -> Result<impl IntoResponse, ApiError> {
    let game = (state.hub)
        .create_game(&session, address.ip(), request)
        .await?;
    Ok((StatusCode::CREATED, Json(game)))
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

/// The live games of the bot whose token is given, each in full.
#[utoipa::path(get, path = "/api/bot/games", tag = "bots", security(("bot_token" = [])),
    responses((status = 200, body = Vec<GameState>), (status = 401, body = ErrorBody)))]
pub async fn bot_games(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Vec<GameState>>, ApiError> {
    let bot = bearer_bot(&state, &headers).await?;
    let mut games = Vec::new();
    for id in state.hub.bot_games(&bot.id).await? {
        match state.hub.state(&id, None).await {
            Ok(game) if game.status != Status::Finished => games.push(game),
            // Ended or gone between the two questions.
            Ok(_) | Err(ApiError::NotFound(_)) => {}
            Err(error) => return Err(error),
        }
    }
    games.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(Json(games))
}

/// The registered bot whose token the request carries (`Authorization: Bearer TOKEN`).
pub async fn bearer_bot(state: &AppState, headers: &HeaderMap) -> Result<BotRow, ApiError> {
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or(ApiError::BadToken)?;
    state.hub.bot(token.trim()).await?.ok_or(ApiError::BadToken)
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

/// Takes the open seat of an invite game (`{id}` may also be the invite code).
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", request_body = JoinRequest,
    params(("id" = String, Path)),
    responses((status = 200, body = GameState), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn join_game(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<JoinRequest>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(state.hub.join(&session, &id, &request.code).await?))
}

/// Replaces the invite code of a waiting game its creator made: the old link stops working,
/// and the answer holds the new one (`invite`).
#[utoipa::path(post, path = "/api/games/{id}/invite", tag = "games",
    params(("id" = String, Path)),
    responses((status = 200, body = GameState), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "not-a-player: not the game's creator"),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "the game has started")))]
pub async fn new_invite(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(state.hub.new_invite(&session, &id).await?))
}

/// Takes the open seat of the invite game whose code this is (the page at `/join/CODE`
/// knows only the code).
#[utoipa::path(post, path = "/api/join", tag = "games", request_body = JoinRequest,
    responses((status = 200, body = GameState), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn join_by_code(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<JoinRequest>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(state.hub.join_by_code(&session, &request.code).await?))
}

/// The game an invite code opens, as anyone sees it (the invited person looks before
/// choosing a name and joining with `POST /api/join`).
#[utoipa::path(get, path = "/api/invites/{code}", tag = "games",
    params(("code" = String, Path)),
    responses((status = 200, body = GameState), (status = 404, body = ErrorBody)))]
pub async fn invitation(
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(state.hub.invitation(&code).await?))
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
/// `decline-rematch` declines or withdraws.
#[utoipa::path(post, path = "/api/games/{id}/{action}", tag = "play",
    params(("id" = String, Path),
        ("action" = Action, Path, description = "resign, draw, decline-draw, abort, claim-victory, takeback, decline-takeback, rematch or decline-rematch")),
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

/// Registers a bot; the answer holds its token, shown only this once.
#[utoipa::path(post, path = "/api/bots", tag = "bots", request_body = NewBot,
    responses((status = 201, body = BotCreated), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 409, body = ErrorBody, description = "the name is taken")))]
pub async fn register_bot(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewBot>,
) -> Result<impl IntoResponse, ApiError> {
    let (bot, token) = state.hub.register_bot(&session, &request.name).await?;
    let body = BotCreated {
        id: bot.id,
        name: bot.name,
        token,
    };
    Ok((StatusCode::CREATED, Json(body)))
}

/// The asker's bots, and which are connected.
#[utoipa::path(get, path = "/api/bots/mine", tag = "bots",
    responses((status = 200, body = OwnBots), (status = 401, body = ErrorBody)))]
pub async fn own_bots(
    State(state): State<AppState>,
    Player(session): Player,
) -> Result<Json<OwnBots>, ApiError> {
    let bots = (state.hub.bots_of(&session).await?)
        .into_iter()
        .map(|(bot, online)| OwnBot {
            id: bot.id,
            name: bot.name,
            created_at: bot.created_at,
            online,
        })
        .collect();
    Ok(Json(OwnBots { bots }))
}

/// A new token for one of the asker's bots, shown this once; the old one stops working.
#[utoipa::path(post, path = "/api/bots/{name}/token", tag = "bots",
    params(("name" = String, Path, description = "the bot's name")),
    responses((status = 200, body = BotCreated), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no bot of the asker's by that name")))]
pub async fn rotate_token(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<Json<BotCreated>, ApiError> {
    let (bot, token) = state.hub.rotate_token(&session, &name).await?;
    Ok(Json(BotCreated {
        id: bot.id,
        name: bot.name,
        token,
    }))
}

/// Deletes one of the asker's bots that has no unfinished game; its name is free again.
#[utoipa::path(delete, path = "/api/bots/{name}", tag = "bots",
    params(("name" = String, Path, description = "the bot's name")),
    responses((status = 204), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no bot of the asker's by that name"),
        (status = 409, body = ErrorBody, description = "it has unfinished games")))]
pub async fn delete_bot(
    State(state): State<AppState>,
    Player(session): Player,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.hub.delete_bot(&session, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The bots connected now.
#[utoipa::path(get, path = "/api/bots", tag = "bots",
    responses((status = 200, body = OnlineBots)))]
pub async fn online_bots(State(state): State<AppState>) -> Result<Json<OnlineBots>, ApiError> {
    Ok(Json(OnlineBots {
        online: state.hub.online_bots().await?,
    }))
}

/// The bots' open seeks, oldest first.
#[utoipa::path(get, path = "/api/bots/seeks", tag = "bots",
    responses((status = 200, body = Vec<SeekView>)))]
pub async fn open_seeks(State(state): State<AppState>) -> Result<Json<Vec<SeekView>>, ApiError> {
    Ok(Json(state.hub.open_seeks().await?))
}

/// The rating pool of a rule set: its players by rating (at most 100).
#[utoipa::path(get, path = "/api/leaderboard/{game}", tag = "ratings",
    params(("game" = String, Path, description = "a rule set")),
    responses((status = 200, body = Vec<RatingView>), (status = 404, body = ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> Result<Json<Vec<RatingView>>, ApiError> {
    Ok(Json(state.hub.leaderboard(&game).await?))
}

/// A player: an account (whatever the name's case), else a registered bot, else a house
/// level; its ratings with their history, its recent games and an account's bots.
#[utoipa::path(get, path = "/api/players/{name}", tag = "ratings",
    params(("name" = String, Path)),
    responses((status = 200, body = PlayerPage), (status = 404, body = ErrorBody)))]
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PlayerPage>, ApiError> {
    Ok(Json(state.hub.player(&name).await?))
}

/// Tournaments, newest first.
#[utoipa::path(get, path = "/api/tournaments", tag = "ratings", params(TournamentListQuery),
    responses((status = 200, body = Vec<TournamentSummary>), (status = 400, body = ErrorBody)))]
pub async fn tournaments(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<TournamentListQuery>,
) -> Result<Json<Vec<TournamentSummary>>, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIST);
    Ok(Json(state.hub.tournaments(limit).await?))
}

/// Creates a tournament (an account's session): open for players until its creator starts
/// it.
#[utoipa::path(post, path = "/api/tournaments", tag = "ratings", request_body = NewTournament,
    responses((status = 201, body = TournamentView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn create_tournament(
    State(state): State<AppState>,
    Player(session): Player,
    ApiJson(request): ApiJson<NewTournament>,
) -> Result<impl IntoResponse, ApiError> {
    let view = state.hub.create_tournament(&session, request).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A tournament: settings, players, rounds with their games, standings.
#[utoipa::path(get, path = "/api/tournaments/{id}", tag = "ratings",
    params(("id" = String, Path)),
    responses((status = 200, body = TournamentView), (status = 404, body = ErrorBody)))]
pub async fn tournament(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(state.hub.tournament(&id).await?))
}

/// Joins an open tournament (an account's session).
#[utoipa::path(post, path = "/api/tournaments/{id}/join", tag = "ratings",
    params(("id" = String, Path)),
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn join_tournament(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(
        state.hub.join_tournament_as_person(&session, &id).await?,
    ))
}

/// Starts a tournament (its creator): the first round's games begin, and each next round
/// once the previous one is over.
#[utoipa::path(post, path = "/api/tournaments/{id}/start", tag = "ratings",
    params(("id" = String, Path)),
    responses((status = 200, body = TournamentView), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn start_tournament(
    State(state): State<AppState>,
    Player(session): Player,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(state.hub.start_tournament(&session, &id).await?))
}

//! A person's news socket: `GET /api/me/ws`. It looks at the person's challenges and live
//! games when it opens, when a word of news concerns them (at most once a second), and
//! every 30 s besides (for reminders), and tells what is new since it last looked.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use super::wire::NewsMessage;
use super::{keys_of, News};
use crate::error::ApiError;
use crate::http::extract::Player;
use crate::http::heartbeat::{closed_by, going_away, Beat, Heartbeat};
use crate::http::AppState;
use crate::hub::follows::MARK_EVERY_MS;
use crate::model::Status;
use crate::storage::SessionRow;

/// How often the socket looks again without news: reminders need no news.
const LOOK_EVERY: Duration = Duration::from_secs(30);
/// Least time between two looks, however much news comes.
const LOOK_AT_MOST: Duration = Duration::from_secs(1);
/// A reminder comes when the move's time left falls under this, or under a quarter of the
/// time a move has, whichever is less.
const REMIND_UNDER: Duration = Duration::from_secs(6 * 3600);
/// Live games looked at, at most.
const GAMES: u32 = 50;

/// Upgrades to the asker's news socket (`401` without a session).
#[utoipa::path(get, path = "/api/me/ws", tag = "sessions",
    responses((status = 101, description = "WebSocket: challenge, game-started, your-turn, reminder and tournament messages (docs/server.md)"),
        (status = 401, body = crate::http::ErrorBody)))]
pub async fn news_ws(
    State(state): State<AppState>,
    Player(session): Player,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!("this route is a WebSocket: {}", e.body_text()))
    })?;
    Ok(upgrade.on_upgrade(move |socket| serve(socket, state, session)))
}

/// What the socket told when it last looked.
#[derive(Default)]
struct Told {
    /// The open challenges to the person.
    challenges: HashSet<String>,
    /// The live games, and whether each waited for the person's move.
    games: HashMap<String, bool>,
    /// The reminders given: a game and its ply.
    reminded: HashSet<(String, i64)>,
}

fn text(message: &NewsMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .expect("messages serialize")
            .into(),
    )
}

async fn serve(socket: WebSocket, state: AppState, session: SessionRow) {
    let _open = crate::metrics::OpenSocket::new("news");
    let (mut sink, mut stream) = socket.split();
    let keys = keys_of(&session);
    let mut bus = state.hub.news();
    let mut ended = state.hub.ended_sessions();
    let mut heartbeat = Heartbeat::new(state.limits.ping_interval);
    let mut told = Told::default();
    let mut first = true;
    let mut due = true;
    let mut last_look = Instant::now();
    // When the session was last marked online (for those who follow its person).
    let mut marked: Option<Instant> = None;
    let mut looks = tokio::time::interval(LOOK_AT_MOST);
    loop {
        let now_due = due || last_look.elapsed() >= LOOK_EVERY;
        let mut out = Vec::new();
        tokio::select! {
            incoming = stream.next() => {
                heartbeat.heard();
                match incoming {
                    Some(Ok(Message::Close(_))) => {
                        let _ = sink.close().await;
                        return;
                    }
                    Some(Ok(_)) => {} // nothing is asked over this socket
                    Some(Err(_)) | None => return,
                }
            }
            _ = looks.tick(), if now_due => {
                let mark_every = Duration::from_millis(MARK_EVERY_MS as u64);
                if marked.is_none_or(|at| at.elapsed() >= mark_every) {
                    marked = Some(Instant::now());
                    if let Err(error) = state.hub.mark_online(&session).await {
                        tracing::warn!(%error, "cannot mark a session online");
                    }
                }
                match look(&state, &session, &mut told, first).await {
                    Ok(messages) => out = messages,
                    Err(error) => tracing::warn!(%error, "cannot look at a person's news"),
                }
                (first, due, last_look) = (false, false, Instant::now());
            }
            news = bus.recv() => match news {
                Ok(News { people, tournament }) if people.iter().any(|p| keys.contains(p)) => {
                    if let Some(id) = tournament {
                        out.extend(tournament_news(&state, &id).await);
                    }
                    due = true;
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => due = true,
                Err(RecvError::Closed) => return,
            },
            ended_id = ended.recv() => {
                let own = match ended_id {
                    Ok(id) => id == session.id || session.account_id.as_ref().is_some_and(|a| id == format!("account:{a}")),
                    Err(RecvError::Lagged(_)) => !matches!(state.hub.session_still_open(&session.id).await, Ok(true)),
                    Err(RecvError::Closed) => return,
                };
                if own {
                    let _ = sink.send(closed_by(&ApiError::NoSession)).await;
                    return;
                }
            }
            () = state.hub.stopped() => {
                let _ = sink.send(going_away()).await;
                return;
            }
            beat = heartbeat.beat() => match beat {
                Beat::Ping(ping) => {
                    if sink.send(ping).await.is_err() {
                        return;
                    }
                }
                Beat::Drop => return,
            },
        }
        for message in &out {
            if sink.send(text(message)).await.is_err() {
                return;
            }
        }
    }
}

/// Tournament `id`'s news, unless it has not started.
async fn tournament_news(state: &AppState, id: &str) -> Option<NewsMessage> {
    let view = state.hub.tournament(id).await.ok()?;
    (view.info.stage != "open").then_some(NewsMessage::Tournament {
        id: view.info.id,
        name: view.info.name,
        stage: view.info.stage,
        round: view.played.len(),
    })
}

/// What is new for `session`'s person since `told`: everything but the games already there
/// when the socket opened (`first`), except those waiting for its move; then, the first
/// time, `ready`.
async fn look(
    state: &AppState,
    session: &SessionRow,
    told: &mut Told,
    first: bool,
) -> Result<Vec<NewsMessage>, ApiError> {
    let hub = &state.hub;
    let mut out = Vec::new();
    // The challenges to the person (open ones only) wait for an answer: told when the
    // socket opens too.
    let incoming = hub.challenges_of(&session.seat()).await?.incoming;
    let open: HashSet<String> = incoming.iter().map(|c| c.id.clone()).collect();
    for challenge in incoming {
        if !told.challenges.contains(&challenge.id) {
            out.push(NewsMessage::Challenge { challenge });
        }
    }
    told.challenges = open;
    let games = hub.list_mine(session, Some(Status::Live), GAMES).await?;
    let mut now_live = HashMap::new();
    for game in games {
        let turn = game.your_turn == Some(true);
        let before = told.games.get(&game.id).copied();
        now_live.insert(game.id.clone(), turn);
        if before.is_none() && !first {
            out.push(NewsMessage::GameStarted { game: game.clone() });
        }
        // The rest is of correspondence games waiting for the person's move.
        if !turn {
            continue;
        }
        let Some((per_move, left_ms)) = hub.correspondence_left(&game.id, session).await? else {
            continue;
        };
        if before != Some(true) {
            out.push(NewsMessage::YourTurn { game: game.clone() });
        }
        let remind_under = (REMIND_UNDER.as_millis() as i64).min(per_move / 4);
        let at = (game.id.clone(), game.plies);
        if left_ms < remind_under && !told.reminded.contains(&at) {
            told.reminded.insert(at);
            out.push(NewsMessage::Reminder { game, left_ms });
        }
    }
    told.games = now_live;
    if first {
        out.push(NewsMessage::Ready {});
    }
    Ok(out)
}

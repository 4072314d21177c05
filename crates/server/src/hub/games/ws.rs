//! `GET /api/games/{id}/ws`: a game live, for its players and spectators. The server sends
//! `{"type":"state","game":GameState}` on connect and after every change, and
//! `{"type":"error","code","message"}` for a refused message; players send
//! `{"type":"move","move":"ee","ply":N}`, `{"type":"resign"}`, `{"type":"draw"}` (offer or
//! accept), `{"type":"decline-draw"}`, `{"type":"abort"}`, `{"type":"claim-victory"}`,
//! `{"type":"takeback"}` (ask or accept), `{"type":"decline-takeback"}`, and once the game
//! is over `{"type":"rematch"}` (offer or accept) and `{"type":"decline-rematch"}`. After
//! two passes under `scoring_phase=agreement`, `{"type":"toggle-dead","point":"ee"}`,
//! `{"type":"accept-dead","dead":[…]}` and `{"type":"resume-play"}`.
//!
//! Chat: anyone with a session sends `{"type":"chat","text":"…"}` to their room (the
//! players', or the spectators'); the server sends `{"type":"chat","room","lines":[…]}`,
//! first with the room's latest lines, then with each new one. A server started with
//! `--no-chat` sends no chat and refuses lines.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use crate::api::GameState;
use crate::error::ApiError;
use crate::game::{Actor, CountingAct, MoveInput};
use crate::http::extract::Viewer;
use crate::http::heartbeat::{closed_by, going_away, Beat, Heartbeat};
use crate::http::limits::message_limiter;
use crate::http::AppState;
use crate::hub::chat::{ChatLine, Room, Speaker};
use crate::hub::{Action, LiveGame};
use crate::model::name_key;
use crate::storage::SessionRow;
use toroid_rules::Color;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
        ply: u64,
    },
    // Braces, not unit variants: serde checks unknown fields only on struct variants of an
    // internally tagged enum, so `{"type":"resign","x":1}` is refused.
    Resign {},
    Draw {},
    DeclineDraw {},
    Abort {},
    ClaimVictory {},
    Takeback {},
    DeclineTakeback {},
    Rematch {},
    DeclineRematch {},
    ToggleDead {
        point: String,
    },
    AcceptDead {
        dead: Vec<String>,
    },
    ResumePlay {},
    Withdraw {},
    Chat {
        text: String,
    },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage {
    // Boxed: a state is far larger than an error.
    State {
        game: Box<GameState>,
    },
    Error {
        code: &'static str,
        message: String,
    },
    Chat {
        room: Room,
        lines: Vec<ChatLine>,
    },
    /// To a player, at each ping while it changes: whether the opponent has left, and in how
    /// many milliseconds (0: now) the player may claim victory (null: the opponent is here).
    Presence {
        claim_in_ms: Option<i64>,
    },
}

impl From<&ApiError> for ServerMessage {
    fn from(error: &ApiError) -> ServerMessage {
        ServerMessage::Error {
            code: error.code(),
            message: error.public_message(),
        }
    }
}

/// Upgrades to the game's WebSocket (404 for an unknown game, before upgrading).
#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "play",
    params(("id" = String, Path)),
    responses((status = 101, description = "WebSocket: state messages; move and resign messages from players"),
        (status = 404, body = crate::http::ErrorBody)))]
pub async fn game_ws(
    State(state): State<AppState>,
    Viewer(session): Viewer,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let live = state.hub.find(&id).await?;
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!("this route is a WebSocket: {}", e.body_text()))
    })?;
    Ok(upgrade
        .max_message_size(state.limits.body_bytes)
        .on_upgrade(move |socket| serve(socket, state, live, session)))
}

fn text(message: &ServerMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .expect("messages serialize")
            .into(),
    )
}

async fn state_message(live: &LiveGame, viewer: Option<&str>) -> Message {
    let game = Box::new(live.game.lock().await.state(viewer, Instant::now()));
    text(&ServerMessage::State { game })
}

/// A socket asks every this many pings (a minute, at the default 15 s) whether its session
/// is still open: one ended where no event tells it (an expiry, `toroid admin`) closes it.
const SESSION_CHECK_PINGS: u32 = 4;

async fn serve(
    socket: WebSocket,
    state: AppState,
    live: Arc<LiveGame>,
    session: Option<SessionRow>,
) {
    let _open = crate::metrics::OpenSocket::new("person");
    // A player's open socket keeps them present (an opponent may claim victory only over
    // someone gone for the grace time): noted now, at every ping, and when it closes.
    let player = match &session {
        Some(session) => live.game.lock().await.color_of(&session.id),
        None => None,
    };
    seen(&state, &live, player).await;
    play(socket, &state, &live, session.as_ref(), player).await;
    seen(&state, &live, player).await;
}

/// Whether the database says the session of `viewer` (none: none to lose) has ended; a
/// failing database says no.
async fn session_gone(state: &AppState, viewer: Option<&str>) -> bool {
    match viewer {
        Some(id) => matches!(state.hub.session_still_open(id).await, Ok(false)),
        None => false,
    }
}

async fn seen(state: &AppState, live: &LiveGame, player: Option<Color>) {
    if let Some(color) = player {
        state.hub.player_seen(live, color).await;
    }
}

/// Carries the game's states to the socket and its messages to the game, until either
/// side ends; a `player`'s presence is renewed at every ping the server sends.
async fn play(
    socket: WebSocket,
    state: &AppState,
    live: &LiveGame,
    session: Option<&SessionRow>,
    player: Option<Color>,
) {
    let viewer = session.map(|s| s.id.as_str());
    let (mut sink, mut stream) = socket.split();
    let mut updates = live.updates.subscribe();
    let mut chat = live.chat.subscribe();
    let mut ended = state.hub.ended_sessions();
    let banned = session
        .and_then(|s| s.account_id.as_ref())
        .map(|a| format!("account:{a}"));
    let mut pings = 0u32;
    // What the player was last told of the opponent's presence (at first: here); a ping
    // tells only a change.
    let mut told_claim_in: Option<i64> = None;
    let limiter = message_limiter(state.limits.messages_per_second, state.limits.message_burst);
    let mut heartbeat = Heartbeat::new(state.limits.ping_interval);
    // The lines of players the viewer blocks are not shown to it.
    let blocked = state.hub.blocked_keys(session).await;
    let shown = |line: &ChatLine| !blocked.contains(&name_key(&line.author));
    if sink.send(state_message(live, viewer).await).await.is_err() {
        return;
    }
    // The room's latest lines; lines said meanwhile come on `chat` too, and the page keeps
    // each line once (by id).
    let room = match state.hub.chat_on() {
        true => match state.hub.chat_history(live, viewer).await {
            Ok((room, mut lines)) => {
                lines.retain(shown);
                if sink
                    .send(text(&ServerMessage::Chat { room, lines }))
                    .await
                    .is_err()
                {
                    return;
                }
                Some(room)
            }
            Err(error) => {
                tracing::warn!(game = %live.id, %error, "cannot read the chat");
                None
            }
        },
        false => None,
    };
    loop {
        let reply = tokio::select! {
            incoming = stream.next() => {
                heartbeat.heard();
                match incoming {
                    Some(Ok(Message::Text(body))) => {
                        let refused = if limiter.check().is_err() {
                            Some(ApiError::RateLimited)
                        } else {
                            act(state, live, session, &body).await.err()
                        };
                        if let Some(why @ ApiError::NoSession) = &refused {
                            let _ = sink.send(text(&ServerMessage::from(why))).await;
                            let _ = sink.send(closed_by(why)).await;
                            return;
                        }
                        refused.map(|e| text(&ServerMessage::from(&e)))
                    }
                    Some(Ok(Message::Binary(_))) => Some(text(&ServerMessage::from(
                        &ApiError::BadJson("messages are JSON text".into()),
                    ))),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                    // Closing flushes the close frame that answers the client's.
                    Some(Ok(Message::Close(_))) => {
                        let _ = sink.close().await;
                        return;
                    }
                    Some(Err(_)) | None => return,
                }
            }
            () = state.hub.stopped() => {
                let _ = sink.send(going_away()).await;
                return;
            }
            ended_id = ended.recv(), if viewer.is_some() => {
                let own = match ended_id {
                    // A session that ended, or every session of a banned account.
                    Ok(id) => viewer == Some(id.as_str()) || banned.as_deref() == Some(id.as_str()),
                    // Fallen behind: the database says whether its own session ended.
                    Err(RecvError::Lagged(_)) => session_gone(state, viewer).await,
                    Err(RecvError::Closed) => return,
                };
                if own {
                    let _ = sink.send(closed_by(&ApiError::NoSession)).await;
                    return;
                }
                None
            }
            line = chat.recv() => match line {
                Ok(line) if Some(line.room) == room && shown(&line) => Some(text(&ServerMessage::Chat {
                    room: line.room,
                    lines: vec![line],
                })),
                Ok(_) | Err(RecvError::Lagged(_)) => None,
                Err(RecvError::Closed) => return,
            },
            update = updates.recv() => match update {
                // Lagging behind only means some states were skipped: send the latest.
                Ok(()) | Err(RecvError::Lagged(_)) => Some(state_message(live, viewer).await),
                Err(RecvError::Closed) => return,
            },
            beat = heartbeat.beat() => match beat {
                Beat::Ping(message) => {
                    seen(state, live, player).await;
                    if let Some(color) = player {
                        let claim_in_ms = match state.hub.claim_in(live, color).await {
                            Ok(claim) => claim,
                            Err(error) => {
                                tracing::warn!(game = %live.id, %error, "cannot tell whether the opponent left");
                                None
                            }
                        };
                        // A count down is not news, a departure or a return is.
                        if told_claim_in.is_some() != claim_in_ms.is_some() {
                            told_claim_in = claim_in_ms;
                            if sink.send(text(&ServerMessage::Presence { claim_in_ms })).await.is_err() {
                                return;
                            }
                        }
                    }
                    pings += 1;
                    if pings.is_multiple_of(SESSION_CHECK_PINGS) && session_gone(state, viewer).await {
                        let _ = sink.send(closed_by(&ApiError::NoSession)).await;
                        return;
                    }
                    Some(message)
                }
                Beat::Drop => return,
            },
        };
        if let Some(message) = reply {
            if sink.send(message).await.is_err() {
                return;
            }
        }
    }
}

/// Carries out one message from the client; the new state reaches it as an update.
async fn act(
    state: &AppState,
    live: &LiveGame,
    session: Option<&SessionRow>,
    body: &str,
) -> Result<(), ApiError> {
    let message: ClientMessage =
        serde_json::from_str(body).map_err(|e| ApiError::BadJson(format!("bad message: {e}")))?;
    let session = session.ok_or(ApiError::NotAPlayer)?;
    // A session signed out, expired or ended on another node acts no more.
    if state.hub.session_by_id(&session.id).await?.is_none() {
        return Err(ApiError::NoSession);
    }
    let actor = Actor::Session(&session.id);
    match message {
        ClientMessage::Move { mv, ply } => {
            state
                .hub
                .play(live, actor, ply, MoveInput::Text(&mv))
                .await?
        }
        ClientMessage::Resign {} => state.hub.act(live, actor, Action::Resign).await?,
        ClientMessage::Draw {} => state.hub.act(live, actor, Action::Draw).await?,
        ClientMessage::DeclineDraw {} => state.hub.act(live, actor, Action::DeclineDraw).await?,
        ClientMessage::Abort {} => state.hub.act(live, actor, Action::Abort).await?,
        ClientMessage::ClaimVictory {} => state.hub.act(live, actor, Action::ClaimVictory).await?,
        ClientMessage::Takeback {} => state.hub.act(live, actor, Action::Takeback).await?,
        ClientMessage::DeclineTakeback {} => {
            state.hub.act(live, actor, Action::DeclineTakeback).await?
        }
        ClientMessage::Rematch {} => state.hub.act(live, actor, Action::Rematch).await?,
        ClientMessage::DeclineRematch {} => {
            state.hub.act(live, actor, Action::DeclineRematch).await?
        }
        ClientMessage::ToggleDead { point } => {
            let act = CountingAct::Toggle(&point);
            state.hub.count(live, actor, act).await?
        }
        ClientMessage::AcceptDead { dead } => {
            let act = CountingAct::Accept(&dead);
            state.hub.count(live, actor, act).await?
        }
        ClientMessage::ResumePlay {} => state.hub.act(live, actor, Action::ResumePlay).await?,
        ClientMessage::Withdraw {} => state.hub.act(live, actor, Action::Withdraw).await?,
        ClientMessage::Chat { text } => {
            return state.hub.say(live, Speaker::Person(session), &text).await
        }
    };
    Ok(())
}

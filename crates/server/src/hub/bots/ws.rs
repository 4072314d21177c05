//! `GET /api/bot/ws`: a registered bot's connection (`Authorization: Bearer TOKEN`). After
//! `hello` the bot is online: people can challenge it, it can seek games against other bots,
//! and it is sent `start`, `your-turn` and `game-over` for each of its games.

use crate::hub::chat::Speaker;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use toroid_protocol::view::PerColor;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};
use toroid_rules::{Color, Position};

use super::protocol::{BotView, FromBot, ToBot, PROTOCOL};
use crate::api::{CountingView, NewGame, Opponent};
use crate::error::ApiError;
use crate::game::{player_view, Actor, MoveInput};
use crate::http::heartbeat::{closed_by, going_away, Beat, Heartbeat};
use crate::http::limits::message_limiter;
use crate::http::AppState;
use crate::hub::bots::connected::{BotEvent, Challenge};
use crate::hub::bots::seek::SeekTerms;
use crate::hub::{challenges, Pool};
use crate::ids::now_ms;
use crate::model::{Seat, Status};
use crate::storage::BotRow;

/// How long a new connection has to say `hello`.
const HELLO_WAIT: Duration = Duration::from_secs(10);

/// Upgrades to the bot WebSocket; `401 bad-token` without a valid token.
#[utoipa::path(get, path = "/api/bot/ws", tag = "bots",
    security(("bot_token" = [])),
    responses((status = 101, description = "WebSocket: JSON text messages, FromBot from the bot and ToBot from the server (both in components.schemas); docs/protocol.md explains them"),
        (status = 401, body = crate::http::ErrorBody)))]
pub async fn bot_ws(
    State(state): State<AppState>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let bot = super::routes::bearer_bot(&state, &headers).await?;
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!("this route is a WebSocket: {}", e.body_text()))
    })?;
    Ok(upgrade
        .max_message_size(state.limits.body_bytes)
        .on_upgrade(move |socket| serve(socket, state, bot)))
}

fn text(message: &ToBot) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .expect("messages serialize")
            .into(),
    )
}

/// Ends the connection properly: the error, then its close frame ([`closed_by`]).
async fn close_with(sink: &mut SplitSink<WebSocket, Message>, why: &ApiError) {
    let _ = sink.send(text(&error(why, None))).await;
    let _ = sink.send(closed_by(why)).await;
}

/// The game a message names (its `game_id`), read without the rest of it: a message
/// refused unread is still answered with the game it was for.
fn addressed_game(body: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Addressed {
        game_id: Option<String>,
    }
    serde_json::from_str::<Addressed>(body).ok()?.game_id
}

fn error(error: &ApiError, game_id: Option<String>) -> ToBot {
    ToBot::Error {
        code: error.code(),
        message: error.public_message(),
        game_id,
    }
}

/// How far a game has been announced to the bot, once `start` was sent.
struct Seen {
    /// Moves told (`start` and `moved`).
    moves: usize,
    /// The draw offer told.
    offer: Option<Color>,
    /// The ply `your-turn` was sent for.
    turn: Option<usize>,
    over: bool,
    /// Whether the bot was told its opponent is gone (and not yet that it is back).
    opponent_gone: bool,
    /// The dead stones' marks told.
    counting: Option<CountingView>,
}

/// How often challenges put to the bot are checked for challengers that stopped waiting.
const CHALLENGE_SWEEP: Duration = Duration::from_millis(500);

/// One bot's connection.
struct Connection {
    state: AppState,
    bot: BotRow,
    games: HashMap<String, Seen>,
    /// Challenges waiting for the bot's answer.
    challenges: HashMap<String, oneshot::Sender<Result<(), String>>>,
    /// The stored challenges to the bot it has been told of, open then.
    told: HashSet<String>,
    /// Since when its own stored challenges' ends are to be told (the connection's start,
    /// then the last look).
    challenges_since: i64,
    /// Answers that come later (to the bot's own challenges, which wait for the opponent).
    later: mpsc::UnboundedSender<ToBot>,
}

/// Waits for `hello`; whether it came.
async fn hello(stream: &mut SplitStream<WebSocket>) -> Result<(), ApiError> {
    let first = tokio::time::timeout(HELLO_WAIT, stream.next()).await;
    let Ok(Some(Ok(Message::Text(body)))) = first else {
        return Err(ApiError::BadRequest("say hello first".into()));
    };
    match serde_json::from_str::<FromBot>(&body) {
        Ok(FromBot::Hello { protocol: PROTOCOL }) => Ok(()),
        Ok(FromBot::Hello { protocol }) => Err(ApiError::BadRequest(format!(
            "protocol {protocol} is not spoken here: use {PROTOCOL}"
        ))),
        _ => Err(ApiError::BadRequest(format!(
            "the first message is {{\"type\":\"hello\",\"protocol\":{PROTOCOL}}}"
        ))),
    }
}

async fn serve(socket: WebSocket, state: AppState, bot: BotRow) {
    let _open = crate::metrics::OpenSocket::new("bot");
    let (mut sink, mut stream) = socket.split();
    if let Err(e) = hello(&mut stream).await {
        close_with(&mut sink, &e).await;
        return;
    }
    let (number, mut events) = state.hub.connect_bot(&bot).await;
    // The token is asked after again once the bot is online: one replaced or a bot deleted
    // since the socket opened is refused here, and one replaced from now on revokes it.
    // Offline again before the bot hears why: whoever it tells then sees it offline.
    if !state.hub.token_still_opens(&bot).await {
        state.hub.disconnect_bot(&bot, number).await;
        close_with(&mut sink, &ApiError::BadToken).await;
        return;
    }
    let limiter = message_limiter(
        state.limits.bot_messages_per_second,
        state.limits.bot_message_burst,
    );
    let mut heartbeat = Heartbeat::new(state.limits.ping_interval);
    let (later, mut answers) = mpsc::unbounded_channel();
    let mut connection = Connection {
        state: state.clone(),
        bot: bot.clone(),
        games: HashMap::new(),
        challenges: HashMap::new(),
        told: HashSet::new(),
        challenges_since: now_ms(),
        later,
    };
    let mut replies = vec![ToBot::Welcome {
        bot: BotView {
            id: bot.id.clone(),
            name: bot.name.clone(),
        },
        protocol: PROTOCOL,
    }];
    // After a reconnection, the games that go on, and those that ended meanwhile.
    for id in state.hub.bot_games(&bot.id).await.unwrap_or_default() {
        replies.extend(connection.changed(&id).await);
    }
    for id in state.hub.ended_while_away(&bot).await.unwrap_or_default() {
        replies.extend(connection.changed(&id).await);
    }
    // Challenges by name made while it was away.
    replies.extend(connection.stored_challenges().await);
    state.hub.bot_seen(&bot, now_ms()).await;
    'connection: loop {
        let tells_an_end = replies.iter().any(|r| matches!(r, ToBot::GameOver { .. }));
        for reply in replies.drain(..) {
            if sink.send(text(&reply)).await.is_err() {
                break 'connection;
            }
        }
        // What the bot has been told of ended games is stored at once: after a restart that
        // never saw it disconnect, it is not told of them again. (An end just told may
        // have come this very millisecond, which a catch-up would take as after it.)
        if tells_an_end {
            state.hub.bot_seen(&bot, now_ms() + 1).await;
        }
        tokio::select! {
            incoming = stream.next() => {
                heartbeat.heard();
                match incoming {
                    Some(Ok(Message::Text(body))) => {
                        if limiter.check().is_err() {
                            replies.push(error(&ApiError::RateLimited, addressed_game(&body)));
                        } else {
                            replies.extend(connection.message(&body).await);
                        }
                    }
                    Some(Ok(Message::Binary(_))) => replies.push(error(
                        &ApiError::BadJson("messages are JSON text".into()),
                        None,
                    )),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    // Closing flushes the close frame that answers the bot's.
                    Some(Ok(Message::Close(_))) => {
                        let _ = sink.close().await;
                        break;
                    }
                    Some(Err(_)) | None => break,
                }
            }
            () = state.hub.stopped() => {
                let _ = sink.send(going_away()).await;
                break;
            }
            Some(answer) = answers.recv() => replies.push(answer),
            _ = tokio::time::sleep(CHALLENGE_SWEEP), if !connection.challenges.is_empty() => {
                replies.extend(connection.withdrawn_challenges());
            }
            beat = heartbeat.beat() => match beat {
                Beat::Ping(ping) => {
                    if sink.send(ping).await.is_err() {
                        break;
                    }
                    replies.extend(connection.presence().await);
                }
                Beat::Drop => break,
            },
            event = events.recv() => match event {
                Some(BotEvent::Changed(id)) => replies.extend(connection.changed(&id).await),
                Some(BotEvent::Tournament(id)) => {
                    if let Ok(view) = state.hub.tournament(&id).await {
                        replies.push(ToBot::Tournament { tournament: Box::new(view) });
                    }
                }
                Some(BotEvent::Chat(game_id, line)) => replies.push(ToBot::Chat {
                    game_id,
                    id: line.id,
                    author: line.author,
                    text: line.text,
                    at: line.at,
                }),
                Some(BotEvent::Challenge(challenge, answer)) => {
                    replies.push(connection.challenged(challenge, answer));
                }
                Some(BotEvent::Challenges) => replies.extend(connection.stored_challenges().await),
                Some(BotEvent::Revoked) => {
                    close_with(&mut sink, &ApiError::BadToken).await;
                    break;
                }
                Some(BotEvent::Replaced) | None => {
                    let replaced = ApiError::Conflict("another connection of this bot took over".into());
                    close_with(&mut sink, &replaced).await;
                    break;
                }
            },
        }
    }
    state.hub.disconnect_bot(&bot, number).await;
}

impl Connection {
    /// Carries out one message from the bot; what to answer.
    async fn message(&mut self, body: &str) -> Vec<ToBot> {
        let message = match serde_json::from_str::<FromBot>(body) {
            Ok(message) => message,
            Err(e) => return vec![error(&ApiError::BadJson(format!("bad message: {e}")), None)],
        };
        let hub = &self.state.hub;
        let actor = Actor::Bot(&self.bot.id);
        let (game_id, result) = match message {
            FromBot::Hello { .. } => (None, Err(ApiError::BadRequest("hello was said".into()))),
            FromBot::Accept { challenge } => (None, self.answer(&challenge, Ok(())).await),
            FromBot::Decline { challenge, reason } => {
                let why = reason.unwrap_or_else(|| "no reason given".into());
                (None, self.answer(&challenge, Err(why)).await)
            }
            FromBot::ChallengePlayer(request) => {
                let seat = Seat::Bot {
                    bot: self.bot.id.clone(),
                    name: self.bot.name.clone(),
                };
                return match hub.create_challenge(seat, request).await {
                    Ok(challenge) => vec![ToBot::ChallengeCreated { challenge }],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::Seek {
                game,
                rated,
                params,
                clock,
            } => {
                // A game that starts at once announces itself with `start`, after this.
                let terms = SeekTerms::read(game, &params, clock.as_ref(), rated);
                let started = match terms {
                    Ok(terms) => hub.seek(&self.bot, terms).await,
                    Err(e) => Err(e),
                };
                return match started {
                    Ok(_) => vec![ToBot::Seeking],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::Challenge(request) => {
                self.challenge(request);
                return Vec::new();
            }
            FromBot::Arena { game, clock } => {
                let pool = Pool { game, clock };
                return match hub.join_arena(&self.bot, &pool).await {
                    Ok(()) => vec![ToBot::ArenaJoined { game, clock }],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::CreateTournament(request) => {
                return match hub.create_tournament_as_bot(&self.bot, request).await {
                    Ok(view) => vec![ToBot::TournamentCreated {
                        tournament: view.info.id,
                    }],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::StartTournament { tournament } => {
                // Answered with the tournament, as its players hear of it (once: a bot that
                // plays in it hears the news anyway).
                return match hub
                    .start_tournament(Some(&self.bot.owner), &tournament)
                    .await
                {
                    Ok(view) if view.players.iter().any(|p| p.name == self.bot.name) => Vec::new(),
                    Ok(view) => vec![ToBot::Tournament {
                        tournament: Box::new(view),
                    }],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::JoinTournament { tournament } => {
                return match hub.join_tournament_as_bot(&self.bot, &tournament).await {
                    Ok(_) => vec![ToBot::TournamentJoined { tournament }],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::LeaveArena {} => {
                return match hub.leave_arena(&self.bot.id).await {
                    Ok(()) => vec![ToBot::ArenaLeft],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::CancelSeek {} => {
                return match hub.cancel_seek(&self.bot.id).await {
                    Ok(_) => vec![ToBot::SeekCancelled],
                    Err(e) => vec![error(&e, None)],
                };
            }
            FromBot::Chat { game_id, text } => {
                let result = match hub.find(&game_id).await {
                    Ok(live) => hub.say(&live, Speaker::Bot(&self.bot), &text).await,
                    Err(e) => Err(e),
                };
                return result
                    .err()
                    .map(|e| error(&e, Some(game_id)))
                    .into_iter()
                    .collect();
            }
            ref marks @ (FromBot::ToggleDead { .. } | FromBot::AcceptDead { .. }) => {
                let (act, game_id) = marks.counting_act().expect("a message on dead stones");
                let result = match hub.find(game_id).await {
                    Ok(live) => hub.count(&live, actor, act).await.map(drop),
                    Err(e) => Err(e),
                };
                (Some(game_id.to_string()), result)
            }
            FromBot::Move { game_id, mv, ply } => {
                let result = match hub.find(&game_id).await {
                    Ok(live) => hub
                        .play(&live, actor, ply, MoveInput::Text(&mv))
                        .await
                        .map(drop),
                    Err(e) => Err(e),
                };
                (Some(game_id), result)
            }
            ref other => {
                let (action, game_id) = other.action().expect("every other message is an action");
                let result = match hub.find(game_id).await {
                    Ok(live) => hub.act(&live, actor, action).await.map(drop),
                    Err(e) => Err(e),
                };
                (Some(game_id.to_string()), result)
            }
        };
        match result {
            Ok(()) => Vec::new(),
            Err(e) => vec![error(&e, game_id)],
        }
    }

    /// Asks for the game `request` in the background: a challenge to another bot waits for
    /// its answer, and the connection goes on meanwhile.
    fn challenge(&self, request: NewGame) {
        let (state, bot, later) = (self.state.clone(), self.bot.clone(), self.later.clone());
        let opponent = match &request.opponent {
            Opponent::Bot { name } => name.clone(),
            _ => String::new(),
        };
        tokio::spawn(async move {
            let answer = match state.hub.bot_create_game(&bot, request).await {
                Ok((game_id, invite)) => ToBot::GameCreated { game_id, invite },
                Err(ApiError::Declined(reason)) => ToBot::ChallengeDeclined { opponent, reason },
                Err(e) => error(&e, None),
            };
            let _ = later.send(answer);
        });
    }

    /// The challenges put to the bot whose challengers stopped waiting: forgotten, and
    /// announced.
    fn withdrawn_challenges(&mut self) -> Vec<ToBot> {
        let gone: Vec<String> = (self.challenges.iter())
            .filter(|(_, waiting)| waiting.is_closed())
            .map(|(id, _)| id.clone())
            .collect();
        gone.into_iter()
            .map(|challenge| {
                self.challenges.remove(&challenge);
                ToBot::ChallengeCancelled { challenge }
            })
            .collect()
    }

    /// Answers a challenge put to the bot: one waiting on this connection, or one by name
    /// (stored).
    async fn answer(
        &mut self,
        challenge: &str,
        answer: Result<(), String>,
    ) -> Result<(), ApiError> {
        if let Some(waiting) = self.challenges.remove(challenge) {
            return (waiting.send(answer).ok())
                .ok_or_else(|| ApiError::NotFound(format!("challenge '{challenge}' (expired?)")));
        }
        // Answered here: not to be told as withdrawn.
        self.told.remove(challenge);
        let hub = &self.state.hub;
        let seat = Seat::Bot {
            bot: self.bot.id.clone(),
            name: self.bot.name.clone(),
        };
        match answer {
            Ok(()) => hub.accept_challenge(challenge, seat).await.map(drop),
            Err(why) => hub.decline_challenge(challenge, seat, Some(why)).await,
        }
    }

    /// What the bot is to be told of its challenges by name: each open one to it not told
    /// yet (`challenge`), one told that ended unaccepted (`challenge-cancelled`), and its
    /// own that were declined, withdrawn or expired since the last look
    /// (`challenge-declined`).
    async fn stored_challenges(&mut self) -> Vec<ToBot> {
        let since = self.challenges_since;
        self.challenges_since = now_ms();
        let Ok((incoming, outgoing)) = self.state.hub.bot_challenges(&self.bot, since).await else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let open: HashSet<String> = incoming.iter().map(|c| c.id.clone()).collect();
        for gone in self.told.iter().filter(|id| !open.contains(*id)) {
            out.push(ToBot::ChallengeCancelled {
                challenge: gone.clone(),
            });
        }
        for c in incoming.iter().filter(|c| !self.told.contains(&c.id)) {
            out.push(ToBot::Challenge {
                challenge: c.id.clone(),
                from: player_view(&c.from),
                game: c.spec.kind(),
                params: c.spec.params_view(),
                clock: c.clock,
                color: c.color,
                rated: c.rated,
                expires_at: Some(c.expires_at),
            });
        }
        self.told = open;
        let now = now_ms();
        for c in &outgoing {
            let status = challenges::view(c, now).status;
            let ended = (c.answered_at.is_some_and(|at| at >= since) && status != "accepted")
                || (status == "expired" && c.expires_at >= since);
            if ended {
                out.push(ToBot::ChallengeDeclined {
                    opponent: c.to.name().to_string(),
                    reason: c.reason.clone().unwrap_or_else(|| status.to_string()),
                });
            }
        }
        out
    }

    fn challenged(
        &mut self,
        challenge: Challenge,
        answer: oneshot::Sender<Result<(), String>>,
    ) -> ToBot {
        self.challenges.insert(challenge.id.clone(), answer);
        ToBot::Challenge {
            challenge: challenge.id,
            from: challenge.from,
            game: challenge.spec.kind(),
            params: challenge.spec.params_view(),
            clock: challenge.clock,
            color: challenge.color,
            rated: challenge.rated,
            expires_at: None,
        }
    }

    /// Whether the opponent of each live game has left or come back since the bot was last
    /// told (`opponent-gone`, `opponent-back`); asked at every ping.
    async fn presence(&mut self) -> Vec<ToBot> {
        let hub = &self.state.hub;
        let mut out = Vec::new();
        for (id, seen) in self.games.iter_mut().filter(|(_, seen)| !seen.over) {
            let Ok(live) = hub.find(id).await else {
                continue;
            };
            let color = {
                let game = live.game.lock().await;
                if game.status != Status::Live {
                    continue;
                }
                game.colors_of(Actor::Bot(&self.bot.id)).first().copied()
            };
            let Some(color) = color else {
                continue;
            };
            let claim_in = hub.claim_in(&live, color).await.ok().flatten();
            match (claim_in, seen.opponent_gone) {
                (Some(ms), false) => out.push(ToBot::OpponentGone {
                    game_id: id.clone(),
                    claim_in_s: (ms as u64).div_ceil(1000),
                }),
                (None, true) => out.push(ToBot::OpponentBack {
                    game_id: id.clone(),
                }),
                _ => {}
            }
            seen.opponent_gone = claim_in.is_some();
        }
        out
    }

    /// What the bot is told after game `id` changed: the whole game the first time
    /// (`start`), then each move (`moved`), a change of the draw offer, `your-turn` once per
    /// ply it is to move, and the end.
    async fn changed(&mut self, id: &str) -> Vec<ToBot> {
        let Ok(live) = self.state.hub.find(id).await else {
            return Vec::new();
        };
        let game = live.game.lock().await;
        let Some(&color) = game.colors_of(Actor::Bot(&self.bot.id)).first() else {
            return Vec::new();
        };
        // An invite game of the bot's starts when a person takes the other seat.
        if game.status == Status::Waiting {
            return Vec::new();
        }
        let state = game.state(None, Instant::now());
        let game_id = || id.to_string();
        let mut out = Vec::new();
        let hub = &self.state.hub;
        // The ratings as it starts, read only for the first message of a game.
        let ratings = match self.games.contains_key(id) {
            true => PerColor::default(),
            false => (hub.ratings_of_seats(&game.seats, state.game).await).unwrap_or_default(),
        };
        let seen = self.games.entry(game_id()).or_insert_with(|| {
            let opponent = game.seats[color.opponent().index()].as_ref();
            out.push(ToBot::Start {
                game_id: game_id(),
                game: state.game,
                params: state.params.clone(),
                color,
                opponent: opponent.map(player_view),
                players: state.players.clone(),
                clock: state.clock,
                clocks: state.clocks,
                ply: game.moves.len(),
                position: state.position.clone(),
                draw_offer: state.draw_offer,
                rated: game.rated,
                ratings,
                tournament: game.tournament.clone(),
            });
            Seen {
                moves: game.moves.len(),
                offer: state.draw_offer,
                turn: None,
                over: false,
                opponent_gone: false,
                counting: None,
            }
        });
        if seen.over {
            return out;
        }
        let topology = game.position.topology();
        for (ply, &(mover, mv)) in game.moves.iter().enumerate().skip(seen.moves) {
            out.push(ToBot::Moved {
                game_id: game_id(),
                ply: ply + 1,
                mv: mv.notation(topology).to_string(),
                color: mover,
                clocks: state.clocks,
            });
        }
        seen.moves = game.moves.len();
        if seen.offer != state.draw_offer && game.status != Status::Finished {
            seen.offer = state.draw_offer;
            out.push(ToBot::DrawOffer {
                game_id: game_id(),
                by: state.draw_offer,
            });
        }
        if game.status == Status::Finished {
            seen.over = true;
            let rating_changes = match game.rated {
                true => (hub.rating_changes(id, &game.seats).await).unwrap_or_default(),
                false => PerColor::default(),
            };
            out.push(ToBot::GameOver {
                game_id: game_id(),
                result: state.result,
                position: state.position,
                rating_changes,
            });
        } else if let Some(counting) = state.counting {
            if seen.counting.as_ref() != Some(&counting) {
                seen.counting = Some(counting.clone());
                out.push(ToBot::Counting {
                    game_id: game_id(),
                    counting,
                });
            }
        } else {
            let ply = game.moves.len();
            if game.position.turn() == Some(color) && seen.turn != Some(ply) {
                seen.turn = Some(ply);
                out.push(ToBot::YourTurn {
                    game_id: game_id(),
                    ply,
                    position: state.position,
                    clocks: state.clocks,
                });
            }
        }
        out
    }
}

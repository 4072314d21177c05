//! Registered bots that are connected now: how to reach each one's connection, the
//! challenges waiting for their answer, and the seek queue that pairs two bots whose seeks
//! accept each other (`crate::hub::bots::seek`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use toroid_rules::Color;

use crate::api::PlayerView;
use crate::error::ApiError;
use crate::hub::bots::seek::SeekTerms;
use crate::hub::lock;
use crate::model::{GameSpec, TimeControl};
use crate::storage::BotRow;

/// How long a person waits for a bot to answer a challenge.
pub const CHALLENGE_WAIT: Duration = Duration::from_secs(10);

/// What a bot's connection is told.
#[derive(Debug)]
pub enum BotEvent {
    /// A game the bot plays changed (it started, a move, the end).
    Changed(String),
    /// A line said in the players' room of a game the bot plays.
    Chat(String, crate::hub::chat::ChatLine),
    /// A tournament the bot plays in started, went on to a round, finished or was cancelled.
    Tournament(String),
    /// Someone challenges the bot; it accepts (`Ok`) or declines, saying why.
    Challenge(Challenge, oneshot::Sender<Result<(), String>>),
    /// A stored challenge to the bot or from it was made, answered or withdrawn
    /// (`hub::challenges`).
    Challenges,
    /// Another connection of the same bot took over.
    Replaced,
    /// The bot's token was rotated or the bot deleted: the connection ends.
    Revoked,
}

/// A challenge, as the bot sees it.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub id: String,
    pub from: PlayerView,
    pub spec: GameSpec,
    pub clock: Option<TimeControl>,
    /// The colour the bot would play.
    pub color: Color,
    pub rated: bool,
}

/// A bot waiting for an opponent, and what it accepts.
pub struct Seek {
    pub bot: BotRow,
    pub terms: SeekTerms,
}

/// Two seeks that make a game: the older first, and the game and its clock.
pub struct Pairing {
    pub older: Seek,
    pub newer: Seek,
    pub spec: GameSpec,
    pub clock: Option<TimeControl>,
}

struct Link {
    name: String,
    connection: u64,
    events: mpsc::UnboundedSender<BotEvent>,
}

#[derive(Default)]
pub struct Bots {
    /// By bot id.
    online: Mutex<HashMap<String, Link>>,
    seeks: Mutex<Vec<Seek>>,
    connections: AtomicU64,
    /// Challenges put to bots on other nodes, waiting for the answer relayed from there.
    relayed: Mutex<HashMap<String, oneshot::Sender<Result<(), String>>>>,
}

impl Bots {
    /// How many bots are connected here.
    pub fn connected(&self) -> usize {
        lock(&self.online).len()
    }

    /// Waits for the answer to challenge `id`, put to a bot on another node.
    pub fn await_answer(&self, id: &str) -> oneshot::Receiver<Result<(), String>> {
        let (answer, answered) = oneshot::channel();
        lock(&self.relayed).insert(id.to_string(), answer);
        answered
    }

    /// Stops waiting for the answer to challenge `id`.
    pub fn forget_answer(&self, id: &str) {
        lock(&self.relayed).remove(id);
    }

    /// The answer to challenge `id`, relayed from the bot's node.
    pub fn answered(&self, id: &str, answer: Result<(), String>) {
        if let Some(waiting) = lock(&self.relayed).remove(id) {
            let _ = waiting.send(answer);
        }
    }

    /// Registers a connection of `bot`, replacing any earlier one; its number and its events.
    pub fn connect(&self, bot: &BotRow) -> (u64, mpsc::UnboundedReceiver<BotEvent>) {
        let connection = self.connections.fetch_add(1, Ordering::Relaxed);
        let (events, inbox) = mpsc::unbounded_channel();
        let link = Link {
            name: bot.name.clone(),
            connection,
            events,
        };
        if let Some(old) = lock(&self.online).insert(bot.id.clone(), link) {
            let _ = old.events.send(BotEvent::Replaced);
        }
        (connection, inbox)
    }

    /// Forgets connection `connection` of bot `id` (not a newer one) and its seek.
    pub fn disconnect(&self, id: &str, connection: u64) {
        let mut online = lock(&self.online);
        if online.get(id).is_some_and(|l| l.connection == connection) {
            online.remove(id);
            lock(&self.seeks).retain(|s| s.bot.id != id);
        }
    }

    /// Ends bot `id`'s connection here, if any, and withdraws its seek: its token no longer
    /// holds.
    pub fn revoke(&self, id: &str) {
        if let Some(link) = lock(&self.online).remove(id) {
            let _ = link.events.send(BotEvent::Revoked);
        }
        lock(&self.seeks).retain(|s| s.bot.id != id);
    }

    /// Whether bot `id` is connected to this server.
    pub fn is_connected(&self, id: &str) -> bool {
        lock(&self.online).contains_key(id)
    }

    /// Tells bot `id`, if connected, that game `game` changed.
    pub fn notify(&self, id: &str, game: &str) {
        if let Some(link) = lock(&self.online).get(id) {
            let _ = link.events.send(BotEvent::Changed(game.to_string()));
        }
    }

    /// Passes `line`, said in the players' room of game `game`, to bot `id` if connected.
    pub fn tell_chat(&self, id: &str, game: &str, line: &crate::hub::chat::ChatLine) {
        if let Some(link) = lock(&self.online).get(id) {
            let _ = link
                .events
                .send(BotEvent::Chat(game.to_string(), line.clone()));
        }
    }

    /// Tells bot `id`, if connected, that tournament `tournament` moved on.
    pub fn tell_tournament(&self, id: &str, tournament: &str) {
        if let Some(link) = lock(&self.online).get(id) {
            let _ = link
                .events
                .send(BotEvent::Tournament(tournament.to_string()));
        }
    }

    /// Tells bot `id`, if connected, that a challenge to it or from it was made, answered or
    /// withdrawn.
    pub fn tell_challenges(&self, id: &str) {
        if let Some(link) = lock(&self.online).get(id) {
            let _ = link.events.send(BotEvent::Challenges);
        }
    }

    /// The names of the bots connected now, sorted.
    pub fn online(&self) -> Vec<String> {
        let mut names: Vec<String> = lock(&self.online)
            .values()
            .map(|l| l.name.clone())
            .collect();
        names.sort();
        names
    }

    /// The id of the connected bot called `name`.
    pub fn id_of(&self, name: &str) -> Option<String> {
        lock(&self.online)
            .iter()
            .find(|(_, l)| l.name == name)
            .map(|(id, _)| id.clone())
    }

    /// Sends `challenge` to bot `id` and waits for its answer.
    pub async fn challenge(&self, id: &str, challenge: Challenge) -> Result<(), ApiError> {
        let (answer, answered) = oneshot::channel();
        let sent = lock(&self.online).get(id).is_some_and(|l| {
            l.events
                .send(BotEvent::Challenge(challenge, answer))
                .is_ok()
        });
        if !sent {
            return Err(ApiError::Declined("the bot is not connected".into()));
        }
        match tokio::time::timeout(CHALLENGE_WAIT, answered).await {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(why))) => Err(ApiError::Declined(format!("the bot declined: {why}"))),
            Ok(Err(_)) => Err(ApiError::Declined("the bot disconnected".into())),
            Err(_) => Err(ApiError::Declined(format!(
                "the bot did not answer within {} s",
                CHALLENGE_WAIT.as_secs()
            ))),
        }
    }

    /// Queues `seek`, replacing the bot's earlier one, or takes the oldest seek of another
    /// bot that pairs with it out of the queue.
    pub fn seek(&self, seek: Seek) -> Option<Pairing> {
        let mut seeks = lock(&self.seeks);
        seeks.retain(|s| s.bot.id != seek.bot.id);
        let found =
            (seeks.iter().enumerate()).find_map(|(i, s)| Some((i, s.terms.pair(&seek.terms)?)));
        match found {
            Some((i, (spec, clock))) => Some(Pairing {
                older: seeks.remove(i),
                newer: seek,
                spec,
                clock,
            }),
            None => {
                seeks.push(seek);
                None
            }
        }
    }

    /// The open seeks, oldest first: each bot's name and terms.
    pub fn seeks(&self) -> Vec<(String, SeekTerms)> {
        (lock(&self.seeks).iter())
            .map(|s| (s.bot.name.clone(), s.terms.clone()))
            .collect()
    }

    /// Withdraws bot `id`'s seek; whether it had one.
    pub fn cancel_seek(&self, id: &str) -> bool {
        let mut seeks = lock(&self.seeks);
        let before = seeks.len();
        seeks.retain(|s| s.bot.id != id);
        seeks.len() < before
    }
}

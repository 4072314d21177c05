//! Several servers (nodes) on one PostgreSQL database, with Redis between them
//! (docs/scaling.md). PostgreSQL is the source of truth and decides every race (a move names
//! the ply it follows; a seat must be open; a game ends once). Redis carries what one node
//! must tell the others at once: that a game changed, so that nodes holding it reload it and
//! tell their players and spectators; that a node stops, so that others referee its games
//! now. Which node referees a live game (runs its clock and its house bots) is a lease in
//! PostgreSQL ([`crate::storage::Storage::claim_referee`]), so a node that dies is replaced
//! when its leases expire.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::Script;
use serde::{Deserialize, Serialize};

use std::sync::LazyLock;
use thiserror::Error;
use tokio::sync::mpsc;
use toroid_rules::Color;

use crate::hub::bots::seek::SeekTerms;
use crate::model::{GameSpec, Seat, TimeControl};

/// The channel of events between the nodes of the cluster called NAME is `toroid:NAME`.
const CHANNEL_PREFIX: &str = "toroid:";

/// How long a referee's lease lasts without renewal, and how often it is renewed (and
/// orphaned games are looked for): a node that dies is replaced within about
/// `LEASE + RENEW`.
pub const LEASE: Duration = Duration::from_secs(2);
pub const RENEW: Duration = Duration::from_millis(500);

#[derive(Debug, Error)]
pub enum ClusterError {
    #[error("Redis at {url}: {error}")]
    Redis {
        url: String,
        error: redis::RedisError,
    },
    #[error("--redis needs --database postgres://...: nodes share one PostgreSQL database")]
    NeedsPostgres,
}

/// What one node tells the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    /// Game `id`, which registered `bots` play, changed: reload it (and tell those bots).
    /// When the change was one move and nothing else, `moved` is that move as stored: a copy
    /// one move behind applies it without reading the game again.
    Game {
        id: String,
        from: String,
        bots: Vec<String>,
        #[serde(default)]
        moved: Option<crate::storage::MoveRow>,
    },
    /// Node `from` stops and has given up its leases: referee its games now.
    Handover { from: String },
    /// A line said in game `game_id`'s chat: pass it to the game's followers here, and to
    /// the bots among `bots` (the registered bots that play it) connected here.
    Chat {
        from: String,
        game_id: String,
        line: crate::hub::chat::ChatLine,
        #[serde(default)]
        bots: Vec<String>,
    },
    /// For node `to`: put `challenge` to bot `bot`, connected there.
    Challenge {
        from: String,
        to: String,
        bot: String,
        challenge: ChallengeRequest,
    },
    /// For node `to`: the answer to its challenge `challenge` (`declined`: why not).
    Answer {
        from: String,
        to: String,
        challenge: String,
        declined: Option<String>,
    },
    /// Bot `bot`'s token was replaced or the bot deleted: end its connections.
    BotRevoked { from: String, bot: String },
    /// Session `session` ended (signed out, expired): close its sockets.
    SessionEnded { from: String, session: String },
    /// Tournament `tournament` started, went on to a round, finished or was cancelled: tell
    /// its registered bots `bots` connected here.
    Tournament {
        from: String,
        tournament: String,
        bots: Vec<String>,
    },
    /// A challenge to or from registered bots `bots` was made, answered or withdrawn: tell
    /// those connected here to look at their challenges.
    Challenges { from: String, bots: Vec<String> },
    /// News for people: tell their news sockets here (`hub::news`).
    News {
        from: String,
        news: crate::hub::news::News,
    },
}

impl Event {
    /// The node that sent it.
    pub fn from(&self) -> &str {
        match self {
            Event::Game { from, .. }
            | Event::Handover { from }
            | Event::Chat { from, .. }
            | Event::Challenge { from, .. }
            | Event::Answer { from, .. }
            | Event::BotRevoked { from, .. }
            | Event::SessionEnded { from, .. }
            | Event::Tournament { from, .. }
            | Event::Challenges { from, .. }
            | Event::News { from, .. } => from,
        }
    }
}

/// A challenge as it travels to the bot's node, which makes the bot's `Challenge` of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeRequest {
    pub id: String,
    pub from: Seat,
    pub spec: GameSpec,
    pub clock: Option<TimeControl>,
    /// The colour the bot would play.
    pub color: Color,
    #[serde(default)]
    pub rated: bool,
}

/// A bot seeking a game, as the seek queue in Redis keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeekEntry {
    /// The node the bot is connected to.
    pub node: String,
    pub bot: String,
    pub name: String,
    pub terms: SeekTerms,
}

/// A bot connected to some node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineBot {
    pub name: String,
    pub node: String,
    /// The connection's number on its node (a newer connection replaces an older one).
    pub connection: u64,
}

/// Deletes a lock if it still holds this token (a lock that timed out may be another's now).
/// KEYS: the lock; ARGV: the token.
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"#,
    )
});

/// How long a player's presence is kept in Redis after it was last refreshed: longer than
/// any grace time, short enough that finished games leave nothing behind for long.
const PRESENCE_KEPT: Duration = Duration::from_secs(24 * 3600);

/// Longest a node holds the seek queue's lock: it lets go at once, this only bounds the
/// wait for a node that died holding it.
const SEEK_LOCK: Duration = Duration::from_secs(2);

/// Forgets a bot's connection unless a newer one replaced it. KEYS: the hash of online
/// bots; ARGV: the bot, the entry of the connection that ends.
static GO_OFFLINE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"#,
    )
});

/// One attempt under a limit, by the generic cell rate algorithm that the nodes' own
/// limiters (governor) use: with `interval` = window / limit, an attempt moves the key's
/// "theoretical arrival time" on by `interval` and is refused (changing nothing) when that
/// would put it more than a window ahead of now, so `limit` attempts pass at once and then
/// one per `interval`, with no window edges. Now is Redis's clock, the same for every node.
/// KEYS: the key; ARGV: interval and window in ms. Returns 1 if allowed.
static ATTEMPT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r#"
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tat = math.max(tonumber(redis.call('GET', KEYS[1]) or now), now)
local next = tat + tonumber(ARGV[1])
if next - now > tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], next, 'PX', next - now)
return 1
"#,
    )
});

/// The events channel's messages, or `None` if Redis cannot be reached.
async fn subscribe(client: &redis::Client, channel: &str) -> Option<redis::aio::PubSubStream> {
    let subscribed = async {
        let mut pubsub = client.get_async_pubsub().await.ok()?;
        pubsub.subscribe(channel).await.ok()?;
        Some(pubsub.into_on_message())
    };
    tokio::time::timeout(REDIS_TIMEOUT, subscribed).await.ok()?
}

/// How long the limits are counted by each node alone after Redis failed to count one.
pub const COUNT_AWAY: Duration = Duration::from_secs(1);

/// The longest wait for Redis to connect or answer.
const REDIS_TIMEOUT: Duration = Duration::from_millis(400);

/// This node's link to the others.
pub struct Cluster {
    /// This node's name, new at every start.
    pub node: String,
    /// The prefix of this cluster's keys and of its channel: clusters can share a Redis.
    prefix: String,
    /// Where the nodes of this cluster (of this database) talk.
    channel: String,
    /// Redis's URL with its password masked, for the logs.
    url: String,
    client: redis::Client,
    publisher: ConnectionManager,
    /// Until when (ms since the epoch) limits are not counted in Redis, which failed.
    counting_away_until: AtomicI64,
}

impl Cluster {
    /// Connects to Redis at `url` (`redis://HOST:PORT`) as a new node of the cluster called
    /// `name` (`Storage::cluster_name`).
    pub async fn connect(url: &str, name: &str) -> Result<Cluster, ClusterError> {
        let fail = |error| ClusterError::Redis {
            url: crate::config::redacted(url),
            error,
        };
        let client = redis::Client::open(url).map_err(fail)?;
        // Redis down must not hold a request up: each command is tried on one new
        // connection at most, and fails within a second (the node falls back to the
        // database meanwhile: `Cluster::events`).
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(100))
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT));
        let publisher = (client.get_connection_manager_with_config(config).await).map_err(fail)?;
        let node = crate::ids::new_id();
        tracing::info!(%node, cluster = %name, "joining the cluster");
        Ok(Cluster {
            node,
            prefix: format!("{CHANNEL_PREFIX}{name}:"),
            channel: format!("{CHANNEL_PREFIX}{name}"),
            url: crate::config::redacted(url),
            client,
            publisher,
            counting_away_until: AtomicI64::new(0),
        })
    }

    fn connection(&self) -> ConnectionManager {
        self.publisher.clone()
    }

    /// This cluster's key `name` (`bots`, `seeks`, `node:ID`, …).
    fn key(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The key saying that node `node` lives.
    fn node_key(&self, node: &str) -> String {
        self.key(&format!("node:{node}"))
    }

    /// One attempt at `what` by `who`, counted on every node together: whether it is within
    /// `limit` a `window` (a burst of `limit`, then evenly spread: the script `ATTEMPT`).
    /// `None` when Redis cannot count it: it failed, or failed less than
    /// [`COUNT_AWAY`] ago (requests do not each wait for a Redis that is away).
    pub async fn attempt(
        &self,
        what: &str,
        who: &str,
        limit: u32,
        window: Duration,
    ) -> Option<bool> {
        if crate::ids::now_ms() < self.counting_away_until.load(Ordering::Relaxed) {
            return None;
        }
        let window_ms = window.as_millis().max(1) as u64;
        let interval_ms = (window_ms / u64::from(limit.max(1))).max(1);
        let counted: redis::RedisResult<i64> = ATTEMPT
            .key(self.key(&format!("limit:{what}:{who}")))
            .arg(interval_ms)
            .arg(window_ms)
            .invoke_async(&mut self.connection())
            .await;
        match counted {
            Ok(allowed) => Some(allowed == 1),
            Err(error) => {
                tracing::warn!(%error, "cannot count in Redis; each node counts alone a while");
                crate::metrics::redis_error();
                let until = crate::ids::now_ms() + COUNT_AWAY.as_millis() as i64;
                self.counting_away_until.store(until, Ordering::Relaxed);
                None
            }
        }
    }

    /// Whether Redis answers.
    pub async fn ping(&self) -> redis::RedisResult<()> {
        redis::cmd("PING").query_async(&mut self.connection()).await
    }

    /// Says that this node lives, for a little longer than a lease.
    pub async fn heartbeat(&self) -> redis::RedisResult<()> {
        redis::cmd("SET")
            .arg(self.node_key(&self.node))
            .arg(1)
            .arg("PX")
            .arg((LEASE + RENEW).as_millis() as u64)
            .query_async(&mut self.connection())
            .await
    }

    fn online_entry(&self, name: &str, connection: u64) -> String {
        let entry = OnlineBot {
            name: name.to_string(),
            node: self.node.clone(),
            connection,
        };
        serde_json::to_string(&entry).expect("entries serialize")
    }

    /// Bot `bot` (called `name`) is connected here as connection `connection`.
    pub async fn bot_online(
        &self,
        bot: &str,
        name: &str,
        connection: u64,
    ) -> redis::RedisResult<()> {
        redis::cmd("HSET")
            .arg(self.key("bots"))
            .arg(bot)
            .arg(self.online_entry(name, connection))
            .query_async(&mut self.connection())
            .await
    }

    /// Connection `connection` of bot `bot` ended here (a newer one elsewhere stays).
    pub async fn bot_offline(
        &self,
        bot: &str,
        name: &str,
        connection: u64,
    ) -> redis::RedisResult<()> {
        GO_OFFLINE
            .key(self.key("bots"))
            .arg(bot)
            .arg(self.online_entry(name, connection))
            .invoke_async::<i64>(&mut self.connection())
            .await
            .map(drop)
    }

    /// The person playing `color` in game `game` was present at `at` (on this node).
    pub async fn player_seen(&self, game: &str, color: Color, at: i64) -> redis::RedisResult<()> {
        let key = self.key(&format!("seen:{game}"));
        redis::pipe()
            .hset(&key, color.name(), at)
            .ignore()
            .pexpire(&key, PRESENCE_KEPT.as_millis() as i64)
            .ignore()
            .query_async(&mut self.connection())
            .await
    }

    /// When the person playing `color` in game `game` was last present on any node.
    pub async fn player_last_seen(
        &self,
        game: &str,
        color: Color,
    ) -> redis::RedisResult<Option<i64>> {
        redis::cmd("HGET")
            .arg(self.key(&format!("seen:{game}")))
            .arg(color.name())
            .query_async(&mut self.connection())
            .await
    }

    /// The bots connected to the nodes that live, by id.
    pub async fn bots_online(&self) -> redis::RedisResult<Vec<(String, OnlineBot)>> {
        let mut connection = self.connection();
        let all: Vec<(String, String)> = redis::cmd("HGETALL")
            .arg(self.key("bots"))
            .query_async(&mut connection)
            .await?;
        let entries: Vec<(String, OnlineBot)> = (all.into_iter())
            .filter_map(|(id, entry)| Some((id, serde_json::from_str(&entry).ok()?)))
            .collect();
        // Whether each node lives, asked once per node rather than once per bot.
        let mut alive: HashMap<String, bool> = HashMap::new();
        for (_, entry) in &entries {
            if !alive.contains_key(&entry.node) {
                let lives: bool = redis::cmd("EXISTS")
                    .arg(self.node_key(&entry.node))
                    .query_async(&mut connection)
                    .await?;
                alive.insert(entry.node.clone(), lives);
            }
        }
        let online = (entries.into_iter())
            .filter(|(_, entry)| alive[&entry.node])
            .collect();
        Ok(online)
    }

    /// Keeps the invite code of waiting game `game_id` for the other nodes, which show its
    /// creator the link (the database keeps only its hash), for as long as a game may wait.
    pub async fn remember_invite(
        &self,
        game_id: &str,
        code: &str,
        keep: Duration,
    ) -> redis::RedisResult<()> {
        redis::cmd("SET")
            .arg(self.key(&format!("invite:{game_id}")))
            .arg(code)
            .arg("PX")
            .arg(keep.as_millis() as u64)
            .query_async(&mut self.connection())
            .await
    }

    /// The invite code of waiting game `game_id`, if a node kept it.
    pub async fn invite(&self, game_id: &str) -> redis::RedisResult<Option<String>> {
        redis::cmd("GET")
            .arg(self.key(&format!("invite:{game_id}")))
            .query_async(&mut self.connection())
            .await
    }

    /// Runs `work` on the seek queue while holding its lock, so that two seeks that pair
    /// are never both queued, nor a seek paired while it is withdrawn.
    async fn with_seek_queue<T>(
        &self,
        work: impl AsyncFnOnce(&mut ConnectionManager) -> redis::RedisResult<T>,
    ) -> redis::RedisResult<T> {
        let mut connection = self.connection();
        let (lock, token) = (self.key("seek-lock"), crate::ids::new_id());
        loop {
            let taken: Option<String> = redis::cmd("SET")
                .arg(&lock)
                .arg(&token)
                .arg("NX")
                .arg("PX")
                .arg(SEEK_LOCK.as_millis() as u64)
                .query_async(&mut connection)
                .await?;
            if taken.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let result = work(&mut connection).await;
        let _: i64 = RELEASE
            .key(&lock)
            .arg(&token)
            .invoke_async(&mut connection)
            .await?;
        result
    }

    /// The seeks queued, oldest first, of bots whose node lives; those of dead nodes and
    /// withdrawn ones are dropped from the queue on the way. Call with the queue's lock.
    async fn queued_seeks(
        &self,
        connection: &mut ConnectionManager,
    ) -> redis::RedisResult<Vec<SeekEntry>> {
        let (queue, seeks) = (self.key("seek-queue"), self.key("seeks"));
        let bots: Vec<String> = redis::cmd("LRANGE")
            .arg(&queue)
            .arg(0)
            .arg(-1)
            .query_async(connection)
            .await?;
        let mut entries = Vec::new();
        for bot in bots {
            let found: Option<String> = redis::cmd("HGET")
                .arg(&seeks)
                .arg(&bot)
                .query_async(connection)
                .await?;
            let entry = found.and_then(|f| serde_json::from_str::<SeekEntry>(&f).ok());
            let lives = match &entry {
                Some(entry) => {
                    redis::cmd("EXISTS")
                        .arg(self.node_key(&entry.node))
                        .query_async::<bool>(connection)
                        .await?
                }
                None => false,
            };
            match entry {
                Some(entry) if lives => entries.push(entry),
                _ => self.unqueue(connection, &bot).await.map(drop)?,
            }
        }
        Ok(entries)
    }

    /// Takes bot `bot`'s seek out of the queue; whether it had one.
    async fn unqueue(
        &self,
        connection: &mut ConnectionManager,
        bot: &str,
    ) -> redis::RedisResult<bool> {
        let _: i64 = redis::cmd("LREM")
            .arg(self.key("seek-queue"))
            .arg(0)
            .arg(bot)
            .query_async(connection)
            .await?;
        let removed: i64 = redis::cmd("HDEL")
            .arg(self.key("seeks"))
            .arg(bot)
            .query_async(connection)
            .await?;
        Ok(removed == 1)
    }

    /// Withdraws `entry`'s bot's earlier seek, then takes the oldest seek of another bot
    /// that pairs with it out of the queue and returns it, or else queues `entry`.
    pub async fn seek(&self, entry: &SeekEntry) -> redis::RedisResult<Option<SeekEntry>> {
        self.with_seek_queue(async |connection| {
            self.unqueue(connection, &entry.bot).await?;
            let queued = self.queued_seeks(connection).await?;
            if let Some(other) = queued
                .into_iter()
                .find(|o| o.terms.pair(&entry.terms).is_some())
            {
                self.unqueue(connection, &other.bot).await?;
                return Ok(Some(other));
            }
            let _: i64 = redis::cmd("RPUSH")
                .arg(self.key("seek-queue"))
                .arg(&entry.bot)
                .query_async(connection)
                .await?;
            let _: i64 = redis::cmd("HSET")
                .arg(self.key("seeks"))
                .arg(&entry.bot)
                .arg(serde_json::to_string(entry).expect("entries serialize"))
                .query_async(connection)
                .await?;
            Ok(None)
        })
        .await
    }

    /// Withdraws bot `bot`'s seek; whether it had one.
    pub async fn cancel_seek(&self, bot: &str) -> redis::RedisResult<bool> {
        self.with_seek_queue(async |connection| self.unqueue(connection, bot).await)
            .await
    }

    /// The open seeks of the cluster, oldest first.
    pub async fn seeks(&self) -> redis::RedisResult<Vec<SeekEntry>> {
        self.with_seek_queue(async |connection| self.queued_seeks(connection).await)
            .await
    }

    /// Tells every node (this one too, which ignores its own events). A lost event is
    /// logged: the nodes that miss it catch up at their next reload of the game.
    pub async fn publish(&self, event: &Event) {
        let text = serde_json::to_string(event).expect("events serialize");
        let mut publisher = self.publisher.clone();
        let sent: Result<(), _> = redis::cmd("PUBLISH")
            .arg(&self.channel)
            .arg(text)
            .query_async(&mut publisher)
            .await;
        if let Err(error) = sent {
            tracing::warn!(%error, "cannot publish an event to the other nodes");
            crate::metrics::redis_error();
        }
    }

    /// The other nodes' events, until the receiver is dropped. When the subscription breaks
    /// (Redis restarted), it is made again, and `None` is sent first: events may have been
    /// missed, so the receiver should reload what it holds. While Redis is away, `None` comes
    /// at each try to subscribe again (every half second): the receiver reads the database
    /// instead of waiting for events.
    pub fn events(&self) -> mpsc::UnboundedReceiver<Option<Event>> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let client = self.client.clone();
        let (node, url, channel) = (self.node.clone(), self.url.clone(), self.channel.clone());
        tokio::spawn(async move {
            let (mut first, mut away) = (true, false);
            while !sender.is_closed() {
                if let Some(messages) = subscribe(&client, &channel).await {
                    if !first && sender.send(None).is_err() {
                        return;
                    }
                    if away {
                        tracing::info!(%url, "subscribed to Redis again");
                    }
                    (first, away) = (false, false);
                    let mut messages = messages;
                    while let Some(message) = messages.next().await {
                        let Ok(text) = message.get_payload::<String>() else {
                            continue;
                        };
                        match serde_json::from_str::<Event>(&text) {
                            Ok(event) if event.from() == node => {}
                            Ok(event) => {
                                if sender.send(Some(event)).is_err() {
                                    return;
                                }
                            }
                            Err(error) => tracing::warn!(%error, "an event not understood"),
                        }
                    }
                    tracing::warn!(%url, "the subscription to Redis broke; subscribing again");
                    crate::metrics::redis_error();
                } else {
                    if !away {
                        tracing::warn!(%url, "cannot subscribe to Redis; reading the database every half second until it returns");
                    }
                    away = true;
                    crate::metrics::redis_error();
                    if !first && sender.send(None).is_err() {
                        return;
                    }
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
        receiver
    }
}

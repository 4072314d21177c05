//! Registered bots across the nodes of a cluster: which are connected (to this node, or to
//! any node through Redis), challenges put to a bot on another node and its answer, and the
//! seek queue (in Redis, so that bots on different nodes are paired). On a single server
//! these are [`crate::hub::bots::connected::Bots`] alone.

pub mod arena;
pub mod connected;
pub mod protocol;
mod queries;
pub mod routes;
pub mod seek;
pub mod wire;
pub mod ws;

use std::sync::Arc;

use tokio::sync::mpsc;
use toroid_rules::Color;

use crate::api::SeekView;
use crate::cluster::{ChallengeRequest, Event, SeekEntry};
use crate::error::ApiError;
use crate::game::player_view;
use crate::hub::bots::connected::{BotEvent, Challenge, Seek, CHALLENGE_WAIT};
use crate::hub::bots::seek::SeekTerms;
use crate::ids::{hash_secret, new_id, new_secret, now_ms};
use crate::model::{GameSpec, Seat, TimeControl};
use crate::storage::{BotKey, BotRow, SessionRow, Write};

use super::{lock, Hub};

/// What a failure to reach Redis is answered.
pub(super) fn unreachable(error: redis::RedisError) -> ApiError {
    tracing::error!(%error, "Redis failed");
    crate::metrics::redis_error();
    ApiError::Busy("the cluster's message broker cannot be reached; try again soon")
}

impl Hub {
    /// Bot `bot` is connected here: its connection's number and its events.
    pub async fn connect_bot(&self, bot: &BotRow) -> (u64, mpsc::UnboundedReceiver<BotEvent>) {
        let (number, events) = self.bots.connect(bot);
        if let Some(cluster) = &self.cluster {
            if let Err(error) = cluster.bot_online(&bot.id, &bot.name, number).await {
                tracing::warn!(%error, bot = %bot.name, "cannot tell the cluster a bot is online");
            }
        }
        (number, events)
    }

    /// Connection `number` of bot `bot` ended: the bot is offline and its seek withdrawn,
    /// unless a newer connection took over.
    /// Whether `bot`'s token, as it connected with it, is still its token (not replaced, the
    /// bot not deleted); a failing database says no.
    pub async fn token_still_opens(&self, bot: &BotRow) -> bool {
        match self.storage.bot(BotKey::Id(&bot.id)).await {
            Ok(Some(stored)) => stored.token_hash == bot.token_hash,
            _ => false,
        }
    }

    pub async fn disconnect_bot(&self, bot: &BotRow, number: u64) {
        self.bots.disconnect(&bot.id, number);
        if !self.bots.is_connected(&bot.id) {
            if let Err(error) = self.leave_arena(&bot.id).await {
                tracing::warn!(%error, bot = %bot.name, "cannot take a bot out of the arena");
            }
            self.bot_seen(bot, now_ms()).await;
        }
        if let Some(cluster) = &self.cluster {
            if !self.bots.is_connected(&bot.id) {
                let _ = cluster.cancel_seek(&bot.id).await;
            }
            if let Err(error) = cluster.bot_offline(&bot.id, &bot.name, number).await {
                tracing::warn!(%error, bot = %bot.name, "cannot tell the cluster a bot left");
            }
        }
    }

    /// The bots `owner` registered, and which of them are connected now.
    pub async fn bots_of(&self, owner: &SessionRow) -> Result<Vec<(BotRow, bool)>, ApiError> {
        let online = self.online_bots().await?;
        Ok((self.storage.bots_of(owner.owner_id()).await?)
            .into_iter()
            .map(|bot| {
                let connected = online.contains(&bot.name);
                (bot, connected)
            })
            .collect())
    }

    /// `owner`'s bot called `name` (`not-found` for anyone else's: names are not secrets, but
    /// another's bot is none of this session's business).
    async fn own_bot(&self, owner: &SessionRow, name: &str) -> Result<BotRow, ApiError> {
        match self.storage.bot(BotKey::Name(name)).await? {
            Some(bot) if bot.owner == owner.owner_id() => Ok(bot),
            _ => Err(ApiError::NotFound(format!("your bot '{name}'"))),
        }
    }

    /// A new token for `owner`'s bot `name`, shown this once; the old one stops opening the
    /// bot's WebSocket at once, and its connection to this server ends (one to another node
    /// of a cluster lasts until it closes).
    pub async fn rotate_token(
        &self,
        owner: &SessionRow,
        name: &str,
    ) -> Result<(BotRow, String), ApiError> {
        let mut bot = self.own_bot(owner, name).await?;
        let token = new_secret();
        bot.token_hash = hash_secret(&token);
        let write = Write::BotToken {
            id: bot.id.clone(),
            token_hash: bot.token_hash.clone(),
        };
        self.storage.commit(vec![write]).await?;
        self.revoke_everywhere(&bot.id).await;
        Ok((bot, token))
    }

    /// Ends bot `id`'s connections, on this node and on every other.
    pub(in crate::hub) async fn revoke_everywhere(&self, id: &str) {
        self.bots.revoke(id);
        if let Some(cluster) = &self.cluster {
            let event = Event::BotRevoked {
                from: cluster.node.clone(),
                bot: id.to_string(),
            };
            cluster.publish(&event).await;
        }
    }

    /// Deletes `owner`'s bot `name`, which must have no unfinished game; its name stays
    /// retired (no other player takes it with its history), and its finished games keep it
    /// in their records.
    pub async fn delete_bot(&self, owner: &SessionRow, name: &str) -> Result<(), ApiError> {
        let bot = self.own_bot(owner, name).await?;
        let playing = self.bot_games(&bot.id).await?.len();
        if playing > 0 {
            return Err(ApiError::Conflict(format!(
                "'{name}' has {playing} unfinished games: finish or resign them first"
            )));
        }
        self.storage
            .commit(vec![Write::DeleteBot { id: bot.id.clone() }])
            .await?;
        self.revoke_everywhere(&bot.id).await;
        self.cancel_seek(&bot.id).await?;
        Ok(())
    }

    /// The names of the bots connected now (to any node), sorted.
    pub async fn online_bots(&self) -> Result<Vec<String>, ApiError> {
        let Some(cluster) = &self.cluster else {
            return Ok(self.bots.online());
        };
        let mut names: Vec<String> = (cluster.bots_online().await.map_err(unreachable)?)
            .into_iter()
            .map(|(_, bot)| bot.name)
            .collect();
        names.sort();
        Ok(names)
    }

    /// Bot `bot` knows of every game of its that ended before `until` (ms since the epoch):
    /// it was just told, or its connection ends.
    pub async fn bot_seen(&self, bot: &BotRow, until: i64) {
        let seen = Write::BotSeen {
            id: bot.id.clone(),
            at: until,
        };
        if let Err(error) = self.storage.commit(vec![seen]).await {
            tracing::warn!(%error, bot = %bot.name, "cannot store when a bot was last told");
        }
    }

    /// The games bot `bot` played that ended while it was disconnected (the 50 latest).
    pub async fn ended_while_away(&self, bot: &BotRow) -> Result<Vec<String>, ApiError> {
        Ok(self.storage.ended_while_away(bot, 50).await?)
    }

    /// Whether bot `id` is connected to any node.
    pub async fn bot_online(&self, id: &str) -> Result<bool, ApiError> {
        if self.bots.is_connected(id) {
            return Ok(true);
        }
        match &self.cluster {
            Some(cluster) => Ok((cluster.bots_online().await.map_err(unreachable)?)
                .iter()
                .any(|(online, _)| online == id)),
            None => Ok(false),
        }
    }

    /// The ids of the unfinished games bot `id` plays.
    pub async fn bot_games(&self, id: &str) -> Result<Vec<String>, ApiError> {
        if self.cluster.is_none() {
            return Ok(lock(&self.live)
                .values()
                .filter(|g| g.bots.iter().any(|b| b == id))
                .map(|g| g.id.clone())
                .collect());
        }
        let plays = |seat: &Option<Seat>| seat.as_ref().and_then(Seat::bot_id) == Some(id);
        Ok((self.storage.unfinished_games().await?)
            .into_iter()
            .flatten()
            .filter(|row| row.seats.iter().any(plays))
            .map(|row| row.id)
            .collect())
    }

    /// Withdraws bot `id`'s seek; whether it had one.
    pub async fn cancel_seek(&self, id: &str) -> Result<bool, ApiError> {
        match &self.cluster {
            Some(cluster) => cluster.cancel_seek(id).await.map_err(unreachable),
            None => Ok(self.bots.cancel_seek(id)),
        }
    }

    /// Puts a challenge to the connected bot called `name`, for it to play `color` against
    /// `person`; its seat if it accepts.
    pub(super) async fn put_challenge(
        &self,
        person: &Seat,
        name: &str,
        spec: &GameSpec,
        clock: Option<TimeControl>,
        color: Color,
        rated: bool,
    ) -> Result<Seat, ApiError> {
        let not_connected = || ApiError::NotFound(format!("connected bot '{name}'"));
        let (id, node) = match &self.cluster {
            None => (self.bots.id_of(name).ok_or_else(not_connected)?, None),
            Some(cluster) => {
                let online = cluster.bots_online().await.map_err(unreachable)?;
                let (id, bot) = (online.into_iter())
                    .find(|(_, bot)| bot.name == name)
                    .ok_or_else(not_connected)?;
                (id, (bot.node != cluster.node).then_some(bot.node))
            }
        };
        if rated {
            let owner = self
                .storage
                .bot(BotKey::Id(&id))
                .await?
                .map(|bot| bot.owner);
            if owner.is_some() && owner == self.owner_of(person).await? {
                return Err(ApiError::BadRequest(
                    "a game against your own bot changes no rating: play it unrated".into(),
                ));
            }
        }
        let challenged = Seat::Bot {
            bot: id.clone(),
            name: name.to_string(),
        };
        self.check_not_blocked(person, &challenged).await?;
        if self.unfinished(|g| g.bots.contains(&id)) >= self.limits.games_per_session {
            return Err(ApiError::Declined(format!(
                "{name} is playing too many games"
            )));
        }
        let request = ChallengeRequest {
            id: new_id(),
            from: person.clone(),
            spec: spec.clone(),
            clock,
            color,
            rated,
        };
        match node {
            None => self.bots.challenge(&id, challenge_of(&request)).await?,
            Some(node) => self.challenge_elsewhere(node, &id, request).await?,
        }
        Ok(challenged)
    }

    /// Puts `request` to bot `bot` on node `node` and waits for the answer it relays.
    async fn challenge_elsewhere(
        &self,
        node: String,
        bot: &str,
        request: ChallengeRequest,
    ) -> Result<(), ApiError> {
        let Some(cluster) = &self.cluster else {
            return Err(ApiError::Declined("the bot is not connected".into()));
        };
        let id = request.id.clone();
        let answered = self.bots.await_answer(&id);
        let event = Event::Challenge {
            from: cluster.node.clone(),
            to: node,
            bot: bot.to_string(),
            challenge: request,
        };
        cluster.publish(&event).await;
        // The bot's node waits CHALLENGE_WAIT for the bot; a second more for the relay.
        let waited =
            tokio::time::timeout(CHALLENGE_WAIT + std::time::Duration::from_secs(1), answered)
                .await;
        self.bots.forget_answer(&id);
        match waited {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(why))) => Err(ApiError::Declined(why)),
            Ok(Err(_)) | Err(_) => Err(ApiError::Declined(format!(
                "the bot did not answer within {} s",
                CHALLENGE_WAIT.as_secs()
            ))),
        }
    }

    /// Puts a challenge from node `from` to bot `bot`, connected here, and relays the answer.
    pub(super) async fn answer_challenge(
        self: Arc<Hub>,
        from: String,
        bot: String,
        request: ChallengeRequest,
    ) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        let answer = self.bots.challenge(&bot, challenge_of(&request)).await;
        let declined = answer.err().map(|e| match e {
            ApiError::Declined(why) => why,
            other => other.to_string(),
        });
        let event = Event::Answer {
            from: cluster.node.clone(),
            to: from,
            challenge: request.id,
            declined,
        };
        cluster.publish(&event).await;
    }

    /// Bot `bot` seeks a game on `terms`; when another bot (connected anywhere) seeks one
    /// that pairs with it, their game starts (colours drawn at random). Whether it started.
    pub async fn seek(self: &Arc<Hub>, bot: &BotRow, terms: SeekTerms) -> Result<bool, ApiError> {
        if self.unfinished(|g| g.bots.contains(&bot.id)) >= self.limits.games_per_session {
            return Err(ApiError::Limit("too many unfinished games".into()));
        }
        self.room_for_a_game()?;
        let rated = terms.rated;
        let seat = |id: &str, name: &str| {
            Some(Seat::Bot {
                bot: id.to_string(),
                name: name.to_string(),
            })
        };
        let (mut seats, spec, clock) = match &self.cluster {
            None => {
                let seek = Seek {
                    bot: bot.clone(),
                    terms,
                };
                let Some(pairing) = self.bots.seek(seek) else {
                    return Ok(false);
                };
                let (older, newer) = (&pairing.older.bot, &pairing.newer.bot);
                let seats = [seat(&older.id, &older.name), seat(&newer.id, &newer.name)];
                (seats, pairing.spec, pairing.clock)
            }
            Some(cluster) => {
                let entry = SeekEntry {
                    node: cluster.node.clone(),
                    bot: bot.id.clone(),
                    name: bot.name.clone(),
                    terms,
                };
                let Some(other) = cluster.seek(&entry).await.map_err(unreachable)? else {
                    return Ok(false);
                };
                let Some((spec, clock)) = other.terms.pair(&entry.terms) else {
                    return Err(ApiError::Conflict("the paired seek changed".into()));
                };
                let seats = [seat(&other.bot, &other.name), seat(&bot.id, &bot.name)];
                (seats, spec, clock)
            }
        };
        if rand::random::<bool>() {
            seats.swap(0, 1);
        }
        self.open_game(spec, clock, seats, None, rated, false)
            .await?;
        Ok(true)
    }

    /// The open seeks, oldest first.
    pub async fn open_seeks(&self) -> Result<Vec<SeekView>, ApiError> {
        let seeks = match &self.cluster {
            None => self.bots.seeks(),
            Some(cluster) => (cluster.seeks().await.map_err(unreachable)?)
                .into_iter()
                .map(|entry| (entry.name, entry.terms))
                .collect(),
        };
        Ok(seeks
            .into_iter()
            .map(|(bot, terms)| SeekView {
                bot,
                terms: terms.view(),
            })
            .collect())
    }
}

/// The bot's view of a challenge `request`.
fn challenge_of(request: &ChallengeRequest) -> Challenge {
    Challenge {
        id: request.id.clone(),
        from: player_view(&request.from),
        spec: request.spec.clone(),
        clock: request.clock,
        color: request.color,
        rated: request.rated,
    }
}

//! The bot arena: registered bots join a rated pool (a rule set at its default parameters,
//! and a clock) over their WebSocket, and the server pairs the bots waiting there
//! continuously, as CGOS does: nearest ratings first, never the same two bots twice in a
//! row, and a house bot of the nearest rating for a bot left alone for
//! `Limits::arena_house_after`. A bot stays in its pool from game to game until it leaves or
//! disconnects.
//!
//! The pools are rows of the database, one per bot, so on a cluster they are one pool
//! across the nodes: each node renews the rows of the bots connected to it (a lease: a node
//! that dies takes its bots out), and any node pairs. A pairing stores the game together
//! with its bots' rows changed from waiting to playing, only if they still wait as read: two
//! nodes pairing at once make one game.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Map;
use toroid_rules::GameKind;
use toroid_search::Level;

use crate::cluster;
use crate::error::ApiError;
use crate::ids::{new_id, now_ms};
use crate::model::{GameSpec, Seat, TimeControl};
use crate::rating::Rating;
use crate::storage::{ArenaMember, BotRow, StorageError, Write};

use crate::hub::lobby::new_game_row;
use crate::hub::Hub;

/// How often the arena pairs.
const TICK: Duration = Duration::from_millis(500);
/// The node of a single server, which holds its arena bots as long as it runs.
const SINGLE_SERVER: &str = "server";

/// A pool: a rule set and a clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    pub game: GameKind,
    pub clock: TimeControl,
}

impl Hub {
    /// The node that this server's arena rows name, and until when it holds them.
    fn arena_node(&self) -> (&str, i64) {
        match &self.cluster {
            Some(cluster) => (&cluster.node, now_ms() + cluster::LEASE.as_millis() as i64),
            None => (SINGLE_SERVER, i64::MAX),
        }
    }

    /// Empties a single server's arena, which its restart disconnected (also when the
    /// database now serves a cluster, whose nodes' rows are new at each start and lapse
    /// with their leases).
    pub(in crate::hub) async fn clear_arena(&self) -> Result<(), StorageError> {
        let node = SINGLE_SERVER.to_string();
        self.storage
            .commit(vec![Write::ArenaLeave { bot_id: None, node }])
            .await
    }

    /// Bot `bot` joins `pool` (leaving any other).
    pub async fn join_arena(&self, bot: &BotRow, pool: &Pool) -> Result<(), ApiError> {
        if pool.clock.days_per_move().is_some() {
            return Err(ApiError::BadRequest(
                "the arena plays live clocks, not days per move".into(),
            ));
        }
        let (node, until_ms) = self.arena_node();
        let join = Write::ArenaJoin {
            bot_id: bot.id.clone(),
            game: pool.game,
            clock: pool.clock,
            node: node.to_string(),
            until_ms,
            at: now_ms(),
        };
        Ok(self.storage.commit(vec![join]).await?)
    }

    /// Takes bot `id`, connected here, out of the arena.
    pub async fn leave_arena(&self, id: &str) -> Result<(), ApiError> {
        let leave = Write::ArenaLeave {
            bot_id: Some(id.to_string()),
            node: self.arena_node().0.to_string(),
        };
        Ok(self.storage.commit(vec![leave]).await?)
    }

    /// Renews this node's hold on its arena bots, and pairs the waiting members of every
    /// pool (one pass).
    async fn pair_arena(self: &Arc<Hub>) -> Result<(), ApiError> {
        if self.cluster.is_some() {
            let (node, until_ms) = self.arena_node();
            let node = node.to_string();
            self.storage
                .commit(vec![Write::ArenaRenew { node, until_ms }])
                .await?;
        }
        let mut pools: HashMap<Pool, Vec<ArenaMember>> = HashMap::new();
        for member in self.storage.arena_waiting(now_ms()).await? {
            let pool = Pool {
                game: member.game,
                clock: member.clock,
            };
            pools.entry(pool).or_default().push(member);
        }
        for (pool, members) in pools {
            if let Err(error) = self.pair_pool(&pool, members).await {
                tracing::warn!(%error, game = %pool.game, "cannot pair the arena");
            }
        }
        Ok(())
    }

    /// Pairs the members waiting in `pool`, nearest ratings first.
    async fn pair_pool(
        self: &Arc<Hub>,
        pool: &Pool,
        waiting: Vec<ArenaMember>,
    ) -> Result<(), ApiError> {
        // Each member, its rating, and its owner.
        let mut rated = Vec::with_capacity(waiting.len());
        for member in waiting {
            let seat = Seat::Bot {
                bot: member.bot_id.clone(),
                name: member.name.clone(),
            };
            let owner = self.owner_of(&seat).await?;
            let rating = self.rating_of(&seat, pool.game).await?;
            rated.push((member, rating.rating, owner));
        }
        rated.sort_by(|a, b| a.1.total_cmp(&b.1));
        let mut left: Vec<bool> = vec![true; rated.len()];
        let house_after = self.limits.arena_house_after.as_millis() as i64;
        for i in 0..rated.len() {
            if !left[i] {
                continue;
            }
            let (me, rating, _) = &rated[i];
            // The nearest rating among the others waiting, not met last time, and not of
            // the same owner (whose games change no rating).
            let partner = (0..rated.len())
                .filter(|&j| j != i && left[j] && rated[j].2 != rated[i].2)
                .filter(|&j| {
                    let other = &rated[j].0;
                    me.last_opponent.as_deref() != Some(&other.bot_id)
                        && other.last_opponent.as_deref() != Some(&me.bot_id)
                })
                .min_by(|&a, &b| {
                    (rated[a].1 - rating)
                        .abs()
                        .total_cmp(&(rated[b].1 - rating).abs())
                });
            let opponent = match partner {
                Some(j) => {
                    left[j] = false;
                    Opponent::Bot(&rated[j].0)
                }
                None if now_ms() - me.waiting_since >= house_after => Opponent::House(
                    self.nearest_house_bot(pool.game, *rating, me.last_opponent.as_deref())
                        .await?,
                ),
                None => continue,
            };
            left[i] = false;
            self.start_arena_game(pool, me, opponent).await?;
        }
        Ok(())
    }

    /// The rating in pool `pool` of the player on `seat`, or the one it enters at.
    async fn rating_of(&self, seat: &Seat, pool: GameKind) -> Result<Rating, ApiError> {
        let player = seat.rated_player().unwrap_or_default();
        Ok(self.standing(seat, &player, pool).await?.0)
    }

    /// The house level whose rating in `pool` is nearest `rating`, not `last` if another
    /// will do.
    async fn nearest_house_bot(
        &self,
        pool: GameKind,
        rating: f64,
        last: Option<&str>,
    ) -> Result<Level, ApiError> {
        let mut levels = Vec::new();
        for level in Level::ALL.into_iter().filter(|l| l.plays(pool)) {
            let key = format!("house:{}", level.name());
            let gap = (self.rating_of(&Seat::House { level }, pool).await?.rating - rating).abs();
            levels.push((Some(key.as_str()) == last, gap, level));
        }
        levels.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        Ok(levels[0].2)
    }

    /// Opens the rated game of bot `me` against `opponent` in `pool`, colours balanced
    /// between the same two bots, unless another node paired either of them first.
    async fn start_arena_game(
        self: &Arc<Hub>,
        pool: &Pool,
        me: &ArenaMember,
        opponent: Opponent<'_>,
    ) -> Result<(), ApiError> {
        let seat = |member: &ArenaMember| Seat::Bot {
            bot: member.bot_id.clone(),
            name: member.name.clone(),
        };
        let (other, other_key) = match &opponent {
            Opponent::Bot(other) => (seat(other), other.bot_id.clone()),
            Opponent::House(level) => (
                Seat::House { level: *level },
                format!("house:{}", level.name()),
            ),
        };
        // Black goes to the bot that has had it less often against this one; else drawn.
        let first = match &opponent {
            Opponent::Bot(other) => {
                let mine = self
                    .storage
                    .games_as_black(&me.bot_id, &other.bot_id)
                    .await?;
                let theirs = self
                    .storage
                    .games_as_black(&other.bot_id, &me.bot_id)
                    .await?;
                mine.cmp(&theirs)
            }
            Opponent::House(_) => std::cmp::Ordering::Equal,
        };
        let mut seats = [Some(seat(me)), Some(other)];
        if first.is_gt() || (first.is_eq() && rand::random::<bool>()) {
            seats.swap(0, 1);
        }
        let spec = GameSpec::for_players(pool.game, &Map::new(), true)
            .expect("a rule set takes its default parameters");
        let row = new_game_row(new_id(), spec, Some(pool.clock), seats, None, true, None);
        let paired = |member: &ArenaMember, opponent: String| Write::ArenaGame {
            bot_id: member.bot_id.clone(),
            game: member.game,
            clock: member.clock,
            was_playing: member.playing.clone(),
            game_id: row.id.clone(),
            opponent,
        };
        let mut writes = vec![Write::Game(Box::new(row.clone())), paired(me, other_key)];
        if let Opponent::Bot(other) = opponent {
            writes.push(paired(other, me.bot_id.clone()));
        }
        match self.storage.commit(writes).await {
            Ok(()) => {}
            Err(StorageError::ArenaChanged) => return Ok(()),
            Err(error) => return Err(error.into()),
        }
        self.play_stored_game(row, None).await?;
        Ok(())
    }
}

/// Whom an arena bot is paired with.
enum Opponent<'a> {
    /// Another bot of the pool.
    Bot(&'a ArenaMember),
    House(Level),
}

/// Pairs the arena's pools every [`TICK`] until the hub stops.
pub(in crate::hub) async fn run_arena(hub: Arc<Hub>) {
    crate::hub::every(hub, TICK, |hub| async move {
        if let Err(error) = hub.pair_arena().await {
            tracing::warn!(%error, "cannot pair the arena");
        }
    })
    .await;
}

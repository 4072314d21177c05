//! The bot arena: registered bots join a rated pool (a rule set at its default parameters,
//! and a clock) over their WebSocket, and the server pairs the bots waiting there
//! continuously, as CGOS does: nearest ratings first, never the same two bots twice in a
//! row, and a house bot of the nearest rating for a bot left alone for
//! `Limits::arena_house_after`. A bot stays in its pool from game to game until it leaves or
//! disconnects. Each node pairs the bots connected to it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use toroid_rules::{AnyGame, GameKind};
use toroid_search::Level;

use crate::api::ClockSettings;
use crate::error::ApiError;
use crate::rating::Rating;
use crate::seat::Seat;
use crate::storage::{BotRow, TimeControl};

use super::lobby::time_control;
use super::{lock, Hub};

/// How often the arena pairs.
const TICK: Duration = Duration::from_millis(500);

/// A pool: a rule set and a clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    pub game: GameKind,
    pub clock: TimeControl,
}

/// A bot in a pool.
struct Member {
    bot: BotRow,
    /// Its arena game being played, if any.
    playing: Option<String>,
    /// Since when it has waited for a game.
    waiting_since: Instant,
    /// Whom it met last (a bot id, or `house:LEVEL`).
    last_opponent: Option<String>,
}

/// The pools and their members, by bot id.
#[derive(Default)]
pub struct Arena {
    members: std::sync::Mutex<HashMap<String, (Pool, Member)>>,
}

impl Arena {
    /// Takes bot `id` out of its pool, if it is in one; whether it was.
    pub fn leave(&self, id: &str) -> bool {
        lock(&self.members).remove(id).is_some()
    }
}

impl Hub {
    /// Bot `bot` joins the pool of `game` at `clock` (leaving any other): the pool, checked.
    pub fn join_arena(
        &self,
        bot: &BotRow,
        game: &str,
        clock: ClockSettings,
    ) -> Result<Pool, ApiError> {
        let game: GameKind = game
            .parse()
            .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
        let pool = Pool {
            game,
            clock: time_control(clock)?,
        };
        let member = Member {
            bot: bot.clone(),
            playing: None,
            waiting_since: Instant::now(),
            last_opponent: None,
        };
        lock(&self.arena.members).insert(bot.id.clone(), (pool.clone(), member));
        Ok(pool)
    }

    /// Pairs the waiting members of every pool (one pass).
    async fn pair_arena(self: &Arc<Hub>) {
        // Who waits now: members whose arena game is over.
        let mut waiting: HashMap<Pool, Vec<(String, Option<String>, Instant)>> = HashMap::new();
        {
            let live = lock(&self.live);
            let mut members = lock(&self.arena.members);
            for (id, (pool, member)) in members.iter_mut() {
                if member
                    .playing
                    .as_ref()
                    .is_some_and(|g| !live.contains_key(g))
                {
                    member.playing = None;
                    member.waiting_since = Instant::now();
                }
                if member.playing.is_none() {
                    let entry = (
                        id.clone(),
                        member.last_opponent.clone(),
                        member.waiting_since,
                    );
                    waiting.entry(pool.clone()).or_default().push(entry);
                }
            }
        }
        for (pool, members) in waiting {
            if let Err(error) = self.pair_pool(&pool, members).await {
                tracing::warn!(%error, game = %pool.game, "cannot pair the arena");
            }
        }
    }

    /// Pairs the members waiting in `pool`, nearest ratings first.
    async fn pair_pool(
        self: &Arc<Hub>,
        pool: &Pool,
        waiting: Vec<(String, Option<String>, Instant)>,
    ) -> Result<(), ApiError> {
        let name = pool.game.name();
        let mut rated = Vec::with_capacity(waiting.len());
        for (id, last, since) in waiting {
            let rating = self.rating_of(&format!("bot:{id}"), name).await?;
            rated.push((id, last, since, rating.rating));
        }
        rated.sort_by(|a, b| a.3.total_cmp(&b.3));
        let mut left: Vec<bool> = vec![true; rated.len()];
        for i in 0..rated.len() {
            if !left[i] {
                continue;
            }
            let (id, last, since, rating) = &rated[i];
            // The nearest rating among the others waiting, not met last time.
            let partner = (0..rated.len())
                .filter(|&j| j != i && left[j])
                .filter(|&j| {
                    last.as_deref() != Some(&rated[j].0) && rated[j].1.as_deref() != Some(id)
                })
                .min_by(|&a, &b| {
                    (rated[a].3 - rating)
                        .abs()
                        .total_cmp(&(rated[b].3 - rating).abs())
                });
            let opponent = match partner {
                Some(j) => {
                    left[j] = false;
                    Opponent::Bot(rated[j].0.clone())
                }
                None if since.elapsed() >= self.limits.arena_house_after => Opponent::House(
                    self.nearest_house_bot(name, *rating, last.as_deref())
                        .await?,
                ),
                None => continue,
            };
            left[i] = false;
            self.start_arena_game(pool, id, opponent).await?;
        }
        Ok(())
    }

    /// `player`'s rating in pool `pool`, or a new player's.
    async fn rating_of(&self, player: &str, pool: &str) -> Result<Rating, ApiError> {
        Ok((self.storage.rating(player, pool).await?).map_or(Rating::default(), |r| r.rating))
    }

    /// The house level whose rating in `pool` is nearest `rating`, not `last` if another
    /// will do.
    async fn nearest_house_bot(
        &self,
        pool: &str,
        rating: f64,
        last: Option<&str>,
    ) -> Result<Level, ApiError> {
        let mut levels = Vec::new();
        for level in Level::ALL {
            let key = format!("house:{}", level.name());
            let gap = (self.rating_of(&key, pool).await?.rating - rating).abs();
            levels.push((Some(key.as_str()) == last, gap, level));
        }
        levels.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        Ok(levels[0].2)
    }

    /// Opens the rated game of bot `id` against `opponent` in `pool`, colours balanced
    /// between the same two bots.
    async fn start_arena_game(
        self: &Arc<Hub>,
        pool: &Pool,
        id: &str,
        opponent: Opponent,
    ) -> Result<(), ApiError> {
        let seat_of = |id: &str| {
            let members = lock(&self.arena.members);
            members.get(id).map(|(_, m)| Seat::Bot {
                bot: m.bot.id.clone(),
                name: m.bot.name.clone(),
            })
        };
        let Some(me) = seat_of(id) else {
            return Ok(());
        };
        let (other, other_key) = match &opponent {
            Opponent::Bot(other) => match seat_of(other) {
                Some(seat) => (seat, other.clone()),
                None => return Ok(()),
            },
            Opponent::House(level) => (
                Seat::House { level: *level },
                format!("house:{}", level.name()),
            ),
        };
        // Black goes to the bot that has had it less often against this one; else drawn.
        let first = match &opponent {
            Opponent::Bot(other) => {
                let mine = self.storage.games_as_black(id, other).await?;
                let theirs = self.storage.games_as_black(other, id).await?;
                mine.cmp(&theirs)
            }
            Opponent::House(_) => std::cmp::Ordering::Equal,
        };
        let mut seats = [Some(me), Some(other)];
        if first.is_gt() || (first.is_eq() && rand::random::<bool>()) {
            seats.swap(0, 1);
        }
        let start: AnyGame = pool.game.default_game();
        let live = self
            .open_game(&start, Some(pool.clock), seats, None, true)
            .await?;
        let mut members = lock(&self.arena.members);
        if let Some((_, member)) = members.get_mut(id) {
            member.playing = Some(live.id.clone());
            member.last_opponent = Some(other_key);
        }
        if let Opponent::Bot(other) = opponent {
            if let Some((_, member)) = members.get_mut(&other) {
                member.playing = Some(live.id.clone());
                member.last_opponent = Some(id.to_string());
            }
        }
        Ok(())
    }
}

/// Whom an arena bot is paired with.
enum Opponent {
    /// Another bot of the pool, by id.
    Bot(String),
    House(Level),
}

/// Pairs the arena's pools every [`TICK`] until the hub stops.
pub(super) async fn run_arena(hub: Arc<Hub>) {
    super::every(hub, TICK, |hub| async move { hub.pair_arena().await }).await;
}

//! The game service: every waiting and live game in memory, each behind its own lock, and
//! the operations of the API on them. Every change is committed to storage before it is
//! applied in memory and announced, so what a client is told is always on disk. The
//! operations are split by concern: [`sessions`], [`lobby`] (games before they start) and
//! [`play`].

mod lobby;
mod play;
mod sessions;

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::Value;
use tokio::sync::{broadcast, watch, Notify, Semaphore};
use toroid_protocol::record::Record;

use crate::api::{GameState, GameSummary};
use crate::bots::Bots;
use crate::config::Limits;
use crate::error::ApiError;
use crate::game::{players, Change, Game};
use crate::house::House;
use crate::ids::now_ms;
use crate::referee;
use crate::storage::{Status, Storage, StorageError};

/// A game that clients and the referee share.
pub struct LiveGame {
    pub id: String,
    /// The session that created it, and from which address, for the limits on games.
    creator: Option<String>,
    address: Option<IpAddr>,
    /// The registered bots that play it, told of every change.
    bots: Vec<String>,
    pub game: tokio::sync::Mutex<Game>,
    /// Fires after every change; subscribers then read the game.
    pub updates: broadcast::Sender<()>,
    /// Wakes the referee after every change.
    pub wake: Notify,
}

pub struct Hub {
    storage: Storage,
    limits: Limits,
    live: Mutex<HashMap<String, Arc<LiveGame>>>,
    /// Games whose stored rows cannot be read, and why: set aside, answered `unavailable`.
    damaged: Mutex<HashMap<String, String>>,
    /// The hash of an invite code to its game id, for waiting games.
    invites: Mutex<HashMap<String, String>>,
    pub house: House,
    pub bots: Bots,
    analyses: Semaphore,
    /// New sessions per address and on the whole server.
    new_sessions_by_address: DefaultKeyedRateLimiter<IpAddr>,
    new_sessions: DefaultDirectRateLimiter,
    /// Set when the server stops: referees end (an in-process restart must not leave the
    /// old server's referees acting on the same games).
    stopping: watch::Sender<bool>,
}

/// Longest name of a person.
const MAX_NAME: usize = 32;
/// A session unused for this long (30 days) expires: its cookie no longer opens it.
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3_600_000;
/// How stale a session's last use may be before it is stored again (an hour): one write an
/// hour per active session, not one per request.
const SESSION_SEEN_STEP_MS: i64 = 3_600_000;
/// Most games a list returns.
pub const MAX_LIST: u32 = 200;

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n.max(1)).expect("at least one")
}

/// Locks a map of the server's. A panic elsewhere cannot leave one half-changed (each change
/// is one call), so a poisoned lock is recovered.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl LiveGame {
    fn new(game: Game, address: Option<IpAddr>) -> LiveGame {
        LiveGame {
            id: game.id.clone(),
            creator: game.creator.clone(),
            address,
            bots: game
                .seats
                .iter()
                .flatten()
                .filter_map(|s| s.bot_id().map(str::to_string))
                .collect(),
            updates: broadcast::channel(16).0,
            wake: Notify::new(),
            game: tokio::sync::Mutex::new(game),
        }
    }
}

impl Hub {
    /// The service over `storage`, with every unfinished game brought back and its referee
    /// running.
    pub async fn start(storage: Storage, limits: Limits) -> Result<Arc<Hub>, StorageError> {
        let hub = Arc::new(Hub {
            house: House::new(limits.search_threads, limits.house_move),
            analyses: Semaphore::new(limits.search_threads.max(1)),
            new_sessions_by_address: RateLimiter::keyed(
                Quota::per_hour(at_least_one(limits.sessions_per_address_per_hour))
                    .allow_burst(at_least_one(limits.sessions_per_address_per_hour)),
            ),
            new_sessions: RateLimiter::direct(Quota::per_minute(at_least_one(
                limits.sessions_per_minute,
            ))),
            storage,
            limits,
            live: Mutex::new(HashMap::new()),
            invites: Mutex::new(HashMap::new()),
            damaged: Mutex::new(HashMap::new()),
            bots: Bots::default(),
            stopping: watch::Sender::new(false),
        });
        let now = Instant::now();
        for row in hub.storage.unfinished_games().await? {
            let restored = match row {
                Ok(row) => {
                    let id = row.id.clone();
                    match hub.storage.moves(&id).await {
                        Ok(moves) => Game::restore(row, &moves, now).map_err(|error| (id, error)),
                        Err(error) => Err((id, error)),
                    }
                }
                Err(damaged) => Err((damaged.id, damaged.error)),
            };
            match restored {
                Ok(game) => {
                    tracing::info!(game = %game.id, plies = game.moves.len(), "restored");
                    hub.insert(game, None);
                }
                Err((id, error)) => hub.set_aside(&id, &error),
            }
        }
        tokio::spawn(abandon_idle_games(hub.clone()));
        Ok(hub)
    }

    /// Sets game `id` aside: its stored rows cannot be read. It is logged once and answered
    /// `unavailable`; every other game goes on.
    fn set_aside(&self, id: &str, error: &StorageError) {
        let mut damaged = lock(&self.damaged);
        if !damaged.contains_key(id) {
            tracing::error!(game = %id, %error, "damaged in the database: set aside");
            damaged.insert(id.to_string(), error.to_string());
        }
    }

    /// Makes the database file whole on its own (SQLite's log checkpointed), after a stop.
    pub async fn checkpoint(&self) {
        if let Err(error) = self.storage.checkpoint().await {
            tracing::warn!(%error, "cannot checkpoint the database's log");
        }
    }

    /// Ends every referee; games stay as stored.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Resolves once [`Hub::stop`] is called.
    pub async fn stopped(&self) {
        let mut stopping = self.stopping.subscribe();
        let _ = stopping.wait_for(|stop| *stop).await;
    }

    /// Puts a game in memory, and starts its referee when it is live.
    fn insert(self: &Arc<Hub>, game: Game, address: Option<IpAddr>) -> Arc<LiveGame> {
        let id = game.id.clone();
        if let (Status::Waiting, Some(hash)) = (game.status, &game.invite_hash) {
            lock(&self.invites).insert(hash.clone(), id.clone());
        }
        let referee = (game.status == Status::Live).then(|| game.seats.clone());
        let live = Arc::new(LiveGame::new(game, address));
        lock(&self.live).insert(id, live.clone());
        if let Some(seats) = referee {
            tokio::spawn(referee::run(self.clone(), live.clone(), seats));
        }
        for bot in &live.bots {
            self.bots.notify(bot, &live.id);
        }
        live
    }

    /// The game `id`: live or waiting from memory, finished from storage.
    pub async fn find(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        if let Some(live) = lock(&self.live).get(id) {
            return Ok(live.clone());
        }
        if lock(&self.damaged).contains_key(id) {
            return Err(ApiError::Unavailable(id.to_string()));
        }
        let not_found = || ApiError::NotFound(format!("game '{id}'"));
        let row = match self.storage.game(id).await {
            Err(error @ StorageError::Corrupt(_)) => {
                self.set_aside(id, &error);
                return Err(ApiError::Unavailable(id.to_string()));
            }
            row => row?.ok_or_else(not_found)?,
        };
        if row.status != Status::Finished {
            // Created or restored this instant: it is in memory now, or it was not yet stored.
            return lock(&self.live).get(id).cloned().ok_or_else(not_found);
        }
        let restored = match self.storage.moves(id).await {
            Ok(moves) => Game::restore(row, &moves, Instant::now()),
            Err(error) => Err(error),
        };
        match restored {
            Ok(game) => Ok(Arc::new(LiveGame::new(game, None))),
            Err(error @ StorageError::Corrupt(_)) => {
                self.set_aside(id, &error);
                Err(ApiError::Unavailable(id.to_string()))
            }
            Err(error) => Err(error.into()),
        }
    }

    /// Commits `change` to storage, then applies and announces it.
    pub async fn commit(
        &self,
        live: &LiveGame,
        game: &mut Game,
        mut change: Change,
    ) -> Result<(), ApiError> {
        self.storage
            .commit(std::mem::take(&mut change.writes))
            .await?;
        let was_waiting = game.status == Status::Waiting;
        game.apply(change);
        if was_waiting && game.status != Status::Waiting {
            if let Some(hash) = &game.invite_hash {
                lock(&self.invites).remove(hash);
            }
        }
        if game.status == Status::Finished {
            lock(&self.live).remove(&game.id);
        }
        let _ = live.updates.send(());
        live.wake.notify_one();
        for bot in &live.bots {
            self.bots.notify(bot, &live.id);
        }
        Ok(())
    }

    /// Game `id` as `viewer` sees it.
    pub async fn state(&self, id: &str, viewer: Option<&str>) -> Result<GameState, ApiError> {
        let live = self.find(id).await?;
        let game = live.game.lock().await;
        Ok(game.state(viewer, Instant::now()))
    }

    /// Games newest first.
    pub async fn list(
        &self,
        status: Option<Status>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, ApiError> {
        let rows = self.storage.games(status, limit.min(MAX_LIST)).await?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                row.map_err(|damaged| self.set_aside(&damaged.id, &damaged.error))
                    .ok()
            })
            .map(|(row, plies)| GameSummary {
                params: serde_json::from_str(&row.params).unwrap_or(Value::Null),
                players: players(&row.seats),
                id: row.id,
                game: row.game,
                status: row.status,
                result: row.result,
                plies,
                created_at: row.created_at,
                finished_at: row.finished_at,
            })
            .collect())
    }

    pub async fn record(&self, id: &str) -> Result<Record, ApiError> {
        let live = self.find(id).await?;
        let game = live.game.lock().await;
        Ok(game.record())
    }
}

/// Now and then, abandons the games without a clock that nobody has touched for
/// `Limits::abandon_after` (a clock ends the others); runs until the hub stops.
async fn abandon_idle_games(hub: Arc<Hub>) {
    let idle_ms = hub.limits.abandon_after.as_millis() as i64;
    let every =
        (hub.limits.abandon_after / 8).clamp(Duration::from_millis(100), Duration::from_secs(60));
    loop {
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            () = hub.stopped() => return,
        }
        let games: Vec<Arc<LiveGame>> = lock(&hub.live).values().cloned().collect();
        for live in games {
            let mut game = live.game.lock().await;
            if let Some(change) = game.prepare_abandon(idle_ms, Instant::now(), now_ms()) {
                match hub.commit(&live, &mut game, change).await {
                    Ok(()) => tracing::info!(game = %live.id, "abandoned: no move for too long"),
                    Err(error) => tracing::error!(game = %live.id, %error, "cannot abandon"),
                }
            }
        }
    }
}

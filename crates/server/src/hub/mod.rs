//! The game service: every waiting and live game in memory, each behind its own lock, and
//! the operations of the API on them. Every change is committed to storage before it is
//! applied in memory and announced, so what a client is told is always on disk. The
//! operations are split by concern: `sessions`, `lobby` (games before they start) and
//! `play`.
//!
//! On a node of a cluster ([`crate::cluster`]) the games in memory are copies: a node reloads
//! a game before it changes it and when another node says it changed, the database refuses a
//! change made on an outdated copy, and a game's referee runs on the node that holds its
//! lease.

pub mod accounts;
pub mod bots;
pub mod challenges;
pub mod chat;
pub mod follows;
pub mod games;
pub mod lobby;
pub mod moderation;
pub mod news;
pub mod puzzles;
pub mod ratings;
pub mod reviews;
mod shared_limit;
pub mod tournaments;
pub use bots::arena::Pool;
pub use games::Action;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use tokio::sync::{broadcast, watch, Notify, Semaphore};
use toroid_protocol::record::Record;
use toroid_protocol::view::PerColor;

use crate::api::{GameHistory, GameState, GameSummary};
use crate::cluster::{self, Cluster, Event};
use crate::config::Limits;
use crate::error::ApiError;
use crate::game::{players, Change, Game, Resume};
use crate::house::House;
use crate::http::health::Check;
use crate::hub::bots::connected::Bots;
use crate::ids::now_ms;
use crate::model::Status;
use crate::referee;
use crate::storage::{GameRow, MoveRow, SessionRow, Storage, StorageError, Write};
use shared_limit::SharedLimit;
use toroid_rules::{GameKind, Position};

/// A game that clients and the referee share.
pub struct LiveGame {
    pub id: String,
    /// Its rule set (for the metrics, without locking the game).
    kind: GameKind,
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
    /// When each colour's person was last present here (`Hub::player_seen`).
    seen: Mutex<[Option<i64>; 2]>,
    /// The game's chat lines as they are said, in both rooms.
    pub chat: broadcast::Sender<chat::ChatLine>,
    /// When the game's latest chat line was said (ms): each line is stamped after the one
    /// before, so two lines in one millisecond keep their order.
    last_chat_at: std::sync::atomic::AtomicI64,
}

pub struct Hub {
    storage: Storage,
    limits: Limits,
    live: Mutex<HashMap<String, Arc<LiveGame>>>,
    /// Finished games that someone still follows (a WebSocket open on one): everyone who
    /// opens such a game shares one copy, so a rematch offer or a chat line reaches all.
    finished: Mutex<HashMap<String, Weak<LiveGame>>>,
    /// Games whose stored rows cannot be read, and why: set aside, answered `unavailable`.
    damaged: Mutex<HashMap<String, String>>,
    /// The referees running on this server, by game.
    referees: Mutex<HashMap<String, tokio::task::AbortHandle>>,
    /// The other nodes, when this server is one node of a cluster.
    cluster: Option<Cluster>,
    /// Wakes the lease keeper (a node stopped and handed its games over).
    orphans: Notify,
    pub house: House,
    pub bots: Bots,
    analyses: Semaphore,
    /// The reviews this node may make at once (`reviews::AT_ONCE`).
    reviews: Arc<Semaphore>,
    /// API requests per address (on all nodes together).
    requests_by_address: SharedLimit<IpAddr>,
    accounts: accounts::AccountState,
    chat: chat::ChatState,
    moderation: moderation::ModerationState,
    news: news::NewsState,
    puzzles: puzzles::PuzzleState,
    /// Set when the server stops: referees end (an in-process restart must not leave the
    /// old server's referees acting on the same games).
    stopping: watch::Sender<bool>,
}

/// A session unused for this long (30 days) expires: its cookie no longer opens it.
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3_600_000;
/// How stale a session's last use may be before it is stored again (an hour): one write an
/// hour per active session, not one per request.
const SESSION_SEEN_STEP_MS: i64 = 3_600_000;
/// Most games a list returns.
pub const MAX_LIST: u32 = 200;
/// Games (or tournaments) a list returns when the query does not say.
pub const DEFAULT_LIST: u32 = 50;

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n.max(1)).expect("at least one")
}

const MINUTE: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(3600);

/// Locks a map of the server's. A panic elsewhere cannot leave one half-changed (each change
/// is one call), so a poisoned lock is recovered.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl LiveGame {
    fn new(game: Game) -> LiveGame {
        LiveGame {
            id: game.id.clone(),
            kind: game.position.kind(),
            creator: game.creator.clone(),
            address: game.creator_address,
            bots: game
                .seats
                .iter()
                .flatten()
                .filter_map(|s| s.bot_id().map(str::to_string))
                .collect(),
            updates: broadcast::channel(16).0,
            chat: broadcast::channel(64).0,
            last_chat_at: std::sync::atomic::AtomicI64::new(0),
            wake: Notify::new(),
            seen: Mutex::new([None, None]),
            game: tokio::sync::Mutex::new(game),
        }
    }
}

impl Hub {
    /// The service over `storage`, with every unfinished game brought back and its referee
    /// running; on a node of a `cluster`, the games come as they are asked for, and the
    /// referees as their leases are taken.
    pub async fn start(
        storage: Storage,
        limits: Limits,
        cluster: Option<Cluster>,
    ) -> Result<Arc<Hub>, StorageError> {
        let hub = Arc::new(Hub {
            house: House::new(limits.search_threads, limits.house_move),
            analyses: Semaphore::new(limits.search_threads.max(1)),
            requests_by_address: SharedLimit::per_second(
                "request",
                limits.requests_per_second,
                limits.request_burst,
            ),
            accounts: accounts::AccountState::new(&limits),
            chat: chat::ChatState::new(),
            news: news::NewsState::new(),
            puzzles: puzzles::PuzzleState::default(),
            reviews: Arc::new(Semaphore::new(reviews::AT_ONCE)),
            moderation: moderation::ModerationState::new(),
            storage,
            limits,
            live: Mutex::new(HashMap::new()),
            finished: Mutex::new(HashMap::new()),
            damaged: Mutex::new(HashMap::new()),
            referees: Mutex::new(HashMap::new()),
            cluster,
            orphans: Notify::new(),
            bots: Bots::default(),
            stopping: watch::Sender::new(false),
        });
        tokio::spawn(abandon_idle_games(hub.clone()));
        tokio::spawn(withdraw_deserted_games(hub.clone()));
        tokio::spawn(every(hub.clone(), MINUTE, |hub| async move {
            hub.forget_idle_limits()
        }));
        if let Err(error) = hub.clear_arena().await {
            tracing::error!(%error, "cannot empty the arena");
        }
        tokio::spawn(bots::arena::run_arena(hub.clone()));
        tokio::spawn(tournaments::run_tournaments(hub.clone()));
        tokio::spawn(moderation::watch_bans(hub.clone()));
        tokio::spawn(puzzles::mine_puzzles(hub.clone()));
        if let Some(cluster) = &hub.cluster {
            if let Err(error) = cluster.heartbeat().await {
                tracing::warn!(%error, "cannot tell the cluster this node lives");
            }
            tokio::spawn(follow_other_nodes(hub.clone()));
            tokio::spawn(keep_leases(hub.clone()));
            return Ok(hub);
        }
        let now = Instant::now();
        for row in hub.storage.unfinished_games().await? {
            let restored = match row {
                Ok(row) => {
                    let id = row.id.clone();
                    match hub.storage.moves(&row).await {
                        Ok(moves) => {
                            Game::restore(row, &moves, Resume::At(now)).map_err(|error| (id, error))
                        }
                        Err(error) => Err((id, error)),
                    }
                }
                Err(damaged) => Err((damaged.id, damaged.error)),
            };
            match restored {
                Ok(game) => {
                    tracing::info!(game = %game.id, plies = game.moves.len(), "restored");
                    hub.insert(game);
                }
                Err((id, error)) => hub.set_aside(&id, &error),
            }
        }
        Ok(hub)
    }

    /// Whether one more API request from `address` is within its rate (on all nodes).
    pub async fn allows_request(&self, address: IpAddr) -> bool {
        (self.requests_by_address)
            .allows(self.cluster.as_ref(), &address)
            .await
    }

    /// Forgets the keys of the limits that have not been used lately.
    fn forget_idle_limits(&self) {
        self.requests_by_address.forget_idle();
        self.accounts.forget_idle();
        self.chat.forget_idle();
        self.moderation.reports.forget_idle();
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

    /// Ends every referee; games stay as stored. A node of a cluster gives up its leases
    /// (of games and tournaments) and tells the others, which take them over at once.
    pub async fn stop(&self) {
        self.stopping.send_replace(true);
        self.release_tournaments().await;
        if let Some(cluster) = &self.cluster {
            if let Err(error) = self.storage.release_referees(&cluster.node).await {
                tracing::warn!(%error, "cannot give up the referees' leases; they expire");
            }
            let from = cluster.node.clone();
            cluster.publish(&Event::Handover { from }).await;
        }
    }

    /// The metrics in Prometheus's text format, with this node's gauges read now (empty
    /// when no recorder is installed).
    pub fn metrics_text(&self) -> String {
        let Some(recorder) = crate::metrics::recorder() else {
            return String::new();
        };
        let mut held: HashMap<GameKind, usize> = GameKind::ALL.map(|k| (k, 0)).into();
        for live in lock(&self.live).values() {
            *held.entry(live.kind).or_default() += 1;
        }
        for (kind, n) in held {
            metrics::gauge!("toroid_games_held", "game" => kind.name()).set(n as f64);
        }
        metrics::gauge!("toroid_referee_leases").set(lock(&self.referees).len() as f64);
        metrics::gauge!("toroid_bots_connected").set(self.bots.connected() as f64);
        recorder.run_upkeep();
        recorder.render()
    }

    /// What `/readyz` checks: the database answers a query, Redis a ping on a node of a
    /// cluster (each within two seconds), and the server is not stopping.
    pub async fn readiness(&self) -> Vec<Check> {
        const WITHIN: Duration = Duration::from_secs(2);
        let check = |name, answered: Result<Result<(), String>, _>| Check {
            name,
            status: match answered {
                Ok(Ok(())) => "ok".to_string(),
                Ok(Err(error)) => error,
                Err(_) => format!("no answer within {} s", WITHIN.as_secs()),
            },
        };
        let database = tokio::time::timeout(WITHIN, self.storage.ping()).await;
        let mut checks = vec![check(
            "database",
            database.map(|r| r.map_err(|e| e.to_string())),
        )];
        if let Some(cluster) = &self.cluster {
            let redis = tokio::time::timeout(WITHIN, cluster.ping()).await;
            checks.push(check(
                "redis",
                redis.map(|r| r.map_err(|e| format!("redis: {e}"))),
            ));
        }
        let stopping = *self.stopping.borrow();
        let serving = if stopping {
            Err("stopping".to_string())
        } else {
            Ok(())
        };
        checks.push(check("serving", Ok(serving)));
        checks
    }

    /// Resolves once [`Hub::stop`] is called.
    pub async fn stopped(&self) {
        let mut stopping = self.stopping.subscribe();
        let _ = stopping.wait_for(|stop| *stop).await;
    }

    /// Puts a game in memory, and starts its referee when it is live.
    fn insert(self: &Arc<Hub>, game: Game) -> Arc<LiveGame> {
        let id = game.id.clone();
        let live_now = game.status == Status::Live;
        let live = Arc::new(LiveGame::new(game));
        lock(&self.live).insert(id, live.clone());
        if live_now {
            self.start_referee(live.clone());
        }
        for bot in &live.bots {
            self.bots.notify(bot, &live.id);
        }
        live
    }

    /// Starts the referee of live game `live` on this server, unless one runs here already
    /// or (on a node of a cluster) another node holds its lease.
    fn start_referee(self: &Arc<Hub>, live: Arc<LiveGame>) {
        let mut referees = lock(&self.referees);
        if referees.get(&live.id).is_some_and(|r| !r.is_finished()) {
            return;
        }
        let hub = self.clone();
        let id = live.id.clone();
        let task = tokio::spawn(async move {
            if let Some(cluster) = &hub.cluster {
                let now = now_ms();
                let until = now + cluster::LEASE.as_millis() as i64;
                match hub
                    .storage
                    .claim_referee(&live.id, &cluster.node, now, until)
                    .await
                {
                    Ok(true) => {}
                    Ok(false) => return,
                    Err(error) => {
                        tracing::warn!(game = %live.id, %error, "cannot take the referee's lease");
                        return;
                    }
                }
            }
            let seats = live.game.lock().await.seats.clone();
            referee::run(hub, live, seats).await;
        });
        referees.insert(id, task.abort_handle());
    }

    /// On a node of a cluster, replaces `game` by the stored game (another node may have
    /// changed it), keeping what only this server knows (the creator's invite link).
    async fn reload(&self, game: &mut Game) -> Result<(), ApiError> {
        if self.cluster.is_none() {
            return Ok(());
        }
        let row = self
            .storage
            .game(&game.id)
            .await?
            .ok_or(StorageError::NoSuchGame)?;
        let moves = self.storage.moves(&row).await?;
        let mut stored = Game::restore(row, &moves, Resume::AsStored)?;
        if stored.invite_hash == game.invite_hash {
            stored.invite_code = game.invite_code.take();
        }
        self.recall_invite(&mut stored).await;
        *game = stored;
        Ok(())
    }

    /// On a node of a cluster, shares the invite code of `game` with the other nodes.
    async fn remember_invite(&self, game: &Game) {
        if let (Some(cluster), Some(code)) = (&self.cluster, &game.invite_code) {
            if let Err(error) = cluster
                .remember_invite(&game.id, code, self.limits.abandon_after)
                .await
            {
                tracing::warn!(game = %game.id, %error, "cannot share the invite code");
            }
        }
    }

    /// On a node of a cluster, takes back the invite code of a waiting `game` that another
    /// node made.
    async fn recall_invite(&self, game: &mut Game) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        if game.status != Status::Waiting || game.invite_code.is_some() {
            return;
        }
        match cluster.invite(&game.id).await {
            Ok(Some(code)) => game.recall_invite(code),
            Ok(None) => {}
            Err(error) => tracing::warn!(game = %game.id, %error, "cannot read the invite code"),
        }
    }

    /// Game `id` as stored now: the copy this server holds, reloaded, or else, when
    /// `follow`, the game loaded and held from now on (`find`); `None` if neither.
    async fn stored(&self, id: &str, follow: bool) -> Result<Option<Arc<LiveGame>>, ApiError> {
        let held = self.held(id);
        match held {
            Some(live) => {
                self.reload(&mut *live.game.lock().await).await?;
                Ok(Some(live))
            }
            None if follow => self.find(id).await.map(Some),
            None => Ok(None),
        }
    }

    /// After another node changed game `id`, which registered `bots` play: reloads it if
    /// this server holds it (or a bot connected here plays it), and tells its players,
    /// spectators, bots and referee.
    async fn changed_elsewhere(&self, id: &str, bots: &[String], moved: Option<&MoveRow>) {
        if let (Some(moved), Some(live)) = (moved, self.held(id)) {
            let followed = live.game.lock().await.follow_move(moved);
            if followed {
                self.announce(&live);
                return;
            }
        }
        let follow = bots.iter().any(|b| self.bots.is_connected(b));
        let live = match self.stored(id, follow).await {
            Ok(Some(live)) => live,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(game = %id, %error, "cannot reload a game another node changed");
                return;
            }
        };
        if live.game.lock().await.status == Status::Finished {
            if let Some(held) = lock(&self.live).remove(id) {
                self.follow_finished(&held);
            }
        }
        self.announce(&live);
    }

    /// Tells everyone here who follows `live` that it changed (its referee too).
    fn announce(&self, live: &LiveGame) {
        let _ = live.updates.send(());
        live.wake.notify_one();
        for bot in &live.bots {
            self.bots.notify(bot, &live.id);
        }
    }

    /// Game `id` if this server holds it: waiting, live, or finished and followed.
    fn held(&self, id: &str) -> Option<Arc<LiveGame>> {
        let live = lock(&self.live).get(id).cloned();
        live.or_else(|| lock(&self.finished).get(id).and_then(Weak::upgrade))
    }

    /// Keeps finished game `live` shared while someone follows it (`Hub::finished`).
    fn follow_finished(&self, live: &Arc<LiveGame>) -> Arc<LiveGame> {
        let mut finished = lock(&self.finished);
        finished.retain(|_, game| game.strong_count() > 0);
        if let Some(held) = finished.get(&live.id).and_then(Weak::upgrade) {
            return held;
        }
        finished.insert(live.id.clone(), Arc::downgrade(live));
        live.clone()
    }

    /// The game `id`: live or waiting from memory, finished from storage.
    pub async fn find(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        if let Some(live) = self.held(id) {
            return Ok(live);
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
        let unfinished = row.status != Status::Finished;
        if unfinished && self.cluster.is_none() {
            // Created or restored this instant: it is in memory now, or it was not yet stored.
            return lock(&self.live).get(id).cloned().ok_or_else(not_found);
        }
        let restored = match self.storage.moves(&row).await {
            Ok(moves) => Game::restore(row, &moves, Resume::AsStored),
            Err(error) => Err(error),
        };
        match restored {
            // Another node's game: this one follows it from now on.
            Ok(mut game) if unfinished => {
                self.recall_invite(&mut game).await;
                let live = Arc::new(LiveGame::new(game));
                let mut games = lock(&self.live);
                Ok(games.entry(id.to_string()).or_insert(live).clone())
            }
            Ok(game) => Ok(self.follow_finished(&Arc::new(LiveGame::new(game)))),
            Err(error @ StorageError::Corrupt(_)) => {
                self.set_aside(id, &error);
                Err(ApiError::Unavailable(id.to_string()))
            }
            Err(error) => Err(error.into()),
        }
    }

    /// Commits `change` to storage, then applies and announces it (to the other nodes too).
    /// A change the database refuses because another node changed the game first reloads
    /// the game, and is answered as if it had come a moment later: `stale-ply` for a move.
    pub async fn commit(
        &self,
        live: &LiveGame,
        game: &mut Game,
        mut change: Change,
    ) -> Result<(), ApiError> {
        let writes = std::mem::take(&mut change.writes);
        let moved = writes.iter().any(|w| matches!(w, Write::Move(_)));
        // A change that is one move and nothing else travels to the other nodes whole.
        let only_move = match writes.as_slice() {
            [Write::Move(row)] => Some(row.clone()),
            _ => None,
        };
        let stored = match change.ending().filter(|_| game.rated) {
            Some(end) => self.commit_rated_end(game, writes, end).await?,
            None => self.storage.commit(writes).await,
        };
        match stored {
            Ok(()) if moved => {
                metrics::counter!("toroid_moves_total", "game" => live.kind.name()).increment(1);
            }
            Ok(()) => {}
            Err(StorageError::Outdated) => {
                let sent = game.moves.len() as u64;
                self.reload(game).await?;
                return Err(match moved {
                    true if game.status == Status::Finished => ApiError::GameOver,
                    true => ApiError::StalePly {
                        current: game.moves.len(),
                        sent,
                    },
                    false => ApiError::Conflict("the game changed meanwhile".into()),
                });
            }
            Err(error) => return Err(error.into()),
        }
        self.applied(live, game, change, only_move).await;
        Ok(())
    }

    /// Applies `change`, stored, to `game` and announces it (to the other nodes too, with
    /// the move it is, if it is one move and nothing else).
    async fn applied(
        &self,
        live: &LiveGame,
        game: &mut Game,
        change: Change,
        only_move: Option<MoveRow>,
    ) {
        game.apply(change);
        if game.status == Status::Finished {
            if let Some(held) = lock(&self.live).remove(&game.id) {
                self.follow_finished(&held);
            }
            self.game_ended_for_puzzles();
        }
        self.announce(live);
        self.tell_other_nodes(live, only_move).await;
        self.tell_players(game).await;
    }

    /// Tells the other nodes, if any, that `live` changed (or is new), by the one move
    /// `moved` if that is all.
    async fn tell_other_nodes(&self, live: &LiveGame, moved: Option<MoveRow>) {
        if let Some(cluster) = &self.cluster {
            let (id, from, bots) = (live.id.clone(), cluster.node.clone(), live.bots.clone());
            let event = Event::Game {
                id,
                from,
                bots,
                moved,
            };
            cluster.publish(&event).await;
        }
    }

    /// Game `id` as `viewer` sees it.
    pub async fn state(&self, id: &str, viewer: Option<&str>) -> Result<GameState, ApiError> {
        let live = self.find(id).await?;
        let game = live.game.lock().await;
        Ok(game.state(viewer, Instant::now()))
    }

    /// Games newest first; of `status` and of a player named `player`, if given. The list of
    /// all live games leaves out those quiet for `Limits::quiet_after`.
    pub async fn list(
        &self,
        status: Option<Status>,
        player: Option<&str>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, ApiError> {
        let quiet = match (status, player) {
            (Some(Status::Live), None) => self.quiet_games(),
            _ => HashSet::new(),
        };
        (self.summaries(status, player, limit, |row| !quiet.contains(&row.id))).await
    }

    /// The live games held here that have not changed for `Limits::quiet_after` (a game
    /// busy this instant is taken as active).
    fn quiet_games(&self) -> HashSet<String> {
        let since = now_ms() - self.limits.quiet_after.as_millis() as i64;
        let games: Vec<Arc<LiveGame>> = lock(&self.live).values().cloned().collect();
        (games.iter())
            .filter(|live| {
                (live.game.try_lock())
                    .is_ok_and(|g| g.status == Status::Live && g.last_change_at < since)
            })
            .map(|live| live.id.clone())
            .collect()
    }

    /// The games of `session`'s person (its own seats, and its account's from any session),
    /// newest first, of `status` if given: among the latest [`MAX_LIST`] games of its name.
    pub async fn list_mine(
        &self,
        session: &SessionRow,
        status: Option<Status>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, ApiError> {
        let mut games = (self.summaries(status, Some(&session.name), MAX_LIST, |row| {
            row.seats.iter().flatten().any(|seat| session.sits_at(seat))
        }))
        .await?;
        games.truncate(limit as usize);
        for summary in games.iter_mut().filter(|g| g.status == Status::Live) {
            if let Ok(live) = self.find(&summary.id).await {
                let game = live.game.lock().await;
                let turn = game.position.turn().filter(|_| game.counting.is_none());
                let seat = turn.and_then(|t| game.seats[t.index()].as_ref());
                summary.your_turn = Some(seat.is_some_and(|seat| session.sits_at(seat)));
            }
        }
        Ok(games)
    }

    async fn summaries(
        &self,
        status: Option<Status>,
        player: Option<&str>,
        limit: u32,
        keep: impl Fn(&GameRow) -> bool,
    ) -> Result<Vec<GameSummary>, ApiError> {
        let rows = (self.storage)
            .games(status, player, limit.min(MAX_LIST))
            .await?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                row.map_err(|damaged| self.set_aside(&damaged.id, &damaged.error))
                    .ok()
            })
            .filter(|row| keep(row))
            .map(|row| GameSummary {
                params: row.spec.params_view(),
                players: players(&row.seats),
                id: row.id,
                game: row.spec.kind(),
                status: row.status,
                result: row.result,
                plies: row.plies,
                rated: row.rated,
                created_at: row.created_at,
                finished_at: row.finished_at,
                your_turn: None,
            })
            .collect())
    }

    /// Game `id`'s history: every board, the captures and score after each move (the
    /// rules'), and the clocks stored with each move.
    pub async fn history(&self, id: &str) -> Result<GameHistory, ApiError> {
        let live = self.find(id).await?;
        let (history, control) = {
            let game = live.game.lock().await;
            (game.history(), game.clock.map(|c| c.control))
        };
        let clocks = match control {
            None => None,
            Some(control) => {
                let start = PerColor::from_array([control.initial_ms(); 2]);
                let stored = self.stored_moves(id).await?;
                let after: Option<Vec<_>> = stored
                    .iter()
                    .map(|m| m.clocks.map(PerColor::from_array))
                    .collect();
                // A move stored after the boards were taken is left out.
                after.map(|after| {
                    let mut clocks = vec![start];
                    clocks.extend(after.into_iter().take(history.boards.len() - 1));
                    clocks
                })
            }
        };
        Ok(GameHistory { history, clocks })
    }

    /// Game `id`'s moves as stored, with the clocks after each.
    async fn stored_moves(&self, id: &str) -> Result<Vec<MoveRow>, ApiError> {
        let row = (self.storage.game(id).await?)
            .ok_or_else(|| ApiError::NotFound(format!("game '{id}'")))?;
        Ok(self.storage.moves(&row).await?)
    }

    pub async fn record(&self, id: &str) -> Result<Record, ApiError> {
        let live = self.find(id).await?;
        let game = live.game.lock().await;
        Ok(game.record())
    }
}

/// Follows the other nodes' events until the hub stops: reloads the games they changed, and
/// looks for games to referee when a node hands its games over.
async fn follow_other_nodes(hub: Arc<Hub>) {
    let Some(cluster) = &hub.cluster else {
        return;
    };
    let mut events = cluster.events();
    loop {
        let event = tokio::select! {
            event = events.recv() => event,
            () = hub.stopped() => return,
        };
        match event {
            Some(Some(Event::Game {
                id, bots, moved, ..
            })) => hub.changed_elsewhere(&id, &bots, moved.as_ref()).await,
            Some(Some(Event::Handover { .. })) => hub.orphans.notify_one(),
            Some(Some(Event::Chat {
                game_id,
                line,
                bots,
                ..
            })) => hub.heard(&game_id, line, &bots),
            Some(Some(Event::BotRevoked { bot, .. })) => hub.bots.revoke(&bot),
            Some(Some(Event::SessionEnded { session, .. })) => hub.session_ended(&session),
            Some(Some(Event::Tournament {
                tournament, bots, ..
            })) => {
                for bot in &bots {
                    hub.bots.tell_tournament(bot, &tournament);
                }
            }
            Some(Some(Event::Challenges { bots, .. })) => {
                for bot in &bots {
                    hub.bots.tell_challenges(bot);
                }
            }
            Some(Some(Event::News { news, .. })) => hub.tell_here(news),
            Some(Some(Event::Challenge {
                from,
                to,
                bot,
                challenge,
            })) if to == cluster.node => {
                tokio::spawn(hub.clone().answer_challenge(from, bot, challenge));
            }
            Some(Some(Event::Answer {
                to,
                challenge,
                declined,
                ..
            })) if to == cluster.node => {
                hub.bots.answered(&challenge, declined.map_or(Ok(()), Err));
            }
            Some(Some(Event::Challenge { .. } | Event::Answer { .. })) => {}
            // Events may have been missed: reload every game held.
            Some(None) => {
                let held: Vec<String> = lock(&hub.live).keys().cloned().collect();
                for id in held {
                    hub.changed_elsewhere(&id, &[], None).await;
                }
            }
            None => return,
        }
    }
}

/// Keeps this node's referee leases until the hub stops: renews them, stops the referees
/// whose lease another node took, and takes over the live games that no node referees
/// (their node died or stopped), as a restart would: their clocks resume now.
async fn keep_leases(hub: Arc<Hub>) {
    let Some(cluster) = &hub.cluster else {
        return;
    };
    let lease = cluster::LEASE.as_millis() as i64;
    loop {
        tokio::select! {
            () = tokio::time::sleep(cluster::RENEW) => {}
            () = hub.orphans.notified() => {}
            () = hub.stopped() => return,
        }
        if let Err(error) = cluster.heartbeat().await {
            tracing::warn!(%error, "cannot tell the cluster this node lives");
        }
        let now = now_ms();
        match hub.storage.renew_referees(&cluster.node, now + lease).await {
            Ok(mine) => lock(&hub.referees).retain(|id, referee| {
                let kept = mine.contains(id) && !referee.is_finished();
                if !kept {
                    referee.abort();
                }
                kept
            }),
            Err(error) => {
                tracing::warn!(%error, "cannot renew the referees' leases");
                continue;
            }
        }
        let orphans = match hub.storage.orphaned_games(now).await {
            Ok(orphans) => orphans,
            Err(error) => {
                tracing::warn!(%error, "cannot look for games without a referee");
                continue;
            }
        };
        for id in orphans {
            if let Err(error) = hub.take_over(&id, lease).await {
                tracing::warn!(game = %id, %error, "cannot take the game over");
            }
        }
    }
}

impl Hub {
    /// Referees live game `id`, whose node died or stopped, if this node gets its lease.
    async fn take_over(self: &Arc<Hub>, id: &str, lease: i64) -> Result<(), ApiError> {
        let Some(cluster) = &self.cluster else {
            return Ok(());
        };
        let now = now_ms();
        if !self
            .storage
            .claim_referee(id, &cluster.node, now, now + lease)
            .await?
        {
            return Ok(());
        }
        let at = now_ms();
        let game_id = id.to_string();
        self.storage
            .commit(vec![Write::Resume { game_id, at }])
            .await?;
        tracing::info!(game = %id, "taken over");
        let live = (self.stored(id, true).await?).ok_or(StorageError::NoSuchGame)?;
        // The other nodes' clocks of the game resume from the takeover too.
        self.tell_other_nodes(&live, None).await;
        self.start_referee(live);
        Ok(())
    }
}

/// Runs `tick` every `period` (after the first wait) until the hub stops.
async fn every<F, Fut>(hub: Arc<Hub>, period: Duration, tick: F)
where
    F: Fn(Arc<Hub>) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    loop {
        tokio::select! {
            () = tokio::time::sleep(period) => {}
            () = hub.stopped() => return,
        }
        tick(hub.clone()).await;
    }
}

/// At every ping interval, withdraws the open games whose creator left their page.
async fn withdraw_deserted_games(hub: Arc<Hub>) {
    let period = hub.limits.ping_interval;
    every(
        hub,
        period,
        |hub| async move { hub.withdraw_deserted().await },
    )
    .await;
}

/// Now and then, abandons the games without a clock that nobody has touched for
/// `Limits::abandon_after` (a clock ends the others); runs until the hub stops.
async fn abandon_idle_games(hub: Arc<Hub>) {
    let period =
        (hub.limits.abandon_after / 8).clamp(Duration::from_millis(100), Duration::from_secs(60));
    every(hub, period, abandon_idle).await;
}

/// Abandons the games without a clock untouched for `Limits::abandon_after`.
async fn abandon_idle(hub: Arc<Hub>) {
    let idle_ms = hub.limits.abandon_after.as_millis() as i64;
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

//! The game service: every waiting and live game in memory, each behind its own lock, and
//! the operations of the API on them. Every change is committed to storage before it is
//! applied in memory and announced, so what a client is told is always on disk.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Map, Value};
use tokio::sync::{broadcast, watch, Notify, Semaphore};
use toroid_protocol::record::Record;
use toroid_protocol::view::ParamsView;
use toroid_rules::{AnyGame, Color, Position};
use toroid_search::{Budget, Level, Mcts, MctsConfig};

use crate::api::{
    AnalysisView, ClockSettings, ColorChoice, GameState, GameSummary, MoveAnalysis, NewGame,
    Opponent,
};
use crate::bots::{Bots, Challenge, Seek};
use crate::config::Limits;
use crate::error::ApiError;
use crate::game::{clock_settings, new_position, player_view, players, Actor, Change, Game};
use crate::house::House;
use crate::ids::{hash_secret, new_id, new_secret, now_ms};
use crate::referee;
use crate::seat::Seat;
use crate::storage::{
    BotKey, BotRow, GameRow, SessionRow, Status, Storage, StorageError, TimeControl, Write,
};

/// A game that clients and the referee share.
pub struct LiveGame {
    pub id: String,
    /// The session that created it, for the per-session limit.
    creator: Option<String>,
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
    /// Invite code to game id, for waiting games.
    invites: Mutex<HashMap<String, String>>,
    pub house: House,
    pub bots: Bots,
    analyses: Semaphore,
    /// Set when the server stops: referees end (an in-process restart must not leave the
    /// old server's referees acting on the same games).
    stopping: watch::Sender<bool>,
}

/// Longest name of a person.
const MAX_NAME: usize = 32;
/// Most games a list returns.
pub const MAX_LIST: u32 = 200;

/// Locks a map of the server's. A panic elsewhere cannot leave one half-changed (each change
/// is one call), so a poisoned lock is recovered.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl LiveGame {
    fn new(game: Game) -> LiveGame {
        LiveGame {
            id: game.id.clone(),
            creator: game.creator.clone(),
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
            storage,
            limits,
            live: Mutex::new(HashMap::new()),
            invites: Mutex::new(HashMap::new()),
            bots: Bots::default(),
            stopping: watch::Sender::new(false),
        });
        let now = Instant::now();
        for row in hub.storage.unfinished_games().await? {
            let id = row.id.clone();
            let moves = hub.storage.moves(&id).await?;
            match Game::restore(row, &moves, now) {
                Ok(game) => {
                    tracing::info!(game = %id, plies = moves.len(), "restored");
                    hub.insert(game);
                }
                Err(error) => tracing::error!(game = %id, %error, "cannot restore; left out"),
            }
        }
        Ok(hub)
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
    fn insert(self: &Arc<Hub>, game: Game) -> Arc<LiveGame> {
        let id = game.id.clone();
        if let (Status::Waiting, Some(code)) = (game.status, &game.invite) {
            lock(&self.invites).insert(code.clone(), id.clone());
        }
        let referee = (game.status == Status::Live).then(|| game.seats.clone());
        let live = Arc::new(LiveGame::new(game));
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
        let not_found = || ApiError::NotFound(format!("game '{id}'"));
        let row = self.storage.game(id).await?.ok_or_else(not_found)?;
        if row.status != Status::Finished {
            // Created or restored this instant: it is in memory now, or it was not yet stored.
            return lock(&self.live).get(id).cloned().ok_or_else(not_found);
        }
        let moves = self.storage.moves(id).await?;
        let game = Game::restore(row, &moves, Instant::now())?;
        Ok(Arc::new(LiveGame::new(game)))
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
            if let Some(code) = &game.invite {
                lock(&self.invites).remove(code);
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

    /// Ends the game on time if its running clock is out; whether it did.
    pub async fn flag(&self, live: &LiveGame) -> Result<bool, ApiError> {
        let mut game = live.game.lock().await;
        match game.prepare_timeout(Instant::now(), now_ms()) {
            Some(change) => {
                self.commit(live, &mut game, change).await?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    pub async fn create_session(&self, name: &str) -> Result<(SessionRow, String), ApiError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(ApiError::BadRequest(format!(
                "a name has 1 to {MAX_NAME} characters, none of them control characters"
            )));
        }
        let token = new_secret();
        let session = SessionRow {
            id: new_id(),
            name: name.to_string(),
            token_hash: hash_secret(&token),
            created_at: now_ms(),
        };
        self.storage
            .commit(vec![Write::Session(session.clone())])
            .await?;
        Ok((session, token))
    }

    /// The session whose cookie is `token`.
    pub async fn session(&self, token: &str) -> Result<Option<SessionRow>, ApiError> {
        Ok(self.storage.session(&hash_secret(token)).await?)
    }

    pub async fn create_game(
        self: &Arc<Hub>,
        session: &SessionRow,
        request: NewGame,
    ) -> Result<GameState, ApiError> {
        let position =
            new_position(&request.game, &request.params).map_err(ApiError::BadRequest)?;
        let clock = request.clock.map(time_control).transpose()?;
        let open = self.unfinished(|g| g.creator.as_deref() == Some(&session.id));
        if open >= self.limits.games_per_session {
            return Err(ApiError::Limit(format!(
                "you have {open} unfinished games; finish one first"
            )));
        }
        let color = match request.color {
            ColorChoice::Black => Color::Black,
            ColorChoice::White => Color::White,
            ColorChoice::Random => random_color(),
        };
        let person = Seat::Person {
            session: session.id.clone(),
            name: session.name.clone(),
        };
        let opponent = match request.opponent {
            Opponent::House { level } => Some(Seat::House {
                level: level
                    .parse::<Level>()
                    .map_err(|e| ApiError::BadRequest(e.to_string()))?,
            }),
            Opponent::Invite => None,
            Opponent::Bot { name } => Some(
                self.challenge(&person, &name, &position, clock, color.opponent())
                    .await?,
            ),
        };
        let mut seats = [None, None];
        seats[color.index()] = Some(person);
        seats[color.opponent().index()] = opponent;
        let live = self
            .open_game(&position, clock, seats, Some(session.id.clone()))
            .await?;
        let game = live.game.lock().await;
        Ok(game.state(Some(&session.id), Instant::now()))
    }

    /// Games in memory (waiting or live) for which `which` holds.
    fn unfinished(&self, which: impl Fn(&LiveGame) -> bool) -> usize {
        lock(&self.live).values().filter(|g| which(g)).count()
    }

    /// Stores a new game of `position` and puts it in play: live when both seats are taken,
    /// else waiting with an invite code.
    async fn open_game(
        self: &Arc<Hub>,
        position: &AnyGame,
        clock: Option<TimeControl>,
        seats: [Option<Seat>; 2],
        creator: Option<String>,
    ) -> Result<Arc<LiveGame>, ApiError> {
        let live = seats.iter().all(Option::is_some);
        let row = GameRow {
            id: new_id(),
            game: position.kind().name().to_string(),
            params: serde_json::to_string(&ParamsView(position.params().clone()))
                .expect("parameters serialize"),
            clock,
            seats,
            creator,
            invite: (!live).then(new_secret),
            status: if live { Status::Live } else { Status::Waiting },
            result: None,
            final_clocks: None,
            created_at: now_ms(),
            finished_at: None,
        };
        let game = Game::restore(row.clone(), &[], Instant::now())?;
        self.storage
            .commit(vec![Write::Game(Box::new(row))])
            .await?;
        Ok(self.insert(game))
    }

    /// Challenges the connected bot `name` to play `color` against `person`; its seat if
    /// it accepts.
    async fn challenge(
        &self,
        person: &Seat,
        name: &str,
        position: &AnyGame,
        clock: Option<TimeControl>,
        color: Color,
    ) -> Result<Seat, ApiError> {
        let id = self
            .bots
            .id_of(name)
            .ok_or_else(|| ApiError::NotFound(format!("connected bot '{name}'")))?;
        if self.unfinished(|g| g.bots.contains(&id)) >= self.limits.games_per_session {
            return Err(ApiError::Declined(format!(
                "{name} is playing too many games"
            )));
        }
        let challenge = Challenge {
            id: new_id(),
            from: player_view(person),
            game: position.kind().name(),
            params: ParamsView(position.params().clone()),
            clock: clock.map(clock_settings),
            color,
        };
        self.bots.challenge(&id, challenge).await?;
        Ok(Seat::Bot {
            bot: id,
            name: name.to_string(),
        })
    }

    pub async fn register_bot(
        &self,
        owner: &SessionRow,
        name: &str,
    ) -> Result<(BotRow, String), ApiError> {
        let valid = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
        if name.is_empty() || name.len() > MAX_NAME || !name.chars().all(valid) {
            return Err(ApiError::BadRequest(format!(
                "a bot's name has 1 to {MAX_NAME} letters, digits, '-', '_' or '.'"
            )));
        }
        if self.storage.bot(BotKey::Name(name)).await?.is_some() {
            return Err(ApiError::Conflict(format!("the name '{name}' is taken")));
        }
        let token = new_secret();
        let bot = BotRow {
            id: new_id(),
            name: name.to_string(),
            owner: owner.id.clone(),
            token_hash: hash_secret(&token),
            created_at: now_ms(),
        };
        // Two registrations racing for a name: the database's unique index refuses one.
        self.storage
            .commit(vec![Write::Bot(bot.clone())])
            .await
            .map_err(|_| ApiError::Conflict(format!("the name '{name}' is taken")))?;
        Ok((bot, token))
    }

    /// The bot whose token is `token`.
    pub async fn bot(&self, token: &str) -> Result<Option<BotRow>, ApiError> {
        Ok(self
            .storage
            .bot(BotKey::TokenHash(&hash_secret(token)))
            .await?)
    }

    /// The ids of the unfinished games bot `id` plays.
    pub fn bot_games(&self, id: &str) -> Vec<String> {
        lock(&self.live)
            .values()
            .filter(|g| g.bots.iter().any(|b| b == id))
            .map(|g| g.id.clone())
            .collect()
    }

    /// Bot `bot` seeks a game; when another bot seeks the same, their game starts (colours
    /// drawn at random). Whether it started.
    pub async fn seek(
        self: &Arc<Hub>,
        bot: &BotRow,
        game: &str,
        params: &Map<String, Value>,
        clock: Option<ClockSettings>,
    ) -> Result<bool, ApiError> {
        let position = new_position(game, params).map_err(ApiError::BadRequest)?;
        let clock = clock.map(time_control).transpose()?;
        if self.unfinished(|g| g.bots.contains(&bot.id)) >= self.limits.games_per_session {
            return Err(ApiError::Limit("too many unfinished games".into()));
        }
        let Some((first, second)) = self.bots.seek(Seek::new(bot.clone(), position, clock)) else {
            return Ok(false);
        };
        let seat = |b: &BotRow| {
            Some(Seat::Bot {
                bot: b.id.clone(),
                name: b.name.clone(),
            })
        };
        let mut seats = [seat(&first.bot), seat(&second.bot)];
        if random_color() == Color::White {
            seats.swap(0, 1);
        }
        self.open_game(&second.position, second.clock, seats, None)
            .await?;
        Ok(true)
    }

    /// `session` takes the open seat of game `id` with the invite `code`.
    /// `id` may also be the code itself, for a page at `/join/CODE` that knows no id.
    pub async fn join(
        self: &Arc<Hub>,
        session: &SessionRow,
        id: &str,
        code: &str,
    ) -> Result<GameState, ApiError> {
        let id = match id == code {
            true => lock(&self.invites).get(code).cloned(),
            false => Some(id.to_string()),
        };
        let live = self
            .find(&id.ok_or_else(|| ApiError::NotFound("invite".into()))?)
            .await?;
        self.take_seat(&live, session, code).await
    }

    /// `session` takes the open seat of the game whose invite code is `code`.
    pub async fn join_by_code(
        self: &Arc<Hub>,
        session: &SessionRow,
        code: &str,
    ) -> Result<GameState, ApiError> {
        self.join(session, code, code).await
    }

    async fn take_seat(
        self: &Arc<Hub>,
        live: &Arc<LiveGame>,
        session: &SessionRow,
        code: &str,
    ) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        let seat = Seat::Person {
            session: session.id.clone(),
            name: session.name.clone(),
        };
        let change = game.prepare_join(seat, code, Instant::now(), now_ms())?;
        self.commit(live, &mut game, change).await?;
        tokio::spawn(referee::run(self.clone(), live.clone(), game.seats.clone()));
        Ok(game.state(Some(&session.id), Instant::now()))
    }

    /// `actor` plays `text` in game `live`, believing it is at `ply`; the state after it.
    pub async fn play(
        &self,
        live: &LiveGame,
        actor: Actor<'_>,
        ply: u64,
        text: &str,
    ) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        let now = Instant::now();
        if let Some(change) = game.prepare_timeout(now, now_ms()) {
            self.commit(live, &mut game, change).await?;
            return Err(ApiError::GameOver);
        }
        let change = game.prepare_move(actor, ply, text, now, now_ms())?;
        self.commit(live, &mut game, change).await?;
        Ok(game.state(actor.viewer(), Instant::now()))
    }

    pub async fn resign(&self, live: &LiveGame, actor: Actor<'_>) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        let change = game.prepare_resign(actor, Instant::now(), now_ms())?;
        self.commit(live, &mut game, change).await?;
        Ok(game.state(actor.viewer(), Instant::now()))
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

    /// A short search of the position of game `id`.
    pub async fn analyse(&self, id: &str, ms: u64) -> Result<AnalysisView, ApiError> {
        let position: AnyGame = self.find(id).await?.game.lock().await.position.clone();
        let _permit = self
            .analyses
            .try_acquire()
            .map_err(|_| ApiError::Busy("every search thread is in use; try again soon"))?;
        let time = std::time::Duration::from_millis(ms).min(self.limits.analysis);
        let analysis = tokio::task::spawn_blocking(move || {
            let mut config = MctsConfig::new(Budget::Time(time), 1);
            // The heat map shows a search of the time asked for, not one cut short once its
            // move is settled.
            config.settings.stop_early = false;
            let analysis = Mcts::new("analysis", config, rand::random()).analyse(&position, None);
            let topology = position.topology();
            let name = |mv: &toroid_rules::Move| mv.notation(topology).to_string();
            AnalysisView {
                simulations: analysis.simulations,
                moves: analysis
                    .moves
                    .iter()
                    .map(|m| MoveAnalysis {
                        mv: name(&m.mv),
                        visits: m.visits,
                        win_rate: m.win_rate,
                        pv: m.pv.iter().map(name).collect(),
                    })
                    .collect(),
                visit_map: analysis.visit_map,
            }
        })
        .await
        .map_err(|_| ApiError::Busy("the search failed"))?;
        Ok(analysis)
    }
}

fn random_color() -> Color {
    Color::BOTH[usize::from(rand::random::<bool>())]
}

/// A time control from the API's seconds, checked.
fn time_control(clock: ClockSettings) -> Result<TimeControl, ApiError> {
    let ok = |s: f64, min: f64, max: f64| s.is_finite() && (min..=max).contains(&s);
    if !ok(clock.initial_s, 1.0, 86_400.0) || !ok(clock.increment_s, 0.0, 3_600.0) {
        return Err(ApiError::BadRequest(
            "a clock has initial_s from 1 to 86400 seconds and increment_s from 0 to 3600".into(),
        ));
    }
    Ok(TimeControl {
        initial_ms: (clock.initial_s * 1000.0).round() as i64,
        increment_ms: (clock.increment_s * 1000.0).round() as i64,
    })
}

//! Games in play: moves, resignations, deadlines (the flag, a first move overdue), and
//! analysis of a position.

pub mod routes;
pub mod wire;
pub mod ws;

use std::sync::Arc;
use std::time::Instant;

use toroid_rules::{AnyGame, Color, Position};

use crate::api::{AnalysisView, GameState, MoveAnalysis};
use crate::error::ApiError;
use crate::game::{Actor, CountingAct, Game, GameError, MoveInput, RematchStep};
use crate::ids::now_ms;
use crate::model::{Offer, Seat, Status};

use super::{lock, Hub, LiveGame};

/// What a player may do in a live game besides moving, named as in the API
/// (`POST /api/games/{id}/{action}`, and the `type` of a WebSocket message).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    Resign,
    /// Offers a draw, or accepts the opponent's offer.
    Draw,
    /// Declines the opponent's offer, or withdraws one's own.
    DeclineDraw,
    /// Ends the game without a result before both sides have moved.
    Abort,
    /// Wins a game whose opponent has left (`Limits::leave_grace`).
    ClaimVictory,
    /// Asks to take back one's last turn, or accepts the opponent's request (casual games
    /// between people, or against a house bot, which accepts at once).
    Takeback,
    /// Declines the opponent's takeback request, or withdraws one's own.
    DeclineTakeback,
    /// Once a game between two people is over: offers a rematch (the colours swapped), or
    /// accepts the opponent's offer, which opens the new game.
    Rematch,
    /// Declines the opponent's rematch offer, or withdraws one's own.
    DeclineRematch,
    /// Disputes the dead stones marked after two passes (`scoring_phase=agreement`): play
    /// goes on, and the stones captured until the next two passes count as dead.
    ResumePlay,
    /// Withdraws a waiting game one created: it ends without a result, unless someone took
    /// its open seat first.
    Withdraw,
}

impl Hub {
    /// `actor` plays `input` in game `live`, believing it is at `ply`; the state after it.
    pub async fn play(
        &self,
        live: &LiveGame,
        actor: Actor<'_>,
        ply: u64,
        input: MoveInput<'_>,
    ) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        // A copy at the ply the player saw is taken as current (the other nodes' moves
        // reach it as events): the database refuses the move if it is not, and the game is
        // reloaded then. Any other copy is reloaded first.
        if game.status != Status::Live || game.moves.len() as u64 != ply {
            self.reload(&mut game).await?;
        }
        let now = Instant::now();
        if let Some(change) = game.prepare_timeout(now, now_ms()) {
            self.commit(live, &mut game, change).await?;
            return Err(ApiError::GameOver);
        }
        let change = game.prepare_move(actor, ply, input, now, now_ms())?;
        self.commit(live, &mut game, change).await?;
        self.acted(live, &game, actor).await;
        Ok(game.state(actor.viewer(), Instant::now()))
    }

    /// `actor` resigns, offers, accepts or declines a draw, a takeback or a rematch, aborts
    /// or claims victory in game `live`; the state after it.
    pub async fn act(
        self: &Arc<Hub>,
        live: &LiveGame,
        actor: Actor<'_>,
        action: Action,
    ) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        self.reload(&mut game).await?;
        // No rematch, offered or accepted, between two players one of whom blocks the other.
        let mover = game.colors_of(actor).first().copied();
        if let (Action::Rematch, Some(color), [Some(_), Some(_)]) = (action, mover, &game.seats) {
            let seat = |c: Color| game.seats[c.index()].as_ref().expect("both seats taken");
            self.check_not_blocked(seat(color), seat(color.opponent()))
                .await?;
        }
        let (now, at) = (Instant::now(), now_ms());
        let change = match action {
            Action::Resign => game.prepare_resign(actor, now, at)?,
            Action::Draw => game.prepare_draw(actor, now, at)?,
            Action::DeclineDraw => game.prepare_decline(actor, Offer::Draw, at)?,
            Action::Takeback => game.prepare_takeback(actor, now, at)?,
            Action::DeclineTakeback => game.prepare_decline(actor, Offer::Takeback, at)?,
            Action::DeclineRematch => game.prepare_decline(actor, Offer::Rematch, at)?,
            Action::Rematch => match game.prepare_rematch(actor, at)? {
                RematchStep::Offer(change) => *change,
                RematchStep::Open(seats) => {
                    self.open_rematch(live, &mut game, seats, actor).await?;
                    return Ok(game.state(actor.viewer(), Instant::now()));
                }
            },
            Action::Abort => game.prepare_abort(actor, now, at)?,
            Action::ResumePlay => game.prepare_counting(actor, CountingAct::Resume, now, at)?,
            Action::Withdraw => game.prepare_withdraw(actor, at)?,
            Action::ClaimVictory => {
                let change = game.prepare_claim_victory(actor, now, at)?;
                self.check_opponent_gone(live, &game, actor).await?;
                change
            }
        };
        if !change.writes.is_empty() {
            self.commit(live, &mut game, change).await?;
        }
        self.acted(live, &game, actor).await;
        Ok(game.state(actor.viewer(), Instant::now()))
    }

    /// `actor` marks or accepts dead stones in game `live` (`Game::prepare_counting`); the
    /// state after it.
    pub async fn count(
        &self,
        live: &LiveGame,
        actor: Actor<'_>,
        act: CountingAct<'_>,
    ) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        self.reload(&mut game).await?;
        let change = game.prepare_counting(actor, act, Instant::now(), now_ms())?;
        self.commit(live, &mut game, change).await?;
        self.acted(live, &game, actor).await;
        Ok(game.state(actor.viewer(), Instant::now()))
    }

    /// A person who acts in a game is present in it.
    pub(super) async fn acted(&self, live: &LiveGame, game: &Game, actor: Actor<'_>) {
        if let Actor::Session(session) = actor {
            if let Some(color) = game.color_of(session) {
                self.player_seen(live, color).await;
            }
        }
    }

    /// The person playing `color` in `live` is present now: a WebSocket of theirs on the
    /// game is open (refreshed at every ping) or they act. Kept in the game here, and in
    /// Redis for the other nodes of a cluster.
    pub async fn player_seen(&self, live: &LiveGame, color: Color) {
        let now = now_ms();
        lock(&live.seen)[color.index()] = Some(now);
        if let Some(cluster) = &self.cluster {
            if let Err(error) = cluster.player_seen(&live.id, color, now).await {
                tracing::warn!(game = %live.id, %error, "cannot share a player's presence");
            }
        }
    }

    /// Whether `actor`'s opponent in `game` has been gone for `Limits::leave_grace`
    /// ([`Hub::gone_since`]).
    async fn check_opponent_gone(
        &self,
        live: &LiveGame,
        game: &Game,
        actor: Actor<'_>,
    ) -> Result<(), ApiError> {
        let grace = self.limits.leave_grace;
        let mine = game.colors_of(actor);
        let opponent = Color::BOTH.into_iter().find(|c| !mine.contains(c));
        let since = match opponent {
            Some(color) => self.gone_since(live, game, color).await?,
            None => None,
        };
        match since {
            Some(since) if now_ms() - since >= grace.as_millis() as i64 => Ok(()),
            _ => Err(GameError::OpponentPresent(grace).into()),
        }
    }

    /// In how many milliseconds (0 for now) the player of `color` in `live` may claim
    /// victory over an opponent who has left; `None` while the opponent is here or the game
    /// is not being played.
    pub async fn claim_in(&self, live: &LiveGame, color: Color) -> Result<Option<i64>, ApiError> {
        let game = live.game.lock().await;
        if game.status != Status::Live {
            return Ok(None);
        }
        let since = self.gone_since(live, &game, color.opponent()).await?;
        let grace = self.limits.leave_grace.as_millis() as i64;
        Ok(since.map(|since| (since + grace - now_ms()).max(0)))
    }

    /// Since when (ms since the epoch) the player of `color` in `game` has been gone: a
    /// registered bot since it disconnected; a person since they were last present (a
    /// WebSocket of theirs on the game, renewed at every ping, or an action; counted from
    /// the game's creation at most), once two pings have passed without them. `None` while
    /// present, and for a house bot, which never leaves.
    pub async fn gone_since(
        &self,
        live: &LiveGame,
        game: &Game,
        color: Color,
    ) -> Result<Option<i64>, ApiError> {
        let last_seen = match &game.seats[color.index()] {
            Some(Seat::Bot { bot, .. }) => match self.bot_online(bot).await? {
                true => return Ok(None),
                false => self.storage.bot_seen_until(bot).await?,
            },
            Some(Seat::Person { .. }) => match &self.cluster {
                Some(cluster) => (cluster.player_last_seen(&live.id, color).await)
                    .map_err(super::bots::unreachable)?,
                None => lock(&live.seen)[color.index()],
            },
            Some(Seat::House { .. }) | None => return Ok(None),
        };
        let since = last_seen.unwrap_or(game.created_at).max(game.created_at);
        let away = now_ms() - since;
        let person = matches!(game.seats[color.index()], Some(Seat::Person { .. }));
        let missed_pings = away > 2 * self.limits.ping_interval.as_millis() as i64;
        Ok((!person || missed_pings).then_some(since))
    }

    /// Ends the game if its deadline has passed (`Game::prepare_timeout`); whether it did.
    pub async fn end_if_overdue(&self, live: &LiveGame) -> Result<bool, ApiError> {
        let mut game = live.game.lock().await;
        self.reload(&mut game).await?;
        match game.prepare_timeout(Instant::now(), now_ms()) {
            Some(change) => {
                self.commit(live, &mut game, change).await?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// A short search of the position of game `id`, for `viewer` (a session id) if it may
    /// have one now.
    pub async fn analyse(
        &self,
        id: &str,
        viewer: Option<&str>,
        ms: u64,
    ) -> Result<AnalysisView, ApiError> {
        let position: AnyGame = {
            let live = self.find(id).await?;
            let game = live.game.lock().await;
            if !game.analysis_open_to(viewer) {
                return Err(ApiError::NoAnalysis);
            }
            game.position.clone()
        };
        let _permit = self
            .analyses
            .try_acquire()
            .map_err(|_| ApiError::Busy("every search thread is in use; try again soon"))?;
        let time = std::time::Duration::from_millis(ms).min(self.limits.analysis);
        // A client that hangs up drops this future, which calls the search off.
        let analysis = self
            .house
            .analyse(position.clone(), time)
            .await
            .ok_or(ApiError::Busy("the search failed"))?;
        let name = |mv: &toroid_rules::Move| mv.notation(position.topology()).to_string();
        let analysis = AnalysisView {
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
        };
        Ok(analysis)
    }
}

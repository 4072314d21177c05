//! Games in play: moves, resignations, deadlines (the flag, a first move overdue), and
//! analysis of a position.

use std::time::Instant;

use toroid_rules::{AnyGame, Color, Position};

use crate::api::{AnalysisView, GameState, MoveAnalysis};
use crate::error::ApiError;
use crate::game::{Actor, Game, GameError, MoveInput};
use crate::ids::now_ms;
use crate::seat::Seat;

use super::{Hub, LiveGame};

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
        self.reload(&mut game).await?;
        let now = Instant::now();
        if let Some(change) = game.prepare_timeout(now, now_ms()) {
            self.commit(live, &mut game, change).await?;
            return Err(ApiError::GameOver);
        }
        let change = game.prepare_move(actor, ply, input, now, now_ms())?;
        self.commit(live, &mut game, change).await?;
        Ok(game.state(actor.viewer(), Instant::now()))
    }

    /// `actor` resigns, offers or declines a draw, aborts or claims victory in game `live`;
    /// the state after it.
    pub async fn act(
        &self,
        live: &LiveGame,
        actor: Actor<'_>,
        action: Action,
    ) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        self.reload(&mut game).await?;
        let (now, at) = (Instant::now(), now_ms());
        let change = match action {
            Action::Resign => game.prepare_resign(actor, now, at)?,
            Action::Draw => game.prepare_draw(actor, now, at)?,
            Action::DeclineDraw => game.prepare_decline_draw(actor, at)?,
            Action::Abort => game.prepare_abort(actor, now, at)?,
            Action::ClaimVictory => {
                let change = game.prepare_claim_victory(actor, now, at)?;
                self.check_opponent_gone(&game, actor).await?;
                change
            }
        };
        if !change.writes.is_empty() {
            self.commit(live, &mut game, change).await?;
        }
        Ok(game.state(actor.viewer(), Instant::now()))
    }

    /// Whether `actor`'s opponent in `game` has left: a registered bot that has been
    /// disconnected for `Limits::leave_grace`. (A person's presence is not tracked across the
    /// nodes of a cluster; against a person, the clock or the abandon rule ends the game.)
    async fn check_opponent_gone(&self, game: &Game, actor: Actor<'_>) -> Result<(), ApiError> {
        let grace = self.limits.leave_grace;
        let present = Err(GameError::OpponentPresent(grace).into());
        let mine = game.colors_of(actor);
        let Some(opponent) = Color::BOTH
            .into_iter()
            .find(|c| !mine.contains(c))
            .and_then(|c| game.seats[c.index()].as_ref())
            .and_then(Seat::bot_id)
        else {
            return present;
        };
        if self.bot_online(opponent).await? {
            return present;
        }
        let gone_since = self.storage.bot_seen_until(opponent).await?;
        // A bot that never connected is gone since the game started.
        let since = gone_since.unwrap_or(game.created_at).max(game.created_at);
        match now_ms() - since >= grace.as_millis() as i64 {
            true => Ok(()),
            false => present,
        }
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

//! Games in play: moves, resignations, deadlines (the flag, a first move overdue), and
//! analysis of a position.

use std::time::Instant;

use toroid_rules::{AnyGame, Position};

use crate::api::{AnalysisView, GameState, MoveAnalysis};
use crate::error::ApiError;
use crate::game::{Actor, MoveInput};
use crate::ids::now_ms;

use super::{Hub, LiveGame};

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

    pub async fn resign(&self, live: &LiveGame, actor: Actor<'_>) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        self.reload(&mut game).await?;
        let change = game.prepare_resign(actor, Instant::now(), now_ms())?;
        self.commit(live, &mut game, change).await?;
        Ok(game.state(actor.viewer(), Instant::now()))
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

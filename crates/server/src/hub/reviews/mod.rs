//! Reviews of finished games, as lichess's computer analysis: asked for once from a game's
//! page, made by the house engine in the background (one search a position), stored as it
//! goes, so that every visitor sees the progress and, once made, the review at once. Each
//! move is judged by the chance to win it gave away: lichess's thresholds.
//!
//! The row is the task's: the task that started it (`owner`) writes each position as it is
//! searched, under that condition. A task that dies (its node stopped) leaves a row that
//! stops changing; a minute later anyone's next ask starts it again, on any node.

mod queries;
pub mod routes;
pub mod wire;

use std::sync::Arc;
use std::time::Duration;

use toroid_rules::{AnyGame, Color, Move, Outcome, Position};

use crate::error::ApiError;
use crate::game::Game;
use crate::ids::{new_id, now_ms};
use crate::model::Status;
use crate::storage::{StorageError, Write};
use wire::{Finding, ReviewView, ReviewedMove, ReviewedPosition};

use super::{Hub, LiveGame};

/// The search a position gets.
const SEARCH: Duration = Duration::from_millis(400);
/// A review whose task wrote nothing for this long is taken to have died.
const STALE: Duration = Duration::from_secs(60);
/// Reviews a node makes at once; more asks are answered `busy`.
pub const AT_ONCE: usize = 2;
/// The chance to win a move may give away before it is an inaccuracy, a mistake or a
/// blunder: lichess's thresholds (0.1, 0.2 and 0.3 in its winning chances, from −1 to 1),
/// in chances from 0 to 1.
const JUDGEMENTS: [(f64, &str); 3] = [(0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy")];

/// A review as stored: its status, how many positions it covers, those done so far.
pub struct StoredReview {
    pub status: String,
    pub total: i64,
    pub points: Vec<Finding>,
    pub updated_at: i64,
}

impl Hub {
    /// The review of game `id` so far.
    pub async fn review(&self, id: &str) -> Result<ReviewView, ApiError> {
        let moves = named_moves(&*self.finished_game(id).await?.game.lock().await);
        let stored = self.storage.review(id).await?;
        Ok(view(stored.as_ref(), &moves))
    }

    /// Starts the review of finished game `id`, unless it is under way or made: the review
    /// so far.
    pub async fn request_review(self: &Arc<Hub>, id: &str) -> Result<ReviewView, ApiError> {
        let (positions, moves) = {
            let live = self.finished_game(id).await?;
            let game = live.game.lock().await;
            (game.positions()?, named_moves(&game))
        };
        // One made or under way needs no search of this node's.
        let shown = view(self.storage.review(id).await?.as_ref(), &moves);
        if matches!(shown.status, "running" | "done") {
            return Ok(shown);
        }
        let permit = (self.reviews.clone().try_acquire_owned()).map_err(|_| {
            ApiError::Busy("the server is making as many reviews as it may; try again soon")
        })?;
        let (owner, at) = (new_id(), now_ms());
        let start = Write::ReviewStart {
            game_id: id.to_string(),
            owner: owner.clone(),
            total: positions.len() as i64,
            at,
            stale_before: at - STALE.as_millis() as i64,
        };
        match self.storage.commit(vec![start]).await {
            Ok(()) => {
                let hub = self.clone();
                let id = id.to_string();
                tokio::spawn(async move {
                    let _permit = permit;
                    hub.make_review(&id, &owner, positions).await;
                });
            }
            // Under way or made already.
            Err(StorageError::ReviewTaken) => {}
            Err(error) => return Err(error.into()),
        }
        let stored = self.storage.review(id).await?;
        Ok(view(stored.as_ref(), &moves))
    }

    /// Game `id`, once it is over.
    async fn finished_game(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        let live = self.find(id).await?;
        if live.game.lock().await.status != Status::Finished {
            return Err(ApiError::Conflict(
                "a game is reviewed once it is over".into(),
            ));
        }
        Ok(live)
    }

    /// Searches each of `positions` in turn and stores what it found, as `owner`, until done
    /// or another task takes the review over.
    async fn make_review(&self, id: &str, owner: &str, positions: Vec<AnyGame>) {
        let mut points = Vec::new();
        let last = positions.len() - 1;
        for (ply, position) in positions.into_iter().enumerate() {
            let point = match self.point(position).await {
                Some(point) => point,
                None => {
                    self.save_review(id, owner, "failed", &points).await;
                    return;
                }
            };
            points.push(point);
            let status = if ply == last { "done" } else { "running" };
            if !self.save_review(id, owner, status, &points).await {
                return;
            }
        }
        tracing::info!(game = %id, positions = last + 1, "review made");
    }

    /// Stores the review so far; whether this task still owns it.
    async fn save_review(
        &self,
        id: &str,
        owner: &str,
        status: &'static str,
        points: &[Finding],
    ) -> bool {
        let save = Write::ReviewSave {
            game_id: id.to_string(),
            owner: owner.to_string(),
            status,
            points: serde_json::to_string(points).expect("points serialize"),
            at: now_ms(),
        };
        match self.storage.commit(vec![save]).await {
            Ok(()) => true,
            Err(error) => {
                tracing::warn!(game = %id, %error, "a review stops");
                false
            }
        }
    }

    /// What the engine finds in `position`: the result where the rules ended the game, else
    /// a search's best move and its chance. `None` if the search failed.
    async fn point(&self, position: AnyGame) -> Option<Finding> {
        if let Some(outcome) = position.outcome() {
            return Some(settled(black_share(outcome)));
        }
        let Some(mover) = position.turn() else {
            return Some(settled(0.5));
        };
        let _search = self.analyses.acquire().await.ok()?;
        let analysis = self.house.analyse(position.clone(), SEARCH).await?;
        let Some(best) = analysis.moves.first() else {
            return Some(settled(0.5));
        };
        let chance = best.win_rate.clamp(0.0, 1.0);
        Some(Finding {
            black: if mover == Color::Black {
                chance
            } else {
                1.0 - chance
            },
            best: Some(name(&position, best.mv)),
            line: best.pv.iter().map(|&mv| name(&position, mv)).collect(),
        })
    }
}

/// A position with nothing to search: black's chance is `black`.
fn settled(black: f64) -> Finding {
    Finding {
        black,
        best: None,
        line: Vec::new(),
    }
}

/// `game`'s moves, named, with their colours.
fn named_moves(game: &Game) -> Vec<(Color, String)> {
    let topology = game.position.topology();
    (game.moves.iter())
        .map(|&(color, mv)| (color, mv.notation(topology).to_string()))
        .collect()
}

/// Black's share of `outcome`: 1 for a win, ½ for a draw.
fn black_share(outcome: Outcome) -> f64 {
    match outcome.winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    }
}

fn name(position: &AnyGame, mv: Move) -> String {
    mv.notation(position.topology()).to_string()
}

/// The judgement of a move that gave away `loss` of its mover's chance.
fn judgement(loss: f64) -> Option<&'static str> {
    JUDGEMENTS
        .iter()
        .find(|(at_least, _)| loss >= *at_least)
        .map(|(_, word)| *word)
}

/// The review as the API shows it, of a game of `moves`.
fn view(stored: Option<&StoredReview>, moves: &[(Color, String)]) -> ReviewView {
    let Some(stored) = stored else {
        return ReviewView {
            status: "none",
            done: 0,
            total: moves.len() + 1,
            positions: Vec::new(),
            moves: Vec::new(),
        };
    };
    let status = match stored.status.as_str() {
        "done" => "done",
        "failed" => "failed",
        // One whose task died is as good as failed until someone asks again.
        _ if now_ms() - stored.updated_at > STALE.as_millis() as i64 => "failed",
        _ => "running",
    };
    let points = &stored.points;
    let positions = (points.iter().enumerate())
        .map(|(ply, found)| ReviewedPosition {
            ply,
            found: found.clone(),
        })
        .collect();
    let judged = (moves.iter().enumerate()).take(points.len().saturating_sub(1));
    let moves = judged
        .map(|(i, (color, mv))| {
            let chance = |p: &Finding| {
                if *color == Color::Black {
                    p.black
                } else {
                    1.0 - p.black
                }
            };
            let loss = (chance(&points[i]) - chance(&points[i + 1])).max(0.0);
            ReviewedMove {
                ply: i + 1,
                mv: mv.clone(),
                color: *color,
                loss,
                judgement: judgement(loss),
            }
        })
        .collect();
    ReviewView {
        status,
        done: points.len(),
        total: stored.total as usize,
        positions,
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_judged_by_the_chance_they_gave_away() {
        assert_eq!(judgement(0.04), None);
        assert_eq!(judgement(0.05), Some("inaccuracy"));
        assert_eq!(judgement(0.12), Some("mistake"));
        assert_eq!(judgement(0.6), Some("blunder"));
        let point = settled;
        let stored = StoredReview {
            status: "done".into(),
            total: 3,
            points: vec![point(0.5), point(0.55), point(1.0)],
            updated_at: now_ms(),
        };
        let moves = [
            (Color::Black, "cc".to_string()),
            (Color::White, "dd".to_string()),
        ];
        let review = view(Some(&stored), &moves);
        // Black raised its chance; white's move gave black the game: white lost 0.45.
        assert_eq!(review.moves[0].judgement, None);
        assert_eq!(review.moves[0].loss, 0.0);
        assert!((review.moves[1].loss - 0.45).abs() < 1e-9);
        assert_eq!(review.moves[1].judgement, Some("blunder"));
    }
}

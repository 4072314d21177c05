//! The referee of one live game: a task that ends the game at its deadline (the running
//! clock reaches zero, or a player's first move is overdue), and moves for the house bots. It lives until the game is over.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant as TokioInstant;
use toroid_rules::{Color, Position};
use toroid_search::ownership::house_judgement;

use crate::error::ApiError;
use crate::game::{Actor, CountingAct, MoveInput};
use crate::hub::{Hub, LiveGame};
use crate::model::{Seat, Status};

pub async fn run(hub: Arc<Hub>, live: Arc<LiveGame>, seats: [Option<Seat>; 2]) {
    let levels = seats.map(|s| s.and_then(|s| s.house_level()));
    let mut backoff = Backoff::default();
    loop {
        let (deadline, think, counting) = {
            let game = live.game.lock().await;
            if game.status != Status::Live {
                return;
            }
            let deadline = game.deadline();
            // While the players agree on dead stones, a house bot accepts the marks that are
            // its own judgement (its proposal) and waits while they are not.
            let counting = (game.counting.as_ref()).map(|counting| {
                let waiting: Vec<Color> = (Color::BOTH.into_iter())
                    .filter(|c| levels[c.index()].is_some() && !counting.accepts(*c))
                    .collect();
                (waiting, counting.clone(), game.position.clone())
            });
            let think = game
                .position
                .turn()
                .filter(|_| counting.is_none())
                .and_then(|turn| {
                    levels[turn.index()].map(|level| {
                        (
                            turn,
                            level,
                            game.position.clone(),
                            game.moves.len(),
                            game.clock,
                        )
                    })
                });
            (deadline, think, counting)
        };
        if let Some((waiting, counting, position)) = counting {
            if !waiting.is_empty() && counting.marks(&house_judgement(&position)) {
                let topology = position.topology();
                let dead: Vec<String> = (counting.dead().into_iter())
                    .map(|c| topology.point_name(c).to_string())
                    .collect();
                for color in waiting {
                    let act = CountingAct::Accept(&dead);
                    if let Err(error) = hub.count(&live, Actor::Seat(color), act).await {
                        report(&live, color, &error);
                        backoff.wait_if_storage(&error).await;
                    }
                }
                continue;
            }
        }
        let deadline_passes = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(TokioInstant::from_std(at)).await,
                None => std::future::pending().await,
            }
        };
        match think {
            Some((color, level, position, ply, clock)) => {
                // Leaving this select calls the search off (the deadline, a stop).
                tokio::select! {
                    mv = hub.house.think(level, position, clock, color) => {
                        let played = hub.play(&live, Actor::Seat(color), ply as u64, MoveInput::Move(mv)).await;
                        match played {
                            Ok(_) => backoff.reset(),
                            Err(error) => {
                                report(&live, color, &error);
                                backoff.wait_if_storage(&error).await;
                            }
                        }
                    }
                    () = deadline_passes => check_deadline(&hub, &live, &mut backoff).await,
                    () = hub.stopped() => return,
                }
            }
            None => tokio::select! {
                () = live.wake.notified() => {}
                () = deadline_passes => check_deadline(&hub, &live, &mut backoff).await,
                () = hub.stopped() => return,
            },
        }
    }
}

async fn check_deadline(hub: &Hub, live: &LiveGame, backoff: &mut Backoff) {
    match hub.end_if_overdue(live).await {
        Ok(_) => backoff.reset(),
        Err(error) => {
            tracing::error!(game = %live.id, %error, "cannot end the game at its deadline");
            backoff.wait_if_storage(&error).await;
        }
    }
}

/// How long the referee waits before trying again after storage failed: doubling from
/// 250 ms to 8 s, so a failing database is retried a few times a minute, not in a loop.
#[derive(Default)]
struct Backoff {
    failures: u32,
}

impl Backoff {
    const FIRST: Duration = Duration::from_millis(250);
    const MAX: Duration = Duration::from_secs(8);

    fn reset(&mut self) {
        self.failures = 0;
    }

    async fn wait_if_storage(&mut self, error: &ApiError) {
        if !matches!(error, ApiError::Storage(_)) {
            return;
        }
        let wait = Self::FIRST
            .saturating_mul(1 << self.failures.min(16))
            .min(Self::MAX);
        self.failures += 1;
        tokio::time::sleep(wait).await;
    }
}

fn report(live: &LiveGame, color: Color, error: &ApiError) {
    // A person may resign while the bot thinks: then its move comes too late, as it should.
    if !matches!(error, ApiError::GameOver) {
        tracing::error!(game = %live.id, %color, %error, "house bot's move refused");
    }
}

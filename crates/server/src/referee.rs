//! The referee of one live game: a task that ends the game at its deadline (the running
//! clock reaches zero, or a player's first move is overdue), and moves for the house bots. It lives until the game is over.

use std::sync::Arc;

use tokio::time::Instant as TokioInstant;
use toroid_rules::Bot;
use toroid_rules::{Color, Position};

use crate::game::{Actor, MoveInput};
use crate::hub::{Hub, LiveGame};
use crate::seat::Seat;
use crate::storage::Status;

pub async fn run(hub: Arc<Hub>, live: Arc<LiveGame>, seats: [Option<Seat>; 2]) {
    let levels = seats.map(|s| s.and_then(|s| s.house_level()));
    // Bots keep their search trees from move to move; one lost to a time-out is rebuilt.
    let mut bots: [Option<Box<dyn Bot>>; 2] = [None, None];
    loop {
        let (deadline, think) = {
            let game = live.game.lock().await;
            if game.status != Status::Live {
                return;
            }
            let deadline = game.deadline();
            let think = game.position.turn().and_then(|turn| {
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
            (deadline, think)
        };
        let deadline_passes = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(TokioInstant::from_std(at)).await,
                None => std::future::pending().await,
            }
        };
        match think {
            Some((color, level, position, ply, clock)) => {
                let bot = bots[color.index()]
                    .take()
                    .unwrap_or_else(|| hub.house.bot(level));
                tokio::select! {
                    (bot, mv) = hub.house.think(bot, position.clone(), clock, color) => {
                        bots[color.index()] = Some(bot);
                        let played = hub.play(&live, Actor::Seat(color), ply as u64, MoveInput::Move(mv)).await;
                        if let Err(error) = played {
                            report(&live, color, &error);
                        }
                    }
                    () = deadline_passes => check_deadline(&hub, &live).await,
                    () = hub.stopped() => return,
                }
            }
            None => tokio::select! {
                () = live.wake.notified() => {}
                () = deadline_passes => check_deadline(&hub, &live).await,
                () = hub.stopped() => return,
            },
        }
    }
}

async fn check_deadline(hub: &Hub, live: &LiveGame) {
    if let Err(error) = hub.end_if_overdue(live).await {
        tracing::error!(game = %live.id, %error, "cannot end the game at its deadline");
        // Storage failed: try again shortly rather than spin.
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

fn report(live: &LiveGame, color: Color, error: &crate::error::ApiError) {
    // A person may resign while the bot thinks: then its move comes too late, as it should.
    if !matches!(error, crate::error::ApiError::GameOver) {
        tracing::error!(game = %live.id, %color, %error, "house bot's move refused");
    }
}

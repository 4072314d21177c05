//! House bots on the server: each move is searched on a blocking thread, one thread per bot,
//! with at most as many bots thinking at once as there are cores, and every search capped in
//! time so that a person never waits long (the clock's allowance caps it further).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use toroid_rules::Bot;
use toroid_rules::{AnyGame, Color, Move};
use toroid_search::{Budget, Level, RandomBot};

use crate::clock::Clock;

pub struct House {
    thinking: Arc<Semaphore>,
    move_cap: Duration,
}

impl House {
    /// At most `threads` bots think at once; no search spends more than `move_cap` a move.
    pub fn new(threads: usize, move_cap: Duration) -> House {
        House {
            thinking: Arc::new(Semaphore::new(threads.max(1))),
            move_cap,
        }
    }

    /// A bot of `level` on one thread, its time budget (strong, max) capped.
    pub fn bot(&self, level: Level) -> Box<dyn Bot> {
        let budget = level
            .search_config()
            .and_then(|config| match config.budget {
                Budget::Time(t) => Some(Budget::Time(t.min(self.move_cap))),
                Budget::Playouts(_) => None,
            });
        level.bot_with(rand::random(), Some(1), budget)
    }

    /// `bot`'s move for `color` in `position`; the clock is read when a thread is free, so
    /// waiting for one counts against the bot's own time and the search stays within it.
    pub async fn think(
        &self,
        mut bot: Box<dyn Bot>,
        position: AnyGame,
        clock: Option<Clock>,
        color: Color,
    ) -> (Box<dyn Bot>, Move) {
        let permit = self
            .thinking
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let fallback = position.clone();
        let search = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let time = clock.map(|c| c.time_left(color, Instant::now()));
            let mv = bot.choose(&position, time);
            (bot, mv)
        });
        match search.await {
            Ok(done) => done,
            Err(error) => {
                // A search that panicked must not stop the game: play a random move.
                tracing::error!(%error, "house bot failed; playing a random move");
                let mut random = RandomBot::new(rand::random());
                let mv = random.choose(&fallback, None);
                (Box::new(random), mv)
            }
        }
    }
}

//! The server's searches: house bots' moves and analyses. They share the processor fairly
//! (`Cpu`): at most one search per core runs at once, and each runs a slice at a time
//! before the search that has waited longest takes its turn, so a search on a huge board
//! cannot starve a quick one on a small board. Each search has a deadline counted from when
//! it was asked for, set-up work included, and stops as soon as nobody waits for its answer
//! (the game ended, the client hung up): dropping the future that waits for it calls it off.
//!
//! A house bot is made for each move and dropped with its tree once it has moved, so the
//! memory of house bots is that of the searches running now, each capped at
//! [`SEARCH_NODES`] nodes, whatever the number of games.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

use toroid_rules::Bot;
use toroid_rules::{AnyGame, Color, Move};
use toroid_search::{Analysis, Budget, Level, Mcts, MctsConfig, Pace, RandomBot, Tuning};

use crate::clock::Clock;
use crate::hub::lock;

/// How long a search runs before another that waits takes its turn: short enough that a
/// quick search hardly waits, long enough that switching costs nothing.
pub const SLICE: Duration = Duration::from_millis(20);

/// Nodes a server search's tree may hold (about 40 bytes each, so 20 MB): beyond it the
/// search goes on without growing its tree.
pub const SEARCH_NODES: usize = 500_000;

pub struct House {
    cpu: Arc<Cpu>,
    move_cap: Duration,
}

impl House {
    /// At most `threads` searches run at once; no house bot spends more than `move_cap` on
    /// a move, from when the move is asked for.
    pub fn new(threads: usize, move_cap: Duration) -> House {
        House {
            cpu: Arc::new(Cpu::new(threads)),
            move_cap,
        }
    }

    /// A move of a bot of `level` for `color` in `position`, within the move cap and the
    /// clock's allowance: waiting for a turn on the processor counts against both. The
    /// clock is read when the search begins.
    pub async fn think(
        &self,
        level: Level,
        position: AnyGame,
        clock: Option<Clock>,
        color: Color,
    ) -> Move {
        // Strong and max search for a time: capped, so that the search plans for it.
        let budget = level
            .search_config()
            .and_then(|config| match config.budget {
                Budget::Time(t) => Some(Budget::Time(t.min(self.move_cap))),
                Budget::Playouts(_) => None,
            });
        let fallback = position.clone();
        let search = self.search(self.move_cap, move |pace| {
            let tuning = Tuning {
                threads: Some(1),
                budget,
                max_nodes: Some(SEARCH_NODES),
                pace: Some(pace),
                ..Tuning::default()
            };
            let time = clock.map(|c| c.time_left(color, Instant::now()));
            level
                .bot_with(rand::random(), tuning)
                .choose(&position, time)
        });
        match search.await {
            Ok(mv) => mv,
            Err(error) => {
                // A search that panicked must not stop the game: play a random move.
                tracing::error!(%error, "house bot failed; playing a random move");
                RandomBot::new(rand::random()).choose(&fallback, None)
            }
        }
    }

    /// A search of `position` for `time` (the heat map shows a search of the time asked
    /// for, not one cut short once its move is settled); `None` if it failed.
    pub async fn analyse(&self, position: AnyGame, time: Duration) -> Option<Analysis> {
        let mut config = MctsConfig::new(Budget::Time(time), 1);
        config.settings.stop_early = false;
        config.settings.max_nodes = SEARCH_NODES;
        let search = self.search(time, move |pace| {
            Mcts::new("analysis", config, rand::random())
                .with_pace(pace)
                .analyse(&position, None)
        });
        search.await.ok()
    }

    /// Runs `work` on a blocking thread with a share of the processor that lasts `spend` at
    /// most, its [`Pace`]; dropping the returned future calls it off.
    async fn search<T: Send + 'static>(
        &self,
        spend: Duration,
        work: impl FnOnce(Arc<dyn Pace>) -> T + Send + 'static,
    ) -> Result<T, tokio::task::JoinError> {
        let share = Share::new(self.cpu.clone(), spend);
        let _call_off = CallOff(Arc::downgrade(&share));
        let start = Instant::now();
        // The work holds the only strong handle: when it ends, or panics, the share is
        // dropped and its core goes back at once.
        let done = tokio::task::spawn_blocking(move || work(share)).await;
        metrics::histogram!("toroid_house_search_seconds").record(crate::metrics::since(start));
        done
    }
}

/// The cores lent to searches, one search each at a time, in the order they asked.
struct Cpu {
    turns: Mutex<Turns>,
    changed: Condvar,
}

struct Turns {
    /// Cores no search holds.
    free: usize,
    /// Tickets of the searches waiting for a core, longest waiting first.
    waiting: VecDeque<u64>,
    next_ticket: u64,
}

impl Cpu {
    fn new(cores: usize) -> Cpu {
        Cpu {
            turns: Mutex::new(Turns {
                free: cores.max(1),
                waiting: VecDeque::new(),
                next_ticket: 0,
            }),
            changed: Condvar::new(),
        }
    }

    /// Waits until `share` may run on a core: a core is free and no search has waited
    /// longer. `false`, holding no core, if `share` is over first.
    fn take(&self, share: &Share) -> bool {
        let mut turns = lock(&self.turns);
        let ticket = turns.next_ticket;
        turns.next_ticket += 1;
        turns.waiting.push_back(ticket);
        loop {
            if share.over() {
                turns.waiting.retain(|&t| t != ticket);
                // The next in line may be free to go now.
                self.changed.notify_all();
                return false;
            }
            if turns.free > 0 && turns.waiting.front() == Some(&ticket) {
                turns.waiting.pop_front();
                turns.free -= 1;
                self.changed.notify_all();
                return true;
            }
            let until_over = share.deadline.saturating_duration_since(Instant::now());
            turns = self
                .changed
                .wait_timeout(turns, until_over)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
    }

    fn give_back(&self) {
        lock(&self.turns).free += 1;
        self.changed.notify_all();
    }

    /// Whether a search waits for a core.
    fn wanted(&self) -> bool {
        !lock(&self.turns).waiting.is_empty()
    }

    /// Wakes the waiting searches, so that one that is called off stops waiting.
    fn wake(&self) {
        let _turns = lock(&self.turns);
        self.changed.notify_all();
    }
}

/// One search's share of the [`Cpu`]: its [`Pace`].
struct Share {
    cpu: Arc<Cpu>,
    deadline: Instant,
    called_off: AtomicBool,
    /// Since when it holds a core, while it does.
    running_since: Mutex<Option<Instant>>,
    /// When it asked for its first core, until it got it (for the metrics).
    asked_at: Mutex<Option<Instant>>,
}

impl Share {
    fn new(cpu: Arc<Cpu>, spend: Duration) -> Arc<Share> {
        Arc::new(Share {
            cpu,
            deadline: Instant::now() + spend,
            called_off: AtomicBool::new(false),
            running_since: Mutex::new(None),
            asked_at: Mutex::new(Some(Instant::now())),
        })
    }

    fn over(&self) -> bool {
        self.called_off.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }
}

/// The search ended, finished or not: its core goes back.
impl Drop for Share {
    fn drop(&mut self) {
        let running = self.running_since.get_mut();
        if running.unwrap_or_else(|e| e.into_inner()).take().is_some() {
            self.cpu.give_back();
        }
    }
}

impl Pace for Share {
    fn go_on(&self) -> bool {
        let mut running_since = lock(&self.running_since);
        if self.over() {
            if running_since.take().is_some() {
                self.cpu.give_back();
            }
            return false;
        }
        if let Some(since) = *running_since {
            if since.elapsed() < SLICE {
                return true;
            }
            if !self.cpu.wanted() {
                *running_since = Some(Instant::now());
                return true;
            }
            // The slice is over and another search waits: to the back of the line.
            *running_since = None;
            self.cpu.give_back();
        }
        let granted = self.cpu.take(self);
        if granted {
            *running_since = Some(Instant::now());
            if let Some(asked) = lock(&self.asked_at).take() {
                metrics::histogram!("toroid_house_queue_seconds")
                    .record(crate::metrics::since(asked));
            }
        }
        granted
    }
}

/// Calls its search off when dropped: whoever waited for the answer has gone. It does not
/// keep the share alive: a search that ended has given its core back already.
struct CallOff(Weak<Share>);

impl Drop for CallOff {
    fn drop(&mut self) {
        if let Some(share) = self.0.upgrade() {
            share.called_off.store(true, Ordering::Relaxed);
            share.cpu.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that runs `work` units of 1 ms, asking its pace between them; when it
    /// finished (or was stopped).
    fn spin(share: Arc<Share>, work: u32) -> std::thread::JoinHandle<Instant> {
        std::thread::spawn(move || {
            for _ in 0..work {
                if !share.go_on() {
                    break;
                }
                let until = Instant::now() + Duration::from_millis(1);
                while Instant::now() < until {}
            }
            drop(share);
            Instant::now()
        })
    }

    #[test]
    fn a_short_search_is_not_starved_by_long_ones() {
        let cpu = Arc::new(Cpu::new(1));
        let long: Vec<_> = (0..4)
            .map(|_| spin(Share::new(cpu.clone(), Duration::from_secs(30)), 300))
            .collect();
        std::thread::sleep(Duration::from_millis(50));
        let short = spin(Share::new(cpu.clone(), Duration::from_secs(30)), 5);
        let short_done = short.join().unwrap();
        let first_long_done = long.into_iter().map(|h| h.join().unwrap()).min().unwrap();
        // Taking turns, the short search ends within a round of slices, long before the
        // long ones; waiting in line for whole searches, it would end after all of them.
        assert!(short_done < first_long_done);
        assert_eq!(lock(&cpu.turns).free, 1, "every core came back");
    }

    #[test]
    fn a_search_called_off_stops_and_gives_its_core_back() {
        let cpu = Arc::new(Cpu::new(1));
        let running = Share::new(cpu.clone(), Duration::from_secs(30));
        let waiting = Share::new(cpu.clone(), Duration::from_secs(30));
        let first = spin(running.clone(), 100_000);
        std::thread::sleep(Duration::from_millis(10));
        let second = spin(waiting.clone(), 100_000);
        std::thread::sleep(Duration::from_millis(10));
        let called_off = Instant::now();
        drop(CallOff(Arc::downgrade(&running)));
        drop(CallOff(Arc::downgrade(&waiting)));
        for handle in [first, second] {
            assert!(handle.join().unwrap() - called_off < Duration::from_secs(1));
        }
        assert_eq!(lock(&cpu.turns).free, 1);
        assert!(lock(&cpu.turns).waiting.is_empty());
    }

    #[test]
    fn a_search_stops_at_its_deadline_even_while_waiting() {
        let cpu = Arc::new(Cpu::new(1));
        let hog = spin(Share::new(cpu.clone(), Duration::from_millis(500)), 100_000);
        std::thread::sleep(Duration::from_millis(10));
        let asked = Instant::now();
        let late_done = spin(Share::new(cpu.clone(), Duration::from_millis(100)), 100_000)
            .join()
            .unwrap();
        assert!(late_done - asked < Duration::from_millis(400));
        hog.join().unwrap();
        assert_eq!(lock(&cpu.turns).free, 1);
    }

    #[tokio::test]
    async fn a_search_that_panics_gives_its_core_back() {
        let house = House::new(1, Duration::from_secs(2));
        let failed = house
            .search(Duration::from_secs(2), |pace| {
                assert!(pace.go_on(), "the only search gets the core");
                panic!("a bug in a search");
            })
            .await;
        assert!(failed.is_err());
        assert_eq!(lock(&house.cpu.turns).free, 1, "the core came back");
    }
}

//! The Monte Carlo tree search bot: root-parallel search on several threads, tree reuse
//! between moves, pondering on the opponent's time, and budgets.
//!
//! Why root parallelism: each thread grows its own tree from its own seed and the trees are
//! merged by visit count at the end. It needs no locks or atomics in the hot loop, scales
//! well on few cores, and with a playout budget the result depends only on the seed and the
//! thread count (a shared tree with virtual loss depends on thread timing).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use toroid_rules::{AnyGame, Cell, Move};

use crate::analysis::{Analysis, Analyst};
use crate::budget::{moves_left, Budget, Pace, SearchLimits, Stop};
use crate::knowledge::Knowledge;
use crate::search::{Searcher, Settings, ROOT_THREATS};
use toroid_rules::{Bot, TimeLeft};

/// How a search bot is set up.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    /// Threads, each with its own tree (at least 1).
    pub threads: usize,
    /// Keep the subtree of the position reached between two moves.
    pub reuse_tree: bool,
    pub settings: Settings,
}

impl MctsConfig {
    pub fn new(budget: Budget, threads: usize) -> MctsConfig {
        MctsConfig {
            budget,
            threads: threads.max(1),
            reuse_tree: true,
            settings: Settings::default(),
        }
    }
}

/// The number of cores, for searches that should use all of them.
pub fn all_cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// A Monte Carlo tree search bot. Deterministic under its seed for a playout budget and a
/// fixed thread count.
pub struct Mcts {
    name: String,
    config: MctsConfig,
    searchers: Vec<Searcher>,
    pace: Option<Arc<dyn Pace>>,
}

impl Mcts {
    pub fn new(name: impl Into<String>, config: MctsConfig, seed: u64) -> Mcts {
        let threads = config.threads.max(1);
        let searchers = (0..threads as u64)
            .map(|i| Searcher::new(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        Mcts {
            name: name.into(),
            config: MctsConfig { threads, ..config },
            searchers,
            pace: None,
        }
    }

    /// The same bot, asking `pace` between simulations and set-up steps.
    pub fn with_pace(mut self, pace: Arc<dyn Pace>) -> Mcts {
        self.pace = Some(pace);
        self
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Searches `game` within the budget (and the clock `time`, if any) and reports what it
    /// found; the best move is [`Analysis::best_move`]. An empty analysis for a finished game.
    pub fn analyse(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Analysis {
        let settings = self.config.settings;
        toroid_rules::with_game!(game, g => self.search(g, time, settings))
    }

    fn search<P: Knowledge>(
        &mut self,
        root: &P,
        time: Option<TimeLeft>,
        settings: Settings,
    ) -> Analysis {
        let start = Instant::now();
        let cells = root.topology().len();
        if root.turn().is_none() {
            return Analysis::merge(&[], cells, 0, start.elapsed());
        }
        let limits = SearchLimits::new(
            self.config.budget,
            time,
            moves_left(root),
            self.pace.clone(),
        );
        // The moves to avoid may take half the time at most, so that the search has the
        // rest: on the largest boards the scan of every reply to every move can take longer
        // than a short budget, and it returns the moves checked so far when stopped.
        let avoid_stop = Stop::new(
            (limits.stop.deadline).map(|d| start + d.saturating_duration_since(start) / 2),
            limits.stop.pace.clone(),
        );
        let avoid = root.avoid(ROOT_THREATS, &avoid_stop);
        let reuse = self.config.reuse_tree;
        let simulations =
            run_searchers(&mut self.searchers, root, &limits, &avoid, &settings, reuse);
        let trees: Vec<_> = self.searchers.iter().map(|s| &s.tree).collect();
        Analysis::merge(&trees, cells, simulations, start.elapsed())
    }

    /// Searches `root`, the opponent to move, until `stop` is set, on all threads but one (at
    /// least one), so that an opponent engine on the same machine keeps a core. The next
    /// search finds the position after the opponent's move in these trees
    /// ([`MctsConfig::reuse_tree`]) and starts from their statistics.
    fn ponder_on<P: Knowledge>(&mut self, root: &P, stop: Arc<AtomicBool>) {
        if root.turn().is_none() || !self.config.reuse_tree {
            return;
        }
        let limits = SearchLimits {
            playouts: u64::MAX,
            stop: Stop::new(None, Some(Arc::new(Until(stop, self.pace.clone())))),
        };
        // Whether the opponent's best move is settled says nothing about when it will play.
        let settings = Settings {
            stop_early: false,
            ..self.config.settings
        };
        let avoid = root.avoid(ROOT_THREATS, &limits.stop);
        let threads = (self.searchers.len() - 1).max(1);
        run_searchers(
            &mut self.searchers[..threads],
            root,
            &limits,
            &avoid,
            &settings,
            true,
        );
    }
}

/// A pondering search's pace: it goes on until its flag is set, and while the bot's own pace
/// (if any) lets it.
struct Until(Arc<AtomicBool>, Option<Arc<dyn Pace>>);

impl Pace for Until {
    fn go_on(&self) -> bool {
        !self.0.load(Ordering::Relaxed) && self.1.as_ref().is_none_or(|p| p.go_on())
    }
}

/// Runs each searcher's search of `root` on a thread of its own (the calling thread when there
/// is one searcher), the playout budget split evenly, and returns the simulations run in all.
fn run_searchers<P: Knowledge>(
    searchers: &mut [Searcher],
    root: &P,
    limits: &SearchLimits,
    avoid: &[Move],
    settings: &Settings,
    reuse: bool,
) -> u64 {
    let threads = searchers.len() as u64;
    if let [s] = searchers {
        s.prepare(root, reuse, avoid, settings, &limits.stop);
        return s.run(root, limits, settings);
    }
    thread::scope(|scope| {
        let handles: Vec<_> = searchers
            .iter_mut()
            .enumerate()
            .map(|(i, s)| {
                // The playouts split evenly, the first threads taking the remainder.
                let share =
                    limits.playouts / threads + u64::from((i as u64) < limits.playouts % threads);
                let limits = SearchLimits {
                    playouts: share.max(1),
                    stop: limits.stop.clone(),
                };
                scope.spawn(move || {
                    s.prepare(root, reuse, avoid, settings, &limits.stop);
                    s.run(root, &limits, settings)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("search threads do not panic"))
            .sum()
    })
}

impl Analyst for Mcts {
    fn analyse_fully(&mut self, game: &AnyGame) -> Analysis {
        let settings = Settings {
            stop_early: false,
            ..self.config.settings
        };
        toroid_rules::with_game!(game, g => self.search(g, None, settings))
    }
}

impl Bot for Mcts {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Move {
        self.analyse(game, time)
            .best_move()
            .expect("choose is only called on games that are not over")
    }

    fn dead_stones(&mut self, game: &AnyGame) -> Vec<Cell> {
        crate::ownership::house_judgement(game)
    }

    fn ponder(&mut self, game: &AnyGame, stop: Arc<AtomicBool>) {
        toroid_rules::with_game!(game, g => self.ponder_on(g, stop))
    }
}

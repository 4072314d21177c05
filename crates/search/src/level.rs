//! The named house-bot levels (docs/strength.md): the search ladder weakest to strongest,
//! then `zero`.
//!
//! | level      | bot                                                     |
//! |------------|---------------------------------------------------------|
//! | `random`   | a uniformly random legal move ([`RandomBot`])           |
//! | `greedy`   | one ply with a per-game evaluation ([`GreedyBot`])      |
//! | `beginner` | MCTS, 300 playouts a move, 1 thread                     |
//! | `casual`   | MCTS, 3 000 playouts a move, 1 thread                   |
//! | `strong`   | MCTS, 1 s a move, 1 thread                              |
//! | `max`      | MCTS, 4 s a move, every core                            |
//! | `zero`     | PUCT with the rule set's network and a house playout beside it, 800 simulations a move |
//!
//! `zero` plays only the rule sets that have a house network ([`Level::plays`]); it comes
//! last as the newest level, not as the strongest: its place in each rule set's ladder is
//! measured ([`Level::ladder_rating`]).
//!
//! Every MCTS level uses RAVE, the tactical playout policies, tree reuse, and the rule set's
//! forced moves and priors where it has them (`torus`). With a game
//! clock a search level also stops at the clock's allowance
//! ([`crate::budget::clock_allowance`]). Playout levels are deterministic under their seed;
//! time levels depend on the machine's speed.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use thiserror::Error;

use crate::analysis::Analyst;
use crate::budget::{Budget, Pace};
use crate::greedy::GreedyBot;
use crate::mcts::{all_cores, Mcts, MctsConfig};
use crate::random::RandomBot;
use crate::zero::{house_network, HouseZero, ZeroConfig};
use toroid_rules::{Bot, GameKind};

/// A house bot's strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Random,
    Greedy,
    Beginner,
    Casual,
    Strong,
    Max,
    Zero,
}

impl Level {
    /// `zero`'s search: the simulations the strength reports measured it at.
    pub const ZERO_BUDGET: Budget = Budget::Playouts(800);

    /// The share of a house playout's result in each leaf value of `zero`'s search
    /// ([`ZeroConfig::playout_share`]): the house networks are young, and half a playout
    /// raised every rule set's rating but torus's, Go's by nearly 600 Elo (docs/strength.md,
    /// "Playouts beside the network").
    pub const ZERO_PLAYOUT_SHARE: f32 = 0.5;

    /// Every level: the search ladder weakest first, then `zero`.
    pub const ALL: [Level; 7] = [
        Level::Random,
        Level::Greedy,
        Level::Beginner,
        Level::Casual,
        Level::Strong,
        Level::Max,
        Level::Zero,
    ];

    /// Whether this level plays `kind`: every level but `zero`, which needs the rule set's
    /// house network.
    pub fn plays(self, kind: GameKind) -> bool {
        // Asked on every request that names a level: the rule sets' default games are built
        // once, not per question.
        static WITH_NETWORK: OnceLock<Vec<GameKind>> = OnceLock::new();
        self != Level::Zero
            || WITH_NETWORK
                .get_or_init(|| {
                    GameKind::ALL
                        .into_iter()
                        .filter(|kind| {
                            (kind.new_game::<&str>(&[]).ok())
                                .is_some_and(|game| house_network(&game).is_some())
                        })
                        .collect()
                })
                .contains(&kind)
    }

    /// The levels that play `kind`, weakest first.
    pub fn playing(kind: GameKind) -> impl Iterator<Item = Level> {
        Level::ALL
            .into_iter()
            .filter(move |level| level.plays(kind))
    }

    /// This level, if it plays `kind`.
    pub fn for_game(self, kind: GameKind) -> Result<Level, NoNetwork> {
        if self.plays(kind) {
            Ok(self)
        } else {
            Err(NoNetwork { level: self, kind })
        }
    }

    /// The rating this level enters `kind`'s rating pool at: `random` at
    /// [`Level::RANDOM_RATING`], and each level above it by the Elo difference the ladder of
    /// docs/strength.md measured against the level below (the lower end of its 95% interval
    /// where the upper level won every game).
    ///
    /// `zero` enters at `greedy`'s rating plus the Elo its network measured over `greedy`
    /// (docs/strength.md, "Networks by self-play").
    pub fn ladder_rating(self, kind: GameKind) -> f64 {
        if self == Level::Zero {
            // The Elo of the rule set's house network at `ZERO_BUDGET` with
            // `ZERO_PLAYOUT_SHARE` over `greedy`: the rating that fits best (maximum
            // likelihood) its matches against the levels nearest it, with their own ratings
            // (docs/strength.md, "Playouts beside the network" and, for hex-torus,
            // "Playouts in self-play").
            let over_greedy = match kind {
                GameKind::Torus => 349.0,
                GameKind::HexTorus => 703.0,
                GameKind::MTorus => 150.0,
                GameKind::Ctor => 1298.0,
                GameKind::CaptureGo => 440.0,
                GameKind::Go => 863.0,
            };
            return Level::Greedy.ladder_rating(kind) + over_greedy;
        }
        // Elo over the level below: greedy, beginner, casual, strong, max.
        let steps: [f64; 5] = match kind {
            GameKind::Torus => [570.0, 570.0, 449.0, 241.0, 147.0],
            GameKind::HexTorus => [798.0, 676.0, 315.0, 382.0, 147.0],
            GameKind::MTorus => [798.0, 676.0, 512.0, 277.0, 147.0],
            GameKind::Ctor => [604.0, 798.0, 570.0, 277.0, 241.0],
            GameKind::CaptureGo => [570.0, 135.0, 235.0, 277.0, 108.0],
            GameKind::Go => [570.0, 604.0, 676.0, 277.0, 241.0],
        };
        let above_random = Level::ALL.iter().position(|&l| l == self).unwrap_or(0);
        Level::RANDOM_RATING + steps[..above_random].iter().sum::<f64>()
    }

    /// Where `random` enters every pool: low, so that a win against it moves a new
    /// player's rating little.
    pub const RANDOM_RATING: f64 = 600.0;

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Max => "max",
            Level::Zero => "zero",
        }
    }

    /// The search configuration of a search level (`None` for `random` and `greedy`).
    pub fn search_config(self) -> Option<MctsConfig> {
        let (budget, threads) = match self {
            Level::Random | Level::Greedy | Level::Zero => return None,
            Level::Beginner => (Budget::Playouts(300), 1),
            Level::Casual => (Budget::Playouts(3_000), 1),
            Level::Strong => (Budget::Time(Duration::from_secs(1)), 1),
            Level::Max => (Budget::Time(Duration::from_secs(4)), all_cores()),
        };
        Some(MctsConfig::new(budget, threads))
    }

    /// The `zero` level's bot with its search set up as `tuning` says (one thread always).
    pub fn zero_bot(seed: u64, tuning: Tuning) -> HouseZero {
        let mut config = ZeroConfig::new(tuning.budget.unwrap_or(Level::ZERO_BUDGET));
        // One leaf at a time: on a CPU a batch is no faster an evaluation
        // (docs/performance.md), and a deadline waits for a whole batch.
        config.batch = 1;
        config.playout_share = Level::ZERO_PLAYOUT_SHARE;
        if let Some(nodes) = tuning.max_nodes {
            config.max_nodes = nodes;
        }
        HouseZero::new(config, seed, tuning.pace)
    }

    /// A bot of this level, deterministic under `seed` (for playout budgets).
    pub fn bot(self, seed: u64) -> Box<dyn Bot> {
        self.bot_with(seed, Tuning::default())
    }

    /// A bot of this level with its search set up as `tuning` says.
    pub fn bot_with(self, seed: u64, tuning: Tuning) -> Box<dyn Bot> {
        if let Some(analyst) = self.analyst_with(seed, tuning.clone()) {
            return analyst;
        }
        if self == Level::Greedy {
            let bot = GreedyBot::new(seed);
            return match tuning.pace {
                Some(pace) => Box::new(bot.with_pace(pace)),
                None => Box::new(bot),
            };
        }
        Box::new(RandomBot::new(seed))
    }

    /// The bot of a level that searches (the MCTS levels and `zero`), set up as `tuning`
    /// says, which can also report what it found; `None` for `random` and `greedy`.
    pub fn analyst_with(self, seed: u64, tuning: Tuning) -> Option<Box<dyn Analyst>> {
        if self == Level::Zero {
            return Some(Box::new(Level::zero_bot(seed, tuning)));
        }
        let mut config = self.search_config()?;
        config.threads = tuning.threads.unwrap_or(config.threads).max(1);
        config.budget = tuning.budget.unwrap_or(config.budget);
        if let Some(nodes) = tuning.max_nodes {
            config.settings.max_nodes = nodes;
        }
        config.settings.patterns = tuning.patterns.unwrap_or(config.settings.patterns);
        let bot = Mcts::new(self.name(), config, seed);
        Some(match tuning.pace {
            Some(pace) => Box::new(bot.with_pace(pace)),
            None => Box::new(bot),
        })
    }
}

/// What a caller changes in a level's bot; `None` keeps the level's own. `random` ignores
/// all of it; `greedy` does not search and takes only the pace.
#[derive(Clone, Default)]
pub struct Tuning {
    /// Search threads.
    pub threads: Option<usize>,
    pub budget: Option<Budget>,
    /// Nodes the search tree may hold ([`crate::Settings::max_nodes`]).
    pub max_nodes: Option<usize>,
    /// Whether the search uses the learned move patterns ([`crate::Settings::patterns`]).
    pub patterns: Option<bool>,
    /// Asked between units of work ([`Pace`]).
    pub pace: Option<Arc<dyn Pace>>,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level asked to play a rule set it has no network for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the house bot {level} has no network for {kind} (the levels that play it: {})", playing_names(*kind))]
pub struct NoNetwork {
    pub level: Level,
    pub kind: GameKind,
}

fn playing_names(kind: GameKind) -> String {
    let names: Vec<&str> = Level::playing(kind).map(Level::name).collect();
    names.join(", ")
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown level '{0}' (known: random, greedy, beginner, casual, strong, max, zero)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

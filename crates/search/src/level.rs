//! The named house-bot levels of SPEC.md, weakest to strongest.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::bot::Bot;
use crate::random::RandomBot;

/// A house bot's strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Random,
    Greedy,
    Beginner,
    Casual,
    Strong,
    Max,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 6] = [
        Level::Random,
        Level::Greedy,
        Level::Beginner,
        Level::Casual,
        Level::Strong,
        Level::Max,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Max => "max",
        }
    }

    /// A bot of this level, deterministic under `seed`.
    pub fn bot(self, seed: u64) -> Box<dyn Bot> {
        match self {
            // The search levels arrive with the search engine; until then they play randomly.
            _ => Box::new(RandomBot::new(seed)),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown level '{0}' (known: random, greedy, beginner, casual, strong, max)")]
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

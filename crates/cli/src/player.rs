//! Who plays a side in `toroid match`: a player named on the command line.

use std::fmt;
use std::str::FromStr;

use toroid_search::{Bot, Level};

/// A player of a match. Only house bots exist so far; external engines (a command line that
/// speaks GTP) will be another variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A house bot of this level.
    House(Level),
}

impl PlayerSpec {
    /// A fresh player for one game, deterministic under `seed`.
    pub fn bot(&self, seed: u64) -> Box<dyn Bot> {
        match self {
            PlayerSpec::House(level) => level.bot(seed),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::House(level) => write!(f, "{level}"),
        }
    }
}

/// A player name that is none of the known kinds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPlayer(pub String);

impl fmt::Display for UnknownPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        write!(
            f,
            "unknown player '{}' (a player is a house-bot level: {})",
            self.0,
            levels.join(", ")
        )
    }
}

impl std::error::Error for UnknownPlayer {}

impl FromStr for PlayerSpec {
    type Err = UnknownPlayer;
    fn from_str(s: &str) -> Result<PlayerSpec, UnknownPlayer> {
        s.trim()
            .parse()
            .map(PlayerSpec::House)
            .map_err(|_| UnknownPlayer(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_name_is_a_player_and_prints_as_itself() {
        for level in Level::ALL {
            let player: PlayerSpec = level.name().parse().unwrap();
            assert_eq!(player, PlayerSpec::House(level));
            assert_eq!(player.to_string(), level.name());
        }
    }

    #[test]
    fn unknown_names_list_the_levels() {
        let e = "gnugo".parse::<PlayerSpec>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown player 'gnugo' (a player is a house-bot level: \
             random, greedy, beginner, casual, strong, max)"
        );
    }
}

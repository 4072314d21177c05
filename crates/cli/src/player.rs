//! Who plays a side in `toroid match`: a player named on the command line, either a house
//! bot or an external engine, and the seat it takes in each game.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use toroid_net::{Device, Network};
use toroid_protocol::gtp::{EngineLimits, RemotePlayer, Unplayable};
use toroid_rules::{AnyGame, Color, Fault, Position};
use toroid_search::{Budget, Level, Tuning, Zero, ZeroConfig};

use crate::arena::{play_game, EnginePlayer, HousePlayer, Offence, Played, Player};
use crate::seed::bot_seed;

/// A player of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A house bot of this level.
    House(Level),
    /// An external engine: a command line that starts a GTP engine.
    Engine(String),
    /// The network-guided search ([`toroid_search::Zero`]) with the network of a weights
    /// file (`zero:PATH`, as `toroid train` writes them): how training runs are measured.
    /// With `playouts` (`zero+playouts:PATH`) it values leaves as the `zero` level does, half
    /// by a house playout: how a network is tried for the level before it replaces its own.
    Network { path: PathBuf, playouts: bool },
}

/// The prefix of a [`PlayerSpec::Network`] without and with playouts.
fn network_prefix(playouts: bool) -> &'static str {
    match playouts {
        false => "zero:",
        true => "zero+playouts:",
    }
}

/// Simulations a move of a network player without a move time.
const NETWORK_PLAYOUTS: u64 = 800;

/// The plies of a game in which a network player draws its move in proportion to its visits
/// (each side's first move).
const NETWORK_SAMPLED_PLIES: usize = 2;

/// How long players may think.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Timing {
    /// The time per move: searching house bots search this long, engines are told it with
    /// `time_settings` (`None`: each level's own budget; engines get no time settings).
    pub move_time: Option<Duration>,
    /// How long an engine may take for one answer before it loses on time (`None`: the
    /// move time plus half of it plus a second, or a minute without a move time).
    pub engine_timeout: Option<Duration>,
}

impl Timing {
    fn limits(&self) -> EngineLimits {
        let genmove = self.engine_timeout.unwrap_or_else(|| match self.move_time {
            Some(t) => t + t / 2 + Duration::from_secs(1),
            None => Duration::from_secs(60),
        });
        EngineLimits {
            // Starting an interpreter can take a while on a loaded machine.
            setup: genmove.max(Duration::from_secs(10)),
            genmove,
            move_time: self.move_time,
        }
    }
}

impl PlayerSpec {
    /// Reads a player: a level name, or else an engine's command line.
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("a player is a house-bot level or an engine's command line".into());
        }
        for playouts in [false, true] {
            if let Some(path) = text.strip_prefix(network_prefix(playouts)) {
                let path = PathBuf::from(path);
                return Ok(PlayerSpec::Network { path, playouts });
            }
        }
        Ok(text
            .parse()
            .map_or_else(|_| PlayerSpec::Engine(text.to_string()), PlayerSpec::House))
    }

    /// The network of a [`PlayerSpec::Network`].
    fn network(path: &Path) -> Result<Arc<Network>, String> {
        Network::load(path, &Device::Cpu)
            .map(Arc::new)
            .map_err(|e| format!("{}: not a network's weights: {e}", path.display()))
    }

    /// Checks that the player can play `start`: an engine is started, set up and quit.
    pub fn check(&self, start: &AnyGame, timing: Timing) -> Result<(), String> {
        let command = match self {
            PlayerSpec::House(level) => {
                return level
                    .for_game(start.kind())
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            PlayerSpec::Network { path, .. } => {
                let network = PlayerSpec::network(path)?;
                return (network.check_board(start.topology()))
                    .map_err(|e| format!("{}: {e}", path.display()));
            }
            PlayerSpec::Engine(command) => command,
        };
        let engine = RemotePlayer::start(command, start, timing.limits()).map_err(|e| {
            let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
            match e {
                Unplayable::Fault(fault) => format!(
                    "'{command}' is not a house-bot level ({}) and does not run as a GTP \
                     engine: {fault}",
                    levels.join(", ")
                ),
                e => e.to_string(),
            }
        })?;
        engine.finish();
        Ok(())
    }

    /// A fresh seat for one game from `start`; a house bot is deterministic under `seed`.
    pub fn seat(
        &self,
        start: &AnyGame,
        seed: u64,
        timing: Timing,
    ) -> Result<Box<dyn Player>, Offence> {
        match self {
            PlayerSpec::House(level) => {
                let tuning = Tuning {
                    budget: timing.move_time.map(Budget::Time),
                    ..Tuning::default()
                };
                Ok(Box::new(HousePlayer(level.bot_with(seed, tuning))))
            }
            PlayerSpec::Network { path, playouts } => {
                let network = PlayerSpec::network(path).map_err(|message| Offence::Engine {
                    fault: Fault::RefusedCommand,
                    message,
                })?;
                let budget = timing
                    .move_time
                    .map_or(Budget::Playouts(NETWORK_PLAYOUTS), Budget::Time);
                // Without noise the search is deterministic: two networks would replay the
                // same two games. Its first move is drawn in proportion to its visits instead,
                // so that the games of a match differ.
                let mut config = ZeroConfig::new(budget);
                config.sampled_plies = NETWORK_SAMPLED_PLIES;
                if *playouts {
                    config.playout_share = Level::ZERO_PLAYOUT_SHARE;
                }
                let zero = Zero::with_network(&self.to_string(), config, network, seed);
                Ok(Box::new(HousePlayer(Box::new(zero))))
            }
            PlayerSpec::Engine(command) => {
                match RemotePlayer::start(command, start, timing.limits()) {
                    Ok(engine) => Ok(Box::new(EnginePlayer(engine))),
                    Err(Unplayable::Fault(fault)) => Err(fault.into()),
                    Err(e) => Err(Offence::Engine {
                        fault: Fault::RefusedCommand,
                        message: e.to_string(),
                    }),
                }
            }
        }
    }
}

/// One game from `start` between `black` and `white`, each seated with its own seed
/// derived from `seed`: the shared runner of `toroid match` and `toroid tournament`. A player
/// that cannot be seated loses the game.
pub fn play_between(
    start: &AnyGame,
    black: &PlayerSpec,
    white: &PlayerSpec,
    timing: Timing,
    seed: u64,
) -> Played {
    let black = match black.seat(start, bot_seed(seed, Color::Black), timing) {
        Ok(seat) => seat,
        Err(offence) => return Played::unseated(start, Color::Black, offence),
    };
    let white = match white.seat(start, bot_seed(seed, Color::White), timing) {
        Ok(seat) => seat,
        Err(offence) => {
            black.finish();
            return Played::unseated(start, Color::White, offence);
        }
    };
    play_game(&mut start.clone(), [black, white])
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::House(level) => write!(f, "{level}"),
            PlayerSpec::Engine(command) => f.write_str(command),
            PlayerSpec::Network { path, playouts } => {
                write!(f, "{}{}", network_prefix(*playouts), path.display())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_name_is_a_house_bot_and_prints_as_itself() {
        for level in Level::ALL {
            let player = PlayerSpec::parse(level.name()).unwrap();
            assert_eq!(player, PlayerSpec::House(level));
            assert_eq!(player.to_string(), level.name());
        }
    }

    #[test]
    fn zero_and_a_path_is_a_network_that_must_load() {
        let player = PlayerSpec::parse("zero:no/such.safetensors").unwrap();
        let path = PathBuf::from("no/such.safetensors");
        let alone = PlayerSpec::Network {
            path: path.clone(),
            playouts: false,
        };
        assert_eq!(player, alone);
        assert_eq!(player.to_string(), "zero:no/such.safetensors");
        let with_playouts = PlayerSpec::parse("zero+playouts:no/such.safetensors").unwrap();
        assert_eq!(
            with_playouts,
            PlayerSpec::Network {
                path,
                playouts: true
            }
        );
        assert_eq!(
            with_playouts.to_string(),
            "zero+playouts:no/such.safetensors"
        );
        let start = toroid_rules::GameKind::default().default_game();
        let e = player.check(&start, Timing::default()).unwrap_err();
        assert!(
            e.starts_with("no/such.safetensors: not a network's weights"),
            "{e}"
        );
    }

    #[test]
    fn anything_else_is_an_engine_command_line() {
        let player = PlayerSpec::parse(" gnugo --mode gtp ").unwrap();
        assert_eq!(player, PlayerSpec::Engine("gnugo --mode gtp".into()));
        assert!(PlayerSpec::parse("  ").is_err());
    }

    #[test]
    fn an_engine_that_does_not_start_is_reported_with_the_levels() {
        let player = PlayerSpec::parse("no-such-engine-anywhere").unwrap();
        let start = toroid_rules::GameKind::default().default_game();
        let e = player.check(&start, Timing::default()).unwrap_err();
        assert!(
            e.starts_with(
                "'no-such-engine-anywhere' is not a house-bot level (random, greedy, beginner, \
                 casual, strong, max, zero) and does not run as a GTP engine: cannot start"
            ),
            "{e}"
        );
    }

    #[test]
    fn engine_time_limits_follow_the_move_time() {
        let timing = Timing {
            move_time: Some(Duration::from_secs(2)),
            engine_timeout: None,
        };
        assert_eq!(timing.limits().genmove, Duration::from_secs(4));
        assert_eq!(timing.limits().setup, Duration::from_secs(10));
        assert_eq!(Timing::default().limits().genmove, Duration::from_secs(60));
    }
}

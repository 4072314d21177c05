//! An external GTP engine as a player of one game: the controller's side of GTP.
//!
//! [`RemotePlayer::start`] runs the engine and sets the game up, [`RemotePlayer::genmove`]
//! asks for a move, [`RemotePlayer::tell`] reports the opponent's moves. Engines that list
//! `toroid-game` are driven with the `toroid-*` extension in every rule set (toroid
//! notation, exact parameters); other engines are standard Go engines and can play `go` and
//! `capture-go` on a plain square board only, set up with `boardsize`, `clear_board` and
//! `komi`. Everything the engine does wrong is a typed [`EngineFault`], so that a referee can
//! score the game against it.

use std::time::Duration;

use thiserror::Error;
use toroid_rules::{
    AnyGame, Color, Fault, Lattice, Move, Outcome, Position, Reason, Surface, Topology,
};

use crate::gtp::board::speaks_vertices;
use crate::gtp::client::{Client, ClientError};
use crate::gtp::vertex::{move_vertex, parse_color, parse_move};
use crate::record::read_sgf_result;

/// How long an engine may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineLimits {
    /// For starting and for every command but `genmove`.
    pub setup: Duration,
    /// For a `genmove` answer.
    pub genmove: Duration,
    /// The thinking time per move the engine is told with `time_settings 0 SECONDS 1`
    /// (`None`: no time settings are sent).
    pub move_time: Option<Duration>,
}

/// What an engine did wrong. The game is lost for it.
#[derive(Debug, Error)]
pub enum EngineFault {
    /// It could not start, stopped, timed out, answered garbage or refused a command.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// Its answer to `genmove` is not a move of this board.
    #[error("answered '{answer}' to '{command}', which is not a move on this board")]
    NotAMove { command: String, answer: String },
    /// Its answer to `final_score` is not a score (`B+3.5`, `W+12.5`, `0`).
    #[error("answered '{answer}' to 'final_score', which is not a score")]
    NotAScore { answer: String },
    /// Its answer to `genmove` names a colour other than the one asked for.
    #[error("was asked to move for {asked} but answered '{answer}'")]
    WrongColour { asked: Color, answer: String },
}

impl EngineFault {
    /// The kind of fault that records and reports name (`crash`, `timeout`,
    /// `malformed-answer`, `refused-command` or `wrong-colour`).
    pub fn kind(&self) -> Fault {
        match self {
            EngineFault::Client(ClientError::Spawn { .. } | ClientError::Crashed { .. }) => {
                Fault::Crash
            }
            EngineFault::Client(ClientError::Timeout { .. }) => Fault::Timeout,
            EngineFault::Client(ClientError::Malformed { .. })
            | EngineFault::NotAMove { .. }
            | EngineFault::NotAScore { .. } => Fault::MalformedAnswer,
            EngineFault::Client(ClientError::Refused { .. }) => Fault::RefusedCommand,
            EngineFault::WrongColour { .. } => Fault::WrongColour,
        }
    }
}

/// Why an engine cannot play a game at all (a mistake in the match set-up, not a fault of
/// the engine during a game).
#[derive(Debug, Error)]
pub enum Unplayable {
    #[error(transparent)]
    Fault(#[from] EngineFault),
    #[error(
        "'{engine}' does not list toroid-game, so it is taken for a Go engine, which can \
         play only go and capture-go on a plain square board of at most 25×25, not {game}"
    )]
    NotGo { engine: String, game: String },
}

/// An engine's answer to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Play(Move),
    Resign,
}

/// A running engine playing one game.
pub struct RemotePlayer {
    client: Client,
    /// Whether the engine speaks the `toroid-*` extension.
    extension: bool,
    /// Whether it lists `kgs-genmove_cleanup`: asked for its moves after two passes, it
    /// captures the dead stones instead of passing.
    cleanup: bool,
    /// Whether it lists `kgs-rules`, told the game's rules then.
    kgs_rules: bool,
    limits: EngineLimits,
}

/// The name `kgs-rules` takes for the standard rules that `start`'s parameters are (SGF's
/// `RU` names: `japanese`, `chinese`, `aga`, `new_zealand`), or `None` where they are none.
fn kgs_rules(start: &AnyGame) -> Option<String> {
    let named = start.kind().rule_set().named_rules;
    let given = |(name, value): &(&str, &str)| start.params().choice(name) == Some(*value);
    let rules = named.iter().find(|rules| rules.params.iter().all(given))?;
    Some(match rules.name {
        "NZ" => "new_zealand".to_string(),
        name => name.to_ascii_lowercase(),
    })
}

/// Whether a standard Go engine can play `game`: Go rules on the plane, named by vertices.
fn plain_go(game: &AnyGame) -> bool {
    let topology = game.topology();
    speaks_vertices(game)
        && topology.lattice() == Lattice::Square4
        && topology.surface() == Surface::Plane
        && topology.width() == topology.height()
}

impl RemotePlayer {
    /// Starts `command_line` and sets up the game `start` on it.
    pub fn start(
        command_line: &str,
        start: &AnyGame,
        limits: EngineLimits,
    ) -> Result<RemotePlayer, Unplayable> {
        let client = Client::spawn(command_line, limits.setup).map_err(EngineFault::from)?;
        let mut player = RemotePlayer {
            client,
            extension: false,
            cleanup: false,
            kgs_rules: false,
            limits,
        };
        let commands = player.send("list_commands")?;
        let lists = |command: &str| commands.lines().any(|l| l.trim() == command);
        player.extension = lists("toroid-game");
        player.cleanup = lists("kgs-genmove_cleanup");
        player.kgs_rules = lists("kgs-rules");
        player.new_game(command_line, start)?;
        if let Some(time) = limits.move_time {
            // Optional for the engine: one that refuses it simply gets no time settings.
            match player.send(&format!("time_settings 0 {} 1", time.as_secs_f64())) {
                Ok(_) | Err(EngineFault::Client(ClientError::Refused { .. })) => {}
                Err(fault) => return Err(fault.into()),
            }
        }
        Ok(player)
    }

    /// Sets up the game `start` on the engine (of `command_line`, for the error), which
    /// forgets any game it played before: an engine kept from one game to the next.
    pub fn new_game(&mut self, command_line: &str, start: &AnyGame) -> Result<(), Unplayable> {
        let kgs_rules = (self.kgs_rules).then(|| kgs_rules(start)).flatten();
        if self.extension {
            let mut setup = format!("toroid-game {}", start.kind().name());
            for (name, value) in start.params().iter() {
                if let Some(value) = value {
                    setup.push_str(&format!(" {name}={value}"));
                }
            }
            self.send(&setup)?;
        } else if plain_go(start) {
            self.send(&format!("boardsize {}", start.topology().width()))?;
            self.send("clear_board")?;
            let komi = start.kind().rule_set().komi;
            if let Some(komi) = komi.and_then(|key| start.params().float(key)) {
                self.send(&format!("komi {komi}"))?;
            }
            if let Some(rules) = kgs_rules {
                // Optional, as on KGS: an engine that refuses these rules plays its own.
                let _ = self.send(&format!("kgs-rules {rules}"));
            }
        } else {
            return Err(Unplayable::NotGo {
                engine: command_line.to_string(),
                game: start.kind().name().to_string(),
            });
        }
        Ok(())
    }

    fn send(&mut self, command: &str) -> Result<String, EngineFault> {
        Ok(self.client.send(command)?)
    }

    /// Whether the engine of `command_line` speaks toroid's extension (lists
    /// `toroid-game`): it is started, asked, and quit.
    pub fn speaks_extension(command_line: &str, limits: EngineLimits) -> Result<bool, EngineFault> {
        let mut client = Client::spawn(command_line, limits.setup)?;
        let commands = client.send("list_commands")?;
        client.quit(limits.setup.min(Duration::from_secs(1)));
        Ok(commands.lines().any(|l| l.trim() == "toroid-game"))
    }

    /// Whether a standard Go engine (one without the extension) can play `game`.
    pub fn standard_go_plays(game: &AnyGame) -> bool {
        plain_go(game)
    }

    /// Tells the engine the game's clock: `initial` seconds and `increment` more per move.
    /// GTP has no Fischer clock; this is its nearest, the increment as a byo-yomi period of
    /// one stone (as gtp2ogs does). An engine that refuses it plays on without.
    pub fn time_settings(&mut self, initial: f64, increment: f64) {
        let _ = self.send(&format!("time_settings {initial} {increment} 1"));
    }

    /// Tells the engine `color`'s time left in seconds (optional for the engine).
    pub fn time_left(&mut self, color: Color, seconds: f64) {
        let _ = self.send(&format!(
            "time_left {} {} 0",
            color.name(),
            seconds.max(0.0).floor()
        ));
    }

    /// How long the next answers to `genmove` may take.
    pub fn set_genmove_timeout(&mut self, timeout: Duration) {
        self.limits.genmove = timeout;
    }

    /// Asks for `color`'s move in the position the engine has been told, on a board of
    /// this `topology`; with `cleanup` (after two passes, Go's scoring phase) by
    /// `kgs-genmove_cleanup` where the engine lists it (an extension engine knows the phase
    /// from the moves).
    pub fn genmove(
        &mut self,
        topology: &Topology,
        color: Color,
        cleanup: bool,
    ) -> Result<Answer, EngineFault> {
        let command = if self.extension {
            format!("toroid-genmove {}", color.name())
        } else if cleanup && self.cleanup {
            format!("kgs-genmove_cleanup {}", color.name())
        } else {
            format!("genmove {}", color.name())
        };
        self.client.set_timeout(self.limits.genmove);
        let answer = self.send(&command);
        self.client.set_timeout(self.limits.setup);
        let answer = answer?;
        let mut words = answer.split_whitespace();
        let (first, second) = (words.next(), words.next());
        let token = match (first, second, words.next()) {
            (Some(word), None, None) => word,
            // Some engines echo the colour before the move.
            (Some(colour), Some(word), None) if parse_color(colour).is_some() => {
                if parse_color(colour) != Some(color) {
                    return Err(EngineFault::WrongColour {
                        asked: color,
                        answer,
                    });
                }
                word
            }
            _ => return Err(EngineFault::NotAMove { command, answer }),
        };
        if token.eq_ignore_ascii_case("resign") {
            return Ok(Answer::Resign);
        }
        let mv = if self.extension {
            Move::parse(token, topology).ok()
        } else {
            parse_move(token, topology)
        };
        mv.map(Answer::Play)
            .ok_or(EngineFault::NotAMove { command, answer })
    }

    /// Tells the engine that `color` played `mv` on a board of this `topology`.
    pub fn tell(&mut self, topology: &Topology, color: Color, mv: Move) -> Result<(), EngineFault> {
        let command = if self.extension {
            format!("toroid-play {} {}", color.name(), mv.notation(topology))
        } else {
            format!("play {} {}", color.name(), move_vertex(mv, topology))
        };
        self.send(&command).map(drop)
    }

    /// Tells the engine every move of a game from `start`, each with its mover.
    pub fn replay(&mut self, start: &AnyGame, moves: &[Move]) -> Result<(), EngineFault> {
        let mut game = start.clone();
        for &mv in moves {
            let Some(color) = game.turn() else { break };
            self.tell(game.topology(), color, mv)?;
            if game.play(mv).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// The engine's count of the position it has been told, by `final_score` (`B+3.5`,
    /// `W+12.5`, `0`), as an ending by [`Reason::Score`]. An engine that judges dead stones
    /// (GNU Go) thus referees games that end with dead stones still on the board, which
    /// toroid's own count keeps.
    pub fn final_score(&mut self) -> Result<Outcome, EngineFault> {
        let answer = self.send("final_score")?;
        match read_sgf_result(&answer) {
            Some(outcome) if outcome.reason == Reason::Score => Ok(outcome),
            Some(outcome) if outcome.winner.is_none() && outcome.reason == Reason::Unknown => {
                Ok(Outcome::draw(Reason::Score))
            }
            _ => Err(EngineFault::NotAScore { answer }),
        }
    }

    /// The stones the engine judges dead in the position it has been told
    /// (`final_status_list dead`).
    pub fn dead_stones(&mut self, topology: &Topology) -> Result<Vec<Move>, EngineFault> {
        let command = "final_status_list dead";
        let answer = self.send(command)?;
        (answer.split_whitespace())
            .map(|vertex| match self.extension {
                true => Move::parse(vertex, topology).ok(),
                false => parse_move(vertex, topology),
            })
            .collect::<Option<Vec<Move>>>()
            .ok_or_else(|| EngineFault::NotAMove {
                command: command.to_string(),
                answer,
            })
    }

    /// Asks the engine to quit and makes sure it is gone.
    pub fn finish(self) {
        self.client
            .quit(self.limits.setup.min(Duration::from_secs(1)));
    }
}

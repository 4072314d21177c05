//! One game between two players from start to end: the players (a house bot or an external
//! engine), how the game ended, and the record it leaves.

use std::time::Duration;

use toroid_protocol::gtp::{Answer, EngineFault, EngineLimits, RemotePlayer};
use toroid_protocol::record::{sgf_result, Record, RecordError};
use toroid_rules::{
    AnyGame, Bot, Color, EndPhase, Fault, IllegalMove, Move, Outcome, Position, Reason,
};

/// A player in one game: asked for its moves and told its opponent's.
pub trait Player {
    /// The move (or resignation) of the player to move in `game`.
    fn choose(&mut self, game: &AnyGame) -> Result<Answer, Offence>;
    /// `color`, the opponent, played `mv`, which gave `game`.
    fn observe(&mut self, game: &AnyGame, color: Color, mv: Move) -> Result<(), Offence>;
    /// The game is over: release what the player holds (an engine process).
    fn finish(self: Box<Self>) {}
}

/// A house bot as a player.
pub struct HousePlayer(pub Box<dyn Bot>);

impl Player for HousePlayer {
    fn choose(&mut self, game: &AnyGame) -> Result<Answer, Offence> {
        Ok(Answer::Play(self.0.choose(game, None)))
    }

    /// The search finds the new position in its tree by hash; nothing to tell it.
    fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Offence> {
        Ok(())
    }
}

/// An external engine as a player.
pub struct EnginePlayer(pub RemotePlayer);

impl Player for EnginePlayer {
    fn choose(&mut self, game: &AnyGame) -> Result<Answer, Offence> {
        let color = game
            .turn()
            .expect("a player is asked only while the game goes on");
        let cleanup = game.end_phase() != EndPhase::Play;
        Ok(self.0.genmove(game.topology(), color, cleanup)?)
    }

    fn observe(&mut self, game: &AnyGame, color: Color, mv: Move) -> Result<(), Offence> {
        Ok(self.0.tell(game.topology(), color, mv)?)
    }

    fn finish(self: Box<Self>) {
        self.0.finish();
    }
}

/// What a player did that loses the game for it, in detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offence {
    /// It chose a move the rules refuse.
    IllegalMove { attempted: Move, error: IllegalMove },
    /// Its engine crashed, hung, answered garbage or refused a command.
    Engine { fault: Fault, message: String },
}

impl From<EngineFault> for Offence {
    fn from(fault: EngineFault) -> Offence {
        Offence::Engine {
            fault: fault.kind(),
            message: fault.to_string(),
        }
    }
}

impl Offence {
    /// The kind of fault, as records and reports name it.
    pub fn fault(&self) -> Fault {
        match self {
            Offence::IllegalMove { .. } => Fault::IllegalMove,
            Offence::Engine { fault, .. } => *fault,
        }
    }

    /// What happened, in words, with `offender` as the subject.
    fn describe(&self, game: &AnyGame, offender: Color) -> String {
        match self {
            Offence::IllegalMove { attempted, error } => format!(
                "{offender} played the illegal move '{}' ({error})",
                attempted.notation(game.topology())
            ),
            Offence::Engine { fault, message } => {
                format!("{offender} forfeits ({}): {message}", fault.code())
            }
        }
    }
}

/// A finished game: its moves from the start, how it ended and, for a forfeit, what the
/// loser did.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    pub moves: Vec<Move>,
    pub ending: Outcome,
    /// The offence that forfeited the game, in words (`black played the illegal move ...`).
    pub offence: Option<String>,
    /// Who counted the game where a referee did, in words, with toroid's own count.
    pub counted_by: Option<String>,
}

impl Played {
    /// A game of `moves` that `offender` forfeits by `offence` in `game`.
    pub fn forfeit(moves: Vec<Move>, game: &AnyGame, offender: Color, offence: Offence) -> Played {
        Played {
            moves,
            ending: Outcome::forfeit(offender, offence.fault()),
            offence: Some(offence.describe(game, offender)),
            counted_by: None,
        }
    }

    /// A game lost before its first move from `start`, by a player that could not take its
    /// seat.
    pub fn unseated(start: &AnyGame, offender: Color, offence: Offence) -> Played {
        Played::forfeit(Vec::new(), start, offender, offence)
    }

    /// The ending in words, like `black wins: a ring was completed`, with the offence of a
    /// forfeit in full.
    pub fn describe(&self) -> String {
        match (&self.offence, &self.counted_by) {
            (Some(offence), _) => format!("{} wins: {offence}", self.ending.winner_name()),
            (None, Some(counted_by)) => format!("{} ({counted_by})", self.ending),
            (None, None) => self.ending.to_string(),
        }
    }

    /// The record of this game from `start`, with the players' names; a game that did not
    /// end by the rules gets a comment on its last node saying why it ended.
    pub fn record(&self, start: &AnyGame, names: [String; 2]) -> Result<Record, RecordError> {
        let mut record = Record::from_moves(start.kind(), start.params(), &self.moves)?;
        let [black, white] = names;
        record.black = Some(black);
        record.white = Some(white);
        record.result = Some(self.ending);
        if !self.ending.reason.is_by_rules() {
            record.comment(self.describe());
        }
        Ok(record)
    }
}

/// Plays `game` to its end, `seats[color.index()]` playing each colour, and releases the
/// seats.
pub fn play_game(game: &mut AnyGame, seats: [Box<dyn Player>; 2]) -> Played {
    let mut seats = seats;
    let played = play_moves(game, &mut seats);
    for seat in seats {
        seat.finish();
    }
    played
}

fn play_moves(game: &mut AnyGame, seats: &mut [Box<dyn Player>; 2]) -> Played {
    let mut moves = Vec::new();
    loop {
        if let Some(ending) = game.outcome() {
            return Played {
                moves,
                ending,
                offence: None,
                counted_by: None,
            };
        }
        let color = game
            .turn()
            .expect("a game that is not over has a player to move");
        let mv = match seats[color.index()].choose(game) {
            Ok(Answer::Play(mv)) => mv,
            Ok(Answer::Resign) => {
                return Played {
                    moves,
                    ending: Outcome::resignation(color),
                    offence: None,
                    counted_by: None,
                }
            }
            Err(offence) => return Played::forfeit(moves, game, color, offence),
        };
        if let Err(error) = game.play(mv) {
            let offence = Offence::IllegalMove {
                attempted: mv,
                error,
            };
            return Played::forfeit(moves, game, color, offence);
        }
        moves.push(mv);
        let opponent = color.opponent();
        if let Err(offence) = seats[opponent.index()].observe(game, color, mv) {
            return Played::forfeit(moves, game, opponent, offence);
        }
    }
}

/// A GTP engine that counts finished Go games in toroid's place (`toroid match --referee`):
/// toroid's count keeps every stone on the board, as the rules say, while players that
/// expect dead stones to be removed (GNU Go without `--capture-all-dead`) pass with dead
/// stones left. A referee that judges them, like GNU Go's `final_score`, counts such games as
/// those players meant.
pub struct Referee {
    command: String,
}

impl Referee {
    /// How long the referee may take to start and to count (GNU Go reads life and death).
    const LIMITS: EngineLimits = EngineLimits {
        setup: Duration::from_secs(60),
        genmove: Duration::from_secs(60),
        move_time: None,
    };

    /// The engine of `command` as the referee of games from `start`, which must be Go
    /// counted by score on a board that a GTP engine can play; it is started once to check.
    pub fn new(command: &str, start: &AnyGame) -> Result<Referee, String> {
        if start.score().is_none() {
            return Err(format!(
                "--referee counts games of go, which end by a count, not of {}",
                start.kind()
            ));
        }
        let engine = RemotePlayer::start(command, start, Referee::LIMITS)
            .map_err(|e| format!("the referee '{command}' cannot count this game: {e}"))?;
        engine.finish();
        Ok(Referee {
            command: command.to_string(),
        })
    }

    /// `played` from `start` as the referee counts it, where the rules ended it by a count
    /// (two passes or the move limit); other endings stand. Should the referee fail, toroid's
    /// count stands and the game says so.
    pub fn recount(&self, start: &AnyGame, played: Played) -> Played {
        if !matches!(played.ending.reason, Reason::TwoPasses | Reason::MoveLimit) {
            return played;
        }
        let own = sgf_result(&played.ending);
        let counted = RemotePlayer::start(&self.command, start, Referee::LIMITS)
            .map_err(|e| e.to_string())
            .and_then(|mut engine| {
                let score = engine
                    .replay(start, &played.moves)
                    .and_then(|()| engine.final_score())
                    .map_err(|e| e.to_string());
                engine.finish();
                score
            });
        match counted {
            Ok(ending) => Played {
                ending,
                counted_by: Some(format!(
                    "counted by '{}' with final_score; toroid's own count: {own}",
                    self.command
                )),
                ..played
            },
            Err(e) => Played {
                counted_by: Some(format!(
                    "toroid's own count: the referee '{}' failed: {e}",
                    self.command
                )),
                ..played
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use toroid_rules::Cell;
    use toroid_search::Level;

    use super::*;

    /// Always plays the first point, so its second stone there is illegal.
    struct Stubborn;

    impl Player for Stubborn {
        fn choose(&mut self, _: &AnyGame) -> Result<Answer, Offence> {
            Ok(Answer::Play(Move::Place(Cell(0))))
        }
        fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Offence> {
            Ok(())
        }
    }

    /// Resigns at once.
    struct Quitter;

    impl Player for Quitter {
        fn choose(&mut self, _: &AnyGame) -> Result<Answer, Offence> {
            Ok(Answer::Resign)
        }
        fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Offence> {
            Ok(())
        }
    }

    /// Plays well enough but fails when told the opponent's move.
    struct Deaf(HousePlayer);

    impl Player for Deaf {
        fn choose(&mut self, game: &AnyGame) -> Result<Answer, Offence> {
            self.0.choose(game)
        }
        fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Offence> {
            Err(Offence::Engine {
                fault: Fault::Crash,
                message: "gone".into(),
            })
        }
    }

    fn house(level: Level, seed: u64) -> Box<dyn Player> {
        Box::new(HousePlayer(level.bot(seed)))
    }

    fn default_game(name: &str) -> AnyGame {
        crate::setup::new_game::<&str>(name, &[]).unwrap()
    }

    fn names() -> [String; 2] {
        ["one".to_string(), "two".to_string()]
    }

    #[test]
    fn a_game_between_bots_replays_to_its_ending_and_records_it() {
        let start = default_game("hex-torus");
        let mut game = start.clone();
        let played = play_game(
            &mut game,
            [house(Level::Random, 1), house(Level::Random, 2)],
        );
        let outcome = played.ending;
        assert!(
            outcome.reason.is_by_rules(),
            "house bots play legal moves: {outcome:?}"
        );
        let mut again = start.clone();
        for &mv in &played.moves {
            again.play(mv).unwrap();
        }
        assert_eq!(again.outcome(), Some(outcome));
        let record = played.record(&start, names()).unwrap();
        assert_eq!(record.moves().len(), played.moves.len());
        assert_eq!(record.black.as_deref(), Some("one"));
        assert_eq!(record.result, Some(outcome));
        assert!(record.nodes().iter().all(|n| n.comment.is_none()));
    }

    #[test]
    fn an_illegal_move_forfeits_the_game() {
        let start = default_game("go");
        let played = play_game(
            &mut start.clone(),
            [Box::new(Stubborn), house(Level::Random, 3)],
        );
        assert_eq!(
            played.ending,
            Outcome::forfeit(Color::Black, Fault::IllegalMove),
            "the stubborn bot repeats its point"
        );
        assert_eq!(played.ending.reason.code(), "illegal-move");
        let text = played.describe();
        assert!(
            text.starts_with("white wins: black played the illegal move 'aa' ("),
            "{text}"
        );
        let record = played.record(&start, names()).unwrap();
        assert_eq!(record.moves().len(), 2, "the illegal move is not recorded");
        let result = record.result.as_ref().unwrap();
        assert_eq!(sgf_result(result), "W+F");
        assert_eq!(
            record.nodes().last().unwrap().comment.as_deref(),
            Some(&*text)
        );
    }

    #[test]
    fn resigning_and_failing_to_listen_lose() {
        let start = default_game("torus");
        let played = play_game(
            &mut start.clone(),
            [house(Level::Random, 4), Box::new(Quitter)],
        );
        assert_eq!(played.ending, Outcome::resignation(Color::White));
        assert_eq!(played.moves.len(), 1);
        assert_eq!(played.ending.reason.code(), "resignation");
        assert_eq!(played.describe(), "black wins: white resigned");

        let deaf = Box::new(Deaf(HousePlayer(Level::Random.bot(5))));
        let played = play_game(&mut start.clone(), [house(Level::Random, 6), deaf]);
        assert_eq!(
            played.moves.len(),
            1,
            "white fails on hearing black's first move"
        );
        assert_eq!(played.ending.winner, Some(Color::Black));
        assert_eq!(played.ending.reason.code(), "crash");
        assert_eq!(
            played.describe(),
            "black wins: white forfeits (crash): gone"
        );
    }
}

//! One game between two players from start to end: the seats they play from (a house bot
//! or an external engine), how the game ended, and the record it leaves.

use toroid_protocol::gtp::{Answer, Fault as EngineFault, RemotePlayer};
use toroid_protocol::record::{GameResult, Record, RecordError};
use toroid_rules::Bot;
use toroid_rules::{AnyGame, Color, IllegalMove, Move, Outcome, Position};

/// A player's side of a game: asked for its moves and told its opponent's.
pub trait Seat {
    /// The move (or resignation) of the player to move in `game`.
    fn choose(&mut self, game: &AnyGame) -> Result<Answer, Fault>;
    /// `color`, the opponent, played `mv`, which gave `game`.
    fn observe(&mut self, game: &AnyGame, color: Color, mv: Move) -> Result<(), Fault>;
    /// The game is over: release what the seat holds (an engine process).
    fn finish(self: Box<Self>) {}
}

/// A house bot's seat.
pub struct HouseSeat(pub Box<dyn Bot>);

impl Seat for HouseSeat {
    fn choose(&mut self, game: &AnyGame) -> Result<Answer, Fault> {
        Ok(Answer::Play(self.0.choose(game, None)))
    }

    /// The search finds the new position in its tree by hash; nothing to tell it.
    fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Fault> {
        Ok(())
    }
}

/// An external engine's seat.
pub struct EngineSeat(pub RemotePlayer);

impl Seat for EngineSeat {
    fn choose(&mut self, game: &AnyGame) -> Result<Answer, Fault> {
        let color = game
            .turn()
            .expect("a seat is asked only while the game goes on");
        Ok(self.0.genmove(game.topology(), color)?)
    }

    fn observe(&mut self, game: &AnyGame, color: Color, mv: Move) -> Result<(), Fault> {
        Ok(self.0.tell(game.topology(), color, mv)?)
    }

    fn finish(self: Box<Self>) {
        self.0.finish();
    }
}

/// What a player did that loses the game for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// It chose a move the rules refuse.
    IllegalMove { attempted: Move, error: IllegalMove },
    /// Its engine crashed, hung, answered garbage or refused a command.
    Engine {
        /// As [`toroid_protocol::gtp::Fault::code`] gives it: `crash`, `timeout`, ...
        code: &'static str,
        message: String,
    },
}

impl From<EngineFault> for Fault {
    fn from(fault: EngineFault) -> Fault {
        Fault::Engine {
            code: fault.code(),
            message: fault.to_string(),
        }
    }
}

impl Fault {
    /// A kebab-case code: `illegal-move` or the engine fault's.
    pub fn code(&self) -> &'static str {
        match self {
            Fault::IllegalMove { .. } => "illegal-move",
            Fault::Engine { code, .. } => code,
        }
    }

    /// What happened, in words, with `offender` as the subject.
    fn describe(&self, game: &AnyGame, offender: Color) -> String {
        match self {
            Fault::IllegalMove { attempted, error } => format!(
                "{offender} played the illegal move '{}' ({error})",
                attempted.notation(game.topology())
            ),
            Fault::Engine { code, message } => format!("{offender} forfeits ({code}): {message}"),
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it.
    Rules(Outcome),
    /// This colour resigned.
    Resigned(Color),
    /// This colour lost by a fault.
    Forfeit { offender: Color, fault: Fault },
}

impl Ending {
    /// The winner; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Rules(outcome) => outcome.winner,
            Ending::Resigned(loser)
            | Ending::Forfeit {
                offender: loser, ..
            } => Some(loser.opponent()),
        }
    }

    /// `"black"`, `"white"` or `"draw"`.
    pub fn winner_name(&self) -> &'static str {
        self.winner().map_or("draw", Color::name)
    }

    /// The reason as a kebab-case code: the rules' own (`"two-passes"`), `"resignation"`,
    /// or the fault's (`"illegal-move"`, `"timeout"`, ...).
    pub fn reason_code(&self) -> String {
        match self {
            Ending::Rules(outcome) => GameResult::from_outcome(outcome, None).reason,
            Ending::Resigned(_) => "resignation".to_string(),
            Ending::Forfeit { fault, .. } => fault.code().to_string(),
        }
    }

    /// The ending in words, like `black wins: a ring was completed`.
    pub fn describe(&self, game: &AnyGame) -> String {
        match self {
            Ending::Rules(outcome) => outcome.to_string(),
            Ending::Resigned(loser) => format!("{} wins: {loser} resigned", loser.opponent()),
            Ending::Forfeit { offender, fault } => format!(
                "{} wins: {}",
                offender.opponent(),
                fault.describe(game, *offender)
            ),
        }
    }
}

/// A finished game: its moves from the start and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub moves: Vec<Move>,
    pub ending: Ending,
}

impl Played {
    /// A game lost before its first move, by a player that could not take its seat.
    pub fn unseated(offender: Color, fault: Fault) -> Played {
        Played {
            moves: Vec::new(),
            ending: Ending::Forfeit { offender, fault },
        }
    }

    /// The record of this game from `start`, with the players' names; a game that did not
    /// end by the rules gets a comment on its last node saying why it ended.
    pub fn record(&self, start: &AnyGame, names: [String; 2]) -> Result<Record, RecordError> {
        let mut record = Record::from_moves(start.kind(), start.params(), &self.moves)?;
        let [black, white] = names;
        record.black = Some(black);
        record.white = Some(white);
        record.result = Some(match &self.ending {
            Ending::Rules(_) => {
                let end = record.replay()?;
                GameResult::of_game(&end).expect("the rules ended the game")
            }
            Ending::Resigned(loser) => GameResult::resignation(loser.opponent()),
            Ending::Forfeit { offender, fault } => {
                GameResult::forfeit(offender.opponent(), fault.code())
            }
        });
        if !matches!(self.ending, Ending::Rules(_)) {
            record.comment(self.ending.describe(start));
        }
        Ok(record)
    }
}

/// Plays `game` to its end, `seats[color.index()]` playing each colour, and releases the
/// seats.
pub fn play_game(game: &mut AnyGame, seats: [Box<dyn Seat>; 2]) -> Played {
    let mut seats = seats;
    let played = play_moves(game, &mut seats);
    for seat in seats {
        seat.finish();
    }
    played
}

fn play_moves(game: &mut AnyGame, seats: &mut [Box<dyn Seat>; 2]) -> Played {
    let mut moves = Vec::new();
    let ending = loop {
        if let Some(outcome) = game.outcome() {
            break Ending::Rules(outcome);
        }
        let color = game
            .turn()
            .expect("a game that is not over has a player to move");
        let forfeit = |fault| Ending::Forfeit {
            offender: color,
            fault,
        };
        let mv = match seats[color.index()].choose(game) {
            Ok(Answer::Play(mv)) => mv,
            Ok(Answer::Resign) => break Ending::Resigned(color),
            Err(fault) => break forfeit(fault),
        };
        if let Err(error) = game.play(mv) {
            break forfeit(Fault::IllegalMove {
                attempted: mv,
                error,
            });
        }
        moves.push(mv);
        let opponent = color.opponent();
        if let Err(fault) = seats[opponent.index()].observe(game, color, mv) {
            break Ending::Forfeit {
                offender: opponent,
                fault,
            };
        }
    };
    Played { moves, ending }
}

#[cfg(test)]
mod tests {
    use toroid_rules::Cell;
    use toroid_search::Level;

    use super::*;

    /// Always plays the first point, so its second stone there is illegal.
    struct Stubborn;

    impl Seat for Stubborn {
        fn choose(&mut self, _: &AnyGame) -> Result<Answer, Fault> {
            Ok(Answer::Play(Move::Place(Cell(0))))
        }
        fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Fault> {
            Ok(())
        }
    }

    /// Resigns at once.
    struct Quitter;

    impl Seat for Quitter {
        fn choose(&mut self, _: &AnyGame) -> Result<Answer, Fault> {
            Ok(Answer::Resign)
        }
        fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Fault> {
            Ok(())
        }
    }

    /// Plays well enough but fails when told the opponent's move.
    struct Deaf(HouseSeat);

    impl Seat for Deaf {
        fn choose(&mut self, game: &AnyGame) -> Result<Answer, Fault> {
            self.0.choose(game)
        }
        fn observe(&mut self, _: &AnyGame, _: Color, _: Move) -> Result<(), Fault> {
            Err(Fault::Engine {
                code: "crash",
                message: "gone".into(),
            })
        }
    }

    fn house(level: Level, seed: u64) -> Box<dyn Seat> {
        Box::new(HouseSeat(level.bot(seed)))
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
        let Ending::Rules(outcome) = played.ending else {
            panic!("house bots play legal moves: {:?}", played.ending);
        };
        let mut again = start.clone();
        for &mv in &played.moves {
            again.play(mv).unwrap();
        }
        assert_eq!(again.outcome(), Some(outcome));
        let record = played.record(&start, names()).unwrap();
        assert_eq!(record.moves().len(), played.moves.len());
        assert_eq!(record.black.as_deref(), Some("one"));
        let result = record.result.clone().unwrap();
        assert_eq!(result.winner, outcome.winner);
        assert_eq!(result.reason, played.ending.reason_code());
        assert!(record.nodes().iter().all(|n| n.comment.is_none()));
    }

    #[test]
    fn an_illegal_move_forfeits_the_game() {
        let start = default_game("go");
        let played = play_game(
            &mut start.clone(),
            [Box::new(Stubborn), house(Level::Random, 3)],
        );
        let Ending::Forfeit { offender, .. } = played.ending else {
            panic!("the stubborn bot repeats its point: {:?}", played.ending);
        };
        assert_eq!(offender, Color::Black);
        assert_eq!(played.ending.winner(), Some(Color::White));
        assert_eq!(played.ending.reason_code(), "illegal-move");
        let text = played.ending.describe(&start);
        assert!(
            text.starts_with("white wins: black played the illegal move 'aa' ("),
            "{text}"
        );
        let record = played.record(&start, names()).unwrap();
        assert_eq!(record.moves().len(), 2, "the illegal move is not recorded");
        assert_eq!(record.result.as_ref().unwrap().to_sgf(), "W+F");
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
        assert_eq!(played.ending, Ending::Resigned(Color::White));
        assert_eq!(played.moves.len(), 1);
        assert_eq!(played.ending.reason_code(), "resignation");
        assert_eq!(played.ending.describe(&start), "black wins: white resigned");

        let deaf = Box::new(Deaf(HouseSeat(Level::Random.bot(5))));
        let played = play_game(&mut start.clone(), [house(Level::Random, 6), deaf]);
        assert_eq!(
            played.moves.len(),
            1,
            "white fails on hearing black's first move"
        );
        assert_eq!(played.ending.winner(), Some(Color::Black));
        assert_eq!(played.ending.reason_code(), "crash");
        assert_eq!(
            played.ending.describe(&start),
            "black wins: white forfeits (crash): gone"
        );
    }
}

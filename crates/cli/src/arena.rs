//! One game between two bots from start to end, and the record it leaves.

use serde::Serialize;
use toroid_rules::{AnyGame, Color, IllegalMove, Move, Outcome, Position};
use toroid_search::Bot;

use crate::view::{ParamsView, PerColor};

/// How a game between bots ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it.
    Rules(Outcome),
    /// A player chose an illegal move and lost by it (a bot that breaks its contract; an
    /// external engine may).
    Forfeit {
        offender: Color,
        attempted: Move,
        error: IllegalMove,
    },
}

impl Ending {
    /// The winner; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Rules(outcome) => outcome.winner,
            Ending::Forfeit { offender, .. } => Some(offender.opponent()),
        }
    }

    /// `"black"`, `"white"` or `"draw"`.
    pub fn winner_name(&self) -> &'static str {
        self.winner().map_or("draw", Color::name)
    }

    /// The reason as a kebab-case code: the rules' own (`"two-passes"`) or `"illegal-move"`.
    pub fn reason_code(&self) -> String {
        match self {
            Ending::Rules(outcome) => serde_json::to_value(outcome.reason)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            Ending::Forfeit { .. } => "illegal-move".to_string(),
        }
    }

    /// The ending in words, like `black wins: a ring was completed`.
    pub fn describe(&self, game: &AnyGame) -> String {
        match self {
            Ending::Rules(outcome) => outcome.to_string(),
            Ending::Forfeit {
                offender,
                attempted,
                error,
            } => format!(
                "{} wins: {offender} played the illegal move '{}' ({error})",
                offender.opponent(),
                attempted.notation(game.topology())
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

/// Plays `game` to its end, each side's moves chosen by `bots[color.index()]`.
pub fn play_game(game: &mut AnyGame, bots: &mut [Box<dyn Bot>; 2]) -> Played {
    let mut moves = Vec::new();
    loop {
        if let Some(outcome) = game.outcome() {
            return Played {
                moves,
                ending: Ending::Rules(outcome),
            };
        }
        let color = game
            .turn()
            .expect("a game that is not over has a player to move");
        let mv = bots[color.index()].choose(game, None);
        if let Err(error) = game.play(mv) {
            return Played {
                moves,
                ending: Ending::Forfeit {
                    offender: color,
                    attempted: mv,
                    error,
                },
            };
        }
        moves.push(mv);
    }
}

/// A finished game as `toroid match --records` saves it, one JSON file per game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameRecord {
    pub game: &'static str,
    pub params: ParamsView,
    /// The player names per colour.
    pub players: PerColor<String>,
    /// The seed the game's bots were derived from.
    pub seed: u64,
    /// The moves from the start, in notation.
    pub moves: Vec<String>,
    /// `"black"`, `"white"` or `"draw"`.
    pub winner: &'static str,
    /// A code, as `toroid replay --json` gives it, or `"illegal-move"` for a forfeit.
    pub reason: String,
    pub reason_text: String,
}

impl GameRecord {
    /// The record of `played`, a game from `start` between `players`.
    pub fn new(start: &AnyGame, players: PerColor<String>, seed: u64, played: &Played) -> Self {
        GameRecord {
            game: start.kind().name(),
            params: ParamsView(start.params().clone()),
            players,
            seed,
            moves: played
                .moves
                .iter()
                .map(|m| m.notation(start.topology()).to_string())
                .collect(),
            winner: played.ending.winner_name(),
            reason: played.ending.reason_code(),
            reason_text: played.ending.describe(start),
        }
    }
}

#[cfg(test)]
mod tests {
    use toroid_rules::GameKind;
    use toroid_search::Level;

    use super::*;

    /// Always plays the first point, so its second stone there is illegal.
    struct Stubborn;

    impl Bot for Stubborn {
        fn name(&self) -> String {
            "stubborn".to_string()
        }
        fn choose(&mut self, _game: &AnyGame, _time: Option<toroid_search::TimeLeft>) -> Move {
            Move::Place(toroid_rules::Cell(0))
        }
    }

    #[test]
    fn a_game_between_bots_replays_to_its_ending() {
        let start = GameKind::HexTorus.default_game();
        let mut game = start.clone();
        let mut bots = [Level::Random.bot(1), Level::Random.bot(2)];
        let played = play_game(&mut game, &mut bots);
        let Ending::Rules(outcome) = played.ending else {
            panic!("house bots play legal moves: {:?}", played.ending);
        };
        let mut again = start.clone();
        for &mv in &played.moves {
            again.play(mv).unwrap();
        }
        assert_eq!(again.outcome(), Some(outcome));
        let players = PerColor {
            black: "random".to_string(),
            white: "random".to_string(),
        };
        let record = GameRecord::new(&start, players, 7, &played);
        assert_eq!(record.moves.len(), played.moves.len());
        assert_eq!(record.winner, outcome.winner_name());
        assert!(!record.reason.is_empty() && !record.reason.contains(' '));
    }

    #[test]
    fn an_illegal_move_forfeits_the_game() {
        let start = GameKind::Go.default_game();
        let mut game = start.clone();
        let mut bots: [Box<dyn Bot>; 2] = [Box::new(Stubborn), Level::Random.bot(3)];
        let played = play_game(&mut game, &mut bots);
        let Ending::Forfeit { offender, .. } = played.ending else {
            panic!("the stubborn bot repeats its point: {:?}", played.ending);
        };
        assert_eq!(offender, Color::Black);
        assert_eq!(played.ending.winner(), Some(Color::White));
        assert_eq!(played.ending.reason_code(), "illegal-move");
        assert!(played
            .ending
            .describe(&start)
            .starts_with("white wins: black played the illegal move 'aa' ("));
    }
}

//! Games from their textual description: a rule-set name, `KEY=VALUE` parameters, and a
//! list of moves in notation. Errors are single lines meant for people.

use std::fmt;

use toroid_rules::cell::PointError;
use toroid_rules::{
    AnyGame, GameKind, Move, ParamError, ParseMoveError, Position, Topology, UnknownGame,
};

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq)]
pub enum GameTextError {
    UnknownGame(UnknownGame),
    Params { game: GameKind, error: ParamError },
}

impl fmt::Display for GameTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameTextError::UnknownGame(error) => error.fmt(f),
            GameTextError::Params { game, error } => write!(f, "{game}: {error}"),
        }
    }
}

impl std::error::Error for GameTextError {}

/// The rule set called `name`.
pub fn game_kind(name: &str) -> Result<GameKind, GameTextError> {
    name.parse().map_err(GameTextError::UnknownGame)
}

/// A new game of the rule set called `name` with the given `KEY=VALUE` parameters.
pub fn new_game<S: AsRef<str>>(name: &str, assignments: &[S]) -> Result<AnyGame, GameTextError> {
    let game = game_kind(name)?;
    game.new_game(assignments)
        .map_err(|error| GameTextError::Params { game, error })
}

/// A move of a move list that could not be played: its 1-based number, its text, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    pub number: usize,
    pub text: String,
    pub reason: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} '{}': {}", self.number, self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

/// Reads one move, explaining in words what a move looks like when `text` is not one.
pub fn parse_move(text: &str, topology: &Topology) -> Result<Move, String> {
    Move::parse(text, topology).map_err(|e| match e {
        ParseMoveError::Empty => "empty move".to_string(),
        ParseMoveError::Point(PointError::Malformed(_)) => {
            "not a move: a move is a point (two letters, column then row, like 'ee'), \
             'pass' or 'end'"
                .to_string()
        }
        ParseMoveError::Point(PointError::OffBoard {
            x,
            y,
            width,
            height,
            ..
        }) => format!("off the board: x={x}, y={y} on a {width}×{height} board"),
    })
}

/// Plays `texts` in order onto `game`; returns the moves played, or the first that failed
/// (the game then holds every move before it).
pub fn play_moves<P: Position, S: AsRef<str>>(
    game: &mut P,
    texts: &[S],
) -> Result<Vec<Move>, MoveError> {
    let mut played = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let text = text.as_ref();
        let fail = |reason: String| MoveError {
            number: i + 1,
            text: text.to_string(),
            reason,
        };
        let mv = parse_move(text, game.topology()).map_err(fail)?;
        game.play(mv).map_err(|e| fail(e.to_string()))?;
        played.push(mv);
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_games_and_bad_parameters_are_named() {
        let e = new_game::<&str>("chess", &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown game 'chess' (known: torus, hex-torus, m-torus, ctor, capture-go, go)"
        );
        let e = new_game("go", &["size=99"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "go: bad value '99' for parameter 'size': expected an integer from 2 to 25"
        );
    }

    #[test]
    fn malformed_moves_are_explained_before_anything_is_played() {
        let mut game = new_game::<&str>("go", &[]).unwrap();
        let e = play_moves(&mut game, &["zz"]).unwrap_err();
        assert_eq!(e.number, 1);
        assert_eq!(
            e.to_string(),
            "move 1 'zz': off the board: x=25, y=25 on a 9×9 board"
        );
        let e = play_moves(&mut game, &["e5"]).unwrap_err();
        assert!(e.reason.starts_with("not a move"), "{e}");
        let e = play_moves(&mut game, &[""]).unwrap_err();
        assert_eq!(e.reason, "empty move");
    }
}

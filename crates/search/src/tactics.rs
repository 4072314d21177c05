//! One-move tactics every bot shares: moves that win at once, and moves after which the
//! opponent wins at once.

use toroid_rules::{Move, Position};

/// Whether `mv` ends the game at once with a win for the player to move in `game`.
pub fn wins_at_once<P: Position>(game: &P, mv: Move) -> bool {
    let Some(mover) = game.turn() else {
        return false;
    };
    let mut after = game.clone();
    after.play(mv).is_ok() && after.outcome().is_some_and(|o| o.winner == Some(mover))
}

/// Whether the player to move in `game` has a move that wins at once.
pub fn can_win_at_once<P: Position>(game: &P, scratch: &mut Vec<Move>) -> bool {
    scratch.clear();
    game.legal_moves(scratch);
    scratch.iter().any(|&mv| wins_at_once(game, mv))
}

/// Whether after `mv` the opponent of the player to move is on turn and can win at once.
pub fn lets_opponent_win<P: Position>(game: &P, mv: Move, scratch: &mut Vec<Move>) -> bool {
    let Some(mover) = game.turn() else {
        return false;
    };
    let mut after = game.clone();
    after.play(mv).is_ok()
        && after.turn() == Some(mover.opponent())
        && can_win_at_once(&after, scratch)
}

/// The legal moves after which the opponent can win at once, unless every move is such a
/// move (then there is nothing to avoid and the list is empty).
pub fn losing_moves<P: Position>(game: &P) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut scratch = Vec::new();
    let losing: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&mv| lets_opponent_win(game, mv, &mut scratch))
        .collect();
    if losing.len() == moves.len() {
        Vec::new()
    } else {
        losing
    }
}

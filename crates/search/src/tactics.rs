//! One-move tactics every bot shares: moves that win at once, and moves after which the
//! opponent wins at once.

use toroid_rules::Move;

use crate::budget::Stop;
use crate::knowledge::Knowledge;

/// Whether `mv` ends the game at once with a win for the player to move in `game`, in an
/// ending that counts as the rules count it ([`Knowledge::ending_is_final`]).
pub fn wins_at_once<P: Knowledge>(game: &P, mv: Move) -> bool {
    wins_on_copy(game, mv, &mut game.clone())
}

/// `wins_at_once`, played on `after`, a copy of `game` that the caller made (a scan of many
/// moves copies into one position in place instead of allocating one for each).
fn wins_on_copy<P: Knowledge>(game: &P, mv: Move, after: &mut P) -> bool {
    let Some(mover) = game.turn() else {
        return false;
    };
    after.play(mv).is_ok()
        && after.outcome().is_some_and(|o| o.winner == Some(mover))
        && after.ending_is_final()
}

/// Whether the player to move in `game` has a move that wins at once.
pub fn can_win_at_once<P: Knowledge>(game: &P, scratch: &mut Vec<Move>) -> bool {
    scratch.clear();
    game.legal_moves(scratch);
    let mut after = game.clone();
    scratch.iter().any(|&mv| {
        after.clone_from(game);
        wins_on_copy(game, mv, &mut after)
    })
}

/// Whether after `mv` the opponent of the player to move is on turn and can win at once.
pub fn lets_opponent_win<P: Knowledge>(game: &P, mv: Move, scratch: &mut Vec<Move>) -> bool {
    let Some(mover) = game.turn() else {
        return false;
    };
    let mut after = game.clone();
    after.play(mv).is_ok()
        && after.turn() == Some(mover.opponent())
        && can_win_at_once(&after, scratch)
}

/// The legal moves after which the opponent can win at once, unless every move is such a
/// move (then there is nothing to avoid and the list is empty). Checking a move costs a
/// scan of the opponent's replies, so on a large board the whole list costs seconds: when
/// `stop` says so, the moves checked so far are returned.
pub fn losing_moves<P: Knowledge>(game: &P, stop: &Stop) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut scratch = Vec::new();
    losing_among(&moves, stop, |mv| lets_opponent_win(game, mv, &mut scratch)).unwrap_or_default()
}

/// The moves of `moves` that `loses` says lose, checked until `stop` says so; `None` when
/// every move was checked and loses.
pub fn losing_among(
    moves: &[Move],
    stop: &Stop,
    mut loses: impl FnMut(Move) -> bool,
) -> Option<Vec<Move>> {
    let mut losing = Vec::new();
    for &mv in moves {
        if stop.now() {
            // Not every move was checked, so not every move is known to lose.
            return Some(losing);
        }
        if loses(mv) {
            losing.push(mv);
        }
    }
    (losing.len() < moves.len()).then_some(losing)
}

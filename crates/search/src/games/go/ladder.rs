//! Ladder reading: whether a chain in atari, its owner to move, is captured however it runs.
//!
//! The defender extends at its one liberty. With three liberties or more it has escaped; with
//! one it is caught; with two the attacker tries an atari from each side, and the read goes on
//! from there. A defender that can capture an attacker's stone next to it breaks the ladder
//! (the capture gives it liberties). A read that has played `MAX_READ` moves counts as an
//! escape: on a wrapped board a ladder may never end, and with two ataris to try at every
//! step the read must be bounded in all, not by its depth. An attacker's atari that leaves
//! its own stone in atari is not tried: the defender would take it.

use toroid_rules::games::Go;
use toroid_rules::{Cell, Move, Position};

/// Moves a ladder read may play before it counts as an escape: a ladder across a 19×19
/// board takes about 40, and the attacker's wrong side usually fails within a few.
const MAX_READ: usize = 100;

/// Whether the chain on `chain`, in atari with its owner to move in `go`, is lost to a ladder.
/// `false` for a chain that is not in atari, or whose owner is not to move.
pub fn captured_in_ladder(go: &Go, chain: Cell) -> bool {
    let mut moves_left = MAX_READ;
    go.turn().is_some()
        && go.turn() == go.stone(chain)
        && defender_caught(go, chain, &mut moves_left)
}

/// Plays `mv` on a copy of `go`, if the read may still play a move and `mv` is legal.
fn try_move(go: &Go, mv: Cell, moves_left: &mut usize) -> Option<Go> {
    *moves_left = moves_left.checked_sub(1)?;
    let mut next = go.clone();
    next.play(Move::Place(mv)).ok().map(|()| next)
}

/// The defender, to move, runs from atari.
fn defender_caught(go: &Go, chain: Cell, moves_left: &mut usize) -> bool {
    let Some(liberty) = go.atari_point(chain) else {
        return false;
    };
    if *moves_left == 0 || go.capture_next_to(chain).is_some() {
        return false;
    }
    let Some(run) = try_move(go, liberty, moves_left) else {
        // A suicide is caught; a read out of moves counts as an escape.
        return *moves_left > 0;
    };
    match run.liberties(chain) {
        0 | 1 => true,
        2 => attacker_catches(&run, chain, moves_left),
        _ => false,
    }
}

/// The attacker, to move, tries an atari on each of the chain's two liberties.
fn attacker_catches(go: &Go, chain: Cell, moves_left: &mut usize) -> bool {
    liberties(go, chain).into_iter().any(|atari| {
        try_move(go, atari, moves_left).is_some_and(|next| {
            next.liberties(atari) >= 2
                && next.in_atari(chain)
                && defender_caught(&next, chain, moves_left)
        })
    })
}

/// The empty points next to the chain on `chain`, each once.
fn liberties(go: &Go, chain: Cell) -> Vec<Cell> {
    let mut points = Vec::new();
    for stone in go.chain(chain) {
        for n in go.topology().adjacent(stone) {
            if go.stone(n).is_none() && !points.contains(&n) {
                points.push(n);
            }
        }
    }
    points
}

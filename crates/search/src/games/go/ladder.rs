//! Ladder reading: whether a chain in atari, its owner to move, is captured however it runs.
//!
//! The defender extends at its one liberty. With three liberties or more it has escaped; with
//! one it is caught; with two the attacker tries an atari from each side, and the read goes on
//! from there. A defender that can capture an attacker's stone next to it breaks the ladder
//! (the capture gives it liberties). A read that has played `MAX_READ` moves counts as an
//! escape: on a wrapped board a ladder may never end, and with two ataris to try at every
//! step the read must be bounded in all, not by its depth. An attacker's atari that leaves
//! its own stone in atari is not tried: the defender would take it.
//!
//! A move tried at one depth is played on a copy of the position there. The copies stay with
//! the thread between reads and are overwritten in place (`Clone::clone_from`), so a read
//! allocates no board once its thread has read as deep before.

use std::cell::RefCell;

use toroid_rules::games::Go;
use toroid_rules::{Cell, Move, Position};

use super::liberty_points;

/// Moves a ladder read may play before it counts as an escape: a ladder across a 19×19
/// board takes about 40, and the attacker's wrong side usually fails within a few.
const MAX_READ: usize = 100;

thread_local! {
    /// The copies a read plays its moves on, one per depth: at most `MAX_READ`, about 1.5
    /// MB on the largest board.
    static COPIES: RefCell<Vec<Go>> = const { RefCell::new(Vec::new()) };
}

/// Whether the chain on `chain`, in atari with its owner to move in `go`, is lost to a ladder.
/// `false` for a chain that is not in atari, or whose owner is not to move.
pub fn captured_in_ladder(go: &Go, chain: Cell) -> bool {
    if go.turn().is_none() || go.turn() != go.stone(chain) {
        return false;
    }
    COPIES.with(|copies| {
        // Reads do not nest; if one ever did, it would read on copies of its own.
        let mut own = Vec::new();
        let mut kept = copies.try_borrow_mut();
        let mut read = Read {
            start: go,
            copies: kept.as_deref_mut().unwrap_or(&mut own),
            moves_left: MAX_READ,
        };
        read.defender_caught(chain, 0)
    })
}

/// One read: the position it starts from, the copies it plays on, and the moves it may still
/// play.
struct Read<'a> {
    start: &'a Go,
    /// `copies[d]` is the position at depth `d + 1`.
    copies: &'a mut Vec<Go>,
    moves_left: usize,
}

impl Read<'_> {
    /// The position at `depth`: the start at 0.
    fn at(&self, depth: usize) -> &Go {
        match depth.checked_sub(1) {
            None => self.start,
            Some(d) => &self.copies[d],
        }
    }

    /// Plays `mv` on a copy of the position at `depth`, which becomes the position at
    /// `depth + 1`. Whether the read could still play a move and `mv` was legal.
    fn try_move(&mut self, depth: usize, mv: Cell) -> bool {
        let Some(left) = self.moves_left.checked_sub(1) else {
            return false;
        };
        self.moves_left = left;
        if depth == self.copies.len() {
            let copy = self.at(depth).clone();
            self.copies.push(copy);
        } else if depth == 0 {
            self.copies[0].clone_from(self.start);
        } else {
            let (below, above) = self.copies.split_at_mut(depth);
            above[0].clone_from(&below[depth - 1]);
        }
        self.copies[depth].play(Move::Place(mv)).is_ok()
    }

    /// The defender, to move at `depth`, runs from atari.
    fn defender_caught(&mut self, chain: Cell, depth: usize) -> bool {
        let go = self.at(depth);
        let Some(liberty) = go.atari_point(chain) else {
            return false;
        };
        if self.moves_left == 0 || go.capture_next_to(chain).is_some() {
            return false;
        }
        if !self.try_move(depth, liberty) {
            // A suicide is caught; a read out of moves counts as an escape.
            return self.moves_left > 0;
        }
        match self.at(depth + 1).liberties(chain) {
            0 | 1 => true,
            2 => self.attacker_catches(chain, depth + 1),
            _ => false,
        }
    }

    /// The attacker, to move at `depth`, tries an atari on each of the chain's two liberties.
    fn attacker_catches(&mut self, chain: Cell, depth: usize) -> bool {
        liberty_points(self.at(depth), chain)
            .into_iter()
            .any(|atari| {
                self.try_move(depth, atari) && {
                    let next = self.at(depth + 1);
                    next.liberties(atari) >= 2
                        && next.in_atari(chain)
                        && self.defender_caught(chain, depth + 1)
                }
            })
    }
}

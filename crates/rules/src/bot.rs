//! The interface every player program implements (house bots, GTP engines), and the clock
//! it is given. It lives with the rules so that the search, which implements it, and the
//! protocols, which drive it, both build on it without depending on each other.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::cell::Cell;
use crate::games::AnyGame;
use crate::moves::Move;

/// The mover's clock, when the game has one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each of the mover's moves.
    pub increment: Duration,
    /// In overtime (byo-yomi), the time this move alone may take: the period's time per
    /// stone still owed. It comes back for the next move, so it may be used up nearly whole.
    pub overtime: Duration,
}

/// A player that chooses moves.
pub trait Bot: Send {
    /// A short name for tables and records (`random`, `strong`, ...).
    fn name(&self) -> String;

    /// Chooses a legal move for the player to move in `game`, which is not over. `time` is
    /// the mover's clock when the game has one.
    fn choose(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Move;

    /// The stones of `game` this player judges dead, to be removed before counting (GTP's
    /// `final_status_list dead`, which GUIs mark). A player without a judgement of its own
    /// takes every stone as alive.
    fn dead_stones(&mut self, game: &AnyGame) -> Vec<Cell> {
        let _ = game;
        Vec::new()
    }

    /// Thinks on the opponent's time: searches `game`, where the opponent is to move, until
    /// `stop` is set, so that the next [`Bot::choose`] starts from what it found. It returns
    /// soon after `stop` is set (within a simulation). A player that cannot ponder returns at
    /// once.
    fn ponder(&mut self, game: &AnyGame, stop: Arc<AtomicBool>) {
        let _ = (game, stop);
    }
}

//! What the bots know of a rule set beyond its rules, as one trait that each rule set
//! implements in its own module under [`crate::games`]: for the tree, the forced moves (the
//! search narrows a node to them and proves wins and losses from them), the moves to avoid
//! at the root and prior values of moves; for the playouts, a cheap tactical reply and the
//! random moves to draw again; for the greedy bot, an evaluation of a move.

use std::sync::Arc;

use rand::Rng;
use toroid_net::Network;
use toroid_rules::{Cell, Color, Move, Position};

use crate::budget::Stop;
use crate::learned::{Patterns, Symmetry};
use crate::tactics::losing_moves;

/// What [`Knowledge::forced`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Forcing {
    /// Nothing: every legal move is worth searching.
    Open,
    /// This move wins, at once or by force.
    Win(Move),
    /// Exactly the moves listed avoid letting the opponent win at once (none listed: every
    /// move does, the player to move has lost).
    Only,
}

/// A position that the bots can play: its rules and what they know of them.
pub trait Knowledge: Position {
    /// The forced moves of the player to move; for [`Forcing::Only`] they are appended to
    /// `out`. `threats` bounds the search for a forced win where the rule set has one.
    /// Never called once the game is over.
    fn forced(&self, _out: &mut Vec<Move>, _threats: u32) -> Forcing {
        Forcing::Open
    }

    /// The moves the search never plays at the root: those after which the opponent wins at
    /// once (or by force with at most `threats` threats, where the rule set knows), unless
    /// all do; only those found before `stop` says so.
    fn avoid(&self, _threats: u32, stop: &Stop) -> Vec<Move> {
        losing_moves(self, stop)
    }

    /// A prior value of `mv` for the player to move in [0, 1], where the rule set has one.
    fn prior(&self, _mv: Move) -> Option<f32> {
        None
    }

    /// Whether `mv` is never worth searching, at the root or below it (a big group's
    /// self-atari, an escape into a ladder): the tree leaves it out unless nothing else is
    /// left.
    fn hopeless(&self, _mv: Move) -> bool {
        false
    }

    /// A move worth playing now in a playout given the `recent` moves of the simulation with
    /// their movers (the last one last), if the policy sees one. It may be illegal (the
    /// playout then falls back to [`Position::playout_move`]). Runs for every playout move,
    /// so it looks only near the last move or at a handful of sampled cells.
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move>;

    /// Plays a random playout move ([`Position::play_playout_move`]); a rule set whose
    /// random moves are sometimes unwise draws again, up to [`crate::policy::DRAWS`] times in
    /// all, and plays the last draw. `None` once the game is over.
    fn play_wise_playout_move<R: Rng>(&mut self, rng: &mut R) -> Option<Move> {
        self.play_playout_move(rng)
    }

    /// Whether the game that ended in this position is decided as its rules count it, so
    /// that the tree may take the ending as proven. By default it is. Where players count
    /// otherwise (Go's Japanese counting takes dead stones off as prisoners, the rules count
    /// them as they stand), a simulation that reaches such an ending resumes the game
    /// ([`Knowledge::resume`]) and plays it out.
    fn ending_is_final(&self) -> bool {
        true
    }

    /// Resumes a game whose ending is not final ([`Knowledge::ending_is_final`]).
    fn resume(&mut self) {}

    /// Which shapes the learned patterns take for one ([`crate::learned`]).
    const SYMMETRY: Symmetry = Symmetry::Full;

    /// Whether the playouts answer the last stone with a learned pattern's reply
    /// ([`crate::learned::reply`]) when the rule set's own tactics have none. The tree's
    /// pattern priors do not depend on it.
    fn pattern_replies(&self) -> bool {
        true
    }

    /// The rule set's learned move patterns (`crates/search/data/patterns/`, made by
    /// `scripts/patterns`).
    fn patterns(&self) -> &'static Patterns;

    /// The rule set's house network (`crates/search/data/networks/`, trained by
    /// `scripts/train`), which the `zero` level plays with: none by default, and then the rule
    /// set has no `zero` level.
    fn network(&self) -> Option<&'static Arc<Network>> {
        None
    }

    /// Tactical features of a placement of `me` on the empty `cell` for the learned
    /// patterns, as bits (at most eight, each the rule set's own): none by default.
    fn tactics(&self, _cell: Cell, _me: Color) -> u8 {
        0
    }

    /// Whether a playout may answer the last move with a stone of `me` on the empty `cell`
    /// (a learned pattern's reply, [`crate::learned::reply`]): by default every empty cell.
    fn worth_replying(&self, _cell: Cell, _me: Color) -> bool {
        true
    }

    /// How good a stone of `me` on `cell` looks to the greedy bot, played from this position
    /// and giving `after`. Higher is better; only differences between the moves of one
    /// position matter.
    fn evaluate(&self, after: &Self, cell: Cell, me: Color) -> f64;
}

/// The stones `me` captured between `before` and `after`.
pub fn captured<P: Position>(before: &P, after: &P, me: Color) -> f64 {
    f64::from(after.captures()[me.index()] - before.captures()[me.index()])
}

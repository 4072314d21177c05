//! What a rule set tells the search beyond its rules, where it knows it cheaply and exactly:
//! forced moves (the search narrows a node to them and proves wins and losses from them),
//! the moves to avoid at the root, and prior values of moves.

use toroid_rules::games::{Ctor, Go, HexTorus, MTorus, Torus};
use toroid_rules::{Move, Position};

use crate::eval::pressure;
use crate::surround::{captures_at, forced_win, safe_moves};
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

pub trait Knowledge: Position {
    /// The forced moves of the player to move; for [`Forcing::Only`] they are appended to
    /// `out`. `threats` bounds the search for a forced win where the rule set has one.
    /// Never called once the game is over.
    fn forced(&self, _out: &mut Vec<Move>, _threats: u32) -> Forcing {
        Forcing::Open
    }

    /// The moves the search never plays at the root: those after which the opponent wins at
    /// once (or by force with at most `threats` threats, where the rule set knows), unless
    /// all do.
    fn avoid(&self, _threats: u32) -> Vec<Move> {
        losing_moves(self)
    }

    /// A prior value of `mv` for the player to move in [0, 1], where the rule set has one.
    fn prior(&self, _mv: Move) -> Option<f32> {
        None
    }
}

impl Knowledge for Go {}
impl Knowledge for Ctor {}
impl Knowledge for HexTorus {}
impl Knowledge for MTorus {}

/// How much a unit of a `torus` move's shape score moves its prior from ½.
const PRIOR_SCALE: f64 = 0.1;

/// A captured stone's worth in a `torus` move's shape score, against [`pressure`]'s units.
const CAPTURE: f64 = 1.5;

impl Knowledge for Torus {
    /// A win is the empty side of a threatened enemy stone, or a run of threats that ends in
    /// one; a move lets the opponent win at once only by leaving or making a threatened own
    /// stone ([`crate::surround`]).
    fn forced(&self, out: &mut Vec<Move>, threats: u32) -> Forcing {
        if let Some(mv) = forced_win(self, threats) {
            return Forcing::Win(mv);
        }
        safe_moves(self, out);
        Forcing::Only
    }

    /// The moves after which the opponent wins by force, unless all do; then those after
    /// which it wins at once.
    fn avoid(&self, threats: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let losing: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut after = self.clone();
                after.play(mv).is_ok() && forced_win(&after, threats).is_some()
            })
            .collect();
        if losing.len() == moves.len() {
            losing_moves(self)
        } else {
            losing
        }
    }

    /// Greedy's taste: pressure on the enemy stones around the cell and captures.
    fn prior(&self, mv: Move) -> Option<f32> {
        let me = self.turn()?;
        let x = mv.cell()?;
        let shape = pressure(self, x, me) + CAPTURE * f64::from(captures_at(self, x, me));
        Some((0.5 + PRIOR_SCALE * shape).clamp(0.05, 0.95) as f32)
    }
}

//! What a rule set tells the search beyond its rules, where it knows it cheaply and exactly:
//! forced moves (the search narrows a node to them and proves wins and losses from them),
//! the moves to avoid at the root, and prior values of moves.

use toroid_rules::games::{Ctor, Go, HexTorus, MTorus, Torus};
use toroid_rules::{Move, Position};

use crate::eval::pressure;
use crate::patterns::mogo;
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

/// Prior values of Go moves ([`Knowledge::prior`]): a pass while the opponent has not
/// passed, a capture or an escape from atari, a MoGo pattern's shape, a self-atari of a
/// group.
const PASS_PRIOR: f32 = 0.1;
const ATARI_PRIOR: f32 = 0.8;
const PATTERN_PRIOR: f32 = 0.6;
const SELF_ATARI_PRIOR: f32 = 0.1;

impl Knowledge for Go {
    /// Also a pass, while the opponent has not just passed and a point is left that is
    /// worth playing (not an own eye, not a move that loses at once). Playouts hardly punish
    /// a lost tempo, so a pass looks about as good as any move and, with little
    /// exploration, could collect the most visits in the middle of a game.
    fn avoid(&self, _threats: u32) -> Vec<Move> {
        let mut avoid = losing_moves(self);
        if self.consecutive_passes() == 0 && !avoid.contains(&Move::Pass) {
            let Some(me) = self.turn() else {
                return avoid;
            };
            let mut moves = Vec::new();
            self.legal_moves(&mut moves);
            let worth_playing = moves.iter().any(|&mv| {
                mv.cell().is_some_and(|c| !self.is_own_eye(c, me)) && !avoid.contains(&mv)
            });
            if worth_playing {
                avoid.push(Move::Pass);
            }
        }
        avoid
    }

    /// A pass starts low unless the opponent just passed, for the same reason. A placement
    /// starts high when it captures or saves a chain in atari, fairly high when its shape
    /// is a MoGo pattern, low when it puts a group in atari; other placements have no
    /// prior.
    fn prior(&self, mv: Move) -> Option<f32> {
        let Some(c) = mv.cell() else {
            return (self.consecutive_passes() == 0).then_some(PASS_PRIOR);
        };
        let me = self.turn()?;
        if self.self_atari(c, me).is_some_and(|size| size >= 2) {
            return Some(SELF_ATARI_PRIOR);
        }
        // The last liberty of an adjacent chain: a capture, or an escape (an escape that
        // leaves one liberty is a self-atari of a group, above).
        let urgent = self
            .topology()
            .adjacent(c)
            .any(|n| self.atari_point(n) == Some(c));
        if urgent {
            Some(ATARI_PRIOR)
        } else {
            mogo()
                .matches(self.neighborhood(c))
                .then_some(PATTERN_PRIOR)
        }
    }
}
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

#[cfg(test)]
mod tests {
    use toroid_rules::games::go::GO_PARAMS;
    use toroid_rules::{Cell, Color, Params};

    use super::*;

    fn go(params: &[&str]) -> Go {
        Go::go(&Params::parse(GO_PARAMS, params).unwrap()).unwrap()
    }

    #[test]
    fn go_avoids_a_pass_while_points_are_worth_playing() {
        let mut g = go(&["size=5"]);
        assert!(g.avoid(1).contains(&Move::Pass));
        assert_eq!(g.prior(Move::Pass), Some(PASS_PRIOR));
        assert_eq!(g.prior(Move::Place(Cell(0))), None);
        // After the opponent's pass, passing may end the game and is searched as any move.
        g.play(Move::Pass).unwrap();
        assert!(!g.avoid(1).contains(&Move::Pass));
        assert_eq!(g.prior(Move::Pass), None);
    }

    #[test]
    fn go_may_pass_when_only_its_own_eyes_are_left() {
        let mut g = go(&["size=5"]);
        // Black everywhere but two single-point eyes at the first and last cell.
        let last = g.topology().len() - 1;
        let stones: Vec<_> = (1..last)
            .map(|i| (Cell(i as u16), Some(Color::Black)))
            .collect();
        g.setup(&stones, Color::Black).unwrap();
        assert!(!g.avoid(1).contains(&Move::Pass));
    }
}

//! CTOR: what the bots know beyond the rules. The playouts turn stones over where a few
//! sampled cells can; greedy counts stones.

use std::sync::{Arc, OnceLock};

use rand::Rng;
use toroid_net::Network;
use toroid_rules::games::Ctor;
use toroid_rules::{Cell, Color, Move, Position};

use crate::knowledge::{captured, Knowledge};
use crate::learned::{self, Patterns};
use crate::policy::best_sampled;

impl Knowledge for Ctor {
    fn patterns(&self) -> &'static Patterns {
        static PATTERNS: OnceLock<Patterns> = OnceLock::new();
        learned::embedded(&PATTERNS, include_str!("../../data/patterns/ctor.txt"))
    }

    fn network(&self) -> Option<&'static Arc<Network>> {
        Some(built_in_network!("ctor"))
    }

    /// The best of a few sampled cells by the enemy stones a placement there turns over
    /// directly (those that already have 4 of the mover's stones around them), if any.
    fn tactical_move<R: Rng>(&self, _recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        let me = self.turn()?;
        best_sampled(self, rng, |x| Some(self.direct_turnovers(x, me)))
            .filter(|&(_, g)| g > 0)
            .map(|(mv, _)| mv)
    }

    /// A placement is a stone more; each turnover is a stone more and one fewer for them.
    fn evaluate(&self, after: &Ctor, _cell: Cell, me: Color) -> f64 {
        1.0 + 2.0 * captured(self, after, me)
    }
}

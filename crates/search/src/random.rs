//! The weakest house bot: a uniformly random legal move.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{AnyGame, Cell, Move, Position};

use toroid_rules::{Bot, TimeLeft};

/// Plays a uniformly random legal move. Deterministic under its seed.
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, game: &AnyGame, _time: Option<TimeLeft>) -> Move {
        game.uniform_move(&mut self.rng)
            .expect("choose is only called on games that are not over")
    }

    fn dead_stones(&mut self, game: &AnyGame) -> Vec<Cell> {
        crate::ownership::house_judgement(game)
    }
}

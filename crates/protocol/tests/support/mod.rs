//! A player for the engine tests: the protocol crate sits below the search, so its tests
//! bring their own bot rather than a house bot.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{AnyGame, Bot, Move, Position, TimeLeft};

/// Plays uniformly random legal moves from a seed.
pub struct Random(Xoshiro256PlusPlus);

impl Random {
    pub fn bot(seed: u64) -> Box<dyn Bot> {
        Box::new(Random(Xoshiro256PlusPlus::seed_from_u64(seed)))
    }
}

impl Bot for Random {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, game: &AnyGame, _: Option<TimeLeft>) -> Move {
        game.uniform_move(&mut self.0).expect("the game is on")
    }
}

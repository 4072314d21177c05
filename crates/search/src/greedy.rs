//! The one-ply greedy bot: wins at once when it can, avoids moves after which the opponent
//! wins at once, and otherwise plays the move its rule set's evaluation
//! ([`Knowledge::evaluate`]) likes best, breaking ties at random.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{AnyGame, Bot, Move, TimeLeft};

use crate::knowledge::Knowledge;
use crate::tactics::can_win_at_once;

/// What letting the opponent win at once costs, far beyond any evaluation.
const LOSING: f64 = -1e6;
/// What ending the game in a draw is worth: better than losing, worse than playing on.
const DRAWING: f64 = -1e3;

/// Deterministic under its seed.
pub struct GreedyBot {
    rng: Xoshiro256PlusPlus,
    moves: Vec<Move>,
    replies: Vec<Move>,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            moves: Vec::new(),
            replies: Vec::new(),
        }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, game: &AnyGame, _time: Option<TimeLeft>) -> Move {
        toroid_rules::with_game!(game, g => self.choose_in(g))
    }
}

/// Passing, or ending a CTOR turn early, gives up a placement.
const NO_PLACEMENT: f64 = -5.0;

impl GreedyBot {
    fn choose_in<P: Knowledge>(&mut self, game: &P) -> Move {
        let me = game
            .turn()
            .expect("choose is only called on games that are not over");
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        game.legal_moves(&mut moves);
        // Shuffled, so that the first of equal scores is a random one.
        moves.shuffle(&mut self.rng);
        let mut best = (f64::NEG_INFINITY, moves[0]);
        for &mv in &moves {
            let mut after = game.clone();
            after.play(mv).expect("legal_moves lists legal moves");
            let mut score = match after.outcome().map(|o| o.winner) {
                Some(Some(w)) if w == me => {
                    best = (f64::INFINITY, mv);
                    break;
                }
                Some(Some(_)) => LOSING,
                Some(None) => DRAWING,
                None => match mv.cell() {
                    Some(cell) => game.evaluate(&after, cell, me),
                    None => NO_PLACEMENT,
                },
            };
            if after.turn() == Some(me.opponent()) && can_win_at_once(&after, &mut self.replies) {
                score += LOSING;
            }
            if score > best.0 {
                best = (score, mv);
            }
        }
        self.moves = moves;
        best.1
    }
}

//! The one-ply greedy bot: wins at once when it can, avoids moves after which the opponent
//! wins at once, and otherwise plays the move its rule set's evaluation
//! ([`Knowledge::evaluate`]) likes best, breaking ties at random.
//!
//! It scores every move first and checks the opponent's replies only for the best moves, in
//! order, until one is safe: checking every move costs a scan of every reply each, which on
//! the largest boards takes tens of seconds. With a clock or a [`Pace`] it answers in time
//! with the best move it has seen.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{AnyGame, Bot, Cell, Move, TimeLeft};

use crate::budget::{move_deadline, moves_left, Pace, Stop};
use crate::knowledge::Knowledge;
use crate::tactics::lets_opponent_win;

/// What letting the opponent win at once costs, far beyond any evaluation.
const LOSING: f64 = -1e6;
/// What ending the game in a draw is worth: better than losing, worse than playing on.
const DRAWING: f64 = -1e3;

/// Deterministic under its seed when it has time to finish.
pub struct GreedyBot {
    rng: Xoshiro256PlusPlus,
    moves: Vec<Move>,
    replies: Vec<Move>,
    pace: Option<Arc<dyn Pace>>,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            moves: Vec::new(),
            replies: Vec::new(),
            pace: None,
        }
    }

    /// The same bot, asking `pace` between moves it looks at.
    pub fn with_pace(mut self, pace: Arc<dyn Pace>) -> GreedyBot {
        self.pace = Some(pace);
        self
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Move {
        toroid_rules::with_game!(game, g => {
            let stop = Stop::new(move_deadline(None, time, moves_left(g)), self.pace.clone());
            self.choose_in(g, &stop)
        })
    }

    fn dead_stones(&mut self, game: &AnyGame) -> Vec<Cell> {
        crate::ownership::house_judgement(game)
    }
}

/// Passing, or ending a CTOR turn early, gives up a placement.
const NO_PLACEMENT: f64 = -5.0;

impl GreedyBot {
    fn choose_in<P: Knowledge>(&mut self, game: &P, stop: &Stop) -> Move {
        let me = game
            .turn()
            .expect("choose is only called on games that are not over");
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        game.legal_moves(&mut moves);
        // Shuffled, so that the first of equal scores is a random one.
        moves.shuffle(&mut self.rng);
        let mut scored: Vec<(f64, Move)> = Vec::with_capacity(moves.len());
        for &mv in &moves {
            if !scored.is_empty() && stop.now() {
                break;
            }
            let mut after = game.clone();
            after.play(mv).expect("legal_moves lists legal moves");
            let score = match after.outcome().map(|o| o.winner) {
                Some(Some(w)) if w == me => {
                    self.moves = moves;
                    return mv;
                }
                Some(Some(_)) => LOSING,
                Some(None) => DRAWING,
                None => match mv.cell() {
                    Some(cell) => game.evaluate(&after, cell, me),
                    None => NO_PLACEMENT,
                },
            };
            scored.push((score, mv));
        }
        self.moves = moves;
        // Best first; the sort is stable, so equal scores keep their random order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        // The best move that neither loses nor lets the opponent win at once; if every move
        // does one or the other, the best that does not lose at once.
        let mut fallback = None;
        for &(score, mv) in &scored {
            if score <= LOSING {
                break;
            }
            fallback = fallback.or(Some(mv));
            if stop.now() || !lets_opponent_win(game, mv, &mut self.replies) {
                // Out of time, the best move not yet known to lose is the choice.
                return mv;
            }
        }
        fallback.unwrap_or(scored[0].1)
    }
}

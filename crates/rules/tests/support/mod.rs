//! Helpers shared by the rule-set tests: moves from notation, on any [`Position`].

#![allow(dead_code)] // each test file uses a different subset

use rand::Rng;
use toroid_rules::{Cell, Color, Move, Position};

/// The move written `s`, which must be well-formed on `g`'s board.
pub fn mv<P: Position>(g: &P, s: &str) -> Move {
    Move::parse(s, g.topology()).unwrap()
}

/// Plays space-separated moves, each of which must be legal.
pub fn play_line<P: Position>(g: &mut P, moves: &str) {
    for (i, s) in moves.split_whitespace().enumerate() {
        let m = mv(g, s);
        if let Err(e) = g.play(m) {
            panic!("move {} ({s}) is illegal: {e}", i + 1);
        }
    }
}

/// The stone on the point written `s`.
pub fn at<P: Position>(g: &P, s: &str) -> Option<Color> {
    g.stone(mv(g, s).cell().unwrap())
}

/// A move of any kind, legal or not: mostly a cell of the board, sometimes `pass`, `end` or
/// a cell index past the board.
pub fn any_move<P: Position, R: Rng>(g: &P, rng: &mut R) -> Move {
    let cells = g.topology().len() as u16;
    match rng.random_range(0..10) {
        0 => Move::Pass,
        1 => Move::EndTurn,
        2 => Move::Place(Cell(rng.random_range(0..8 * cells))),
        _ => Move::Place(Cell(rng.random_range(0..cells))),
    }
}

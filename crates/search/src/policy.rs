//! Playout policies: a cheap tactical reply per rule set, tried before the rule set's own
//! random [`Position::playout_move`]. They run for every playout move, so each looks only
//! near the last move or at a handful of sampled cells.

use rand::Rng;
use toroid_rules::games::{Ctor, Go, HexTorus, MTorus, Torus};
use toroid_rules::{Cell, Color, Move, Position, Topology};

/// A position that MCTS can search: the rules plus a playout policy.
pub trait Playout: Position {
    /// A move worth playing now given the opponent's `last` move, if the policy sees one.
    /// It may be illegal (the playout then falls back to [`Position::playout_move`]).
    fn tactical_move<R: Rng>(&self, last: Option<Move>, rng: &mut R) -> Option<Move>;
}

/// Plays `policy`'s move when there is one and it is legal, otherwise the rule set's random
/// playout move; returns the move played, `None` once the game is over.
pub fn playout_step<P: Playout, R: Rng>(
    position: &mut P,
    last: Option<Move>,
    heavy: bool,
    rng: &mut R,
) -> Option<Move> {
    if heavy {
        if let Some(mv) = position.tactical_move(last, rng) {
            if position.play(mv).is_ok() {
                return Some(mv);
            }
        }
    }
    let mv = position.playout_move(rng)?;
    position
        .play(mv)
        .expect("playout_move returns only legal moves");
    Some(mv)
}

fn placed(last: Option<Move>) -> Option<Cell> {
    last.and_then(Move::cell)
}

impl Playout for Go {
    /// Capture the chain of the stone just played if it is in atari, else extend an own
    /// chain it put in atari.
    fn tactical_move<R: Rng>(&self, last: Option<Move>, _rng: &mut R) -> Option<Move> {
        let c = placed(last)?;
        let me = self.turn()?;
        if let Some(capture) = self.atari_point(c) {
            return Some(Move::Place(capture));
        }
        self.topology()
            .adjacent(c)
            .filter(|&n| self.stone(n) == Some(me))
            .find_map(|n| self.atari_point(n))
            .map(Move::Place)
    }
}

/// The cell completing a two-bridge of `me` that the opponent's stone on `c` just intruded
/// into: two of `me`'s stones, not adjacent, both next to `c` and to one other empty cell.
fn bridge_reply<P: Position, R: Rng>(
    position: &P,
    c: Cell,
    me: Color,
    rng: &mut R,
) -> Option<Move> {
    let topo = position.topology();
    let own: Vec<Cell> = topo
        .adjacent(c)
        .filter(|&n| position.stone(n) == Some(me))
        .collect();
    let mut replies = [Cell(0); 8];
    let mut count = 0;
    for (i, &a) in own.iter().enumerate() {
        for &b in &own[i + 1..] {
            if topo.adjacent(a).any(|n| n == b) {
                continue;
            }
            for x in topo.adjacent(a) {
                if x != c
                    && count < replies.len()
                    && position.stone(x).is_none()
                    && topo.adjacent(b).any(|n| n == x)
                {
                    replies[count] = x;
                    count += 1;
                }
            }
        }
    }
    (count > 0).then(|| Move::Place(replies[rng.random_range(0..count)]))
}

impl Playout for HexTorus {
    fn tactical_move<R: Rng>(&self, last: Option<Move>, rng: &mut R) -> Option<Move> {
        bridge_reply(self, placed(last)?, self.turn()?, rng)
    }
}

impl Playout for MTorus {
    fn tactical_move<R: Rng>(&self, last: Option<Move>, rng: &mut R) -> Option<Move> {
        bridge_reply(self, placed(last)?, self.turn()?, rng)
    }
}

/// How many cells a playout policy samples when it looks for a capture.
const SAMPLES: usize = 4;

/// The best of a few random empty cells by `gain`, if it gains anything.
fn best_sampled<P: Position, R: Rng>(
    position: &P,
    rng: &mut R,
    gain: impl Fn(Cell) -> u32,
) -> Option<Move> {
    let cells = position.topology().len();
    let mut best = None;
    let mut best_gain = 0;
    for _ in 0..SAMPLES {
        let x = Cell(rng.random_range(0..cells) as u16);
        if position.stone(x).is_none() {
            let g = gain(x);
            if g > best_gain {
                best_gain = g;
                best = Some(Move::Place(x));
            }
        }
    }
    best
}

impl Playout for Ctor {
    /// The best of a few sampled cells by the enemy stones a placement there turns over
    /// directly (those that already have 4 of the mover's stones around them).
    fn tactical_move<R: Rng>(&self, _last: Option<Move>, rng: &mut R) -> Option<Move> {
        let me = self.turn()?;
        let topo = self.topology();
        best_sampled(self, rng, |x| {
            topo.adjacent(x)
                .filter(|&e| {
                    self.stone(e) == Some(me.opponent())
                        && topo
                            .adjacent(e)
                            .filter(|&n| self.stone(n) == Some(me))
                            .count()
                            >= 4
                })
                .count() as u32
        })
    }
}

/// The empty orthogonal neighbour of the stone on `s` when its other three neighbours hold
/// `by`'s stones: playing there surrounds it.
fn last_liberty(position: &Torus, s: Cell, by: Color) -> Option<Cell> {
    let mut empty = None;
    for n in position.topology().adjacent(s) {
        match position.stone(n) {
            None if empty.is_none() => empty = Some(n),
            Some(c) if c == by => {}
            _ => return None,
        }
    }
    empty
}

/// Stones of `opponent` that a stone of `me` on `x` would capture along the diagonals.
fn diagonal_captures(topo: &Topology, position: &Torus, x: Cell, me: Color) -> u32 {
    let mut total = 0;
    for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let mut run = 0;
        let mut at = x;
        while let Some((next, _)) = topo.step(at, dx, dy) {
            match position.stone(next) {
                Some(c) if c != me => run += 1,
                Some(_) => {
                    total += run;
                    break;
                }
                None => break,
            }
            at = next;
            if at == x || run as usize > topo.width() {
                break;
            }
        }
    }
    total
}

impl Playout for Torus {
    /// Surround an enemy stone next to the last move when one has a single empty side left;
    /// else protect an own stone the last move left with one; else the best of a few
    /// sampled cells by diagonal captures.
    fn tactical_move<R: Rng>(&self, last: Option<Move>, rng: &mut R) -> Option<Move> {
        let me = self.turn()?;
        if let Some(c) = placed(last) {
            let topo = self.topology();
            let near = std::iter::once(c).chain(topo.adjacent(c));
            let mut save = None;
            for s in near {
                match self.stone(s) {
                    Some(o) if o != me => {
                        if let Some(win) = last_liberty(self, s, me) {
                            return Some(Move::Place(win));
                        }
                    }
                    Some(_) if save.is_none() => save = last_liberty(self, s, me.opponent()),
                    _ => {}
                }
            }
            if let Some(s) = save {
                return Some(Move::Place(s));
            }
        }
        let topo = self.topology();
        best_sampled(self, rng, |x| diagonal_captures(topo, self, x, me))
    }
}

//! `torus`: what the bots know beyond the rules. Its tactics ([`surround`]) give the tree
//! forced wins and safe moves and the playouts their replies; priors and greedy like
//! pressure on enemy stones and captures.

pub mod surround;

use std::sync::{Arc, OnceLock};

use rand::Rng;
use toroid_net::Network;
use toroid_rules::games::Torus;
use toroid_rules::{Cell, Color, Move, Position};

use crate::budget::Stop;
use crate::knowledge::{captured, Forcing, Knowledge};
use crate::learned::{self, Patterns};
use crate::policy::best_sampled;
use crate::tactics::{losing_among, losing_moves};
use surround::{
    captures_at, capturing_cells, forced_win, last_liberty, rescues, safe_moves, self_threat,
    touched_by,
};

/// How much a unit of a `torus` move's shape score moves its prior from ½.
const PRIOR_SCALE: f64 = 0.1;

/// A captured stone's worth in a `torus` move's shape score, against [`pressure`]'s units.
const CAPTURE: f64 = 1.5;

impl Knowledge for Torus {
    fn patterns(&self) -> &'static Patterns {
        static PATTERNS: OnceLock<Patterns> = OnceLock::new();
        learned::embedded(&PATTERNS, include_str!("../../data/patterns/torus.txt"))
    }

    fn network(&self) -> Option<&'static Arc<Network>> {
        Some(built_in_network!("torus"))
    }

    /// A win is the empty side of a threatened enemy stone, or a run of threats that ends in
    /// one; a move lets the opponent win at once only by leaving or making a threatened own
    /// stone ([`surround`]).
    fn forced(&self, out: &mut Vec<Move>, threats: u32) -> Forcing {
        if let Some(mv) = forced_win(self, threats) {
            return Forcing::Win(mv);
        }
        safe_moves(self, out);
        Forcing::Only
    }

    /// The moves after which the opponent wins by force, unless all do; then those after
    /// which it wins at once.
    fn avoid(&self, threats: u32, stop: &Stop) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        losing_among(&moves, stop, |mv| {
            let mut after = self.clone();
            after.play(mv).is_ok() && forced_win(&after, threats).is_some()
        })
        .unwrap_or_else(|| losing_moves(self, stop))
    }

    /// Greedy's taste: pressure on the enemy stones around the cell and captures.
    fn prior(&self, mv: Move) -> Option<f32> {
        let me = self.turn()?;
        let x = mv.cell()?;
        let shape = pressure(self, x, me) + CAPTURE * f64::from(captures_at(self, x, me));
        Some((0.5 + PRIOR_SCALE * shape).clamp(0.05, 0.95) as f32)
    }

    /// In order: win at once where a threat can have appeared (on the opponent's last stone,
    /// or where the mover's previous move touched, see [`touched_by`]); save an own stone the
    /// last move threatened; capture the stone just played; press it, when it already has
    /// one of the mover's stones on a side, from another side; else the best of a few sampled
    /// cells by captures. The last two never put a stone where it is threatened at once.
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        let me = self.turn()?;
        let them = me.opponent();
        // `torus` alternates strictly, so the last move is the opponent's, the one before the
        // mover's.
        let mut back = recent.iter().rev().map(|&(mv, _)| mv.cell());
        let (last, previous) = (back.next().flatten(), back.next().flatten());
        let mut win = last.and_then(|c| last_liberty(self, c, me));
        if let (None, Some(p)) = (win, previous) {
            touched_by(self, p, me, |s| {
                if win.is_none() && self.stone(s) == Some(them) {
                    win = last_liberty(self, s, me);
                }
            });
        }
        if let Some(x) = win {
            return Some(Move::Place(x));
        }
        let Some(c) = last else {
            return sampled(self, me, rng);
        };
        let mut threatened = None;
        touched_by(self, c, them, |s| {
            if threatened.is_none() && self.stone(s) == Some(me) {
                threatened = last_liberty(self, s, them).map(|l| (s, l));
            }
        });
        let mut cells = Vec::new();
        if let Some((s, liberty)) = threatened {
            rescues(self, s, liberty, me, &mut cells);
        } else if self.stone(c) == Some(them) {
            capturing_cells(self, c, me, &mut cells);
        }
        if let Some(mv) = cells
            .into_iter()
            .map(Move::Place)
            .find(|&mv| self.check(mv).is_ok())
        {
            return Some(mv);
        }
        if threatened.is_some() {
            // The stone cannot be saved.
            return None;
        }
        press(self, c, me, rng).or_else(|| sampled(self, me, rng))
    }

    /// Captures and pressure on the enemy stones around the new stone.
    fn evaluate(&self, after: &Torus, cell: Cell, me: Color) -> f64 {
        10.0 * captured(self, after, me) + pressure(after, cell, me)
    }
}

/// `torus`: enemy stones next to `cell`, weighted by how many of their sides are `me`'s with
/// a stone of `me` on `cell` (a stone with all four is surrounded, with three threatened).
/// The same before the stone is placed (the search's prior) and after (greedy).
pub fn pressure<P: Position>(game: &P, cell: Cell, me: Color) -> f64 {
    let topo = game.topology();
    topo.adjacent(cell)
        .filter(|&n| game.stone(n) == Some(me.opponent()))
        .map(|n| {
            let ours = topo
                .adjacent(n)
                .filter(|&m| m == cell || game.stone(m) == Some(me))
                .count();
            (ours * ours) as f64 * 0.25
        })
        .sum()
}

/// A random empty side of the opponent's stone on `c`, if it has one of `me`'s stones on a
/// side already and the side is no self-threat.
fn press<R: Rng>(position: &Torus, c: Cell, me: Color, rng: &mut R) -> Option<Move> {
    let topo = position.topology();
    if position.stone(c) != Some(me.opponent())
        || !topo.adjacent(c).any(|n| position.stone(n) == Some(me))
    {
        return None;
    }
    let mut sides = [Cell(0); 4];
    let mut count = 0;
    for n in topo.adjacent(c) {
        if position.stone(n).is_none() && !self_threat(position, n, me) {
            sides[count] = n;
            count += 1;
        }
    }
    (count > 0).then(|| Move::Place(sides[rng.random_range(0..count)]))
}

/// The best of a few sampled cells by captures, never a self-threat.
fn sampled<R: Rng>(position: &Torus, me: Color, rng: &mut R) -> Option<Move> {
    best_sampled(position, rng, |x| {
        (!self_threat(position, x, me)).then(|| captures_at(position, x, me))
    })
    .map(|(mv, _)| mv)
}

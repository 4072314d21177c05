//! One thread's Monte Carlo tree search: UCT with RAVE (all-moves-as-first) over a [`Tree`],
//! generic over the rule set.
//!
//! Why RAVE rather than PUCT with priors: every rule set here is a placement game whose moves
//! are cells, where a move's value depends little on when it is played, so AMAF statistics
//! give every child an estimate after a few simulations; PUCT needs priors, and cheap
//! hand-made priors for six rule sets would be weaker than what RAVE learns for free.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{Color, Move};

use crate::budget::Limits;
use crate::policy::{playout_step, Playout};
use crate::tree::{NodeId, Tree, ROOT};

/// The knobs of the search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Settings {
    /// Use the rule set's tactical playout policy ([`Playout::tactical_move`]), not only
    /// its random playout moves.
    pub heavy_playouts: bool,
    /// UCT exploration constant.
    pub exploration: f64,
    /// RAVE bias `4b²` of Silver's schedule β = ñ / (n + ñ + 4b²·n·ñ): smaller trusts the
    /// AMAF statistics for longer.
    pub rave_bias: f64,
    /// Visits a node needs before it gets children (the root always has them).
    pub expand_after: u32,
    /// Nodes a tree may hold; beyond it leaves are no longer expanded (memory bound: about
    /// 40 bytes a node).
    pub max_nodes: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            heavy_playouts: true,
            exploration: 0.2,
            rave_bias: 0.01,
            expand_after: 2,
            max_nodes: 4_000_000,
        }
    }
}

/// Value of a child that was never tried and has no AMAF statistics: above any real value,
/// so every child is tried once before any is tried twice.
const FIRST_PLAY_URGENCY: f64 = 1.1;

/// A search tree with its random generator and scratch space.
pub struct Searcher {
    pub tree: Tree,
    rng: Xoshiro256PlusPlus,
    path: Vec<NodeId>,
    /// Every move of the current simulation, with its mover.
    played: Vec<(Move, Color)>,
    moves: Vec<Move>,
    /// `stamps[color][move] == stamp` when `color` played `move` in the part of the current
    /// simulation below the node being updated.
    stamps: Vec<u32>,
    stamp: u32,
}

/// Index of a move among a board's `cells` cells, `pass` and `end`.
fn move_index(mv: Move, cells: usize) -> usize {
    match mv {
        Move::Place(c) => c.index(),
        Move::Pass => cells,
        Move::EndTurn => cells + 1,
    }
}

fn result_for(winner: Option<Color>, color: Color) -> f32 {
    match winner {
        Some(w) if w == color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

impl Searcher {
    pub fn new(seed: u64) -> Searcher {
        Searcher {
            tree: Tree::new(0),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            path: Vec::new(),
            played: Vec::new(),
            moves: Vec::new(),
            stamps: Vec::new(),
            stamp: 0,
        }
    }

    /// Makes the tree's root the position hashing to `hash`: the matching subtree of the last
    /// search when `reuse` and the position is at most a few plies below, else a new tree.
    pub fn prepare(&mut self, hash: u64, reuse: bool) {
        // A CTOR turn is two plies, so two turns later is four.
        const REUSE_DEPTH: usize = 4;
        let kept = reuse && (self.tree.root().hash == hash || self.tree.reroot(hash, REUSE_DEPTH));
        if !kept {
            self.tree = Tree::new(hash);
        }
    }

    /// Gives the root its children if it has none yet, and marks those whose move is in
    /// `avoid` so that the search never plays them.
    pub fn avoid_at_root<P: Playout>(&mut self, root: &P, avoid: &[Move]) {
        if !self.tree.root().expanded {
            self.expand(ROOT, root);
        }
        for c in self.tree.children(ROOT) {
            let child = self.tree.node_mut(c);
            child.pruned = avoid.contains(&child.mv);
        }
    }

    fn expand<P: Playout>(&mut self, id: NodeId, pos: &P) {
        let mover = pos.turn().expect("only positions in play are expanded");
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        // Ties between untried children go to the first: shuffle against bias.
        self.moves.shuffle(&mut self.rng);
        self.tree.expand(id, &self.moves, mover);
    }

    /// Runs simulations from `root` until `limits` say stop; returns how many ran.
    pub fn run<P: Playout>(&mut self, root: &P, limits: &Limits, settings: &Settings) -> u64 {
        let cells = root.topology().len();
        self.stamps.resize(2 * (cells + 2), 0);
        let mut done = 0;
        while !limits.exhausted(done) {
            self.simulate(root, settings, cells);
            done += 1;
        }
        done
    }

    fn simulate<P: Playout>(&mut self, root: &P, settings: &Settings, cells: usize) {
        let mut pos = root.clone();
        self.path.clear();
        self.path.push(ROOT);
        self.played.clear();
        let mut id = ROOT;
        // Selection and expansion.
        while let Some(mover) = pos.turn() {
            let node = self.tree.node(id);
            if !node.expanded {
                let grow = id == ROOT
                    || (node.visits >= settings.expand_after
                        && self.tree.len() < settings.max_nodes);
                if !grow {
                    break;
                }
                self.expand(id, &pos);
            }
            if self.tree.node(id).children == 0 {
                break;
            }
            id = self.select(id, settings);
            let mv = self.tree.node(id).mv;
            pos.play(mv).expect("children are legal moves");
            self.played.push((mv, mover));
            self.path.push(id);
            let child = self.tree.node_mut(id);
            if child.hash == 0 {
                child.hash = pos.hash();
                child.winning = pos.outcome().is_some_and(|o| o.winner == Some(mover));
            }
        }
        let in_tree = self.played.len();
        // Playout. Every rule set ends on its own; the cap only guards against a parameter
        // choice that makes random games very long.
        let cap = 20 * cells + 1000;
        let mut last = self.played.last().map(|&(mv, _)| mv);
        while let Some(mover) = pos.turn() {
            if self.played.len() >= cap {
                break;
            }
            let Some(mv) = playout_step(&mut pos, last, settings.heavy_playouts, &mut self.rng)
            else {
                break;
            };
            self.played.push((mv, mover));
            last = Some(mv);
        }
        let winner = pos.outcome().and_then(|o| o.winner);
        self.backup(winner, in_tree, cells);
    }

    /// The child of `id` to descend into: a child whose move wins at once, else the best by
    /// the RAVE-blended value plus the UCT exploration term.
    fn select(&self, id: NodeId, settings: &Settings) -> NodeId {
        let log_n = f64::from(self.tree.node(id).visits.max(1)).ln();
        let mut best = ROOT;
        let mut best_score = f64::NEG_INFINITY;
        for c in self.tree.children(id) {
            let child = self.tree.node(c);
            if child.pruned {
                continue;
            }
            if child.winning {
                return c;
            }
            let n = f64::from(child.visits);
            let na = f64::from(child.amaf_visits);
            let score = if n == 0.0 && na == 0.0 {
                FIRST_PLAY_URGENCY
            } else {
                let beta = na / (n + na + settings.rave_bias * n * na);
                let q = if n > 0.0 {
                    f64::from(child.wins) / n
                } else {
                    0.0
                };
                let qa = if na > 0.0 {
                    f64::from(child.amaf_wins) / na
                } else {
                    0.0
                };
                (1.0 - beta) * q + beta * qa + settings.exploration * (log_n / (n + 1.0)).sqrt()
            };
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        best
    }

    /// Adds the result to every node of the path, and to the AMAF statistics of every child
    /// along it whose move its mover played later in the simulation.
    fn backup(&mut self, winner: Option<Color>, in_tree: usize, cells: usize) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        let stride = cells + 2;
        let mark = |stamps: &mut [u32], stamp, (mv, mover): (Move, Color)| {
            stamps[mover.index() * stride + move_index(mv, cells)] = stamp;
        };
        for &m in &self.played[in_tree..] {
            mark(&mut self.stamps, self.stamp, m);
        }
        for depth in (0..self.path.len()).rev() {
            if depth < in_tree {
                mark(&mut self.stamps, self.stamp, self.played[depth]);
            }
            let id = self.path[depth];
            let node = self.tree.node_mut(id);
            node.visits += 1;
            node.wins += result_for(winner, node.mover);
            for c in self.tree.children(id) {
                let child = self.tree.node_mut(c);
                if self.stamps[child.mover.index() * stride + move_index(child.mv, cells)]
                    == self.stamp
                {
                    child.amaf_visits += 1;
                    child.amaf_wins += result_for(winner, child.mover);
                }
            }
        }
    }
}

//! One thread's Monte Carlo tree search: UCT with RAVE (all-moves-as-first) over a [`Tree`],
//! generic over the rule set.
//!
//! Why RAVE rather than PUCT with priors: every rule set here is a placement game whose moves
//! are cells, where a move's value depends little on when it is played, so AMAF statistics
//! give every child an estimate after a few simulations; PUCT needs priors, and cheap
//! hand-made priors for six rule sets would be weaker than what RAVE learns for free. Where
//! a rule set does have a prior ([`crate::knowledge`]), it seeds the AMAF statistics.
//!
//! The search is also a solver: a node is proven won or lost when the game ended there, when
//! the rule set's forced moves decide it, or when its children's proofs do. A simulation
//! stops at a proven node, a proven win is always chosen and a proven loss never, unless all
//! moves lose. Where a rule set knows its forced moves, a node below the root gets only
//! those as children (in `torus`: the win, or the moves that do not lose at once).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

use toroid_rules::{Color, Move};

use crate::budget::{SearchLimits, Stop};
use crate::knowledge::{Forcing, Knowledge};
use crate::learned::{self, Candidate};
use crate::policy::{play_out, Rollout};
use crate::tactics::wins_at_once;
use crate::tree::{Node, NodeId, Proof, Tree, ROOT};

/// The knobs of the search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Settings {
    /// How simulations play on from the tree to the end of the game.
    pub rollout: Rollout,
    /// UCT exploration constant.
    pub exploration: f64,
    /// RAVE bias `4b²` of Silver's schedule β = ñ / (n + ñ + 4b²·n·ñ): smaller trusts the
    /// AMAF statistics for longer.
    pub rave_bias: f64,
    /// Visits a node needs before it gets children (the root always has them).
    pub expand_after: u32,
    /// How many AMAF simulations a rule set's prior value of a move counts for
    /// ([`crate::knowledge::Knowledge::prior`]).
    pub prior_weight: u32,
    /// How many AMAF simulations the prior value of a learned pattern counts for, where the
    /// rule set has no prior of its own and the move no tactical bit ([`crate::learned`]).
    pub pattern_weight: u32,
    /// Whether the search uses the rule set's learned move patterns ([`crate::learned`]), as
    /// priors in the tree and as replies in the playouts. Off only to measure what they give.
    pub patterns: bool,
    /// Nodes a tree may hold; beyond it leaves are no longer expanded (memory bound: about
    /// 40 bytes a node, twice over between moves: a tree keeps the buffer it rerooted from,
    /// see [`Tree::reroot`]).
    pub max_nodes: usize,
    /// Stop before the budget is spent once more simulations cannot change the move, or the
    /// move wins surely (`Searcher::settled`). Off for analysis that wants the whole budget.
    pub stop_early: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rollout: Rollout::Tactical,
            exploration: 0.02,
            rave_bias: 0.01,
            expand_after: 2,
            prior_weight: 300,
            pattern_weight: 50,
            patterns: true,
            max_nodes: 4_000_000,
            stop_early: true,
        }
    }
}

/// Value of a child that was never tried and has no AMAF statistics: above any real value,
/// so every child is tried once before any is tried twice.
const FIRST_PLAY_URGENCY: f64 = 1.1;

/// The threats a search for a forced win may use at a node (it runs at every expansion) and
/// at the root (once a move), where the rule set has one ([`crate::knowledge::Knowledge::forced`]).
const NODE_THREATS: u32 = 1;
pub const ROOT_THREATS: u32 = 2;

/// Simulations between two checks of whether the search may stop early: rare enough to cost
/// nothing, frequent enough to stop within a millisecond or so.
const SETTLE_CHECK: u64 = 128;

/// A move this sure to win, after this many simulations through it, is played without
/// spending the rest of the budget (as Pachi does): against a beaten opponent every move
/// wins, the visits spread over them and the search would otherwise use its whole budget.
const SURE_WIN_RATE: f64 = 0.97;
const SURE_WIN_VISITS: u32 = 3_000;

/// What a proven loss takes off a child's value: below every other child, so that the
/// search plays a lost move only when all are lost.
const LOST: f64 = 10.0;

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

    /// Makes the tree's root the position `root`: the matching subtree of the last search
    /// when `reuse` and the position is at most a few plies below, else a new tree. Gives
    /// the root its children, marks those whose move is in `avoid` so that the search never
    /// plays them (unless `avoid` holds every move), and proves those that win at once (as
    /// far as `stop` allows: on a large board that check alone takes a noticeable time).
    pub fn prepare<P: Knowledge>(
        &mut self,
        root: &P,
        reuse: bool,
        avoid: &[Move],
        settings: &Settings,
        stop: &Stop,
    ) {
        // A CTOR turn is two plies, so two turns later is four.
        const REUSE_DEPTH: usize = 4;
        let hash = root.hash();
        let kept = reuse && (self.tree.root().hash == hash || self.tree.reroot(hash, REUSE_DEPTH));
        // A node proven lost by its forced moves got no children, but a root needs moves.
        let childless = self.tree.root().expanded && self.tree.root().children == 0;
        if !kept || childless {
            self.tree.reset(hash);
        }
        if !self.tree.root().expanded {
            self.expand(ROOT, root, settings);
        }
        // Avoided moves are left out, and hopeless ones too, each unless that would leave
        // nothing: a lost position still needs a move.
        let avoided: Vec<bool> = (self.tree.children(ROOT))
            .map(|c| avoid.contains(&self.tree.node(c).mv))
            .collect();
        let hopeless: Vec<bool> = (self.tree.children(ROOT))
            .map(|c| root.hopeless(self.tree.node(c).mv))
            .collect();
        let avoiding = avoided.contains(&false);
        let hopeful =
            (avoided.iter().zip(&hopeless)).any(|(&avoided, &hopeless)| !avoided && !hopeless);
        let mut proving = true;
        for ((c, avoided), hopeless) in self.tree.children(ROOT).zip(avoided).zip(hopeless) {
            let child = self.tree.node_mut(c);
            child.pruned = (avoiding && avoided) || (hopeful && hopeless);
            // Below the root a win at once is found when its child is first tried, which a
            // low exploration term may put off for long; at the root it must not be missed.
            proving = proving && !stop.now();
            if proving && wins_at_once(root, child.mv) {
                child.proof = Proof::Win;
            }
        }
    }

    /// Gives `id` its children: every legal move at the root, elsewhere only the forced
    /// moves where the rule set knows them ([`crate::knowledge`]), with the rule set's priors
    /// as AMAF statistics. Proves a child that wins, and the node itself when the forced moves
    /// decide it.
    fn expand<P: Knowledge>(&mut self, id: NodeId, pos: &P, settings: &Settings) {
        let mover = pos.turn().expect("only positions in play are expanded");
        self.moves.clear();
        let threats = if id == ROOT {
            ROOT_THREATS
        } else {
            NODE_THREATS
        };
        let forcing = pos.forced(&mut self.moves, threats);
        match forcing {
            Forcing::Win(mv) if id != ROOT => {
                self.moves.clear();
                self.moves.push(mv);
            }
            Forcing::Only if id != ROOT => {}
            _ => {
                self.moves.clear();
                pos.legal_moves(&mut self.moves);
            }
        }
        // Ties between untried children go to the first: shuffle against bias.
        self.moves.shuffle(&mut self.rng);
        self.tree.expand(id, &self.moves, mover);
        // Hopeless moves are left out unless nothing else is left.
        let hopeless: Vec<bool> = self.moves.iter().map(|&mv| pos.hopeless(mv)).collect();
        let hopeful = hopeless.contains(&false);
        let patterns = pos.patterns();
        for ((c, &mv), hopeless) in self.tree.children(id).zip(&self.moves).zip(hopeless) {
            let prior = match pos.prior(mv) {
                Some(p) => Some((settings.prior_weight, p)),
                None if settings.patterns && !patterns.is_empty() => {
                    match learned::candidate(pos, mv, &self.played) {
                        // The rule set's own knowledge judges tactical moves (a Go atari that a
                        // ladder may or may not catch): a shape's statistics cannot.
                        Candidate::Place(f) if f.tactics != 0 => None,
                        candidate => Some((settings.pattern_weight, patterns.prior(&candidate))),
                    }
                }
                None => None,
            };
            let child = self.tree.node_mut(c);
            child.pruned = hopeful && hopeless;
            if let Some((weight, p)) = prior {
                child.amaf_visits = weight;
                child.amaf_wins = weight as f32 * p;
            }
            if forcing == Forcing::Win(mv) {
                child.proof = Proof::Win;
            }
        }
        // The winner when the forced moves decide the position (the root's own proof is
        // never read).
        let decided = match forcing {
            Forcing::Win(_) => Some(mover),
            Forcing::Only if self.tree.node(id).children == 0 => Some(mover.opponent()),
            _ => None,
        };
        if let Some(winner) = decided {
            let node = self.tree.node_mut(id);
            node.proof = Proof::won_by(winner, node.mover);
        }
    }

    /// Runs simulations from `root` until `limits` say stop; returns how many ran.
    pub fn run<P: Knowledge>(
        &mut self,
        root: &P,
        limits: &SearchLimits,
        settings: &Settings,
    ) -> u64 {
        let cells = root.topology().len();
        self.stamps.resize(2 * (cells + Move::BEYOND_CELLS), 0);
        let start = Instant::now();
        let mut done = 0;
        // Each simulation starts from a copy of the root, made in place (a Go board's tables
        // are copied without allocating).
        let mut pos = root.clone();
        while !limits.exhausted(done) {
            pos.clone_from(root);
            self.simulate(&mut pos, settings, cells);
            done += 1;
            if settings.stop_early && done % SETTLE_CHECK == 0 && self.settled(limits, done, start)
            {
                break;
            }
        }
        done
    }

    /// Whether more simulations cannot change the move this tree would choose: a move is
    /// proven won or every move is proven lost, the most visited move leads the next by more
    /// simulations than are left (`done` ran since `start`, the time left is converted at
    /// that rate), or the most visited move wins surely.
    fn settled(&self, limits: &SearchLimits, done: u64, start: Instant) -> bool {
        let (mut first, mut second) = (None::<&Node>, 0);
        for c in self.tree.children(ROOT) {
            let child = self.tree.node(c);
            match child.proof {
                Proof::Win => return true,
                Proof::Loss => continue,
                Proof::Unknown if child.pruned => continue,
                Proof::Unknown => {}
            }
            match first {
                Some(best) if child.visits <= best.visits => second = second.max(child.visits),
                _ => {
                    second = first.map_or(0, |best| best.visits);
                    first = Some(child);
                }
            }
        }
        let Some(best) = first else {
            return true;
        };
        if best.visits >= SURE_WIN_VISITS
            && f64::from(best.wins) >= SURE_WIN_RATE * f64::from(best.visits)
        {
            return true;
        }
        let mut left = limits.playouts.saturating_sub(done);
        if let Some(deadline) = limits.stop.deadline {
            let now = Instant::now();
            let rate = done as f64 / now.duration_since(start).as_secs_f64().max(1e-6);
            left = left.min((rate * deadline.saturating_duration_since(now).as_secs_f64()) as u64);
        }
        u64::from(best.visits - second) > left
    }

    /// One simulation from `pos`, the root's position, which it plays on.
    fn simulate<P: Knowledge>(&mut self, pos: &mut P, settings: &Settings, cells: usize) {
        self.path.clear();
        self.path.push(ROOT);
        self.played.clear();
        let mut id = ROOT;
        // The winner, when the selection stops at a proven node.
        let mut proven = None;
        // Selection and expansion.
        while let Some(mover) = pos.turn() {
            if !self.tree.node(id).expanded {
                let grow = id == ROOT
                    || (self.tree.node(id).visits >= settings.expand_after
                        && self.tree.len() < settings.max_nodes);
                if !grow {
                    break;
                }
                self.expand(id, pos, settings);
            }
            let node = self.tree.node(id);
            if id != ROOT {
                if let Some(winner) = node.proven_winner() {
                    proven = Some(winner);
                    break;
                }
            }
            let Some(next) = self.select(id, settings) else {
                break;
            };
            id = next;
            let mv = self.tree.node(id).mv;
            pos.play(mv).expect("children are legal moves");
            self.played.push((mv, mover));
            self.path.push(id);
            let child = self.tree.node_mut(id);
            if child.hash == 0 {
                child.hash = pos.hash();
                let winner = pos.outcome().and_then(|o| o.winner);
                if let Some(winner) = winner.filter(|_| pos.ending_is_final()) {
                    child.proof = Proof::won_by(winner, mover);
                }
            }
        }
        let in_tree = self.played.len();
        if pos.turn().is_none() && !pos.ending_is_final() {
            pos.resume();
        }
        if proven.is_none() {
            play_out(
                pos,
                &mut self.played,
                settings.rollout,
                settings.patterns,
                &mut self.rng,
            );
        }
        let winner = proven.or_else(|| pos.outcome().and_then(|o| o.winner));
        self.backup(winner, in_tree, cells);
        self.prove();
    }

    /// Proves the nodes of the last simulation's path from their children, deepest first,
    /// as far up as proofs go. Proofs start at the end of a path (a finished game, a node its
    /// forced moves decide, or one proven before), so there is nothing to do when the last
    /// node is unproven.
    fn prove(&mut self) {
        let last = *self.path.last().expect("a path starts at the root");
        if self.tree.node(last).proof == Proof::Unknown {
            return;
        }
        for &id in self.path.iter().skip(1).rev() {
            if self.tree.node(id).proof == Proof::Unknown {
                let Some(winner) = self.winner_by_children(id) else {
                    break;
                };
                let node = self.tree.node_mut(id);
                node.proof = Proof::won_by(winner, node.mover);
            }
        }
    }

    /// The winner of `id`'s position by its children's proofs, if they decide it: the
    /// player to move wins with one child won for its mover, and loses when all are lost.
    fn winner_by_children(&self, id: NodeId) -> Option<Color> {
        let mut lost = None;
        let mut open = false;
        for c in self.tree.children(id) {
            let child = self.tree.node(c);
            match child.proof {
                Proof::Win => return Some(child.mover),
                Proof::Loss => lost = Some(child.mover.opponent()),
                Proof::Unknown => open = true,
            }
        }
        if open {
            None
        } else {
            lost
        }
    }

    /// The child of `id` to descend into: a child proven won, else the best by the
    /// RAVE-blended value plus the UCT exploration term, proven losses last; `None` when no
    /// child may be played (the node has none, or every one is pruned).
    fn select(&self, id: NodeId, settings: &Settings) -> Option<NodeId> {
        let log_n = f64::from(self.tree.node(id).visits.max(1)).ln();
        let explore = settings.exploration * log_n.sqrt();
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for c in self.tree.children(id) {
            let child = self.tree.node(c);
            if child.pruned {
                continue;
            }
            if child.proof == Proof::Win {
                return Some(c);
            }
            let n = f64::from(child.visits);
            let na = f64::from(child.amaf_visits);
            let score = if n == 0.0 && na == 0.0 {
                FIRST_PLAY_URGENCY
            } else {
                // The blend (1 − β)·w/n + β·w̃/ñ with β = ñ / (n + ñ + b·n·ñ), over its one
                // denominator: (w·(1 + b·ñ) + w̃) / (n + ñ + b·n·ñ). Fewer divisions: this
                // loop is a good part of a simulation's cost.
                let bias = settings.rave_bias * na;
                let value = (f64::from(child.wins) * (1.0 + bias) + f64::from(child.amaf_wins))
                    / (n + na + bias * n);
                value + explore / (n + 1.0).sqrt()
            };
            let score = if child.proof == Proof::Loss {
                score - LOST
            } else {
                score
            };
            if score > best_score {
                best_score = score;
                best = Some(c);
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
        let stride = cells + Move::BEYOND_CELLS;
        let mark = |stamps: &mut [u32], stamp, (mv, mover): (Move, Color)| {
            stamps[mover.index() * stride + mv.index(cells)] = stamp;
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
            let children = self.tree.child_nodes_mut(id);
            // Siblings share their mover.
            let Some(mover) = children.first().map(|c| c.mover) else {
                continue;
            };
            let played = &self.stamps[mover.index() * stride..][..stride];
            let result = result_for(winner, mover);
            for child in children {
                if played[child.mv.index(cells)] == self.stamp {
                    child.amaf_visits += 1;
                    child.amaf_wins += result;
                }
            }
        }
    }
}

//! Search guided by an evaluator (AlphaZero's PUCT): each simulation walks down the tree by
//! the evaluator's priors and the values found so far, and the evaluator values the leaf
//! instead of a random playout finishing the game.
//!
//! Leaves are evaluated in batches: a simulation marks its path with a virtual loss, so the
//! next one in the same batch walks elsewhere, and the whole batch goes to the evaluator at
//! once (a network evaluates eight positions in little more time than one). The tree is kept
//! between moves and reused when the game went on through it.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Gamma};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_net::{uniform_priors, Evaluation, Network, Stencil};
use toroid_rules::{random_playout, AnyGame, Bot, Cell, Color, Move, Position, TimeLeft};
use toroid_rules::{GameKind, Outcome, Topology};

use crate::analysis::{Analysis, Analyst, MoveInfo};
use crate::budget::{moves_left, Budget, Pace, SearchLimits};
use crate::policy::house_playout;
use crate::tree::Proof;

/// What values positions for the search: priors over the legal moves and a value for the
/// player to move.
pub trait Evaluator: Send {
    /// The evaluations of `positions` (at least one), games not over, all on one board.
    fn evaluate(&mut self, positions: &[&AnyGame]) -> Vec<Evaluation>;
}

/// A network as an evaluator.
pub struct NetworkEvaluator {
    network: Arc<Network>,
    /// The stencil of the last board evaluated (a bot plays one board at a time).
    stencil: Option<(Topology, Stencil)>,
}

impl NetworkEvaluator {
    pub fn new(network: Arc<Network>) -> NetworkEvaluator {
        NetworkEvaluator {
            network,
            stencil: None,
        }
    }
}

impl Evaluator for NetworkEvaluator {
    fn evaluate(&mut self, positions: &[&AnyGame]) -> Vec<Evaluation> {
        let Some(first) = positions.first() else {
            return Vec::new();
        };
        let topology = first.topology();
        if self.stencil.as_ref().is_none_or(|(t, _)| t != topology) {
            let stencil = Stencil::new(topology, self.network.device()).expect("a stencil");
            self.stencil = Some((topology.clone(), stencil));
        }
        let (_, stencil) = self.stencil.as_ref().expect("just made");
        self.network
            .evaluate(positions, stencil)
            .expect("the network evaluates a batch of its own board")
    }
}

/// An evaluator without knowledge: uniform priors, and the result of one random playout as
/// the value. With it the search is plain Monte Carlo tree search with PUCT's selection,
/// which the tests compare with [`crate::Mcts`].
pub struct PlayoutEvaluator {
    rng: Xoshiro256PlusPlus,
}

impl PlayoutEvaluator {
    pub fn new(seed: u64) -> PlayoutEvaluator {
        PlayoutEvaluator {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Evaluator for PlayoutEvaluator {
    fn evaluate(&mut self, positions: &[&AnyGame]) -> Vec<Evaluation> {
        positions
            .iter()
            .map(|&position| {
                let mut mask = vec![false; position.topology().len() + Move::BEYOND_CELLS];
                position.legal_mask(&mut mask);
                let priors = uniform_priors(&mask);
                let mover = position.turn().expect("a game not over");
                let mut playout = position.clone();
                random_playout(&mut playout, &mut self.rng);
                Evaluation {
                    priors,
                    value: outcome_value(playout.outcome(), mover),
                }
            })
            .collect()
    }
}

/// The result of `outcome` for `player`: 1 a win, −1 a loss, 0 a draw or no result.
fn outcome_value(outcome: Option<Outcome>, player: Color) -> f32 {
    match outcome.and_then(|o| o.winner) {
        Some(winner) if winner == player => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// Dirichlet noise mixed into the root's priors, so that self-play tries moves the network
/// does not yet like.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Noise {
    /// The Dirichlet concentration (AlphaZero: 0.3 for chess, 0.03 for Go; about 10 over
    /// the legal moves).
    pub alpha: f32,
    /// The share of the noise in the priors.
    pub fraction: f32,
}

/// How a [`Zero`] search runs.
#[derive(Clone, Debug)]
pub struct ZeroConfig {
    pub budget: Budget,
    /// Leaves evaluated together.
    pub batch: usize,
    /// PUCT's exploration constant.
    pub exploration: f32,
    /// How much less than its parent an unvisited move is worth ("first-play urgency").
    pub unvisited_penalty: f32,
    /// Noise at the root (self-play only).
    pub noise: Option<Noise>,
    /// Moves chosen in proportion to their visits for this many plies of a game, the most
    /// visited after (self-play opens with variety; play takes the best at once).
    pub sampled_plies: usize,
    /// Nodes the tree may hold before it is dropped between moves.
    pub max_nodes: usize,
    /// The share of a house playout's result in a leaf's value, the rest the evaluator's
    /// (AlphaGo's mixing λ; 0: the evaluator alone, as AlphaZero).
    pub playout_share: f32,
}

impl ZeroConfig {
    pub fn new(budget: Budget) -> ZeroConfig {
        ZeroConfig {
            budget,
            batch: 8,
            exploration: 1.5,
            unvisited_penalty: 0.2,
            noise: None,
            sampled_plies: 0,
            max_nodes: 2_000_000,
            playout_share: 0.0,
        }
    }
}

/// One node: the position after `mv`.
#[derive(Clone, Debug)]
struct Node {
    mv: Move,
    /// Who played `mv` (at the root: the player not to move).
    mover: Color,
    prior: f32,
    visits: u32,
    /// Simulations through this node whose leaf waits for the evaluator.
    pending: u32,
    /// The sum of the results for `mover`.
    value_sum: f32,
    /// The children, `first..first + count` in the arena (`count == 0`: not expanded).
    first: u32,
    count: u32,
    /// The position's hash, set once the node is expanded (0 before).
    hash: u64,
}

impl Node {
    fn new(mv: Move, mover: Color, prior: f32, hash: u64) -> Node {
        Node {
            mv,
            mover,
            prior,
            visits: 0,
            pending: 0,
            value_sum: 0.0,
            first: 0,
            count: 0,
            hash,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }

    /// The mean result for `mover`, pending simulations counted as losses.
    fn q(&self) -> f32 {
        (self.value_sum - self.pending as f32) / (self.visits + self.pending).max(1) as f32
    }
}

/// The PUCT search as a bot.
pub struct Zero {
    name: String,
    config: ZeroConfig,
    evaluator: Box<dyn Evaluator>,
    rng: Xoshiro256PlusPlus,
    nodes: Vec<Node>,
    root: usize,
    pace: Option<Arc<dyn Pace>>,
}

impl Zero {
    pub fn new(
        name: impl Into<String>,
        config: ZeroConfig,
        evaluator: Box<dyn Evaluator>,
        seed: u64,
    ) -> Zero {
        Zero {
            name: name.into(),
            config,
            evaluator,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            nodes: Vec::new(),
            root: 0,
            pace: None,
        }
    }

    /// A search with `network` on the CPU.
    pub fn with_network(name: &str, config: ZeroConfig, network: Arc<Network>, seed: u64) -> Zero {
        Zero::new(name, config, Box::new(NetworkEvaluator::new(network)), seed)
    }

    pub fn with_pace(mut self, pace: Arc<dyn Pace>) -> Zero {
        self.pace = Some(pace);
        self
    }

    pub fn config_mut(&mut self) -> &mut ZeroConfig {
        &mut self.config
    }

    /// Searches `game` (not over) and reports the root's moves, most visited first.
    pub fn analyse(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Analysis {
        let start = Instant::now();
        let limits = SearchLimits::new(
            self.config.budget,
            time,
            moves_left(game),
            self.pace.clone(),
        );
        self.take_root(game);
        let mut done = 0u64;
        if self.nodes[self.root].count == 0 {
            done += self.simulate(game, 1) as u64;
        }
        if let Some(noise) = self.config.noise {
            self.add_noise(noise);
        }
        while !limits.exhausted(done) {
            let batch = (self.config.batch as u64)
                .min(limits.playouts - done)
                .max(1);
            done += self.simulate(game, batch as usize) as u64;
        }
        self.report(game, done, start)
    }

    /// Visit shares of the root's moves after [`Zero::analyse`], one per action (the
    /// policy target of self-play).
    pub fn visit_shares(&self, actions: usize) -> Vec<f32> {
        let root = &self.nodes[self.root];
        let mut shares = vec![0.0; actions];
        let total: u32 = root.children().map(|c| self.nodes[c].visits).sum();
        for child in root.children().map(|c| &self.nodes[c]) {
            shares[child.mv.index(actions - Move::BEYOND_CELLS)] =
                child.visits as f32 / total.max(1) as f32;
        }
        shares
    }

    /// Makes the node of `game` the root: the old tree's node where the game went on
    /// through it, a fresh tree otherwise.
    fn take_root(&mut self, game: &AnyGame) {
        let hash = game.hash();
        let reused = (self.nodes.len() < self.config.max_nodes)
            .then(|| self.find(self.root, hash, 4))
            .flatten();
        match reused {
            Some(node) => self.root = node,
            None => {
                let mover = game.turn().expect("a game not over").opponent();
                self.nodes.clear();
                self.nodes.push(Node::new(Move::Pass, mover, 1.0, hash));
                self.root = 0;
            }
        }
    }

    /// The expanded node within `depth` plies below `from` whose position has `hash`.
    fn find(&self, from: usize, hash: u64, depth: usize) -> Option<usize> {
        let node = self.nodes.get(from)?;
        if node.hash == hash && node.count > 0 {
            return Some(from);
        }
        if depth == 0 {
            return None;
        }
        node.children().find_map(|c| self.find(c, hash, depth - 1))
    }

    fn add_noise(&mut self, noise: Noise) {
        let root = self.root;
        if self.nodes[root].count == 0 {
            return;
        }
        let gamma = Gamma::new(f64::from(noise.alpha), 1.0).expect("a positive alpha");
        let draws: Vec<f64> = (self.nodes[root].children())
            .map(|_| gamma.sample(&mut self.rng))
            .collect();
        let sum: f64 = draws.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        for (child, draw) in self.nodes[root].children().zip(draws) {
            let prior = &mut self.nodes[child].prior;
            *prior = (1.0 - noise.fraction) * *prior + noise.fraction * (draw / sum) as f32;
        }
    }

    /// Runs up to `batch` simulations from `game`, the root's position, and returns how
    /// many ran (fewer when one walks into a leaf another is already waiting on).
    fn simulate(&mut self, game: &AnyGame, batch: usize) -> usize {
        let mut waiting: Vec<(Vec<usize>, AnyGame)> = Vec::new();
        let mut finished = 0;
        for _ in 0..batch {
            let mut position = game.clone();
            let mut path = vec![self.root];
            loop {
                let node = *path.last().expect("a path");
                if self.nodes[node].count == 0 {
                    break;
                }
                let child = self.select(node);
                position.play_legal(self.nodes[child].mv);
                path.push(child);
            }
            let leaf = *path.last().expect("a path");
            if position.turn().is_none() {
                let winner = position.outcome().and_then(|o| o.winner);
                self.back_up(
                    &path,
                    winner.unwrap_or(Color::Black),
                    winner.map_or(0.0, |_| 1.0),
                    false,
                );
                finished += 1;
                continue;
            }
            if self.nodes[leaf].pending > 0 {
                // Another simulation of this batch waits on the same leaf.
                break;
            }
            for &n in &path {
                self.nodes[n].pending += 1;
            }
            waiting.push((path, position));
        }
        if waiting.is_empty() {
            return finished;
        }
        let positions: Vec<&AnyGame> = waiting.iter().map(|(_, p)| p).collect();
        let evaluations = self.evaluator.evaluate(&positions);
        for ((path, position), evaluation) in waiting.iter().zip(evaluations) {
            let leaf = *path.last().expect("a path");
            let mover = position.turn().expect("a game not over");
            self.expand(leaf, position, mover, &evaluation.priors);
            let share = self.config.playout_share;
            let value = if share > 0.0 {
                let node = &self.nodes[leaf];
                let last = (leaf != self.root).then_some((node.mv, node.mover));
                let outcome = house_playout(position, last, &mut self.rng);
                (1.0 - share) * evaluation.value + share * outcome_value(outcome, mover)
            } else {
                evaluation.value
            };
            self.back_up(path, mover, value, true);
        }
        finished + waiting.len()
    }

    /// The child of `node` with the highest PUCT score.
    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let visits: u32 = parent.visits + parent.pending;
        let sqrt = (visits.max(1) as f32).sqrt();
        let mut best = (f32::NEG_INFINITY, parent.first as usize);
        for c in parent.children() {
            let child = &self.nodes[c];
            // The parent's value for the child's mover, less the penalty, for moves not tried.
            let parent_q = if child.mover == parent.mover {
                parent.q()
            } else {
                -parent.q()
            };
            let q = if child.visits + child.pending == 0 {
                parent_q - self.config.unvisited_penalty
            } else {
                child.q()
            };
            let u = self.config.exploration * child.prior * sqrt
                / (1 + child.visits + child.pending) as f32;
            if q + u > best.0 {
                best = (q + u, c);
            }
        }
        best.1
    }

    fn expand(&mut self, leaf: usize, position: &AnyGame, mover: Color, priors: &[f32]) {
        if self.nodes[leaf].count > 0 {
            return;
        }
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let cells = position.topology().len();
        let first = self.nodes.len() as u32;
        for mv in moves {
            // A child's hash is set when it is expanded in turn: only expanded nodes are
            // looked for when the tree is reused.
            self.nodes
                .push(Node::new(mv, mover, priors[mv.index(cells)], 0));
        }
        let count = self.nodes.len() as u32 - first;
        let node = &mut self.nodes[leaf];
        node.hash = position.hash();
        node.first = first;
        node.count = count;
    }

    /// Adds the result `value` for `player` to every node of `path`.
    fn back_up(&mut self, path: &[usize], player: Color, value: f32, pending: bool) {
        for &n in path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            if pending {
                node.pending -= 1;
            }
            node.value_sum += if node.mover == player { value } else { -value };
        }
    }

    fn report(&mut self, game: &AnyGame, simulations: u64, start: Instant) -> Analysis {
        let cells = game.topology().len();
        let root = &self.nodes[self.root];
        let mut children: Vec<usize> = root.children().collect();
        children.sort_by(|&a, &b| {
            let (a, b) = (&self.nodes[a], &self.nodes[b]);
            (b.visits, b.prior)
                .partial_cmp(&(a.visits, a.prior))
                .expect("finite priors")
        });
        let sampled = game.ply() < self.config.sampled_plies;
        if sampled {
            let total: u32 = children.iter().map(|&c| self.nodes[c].visits).sum();
            if total > 0 {
                let mut pick = self.rng.random_range(0..total);
                let chosen = (children.iter().position(|&c| {
                    let v = self.nodes[c].visits;
                    let hit = pick < v;
                    pick = pick.saturating_sub(v);
                    hit
                }))
                .unwrap_or(0);
                children.swap(0, chosen);
            }
        }
        let mut visit_map = vec![0; cells];
        let moves = (children.iter())
            .map(|&c| {
                let node = &self.nodes[c];
                if let Move::Place(cell) = node.mv {
                    visit_map[cell.index()] = node.visits;
                }
                MoveInfo {
                    mv: node.mv,
                    visits: node.visits,
                    win_rate: f64::from((node.q() + 1.0) / 2.0),
                    proof: Proof::Unknown,
                    pv: self.principal_variation(c),
                }
            })
            .collect();
        Analysis {
            simulations,
            elapsed: start.elapsed(),
            moves,
            visit_map,
        }
    }

    fn principal_variation(&self, from: usize) -> Vec<Move> {
        let mut pv = vec![self.nodes[from].mv];
        let mut node = from;
        while let Some(next) = (self.nodes[node].children())
            .filter(|&c| self.nodes[c].visits > 0)
            .max_by_key(|&c| self.nodes[c].visits)
        {
            pv.push(self.nodes[next].mv);
            node = next;
        }
        pv
    }
}

impl Bot for Zero {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Move {
        self.analyse(game, time)
            .best_move()
            .expect("choose is only called on games that are not over")
    }

    fn dead_stones(&mut self, game: &AnyGame) -> Vec<Cell> {
        crate::ownership::house_judgement(game)
    }
}

/// The weights of a network built into the crate, read once into `cell`.
pub fn embedded_network(
    cell: &'static OnceLock<Arc<Network>>,
    bytes: &'static [u8],
) -> &'static Arc<Network> {
    cell.get_or_init(|| {
        let network = Network::from_safetensors(bytes, &toroid_net::Device::Cpu)
            .expect("the built-in networks are read by the tests");
        Arc::new(network)
    })
}

/// The house network of `game`'s rule set ([`crate::knowledge::Knowledge::network`]).
pub fn house_network(game: &AnyGame) -> Option<Arc<Network>> {
    use crate::knowledge::Knowledge;
    toroid_rules::with_game!(game, g => g.network().cloned())
}

/// The `zero` level: a [`Zero`] search with the house network of the rule set it is asked
/// about, kept while the rule set stays the same (so its tree carries over between moves).
/// A rule set without a network ([`crate::Level::plays`] says which have one) gets the same
/// search with uniform priors and playouts, so that a GTP controller that changes the game
/// still gets moves.
pub struct HouseZero {
    config: ZeroConfig,
    seed: u64,
    pace: Option<Arc<dyn Pace>>,
    search: Option<(GameKind, Zero)>,
}

impl HouseZero {
    pub fn new(config: ZeroConfig, seed: u64, pace: Option<Arc<dyn Pace>>) -> HouseZero {
        HouseZero {
            config,
            seed,
            pace,
            search: None,
        }
    }

    fn search_for(&mut self, game: &AnyGame) -> &mut Zero {
        if self
            .search
            .as_ref()
            .is_none_or(|(kind, _)| *kind != game.kind())
        {
            let evaluator: Box<dyn Evaluator> = match house_network(game) {
                Some(network) => Box::new(NetworkEvaluator::new(network)),
                None => Box::new(PlayoutEvaluator::new(self.seed)),
            };
            let mut zero = Zero::new("zero", self.config.clone(), evaluator, self.seed);
            if let Some(pace) = &self.pace {
                zero = zero.with_pace(pace.clone());
            }
            self.search = Some((game.kind(), zero));
        }
        &mut self.search.as_mut().expect("just made").1
    }

    /// The search's analysis of `game` (not over).
    pub fn analyse(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Analysis {
        self.search_for(game).analyse(game, time)
    }
}

// The search has no early stop: an analysis spends the whole budget already.
impl Analyst for HouseZero {
    fn analyse_fully(&mut self, game: &AnyGame) -> Analysis {
        self.analyse(game, None)
    }
}

impl Bot for HouseZero {
    fn name(&self) -> String {
        "zero".into()
    }

    fn choose(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Move {
        self.search_for(game).choose(game, time)
    }

    fn dead_stones(&mut self, game: &AnyGame) -> Vec<Cell> {
        crate::ownership::house_judgement(game)
    }
}

//! Search and house bots for toroid's games.
//!
//! A [`Bot`](toroid_rules::Bot) chooses moves for any rule set; [`Level`] names the house bots from weakest to
//! strongest and builds them. [`Mcts`] is the tree search (UCT with RAVE, root-parallel
//! threads, tree reuse, per-game playout policies, forced moves and priors, proven wins and
//! losses); [`Mcts::analyse`] reports what it found as an [`Analysis`].

pub mod analysis;
pub mod budget;
pub mod games;
pub mod greedy;
pub mod knowledge;
pub mod learned;
pub mod level;
pub mod mcts;
pub mod ownership;
pub mod policy;
pub mod puzzle;
pub mod random;
pub mod search;
pub mod tactics;
pub mod training;
pub mod tree;
pub mod zero;

pub use analysis::{Analysis, Analyst, MoveInfo};
pub use budget::{Budget, Pace, Stop};
pub use greedy::GreedyBot;
pub use level::{Level, NoNetwork, Tuning, UnknownLevel};
pub use mcts::{all_cores, Mcts, MctsConfig};
pub use policy::Rollout;
pub use random::RandomBot;
pub use search::Settings;
pub use tree::Proof;
pub use zero::{Evaluator, NetworkEvaluator, PlayoutEvaluator, Zero, ZeroConfig};

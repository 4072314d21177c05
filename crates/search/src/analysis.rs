//! What a search found about a position, merged over the threads' trees: the candidate
//! moves with visits, win rates and principal variations, and a per-cell visit map.

use std::time::Duration;

use toroid_rules::{AnyGame, Bot, Move};

use crate::tree::{Proof, Tree, ROOT};

/// A bot that searches and can report what it found: the MCTS levels and `zero`.
pub trait Analyst: Bot {
    /// What a search of `game` (not over) finds with the bot's whole budget spent: it does
    /// not stop once more simulations could not change the move, so that the visits of a
    /// playout budget are the budget's (training targets, as `toroid.Bot.analyse` gives them).
    fn analyse_fully(&mut self, game: &AnyGame) -> Analysis;
}

/// Longest principal variation reported.
const PV_LENGTH: usize = 12;

/// One candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: Move,
    /// Simulations through this move, over all threads.
    pub visits: u32,
    /// Mean result for the player to move (1 win, ½ draw, 0 loss).
    pub win_rate: f64,
    /// What the search proved about the move: it wins (at once or whatever the opponent
    /// does) or it loses to best play.
    pub proof: Proof,
    /// The expected continuation, starting with `mv` (from the thread that searched it most).
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Simulations run for this move (not counting those reused from earlier moves).
    pub simulations: u64,
    pub elapsed: Duration,
    /// Candidate moves, best first: proven wins, then by visits, proven losses last.
    pub moves: Vec<MoveInfo>,
    /// Visits of each cell's placement at the root, indexed by cell (a heat map).
    pub visit_map: Vec<u32>,
}

impl Analysis {
    /// The move to play: the first candidate.
    pub fn best_move(&self) -> Option<Move> {
        self.moves.first().map(|m| m.mv)
    }

    /// The expected result for the player to move, by the best move's win rate.
    pub fn win_rate(&self) -> Option<f64> {
        self.moves.first().map(|m| m.win_rate)
    }

    /// The same on a network's value scale: −1 a loss, 1 a win for the player to move.
    pub fn value(&self) -> Option<f64> {
        self.win_rate().map(|w| 2.0 * w - 1.0)
    }

    /// Merges the root statistics of `trees`, which searched the same position on a board
    /// of `cells` cells.
    pub fn merge(trees: &[&Tree], cells: usize, simulations: u64, elapsed: Duration) -> Analysis {
        let mut moves: Vec<MoveInfo> = Vec::new();
        // The visits of the tree that searched each move most, for its principal variation.
        let mut pv_visits: Vec<u32> = Vec::new();
        let mut wins: Vec<f64> = Vec::new();
        for tree in trees {
            for c in tree.children(ROOT) {
                let node = tree.node(c);
                if node.pruned {
                    continue;
                }
                let i = match moves.iter().position(|m| m.mv == node.mv) {
                    Some(i) => i,
                    None => {
                        moves.push(MoveInfo {
                            mv: node.mv,
                            visits: 0,
                            win_rate: 0.5,
                            proof: Proof::Unknown,
                            pv: vec![node.mv],
                        });
                        pv_visits.push(0);
                        wins.push(0.0);
                        moves.len() - 1
                    }
                };
                let m = &mut moves[i];
                m.visits += node.visits;
                if node.proof != Proof::Unknown {
                    m.proof = node.proof;
                }
                wins[i] += f64::from(node.wins);
                if node.visits > pv_visits[i] {
                    pv_visits[i] = node.visits;
                    m.pv = std::iter::once(node.mv)
                        .chain(tree.principal_variation(c, PV_LENGTH - 1))
                        .collect();
                }
            }
        }
        for (m, w) in moves.iter_mut().zip(&wins) {
            if m.visits > 0 {
                m.win_rate = w / f64::from(m.visits);
            }
        }
        // Proven wins first and proven losses last; by visits in between.
        let rank = |m: &MoveInfo| match m.proof {
            Proof::Win => 2,
            Proof::Unknown => 1,
            Proof::Loss => 0,
        };
        moves.sort_by(|a, b| {
            (rank(b), b.visits)
                .cmp(&(rank(a), a.visits))
                .then(b.win_rate.total_cmp(&a.win_rate))
        });
        let mut visit_map = vec![0; cells];
        for m in &moves {
            if let Some(c) = m.mv.cell() {
                visit_map[c.index()] = m.visits;
            }
        }
        Analysis {
            simulations,
            elapsed,
            moves,
            visit_map,
        }
    }
}

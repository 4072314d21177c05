//! The search tree: an arena of nodes with their statistics, independent of the rule set
//! (a node holds moves and counts, never a position), so one type serves every game.

use std::collections::VecDeque;

use toroid_rules::{Color, Move};

/// What the search has proved about a node, for its mover.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    Unknown,
    /// The mover wins whatever the opponent does.
    Win,
    /// The opponent wins whatever the mover does.
    Loss,
}

impl Proof {
    /// The proof of a node whose mover is `mover` in a position that `winner` wins.
    pub fn won_by(winner: Color, mover: Color) -> Proof {
        if winner == mover {
            Proof::Win
        } else {
            Proof::Loss
        }
    }
}

/// Index of a node in its [`Tree`].
pub type NodeId = u32;

/// The root is always the first node.
pub const ROOT: NodeId = 0;

/// One node: the move that led to it and what the search learnt about it. Counts are from
/// the point of view of the player who made `mv` (in CTOR the same player may move twice in
/// a row, so the mover is stored rather than derived from the depth).
#[derive(Clone, Debug)]
pub struct Node {
    pub mv: Move,
    /// Who played `mv` (meaningless at the root).
    pub mover: Color,
    /// [`toroid_rules::Position::hash`] of the position after `mv`, once the search has
    /// reached it (0 before): tree reuse finds the new root by it.
    pub hash: u64,
    pub first_child: NodeId,
    pub children: u32,
    pub expanded: bool,
    /// What is known of the position after `mv` with perfect play: the game ended there,
    /// or the rule set's forced moves ([`crate::knowledge`]) decided it, or its children's proofs.
    pub proof: Proof,
    /// The search never plays this move (at the root: it lets the opponent win, at once or
    /// by force).
    pub pruned: bool,
    pub visits: u32,
    /// Sum of results for `mover` (1 win, ½ draw, 0 loss).
    pub wins: f32,
    /// All-moves-as-first statistics: results of simulations in which `mover` played `mv`
    /// later from the parent, in any order.
    pub amaf_visits: u32,
    pub amaf_wins: f32,
}

impl Node {
    fn new(mv: Move, mover: Color) -> Node {
        Node {
            mv,
            mover,
            hash: 0,
            first_child: 0,
            children: 0,
            expanded: false,
            proof: Proof::Unknown,
            pruned: false,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }

    /// The winner by the node's proof, if it has one.
    pub fn proven_winner(&self) -> Option<Color> {
        match self.proof {
            Proof::Unknown => None,
            Proof::Win => Some(self.mover),
            Proof::Loss => Some(self.mover.opponent()),
        }
    }

    /// Mean result for the mover, 0.5 before any visit.
    pub fn win_rate(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            f64::from(self.wins) / f64::from(self.visits)
        }
    }
}

/// An arena of nodes; children of a node are contiguous.
#[derive(Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// The buffer of the tree before the last [`Tree::reroot`], empty but allocated, for the
    /// next one. A big tree's memory is worth keeping: fresh pages cost a page fault each,
    /// which took 4% (Go) to 10% (`hex-torus`) of a search's time.
    spare: Vec<Node>,
}

impl Tree {
    /// A tree holding only a root for the position whose hash is `hash`.
    pub fn new(hash: u64) -> Tree {
        Tree {
            nodes: vec![Tree::root_node(hash)],
            spare: Vec::new(),
        }
    }

    fn root_node(hash: u64) -> Node {
        // The root's move and mover are never read.
        let mut root = Node::new(Move::Pass, Color::White);
        root.hash = hash;
        root
    }

    /// Makes this a tree holding only a root for the position whose hash is `hash`, as
    /// [`Tree::new`] does, but in the memory this tree already has.
    pub fn reset(&mut self, hash: u64) {
        self.nodes.clear();
        self.nodes.push(Tree::root_node(hash));
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    pub fn root(&self) -> &Node {
        &self.nodes[ROOT as usize]
    }

    /// The ids of `id`'s children.
    pub fn children(&self, id: NodeId) -> std::ops::Range<NodeId> {
        let n = self.node(id);
        n.first_child..n.first_child + n.children
    }

    /// The children of `id` themselves, in the order of [`Tree::children`].
    pub fn child_nodes_mut(&mut self, id: NodeId) -> &mut [Node] {
        let range = self.children(id);
        &mut self.nodes[range.start as usize..range.end as usize]
    }

    /// Gives `id` one child per move, all played by `mover`.
    pub fn expand(&mut self, id: NodeId, moves: &[Move], mover: Color) {
        let first = self.nodes.len() as NodeId;
        self.nodes
            .extend(moves.iter().map(|&mv| Node::new(mv, mover)));
        let node = self.node_mut(id);
        node.first_child = first;
        node.children = moves.len() as u32;
        node.expanded = true;
    }

    /// The child of `id` with the most visits.
    pub fn most_visited(&self, id: NodeId) -> Option<NodeId> {
        self.children(id).max_by_key(|&c| self.node(c).visits)
    }

    /// The principal variation from `id`: most-visited children, while they were visited.
    pub fn principal_variation(&self, mut id: NodeId, max_len: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        while pv.len() < max_len {
            match self.most_visited(id) {
                Some(c) if self.node(c).visits > 0 => {
                    pv.push(self.node(c).mv);
                    id = c;
                }
                _ => break,
            }
        }
        pv
    }

    /// Keeps only the subtree of the descendant (within `max_depth` plies) whose position
    /// hashes to `hash`, as the new root; `false` (and the tree unchanged) if there is none.
    /// The subtree is copied into the spare buffer, and the old one becomes the spare.
    pub fn reroot(&mut self, hash: u64, max_depth: usize) -> bool {
        let mut queue = VecDeque::from([(ROOT, 0)]);
        let mut found = None;
        while let Some((id, depth)) = queue.pop_front() {
            if id != ROOT && self.node(id).hash == hash {
                found = Some(id);
                break;
            }
            if depth < max_depth {
                queue.extend(self.children(id).map(|c| (c, depth + 1)));
            }
        }
        let Some(new_root) = found else {
            return false;
        };
        // Copy the subtree breadth first, so that children stay contiguous.
        let mut nodes = std::mem::take(&mut self.spare);
        nodes.clear();
        nodes.push(self.node(new_root).clone());
        let mut next = 0;
        while next < nodes.len() {
            let (first, count) = (nodes[next].first_child, nodes[next].children);
            nodes[next].first_child = nodes.len() as NodeId;
            nodes.extend((first..first + count).map(|c| self.node(c).clone()));
            next += 1;
        }
        self.spare = std::mem::replace(&mut self.nodes, nodes);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toroid_rules::Cell;

    /// Gives `id` one child per `(cell, hash)`, each visited `cell` times.
    fn grow(tree: &mut Tree, id: NodeId, children: &[(u16, u64)]) {
        let moves: Vec<Move> = children
            .iter()
            .map(|&(c, _)| Move::Place(Cell(c)))
            .collect();
        tree.expand(id, &moves, Color::Black);
        for (c, &(cell, hash)) in tree.children(id).zip(children) {
            let node = tree.node_mut(c);
            node.hash = hash;
            node.visits = u32::from(cell);
        }
    }

    fn summary(tree: &Tree, id: NodeId) -> Vec<(u64, u32, Vec<u64>)> {
        let node = tree.node(id);
        let mut all = vec![(
            node.hash,
            node.visits,
            tree.children(id).map(|c| tree.node(c).hash).collect(),
        )];
        for c in tree.children(id) {
            all.extend(summary(tree, c));
        }
        all
    }

    #[test]
    fn rerooting_again_in_the_kept_buffer_keeps_each_subtree_whole() {
        let mut tree = Tree::new(100);
        grow(&mut tree, ROOT, &[(1, 1), (2, 2)]);
        let first = tree.children(ROOT).start;
        grow(&mut tree, first + 1, &[(5, 25), (6, 26)]);
        grow(&mut tree, first, &[(3, 13), (4, 14)]);
        let grandchild = tree.children(first).start;
        grow(&mut tree, grandchild, &[(7, 37)]);
        let expected_once = summary(&tree, first);
        let expected_twice = summary(&tree, grandchild);

        assert!(tree.reroot(1, 4));
        assert_eq!(summary(&tree, ROOT), expected_once);
        assert_eq!(tree.len(), expected_once.len());
        // The second reroot copies into the buffer the first one left.
        assert!(tree.reroot(13, 4));
        assert_eq!(summary(&tree, ROOT), expected_twice);
        assert_eq!(tree.len(), 2);
        assert!(!tree.reroot(99, 4));
        assert_eq!(summary(&tree, ROOT), expected_twice);

        tree.reset(200);
        assert_eq!(summary(&tree, ROOT), vec![(200, 0, vec![])]);
    }
}

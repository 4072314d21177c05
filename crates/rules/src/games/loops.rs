//! Loop games: players place one stone a turn and the first to close a loop of a winning kind
//! wins (`hex-torus`, `m-torus`). Stones are never removed, so loops are found incrementally.
//!
//! Every group of stones has a head, and every stone names its group's head and the homology
//! class (see [`Homology`]) of the walk from it to the head along the group's tree: the board
//! edges by which stones joined the group, one per join. When two groups join, the smaller
//! one's stones take the larger one's head. When a new edge joins two stones `u`, `v` of one
//! group, `label(u → v) + to_head(v) - to_head(u)` is the class of the simple cycle made of
//! that edge and the tree path between its ends. Every head also stores what the classes of
//! its group's cycles span; the rules decide from that span whether the group holds a
//! winning loop.
//!
//! A random playout, which only needs the winner, keeps black's groups alone
//! ([`Position::start_playout`]): exactly one player holds a winning loop on a full board, so
//! a board that fills without black's is white's win.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;
use std::ops::{Add, Neg, Sub};
use std::sync::Arc;

use rand::Rng;

use crate::cell::Cell;
use crate::color::Color;
use crate::games::GameKind;
use crate::moves::{IllegalMove, Move};
use crate::outcome::{Outcome, Reason};
use crate::params::{ParamError, ParamSpec, Params};
use crate::position::{ring_field, Position};
use crate::setup::{self, SetupChange, SetupError};
use crate::topology::{Lattice, Seam, Surface, Topology};
use crate::zobrist;

/// An element of the first homology group of the board's surface: the class of a walk,
/// summed from the seam labels of its steps.
pub trait Homology:
    Copy
    + Default
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
{
    /// What the cycle classes of one group span.
    type Span: Copy + Default + Eq + Debug + Send + Sync + 'static;

    /// The class of one step.
    fn of_step(seam: Seam) -> Self;

    /// The span of `span` and one more cycle class.
    fn extend(span: Self::Span, class: Self) -> Self::Span;

    /// The span of two groups' cycle classes together.
    fn join(a: Self::Span, b: Self::Span) -> Self::Span;
}

/// What makes a loop game a particular one.
pub trait LoopRules: Copy + Debug + Send + Sync + 'static {
    type Class: Homology;

    const KIND: GameKind;

    /// The surface the hexagonal board is glued into.
    const SURFACE: Surface;

    /// Refuses a board the surface cannot be glued from (a size that is in range on its own
    /// but breaks the gluing, such as an odd height on the torus).
    fn check_board(width: usize, height: usize) -> Result<(), ParamError>;

    /// Whether a group of `owner`'s stones whose cycle classes span `span` holds a loop
    /// that wins for `owner`.
    fn wins(owner: Color, span: <Self::Class as Homology>::Span) -> bool;

    /// Why a simple loop of this class wins for `owner`, or `None` if it does not.
    fn loop_reason(owner: Color, class: Self::Class) -> Option<Reason>;

    /// Why `owner` wins with a winning group none of whose cycles closed by the last stone
    /// wins by itself (see `hex_torus`: a group with loops in two directions).
    fn spanning_reason(owner: Color) -> Reason;
}

/// The pie rule's parameter, off by default because Steere's rules have none.
pub(crate) const SWAP: ParamSpec = ParamSpec::choice(
    "swap",
    "false",
    &["false", "true"],
    "pie rule: white may take over black's first stone",
);

/// A loop game's parameters, read and checked: the width and height of its hexagonal board,
/// and whether the pie rule is on.
#[derive(Clone, Debug)]
pub struct LoopConfig<R: LoopRules> {
    pub width: usize,
    pub height: usize,
    /// White may answer black's first stone with [`Move::Swap`].
    pub swap: bool,
    params: Params,
    rules: PhantomData<R>,
}

impl<R: LoopRules> LoopConfig<R> {
    pub fn read(params: &Params) -> Result<LoopConfig<R>, ParamError> {
        let width = params.required_int("width")? as usize;
        let height = params.required_int("height")? as usize;
        R::check_board(width, height)?;
        Ok(LoopConfig {
            width,
            height,
            swap: params.required_choice("swap", |v| Some(v == "true"))?,
            params: params.clone(),
            rules: PhantomData,
        })
    }

    /// The parameters this config was read from, for records.
    pub fn params(&self) -> &Params {
        &self.params
    }
}

/// Neighbours of a hexagonal cell.
const DEGREE: usize = 6;

/// One neighbour as a placement reads it: the cell (or the sentinel node, past a cell's
/// last neighbour) and the class of the step to it.
#[derive(Copy, Clone, Debug)]
struct Step<H: Homology> {
    to: u16,
    class: H,
}

/// The parameters and the cell graph, shared by every copy of a game.
#[derive(Debug)]
struct Shared<R: LoopRules> {
    config: LoopConfig<R>,
    topology: Topology,
    /// Per cell, its neighbours in the topology's order, padded with the sentinel node (no
    /// stone) to `DEGREE`: a placement reads all six without a loop of varying length.
    steps: Box<[[Step<R::Class>; DEGREE]]>,
    /// Per cell, bit `j` is set when its neighbour `j` touches neighbour `j - 1` and the
    /// three cells make a contractible triangle (class zero): see [`LoopGame::place`].
    linked: Box<[u8]>,
    /// Per cell, the cells of its ring ([`Topology::ring`]) in order, the sentinel node for
    /// a place off the board, and the fields those places take in a ring code (3 each): the
    /// playouts' learned patterns read a ring at almost every move.
    rings: Box<[([u16; DEGREE], u32)]>,
}

impl<R: LoopRules> Shared<R> {
    fn new(config: LoopConfig<R>) -> Shared<R> {
        let topology = Topology::new(Lattice::HexOddR, R::SURFACE, config.width, config.height);
        let linked = topology
            .cells()
            .map(|c| {
                let slots = topology.neighbors(c);
                (1..slots.len()).fold(0u8, |linked, j| {
                    let (a, b) = (slots[j - 1], slots[j]);
                    let triangle = topology
                        .neighbors(a.cell)
                        .iter()
                        .find(|nb| nb.cell == b.cell)
                        .map(|across| {
                            R::Class::of_step(a.seam) + R::Class::of_step(across.seam)
                                - R::Class::of_step(b.seam)
                        });
                    linked | u8::from(triangle == Some(R::Class::default())) << j
                })
            })
            .collect();
        let sentinel = Step {
            to: topology.len() as u16,
            class: R::Class::default(),
        };
        let steps = topology
            .cells()
            .map(|c| {
                let neighbors = topology.neighbors(c);
                assert!(neighbors.len() <= DEGREE, "a hex cell has six neighbours");
                let mut steps = [sentinel; DEGREE];
                for (step, nb) in steps.iter_mut().zip(neighbors) {
                    *step = Step {
                        to: nb.cell.0,
                        class: R::Class::of_step(nb.seam),
                    };
                }
                steps
            })
            .collect();
        let rings = topology
            .cells()
            .map(|c| {
                let ring = topology.ring(c);
                assert_eq!(ring.len(), DEGREE, "a hex cell's ring has six cells");
                let mut cells = [sentinel.to; DEGREE];
                let mut off = 0;
                for (i, r) in ring.iter().enumerate() {
                    match r {
                        Some(r) => cells[i] = r.0,
                        None => off |= 3 << (2 * i),
                    }
                }
                (cells, off)
            })
            .collect();
        Shared {
            config,
            topology,
            steps,
            linked,
            rings,
        }
    }
}

/// One cell: its stone and, for a stone, its group.
#[derive(Copy, Clone, Debug)]
struct Node<H: Homology> {
    stone: Option<Color>,
    /// Where the cell stands in the list of empty cells (while it is empty).
    slot: u16,
    /// The group's representative stone, its head (the cell itself while alone or empty).
    head: u16,
    /// The next stone of the group, circularly.
    next: u16,
    /// Stones in the group (valid at heads).
    size: u16,
    /// The class of the walk from this stone to its head along the group's tree.
    to_head: H,
    /// What the group's cycle classes span (valid at heads).
    span: H::Span,
}

/// The stones and their groups (both players': a group never holds two colours).
#[derive(Clone, Debug)]
struct Groups<H: Homology> {
    /// One node per cell, then a sentinel that never holds a stone ([`Shared::steps`]).
    nodes: Vec<Node<H>>,
}

/// A loop game in progress. `hex-torus` and `m-torus` are this with their own rules.
#[derive(Clone, Debug)]
pub struct LoopGame<R: LoopRules> {
    shared: Arc<Shared<R>>,
    groups: Groups<R::Class>,
    /// The empty cells, in no particular order (random playouts draw from it).
    empty: Vec<u16>,
    to_move: Color,
    ply: usize,
    hash: u64,
    outcome: Option<Outcome>,
    /// The stone that ended the game: every winning loop passes through it.
    last: Option<Cell>,
    /// Black's first stone while white may still take it over (`swap=true`, move 2).
    swappable: Option<Cell>,
    /// Set by [`Position::start_playout`]: from then on only black's groups are kept, and
    /// a full board without black's loop is white's win.
    playout: bool,
    rules: PhantomData<R>,
}

impl<H: Homology> Groups<H> {
    fn new(n: usize) -> Groups<H> {
        let nodes = (0..=n)
            .map(|i| Node {
                stone: None,
                slot: i as u16,
                head: i as u16,
                next: i as u16,
                size: 1,
                to_head: H::default(),
                span: H::Span::default(),
            })
            .collect();
        Groups { nodes }
    }

    /// The nodes of the board's cells, without the sentinel.
    fn cells(&self) -> &[Node<H>] {
        &self.nodes[..self.nodes.len() - 1]
    }

    /// Adds the lone stone `u` to the group of `v` across the edge `u → v`.
    fn attach(&mut self, u: usize, v: usize, step: H) {
        let nv = self.nodes[v];
        let head = nv.head as usize;
        let next = self.nodes[head].next;
        let node = &mut self.nodes[u];
        node.head = head as u16;
        node.to_head = step + nv.to_head;
        node.next = next;
        self.nodes[head].next = u as u16;
        self.nodes[head].size += 1;
    }

    /// Joins the groups of the stones `u` and `v` across the edge `u → v`. Returns whether
    /// they were in one group already: then the edge closed a cycle, whose class the
    /// group's span takes in.
    ///
    /// Every stone names its head directly, so that this is a few loads instead of two
    /// walks up a forest: the smaller group's stones take the larger one's head (each stone
    /// changes head O(log n) times over a game).
    fn union(&mut self, u: usize, v: usize, step: H) -> bool {
        let (hu, hv) = (self.nodes[u].head as usize, self.nodes[v].head as usize);
        // The walk hu → u → v → hv: the cycle's class when both are one group.
        let across = self.cycle(u, v, step);
        if hu == hv {
            let head = &mut self.nodes[hu];
            head.span = H::extend(head.span, across);
            return true;
        }
        let (small, big, small_to_big) = if self.nodes[hu].size < self.nodes[hv].size {
            (hu, hv, across)
        } else {
            (hv, hu, -across)
        };
        let mut s = small;
        loop {
            let node = &mut self.nodes[s];
            node.head = big as u16;
            node.to_head = node.to_head + small_to_big;
            s = node.next as usize;
            if s == small {
                break;
            }
        }
        let (small_next, big_next) = (self.nodes[small].next, self.nodes[big].next);
        self.nodes[small].next = big_next;
        self.nodes[big].next = small_next;
        self.nodes[big].size += self.nodes[small].size;
        self.nodes[big].span = H::join(self.nodes[big].span, self.nodes[small].span);
        false
    }

    /// The class of the cycle `u → v`, then back along the tree (one group).
    fn cycle(&self, u: usize, v: usize, step: H) -> H {
        step + self.nodes[v].to_head - self.nodes[u].to_head
    }
}

impl<R: LoopRules> From<LoopConfig<R>> for LoopGame<R> {
    /// A new game; black moves first on the empty board.
    fn from(config: LoopConfig<R>) -> LoopGame<R> {
        LoopGame::start(Arc::new(Shared::new(config)))
    }
}

impl<R: LoopRules> LoopGame<R> {
    /// A new game from parameter values; see [`LoopConfig`].
    pub fn new(params: &Params) -> Result<LoopGame<R>, ParamError> {
        Ok(LoopGame::from(LoopConfig::read(params)?))
    }

    /// Checks the groups against the stones, for tests: every stone's group is the set of
    /// stones it connects to, listed from its head, which knows its size; the empty-cell
    /// list is right; and the group's span is exactly what the cycles that its edges close
    /// (each edge with the tree path back) span.
    pub fn check_consistency(&self) -> Result<(), String> {
        let topology = &self.shared.topology;
        let nodes = &self.groups.nodes;
        let mut spans = vec![<R::Class as Homology>::Span::default(); nodes.len()];
        let mut stones = 0;
        for c in topology.cells() {
            let node = nodes[c.index()];
            let Some(color) = node.stone else {
                if self.empty.get(node.slot as usize) != Some(&c.0) {
                    return Err(format!("{c:?} is empty but not at its place in the list"));
                }
                continue;
            };
            stones += 1;
            let head = node.head as usize;
            if nodes[head].head as usize != head || nodes[head].stone != Some(color) {
                return Err(format!(
                    "{c:?} names {head}, which is no head of its colour"
                ));
            }
            for nb in topology.neighbors(c) {
                if nodes[nb.cell.index()].stone == Some(color) {
                    if nodes[nb.cell.index()].head as usize != head {
                        return Err(format!("{c:?} and {:?} touch in two groups", nb.cell));
                    }
                    let class =
                        self.groups
                            .cycle(c.index(), nb.cell.index(), R::Class::of_step(nb.seam));
                    spans[head] = R::Class::extend(spans[head], class);
                }
            }
        }
        for c in topology.cells() {
            let node = nodes[c.index()];
            let (Some(color), head) = (node.stone, c.index()) else {
                continue;
            };
            if node.head as usize == head {
                let size = usize::from(node.size);
                let mut at = head;
                for _ in 0..size {
                    if nodes[at].head as usize != head {
                        return Err(format!("the list of group {head} holds {at}"));
                    }
                    at = nodes[at].next as usize;
                }
                if at != head || self.group_size(c, color) != size {
                    return Err(format!("group {head} is not its list of {size} stones"));
                }
                let (kept, counted) = (node.span, spans[head]);
                if R::Class::join(kept, counted) != kept || R::Class::join(counted, kept) != counted
                {
                    return Err(format!(
                        "group {head} keeps {kept:?}, its cycles span {counted:?}"
                    ));
                }
            }
        }
        if stones + self.empty.len() != topology.len() {
            return Err(format!(
                "{stones} stones and {} empty cells",
                self.empty.len()
            ));
        }
        Ok(())
    }

    /// The empty board of the game `shared` describes, black to move.
    fn start(shared: Arc<Shared<R>>) -> LoopGame<R> {
        let n = shared.topology.len();
        LoopGame {
            shared,
            groups: Groups::new(n),
            empty: (0..n as u16).collect(),
            to_move: Color::Black,
            ply: 0,
            hash: 0,
            outcome: None,
            last: None,
            swappable: None,
            playout: false,
            rules: PhantomData,
        }
    }

    /// White takes over black's first stone: the same cell now holds a white stone, and
    /// black moves. A lone stone is a group of its own, so the forest needs no change.
    fn swap(&mut self, cell: Cell) {
        self.groups.nodes[cell.index()].stone = Some(Color::White);
        self.hash ^= zobrist::stone(cell.index(), Color::Black)
            ^ zobrist::stone(cell.index(), Color::White)
            ^ zobrist::WHITE_TO_MOVE;
        self.ply += 1;
        self.to_move = Color::Black;
        self.swappable = None;
    }

    /// Puts the mover's stone on the empty cell `cell` and judges the loops it closes.
    fn place(&mut self, cell: usize) {
        self.place_at(cell, self.groups.nodes[cell].slot as usize);
    }

    /// [`LoopGame::place`] with the cell's place in the list of empty cells, which a random
    /// draw from that list knows already: one dependent load less per playout move.
    fn place_at(&mut self, cell: usize, slot: usize) {
        let me = self.to_move;
        let first = self.ply == 0 && self.empty.len() == self.shared.topology.len();
        self.swappable = (self.shared.config.swap && first).then_some(Cell(cell as u16));
        self.empty.swap_remove(slot);
        if let Some(&moved) = self.empty.get(slot) {
            self.groups.nodes[moved as usize].slot = slot as u16;
        }
        self.groups.nodes[cell].stone = Some(me);
        self.hash ^= zobrist::stone(cell, me) ^ zobrist::WHITE_TO_MOVE;
        self.ply += 1;
        self.to_move = me.opponent();
        // A playout judges black's loops only, and a full board without one is white's win
        // ([`Position::start_playout`]).
        if self.playout {
            if me == Color::Black {
                self.join_groups(cell, me);
            }
            if self.outcome.is_none() && self.empty.is_empty() {
                self.outcome = Some(Outcome::win(Color::White, R::spanning_reason(Color::White)));
            }
        } else {
            self.join_groups(cell, me);
        }
    }

    /// A random playout move as its slot in the list of empty cells, uniform among the
    /// empty cells and, at move 2 of a game with the pie rule, the swap (the slot past the
    /// list). `None` once the game is over.
    fn playout_draw<G: Rng>(&self, rng: &mut G) -> Option<usize> {
        if self.outcome.is_some() || self.empty.is_empty() {
            return None;
        }
        let choices = self.empty.len() + usize::from(self.swappable.is_some());
        Some(rng.random_range(0..choices))
    }

    /// Joins the new stone `cell` of `me` to its neighbours' groups and judges the loops it
    /// closes.
    fn join_groups(&mut self, cell: usize, me: Color) {
        // The stone joins its own neighbours' groups in slot order: the first edge to each
        // group is a tree edge, each later one closes a simple cycle (that edge and a tree
        // path). A group only starts to win when a cycle closes: groups that merge without
        // one held no winning loop, and their loops, disjoint, cannot cross (on the torus
        // their windings are parallel), so together they hold none either.
        let steps = &self.shared.steps[cell];
        // Which neighbours are the mover's, found without a branch per neighbour (random
        // playouts make each one unpredictable).
        let own = steps.iter().enumerate().fold(0u32, |own, (i, step)| {
            own | u32::from(self.groups.nodes[step.to as usize].stone == Some(me)) << i
        });
        if own == 0 {
            return;
        }
        let step = |j: u32| {
            let step = steps[j as usize];
            (step.to as usize, step.class)
        };
        let first = own.trailing_zeros();
        let (v, class) = step(first);
        self.groups.attach(cell, v, class);
        let mut merged = 1u32 << first;
        // Neighbour `j`, when own and linked to an own neighbour `j - 1`, was in that one's
        // group before this stone: its edge is no tree edge, and its cycle differs from the
        // cycle through `j - 1` (zero or already taken in) by the cycle of the edge between
        // them, which the group had: its class is in the span already. So it is skipped,
        // which saves most unions of a crowded board, and reread below if the stone wins.
        let linked = u32::from(self.shared.linked[cell]);
        let mut rest = own & !(own << 1 & linked) & !merged;
        let mut closed = false;
        while rest != 0 {
            let j = rest.trailing_zeros();
            rest &= rest - 1;
            let (v, class) = step(j);
            if self.groups.union(cell, v, class) {
                closed = true;
            } else {
                merged |= 1 << j;
            }
        }
        if !closed {
            return;
        }
        let head = self.groups.nodes[cell].head as usize;
        if R::wins(me, self.groups.nodes[head].span) {
            // The outcome names the kind of the first winning cycle in slot order, skipped
            // ones included; tree paths keep their classes as groups merge, so every cycle
            // reads the same now as when its edge came.
            let mut cycles = own & !merged;
            let mut reason = None;
            while reason.is_none() && cycles != 0 {
                let (v, class) = step(cycles.trailing_zeros());
                cycles &= cycles - 1;
                reason = R::loop_reason(me, self.groups.cycle(cell, v, class));
            }
            let reason = reason.unwrap_or(R::spanning_reason(me));
            self.outcome = Some(Outcome::win(me, reason));
            self.last = Some(Cell(cell as u16));
        }
    }

    /// The shortest closed walk through `start` over `owner`'s stones whose class is
    /// accepted, as its cells in order (without the return to `start`), found by
    /// breadth-first search over cells paired with the class of the walk so far. Where
    /// every accepted simple loop passes through `start` and every accepted closed walk
    /// splits into simple loops one of which is accepted, the shortest such walk is a simple
    /// loop: a shorter accepted piece would exist otherwise.
    fn shortest_loop(
        &self,
        start: Cell,
        owner: Color,
        accept: impl Fn(R::Class) -> bool,
    ) -> Option<Vec<Cell>> {
        let topology = &self.shared.topology;
        let mine = |c: Cell| self.groups.nodes[c.index()].stone == Some(owner);
        // A simple loop is never longer than its group; a walk of a group with loops in two
        // directions may pass stones twice. The bound only ends the search if no walk exists
        // (the tests find the walk of every winning group well within it).
        let bound = 4 * self.group_size(start, owner) as u32;
        // (cell, class of the walk from start, index of the previous entry, length)
        let mut queue: Vec<(Cell, R::Class, u32, u32)> =
            vec![(start, R::Class::default(), u32::MAX, 0)];
        let mut seen: HashSet<(Cell, R::Class)> = HashSet::new();
        seen.insert((start, R::Class::default()));
        let mut head = 0;
        while let Some(&(at, class, _, length)) = queue.get(head) {
            if length >= bound {
                break;
            }
            for nb in topology.neighbors(at).iter().filter(|nb| mine(nb.cell)) {
                let next = class + R::Class::of_step(nb.seam);
                if nb.cell == start && length >= 2 && accept(next) {
                    let mut walk = vec![];
                    let mut i = head as u32;
                    while i != u32::MAX {
                        walk.push(queue[i as usize].0);
                        i = queue[i as usize].2;
                    }
                    walk.reverse();
                    return Some(walk);
                }
                // The walk may pass `start` on the way (a walk that winds in a new direction
                // may need to).
                if seen.insert((nb.cell, next)) {
                    queue.push((nb.cell, next, head as u32, length + 1));
                }
            }
            head += 1;
        }
        None
    }

    /// The number of `owner`'s stones in the group of `cell`.
    fn group_size(&self, cell: Cell, owner: Color) -> usize {
        let topology = &self.shared.topology;
        let mut seen = vec![false; self.groups.nodes.len()];
        let mut stack = vec![cell];
        seen[cell.index()] = true;
        let mut count = 0;
        while let Some(at) = stack.pop() {
            count += 1;
            for nb in topology.adjacent(at) {
                if !seen[nb.index()] && self.groups.nodes[nb.index()].stone == Some(owner) {
                    seen[nb.index()] = true;
                    stack.push(nb);
                }
            }
        }
        count
    }
}

impl<R: LoopRules> Position for LoopGame<R> {
    fn kind(&self) -> GameKind {
        R::KIND
    }

    fn params(&self) -> &Params {
        self.shared.config.params()
    }

    fn topology(&self) -> &Topology {
        &self.shared.topology
    }

    fn stone(&self, cell: Cell) -> Option<Color> {
        self.groups.cells().get(cell.index()).and_then(|n| n.stone)
    }

    fn stones(&self, out: &mut [Option<Color>]) {
        for (stone, node) in out.iter_mut().zip(self.groups.cells()) {
            *stone = node.stone;
        }
    }

    fn ring_code(&self, cell: Cell) -> u32 {
        let (ring, off) = self.shared.rings[cell.index()];
        ring.iter().enumerate().fold(off, |code, (i, &r)| {
            code | ring_field(self.groups.nodes[r as usize].stone) << (2 * i)
        })
    }

    fn turn(&self) -> Option<Color> {
        self.outcome.is_none().then_some(self.to_move)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome.is_none() {
            out.extend(
                self.groups
                    .cells()
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.stone.is_none())
                    .map(|(i, _)| Move::Place(Cell(i as u16))),
            );
            if self.swappable.is_some() {
                out.push(Move::Swap);
            }
        }
    }

    /// `legal_moves` without the list: every empty cell, and the swap while it is offered.
    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.outcome.is_some() {
            return;
        }
        for (legal, node) in mask.iter_mut().zip(self.groups.cells()) {
            *legal = node.stone.is_none();
        }
        mask[Move::Swap.index(self.shared.topology.len())] = self.swappable.is_some();
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            // A full board always holds a winning loop, so a placement is always possible.
            Move::Pass => Err(IllegalMove::PassNotAllowed),
            Move::EndTurn => Err(IllegalMove::EndNotAllowed),
            Move::Swap => match self.swappable {
                Some(cell) => {
                    self.swap(cell);
                    Ok(())
                }
                None => Err(IllegalMove::SwapNotAllowed),
            },
            Move::Place(cell) => match self.groups.cells().get(cell.index()) {
                None => Err(IllegalMove::OffBoard),
                Some(n) if n.stone.is_some() => Err(IllegalMove::Occupied),
                Some(_) => {
                    self.place(cell.index());
                    Ok(())
                }
            },
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn empty_cells(&self) -> usize {
        self.empty.len()
    }

    /// Refused where the stones would already hold a winning loop for either player. The
    /// groups are rebuilt by placing the stones one by one.
    fn setup(&mut self, changes: &[SetupChange], to_move: Color) -> Result<(), SetupError> {
        let stones = setup::arrangement(self, changes)?;
        let mut rebuilt = LoopGame::<R>::start(Arc::clone(&self.shared));
        for (c, stone) in stones.iter().enumerate() {
            if let Some(color) = *stone {
                rebuilt.to_move = color;
                rebuilt.place(c);
                if rebuilt.outcome.is_some() {
                    return Err(SetupError::WinningLoop);
                }
            }
        }
        rebuilt.ply = self.ply;
        rebuilt.swappable = None;
        rebuilt.to_move = to_move;
        rebuilt.hash = zobrist::board(&stones)
            ^ if to_move == Color::White {
                zobrist::WHITE_TO_MOVE
            } else {
                0
            };
        *self = rebuilt;
        Ok(())
    }

    /// The cells of a winning loop through the last stone, in order. A loop of a group
    /// with loops in two directions may pass a stone twice (see `hex_torus`).
    fn highlight(&self) -> Vec<Cell> {
        let (Some(outcome), Some(last)) = (self.outcome, self.last) else {
            return Vec::new();
        };
        let Some(winner) = outcome.winner else {
            return Vec::new();
        };
        // A loop of the kind the outcome names.
        self.shortest_loop(last, winner, |c| {
            R::loop_reason(winner, c) == Some(outcome.reason)
        })
        .unwrap_or_default()
    }

    /// Only black's groups are kept from now on. On a full board exactly one player holds a
    /// winning loop (two disjoint loops around the surface cannot be of both players' kinds),
    /// and a player's stones only grow, so whoever closes one first is the only player who
    /// ever holds one. Black wins at black's first winning loop, exactly as before; white
    /// wins when the board fills without one, which may be some moves after the stone that
    /// closed white's loop. White's stones skip the groups (half the work of a playout); an
    /// outcome for white names white's reason for a spanning group, and no highlight.
    fn start_playout(&mut self) {
        self.playout = true;
    }

    fn playout_move<G: Rng>(&self, rng: &mut G) -> Option<Move> {
        let slot = self.playout_draw(rng)?;
        Some(
            self.empty
                .get(slot)
                .map_or(Move::Swap, |&cell| Move::Place(Cell(cell))),
        )
    }

    /// Plays the drawn move without checking it again: an empty cell or the swap that the
    /// draw offered.
    fn play_playout_move<G: Rng>(&mut self, rng: &mut G) -> Option<Move> {
        let slot = self.playout_draw(rng)?;
        match self.empty.get(slot) {
            Some(&cell) => {
                self.place_at(cell as usize, slot);
                Some(Move::Place(Cell(cell)))
            }
            None => {
                self.swap(self.swappable?);
                Some(Move::Swap)
            }
        }
    }
}

//! The Go board engine: stones, chains and liberties, kept up to date stone by stone.
//!
//! Every chain is a circular list of its stones (`next`) with one representative stone, its
//! head (`head`). Per head the board keeps the chain's size and its *pseudo-liberties*: one
//! entry per (stone, empty neighbour) pair, stored as their count, the sum of the empty
//! neighbours' indices and the sum of their squares. A placed or removed stone changes
//! these in O(1) per neighbour and two chains merge by adding them, yet they answer exactly
//! what the rules and the playout policy ask:
//! - the chain has no liberty  ⇔  count = 0;
//! - the chain has exactly one liberty (atari)  ⇔  all entries are the same point
//!   ⇔  count · Σi² = (Σi)² (the equality case of Cauchy–Schwarz), and that point is Σi / count.
//!
//! True liberty counts, which only bots need, are counted on demand by walking the chain.
//! Every point also counts its empty neighbours: most candidate moves of a playout have
//! one, which settles them (legal, not an eye) at a glance.
//!
//! Cells are `u16` indices; index `n` (one past the last cell) is an off-board sentinel that
//! pads every neighbour list to four entries. An empty point is its own head, and the
//! sentinel's head is itself too: their chain entries are scratch space that absorbs (with
//! wrapping arithmetic) the updates the hot loops make without first asking whether a
//! neighbour is a stone. Random playouts make that question unpredictable, and a
//! mispredicted branch costs more than the update.

use std::sync::Arc;

use crate::color::Color;
use crate::topology::Topology;
use crate::zobrist;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
const OFF: u8 = 3;

/// The largest board: 25 × 25.
pub(crate) const MAX_POINTS: usize = 625;
/// Bit set words covering every cell of the largest board.
const SET_WORDS: usize = MAX_POINTS.div_ceil(64);

/// "No point" in `u16` point fields (the ko point, mostly).
pub(crate) const NO_POINT: u16 = u16::MAX;

/// The board code of a player's stones.
#[inline]
pub(crate) fn code(color: Color) -> u8 {
    color.index() as u8 + 1
}

/// The player whose stones a code (`BLACK` or `WHITE`) stands for.
#[inline]
pub(crate) fn player(code: u8) -> Color {
    if code == BLACK {
        Color::Black
    } else {
        Color::White
    }
}

#[inline]
fn key(point: usize, code: u8) -> u64 {
    zobrist::stone(point, player(code))
}

/// The cell graph in the form the engine reads: exactly four neighbour slots per cell, and
/// the eight cells around each (the 3×3 neighbourhood that playout patterns read).
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) topology: Topology,
    neighbors: Box<[[u16; 4]]>,
    around: Box<[[u16; 8]]>,
    /// No cell has the same neighbour twice (only tiny wrapped boards do), so two empty
    /// neighbour slots are two liberties.
    distinct_neighbors: bool,
}

impl Geometry {
    pub(crate) fn new(topology: Topology) -> Geometry {
        let off = topology.len() as u16;
        let neighbors: Box<[[u16; 4]]> = topology
            .cells()
            .map(|c| {
                let mut slots = [off; 4];
                for (slot, nb) in slots.iter_mut().zip(topology.neighbors(c)) {
                    *slot = nb.cell.0;
                }
                slots
            })
            .collect();
        let distinct_neighbors = neighbors
            .iter()
            .all(|slots| (1..4).all(|i| slots[i] == off || !slots[..i].contains(&slots[i])));
        let around = topology
            .cells()
            .map(|c| {
                let mut slots = [off; 8];
                for (slot, r) in slots.iter_mut().zip(topology.ring(c)) {
                    *slot = r.map_or(off, |r| r.0);
                }
                slots
            })
            .collect();
        Geometry {
            topology,
            neighbors,
            around,
            distinct_neighbors,
        }
    }
}

/// What a neighbour of an empty point without empty neighbours means to a stone of the
/// player to move there, by the neighbour's state `colour | atari << 2`, two bits a state in
/// one word: `GIVES_LIBERTY` (an own chain not in atari, or an enemy chain in atari, which
/// the stone captures) and `SPOILS_EYE` (anything but the board's edge or an own chain not
/// in atari). The point is suicide without the first, an own eye without the second. One
/// shift per neighbour, where the playouts test the crowded points they draw.
const GIVES_LIBERTY: u16 = 1;
const SPOILS_EYE: u16 = 2;
const BLACK_MEANINGS: u16 = neighbor_meanings(BLACK);
const WHITE_MEANINGS: u16 = neighbor_meanings(WHITE);

const fn neighbor_meanings(color: u8) -> u16 {
    let mut meanings = 0;
    let mut state = 0;
    while state < 8 {
        let (c, atari) = (state & 3, state >= 4);
        let own_safe = c == color && !atari;
        let liberty = own_safe || (c == color ^ 3 && atari);
        let spoils = !(c == OFF || own_safe);
        let bits = (liberty as u16 * GIVES_LIBERTY) | (spoils as u16 * SPOILS_EYE);
        meanings |= bits << (2 * state);
        state += 1;
    }
    meanings
}

/// The stone of each point code, from a table rather than a test of the code: learning code
/// reads every point of every position (`toroid.VectorEnv`'s observations), and a branch on
/// whether a point is empty is mispredicted about half the time on a random board.
const STONES: [Option<Color>; 4] = [None, Some(Color::Black), Some(Color::White), None];

/// A chain's pseudo-liberties packed in one word, so that adding, removing and merging
/// them is one integer operation: their count in bits 0..12, the sum of their points'
/// indices in bits 12..33 and the sum of the indices' squares in bits 33..64.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Libs(u64);

const COUNT_BITS: u32 = 12;
const SUM_BITS: u32 = 21;

// No field carries into the next on a real chain: it has at most 4 pseudo-liberties per
// stone, at most 625 stones, and indices below 625.
const _: () = {
    let (count, index) = (4 * MAX_POINTS as u64, MAX_POINTS as u64 - 1);
    assert!(count < 1 << COUNT_BITS);
    assert!(count * index < 1 << SUM_BITS);
    assert!(count * index * index < 1 << (64 - COUNT_BITS - SUM_BITS));
};

impl Libs {
    /// One pseudo-liberty at `point`.
    #[inline]
    fn at(point: usize) -> Libs {
        let p = point as u64;
        Libs(1 | p << COUNT_BITS | (p * p) << (COUNT_BITS + SUM_BITS))
    }

    #[inline]
    fn count(self) -> u64 {
        self.0 & ((1 << COUNT_BITS) - 1)
    }

    #[inline]
    fn sum(self) -> u64 {
        (self.0 >> COUNT_BITS) & ((1 << SUM_BITS) - 1)
    }

    #[inline]
    fn sum_sq(self) -> u64 {
        self.0 >> (COUNT_BITS + SUM_BITS)
    }

    /// Wrapping, for the scratch entries of empty points and the sentinel.
    #[inline]
    fn add(self, other: Libs) -> Libs {
        Libs(self.0.wrapping_add(other.0))
    }

    #[inline]
    fn sub(self, other: Libs) -> Libs {
        Libs(self.0.wrapping_sub(other.0))
    }

    /// Exactly one liberty, given at least one (true of every chain between moves; the
    /// answer for scratch entries is meaningless).
    #[inline]
    fn in_atari(self) -> bool {
        self.count() * self.sum_sq() == self.sum() * self.sum()
    }

    /// `in_atari` for a chain that has `point` among its pseudo-liberties (an empty point
    /// next to it): every entry is `point`, so the word is `count` times `Libs::at(point)`.
    /// One multiplication instead of three fields and two, where the playouts test every
    /// neighbour of a candidate.
    #[inline]
    fn only_at(self, point: usize) -> bool {
        self.0 == self.count().wrapping_mul(Libs::at(point).0)
    }
}

/// One chain's pseudo-liberties and size, as `check_consistency` recounts them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Chain {
    libs: Libs,
    size: u16,
}

/// Per-cell state.
#[derive(Copy, Clone, Debug)]
struct Point {
    color: u8,
    /// How many neighbours are empty (garbage on the sentinel, which nothing reads).
    free: u8,
    /// The chain's representative stone; the point itself if empty.
    head: u16,
    /// The next stone of the chain, circularly (stones only).
    next: u16,
    /// Where this point stands in the list of empty points (empty points only).
    empty_at: u16,
}

/// What a placement did.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Placed {
    /// Stones captured.
    pub(crate) captured: u32,
    /// The point of the single captured stone when the placement is a ko capture: it took
    /// exactly one stone and stands alone with that point as its only liberty. Else
    /// `NO_POINT`.
    pub(crate) ko: u16,
    /// Bit `i` is set when the chain on the point's `i`-th neighbour was captured.
    pub(crate) captured_chains: u8,
}

impl Placed {
    /// What a placement that took nothing did.
    pub(crate) const NOTHING: Placed = Placed {
        captured: 0,
        ko: NO_POINT,
        captured_chains: 0,
    };
}

/// A Go board with incrementally maintained chains (see the module documentation).
#[derive(Debug)]
pub(crate) struct Board {
    geometry: Arc<Geometry>,
    /// `n + 1` entries, the last is the off-board sentinel.
    points: Box<[Point]>,
    /// Each chain's pseudo-liberties, indexed by its head (scratch space at empty points and
    /// the sentinel). Apart from the sizes, so that a chain's entry is one word: testing a
    /// point reads the chains of its neighbours, and the fewer cache lines a board's chains
    /// take, the fewer a batch of thousands of boards misses (`toroid.VectorEnv`'s masks).
    libs: Box<[Libs]>,
    /// Each chain's stones, indexed by its head.
    sizes: Box<[u16]>,
    /// The empty points, in no order: the first `empty_len` entries.
    empty: Box<[u16]>,
    empty_len: usize,
    /// Stones on the board per player.
    stones: [u32; 2],
    /// Zobrist hash of the stones.
    hash: u64,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            geometry: Arc::clone(&self.geometry),
            points: self.points.clone(),
            libs: self.libs.clone(),
            sizes: self.sizes.clone(),
            empty: self.empty.clone(),
            empty_len: self.empty_len,
            stones: self.stones,
            hash: self.hash,
        }
    }

    /// Copies into `self`'s own tables where the boards are the same size, without
    /// allocating (see `Go::clone_from`).
    fn clone_from(&mut self, source: &Board) {
        if !Arc::ptr_eq(&self.geometry, &source.geometry) {
            self.geometry = Arc::clone(&source.geometry);
        }
        copy_table(&mut self.points, &source.points);
        copy_table(&mut self.libs, &source.libs);
        copy_table(&mut self.sizes, &source.sizes);
        copy_table(&mut self.empty, &source.empty);
        self.empty_len = source.empty_len;
        self.stones = source.stones;
        self.hash = source.hash;
    }
}

/// `to` becomes a copy of `from`, in place when they have the same length.
fn copy_table<T: Copy>(to: &mut Box<[T]>, from: &[T]) {
    if to.len() == from.len() {
        to.copy_from_slice(from);
    } else {
        *to = from.into();
    }
}

impl Board {
    pub(crate) fn new(geometry: Arc<Geometry>) -> Board {
        let n = geometry.topology.len();
        assert!(
            n <= MAX_POINTS,
            "Go boards have at most {MAX_POINTS} points"
        );
        let mut points: Box<[Point]> = (0..=n)
            .map(|i| Point {
                color: EMPTY,
                free: geometry.neighbors.get(i).map_or(0, |slots| {
                    slots.iter().filter(|&&r| r as usize != n).count() as u8
                }),
                head: i as u16,
                next: i as u16,
                empty_at: i as u16,
            })
            .collect();
        points[n].color = OFF;
        Board {
            geometry,
            points,
            libs: vec![Libs::default(); n + 1].into_boxed_slice(),
            sizes: vec![0; n + 1].into_boxed_slice(),
            empty: (0..n as u16).collect(),
            empty_len: n,
            stones: [0, 0],
            hash: 0,
        }
    }

    /// A board holding `stones` (indexed by point), every chain of which has a liberty (a
    /// set-up, or a counted board with dead stones taken off): black's stones are placed
    /// first, so no placement captures.
    pub(crate) fn with_stones(geometry: Arc<Geometry>, stones: &[Option<Color>]) -> Board {
        let mut board = Board::new(geometry);
        for color in Color::BOTH {
            for (p, _) in stones
                .iter()
                .enumerate()
                .filter(|(_, s)| **s == Some(color))
            {
                board.place(p, code(color));
            }
        }
        board
    }

    pub(crate) fn topology(&self) -> &Topology {
        &self.geometry.topology
    }

    /// The neighbour tables this board was built on, to build another board of the game.
    pub(crate) fn geometry(&self) -> Arc<Geometry> {
        Arc::clone(&self.geometry)
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.empty.len()
    }

    /// `EMPTY`, `BLACK` or `WHITE` (`point < len()`).
    #[inline]
    pub(crate) fn color(&self, point: usize) -> u8 {
        self.points[point].color
    }

    /// The stone on `point` (`point < len()`).
    #[inline]
    pub(crate) fn stone(&self, point: usize) -> Option<Color> {
        STONES[usize::from(self.points[point].color & 3)]
    }

    /// The stone on every point, in order, into `out` (`len()` entries).
    pub(crate) fn stones(&self, out: &mut [Option<Color>]) {
        for (stone, point) in out.iter_mut().zip(&self.points[..self.len()]) {
            *stone = STONES[usize::from(point.color & 3)];
        }
    }

    #[inline]
    fn neighbors(&self, point: usize) -> [u16; 4] {
        self.geometry.neighbors[point]
    }

    #[inline]
    fn head(&self, point: u16) -> usize {
        self.points[point as usize].head as usize
    }

    #[inline]
    fn next(&self, point: usize) -> usize {
        self.points[point].next as usize
    }

    /// The eight cells around `point`, clockwise from the one above (`len()` off the board).
    #[inline]
    pub(crate) fn around(&self, point: usize) -> [u16; 8] {
        self.geometry.around[point]
    }

    /// The colours of the eight cells around `point` in the order of [`Board::around`], two
    /// bits each from the lowest: `EMPTY`, `BLACK`, `WHITE` or 3 off the board.
    #[inline]
    pub(crate) fn neighborhood(&self, point: usize) -> u16 {
        self.around(point)
            .iter()
            .enumerate()
            .fold(0, |code, (i, &r)| {
                code | u16::from(self.points[r as usize].color) << (2 * i)
            })
    }

    pub(crate) fn empty_points(&self) -> &[u16] {
        &self.empty[..self.empty_len]
    }

    pub(crate) fn stone_counts(&self) -> [u32; 2] {
        self.stones
    }

    /// Zobrist hash of the stones.
    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether a `color` stone on the empty `point` would be left without liberties after
    /// its captures. It has a liberty iff some neighbour is empty, or is an own chain with a
    /// liberty besides `point`, or is an enemy chain whose last liberty is `point`.
    #[inline(always)]
    pub(crate) fn is_suicide(&self, point: usize, color: u8) -> bool {
        self.points[point].free == 0 && self.is_crowded_suicide(point, color)
    }

    /// `is_suicide` for a point without empty neighbours.
    #[inline(never)]
    fn is_crowded_suicide(&self, point: usize, color: u8) -> bool {
        self.crowded_meaning(point, color) & GIVES_LIBERTY == 0
    }

    /// What the neighbours of `point`, an empty point without empty neighbours, mean to a
    /// `color` stone there (`GIVES_LIBERTY`, `SPOILS_EYE`), from each neighbour's colour and
    /// whether its chain is in atari (its last liberty then `point`).
    #[inline(always)]
    fn crowded_meaning(&self, point: usize, color: u8) -> u16 {
        let meanings = if color == BLACK {
            BLACK_MEANINGS
        } else {
            WHITE_MEANINGS
        };
        let mut meaning = 0;
        for r in self.neighbors(point) {
            let p = self.points[r as usize];
            let atari = self.libs[p.head as usize].only_at(point);
            meaning |= meanings >> (2 * (p.color | u8::from(atari) << 2));
        }
        meaning & (GIVES_LIBERTY | SPOILS_EYE)
    }

    /// Whether the empty `point` is `color`'s own single-point eye: every neighbour on the
    /// board is a `color` stone and none of those chains is in atari (filling the last
    /// liberty of an own chain connects it to the others; that is not filling an eye).
    #[inline]
    pub(crate) fn is_own_eye(&self, point: usize, color: u8) -> bool {
        self.points[point].free == 0 && self.crowded_meaning(point, color) & SPOILS_EYE == 0
    }

    /// Whether `point`, an own eye of `color` (`is_own_eye`), is a false eye: two of its
    /// diagonal cells hold enemy stones, or one does and another is off the board. The enemy
    /// can then cut the chains around it apart, and filling it is how they connect.
    pub(crate) fn is_false_eye(&self, point: usize, color: u8) -> bool {
        let around = self.around(point);
        // How many diagonal cells (the odd entries of `around`) hold each colour code, four
        // bits a code: adding beats a test per cell, which random boards mispredict.
        let counts = [around[1], around[3], around[5], around[7]]
            .into_iter()
            .fold(0u16, |n, r| n + (1 << (4 * self.points[r as usize].color)));
        let enemies = (counts >> (4 * (color ^ 3))) & 15;
        let edge = counts >> (4 * OFF) != 0;
        // Two enemies, or one and the edge (no enemy and the edge alone make 1 at most).
        enemies + u16::from(edge) >= 2
    }

    /// Whether a `color` stone on the empty `point` is one the playout policy plays: legal
    /// (not suicide), and not filling an own eye unless it is a false eye. One pass over the
    /// neighbours, and the diagonals only for an own eye.
    #[inline(always)]
    pub(crate) fn is_sensible(&self, point: usize, color: u8) -> bool {
        self.points[point].free > 0 || self.is_crowded_sensible(point, color)
    }

    /// `is_sensible` for a point without empty neighbours.
    #[inline(never)]
    fn is_crowded_sensible(&self, point: usize, color: u8) -> bool {
        let meaning = self.crowded_meaning(point, color);
        meaning == GIVES_LIBERTY | SPOILS_EYE
            || (meaning == GIVES_LIBERTY && self.is_false_eye(point, color))
    }

    /// The size of the chain a `color` stone on the empty `point` would make, when that
    /// chain is left with exactly one liberty and nothing is captured: a self-atari.
    pub(crate) fn self_atari(&self, point: usize, color: u8) -> Option<usize> {
        // Most candidates settle here: two empty neighbours stay two liberties.
        if self.points[point].free >= 2 && self.geometry.distinct_neighbors {
            return None;
        }
        let mut libs = Libs(0);
        let mut size = 1;
        let mut joined = [NO_POINT as usize; 4];
        for (i, r) in self.neighbors(point).into_iter().enumerate() {
            let p = self.points[r as usize];
            if p.color == EMPTY {
                libs = libs.add(Libs::at(r as usize));
            } else if p.color == color {
                // The chain counted `point` as a pseudo-liberty of this stone.
                libs = libs.sub(Libs::at(point));
                let h = p.head as usize;
                if !joined[..i].contains(&h) {
                    joined[i] = h;
                    libs = libs.add(self.libs[h]);
                    size += usize::from(self.sizes[h]);
                }
            } else if p.color == color ^ 3 && self.libs[p.head as usize].only_at(point) {
                return None;
            }
        }
        (libs.count() > 0 && libs.in_atari()).then_some(size)
    }

    /// The stones' hash after a `color` stone on the empty `point` and its captures.
    pub(crate) fn hash_after(&self, point: usize, color: u8) -> u64 {
        let mut hash = self.hash ^ key(point, color);
        let mut taken = [NO_POINT; 4];
        for (i, r) in self.neighbors(point).into_iter().enumerate() {
            let c = self.points[r as usize].color;
            let h = self.head(r);
            if c == color ^ 3 && self.libs[h].only_at(point) && !taken.contains(&(h as u16)) {
                taken[i] = h as u16;
                for s in self.chain_points(h) {
                    hash ^= key(s, c);
                }
            }
        }
        hash
    }

    /// Places a `color` stone on `point`, which must be empty and not suicide, and removes
    /// the enemy chains left without liberties.
    pub(crate) fn place(&mut self, point: usize, color: u8) -> Placed {
        debug_assert!(self.points[point].color == EMPTY && !self.is_suicide(point, color));
        self.remove_empty(point);
        self.points[point] = Point {
            color,
            free: self.points[point].free,
            head: point as u16,
            next: point as u16,
            empty_at: NO_POINT,
        };
        self.hash ^= key(point, color);
        self.stones[color as usize - 1] += 1;
        let neighbors = self.neighbors(point);
        self.libs[point] = Libs::default();
        self.sizes[point] = 1;
        // One pass: take `point` off the neighbours' liberties, collect the new stone's
        // liberties (in registers), join it to its own colour's chains, and note whether an
        // enemy chain lost its last liberty.
        let mut liberties = Libs::default();
        let mut captures = false;
        // Which neighbours are own stones, as bits: random play makes a branch on each
        // neighbour's colour unpredictable, so the joins wait for this pass to end.
        let mut own_stones = 0u32;
        for (i, r) in neighbors.into_iter().enumerate() {
            let Point {
                color: c,
                free,
                head,
                ..
            } = self.points[r as usize];
            self.points[r as usize].free = free.wrapping_sub(1);
            let libs = &mut self.libs[head as usize];
            *libs = libs.sub(Libs::at(point));
            captures |= (c == color ^ 3) & (libs.count() == 0);
            let if_empty = ((c == EMPTY) as u64).wrapping_neg();
            liberties = liberties.add(Libs(Libs::at(r as usize).0 & if_empty));
            own_stones |= u32::from(c == color) << i;
        }
        if own_stones != 0 {
            let first = neighbors[own_stones.trailing_zeros() as usize];
            self.attach(point, self.head(first));
            own_stones &= own_stones - 1;
            while own_stones != 0 {
                let r = neighbors[own_stones.trailing_zeros() as usize];
                own_stones &= own_stones - 1;
                let (own, head) = (self.head(point as u16), self.head(r));
                if head != own {
                    self.merge(own, head);
                }
            }
        }
        let own = &mut self.libs[self.head(point as u16)];
        *own = own.add(liberties);
        let mut captured = 0;
        let mut captured_chains = 0;
        let mut last = NO_POINT;
        if captures {
            for (i, r) in neighbors.into_iter().enumerate() {
                let Point { color: c, head, .. } = self.points[r as usize];
                if c == color ^ 3 && self.libs[head as usize].count() == 0 {
                    captured += self.remove_chain(head as usize);
                    captured_chains |= 1 << i;
                    last = r;
                }
            }
        }
        let own = self.head(point as u16);
        let ko = if captured == 1 && self.sizes[own] == 1 && self.libs[own].count() == 1 {
            last
        } else {
            NO_POINT
        };
        Placed {
            captured,
            ko,
            captured_chains,
        }
    }

    /// Adds the lone stone `point` to the chain with head `h`.
    #[inline]
    fn attach(&mut self, point: usize, h: usize) {
        self.points[point].head = h as u16;
        self.points[point].next = self.points[h].next;
        self.points[h].next = point as u16;
        self.sizes[h] += 1;
    }

    /// Joins two chains; the smaller one's stones take the larger one's head.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.sizes[a] >= self.sizes[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.points[s].head = big as u16;
            s = self.next(s);
            if s == small {
                break;
            }
        }
        let next_big = self.points[big].next;
        self.points[big].next = self.points[small].next;
        self.points[small].next = next_big;
        self.sizes[big] += self.sizes[small];
        self.libs[big] = self.libs[big].add(self.libs[small]);
    }

    /// Removes the chain with head `h`; returns its size.
    fn remove_chain(&mut self, h: usize) -> u32 {
        let color = self.points[h].color;
        let mut s = h;
        loop {
            self.points[s].color = EMPTY;
            self.points[s].head = s as u16;
            self.hash ^= key(s, color);
            self.add_empty(s);
            s = self.next(s);
            if s == h {
                break;
            }
        }
        // Every stone is off before liberties are handed out, so that only the
        // surrounding chains (never the removed one) receive them.
        loop {
            for r in self.neighbors(s) {
                let hr = self.head(r);
                let libs = &mut self.libs[hr];
                *libs = libs.add(Libs::at(s));
                let free = &mut self.points[r as usize].free;
                *free = free.wrapping_add(1);
            }
            s = self.next(s);
            if s == h {
                break;
            }
        }
        let size = self.sizes[h] as u32;
        self.stones[color as usize - 1] -= size;
        size
    }

    #[inline]
    fn remove_empty(&mut self, point: usize) {
        let at = self.points[point].empty_at as usize;
        self.empty_len -= 1;
        let last = self.empty[self.empty_len];
        self.empty[at] = last;
        self.points[last as usize].empty_at = at as u16;
    }

    #[inline]
    fn add_empty(&mut self, point: usize) {
        self.empty[self.empty_len] = point as u16;
        self.points[point].empty_at = self.empty_len as u16;
        self.empty_len += 1;
    }

    /// The stones of the chain through the stone `point`.
    pub(crate) fn chain_points(&self, point: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(point), move |&s| {
            let n = self.next(s);
            (n != point).then_some(n)
        })
    }

    /// Whether the chain through the stone `point` has exactly one liberty.
    pub(crate) fn in_atari(&self, point: usize) -> bool {
        self.libs[self.head(point as u16)].in_atari()
    }

    /// The only liberty of the chain through the stone `point`, if it has only one.
    pub(crate) fn atari_point(&self, point: usize) -> Option<usize> {
        let libs = self.libs[self.head(point as u16)];
        libs.in_atari()
            .then(|| (libs.sum() / libs.count()) as usize)
    }

    /// The only liberty of an enemy chain in atari that touches the chain through the stone
    /// `point`, if there is one (the first found).
    pub(crate) fn capture_next_to(&self, point: usize) -> Option<usize> {
        let enemy = self.points[point].color ^ 3;
        self.chain_points(point).find_map(|s| {
            (self.neighbors(s).into_iter())
                .filter(|&r| self.points[r as usize].color == enemy)
                .find_map(|r| self.atari_point(r as usize))
        })
    }

    /// The number of distinct liberties of the chain through the stone `point`.
    pub(crate) fn liberties(&self, point: usize) -> u32 {
        let mut seen = [0u64; SET_WORDS];
        let mut count = 0;
        for s in self.chain_points(point) {
            for r in self.neighbors(s) {
                let r = r as usize;
                if self.points[r].color == EMPTY && seen[r / 64] & (1 << (r % 64)) == 0 {
                    seen[r / 64] |= 1 << (r % 64);
                    count += 1;
                }
            }
        }
        count
    }

    /// Calls `visit` with each region of connected empty points and the colours of the
    /// stones that border it (`BLACK | WHITE` bits).
    fn for_each_empty_region(&self, mut visit: impl FnMut(&[u16], u8)) {
        let mut seen = [0u64; SET_WORDS];
        // The region found so far; `region[next..len]` are still to be looked around.
        let mut region = [0u16; MAX_POINTS];
        for &start in self.empty_points() {
            let start = start as usize;
            if seen[start / 64] & (1 << (start % 64)) != 0 {
                continue;
            }
            seen[start / 64] |= 1 << (start % 64);
            region[0] = start as u16;
            let (mut next, mut len, mut borders) = (0, 1, 0u8);
            while next < len {
                let p = region[next] as usize;
                next += 1;
                for r in self.neighbors(p) {
                    let r = r as usize;
                    match self.points[r].color {
                        EMPTY if seen[r / 64] & (1 << (r % 64)) == 0 => {
                            seen[r / 64] |= 1 << (r % 64);
                            region[len] = r as u16;
                            len += 1;
                        }
                        c @ (BLACK | WHITE) => borders |= c,
                        _ => {}
                    }
                }
            }
            visit(&region[..len], borders);
        }
    }

    /// The number of empty points in regions that border stones of one colour only, per
    /// player (territory as the seed defines it).
    pub(crate) fn territory(&self) -> [u32; 2] {
        let mut territory = [0, 0];
        self.for_each_empty_region(|region, borders| {
            if borders == BLACK || borders == WHITE {
                territory[borders as usize - 1] += region.len() as u32;
            }
        });
        territory
    }

    /// Who owns each point as [`Board::territory`] counts it: the colour that alone borders
    /// its empty region; `None` for stones and neutral points.
    pub(crate) fn territory_owners(&self) -> Vec<Option<Color>> {
        let mut owners = vec![None; self.len()];
        self.for_each_empty_region(|region, borders| {
            if borders == BLACK || borders == WHITE {
                for &p in region {
                    owners[p as usize] = Some(player(borders));
                }
            }
        });
        owners
    }

    /// The points of the chains that the placement on `point` captured, given its
    /// [`Placed::captured_chains`]. Right after the capture only: a removed chain's points
    /// keep their circular list until stones are placed on them again.
    pub(crate) fn captured_points(&self, point: usize, captured_chains: u8) -> Vec<usize> {
        (self.neighbors(point).into_iter().enumerate())
            .filter(|(i, _)| captured_chains & (1 << i) != 0)
            .flat_map(|(_, r)| self.chain_points(r as usize))
            .collect()
    }

    /// Recomputes every incremental field from the stones alone and reports the first
    /// difference (for tests).
    pub(crate) fn check_consistency(&self) -> Result<(), String> {
        let n = self.len();
        let mut hash = 0;
        let mut stones = [0u32; 2];
        let mut chain_of = vec![usize::MAX; n];
        for p in 0..n {
            let c = self.points[p].color;
            let free = self
                .neighbors(p)
                .into_iter()
                .filter(|&r| self.points[r as usize].color == EMPTY)
                .count();
            if self.points[p].free as usize != free {
                return Err(format!(
                    "point {p} counts {} empty neighbours, not {free}",
                    self.points[p].free
                ));
            }
            if c == EMPTY {
                let at = self.points[p].empty_at as usize;
                if at >= self.empty_len || self.empty[at] as usize != p {
                    return Err(format!("empty point {p} is not listed at {at}"));
                }
                if self.points[p].head as usize != p {
                    return Err(format!("empty point {p} is not its own head"));
                }
                continue;
            }
            if c != BLACK && c != WHITE {
                return Err(format!("point {p} holds code {c}"));
            }
            hash ^= key(p, c);
            stones[c as usize - 1] += 1;
            if chain_of[p] != usize::MAX {
                continue;
            }
            // Flood fill the chain and count its pseudo-liberties from scratch.
            let mut members = vec![p];
            chain_of[p] = p;
            let mut expected = Chain::default();
            let mut i = 0;
            while i < members.len() {
                let s = members[i];
                i += 1;
                expected.size += 1;
                for r in self.neighbors(s) {
                    let r = r as usize;
                    if r == n {
                        continue;
                    }
                    match self.points[r].color {
                        EMPTY => expected.libs = expected.libs.add(Libs::at(r)),
                        rc if rc == c && chain_of[r] == usize::MAX => {
                            chain_of[r] = p;
                            members.push(r);
                        }
                        _ => {}
                    }
                }
            }
            let h = self.head(p as u16);
            if members.iter().any(|&s| self.head(s as u16) != h) {
                return Err(format!("the chain at {p} has more than one head"));
            }
            let mut listed: Vec<usize> = self.chain_points(h).take(n + 1).collect();
            listed.sort_unstable();
            members.sort_unstable();
            if listed != members {
                return Err(format!(
                    "the chain at {p} lists {listed:?}, the board has {members:?}"
                ));
            }
            let recorded = Chain {
                libs: self.libs[h],
                size: self.sizes[h],
            };
            if recorded != expected {
                return Err(format!(
                    "the chain at {p} records {recorded:?}, a recount gives {expected:?}"
                ));
            }
            if expected.libs.count() == 0 {
                return Err(format!("the chain at {p} has no liberty"));
            }
        }
        let listed_empty = self.empty_points().iter().enumerate().all(|(i, &e)| {
            self.points[e as usize].color == EMPTY && self.points[e as usize].empty_at as usize == i
        });
        if !listed_empty || self.empty_len + (stones[0] + stones[1]) as usize != n {
            return Err("the empty-point list does not match the board".into());
        }
        if stones != self.stones {
            return Err(format!("stone counts {:?} != {stones:?}", self.stones));
        }
        if hash != self.hash {
            return Err("the incremental hash differs from a recomputation".into());
        }
        Ok(())
    }
}

//! `ctor`: CTOR on a square torus with eight neighbours (docs/rules.md, "ctor").
//!
//! A turn is one or two placements (black's first turn exactly one); after each placement
//! every opposing stone with at least 5 of its 8 neighbours owned by the mover turns over,
//! repeatedly, until none is left. The game ends when the board is full; more stones wins.

use std::sync::Arc;

use rand::Rng;

use crate::cell::Cell;
use crate::color::Color;
use crate::games::GameKind;
use crate::moves::{IllegalMove, Move};
use crate::outcome::{Outcome, Reason};
use crate::params::{ParamError, Params};
use crate::position::{ring_field, Position};
use crate::setup::{self, SetupChange, SetupError};
use crate::topology::{Lattice, Surface, Topology};
use crate::zobrist;

mod config;
pub use config::CtorConfig;

const MIN_SIZE: usize = 4;
const MAX_SIZE: usize = 26;

/// A stone turns over when at least this many of its 8 neighbours are the mover's.
const TURN_OVER: usize = 5;

/// Hash keys for the state beyond the stones and the player to move.
const SECOND_PLACEMENT: u64 = 0xA5E1_07C3_9B24_D86F;
const GAME_OVER: u64 = 0x1F6D_C829_4E73_B05A;

/// A cell's neighbour counts, with its stone again: the turnover test reads both, and
/// together they are one load.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(C, align(4))]
struct Around {
    /// How many of the eight neighbours hold each player's stones, by [`Color::index`].
    counts: [u8; 2],
    /// The cell's stone: 0 for none, else 1 + [`Color::index`].
    stone: u8,
}

impl Around {
    fn code(stone: Option<Color>) -> u8 {
        stone.map_or(0, |color| 1 + color.index() as u8)
    }
}

/// The board facts every position of one game shares.
#[derive(Debug)]
struct Shared {
    config: CtorConfig,
    topology: Topology,
    /// The eight neighbours of each cell.
    neighbors: Vec<[u16; 8]>,
}

/// A `ctor` game in progress.
#[derive(Clone, Debug)]
pub struct Ctor {
    shared: Arc<Shared>,
    board: Vec<Option<Color>>,
    /// Each cell's neighbour counts and stone: whether a stone turns over is then one read
    /// instead of nine.
    around: Vec<Around>,
    /// The empty cells, in no order: a playout draws one with one random number. A stone
    /// never leaves the board, so cells only leave the list.
    empty: Vec<u16>,
    /// Where each empty cell stands in `empty`.
    slots: Vec<u16>,
    to_move: Color,
    /// The first placement of the current turn, once made (then `end` or a second placement
    /// follows).
    first_placement: Option<u16>,
    /// The placements of the turn before this one. They are the only opposing stones that can
    /// already have 5 of the mover's stones around them (see [`Ctor::turn_over`]).
    last_turn: [Option<u16>; 2],
    stones: [u32; 2],
    captures: [u32; 2],
    board_hash: u64,
    ply: usize,
    outcome: Option<Outcome>,
}

impl From<CtorConfig> for Ctor {
    /// A new game; black moves first on the empty board.
    fn from(config: CtorConfig) -> Ctor {
        let size = config.size;
        let topology = Topology::new(Lattice::Square8, Surface::Torus, size, size);
        let neighbors = topology
            .cells()
            .map(|c| {
                let mut out = [0u16; 8];
                for (slot, nb) in out.iter_mut().zip(topology.neighbors(c)) {
                    *slot = nb.cell.0;
                }
                out
            })
            .collect();
        let board = vec![None; topology.len()];
        let (empty, slots) = empty_list(&board);
        Ctor {
            shared: Arc::new(Shared {
                config,
                topology,
                neighbors,
            }),
            empty,
            slots,
            around: vec![Around::default(); board.len()],
            board,
            to_move: Color::Black,
            first_placement: None,
            last_turn: [None, None],
            stones: [0, 0],
            captures: [0, 0],
            board_hash: 0,
            ply: 0,
            outcome: None,
        }
    }
}

impl Ctor {
    /// A new game from parameter values; see [`CtorConfig`].
    pub fn new(params: &Params) -> Result<Ctor, ParamError> {
        Ok(Ctor::from(CtorConfig::read(params)?))
    }

    /// Stones on the board of each player, indexed by [`Color::index`].
    pub fn stone_counts(&self) -> [u32; 2] {
        self.stones
    }

    /// How many opposing stones next to the empty `cell` already have `me`'s stones on 4 of
    /// their 8 sides, so that a `me` stone on `cell` turns them over directly (before any
    /// cascade). What the playouts weigh a placement by.
    pub fn direct_turnovers(&self, cell: Cell, me: Color) -> u32 {
        (self.shared.neighbors[cell.index()].iter())
            .map(|&e| u32::from(self.is_opposing_with(e as usize, me, TURN_OVER - 1)))
            .sum()
    }

    /// Whether the current turn has had its first placement (so `end` is legal).
    pub fn in_second_placement(&self) -> bool {
        self.first_placement.is_some()
    }

    /// The Zobrist hash of the stones alone.
    pub fn board_hash(&self) -> u64 {
        self.board_hash
    }

    /// [`Position::hash`] computed from scratch rather than incrementally (for tests).
    pub fn recompute_hash(&self) -> u64 {
        let board = self
            .board
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|color| zobrist::stone(i, color)))
            .fold(0, |h, k| h ^ k);
        board ^ self.state_key()
    }

    fn state_key(&self) -> u64 {
        let mut key = 0;
        if self.to_move == Color::White {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        if self.first_placement.is_some() {
            key ^= SECOND_PLACEMENT;
        }
        if self.outcome.is_some() {
            key ^= GAME_OVER;
        }
        key
    }

    fn judge(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Place(cell) => match self.board.get(cell.index()) {
                None => Err(IllegalMove::OffBoard),
                Some(Some(_)) => Err(IllegalMove::Occupied),
                Some(None) => Ok(()),
            },
            Move::Pass => Err(IllegalMove::PassNotAllowed),
            Move::EndTurn if self.first_placement.is_none() => Err(IllegalMove::EndNotAllowed),
            Move::EndTurn => Ok(()),
            Move::Swap => Err(IllegalMove::SwapNotAllowed),
        }
    }

    fn set(&mut self, c: usize, color: Color) {
        let neighbors = self.shared.neighbors[c];
        if let Some(old) = self.board[c] {
            self.stones[old.index()] -= 1;
            self.board_hash ^= zobrist::stone(c, old);
            for n in neighbors {
                self.around[n as usize].counts[old.index()] -= 1;
            }
        } else {
            let slot = usize::from(self.slots[c]);
            self.empty.swap_remove(slot);
            if let Some(&moved) = self.empty.get(slot) {
                self.slots[usize::from(moved)] = slot as u16;
            }
        }
        self.board[c] = Some(color);
        self.around[c].stone = Around::code(Some(color));
        self.stones[color.index()] += 1;
        self.board_hash ^= zobrist::stone(c, color);
        for n in neighbors {
            self.around[n as usize].counts[color.index()] += 1;
        }
    }

    /// How many of the eight neighbours of `c` hold `color`'s stones on `board` (for the
    /// setup and the tests; play keeps the counts in [`Ctor::around`]).
    fn count_around(&self, board: &[Option<Color>], c: usize, color: Color) -> u8 {
        (self.shared.neighbors[c].iter())
            .filter(|&&n| board[n as usize] == Some(color))
            .count() as u8
    }

    /// What [`Ctor::around`] keeps for `c`, counted from the board.
    fn around_of(&self, board: &[Option<Color>], c: usize) -> Around {
        Around {
            counts: Color::BOTH.map(|color| self.count_around(board, c, color)),
            stone: Around::code(board[c]),
        }
    }

    /// Whether the state kept up to date move by move (the neighbour counts, the empty
    /// cells, the stone counts and the hash) agrees with the board (for tests).
    pub fn check_consistency(&self) -> Result<(), String> {
        for c in 0..self.board.len() {
            let counted = self.around_of(&self.board, c);
            if self.around[c] != counted {
                return Err(format!(
                    "cell {c}: {:?} kept, {counted:?} on the board",
                    self.around[c]
                ));
            }
        }
        let mut listed = self.empty.clone();
        listed.sort_unstable();
        if listed != empty_list(&self.board).0 {
            return Err("the empty-cell list differs from the board".into());
        }
        let placed = (self.empty.iter().enumerate())
            .all(|(slot, &c)| usize::from(self.slots[usize::from(c)]) == slot);
        if !placed {
            return Err("an empty cell's place in the list is wrong".into());
        }
        for color in Color::BOTH {
            let on_board = self.board.iter().filter(|&&s| s == Some(color)).count() as u32;
            if self.stones[color.index()] != on_board {
                return Err(format!(
                    "{color:?}: {} stones kept, {on_board} on the board",
                    self.stones[color.index()]
                ));
            }
        }
        if self.hash() != self.recompute_hash() {
            return Err("the hash differs from the board's".into());
        }
        Ok(())
    }

    /// Whether the stone on `c` is an opponent's that the mover `m` turns over now.
    #[inline]
    fn turns_over(&self, c: usize, m: Color) -> bool {
        self.is_opposing_with(c, m, TURN_OVER)
    }

    /// Whether the stone on `c` is an opponent's of `m` with at least `count` of `m`'s
    /// stones around it. Both tests are made (`&`, not `&&`): random placements make the
    /// first answer unpredictable, and a mispredicted branch costs more than the second.
    #[inline]
    fn is_opposing_with(&self, c: usize, m: Color, count: usize) -> bool {
        let around = self.around[c];
        (around.stone == Around::code(Some(m.opponent())))
            & (usize::from(around.counts[m.index()]) >= count)
    }

    /// Turns over, for the mover `m` who just played `c`, every opposing stone with 5 of
    /// `m`'s stones around it, until none is left.
    ///
    /// The rule works in rounds (all such stones at once), but turning a stone over only adds
    /// to `m`'s neighbour counts, so a stone that qualifies stays qualified: one by one gives
    /// the same final board and count as rounds. Only stones next to a changed cell can start
    /// to qualify. Stones that already qualified before `c` are the opponent's placements of
    /// the last turn (a stone the opponent turned over had at most 3 of `m`'s around it, and
    /// the opponent's turn only took stones from `m`), so they are checked as well.
    fn turn_over(&mut self, c: usize, m: Color) {
        // Most placements turn nothing over, which one pass without branches tells.
        let neighbors = self.shared.neighbors[c];
        let mut any = false;
        for x in neighbors {
            any |= self.turns_over(x as usize, m);
        }
        for x in self.last_turn.into_iter().flatten() {
            any |= self.turns_over(x as usize, m);
        }
        if !any {
            return;
        }
        let candidates = neighbors
            .into_iter()
            .chain(self.last_turn.into_iter().flatten());
        for x in candidates {
            if self.turns_over(x as usize, m) {
                self.turn_over_from(x as usize, m);
            }
        }
    }

    /// Turns over the stone on `x`, then, depth first, every stone that this makes qualify.
    /// The order does not change the outcome (see [`Ctor::turn_over`]), and the recursion,
    /// at most one frame a cell, needs no stack on the heap.
    fn turn_over_from(&mut self, x: usize, m: Color) {
        self.set(x, m);
        for n in self.shared.neighbors[x] {
            if self.turns_over(n as usize, m) {
                self.turn_over_from(n as usize, m);
            }
        }
    }

    fn end_turn(&mut self, last_turn: [Option<u16>; 2]) {
        self.last_turn = last_turn;
        self.first_placement = None;
        self.to_move = self.to_move.opponent();
    }

    fn place(&mut self, c: usize) {
        let m = self.to_move;
        let before = self.stones[m.index()];
        // The short first turn is the opening's: a board set up with stones plays full turns.
        let first_of_game = self.ply == 0 && self.empty_cells() == self.board.len();
        self.set(c, m);
        self.turn_over(c, m);
        self.captures[m.index()] += self.stones[m.index()] - before - 1;
        self.ply += 1;
        if self.empty_cells() == 0 {
            // The count decides, and the result says by how many stones.
            let [black, white] = self.stones;
            self.outcome = Some(Outcome::by_score(
                f64::from(black),
                f64::from(white),
                Reason::BoardFull,
            ));
        } else if first_of_game || self.first_placement.is_some() {
            self.end_turn([self.first_placement, Some(c as u16)]);
        } else {
            self.first_placement = Some(c as u16);
        }
    }

    /// A uniformly random empty cell (there is one).
    fn random_empty<R: Rng>(&self, rng: &mut R) -> usize {
        usize::from(self.empty[rng.random_range(0..self.empty.len())])
    }
}

/// The empty cells of `board` as a list, and where each stands in it.
fn empty_list(board: &[Option<Color>]) -> (Vec<u16>, Vec<u16>) {
    let empty: Vec<u16> = (0..board.len() as u16)
        .filter(|&c| board[usize::from(c)].is_none())
        .collect();
    let mut slots = vec![0; board.len()];
    for (slot, &c) in empty.iter().enumerate() {
        slots[usize::from(c)] = slot as u16;
    }
    (empty, slots)
}

impl Position for Ctor {
    fn kind(&self) -> GameKind {
        GameKind::Ctor
    }

    fn params(&self) -> &Params {
        self.shared.config.params()
    }

    fn topology(&self) -> &Topology {
        &self.shared.topology
    }

    fn stone(&self, cell: Cell) -> Option<Color> {
        self.board.get(cell.index()).copied().flatten()
    }

    fn stones(&self, out: &mut [Option<Color>]) {
        out.copy_from_slice(&self.board);
    }

    fn turn(&self) -> Option<Color> {
        self.outcome.is_none().then_some(self.to_move)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        out.extend(
            self.board
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_none())
                .map(|(c, _)| Move::Place(Cell(c as u16))),
        );
        if self.first_placement.is_some() {
            out.push(Move::EndTurn);
        }
    }

    /// `legal_moves` without the list: every empty cell, and `end` after a turn's first
    /// stone.
    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.outcome.is_some() {
            return;
        }
        for (legal, stone) in mask.iter_mut().zip(&self.board) {
            *legal = stone.is_none();
        }
        mask[Move::EndTurn.index(self.board.len())] = self.first_placement.is_some();
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.judge(mv)?;
        match mv {
            Move::Place(cell) => self.place(cell.index()),
            _ => {
                self.ply += 1;
                self.end_turn([self.first_placement, None]);
            }
        }
        Ok(())
    }

    fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        self.judge(mv)
    }

    fn hash(&self) -> u64 {
        self.board_hash ^ self.state_key()
    }

    fn ply(&self) -> usize {
        self.ply
    }

    /// Refused where the board would be full (the game would be over) or a stone would
    /// have five or more enemy neighbours: only the last turn's placements may be in that
    /// state, and the engine checks only those for turnovers besides the changed cells.
    /// The next placement begins a turn.
    fn setup(&mut self, changes: &[SetupChange], to_move: Color) -> Result<(), SetupError> {
        let stones = setup::arrangement(self, changes)?;
        if stones.iter().all(Option::is_some) {
            return Err(SetupError::BoardFull);
        }
        let would_turn_over = |c: usize| {
            stones[c].is_some_and(|s| {
                usize::from(self.count_around(&stones, c, s.opponent())) >= TURN_OVER
            })
        };
        if (0..stones.len()).any(would_turn_over) {
            return Err(SetupError::WouldTurnOver);
        }
        for color in Color::BOTH {
            self.stones[color.index()] =
                stones.iter().filter(|&&s| s == Some(color)).count() as u32;
        }
        self.board_hash = zobrist::board(&stones);
        (self.empty, self.slots) = empty_list(&stones);
        self.around = (0..stones.len())
            .map(|c| self.around_of(&stones, c))
            .collect();
        self.board = stones;
        self.to_move = to_move;
        self.first_placement = None;
        self.last_turn = [None, None];
        Ok(())
    }

    fn captures(&self) -> [u32; 2] {
        self.captures
    }

    /// From the neighbour table, which lists the ring's cells in its order.
    fn ring_code(&self, cell: Cell) -> u32 {
        (self.shared.neighbors[cell.index()].iter())
            .enumerate()
            .fold(0, |code, (i, &n)| {
                code | ring_field(self.board[n as usize]) << (2 * i)
            })
    }

    fn empty_cells(&self) -> usize {
        self.empty.len()
    }

    /// Uniform among legal moves: `end` (when legal) or a uniformly random empty cell.
    fn playout_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let empty = self.empty_cells();
        if self.first_placement.is_some() && rng.random_range(0..=empty) == 0 {
            return Some(Move::EndTurn);
        }
        Some(Move::Place(Cell(self.random_empty(rng) as u16)))
    }
}

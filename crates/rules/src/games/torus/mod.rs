//! `torus`: a Go-like game on a square torus (docs/rules.md, "torus").
//!
//! Orthogonal neighbours and diagonal lines both wrap. Surrounding one enemy stone on its
//! four sides wins; runs of enemy stones are captured along the diagonals; no placement may
//! recreate an earlier board. [`Torus::play`] resolves a placement exactly in the order of the
//! numbered steps of docs/rules.md.

use std::sync::Arc;

use rand::Rng;

use crate::cell::Cell;
use crate::color::Color;
use crate::games::GameKind;
use crate::moves::{IllegalMove, Move};
use crate::outcome::{Outcome, Reason};
use crate::params::{ParamError, Params};
use crate::position::Position;
use crate::setup::{self, SetupChange, SetupError};
use crate::topology::{Lattice, Surface, Topology};
use crate::zobrist;

mod config;
pub use config::TorusConfig;

const MIN_SIZE: usize = 5;
const MAX_SIZE: usize = 25;
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// The diagonal steps; `DIAGONALS[d]` and `DIAGONALS[3 - d]` walk one line both ways.
const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Hash keys for the state beyond the stones and the player to move.
const ONE_PASS: u64 = 0x8C3F_26A1_D94B_E517;
const GAME_OVER: u64 = 0x3B9E_71C4_0A6D_F283;

/// How many uniformly random cells a playout tries before it lists the empty cells.
const PLAYOUT_TRIES: usize = 8;

/// The board facts every position of one game shares.
#[derive(Debug)]
struct Shared {
    config: TorusConfig,
    topology: Topology,
    /// The four orthogonal neighbours of each cell.
    orthogonal: Vec<[u16; 4]>,
    /// The next cell of each cell in each of the [`DIAGONALS`].
    diagonal: Vec<[u16; 4]>,
    lines: Lines,
}

/// The board's diagonal lines. A `(1, 1)` step (family 0) or a `(1, -1)` step (family 1)
/// comes back to its cell after `size` steps, so each family splits the board into `size`
/// lines of `size` cells.
#[derive(Debug)]
struct Lines {
    /// Per cell and family, its line and its position on the line: a step of
    /// `DIAGONALS[f]` moves one position on, a step of `DIAGONALS[3 - f]` one back.
    at: Vec<[(u8, u8); 2]>,
    /// Per family, the cells of each line by position, twice over (`2 * size` entries a
    /// line), so that a position up to `size` past the end needs no wrapping.
    cells: [Vec<u16>; 2],
    size: u32,
}

impl Lines {
    fn new(diagonal: &[[u16; 4]], size: usize) -> Lines {
        let mut at = vec![[(u8::MAX, 0); 2]; diagonal.len()];
        let mut cells = [Vec::new(), Vec::new()];
        for (f, family) in cells.iter_mut().enumerate() {
            for start in 0..diagonal.len() {
                if at[start][f].0 != u8::MAX {
                    continue;
                }
                let line = (family.len() / (2 * size)) as u8;
                let mut walk = Vec::with_capacity(size);
                let mut x = start;
                loop {
                    at[x][f] = (line, walk.len() as u8);
                    walk.push(x as u16);
                    x = diagonal[x][f] as usize;
                    if x == start {
                        break;
                    }
                }
                assert_eq!(
                    walk.len(),
                    size,
                    "a diagonal of the torus closes after `size` steps"
                );
                family.extend(&walk);
                family.extend(&walk);
            }
        }
        Lines {
            at,
            cells,
            size: size as u32,
        }
    }

    /// The cell at position `k` of `line` of family `f` (`k < 2 * size`).
    #[inline]
    fn cell(&self, f: usize, line: usize, k: u32) -> u16 {
        self.cells[f][line * 2 * self.size as usize + k as usize]
    }

    /// The cells of `line` of family `f` from position `from` to position `to`, both
    /// included (`to < 2 * size`).
    fn span(&self, f: usize, line: usize, from: u32, to: u32) -> &[u16] {
        let base = line * 2 * self.size as usize;
        &self.cells[f][base + from as usize..=base + to as usize]
    }
}

/// The stones of each colour on each diagonal line as bits: position `k` of a line of `n`
/// cells is bits `k` and `k + n`, so that the run of stones next to a position, either way
/// round the cycle, is one shift and a count of ones. Walking the cells one by one instead
/// ends where a processor cannot predict, and playouts paid most of their time for that.
#[derive(Clone, Debug, PartialEq, Eq)]
struct LineBits(Vec<u64>);

impl LineBits {
    fn of(board: &[Option<Color>], lines: &Lines) -> LineBits {
        let mut bits = LineBits(vec![0; 4 * lines.size as usize]);
        for (c, stone) in board.iter().enumerate() {
            if let Some(color) = stone {
                bits.flip(lines, c, *color);
            }
        }
        bits
    }

    /// Puts a `color` stone on `cell`, or takes it off.
    #[inline]
    fn flip(&mut self, lines: &Lines, cell: usize, color: Color) {
        for (f, &(line, k)) in lines.at[cell].iter().enumerate() {
            let at = LineBits::index(lines.size, color, f, line as usize);
            self.0[at] ^= (1 << k) | (1 << (k as u32 + lines.size));
        }
    }

    /// The `color` stones of line `line` of family `f`, of lines of `n` cells.
    #[inline]
    fn line(&self, n: u32, color: Color, f: usize, line: usize) -> u64 {
        self.0[LineBits::index(n, color, f, line)]
    }

    #[inline]
    fn index(n: u32, color: Color, f: usize, line: usize) -> usize {
        (2 * color.index() + f) * n as usize + line
    }
}

/// How many stones of `bits` follow position `k` without a gap (the position itself must
/// be empty, which ends every run).
#[inline]
fn run_after(bits: u64, k: u32) -> u32 {
    (bits >> (k + 1)).trailing_ones()
}

/// How many stones of `bits` precede position `k` of a line of `n` cells without a gap
/// (the position itself must be empty).
#[inline]
fn run_before(bits: u64, k: u32, n: u32) -> u32 {
    (bits << (64 - (k + n))).leading_ones()
}

/// A `torus` game in progress.
#[derive(Clone, Debug)]
pub struct Torus {
    shared: Arc<Shared>,
    board: Vec<Option<Color>>,
    to_move: Color,
    /// Zobrist hash of the stones alone: the identity of a board for the no-repeat rule.
    board_hash: u64,
    /// Every board the game has had, the empty start included.
    seen: History,
    /// The stones again, by diagonal line.
    line_bits: LineBits,
    /// Consecutive passes just played.
    passes: u8,
    ply: usize,
    captures: [u32; 2],
    outcome: Option<Outcome>,
    /// The enemy stones the winning move surrounded.
    surrounded: Vec<Cell>,
}

/// What a legal placement does, judged without changing the position.
enum Effect {
    /// Step 1: an enemy stone is surrounded and the mover wins.
    Wins,
    /// Steps 3 to 6: the stone stands and `captured` are removed, giving `board_hash`.
    Stands { captured: CellSet, board_hash: u64 },
}

/// What a legal move does.
enum Action {
    Place(usize, Effect),
    Pass,
}

impl Action {
    /// The move that carries this action out.
    fn as_move(&self) -> Move {
        match self {
            Action::Place(c, _) => Move::Place(Cell(*c as u16)),
            Action::Pass => Move::Pass,
        }
    }
}

/// A set of cells of one board, as bits (kept on the stack), with its size: counting the
/// bits would cost a software population count per word on the baseline x86-64.
#[derive(Copy, Clone, Default)]
struct CellSet {
    bits: [u64; MAX_CELLS.div_ceil(64)],
    len: u32,
}

impl CellSet {
    /// Adds cell `i`; whether it was not in the set yet.
    fn insert(&mut self, i: usize) -> bool {
        let new = !self.contains(i);
        self.bits[i / 64] |= 1 << (i % 64);
        self.len += u32::from(new);
        new
    }

    fn contains(&self, i: usize) -> bool {
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    fn len(&self) -> u32 {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    k * 64 + bit
                })
            })
        })
    }
}

/// The boards a game has had, by their hashes, for the no-repeat rule. Two different boards
/// share a 64-bit hash with a chance of about 2^-64 per pair; even a game of thousands of
/// boards is astronomically unlikely to meet one, so the rule is judged on hashes.
#[derive(Clone, Debug)]
struct History {
    /// In the order the boards came.
    hashes: Vec<u64>,
    /// A one-hash Bloom filter over `hashes`: a clear bit proves a board new without
    /// searching the list, which is what almost every placement asks. With the ~60 boards of
    /// a 9×9 game, about 6% of new boards find their bit set and search the list.
    filter: [u64; HISTORY_FILTER_WORDS],
    /// XOR of [`spread`] over `hashes`, so that [`Position::hash`] covers the history that the
    /// no-repeat rule consults.
    digest: u64,
}

const HISTORY_FILTER_WORDS: usize = 16;

impl History {
    fn starting_with(board_hash: u64) -> History {
        let mut history = History {
            hashes: Vec::new(),
            filter: [0; HISTORY_FILTER_WORDS],
            digest: 0,
        };
        history.insert(board_hash);
        history
    }

    /// The filter's word and bit for a board hash (its high bits: the low ones of a Zobrist
    /// hash are as random, but `spread` is kept for the digest).
    fn slot(board_hash: u64) -> (usize, u64) {
        let bit = (board_hash >> 54) as usize % (64 * HISTORY_FILTER_WORDS);
        (bit / 64, 1 << (bit % 64))
    }

    fn contains(&self, board_hash: u64) -> bool {
        let (word, bit) = History::slot(board_hash);
        self.filter[word] & bit != 0 && self.hashes.contains(&board_hash)
    }

    fn insert(&mut self, board_hash: u64) {
        if !self.contains(board_hash) {
            let (word, bit) = History::slot(board_hash);
            self.filter[word] |= bit;
            self.hashes.push(board_hash);
            self.digest ^= spread(board_hash);
        }
    }
}

/// Mixes a board hash before it joins the history's digest (murmur3's finaliser), so the
/// digest is not a plain XOR of stone keys, where whole boards could cancel out.
fn spread(h: u64) -> u64 {
    let h = (h ^ (h >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    let h = (h ^ (h >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

impl From<TorusConfig> for Torus {
    /// A new game; black moves first on the empty board.
    fn from(config: TorusConfig) -> Torus {
        let size = config.size;
        let topology = Topology::new(Lattice::Square4, Surface::Torus, size, size);
        let orthogonal = topology
            .cells()
            .map(|c| {
                let mut out = [0u16; 4];
                for (slot, nb) in out.iter_mut().zip(topology.neighbors(c)) {
                    *slot = nb.cell.0;
                }
                out
            })
            .collect();
        let diagonal: Vec<[u16; 4]> = topology
            .cells()
            .map(|c| {
                DIAGONALS.map(|(dx, dy)| topology.step(c, dx, dy).expect("a torus wraps").0 .0)
            })
            .collect();
        let cells = topology.len();
        let empty_board = 0;
        let lines = Lines::new(&diagonal, size);
        Torus {
            line_bits: LineBits::of(&vec![None; cells], &lines),
            shared: Arc::new(Shared {
                config,
                topology,
                orthogonal,
                diagonal,
                lines,
            }),
            board: vec![None; cells],
            to_move: Color::Black,
            board_hash: empty_board,
            seen: History::starting_with(empty_board),
            passes: 0,
            ply: 0,
            captures: [0, 0],
            outcome: None,
            surrounded: Vec::new(),
        }
    }
}

impl Torus {
    /// A new game from parameter values; see [`TorusConfig`].
    pub fn new(params: &Params) -> Result<Torus, ParamError> {
        Ok(Torus::from(TorusConfig::read(params)?))
    }

    /// The Zobrist hash of the stones alone (what the no-repeat rule compares).
    pub fn board_hash(&self) -> u64 {
        self.board_hash
    }

    /// [`Position::hash`] computed from scratch rather than incrementally (for tests).
    pub fn recompute_hash(&self) -> u64 {
        let board = zobrist::board(&self.board);
        let digest = self.seen.hashes.iter().fold(0, |d, &h| d ^ spread(h));
        board ^ digest ^ self.state_key()
    }

    /// Whether the stones by diagonal line, which the rules keep as they go, are those of
    /// the board (for tests).
    #[doc(hidden)]
    pub fn lines_match_board(&self) -> bool {
        self.line_bits == LineBits::of(&self.board, &self.shared.lines)
    }

    fn state_key(&self) -> u64 {
        let mut key = 0;
        if self.to_move == Color::White {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        if self.passes == 1 {
            key ^= ONE_PASS;
        }
        if self.outcome.is_some() {
            key ^= GAME_OVER;
        }
        key
    }

    /// Whether the stone on `n` has `a` stones on all four sides once `a` has played `c`.
    fn surrounded_after(&self, n: usize, c: usize, a: Color) -> bool {
        self.shared.orthogonal[n]
            .iter()
            .all(|&m| m as usize == c || self.board[m as usize] == Some(a))
    }

    /// The cell one diagonal step from `cell` in direction `d`: (1, 1), (1, -1), (-1, 1) and
    /// (-1, -1) for `d` from 0 to 3, so that `d` and `3 - d` walk one line both ways. From a
    /// table, for tactics that walk the diagonals at every move they weigh.
    #[inline]
    pub fn diagonal_step(&self, cell: Cell, d: usize) -> Cell {
        Cell(self.shared.diagonal[cell.index()][d])
    }

    /// Judges the placement of the mover's stone on `c` (on the board, game not over) by the
    /// steps of docs/rules.md, changing nothing.
    fn resolve(&self, c: usize) -> Result<Effect, IllegalMove> {
        let (a, p) = (self.to_move, self.to_move.opponent());
        let board = &self.board;
        let sides = &self.shared.orthogonal[c];
        if board[c].is_some() {
            return Err(IllegalMove::Occupied);
        }
        // Step 1: before the game was over no stone was surrounded, so only the placed
        // stone's neighbours can be.
        if sides
            .iter()
            .any(|&n| board[n as usize] == Some(p) && self.surrounded_after(n as usize, c, a))
        {
            return Ok(Effect::Wins);
        }
        // Step 2.
        if sides.iter().all(|&n| board[n as usize] == Some(p)) {
            return Err(IllegalMove::SelfSurrounded);
        }
        // Step 3: all runs are found on the board before any is removed ("at once"); a cell
        // can lie on two of them (the two diagonals of a cell meet twice on even sizes, and
        // both directions find the same run when it fills the cycle).
        let mut captured = CellSet::default();
        let mut board_hash = self.board_hash ^ zobrist::stone(c, a);
        let lines = &self.shared.lines;
        let n = lines.size;
        let mut capture = |cells: &[u16]| {
            for &y in cells {
                let y = y as usize;
                if captured.insert(y) {
                    board_hash ^= zobrist::stone(y, p);
                }
            }
        };
        // `c` is still empty, so every run stops there at the latest; a run of `n - 1`
        // stones came round to `c`. Position `k + 1 + ahead` is the cell after the run ahead,
        // `k + n - 1 - behind` the cell before the run behind (read in the lines' second copy,
        // so that neither wraps).
        for (f, &(line, k)) in lines.at[c].iter().enumerate() {
            let (line, k) = (line as usize, k as u32);
            let (own, enemy) = (
                self.line_bits.line(n, a, f, line),
                self.line_bits.line(n, p, f, line),
            );
            let ahead = run_after(enemy, k);
            if ahead > 0 && (ahead == n - 1 || own >> (k + 1 + ahead) & 1 != 0) {
                capture(lines.span(f, line, k + 1, k + ahead));
            }
            let behind = run_before(enemy, k, n);
            if behind > 0 && (behind == n - 1 || own >> (k + n - 1 - behind) & 1 != 0) {
                capture(lines.span(f, line, k + n - behind, k + n - 1));
            }
        }
        // Step 4: the run of own stones through `c` on each diagonal line, after captures.
        let closes = |e: u16| board[e as usize] == Some(p) && !captured.contains(e as usize);
        for (f, &(line, k)) in lines.at[c].iter().enumerate() {
            let (line, k) = (line as usize, k as u32);
            let own = self.line_bits.line(n, a, f, line);
            let ahead = run_after(own, k);
            // A run that fills the whole cycle has no ends.
            if ahead == n - 1 {
                continue;
            }
            let behind = run_before(own, k, n);
            let (front, back) = (
                lines.cell(f, line, k + 1 + ahead),
                lines.cell(f, line, k + n - 1 - behind),
            );
            if closes(front) && closes(back) {
                return Err(IllegalMove::IntoCapture);
            }
        }
        // Step 5.
        if self.seen.contains(board_hash) {
            return Err(IllegalMove::Superko);
        }
        Ok(Effect::Stands {
            captured,
            board_hash,
        })
    }

    fn is_legal_placement(&self, c: usize) -> bool {
        self.resolve(c).is_ok()
    }

    fn has_legal_placement(&self) -> bool {
        (0..self.board.len()).any(|c| self.is_legal_placement(c))
    }

    fn judge(&self, mv: Move) -> Result<Action, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Place(cell) if cell.index() >= self.board.len() => Err(IllegalMove::OffBoard),
            Move::Place(cell) => Ok(Action::Place(cell.index(), self.resolve(cell.index())?)),
            Move::Pass if self.has_legal_placement() => Err(IllegalMove::PassNotAllowed),
            Move::Pass => Ok(Action::Pass),
            Move::EndTurn => Err(IllegalMove::EndNotAllowed),
            Move::Swap => Err(IllegalMove::SwapNotAllowed),
        }
    }

    /// Carries out a move that [`Torus::judge`] found legal.
    fn apply(&mut self, action: Action) {
        match action {
            Action::Place(c, effect) => self.place(c, effect),
            Action::Pass => {
                self.passes += 1;
                if self.passes == 2 {
                    self.outcome = Some(Outcome::draw(Reason::TwoPasses));
                }
            }
        }
        self.ply += 1;
        self.to_move = self.to_move.opponent();
    }

    /// The playout policy's move, judged (the game is not over): uniform among legal
    /// placements, `pass` only when there is none.
    fn playout_action<R: Rng>(&self, rng: &mut R) -> Action {
        let cells = self.board.len();
        // Accepting a random cell only when it is a legal placement picks uniformly among
        // the legal placements, and so does the exhaustive fallback: so does their mixture.
        for _ in 0..PLAYOUT_TRIES {
            let c = rng.random_range(0..cells);
            if let Ok(effect) = self.resolve(c) {
                return Action::Place(c, effect);
            }
        }
        let mut empty = [0u16; MAX_CELLS];
        let mut len = 0;
        for (c, stone) in self.board.iter().enumerate() {
            if stone.is_none() {
                empty[len] = c as u16;
                len += 1;
            }
        }
        while len > 0 {
            let i = rng.random_range(0..len);
            let c = empty[i] as usize;
            if let Ok(effect) = self.resolve(c) {
                return Action::Place(c, effect);
            }
            len -= 1;
            empty[i] = empty[len];
        }
        Action::Pass
    }

    fn place(&mut self, c: usize, effect: Effect) {
        let a = self.to_move;
        self.board[c] = Some(a);
        self.line_bits.flip(&self.shared.lines, c, a);
        match effect {
            Effect::Wins => {
                // The game ends at step 1: no captures are made, the surrounded stone stays.
                self.board_hash ^= zobrist::stone(c, a);
                self.surrounded = self.shared.orthogonal[c]
                    .iter()
                    .map(|&n| n as usize)
                    .filter(|&n| {
                        self.board[n] == Some(a.opponent()) && self.surrounded_after(n, c, a)
                    })
                    .map(|n| Cell(n as u16))
                    .collect();
                self.outcome = Some(Outcome::win(a, Reason::Surrounded));
            }
            Effect::Stands {
                captured,
                board_hash,
            } => {
                if captured.len() > 0 {
                    for x in captured.iter() {
                        self.board[x] = None;
                        self.line_bits.flip(&self.shared.lines, x, a.opponent());
                    }
                    self.captures[a.index()] += captured.len();
                }
                self.board_hash = board_hash;
            }
        }
        self.seen.insert(self.board_hash);
        self.passes = 0;
    }
}

impl Position for Torus {
    fn kind(&self) -> GameKind {
        GameKind::Torus
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
        let before = out.len();
        out.extend(
            (0..self.board.len())
                .filter(|&c| self.is_legal_placement(c))
                .map(|c| Move::Place(Cell(c as u16))),
        );
        if out.len() == before {
            out.push(Move::Pass);
        }
    }

    /// `legal_moves` without the list: the cells where a stone may go, or `pass` when
    /// there is none.
    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.outcome.is_some() {
            return;
        }
        let cells = self.board.len();
        let mut any = false;
        for (c, legal) in mask[..cells].iter_mut().enumerate() {
            *legal = self.is_legal_placement(c);
            any |= *legal;
        }
        mask[Move::Pass.index(cells)] = !any;
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let action = self.judge(mv)?;
        self.apply(action);
        Ok(())
    }

    fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        self.judge(mv).map(drop)
    }

    fn hash(&self) -> u64 {
        self.board_hash ^ self.seen.digest ^ self.state_key()
    }

    fn ply(&self) -> usize {
        self.ply
    }

    /// Refused where a stone would have enemy stones on all four sides: the game would be
    /// over. The no-repeat history restarts with the new board.
    fn setup(&mut self, changes: &[SetupChange], to_move: Color) -> Result<(), SetupError> {
        let stones = setup::arrangement(self, changes)?;
        let surrounded = |c: usize| {
            stones[c].is_some_and(|s| {
                self.shared.orthogonal[c]
                    .iter()
                    .all(|&n| stones[n as usize] == Some(s.opponent()))
            })
        };
        if (0..stones.len()).any(surrounded) {
            return Err(SetupError::Surrounded);
        }
        self.board_hash = zobrist::board(&stones);
        self.line_bits = LineBits::of(&stones, &self.shared.lines);
        self.board = stones;
        self.to_move = to_move;
        self.seen = History::starting_with(self.board_hash);
        self.passes = 0;
        Ok(())
    }

    fn captures(&self) -> [u32; 2] {
        self.captures
    }

    fn highlight(&self) -> Vec<Cell> {
        self.surrounded.clone()
    }

    /// Uniform among legal moves: random cells first, then the empty cells in random order,
    /// so that `pass` comes only after every placement was found illegal.
    fn playout_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        Some(self.playout_action(rng).as_move())
    }

    /// Plays the placement as `playout_action` judged it, without judging it again.
    fn play_playout_move<R: Rng>(&mut self, rng: &mut R) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let action = self.playout_action(rng);
        let mv = action.as_move();
        self.apply(action);
        Some(mv)
    }
}

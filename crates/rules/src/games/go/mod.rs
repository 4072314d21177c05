//! `capture-go` and `go` (docs/rules.md, "capture-go and go"): one engine, two rule sets.
//!
//! Both place stones on a square board (plane, cylinder or torus), capture enemy chains
//! left without liberties, then forbid a placement whose own chain is left without
//! liberties (suicide). `pass` is always legal.
//! - `capture-go` is won at once by the first player to capture `target` stones; two
//!   consecutive passes end it, more captures winning. It has no ko rule.
//! - `go` ends on two consecutive passes or after `max_moves` moves and is won on score
//!   (area, territory, Japanese or stone scoring; komi added to white). Its `ko` rule is
//!   simple ko, positional superko or situational superko.
//!
//! The engine lives in `board`: chains and liberties are maintained incrementally, so a
//! move costs O(1) apart from merging and capturing, and random playouts are fast.

mod board;
mod config;
mod repetition;
mod scoring;

use std::sync::Arc;

use rand::Rng;

use crate::cell::Cell;
use crate::color::Color;
use crate::games::capture_go::CaptureGoConfig;
use crate::games::GameKind;
use crate::moves::{IllegalMove, Move};
use crate::outcome::{Outcome, Reason};
use crate::params::{ParamError, Params};
use crate::position::{EndPhase, Position};
use crate::setup::{self, SetupChange, SetupError};
use crate::topology::{Lattice, Topology};
use crate::zobrist::{self, WHITE_TO_MOVE};

use board::{code, Board, Geometry, Placed, EMPTY, MAX_POINTS, NO_POINT};
use repetition::KeySet;

pub(crate) use config::{read_board, BOARD_SIZE, BOARD_TOPOLOGY};
pub use config::{GoConfig, GO_PARAMS, GO_RULE_SET};
pub use repetition::KoRule;
pub use scoring::{Scoring, ScoringPhase};

/// Hash keys for the rule state besides stones and turn (see [`Go::hash`]).
const ONE_PASS: u64 = 0xF2A7_4DE4_52E6_B438;
const GAME_OVER: u64 = 0x6513_270E_269E_0D37;
const AFTER_TWO_PASSES: u64 = 0x3B9E_1F47_8C0D_62A5;
const CAPTURE_KEYS: [u64; 2] = [0x0C5C_7FD0_A6A3_A450, 0xD23F_0824_128B_2F33];

/// Which of the two rule sets a game follows, with its parameters: fixed for a game and
/// shared by all its positions.
#[derive(Debug)]
pub(crate) enum Rules {
    CaptureGo(CaptureGoConfig),
    Go(GoConfig),
}

impl Rules {
    /// The repetition rule: `None` in `capture-go`, which has none.
    fn ko(&self) -> Option<KoRule> {
        match self {
            Rules::CaptureGo(_) => None,
            Rules::Go(config) => Some(config.ko),
        }
    }
}

/// A position of `capture-go` or `go`.
#[derive(Debug)]
pub struct Go {
    rules: Arc<Rules>,
    /// `rules.ko()`, kept at hand: every placement and every playout candidate asks it, and
    /// reading it through `rules` cost a pointer and a match each time (about 30
    /// instructions of a playout move's 790).
    ko: Option<KoRule>,
    board: Board,
    to_move: Color,
    ply: u32,
    /// Consecutive passes just played.
    passes: u8,
    /// Under simple ko, the point where the player to move may not play (see [`Go::ko_point`]).
    ko_point: u16,
    captures: [u32; 2],
    /// The last placement and what it captured ([`board::Placed`]): the capture that won a
    /// game of `capture-go` is shown, and the playouts answer a capture's eye space.
    last_placement: (u16, Placed),
    outcome: Option<Outcome>,
    /// Under superko, the key of every position of the game so far.
    seen: KeySet,
    /// Under a scoring phase, the board the first two passes left, which the score counts
    /// (shared: positions are copied in searches' inner loops).
    two_passes: Option<Arc<TwoPassBoard>>,
}

/// The board that two passes left under a scoring phase, and what had been captured then.
#[derive(Debug)]
struct TwoPassBoard {
    ply: u32,
    board: Board,
    captures: [u32; 2],
}

impl Clone for Go {
    fn clone(&self) -> Go {
        Go {
            rules: Arc::clone(&self.rules),
            ko: self.ko,
            board: self.board.clone(),
            to_move: self.to_move,
            ply: self.ply,
            passes: self.passes,
            ko_point: self.ko_point,
            captures: self.captures,
            last_placement: self.last_placement,
            outcome: self.outcome,
            seen: self.seen.clone(),
            two_passes: self.two_passes.clone(),
        }
    }

    /// Reuses `self`'s board tables and superko set where they fit, without allocating:
    /// searches copy positions in their inner loops (each simulation, each ladder move).
    fn clone_from(&mut self, source: &Go) {
        if !Arc::ptr_eq(&self.rules, &source.rules) {
            self.rules = Arc::clone(&source.rules);
        }
        self.ko = source.ko;
        self.board.clone_from(&source.board);
        self.to_move = source.to_move;
        self.ply = source.ply;
        self.passes = source.passes;
        self.ko_point = source.ko_point;
        self.captures = source.captures;
        self.last_placement = source.last_placement;
        self.outcome = source.outcome;
        self.seen.clone_from(&source.seen);
        self.two_passes.clone_from(&source.two_passes);
    }
}

impl From<GoConfig> for Go {
    fn from(config: GoConfig) -> Go {
        Go::start(Rules::Go(config))
    }
}

impl Go {
    /// A new game of `go` from parameter values; see [`GoConfig`].
    // Named after the rule set, like `capture_go`: `GameKind` calls one of the two.
    #[allow(clippy::self_named_constructors)]
    pub fn go(params: &Params) -> Result<Go, ParamError> {
        Ok(Go::from(GoConfig::read(params)?))
    }

    /// A new game of `capture-go` from parameter values; see [`CaptureGoConfig`].
    pub fn capture_go(params: &Params) -> Result<Go, ParamError> {
        Ok(Go::from(CaptureGoConfig::read(params)?))
    }

    /// The empty board, black to move.
    pub(crate) fn start(rules: Rules) -> Go {
        let (size, surface) = match &rules {
            Rules::CaptureGo(config) => (config.size, config.surface),
            Rules::Go(config) => (config.size, config.surface),
        };
        let topology = Topology::new(Lattice::Square4, surface, size, size);
        let mut go = Go {
            ko: rules.ko(),
            rules: Arc::new(rules),
            board: Board::new(Arc::new(Geometry::new(topology))),
            to_move: Color::Black,
            ply: 0,
            passes: 0,
            ko_point: NO_POINT,
            captures: [0, 0],
            last_placement: (NO_POINT, Placed::NOTHING),
            outcome: None,
            seen: KeySet::default(),
            two_passes: None,
        };
        go.remember_position();
        go
    }

    /// The number of distinct liberties of the chain on `cell` (0 if there is no stone).
    pub fn liberties(&self, cell: Cell) -> u32 {
        self.stone_point(cell)
            .map_or(0, |p| self.board.liberties(p))
    }

    /// Whether the chain on `cell` has exactly one liberty (false if there is no stone).
    pub fn in_atari(&self, cell: Cell) -> bool {
        self.stone_point(cell)
            .is_some_and(|p| self.board.in_atari(p))
    }

    /// The only liberty of the chain on `cell`, if it has exactly one.
    pub fn atari_point(&self, cell: Cell) -> Option<Cell> {
        let p = self.stone_point(cell)?;
        self.board.atari_point(p).map(|a| Cell(a as u16))
    }

    /// The only liberty of an enemy chain in atari that touches the chain on `cell`: a
    /// capture there gives that chain a liberty (`None` also if there is no stone).
    pub fn capture_next_to(&self, cell: Cell) -> Option<Cell> {
        let p = self.stone_point(cell)?;
        self.board.capture_next_to(p).map(|a| Cell(a as u16))
    }

    /// How many stones the last move took, when it was a placement on `cell` (else 0).
    pub fn stones_taken_by(&self, cell: Cell) -> u32 {
        let (point, placed) = self.last_placement;
        if usize::from(point) == cell.index() {
            placed.captured
        } else {
            0
        }
    }

    /// The stones that the last move took, when it was a placement on `cell` (else none).
    pub fn captured_by(&self, cell: Cell) -> Vec<Cell> {
        if self.stones_taken_by(cell) == 0 {
            return Vec::new();
        }
        let chains = self.last_placement.1.captured_chains;
        (self.board.captured_points(cell.index(), chains).into_iter())
            .map(|p| Cell(p as u16))
            .collect()
    }

    /// Whether `cell` is an own single-point eye of `color`: an empty cell whose every
    /// neighbour is a `color` stone, none of whose chains is in atari. The playout policy
    /// never fills one, unless it is a false eye ([`Go::is_false_eye`]).
    pub fn is_own_eye(&self, cell: Cell, color: Color) -> bool {
        let p = cell.index();
        p < self.board.len()
            && self.board.color(p) == EMPTY
            && self.board.is_own_eye(p, code(color))
    }

    /// Whether `cell` is an own eye of `color` ([`Go::is_own_eye`]) that is false: two of its
    /// diagonal cells hold enemy stones, or one does and another is off the board (MoGo's,
    /// Fuego's and Pachi's test). The enemy can cut the chains around it apart, and filling
    /// it connects them, so the playout policy plays there like anywhere else.
    pub fn is_false_eye(&self, cell: Cell, color: Color) -> bool {
        self.is_own_eye(cell, color) && self.board.is_false_eye(cell.index(), code(color))
    }

    /// When `color` playing on the empty `cell` would leave the chain of that stone with
    /// exactly one liberty without capturing anything (a self-atari), the chain's size
    /// (`None` also for a cell that is not empty).
    pub fn self_atari(&self, cell: Cell, color: Color) -> Option<usize> {
        let p = cell.index();
        if p < self.board.len() && self.board.color(p) == EMPTY {
            self.board.self_atari(p, code(color))
        } else {
            None
        }
    }

    /// The eight cells around `cell`, clockwise from the one above it (`None` off the
    /// board), as [`Go::neighborhood`] reads them.
    pub fn around(&self, cell: Cell) -> [Option<Cell>; 8] {
        let n = self.board.len();
        self.board
            .around(cell.index())
            .map(|r| (usize::from(r) < n).then_some(Cell(r)))
    }

    /// The 3×3 neighbourhood of `cell` as a 16-bit code: two bits for each of the eight
    /// cells of [`Go::around`], the first in the lowest bits, each 0 empty, 1 black, 2 white
    /// or 3 off the board. Playout patterns are sets of these codes.
    pub fn neighborhood(&self, cell: Cell) -> u16 {
        self.board.neighborhood(cell.index())
    }

    /// How the game is scored; `None` in `capture-go`, which captures decide.
    pub fn scoring(&self) -> Option<Scoring> {
        match &*self.rules {
            Rules::Go(config) => Some(config.scoring),
            Rules::CaptureGo(_) => None,
        }
    }

    /// The passes played in a row just before this position (1: the opponent just passed).
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// Play resumes after two passes: the same board and the same player to move, as
    /// Japanese rules resume play to settle a dispute about life and death. A bot judging
    /// a game that its two passes ended plays it out from here; nothing changes where the
    /// game did not end by two passes.
    pub fn resume(&mut self) {
        if self.outcome.is_some_and(|o| o.reason == Reason::TwoPasses) {
            self.outcome = None;
            self.passes = 0;
        }
    }

    /// Under simple ko, the cell where the player to move may not play now: the single
    /// stone just captured by a lone stone that the recapture would take back.
    pub fn ko_point(&self) -> Option<Cell> {
        (self.ko_point != NO_POINT).then_some(Cell(self.ko_point))
    }

    /// Recounts chains, liberties, the empty-point list and the hash from the stones alone
    /// and reports the first difference from the incremental data (for tests).
    #[doc(hidden)]
    pub fn check_consistency(&self) -> Result<(), String> {
        self.board.check_consistency()
    }

    fn stone_point(&self, cell: Cell) -> Option<usize> {
        let p = cell.index();
        (p < self.board.len() && self.board.color(p) != EMPTY).then_some(p)
    }

    fn running(&self) -> Result<(), IllegalMove> {
        match self.outcome {
            Some(_) => Err(IllegalMove::GameOver),
            None => Ok(()),
        }
    }

    fn check_placement(&self, cell: Cell) -> Result<(), IllegalMove> {
        self.running()?;
        let p = cell.index();
        if p >= self.board.len() {
            return Err(IllegalMove::OffBoard);
        }
        if self.board.color(p) != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        let color = code(self.to_move);
        if self.board.is_suicide(p, color) {
            return Err(IllegalMove::Suicide);
        }
        self.check_repetition(p, color)
    }

    /// The ko rule's verdict on a placement that is otherwise legal.
    ///
    /// Simple ko compares with the board before the opponent's last move (B₋₁) through the
    /// ko point, which is exact: say the opponent's last move put a stone on q and captured
    /// the set S, and our stone on p captures T. The new board equals B₋₁ only if p was
    /// occupied in B₋₁ and empty now, so p ∈ S; q is empty in B₋₁, so q ∈ T; every other
    /// stone of S or T is on B₋₁ but not on the new board, so S = {p} and T = {q}. T = {q}
    /// means q's chain is q alone with p its only liberty; then no other chain is taken (an
    /// enemy chain next to p but not to q had a liberty besides p before q was played and
    /// still has it). So: the opponent's move captured exactly one stone, on p, and its
    /// stone stands alone with one liberty — exactly when [`Board::place`] reports a ko.
    #[inline]
    fn check_repetition(&self, p: usize, color: u8) -> Result<(), IllegalMove> {
        match self.ko {
            None => Ok(()),
            Some(KoRule::Simple) if p == self.ko_point as usize => Err(IllegalMove::Ko),
            Some(KoRule::Simple) => Ok(()),
            Some(rule) => {
                let stones = self.board.hash_after(p, color);
                let key = repetition_key(rule, stones, self.to_move.opponent());
                if self.seen.contains(&key) {
                    Err(IllegalMove::Superko)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Records the current position for superko.
    #[inline]
    fn remember_position(&mut self) {
        if let Some(rule @ (KoRule::Positional | KoRule::Situational)) = self.ko {
            self.seen
                .insert(repetition_key(rule, self.board.hash(), self.to_move));
        }
    }

    fn place(&mut self, p: usize) {
        let mover = self.to_move;
        let placed = self.board.place(p, code(mover));
        self.captures[mover.index()] += placed.captured;
        self.last_placement = (p as u16, placed);
        self.ko_point = match self.ko {
            Some(KoRule::Simple) => placed.ko,
            _ => NO_POINT,
        };
        self.passes = 0;
        self.finish_move(mover);
    }

    fn pass(&mut self) {
        let mover = self.to_move;
        self.ko_point = NO_POINT;
        self.passes += 1;
        self.finish_move(mover);
    }

    fn finish_move(&mut self, mover: Color) {
        self.ply += 1;
        self.to_move = mover.opponent();
        self.remember_position();
        if self.passes >= 2 && self.two_passes.is_none() && self.phase() != ScoringPhase::None {
            // The first two passes start the scoring phase: the board they left is counted.
            self.two_passes = Some(Arc::new(TwoPassBoard {
                ply: self.ply,
                board: self.board.clone(),
                captures: self.captures,
            }));
            self.passes = 0;
        }
        self.outcome = self.judge(mover);
    }

    fn phase(&self) -> ScoringPhase {
        match &*self.rules {
            Rules::Go(config) => config.phase,
            Rules::CaptureGo(_) => ScoringPhase::None,
        }
    }

    /// The score of the board two passes left with the stones on `dead` points taken off
    /// as the opponent's prisoners.
    fn score_without(
        config: &GoConfig,
        counted: &TwoPassBoard,
        dead: impl Iterator<Item = usize>,
    ) -> [f64; 2] {
        let mut captures = counted.captures;
        let mut stones = vec![None; counted.board.len()];
        counted.board.stones(&mut stones);
        for p in dead {
            if let Some(color) = stones.get_mut(p).and_then(Option::take) {
                captures[color.opponent().index()] += 1;
            }
        }
        let board = Board::with_stones(counted.board.geometry(), &stones);
        config.scoring.score(&board, captures, config.komi)
    }

    /// The stones of the board two passes left that no longer stand: captured in cleanup.
    fn captured_in_cleanup<'a>(
        &'a self,
        counted: &'a TwoPassBoard,
    ) -> impl Iterator<Item = usize> + 'a {
        (0..counted.board.len()).filter(move |&p| {
            counted.board.color(p) != EMPTY && self.board.color(p) != counted.board.color(p)
        })
    }

    /// Whether the move just played by `mover` ended the game, and how.
    fn judge(&self, mover: Color) -> Option<Outcome> {
        match &*self.rules {
            Rules::CaptureGo(config) => {
                if self.captures[mover.index()] >= config.target {
                    Some(Outcome::win(mover, Reason::CaptureTarget))
                } else if self.passes >= 2 {
                    // Captures decide, but they are no score: no margin.
                    let [black, white] = self.captures.map(f64::from);
                    Some(Outcome {
                        margin: None,
                        ..Outcome::by_score(black, white, Reason::TwoPasses)
                    })
                } else {
                    None
                }
            }
            Rules::Go(config) => {
                let reason = if self.passes >= 2 {
                    Reason::TwoPasses
                } else if self.ply >= config.max_moves {
                    Reason::MoveLimit
                } else {
                    return None;
                };
                let [black, white] = match &self.two_passes {
                    Some(counted) => {
                        Go::score_without(config, counted, self.captured_in_cleanup(counted))
                    }
                    None => config
                        .scoring
                        .score(&self.board, self.captures, config.komi),
                };
                Some(Outcome::by_score(black, white, reason))
            }
        }
    }

    /// Draws uniformly among the empty points that `accept` takes, and `pass` when
    /// `pass_is_candidate`; a pass also when nothing else is acceptable. Candidates come from
    /// the board's list of empty points: a few draws with replacement first (no copying), then
    /// without replacement from a copy, swapping rejected points out. Either way the first
    /// accepted draw is uniform among the acceptable candidates.
    fn sample_move<R: Rng>(
        &self,
        rng: &mut R,
        pass_is_candidate: bool,
        accept: impl Fn(usize) -> bool,
    ) -> Move {
        let empty = self.board.empty_points();
        let n = empty.len();
        // Slot `n` stands for the pass.
        let slots = n + usize::from(pass_is_candidate);
        let pick = |slot: usize| match empty.get(slot) {
            None => Some(Move::Pass),
            Some(&p) => accept(p as usize).then_some(Move::Place(Cell(p))),
        };
        for _ in 0..slots.min(PLAYOUT_QUICK_TRIES) {
            if let Some(mv) = pick(rng.random_range(0..slots as u32) as usize) {
                return mv;
            }
        }
        let mut buffer = [0u16; MAX_POINTS + 1];
        let candidates = &mut buffer[..slots];
        for (i, c) in candidates.iter_mut().enumerate() {
            *c = i as u16;
        }
        for left in (1..=slots).rev() {
            let i = rng.random_range(0..left as u32) as usize;
            if let Some(mv) = pick(candidates[i] as usize) {
                return mv;
            }
            candidates.swap(i, left - 1);
        }
        Move::Pass
    }

    /// The playout policy's test of a candidate placement (see [`Position::playout_move`]).
    #[inline]
    fn is_playout_candidate(&self, p: usize, color: u8) -> bool {
        self.board.is_sensible(p, color) && self.check_repetition(p, color).is_ok()
    }
}

/// The points of the chain through `cell` on `board` (none where it holds no stone).
fn chain_at(board: &Board, cell: Cell) -> impl Iterator<Item = usize> + '_ {
    let p = cell.index();
    let stone = p < board.len() && board.color(p) != EMPTY;
    stone.then(|| board.chain_points(p)).into_iter().flatten()
}

/// The key under which a superko rule remembers a position.
fn repetition_key(rule: KoRule, stones: u64, to_move: Color) -> u64 {
    match (rule, to_move) {
        (KoRule::Situational, Color::White) => stones ^ WHITE_TO_MOVE,
        _ => stones,
    }
}

/// Random picks tried before the playout policy copies the empty-point list to sample
/// without replacement.
const PLAYOUT_QUICK_TRIES: usize = 4;

/// Whether some chain of `stones` has no liberty (a flood fill per chain).
fn has_chain_without_liberties(topology: &Topology, stones: &[Option<Color>]) -> bool {
    let mut seen = vec![false; stones.len()];
    let mut stack = Vec::new();
    for start in topology.cells() {
        let Some(color) = stones[start.index()] else {
            continue;
        };
        if seen[start.index()] {
            continue;
        }
        seen[start.index()] = true;
        stack.push(start);
        let mut liberty = false;
        while let Some(at) = stack.pop() {
            for nb in topology.adjacent(at) {
                match stones[nb.index()] {
                    None => liberty = true,
                    Some(c) if c == color && !seen[nb.index()] => {
                        seen[nb.index()] = true;
                        stack.push(nb);
                    }
                    Some(_) => {}
                }
            }
        }
        if !liberty {
            return true;
        }
    }
    false
}

impl Position for Go {
    fn kind(&self) -> GameKind {
        match *self.rules {
            Rules::CaptureGo(_) => GameKind::CaptureGo,
            Rules::Go(_) => GameKind::Go,
        }
    }

    fn params(&self) -> &Params {
        match &*self.rules {
            Rules::CaptureGo(config) => config.params(),
            Rules::Go(config) => config.params(),
        }
    }

    fn topology(&self) -> &Topology {
        self.board.topology()
    }

    fn stone(&self, cell: Cell) -> Option<Color> {
        let p = cell.index();
        (p < self.board.len())
            .then(|| self.board.stone(p))
            .flatten()
    }

    fn stones(&self, out: &mut [Option<Color>]) {
        self.board.stones(out);
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
            self.topology()
                .cells()
                .filter(|&c| self.check_placement(c).is_ok())
                .map(Move::Place),
        );
        out.push(Move::Pass);
    }

    /// `legal_moves` without the list: one pass over the empty points, testing each as
    /// `check_placement` does but without asking again whether the game is on.
    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.outcome.is_some() {
            return;
        }
        let color = code(self.to_move);
        let board = &self.board;
        let cells = board.len();
        // Simple ko forbids one point, tested after the loop; superko may forbid any.
        let superko = matches!(self.ko, Some(KoRule::Positional | KoRule::Situational));
        for &p in board.empty_points() {
            let p = p as usize;
            mask[p] = !board.is_suicide(p, color)
                && (!superko || self.check_repetition(p, color).is_ok());
        }
        if self.ko_point != NO_POINT {
            let ko = self.ko_point as usize;
            mask[ko] &= self.check_repetition(ko, color).is_ok();
        }
        mask[Move::Pass.index(cells)] = true;
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        // `check` lets through only placements and passes.
        match mv {
            Move::Place(cell) => self.place(cell.index()),
            _ => self.pass(),
        }
        Ok(())
    }

    fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Place(cell) => self.check_placement(cell),
            Move::Pass => self.running(),
            Move::EndTurn => self.running().and(Err(IllegalMove::EndNotAllowed)),
            Move::Swap => self.running().and(Err(IllegalMove::SwapNotAllowed)),
        }
    }

    /// Zobrist of the stones, `WHITE_TO_MOVE` when white is to move, and keys for the ko
    /// point (simple ko), a pass just played (a second one ends the game), the game being
    /// over, and in `capture-go` the capture counts (they decide when it is won). Not
    /// included: the move count (it only matters at `max_moves`) and, under superko, the
    /// history of earlier positions.
    fn hash(&self) -> u64 {
        let mut hash = self.board.hash();
        if self.to_move == Color::White {
            hash ^= WHITE_TO_MOVE;
        }
        if self.ko_point != NO_POINT {
            // No board holds both colours on one cell, so this pair of keys never cancels
            // against stones.
            let p = self.ko_point as usize;
            hash ^= zobrist::stone(p, Color::Black) ^ zobrist::stone(p, Color::White);
        }
        if self.passes == 1 {
            hash ^= ONE_PASS;
        }
        if self.outcome.is_some() {
            hash ^= GAME_OVER;
        }
        if self.two_passes.is_some() {
            hash ^= AFTER_TWO_PASSES;
        }
        if let Rules::CaptureGo(_) = *self.rules {
            for (count, key) in self.captures.iter().zip(CAPTURE_KEYS) {
                hash ^= (*count as u64 + 1).wrapping_mul(key);
            }
        }
        hash
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }

    /// Refused where a chain would have no liberties. The board is rebuilt with the black
    /// stones first, then the white ones: no chain is ever without liberties on the way (a
    /// black chain only loses liberties down to its final ones; a white chain that ran out
    /// would have no liberty at the end either), so nothing is captured.
    fn setup(&mut self, changes: &[SetupChange], to_move: Color) -> Result<(), SetupError> {
        let stones = setup::arrangement(self, changes)?;
        if has_chain_without_liberties(self.topology(), &stones) {
            return Err(SetupError::NoLiberties);
        }
        self.board = Board::with_stones(self.board.geometry(), &stones);
        self.to_move = to_move;
        self.passes = 0;
        self.ko_point = NO_POINT;
        // The set-up board has no last move (`captured_by` reads the last one's captures).
        self.last_placement = (NO_POINT, Placed::NOTHING);
        self.seen.clear();
        self.two_passes = None;
        self.remember_position();
        Ok(())
    }

    fn captures(&self) -> [u32; 2] {
        self.captures
    }

    fn score(&self) -> Option<[f64; 2]> {
        match &*self.rules {
            Rules::Go(config) => Some(config.scoring.score(
                &self.board,
                self.captures,
                config.komi,
            )),
            Rules::CaptureGo(_) => None,
        }
    }

    fn end_phase(&self) -> EndPhase {
        match &self.two_passes {
            None => EndPhase::Play,
            Some(counted) if counted.ply == self.ply && self.phase() == ScoringPhase::Agreement => {
                EndPhase::Counting
            }
            Some(_) => EndPhase::Cleanup,
        }
    }

    fn outcome_with_dead(&self, dead: &[Cell]) -> Option<Outcome> {
        let (Rules::Go(config), Some(counted)) = (&*self.rules, &self.two_passes) else {
            return None;
        };
        let dead = dead.iter().flat_map(|&cell| chain_at(&counted.board, cell));
        let [black, white] = Go::score_without(config, counted, dead);
        Some(Outcome::by_score(black, white, Reason::TwoPasses))
    }

    fn chain(&self, cell: Cell) -> Vec<Cell> {
        chain_at(&self.board, cell)
            .map(|p| Cell(p as u16))
            .collect()
    }

    fn territory(&self) -> Option<Vec<Option<Color>>> {
        match &*self.rules {
            Rules::Go(config) if config.scoring.counts_territory() => {
                Some(self.board.territory_owners())
            }
            Rules::Go(_) | Rules::CaptureGo(_) => None,
        }
    }

    fn ring_code(&self, cell: Cell) -> u32 {
        u32::from(self.board.neighborhood(cell.index()))
    }

    fn empty_cells(&self) -> usize {
        self.board.empty_points().len()
    }

    /// The stone that reached `capture-go`'s target and the stones it took.
    fn highlight(&self) -> Vec<Cell> {
        if self.outcome.map(|o| o.reason) != Some(Reason::CaptureTarget) {
            return Vec::new();
        }
        let stone = Cell(self.last_placement.0);
        std::iter::once(stone)
            .chain(self.captured_by(stone))
            .collect()
    }

    /// Uniform among the placements that are legal and do not fill an own single-point eye
    /// ([`Go::is_own_eye`]) that is not false ([`Go::is_false_eye`]); a pass only when
    /// there is none. Candidates are drawn from the board's list of empty points: a few
    /// draws with replacement first (no copying), then without replacement from a copy,
    /// swapping rejected points out. Either way the first accepted draw is uniform among the
    /// acceptable points.
    fn playout_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let color = code(self.to_move);
        Some(self.sample_move(rng, false, |p| self.is_playout_candidate(p, color)))
    }

    /// Plays the move without judging it again: the caller (the playout draw, a checked
    /// batch of actions) already did.
    fn play_legal(&mut self, mv: Move) {
        debug_assert_eq!(self.check(mv), Ok(()));
        // Only placements and passes are ever legal.
        match mv {
            Move::Place(cell) => self.place(cell.index()),
            _ => self.pass(),
        }
    }

    /// Uniform among every legal move, `pass` included (it is always legal), drawn the same
    /// way as [`Position::playout_move`] without building the legal-move list.
    fn uniform_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let color = code(self.to_move);
        Some(self.sample_move(rng, true, |p| {
            !self.board.is_suicide(p, color) && self.check_repetition(p, color).is_ok()
        }))
    }
}

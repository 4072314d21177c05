//! The trait every rule set implements.

use rand::seq::IndexedRandom;
use rand::Rng;

use crate::cell::Cell;
use crate::color::Color;
use crate::games::GameKind;
use crate::moves::{IllegalMove, Move};
use crate::outcome::Outcome;
use crate::params::Params;
use crate::setup::{SetupChange, SetupError};
use crate::topology::Topology;

/// Where a game stands after two passes (what follows them is Go's `scoring_phase`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndPhase {
    /// Moves as usual: no two passes yet, or none that start a phase.
    Play,
    /// Two passes have just been played under `agreement`: the players agree on the dead
    /// stones of this board, or one of them disputes and play goes on as in cleanup.
    Counting,
    /// Play goes on after two passes until two more; the stones of the board the first two
    /// left that are captured meanwhile count as dead on it.
    Cleanup,
}

/// A game in progress: the board, whose turn it is, and everything the rules need to judge
/// the next move. Cloning is cheap (the topology is shared), so search can copy positions.
pub trait Position: Clone + Send + Sync + 'static {
    /// Which rule set this is.
    fn kind(&self) -> GameKind;

    /// The parameters, every default resolved.
    fn params(&self) -> &Params;

    /// The cell graph.
    fn topology(&self) -> &Topology;

    /// The stone on `cell`, if any.
    fn stone(&self, cell: Cell) -> Option<Color>;

    /// The stone on every cell, in cell order, into `out` (one entry per cell): the whole
    /// board at once, for learning code that reads it every move. Rule sets override it where
    /// that costs less than asking cell by cell.
    fn stones(&self, out: &mut [Option<Color>]) {
        for (stone, cell) in out.iter_mut().zip(self.topology().cells()) {
            *stone = self.stone(cell);
        }
    }

    /// The player to move, or `None` once the game is over.
    fn turn(&self) -> Option<Color>;

    /// How the game ended, once it has.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends every legal move to `out` (nothing once the game is over).
    fn legal_moves(&self, out: &mut Vec<Move>);

    /// Writes [`Position::legal_moves`] as a mask: `mask[mv.index(cells)]` is true exactly
    /// for the legal moves ([`Move::index`]: the cells, then `pass`, `end`, `swap`; `mask`
    /// has `cells + Move::BEYOND_CELLS` entries). Rule sets override it where a mask costs
    /// less than a list, for learning code that asks for one every move.
    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let cells = self.topology().len();
        for mv in moves {
            mask[mv.index(cells)] = true;
        }
    }

    /// Plays `mv` for the player to move, or says why it is illegal and changes nothing.
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove>;

    /// Plays `mv`, which the caller knows to be legal in this very position (one of its
    /// [`Position::legal_moves`], or allowed by its [`Position::legal_mask`]), without judging
    /// it again: learning code that checked a batch of actions against their masks plays
    /// them this way. Rule sets override it where the judgement costs something; an illegal
    /// `mv` is the caller's bug (it panics in debug builds, and in release builds may leave a
    /// position the rules could not reach).
    fn play_legal(&mut self, mv: Move) {
        self.play(mv).expect("play_legal is given a legal move");
    }

    /// Puts stones on cells or empties them outside the rules (SGF setup, Go handicap) and
    /// gives the move to `to_move`. The game's history of boards (for ko and no-repeat rules)
    /// restarts from the new board; the move count and captures stay. Refused, changing
    /// nothing, when the game is over or the result is no position the rules could reach and
    /// go on from (each rule set says which).
    fn setup(&mut self, changes: &[SetupChange], to_move: Color) -> Result<(), SetupError>;

    /// Whether `mv` is legal now, without playing it.
    fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        self.clone().play(mv)
    }

    /// A hash of the position: the stones, the player to move, and any rule state that
    /// decides what is legal next (equal positions hash equal).
    fn hash(&self) -> u64;

    /// Moves played so far (passes and `end` included).
    fn ply(&self) -> usize;

    /// Stones each player has captured (or turned over, in CTOR), indexed by [`Color::index`].
    fn captures(&self) -> [u32; 2] {
        [0, 0]
    }

    /// The score by the game's scoring method (`go` only), indexed by [`Color::index`].
    fn score(&self) -> Option<[f64; 2]> {
        None
    }

    /// Where the game stands after two passes (Go's scoring phase, docs/rules.md).
    fn end_phase(&self) -> EndPhase {
        EndPhase::Play
    }

    /// The result if the stones on `dead` cells (any cell of a dead chain) are agreed dead on
    /// the board that two passes left: `Some` while the phase is [`EndPhase::Counting`] or
    /// [`EndPhase::Cleanup`], which count that board.
    fn outcome_with_dead(&self, _dead: &[Cell]) -> Option<Outcome> {
        None
    }

    /// The cells of the chain of stones through `cell` (connected stones of one colour),
    /// which live or die together; empty where `cell` holds no stone.
    fn chain(&self, cell: Cell) -> Vec<Cell> {
        self.stone(cell).map(|_| vec![cell]).unwrap_or_default()
    }

    /// The owner of each cell that the score counts as territory: an empty region that
    /// borders stones of one colour only (`go` under area or territory scoring), indexed by
    /// cell. `None` where the game counts no territory.
    fn territory(&self) -> Option<Vec<Option<Color>>> {
        None
    }

    /// The colours of the cells of [`Topology::ring`] around `cell`, two bits each, the
    /// ring's first cell in the lowest bits: 0 empty, 1 black, 2 white, 3 off the board. What
    /// move patterns read; rule sets that keep it at hand answer without asking each cell.
    fn ring_code(&self, cell: Cell) -> u32 {
        ring_code_by_stones(self, cell)
    }

    /// The number of empty cells: counted by default; rule sets that keep the count answer
    /// at once.
    fn empty_cells(&self) -> usize {
        empty_cells_by_stones(self)
    }

    /// The cells that decided the game (a winning loop, a surrounded stone), for display.
    fn highlight(&self) -> Vec<Cell> {
        Vec::new()
    }

    /// A move for random playouts: uniform among legal moves, except where a rule set
    /// narrows it to moves that are never pointless (Go does not fill its own eyes).
    /// `None` once the game is over.
    fn playout_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.choose(rng).copied()
    }

    /// Plays a [`Position::playout_move`] and returns it (`None` once the game is over): the
    /// same move from the same random numbers, and the same position after it, as
    /// `playout_move` followed by `play`. The drawn move is legal, so it is played through
    /// [`Position::play_legal`]: a rule set whose `play_legal` skips the judgement judges it
    /// once. Rule sets override this where drawing and playing share more work.
    fn play_playout_move<R: Rng>(&mut self, rng: &mut R) -> Option<Move> {
        let mv = self.playout_move(rng)?;
        self.play_legal(mv);
        Some(mv)
    }

    /// Says that from now on the game is only played out to learn its winner (a random
    /// playout), so that a rule set may judge less. From the same random numbers the moves
    /// and the winner stay the same, but the game may go on past the move that decided it:
    /// loop games ([`hex_torus`](crate::games::hex_torus),
    /// [`m_torus`](crate::games::m_torus)) keep only black's groups, and a game that white
    /// wins goes on until the board is full. Nothing is undone: a position that started a
    /// playout serves only that playout.
    fn start_playout(&mut self) {}

    /// A move drawn uniformly among all legal moves (`None` once the game is over): the
    /// plain random policy other engines use, for like-for-like benchmarks.
    fn uniform_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.choose(rng).copied()
    }
}

/// [`Position::ring_code`] asked of the stones cell by cell: the default, and the reference
/// that rule sets keeping the code at hand are tested against.
pub fn ring_code_by_stones<P: Position>(position: &P, cell: Cell) -> u32 {
    let ring = position.topology().ring(cell);
    ring.iter().enumerate().fold(0, |code, (i, &r)| {
        let field = r.map_or(3, |r| ring_field(position.stone(r)));
        code | field << (2 * i)
    })
}

/// The two bits of [`Position::ring_code`] for a cell on the board holding `stone`.
pub fn ring_field(stone: Option<Color>) -> u32 {
    match stone {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

/// [`Position::empty_cells`] counted on the stones: the default, and the reference that rule
/// sets keeping the count are tested against.
pub fn empty_cells_by_stones<P: Position>(position: &P) -> usize {
    (position.topology().cells())
        .filter(|&c| position.stone(c).is_none())
        .count()
}

/// Starts a playout ([`Position::start_playout`]) and plays [`Position::playout_move`] moves
/// until the game ends; returns how many were played.
pub fn random_playout<P: Position, R: Rng>(position: &mut P, rng: &mut R) -> usize {
    position.start_playout();
    let start = position.ply();
    while position.play_playout_move(rng).is_some() {}
    position.ply() - start
}

/// Starts a playout ([`Position::start_playout`]) and plays [`Position::uniform_move`] moves
/// until the game ends; returns how many were played.
pub fn uniform_playout<P: Position, R: Rng>(position: &mut P, rng: &mut R) -> usize {
    position.start_playout();
    let start = position.ply();
    while let Some(mv) = position.uniform_move(rng) {
        position
            .play(mv)
            .expect("the uniform policy returns only legal moves");
    }
    position.ply() - start
}

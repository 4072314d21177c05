//! How positions and moves become numbers: integer actions, the legal-move mask and the
//! observation planes. The networks read exactly these planes, and the Python package writes
//! them for learning code (docs/python.md describes them), so a network trained in Python on
//! `Game.observation()` and one evaluated by the search see the same input.

use toroid_rules::{AnyGame, Color, Move, Position, Topology};

/// Observation planes, each `H × W` in the cell order of the board (row by row; hex boards
/// in their odd-r layout):
/// 0. the stones of the player the observation is for;
/// 1. the opponent's stones;
/// 2. empty cells;
/// 3. all ones when the observation is for black (the rule sets are not symmetric);
/// 4. the cells where the player to move may place a stone (none once the game is over);
/// 5. all ones when the player to move may play `end`: in the middle of a CTOR turn, which
///    the stones alone do not show.
pub const PLANES: usize = 6;

/// A value of an observation plane: 0 or 1 in the plane's element type.
pub trait PlaneValue: Copy + Send + Sync {
    fn from_bit(bit: bool) -> Self;

    /// A fraction of the [`EXTRA_PLANES`]; the integer types keep only whether it is
    /// nonzero (the Python API asks for the extra planes as float32 only).
    fn from_fraction(value: f32) -> Self {
        Self::from_bit(value != 0.0)
    }
}

impl PlaneValue for f32 {
    fn from_bit(bit: bool) -> f32 {
        f32::from(u8::from(bit))
    }

    fn from_fraction(value: f32) -> f32 {
        value
    }
}

impl PlaneValue for u8 {
    fn from_bit(bit: bool) -> u8 {
        u8::from(bit)
    }
}

impl PlaneValue for bool {
    fn from_bit(bit: bool) -> bool {
        bit
    }
}

/// Actions of a board: one per cell, then `pass`, `end` and `swap` (CTOR ends a turn early
/// with `end`, `hex-torus` and `m-torus` with `swap=true` take over black's first stone with
/// `swap`; each is never legal in the other rule sets, but every rule set keeps the same
/// numbering, [`Move::index`]).
pub fn action_count(topology: &Topology) -> usize {
    topology.len() + Move::BEYOND_CELLS
}

/// The action of a move: its cell index, `W*H` for `pass`, `W*H + 1` for `end`, `W*H + 2`
/// for `swap`.
pub fn action_of_move(topology: &Topology, mv: Move) -> usize {
    mv.index(topology.len())
}

/// The move of an action, or why the number is not an action on this board.
pub fn move_of_action(topology: &Topology, action: i64) -> Result<Move, String> {
    let cells = topology.len();
    usize::try_from(action)
        .ok()
        .and_then(|a| Move::from_index(a, cells))
        .ok_or_else(|| {
            format!(
                "action {action} is not an action on this board: 0..{} are cells, {cells} is pass, {} is end, {} is swap",
                cells - 1,
                cells + 1,
                cells + 2
            )
        })
}

/// The player an observation is for when the caller names none: the player to move, or
/// black once the game is over.
pub fn default_perspective(game: &AnyGame) -> Color {
    game.turn().unwrap_or(Color::Black)
}

/// The legal-move mask of `game`, one entry per action.
pub fn legal_mask(game: &AnyGame) -> Vec<bool> {
    let mut mask = vec![false; action_count(game.topology())];
    game.legal_mask(&mut mask);
    mask
}

/// Writes the observation planes of `game` for `perspective` into `out` (`PLANES × W × H`
/// values); `mask` is the game's legal-move mask ([`Position::legal_mask`]), and `stones`
/// scratch space that a caller writing many observations keeps (clearing a fresh buffer
/// each time was 1.5% of a `VectorEnv` step's instructions). Every value is written, so
/// `out` may hold anything before. Generic so that a batch of games can call it on the rule
/// set's own type, without a dispatch per cell.
pub fn write_observation<P: Position, T: PlaneValue>(
    game: &P,
    perspective: Color,
    mask: &[bool],
    stones: &mut Vec<Option<Color>>,
    out: &mut [T],
) {
    let topology = game.topology();
    let cells = topology.len();
    let mut planes = out.chunks_exact_mut(cells);
    let mut plane = || planes.next().expect("PLANES planes");
    let (own, theirs, empty, black, placements, mid_turn) =
        (plane(), plane(), plane(), plane(), plane(), plane());
    // This runs for every game of a `VectorEnv` every step. The stones are read first, the
    // whole board at once ([`Position::stones`]), then each plane is written from them in a
    // loop of its own: deciding all three planes in the loop that reads the stones lets the
    // compiler branch on each cell, and a random board mispredicts half of those branches
    // (this way an observation of 9×9 Go costs about half as much).
    stones.resize(cells, None);
    game.stones(stones);
    for (value, &stone) in own.iter_mut().zip(&*stones) {
        *value = T::from_bit(stone == Some(perspective));
    }
    for (value, &stone) in theirs.iter_mut().zip(&*stones) {
        *value = T::from_bit(stone == Some(perspective.opponent()));
    }
    for (value, &stone) in empty.iter_mut().zip(&*stones) {
        *value = T::from_bit(stone.is_none());
    }
    black.fill(T::from_bit(perspective == Color::Black));
    for (plane, &legal) in placements.iter_mut().zip(&mask[..cells]) {
        *plane = T::from_bit(legal);
    }
    mid_turn.fill(T::from_bit(mask[Move::EndTurn.index(cells)]));
}

/// The observations (for the player to move) and legal-move masks of `positions`, games not
/// over on one board: `positions × PLANES × cells` values and `positions × actions` flags.
pub fn observe_batch<P: Position>(positions: &[&P]) -> (Vec<f32>, Vec<bool>) {
    let Some(first) = positions.first() else {
        return (Vec::new(), Vec::new());
    };
    let topology = first.topology();
    let (cells, actions) = (topology.len(), action_count(topology));
    let mut planes = vec![0f32; positions.len() * PLANES * cells];
    let mut masks = vec![false; positions.len() * actions];
    let mut stones = Vec::new();
    for ((position, out), mask) in (positions.iter())
        .zip(planes.chunks_exact_mut(PLANES * cells))
        .zip(masks.chunks_exact_mut(actions))
    {
        position.legal_mask(mask);
        let mover = position.turn().expect("a game not over");
        write_observation(*position, mover, mask, &mut stones, out);
    }
    (planes, masks)
}

/// Planes learning code may ask for after the [`PLANES`] (Python's `observation(last_moves=K,
/// extras=True)`); toroid's own networks read none of them. The last-move planes come
/// first, one per move, most recent first: ones on the cell that move took (none for a
/// pass, `end` or `swap`, or before the game had that many moves). Then the
/// [`EXTRA_PLANES`], each one value over the whole board (so float32 only):
/// 0. the captures of the player the observation is for, over the rule set's capture target
///    (capture-go's `target`), or over the board's cells where it has none;
/// 1. the opponent's captures, likewise;
/// 2. komi over the board's cells, positive for white and negative for black (0 without
///    komi);
/// 3. the share of the move limit still to play (Go's `max_moves`; 1 without a limit);
/// 4. one when the player the observation is for is to move.
pub const EXTRA_PLANES: usize = 5;

/// Which planes an observation has beyond the [`PLANES`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MorePlanes {
    /// Planes of the latest moves, most recent first.
    pub last_moves: usize,
    /// The [`EXTRA_PLANES`].
    pub extras: bool,
}

impl MorePlanes {
    /// All the planes of an observation: the [`PLANES`] and these.
    pub fn planes(self) -> usize {
        PLANES + self.last_moves + if self.extras { EXTRA_PLANES } else { 0 }
    }

    /// Writes these planes of `game` for `perspective` into `out` (what follows the
    /// [`PLANES`]); `recent` gives the game's moves, most recent first.
    pub fn write<T: PlaneValue>(
        self,
        game: &AnyGame,
        perspective: Color,
        recent: impl Iterator<Item = Move>,
        out: &mut [T],
    ) {
        let cells = game.topology().len();
        let (history, constant) = out.split_at_mut(self.last_moves * cells);
        history.fill(T::from_bit(false));
        for (plane, mv) in history.chunks_exact_mut(cells).zip(recent) {
            if let Move::Place(cell) = mv {
                plane[cell.index()] = T::from_bit(true);
            }
        }
        if self.extras {
            let values = extra_values(game, perspective);
            for (plane, value) in constant.chunks_exact_mut(cells).zip(values) {
                plane.fill(T::from_fraction(value));
            }
        }
    }
}

/// The values of the [`EXTRA_PLANES`] of `game` for `perspective`.
pub fn extra_values(game: &AnyGame, perspective: Color) -> [f32; EXTRA_PLANES] {
    let rules = game.kind().rule_set();
    let params = game.params();
    let cells = game.topology().len() as f32;
    let scale = (rules.capture_target)
        .and_then(|name| params.int(name))
        .map_or(cells, |target| target.max(1) as f32);
    let captures = game.captures();
    let captured = |color: Color| (captures[color.index()] as f32 / scale).min(1.0);
    let komi = (rules.komi)
        .and_then(|name| params.float(name))
        .unwrap_or(0.0) as f32
        / cells;
    let moves_left = (rules.move_limit)
        .and_then(|name| params.int(name))
        .map_or(1.0, |limit| {
            (1.0 - game.ply() as f32 / limit.max(1) as f32).clamp(0.0, 1.0)
        });
    [
        captured(perspective),
        captured(perspective.opponent()),
        match perspective {
            Color::White => komi,
            Color::Black => -komi,
        },
        moves_left,
        f32::from(u8::from(game.turn() == Some(perspective))),
    ]
}

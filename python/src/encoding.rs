//! How positions and moves become numbers for learning code: integer actions, the legal-move
//! mask and the observation planes. `Game` and `VectorEnv` both write through these
//! functions, so one position always gives the same arrays (docs/python.md describes them).

use pyo3::prelude::*;
use toroid_rules::{AnyGame, Color, Move, Position, Topology};

use crate::value_error;

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

/// The element types observations come in (`dtype=` in Python): `float32` by default, as
/// networks take them; `uint8` or `bool` at a quarter of the memory, which matters when a
/// `VectorEnv` writes thousands of observations a step (OpenSpiel's issue #1068 asks for
/// cheaper observation tensors; pgx gives bool planes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlaneType {
    Float32,
    Uint8,
    Bool,
}

impl PlaneType {
    /// The type of a `dtype=` argument: anything `numpy.dtype` reads (`"uint8"`,
    /// `numpy.uint8`, ...), float32 when left out.
    pub fn read(dtype: Option<&Bound<'_, PyAny>>) -> PyResult<PlaneType> {
        let Some(dtype) = dtype else {
            return Ok(PlaneType::Float32);
        };
        let numpy = dtype.py().import("numpy")?;
        let name: String = numpy
            .call_method1("dtype", (dtype,))
            .map_err(|_| value_error(format!("dtype {dtype} is not a numpy dtype")))?
            .getattr("name")?
            .extract()?;
        match name.as_str() {
            "float32" => Ok(PlaneType::Float32),
            "uint8" => Ok(PlaneType::Uint8),
            "bool" => Ok(PlaneType::Bool),
            other => Err(value_error(format!(
                "observations come as float32, uint8 or bool, not {other}"
            ))),
        }
    }
}

/// A value of an observation plane: 0 or 1 in the plane's element type.
pub trait PlaneValue: numpy::Element + Copy + Send + Sync {
    fn from_bit(bit: bool) -> Self;
}

impl PlaneValue for f32 {
    fn from_bit(bit: bool) -> f32 {
        f32::from(u8::from(bit))
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

/// The symmetries of `game`'s board under its rules as action maps, `S × A` row by row:
/// row s sends action a to its image (a cell's action to its image cell's, `pass`, `end`
/// and `swap` to themselves), the identity first.
pub fn symmetry_actions(game: &AnyGame) -> (usize, Vec<i64>) {
    let topology = game.topology();
    let maps = toroid_rules::symmetries(topology, game.kind().rule_set().symmetries);
    let actions = action_count(topology);
    let mut rows = Vec::with_capacity(maps.len() * actions);
    for map in &maps {
        rows.extend(map.iter().map(|cell| cell.index() as i64));
        rows.extend((map.len()..actions).map(|a| a as i64));
    }
    (maps.len(), rows)
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

//! How positions and moves become numbers for learning code: integer actions, the legal-move
//! mask and the observation planes. `Game` and `VectorEnv` both write through these
//! functions, so one position always gives the same arrays (docs/python.md describes them).

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
/// values); `mask` is the game's legal-move mask ([`Position::legal_mask`]). Every value is
/// written, so `out` may hold anything before. Generic so that a batch of games can call it
/// on the rule set's own type, without a dispatch per cell.
pub fn write_observation<P: Position>(
    game: &P,
    perspective: Color,
    mask: &[bool],
    out: &mut [f32],
) {
    let topology = game.topology();
    let cells = topology.len();
    let mut planes = out.chunks_exact_mut(cells);
    let mut plane = || planes.next().expect("PLANES planes");
    let (own, theirs, empty, black, placements, mid_turn) =
        (plane(), plane(), plane(), plane(), plane(), plane());
    // This runs for every game of a `VectorEnv` every step. The stones are read first into a
    // buffer, then each plane is written from it in a loop of its own: deciding all three
    // planes in the loop that reads the stones lets the compiler branch on each cell, and a
    // random board mispredicts half of those branches (this way an observation of 9×9 Go
    // costs about half as much).
    const CHUNK: usize = 128;
    let mut buffer = [None; CHUNK];
    let mut cell_indices = topology.cells();
    for ((own, theirs), empty) in (own.chunks_mut(CHUNK))
        .zip(theirs.chunks_mut(CHUNK))
        .zip(empty.chunks_mut(CHUNK))
    {
        let stones = &mut buffer[..own.len()];
        for (stone, cell) in stones.iter_mut().zip(&mut cell_indices) {
            *stone = game.stone(cell);
        }
        for (value, &stone) in own.iter_mut().zip(&*stones) {
            *value = f32::from(u8::from(stone == Some(perspective)));
        }
        for (value, &stone) in theirs.iter_mut().zip(&*stones) {
            *value = f32::from(u8::from(stone == Some(perspective.opponent())));
        }
        for (value, &stone) in empty.iter_mut().zip(&*stones) {
            *value = f32::from(u8::from(stone.is_none()));
        }
    }
    black.fill(f32::from(u8::from(perspective == Color::Black)));
    for (plane, &legal) in placements.iter_mut().zip(&mask[..cells]) {
        *plane = f32::from(u8::from(legal));
    }
    mid_turn.fill(f32::from(u8::from(mask[Move::EndTurn.index(cells)])));
}

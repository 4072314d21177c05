//! Setting up stones outside the rules: SGF's `AB`/`AW`/`AE` properties and Go handicaps.

use thiserror::Error;

use crate::cell::Cell;
use crate::color::Color;
use crate::position::Position;

/// One change of a setup: put a stone of a colour on a cell, or (`None`) empty it.
pub type SetupChange = (Cell, Option<Color>);

/// Why a setup was refused. A refused setup changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("the game is over")]
    GameOver,
    #[error("the cell is not on this board")]
    OffBoard,
    #[error("a chain would have no liberties")]
    NoLiberties,
    #[error("a stone would be surrounded on all four sides")]
    Surrounded,
    #[error("a stone would have five or more enemy neighbours")]
    WouldTurnOver,
    #[error("the board would be full")]
    BoardFull,
    #[error("the stones would already hold a winning loop")]
    WinningLoop,
}

/// Every cell's stone after applying `changes`, in order, to `position`'s board.
pub(crate) fn arrangement<P: Position>(
    position: &P,
    changes: &[SetupChange],
) -> Result<Vec<Option<Color>>, SetupError> {
    if position.outcome().is_some() {
        return Err(SetupError::GameOver);
    }
    let topology = position.topology();
    let mut board: Vec<Option<Color>> = topology.cells().map(|c| position.stone(c)).collect();
    for &(cell, stone) in changes {
        *board.get_mut(cell.index()).ok_or(SetupError::OffBoard)? = stone;
    }
    Ok(board)
}

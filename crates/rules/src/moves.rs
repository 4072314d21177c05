//! Moves and their notation: a point (`ee`), `pass`, `end` (ends a CTOR turn early) or `swap`
//! (the pie rule).

use std::fmt;

use thiserror::Error;

use crate::cell::{parse_point, Cell, PointError};
use crate::topology::Topology;

/// One entry of a game's move list.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a stone on an empty cell.
    Place(Cell),
    /// Give up the turn.
    Pass,
    /// End a CTOR turn after its first placement.
    EndTurn,
    /// Take over the opponent's first stone: the pie rule of `hex-torus` and `m-torus`
    /// with `swap=true`, legal exactly at move 2.
    Swap,
}

/// Why a string is not a move on a given board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseMoveError {
    #[error("empty move")]
    Empty,
    #[error(transparent)]
    Point(#[from] PointError),
}

impl Move {
    /// Reads a move in notation (case matters for points: `A`..`Z` are 26..51).
    pub fn parse(s: &str, topology: &Topology) -> Result<Move, ParseMoveError> {
        match s {
            "" => Err(ParseMoveError::Empty),
            "pass" => Ok(Move::Pass),
            "end" => Ok(Move::EndTurn),
            "swap" => Ok(Move::Swap),
            _ => {
                let (x, y) = parse_point(s, topology.width(), topology.height())?;
                Ok(Move::Place(
                    topology
                        .cell_at(x, y)
                        .expect("parse_point checked the range"),
                ))
            }
        }
    }

    /// The move in notation.
    pub fn notation(self, topology: &Topology) -> MoveName<'_> {
        MoveName(self, topology)
    }

    pub fn cell(self) -> Option<Cell> {
        match self {
            Move::Place(c) => Some(c),
            _ => None,
        }
    }

    /// How many moves number past a board's cells in [`Move::index`]: `pass`, `end`, `swap`.
    pub const BEYOND_CELLS: usize = 3;

    /// The move's number on a board of `cells` cells, the same in every rule set: a cell's
    /// index, then `cells` for `pass`, `cells + 1` for `end`, `cells + 2` for `swap`.
    pub fn index(self, cells: usize) -> usize {
        match self {
            Move::Place(c) => c.index(),
            Move::Pass => cells,
            Move::EndTurn => cells + 1,
            Move::Swap => cells + 2,
        }
    }

    /// The move numbered `index` on a board of `cells` cells ([`Move::index`]), if any.
    pub fn from_index(index: usize, cells: usize) -> Option<Move> {
        match index.checked_sub(cells) {
            None => Some(Move::Place(Cell(index as u16))),
            Some(0) => Some(Move::Pass),
            Some(1) => Some(Move::EndTurn),
            Some(2) => Some(Move::Swap),
            Some(_) => None,
        }
    }
}

/// Displays a move in notation.
pub struct MoveName<'a>(Move, &'a Topology);

impl fmt::Display for MoveName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Place(c) => self.1.point_name(c).fmt(f),
            Move::Pass => f.write_str("pass"),
            Move::EndTurn => f.write_str("end"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

/// Why a well-formed move may not be played now.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("the cell is not on this board")]
    OffBoard,
    #[error("the cell is occupied")]
    Occupied,
    #[error("suicide: the stone's own chain would have no liberties")]
    Suicide,
    #[error("ko: the move would recreate the board as it stood before the opponent's last move")]
    Ko,
    #[error("superko: the move would repeat an earlier board")]
    Superko,
    #[error("the stone would be surrounded by four enemy stones")]
    SelfSurrounded,
    #[error("the stone would stand in an uncaptured diagonal capture")]
    IntoCapture,
    #[error("passing is not allowed while a placement is possible")]
    PassNotAllowed,
    #[error("'end' is only allowed after the first placement of a CTOR turn")]
    EndNotAllowed,
    #[error("'swap' is only allowed at move 2 of a game with swap=true")]
    SwapNotAllowed,
}

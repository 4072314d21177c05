//! How a game ended.

use std::fmt;

use serde::Serialize;

use crate::color::Color;

/// Why a game is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// `torus`: an enemy stone has the winner's stones on all four sides.
    Surrounded,
    /// Two consecutive passes.
    TwoPasses,
    /// `hex-torus` loops: a ring (black), bracelet (white), right or left helix.
    Ring,
    Bracelet,
    RightHelix,
    LeftHelix,
    /// `m-torus`: a loop that crosses the reversed seams an odd number of times.
    SeamLoop,
    /// `ctor`: every cell is occupied.
    BoardFull,
    /// `capture-go`: the capture target was reached.
    CaptureTarget,
    /// `go`: the move limit was reached.
    MoveLimit,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Surrounded => "an enemy stone is surrounded on all four sides",
            Reason::TwoPasses => "two consecutive passes",
            Reason::Ring => "a ring was completed",
            Reason::Bracelet => "a bracelet was completed",
            Reason::RightHelix => "a right helix was completed",
            Reason::LeftHelix => "a left helix was completed",
            Reason::SeamLoop => "a loop through the reversed seams was completed",
            Reason::BoardFull => "the board is full",
            Reason::CaptureTarget => "the capture target was reached",
            Reason::MoveLimit => "the move limit was reached",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The result of a finished game: the winner (`None` for a draw) and why it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl Outcome {
    pub fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// `"black"`, `"white"` or `"draw"`.
    pub fn winner_name(&self) -> &'static str {
        self.winner.map_or("draw", Color::name)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins: {}", self.reason),
            None => write!(f, "draw: {}", self.reason),
        }
    }
}

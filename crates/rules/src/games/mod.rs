//! The rule sets, one module each, and [`AnyGame`], which holds any of them.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use thiserror::Error;

use crate::cell::Cell;
use crate::color::Color;
use crate::moves::{IllegalMove, Move};
use crate::outcome::Outcome;
use crate::params::{ParamError, ParamSpec, Params};
use crate::position::Position;
use crate::setup::{SetupChange, SetupError};
use crate::topology::Topology;

pub mod ctor;
pub mod go;
pub mod hex_torus;
mod loops;
pub mod m_torus;
pub mod torus;

pub use ctor::Ctor;
pub use go::Go;
pub use hex_torus::HexTorus;
pub use m_torus::MTorus;
pub use torus::Torus;

/// The rule sets, by their names in `SPEC.md`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Torus,
    HexTorus,
    MTorus,
    Ctor,
    CaptureGo,
    Go,
}

impl GameKind {
    pub const ALL: [GameKind; 6] = [
        GameKind::Torus,
        GameKind::HexTorus,
        GameKind::MTorus,
        GameKind::Ctor,
        GameKind::CaptureGo,
        GameKind::Go,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::Torus => "torus",
            GameKind::HexTorus => "hex-torus",
            GameKind::MTorus => "m-torus",
            GameKind::Ctor => "ctor",
            GameKind::CaptureGo => "capture-go",
            GameKind::Go => "go",
        }
    }

    /// One line on what the game is.
    pub fn summary(self) -> &'static str {
        match self {
            GameKind::Torus => "Go-like game on a torus: surround one enemy stone to win, capture along diagonals, no repeated boards",
            GameKind::HexTorus => "Mark Steere's Torus: hex cells on a torus; black makes a ring or right helix, white a bracelet or left helix",
            GameKind::MTorus => "Mark Steere's M-Torus: hex cells on a projective plane; first simple loop through the reversed seams wins",
            GameKind::Ctor => "CTOR: torus with 8 neighbours, two placements a turn, stones with 5+ enemy neighbours turn over",
            GameKind::CaptureGo => "Capture Go: first to capture the target number of stones wins",
            GameKind::Go => "Go with komi, ko rule, move limit and area, territory or stone scoring",
        }
    }

    /// The parameters this rule set takes.
    pub fn params(self) -> &'static [ParamSpec] {
        match self {
            GameKind::Torus => Torus::PARAMS,
            GameKind::HexTorus => HexTorus::PARAMS,
            GameKind::MTorus => MTorus::PARAMS,
            GameKind::Ctor => Ctor::PARAMS,
            GameKind::CaptureGo => go::CAPTURE_GO_PARAMS,
            GameKind::Go => go::GO_PARAMS,
        }
    }

    /// A new game of this rule set from `KEY=VALUE` assignments.
    pub fn new_game<S: AsRef<str>>(self, assignments: &[S]) -> Result<AnyGame, ParamError> {
        let params = Params::parse(self.params(), assignments)?;
        Ok(match self {
            GameKind::Torus => AnyGame::Torus(Torus::new(&params)?),
            GameKind::HexTorus => AnyGame::HexTorus(HexTorus::new(&params)?),
            GameKind::MTorus => AnyGame::MTorus(MTorus::new(&params)?),
            GameKind::Ctor => AnyGame::Ctor(Ctor::new(&params)?),
            GameKind::CaptureGo => AnyGame::Go(Go::capture_go(&params)?),
            GameKind::Go => AnyGame::Go(Go::go(&params)?),
        })
    }

    /// A new game of this rule set with every parameter at its default.
    pub fn default_game(self) -> AnyGame {
        self.new_game::<&str>(&[]).expect("defaults are valid")
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game '{0}' (known: torus, hex-torus, m-torus, ctor, capture-go, go)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// A game of any rule set, for code that picks the rule set at run time. Search code that
/// wants every nanosecond can be generic over [`Position`] instead.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Torus(Torus),
    HexTorus(HexTorus),
    MTorus(MTorus),
    Ctor(Ctor),
    Go(Go),
}

macro_rules! dispatch {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Torus($g) => $body,
            AnyGame::HexTorus($g) => $body,
            AnyGame::MTorus($g) => $body,
            AnyGame::Ctor($g) => $body,
            AnyGame::Go($g) => $body,
        }
    };
}

impl Position for AnyGame {
    fn kind(&self) -> GameKind {
        dispatch!(self, g => g.kind())
    }
    fn params(&self) -> &Params {
        dispatch!(self, g => g.params())
    }
    fn topology(&self) -> &Topology {
        dispatch!(self, g => g.topology())
    }
    fn stone(&self, cell: Cell) -> Option<Color> {
        dispatch!(self, g => g.stone(cell))
    }
    fn turn(&self) -> Option<Color> {
        dispatch!(self, g => g.turn())
    }
    fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, g => g.outcome())
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        dispatch!(self, g => g.legal_moves(out))
    }
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        dispatch!(self, g => g.play(mv))
    }
    fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        dispatch!(self, g => g.check(mv))
    }
    fn setup(&mut self, changes: &[SetupChange], to_move: Color) -> Result<(), SetupError> {
        dispatch!(self, g => g.setup(changes, to_move))
    }
    fn hash(&self) -> u64 {
        dispatch!(self, g => g.hash())
    }
    fn ply(&self) -> usize {
        dispatch!(self, g => g.ply())
    }
    fn captures(&self) -> [u32; 2] {
        dispatch!(self, g => g.captures())
    }
    fn score(&self) -> Option<[f64; 2]> {
        dispatch!(self, g => g.score())
    }
    fn highlight(&self) -> Vec<Cell> {
        dispatch!(self, g => g.highlight())
    }
    fn playout_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        dispatch!(self, g => g.playout_move(rng))
    }
    fn uniform_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        dispatch!(self, g => g.uniform_move(rng))
    }
}

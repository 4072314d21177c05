//! STUB: to be implemented.

use std::sync::Arc;

use crate::cell::Cell;
use crate::color::Color;
use crate::games::GameKind;
use crate::moves::{IllegalMove, Move};
use crate::outcome::Outcome;
use crate::params::{ParamError, ParamSpec, Params};
use crate::position::Position;
use crate::topology::Topology;

use crate::params::{ParamDefault, ParamKind};

const TOPOLOGIES: &[&str] = &["plane", "cylinder", "torus"];

pub const CAPTURE_GO_PARAMS: &[ParamSpec] = &[
    ParamSpec::int("size", 9, 2, 25, "side of the square board"),
    ParamSpec::choice(
        "topology",
        "plane",
        TOPOLOGIES,
        "how the board edges are glued",
    ),
    ParamSpec::int("target", 5, 1, 625, "captured stones that win at once"),
];

pub const GO_PARAMS: &[ParamSpec] = &[
    ParamSpec::int("size", 9, 2, 25, "side of the square board"),
    ParamSpec::choice(
        "topology",
        "plane",
        TOPOLOGIES,
        "how the board edges are glued",
    ),
    ParamSpec::float(
        "komi",
        7.5,
        -1000.0,
        1000.0,
        "points added to white's score",
    ),
    ParamSpec::choice(
        "scoring",
        "area",
        &["area", "territory", "stone"],
        "scoring method",
    ),
    ParamSpec::choice(
        "ko",
        "simple",
        &["simple", "positional", "situational"],
        "repetition rule",
    ),
    ParamSpec {
        name: "max_moves",
        kind: ParamKind::Int {
            min: 1,
            max: 100_000,
        },
        default: ParamDefault::Derived("3 × number of points"),
        help: "the game ends after this many moves (passes count)",
    },
];

#[derive(Clone, Debug)]
pub struct Go {
    params: Params,
    topology: Arc<Topology>,
}

impl Go {
    pub fn capture_go(params: &Params) -> Result<Go, ParamError> {
        Self::go(params)
    }
    pub fn go(params: &Params) -> Result<Go, ParamError> {
        let n = params.int("size").unwrap() as usize;
        Ok(Go {
            params: params.clone(),
            topology: Arc::new(Topology::new(
                crate::Lattice::Square4,
                crate::Surface::Plane,
                n,
                n,
            )),
        })
    }
}

impl Position for Go {
    fn kind(&self) -> GameKind {
        todo!()
    }
    fn params(&self) -> &Params {
        &self.params
    }
    fn topology(&self) -> &Topology {
        &self.topology
    }
    fn stone(&self, _cell: Cell) -> Option<Color> {
        todo!()
    }
    fn turn(&self) -> Option<Color> {
        todo!()
    }
    fn outcome(&self) -> Option<Outcome> {
        todo!()
    }
    fn legal_moves(&self, _out: &mut Vec<Move>) {
        todo!()
    }
    fn play(&mut self, _mv: Move) -> Result<(), IllegalMove> {
        todo!()
    }
    fn hash(&self) -> u64 {
        todo!()
    }
    fn ply(&self) -> usize {
        todo!()
    }
}

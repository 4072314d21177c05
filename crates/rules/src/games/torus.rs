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

#[derive(Clone, Debug)]
pub struct Torus {
    params: Params,
    topology: Arc<Topology>,
}

impl Torus {
    pub const PARAMS: &[ParamSpec] =
        &[ParamSpec::int("size", 9, 5, 25, "side of the square board")];
    pub fn new(params: &Params) -> Result<Torus, ParamError> {
        let n = params.int("size").unwrap() as usize;
        Ok(Torus {
            params: params.clone(),
            topology: Arc::new(Topology::new(
                crate::Lattice::Square4,
                crate::Surface::Torus,
                n,
                n,
            )),
        })
    }
}

impl Position for Torus {
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

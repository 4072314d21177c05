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
pub struct HexTorus {
    params: Params,
    topology: Arc<Topology>,
}

impl HexTorus {
    pub const PARAMS: &[ParamSpec] = &[
        ParamSpec::int("width", 8, 4, 52, "cells per row"),
        ParamSpec::int("height", 8, 4, 52, "rows (even)"),
    ];
    pub fn new(params: &Params) -> Result<HexTorus, ParamError> {
        let (w, h) = (
            params.int("width").unwrap() as usize,
            params.int("height").unwrap() as usize,
        );
        if h % 2 != 0 {
            return Err(ParamError::Invalid(format!(
                "height must be even on hex-torus, got {h}"
            )));
        }
        Ok(HexTorus {
            params: params.clone(),
            topology: Arc::new(Topology::new(
                crate::Lattice::HexOddR,
                crate::Surface::Torus,
                w,
                h,
            )),
        })
    }
}

impl Position for HexTorus {
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

//! The config of a rule set whose one parameter is the side of its square board (`torus`,
//! `ctor`).

use std::marker::PhantomData;

use crate::params::{ParamError, Params};

/// The parameters of a game `G` played on a square board of side `size`, read and checked.
/// Each such rule set names it (`TorusConfig`, `CtorConfig`), so one cannot be given for
/// the other.
#[derive(Debug)]
pub struct SquareConfig<G> {
    /// The side of the square board.
    pub size: usize,
    params: Params,
    game: PhantomData<fn() -> G>,
}

// Derived `Clone` would ask `G: Clone`, which the config does not need.
impl<G> Clone for SquareConfig<G> {
    fn clone(&self) -> SquareConfig<G> {
        SquareConfig {
            size: self.size,
            params: self.params.clone(),
            game: PhantomData,
        }
    }
}

impl<G> SquareConfig<G> {
    pub fn read(params: &Params) -> Result<SquareConfig<G>, ParamError> {
        Ok(SquareConfig {
            size: params.required_int("size")? as usize,
            params: params.clone(),
            game: PhantomData,
        })
    }

    /// The parameters this config was read from, for records.
    pub fn params(&self) -> &Params {
        &self.params
    }
}

//! How positions and moves become numbers for learning code. `Game` and `VectorEnv` both
//! write through the functions of `toroid_net::encoding`, which the networks read too, so one
//! position always gives the same arrays (docs/python.md describes them); this module adds
//! what numpy needs.

use pyo3::prelude::*;
use toroid_rules::{AnyGame, Position};

pub use toroid_net::encoding::{
    action_count, action_of_move, default_perspective, legal_mask, move_of_action,
    write_observation, MorePlanes, PLANES,
};

use crate::value_error;

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

/// The planes asked for beyond the six (`last_moves=`, `extras=`), checked: the extra
/// planes hold fractions, so only as float32.
pub fn more_planes(dtype: PlaneType, last_moves: usize, extras: bool) -> PyResult<MorePlanes> {
    if last_moves > 64 {
        return Err(value_error("last_moves is at most 64"));
    }
    if extras && dtype != PlaneType::Float32 {
        return Err(value_error(
            "the extra planes hold fractions: ask for them as float32",
        ));
    }
    Ok(MorePlanes { last_moves, extras })
}

/// A value of an observation plane that numpy can hold.
pub trait PlaneValue: toroid_net::encoding::PlaneValue + numpy::Element {}

impl<T: toroid_net::encoding::PlaneValue + numpy::Element> PlaneValue for T {}

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

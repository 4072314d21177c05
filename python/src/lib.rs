//! `toroid._toroid`, the extension module of the `toroid` Python package: games
//! (`game::Game`), the house bots (`bot::Bot`) and the batched environment
//! (`vector::VectorEnv`). The rules, records and search are the workspace's crates; this
//! crate only converts between them and Python (docs/python.md).

use std::fmt::Display;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use toroid_protocol::view::GameInfo;
use toroid_rules::GameKind;

mod bot;
mod encoding;
mod game;
mod search;
mod training;
mod vector;

create_exception!(
    _toroid,
    IllegalMove,
    PyValueError,
    "A well-formed move that the rules refuse now; the message says why."
);

/// A `ValueError` carrying `error`'s message: bad parameters, moves, actions and records.
pub(crate) fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// `value` when it is a share from 0 to 1 (NaN is not), else a `ValueError` naming `name`.
pub(crate) fn share(name: &str, value: f32) -> PyResult<f32> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(value_error(format!(
            "{name} {value} is not a share from 0 to 1"
        )))
    }
}

/// The rule sets with their parameters, as `toroid games --json` prints them.
#[pyfunction]
fn games_json() -> String {
    let games: Vec<GameInfo> = GameKind::ALL.into_iter().map(GameInfo::new).collect();
    serde_json::to_string(&games).expect("game descriptions serialise")
}

#[pymodule]
fn _toroid(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("IllegalMove", m.py().get_type::<IllegalMove>())?;
    m.add("PLANES", encoding::PLANES)?;
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<bot::Bot>()?;
    m.add_class::<search::Search>()?;
    m.add_class::<search::PyNetwork>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<training::TrainingRun>()?;
    m.add_function(wrap_pyfunction!(training::self_play, m)?)?;
    Ok(())
}

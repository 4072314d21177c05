//! `toroid.Search`: toroid's network-guided tree search (PUCT) with an evaluator written in
//! Python, so that a PyTorch or JAX network plays with toroid's tree.

use std::sync::{Arc, Mutex};

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use toroid_net::encoding::{action_count, observe_batch, PLANES};
use toroid_net::{uniform_priors, Device, Evaluation, Network, Stencil};
use toroid_rules::{AnyGame, Bot as _, Position};
use toroid_search::zero::Noise;
use toroid_search::{Budget, Evaluator, NetworkEvaluator, Zero, ZeroConfig};

use crate::encoding::action_of_move;
use crate::game::Game;
use crate::{share, value_error};

/// Calls a Python function with a batch of observations and legal-move masks, and reads
/// back its priors and values.
struct PythonEvaluator {
    function: Py<PyAny>,
    /// The first error the function raised; the search goes on with uniform priors and
    /// zero values, and the call that started it raises this.
    error: Arc<Mutex<Option<PyErr>>>,
}

impl PythonEvaluator {
    fn call(&self, py: Python<'_>, positions: &[&AnyGame]) -> PyResult<Vec<Evaluation>> {
        let topology = positions[0].topology();
        let actions = action_count(topology);
        let n = positions.len();
        let (planes, masks) = observe_batch(positions);
        let observations = PyArray1::from_vec(py, planes).reshape([
            n,
            PLANES,
            topology.height(),
            topology.width(),
        ])?;
        let masks_array = PyArray1::from_vec(py, masks.clone()).reshape([n, actions])?;
        let result = self.function.call1(py, (observations, masks_array))?;
        let (priors, values): (Bound<'_, PyAny>, Bound<'_, PyAny>) = result.extract(py)?;
        let numpy = py.import("numpy")?;
        let priors = numpy.call_method1("asarray", (priors, "float32"))?;
        let values = numpy.call_method1("asarray", (values, "float32"))?;
        let priors: PyReadonlyArray2<'_, f32> = priors.extract().map_err(|_| {
            value_error(format!(
                "the evaluator's priors must be an array of shape ({n}, {actions})"
            ))
        })?;
        let values: PyReadonlyArray1<'_, f32> = (values.call_method1("reshape", (-1,))?)
            .extract()
            .map_err(|_| value_error(format!("the evaluator's values must be {n} numbers")))?;
        let (priors, values) = (priors.as_array(), values.as_array());
        if priors.shape() != [n, actions] || values.len() != n {
            return Err(value_error(format!(
                "the evaluator answered priors of shape {:?} and {} values for {n} positions of {actions} actions",
                priors.shape(),
                values.len()
            )));
        }
        Ok((priors.rows().into_iter().zip(values.iter()))
            .zip(masks.chunks_exact(actions))
            .map(|((row, &value), mask)| {
                // Priors are renormalised over the legal moves: a network's output may give
                // some weight to illegal ones.
                let legal: Vec<f32> = (row.iter().zip(mask))
                    .map(|(&p, &m)| if m { p.max(0.0) } else { 0.0 })
                    .collect();
                let sum: f32 = legal.iter().sum();
                let priors = if sum > 0.0 && sum.is_finite() {
                    legal.iter().map(|p| p / sum).collect()
                } else {
                    uniform_priors(mask)
                };
                Evaluation {
                    priors,
                    value: value.clamp(-1.0, 1.0),
                }
            })
            .collect())
    }
}

impl Evaluator for PythonEvaluator {
    fn evaluate(&mut self, positions: &[&AnyGame]) -> Vec<Evaluation> {
        let result = Python::attach(|py| self.call(py, positions));
        result.unwrap_or_else(|error| {
            let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert(error);
            (positions.iter())
                .map(|position| {
                    let mut mask = vec![false; action_count(position.topology())];
                    position.legal_mask(&mut mask);
                    Evaluation {
                        priors: uniform_priors(&mask),
                        value: 0.0,
                    }
                })
                .collect()
        })
    }
}

/// toroid's PUCT search guided by `evaluator`: a `toroid.Network`, or a Python function from a batch of
/// observations `(B, PLANES, H, W)` (float32, as `Game.observation()` gives them for the
/// player to move) and legal-move masks `(B, A)` to `(priors, values)`: priors `(B, A)`
/// (renormalised over the legal moves) and values `(B,)` in −1..1 for the player to move.
/// `playouts` simulations a move, leaves evaluated `batch` at a time; `noise` (a Dirichlet
/// `alpha`, or None) is mixed into the root's priors at `noise_fraction`, for self-play;
/// `playout_share` mixes one house playout's result into each leaf's value.
#[pyclass(module = "toroid._toroid", name = "Search")]
pub struct Search {
    zero: Mutex<Zero>,
    error: Arc<Mutex<Option<PyErr>>>,
}

impl Search {
    /// Runs `work` on the search without the GIL (the evaluator takes it when it calls
    /// Python), then raises the evaluator's first error, if any.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Zero) -> T + Send,
    ) -> PyResult<T> {
        let result = py.detach(|| {
            let mut zero = self.zero.lock().unwrap_or_else(|e| e.into_inner());
            work(&mut zero)
        });
        let error = self.error.lock().unwrap_or_else(|e| e.into_inner()).take();
        match error {
            Some(error) => Err(error),
            None => Ok(result),
        }
    }
}

#[pymethods]
impl Search {
    #[new]
    #[pyo3(signature = (evaluator, playouts = 100, batch = 8, exploration = 1.5, noise = None, noise_fraction = 0.25, seed = 0, playout_share = 0.0))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn new(
        evaluator: Bound<'_, PyAny>,
        playouts: u64,
        batch: usize,
        exploration: f32,
        noise: Option<f32>,
        noise_fraction: f32,
        seed: u64,
        playout_share: f32,
    ) -> PyResult<Search> {
        if playouts == 0 || batch == 0 {
            return Err(value_error("playouts and batch must be at least 1"));
        }
        if noise.is_some_and(|a| !(a > 0.0 && a.is_finite())) {
            return Err(value_error("noise is a positive Dirichlet alpha, or None"));
        }
        let mut config = ZeroConfig::new(Budget::Playouts(playouts));
        config.batch = batch;
        config.playout_share = share("playout_share", playout_share)?;
        config.exploration = exploration;
        config.noise = noise.map(|alpha| Noise {
            alpha,
            fraction: noise_fraction.clamp(0.0, 1.0),
        });
        let error = Arc::new(Mutex::new(None));
        let evaluator: Box<dyn Evaluator> = match evaluator.cast::<PyNetwork>() {
            Ok(network) => Box::new(NetworkEvaluator::new(network.get().network.clone())),
            Err(_) => Box::new(PythonEvaluator {
                function: evaluator.unbind(),
                error: error.clone(),
            }),
        };
        let zero = Zero::new("search", config, evaluator, seed);
        Ok(Search {
            zero: Mutex::new(zero),
            error,
        })
    }

    /// Searches `game` and returns `moves` (most visited first, each with `move`, `action`,
    /// `visits`, `win_rate`, `pv`), `policy` (the visit shares of every action, the
    /// training target), `value` (the root's mean value for the player to move) and
    /// `simulations`.
    fn analyse<'py>(&self, py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyDict>> {
        let position = game.position();
        if position.turn().is_none() {
            return Err(value_error("the game is over"));
        }
        let topology = position.topology();
        let actions = action_count(topology);
        let (analysis, policy) = self.run(py, |zero| {
            let analysis = zero.analyse(position, None);
            (analysis, zero.visit_shares(actions))
        })?;
        let moves = PyList::empty(py);
        for info in &analysis.moves {
            let entry = PyDict::new(py);
            entry.set_item("move", info.mv.notation(topology).to_string())?;
            entry.set_item("action", action_of_move(topology, info.mv))?;
            entry.set_item("visits", info.visits)?;
            entry.set_item("win_rate", info.win_rate)?;
            let pv: Vec<String> = (info.pv.iter())
                .map(|&mv| mv.notation(topology).to_string())
                .collect();
            entry.set_item("pv", pv)?;
            moves.append(entry)?;
        }
        let result = PyDict::new(py);
        result.set_item("simulations", analysis.simulations)?;
        result.set_item("moves", moves)?;
        result.set_item("policy", PyArray1::from_vec(py, policy))?;
        result.set_item("value", analysis.value())?;
        Ok(result)
    }

    /// The search's move for `game`, in notation.
    fn genmove(&self, py: Python<'_>, game: &Game) -> PyResult<String> {
        let position = game.position();
        if position.turn().is_none() {
            return Err(value_error("the game is over"));
        }
        let mv = self.run(py, |zero| zero.choose(position, None))?;
        Ok(mv.notation(position.topology()).to_string())
    }
}

/// A network of toroid's own (`crates/net`), loaded from weights as `toroid train` writes
/// them. Given to `Search` in place of an evaluator function, the search evaluates it in Rust
/// without the GIL. It reads a board's surface as well as its observation (its convolutions
/// follow the gluing), so it evaluates games rather than bare observations.
#[pyclass(module = "toroid._toroid", name = "Network", frozen)]
pub struct PyNetwork {
    network: Arc<Network>,
}

#[pymethods]
impl PyNetwork {
    #[new]
    fn new(path: std::path::PathBuf) -> PyResult<PyNetwork> {
        let network = Network::load(&path, &Device::Cpu).map_err(|e| {
            value_error(format!("{}: not a network's weights: {e}", path.display()))
        })?;
        Ok(PyNetwork {
            network: Arc::new(network),
        })
    }

    /// `(stencil, channels, blocks)`: cells each convolution reads around a cell, features
    /// per cell, residual blocks.
    #[getter]
    fn shape(&self) -> (usize, usize, usize) {
        let shape = self.network.shape();
        (shape.stencil, shape.channels, shape.blocks)
    }

    /// Priors `(B, A)` over the legal moves and values `(B,)` for the player to move in each
    /// of `games`, all on one board and not over.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        games: Vec<PyRef<'py, Game>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let positions: Vec<&AnyGame> = games.iter().map(|g| g.position()).collect();
        let Some(first) = positions.first() else {
            return Err(value_error("no games to evaluate"));
        };
        if positions.iter().any(|p| p.turn().is_none()) {
            return Err(value_error("a game to evaluate is over"));
        }
        if positions.iter().any(|p| p.topology() != first.topology()) {
            return Err(value_error("the games to evaluate are on different boards"));
        }
        let stencil = Stencil::new(first.topology(), &Device::Cpu).map_err(value_error)?;
        let evaluations = py
            .detach(|| self.network.evaluate(&positions, &stencil))
            .map_err(value_error)?;
        let actions = action_count(first.topology());
        let priors: Vec<f32> = evaluations.iter().flat_map(|e| e.priors.clone()).collect();
        let values: Vec<f32> = evaluations.iter().map(|e| e.value).collect();
        Ok((
            PyArray1::from_vec(py, priors)
                .reshape([positions.len(), actions])?
                .into_any(),
            PyArray1::from_vec(py, values).into_any(),
        ))
    }
}

//! Training by self-play from Python: `toroid.self_play` plays games with a network's
//! weights (anywhere: a Ray worker, another process) and `toroid.TrainingRun` is the run
//! that learns from them, the same run `toroid train` keeps in its folder. A distributed
//! driver (`toroid.ray_train`) needs nothing more.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use toroid_net::{Device, Network, Sample, Shape};
use toroid_rules::{AnyGame, Position};
use toroid_search::training::{self_play as play_games, Run, SelfPlay, SelfPlayGame, TrainConfig};

use crate::game::{new_game, param_value, parse_color};
use crate::{share, value_error};

/// The rule set's parameters as `key=value` strings, as `TrainConfig` takes them.
fn param_strings(game: &AnyGame) -> Vec<String> {
    (game.params().iter())
        .filter_map(|(name, value)| Some(format!("{name}={}", value?)))
        .collect()
}

/// One self-play game as Python sees it: `(planes, policy, value, winner)` with planes
/// `(n, PLANES × cells)` and policy `(n, A)` float32 arrays, values `(n,)` for the player to
/// move in each position, and the winner's name or None.
type GameArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Option<&'static str>,
);

fn game_arrays<'py>(py: Python<'py>, game: SelfPlayGame) -> PyResult<GameArrays<'py>> {
    let n = game.samples.len();
    let planes = game.samples.first().map_or(0, |s| s.planes.len());
    let actions = game.samples.first().map_or(0, |s| s.policy.len());
    let flat = |f: fn(&Sample) -> &[f32]| -> Vec<f32> {
        game.samples
            .iter()
            .flat_map(|s| f(s).iter().copied())
            .collect()
    };
    Ok((
        PyArray1::from_vec(py, flat(|s| &s.planes))
            .reshape([n, planes])?
            .into_any(),
        PyArray1::from_vec(py, flat(|s| &s.policy))
            .reshape([n, actions])?
            .into_any(),
        PyArray1::from_vec(py, game.samples.iter().map(|s| s.value).collect()).into_any(),
        game.winner.map(|c| c.name()),
    ))
}

fn read_game(game: &Bound<'_, PyAny>) -> PyResult<SelfPlayGame> {
    let bad = || {
        value_error(
            "a self-play game is (planes, policy, value, winner) as toroid.self_play gives it",
        )
    };
    let (planes, policy, value, winner): (
        PyReadonlyArray2<'_, f32>,
        PyReadonlyArray2<'_, f32>,
        PyReadonlyArray1<'_, f32>,
        Option<String>,
    ) = game.extract().map_err(|_| bad())?;
    let (planes, policy, value) = (planes.as_array(), policy.as_array(), value.as_array());
    if planes.nrows() != value.len() || policy.nrows() != value.len() {
        return Err(bad());
    }
    let winner = winner.as_deref().map(parse_color).transpose()?;
    let samples = (planes.rows().into_iter().zip(policy.rows()).zip(value))
        .map(|((planes, policy), &value)| {
            if !(-1.0..=1.0).contains(&value) {
                return Err(value_error(format!(
                    "a sample's value {value} is not in -1..1"
                )));
            }
            Ok(Sample {
                planes: planes.to_vec(),
                policy: policy.to_vec(),
                value,
            })
        })
        .collect::<PyResult<Vec<Sample>>>()?;
    Ok(SelfPlayGame { samples, winner })
}

/// Plays `games` self-play games of the rule set `name` (with `params`) with the network of
/// `network`'s safetensors bytes, `simulations` a move, on `workers` threads without the
/// GIL; returns them as `TrainingRun.learn` takes them. A sample's value is the game's result
/// for the player to move, mixed with the search's value by `value_mix` (0: the result alone),
/// as `toroid train --value-mix` does; `playout_share` mixes a house playout's result into
/// each leaf's value of the search, as `--playout-share` does (0: the network alone).
#[pyfunction]
#[pyo3(signature = (name, network, games = 1, simulations = 100, seed = 0, workers = 1, value_mix = 0.5, playout_share = 0.5, **params))]
#[allow(clippy::too_many_arguments)]
pub fn self_play<'py>(
    py: Python<'py>,
    name: &str,
    network: &[u8],
    games: usize,
    simulations: u64,
    seed: u64,
    workers: usize,
    value_mix: f32,
    playout_share: f32,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<GameArrays<'py>>> {
    if simulations == 0 {
        return Err(value_error("simulations must be at least 1"));
    }
    let value_mix = share("value_mix", value_mix)?;
    let playout_share = share("playout_share", playout_share)?;
    let start = new_game(name, params)?;
    let network = Network::from_safetensors(network, &Device::Cpu)
        .map_err(|e| value_error(format!("not a network's weights: {e}")))?;
    network.check_board(start.topology()).map_err(value_error)?;
    let network = Arc::new(network);
    let how = SelfPlay {
        games,
        simulations,
        value_mix,
        playout_share,
    };
    let played = py.detach(|| play_games(&start, &network, &how, workers, seed));
    played.into_iter().map(|g| game_arrays(py, g)).collect()
}

/// A training run in `dir`, resumed where it stopped or started there (`toroid train`'s
/// folder layout and options): `network` is the weights self-play should use now,
/// `learn(games, seconds)` ends a round with games from `self_play`.
#[pyclass(module = "toroid._toroid", name = "TrainingRun")]
pub struct TrainingRun {
    run: Mutex<Run>,
    start: AnyGame,
}

#[pymethods]
impl TrainingRun {
    #[new]
    #[pyo3(signature = (name, dir, channels = 32, blocks = 4, window = 200_000, steps = 100, batch = 128, learning_rate = 1e-3, snapshot_every = 5, seed = 1, start_from = None, **params))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        name: &str,
        dir: PathBuf,
        channels: usize,
        blocks: usize,
        window: usize,
        steps: usize,
        batch: usize,
        learning_rate: f64,
        snapshot_every: u64,
        seed: u64,
        start_from: Option<PathBuf>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<TrainingRun> {
        if channels == 0 || blocks == 0 || batch == 0 || window == 0 {
            return Err(value_error(
                "channels, blocks, batch and window must be at least 1",
            ));
        }
        let start = new_game(name, params)?;
        let config = TrainConfig {
            kind: start.kind(),
            params: param_strings(&start),
            dir,
            shape: Shape {
                stencil: 0,
                channels,
                blocks,
            },
            from: start_from,
            // Self-play happens outside the run.
            simulations: 0,
            value_mix: 0.0,
            playout_share: 0.0,
            games: 0,
            workers: 0,
            window,
            steps,
            batch,
            learning_rate,
            snapshot_every,
            seed,
            rounds: None,
            seconds: None,
        };
        let run = py.detach(|| Run::open(&config)).map_err(value_error)?;
        Ok(TrainingRun {
            run: Mutex::new(run),
            start,
        })
    }

    /// The current weights as safetensors bytes, for `self_play`.
    fn network<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let run = self.run.lock().unwrap_or_else(|e| e.into_inner());
        let bytes = run.network().to_safetensors().map_err(value_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The seed for the next round's `self_play` (the run's seed and the round's number; a
    /// round split over several callers gives each its own bits of it).
    fn round_seed(&self) -> u64 {
        let run = self.run.lock().unwrap_or_else(|e| e.into_inner());
        run.round_seed()
    }

    /// `rounds`, `games`, `samples` and `seconds` so far, over every session of the run.
    fn progress<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let run = self.run.lock().unwrap_or_else(|e| e.into_inner());
        progress_dict(py, run.progress())
    }

    /// Ends a round: adds `games` (each as `self_play` gives it, on this run's board) to the
    /// window, trains, saves the run and returns the round's figures (`log.csv`'s columns).
    /// `seconds` is the time the games took; the run's time adds the training's.
    fn learn<'py>(
        &self,
        py: Python<'py>,
        games: Vec<Bound<'py, PyAny>>,
        seconds: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let games = games.iter().map(read_game).collect::<PyResult<Vec<_>>>()?;
        let round = py.detach(|| {
            let mut run = self.run.lock().unwrap_or_else(|e| e.into_inner());
            run.learn(games, seconds.max(0.0))
        });
        let round = round.map_err(value_error)?;
        let figures = progress_dict(py, &round.progress)?;
        figures.set_item("policy_loss", round.policy_loss)?;
        figures.set_item("value_loss", round.value_loss)?;
        figures.set_item("black_wins", round.black_wins)?;
        figures.set_item("mean_length", round.mean_length)?;
        Ok(figures)
    }

    /// The rule set's name and parameters of the run's board, as `self_play` takes them.
    #[getter]
    fn game<'py>(&self, py: Python<'py>) -> PyResult<(&'static str, Bound<'py, PyDict>)> {
        let params = PyDict::new(py);
        for (name, value) in self.start.params().iter() {
            if let Some(value) = value {
                params.set_item(name, param_value(py, value)?)?;
            }
        }
        Ok((self.start.kind().name(), params))
    }
}

fn progress_dict<'py>(
    py: Python<'py>,
    progress: &toroid_search::training::Progress,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("rounds", progress.rounds)?;
    dict.set_item("games", progress.games)?;
    dict.set_item("samples", progress.samples)?;
    dict.set_item("seconds", progress.seconds)?;
    Ok(dict)
}

//! `toroid.VectorEnv`: many games of one rule set stepped together in Rust, across threads
//! and without the GIL, writing into numpy arrays that it allocates once.

use std::sync::OnceLock;
use std::thread;

use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use toroid_rules::{AnyGame, Color, Position};

use crate::encoding::{
    action_count, default_perspective, move_of_action, write_observation, PlaneType, PlaneValue,
    PLANES,
};
use crate::game::new_game;
use crate::{value_error, IllegalMove};

/// Environments handed to one thread at a time: enough to pay for the hand-over.
const MIN_ENVS_PER_TASK: usize = 16;

/// Draws over all actions before `sample` counts the legal ones.
const SAMPLE_DRAWS: usize = 8;

/// The rows of the output arrays that belong to one environment, but its observation.
struct EnvOutput<'a> {
    mask: &'a mut [bool],
    to_move: &'a mut i8,
    reward: &'a mut f32,
    done: &'a mut bool,
    /// Its slot in `sample_actions()`'s array, and its random source.
    sampled: &'a mut i64,
    rng: &'a mut Xoshiro256PlusPlus,
}

/// Brings `game`'s legal-move mask `legal`, its observation and its output rows up to date
/// (`stones`: scratch space for [`write_observation`]).
fn publish<T: PlaneValue>(
    game: &AnyGame,
    legal: &mut [bool],
    stones: &mut Vec<Option<Color>>,
    observation: &mut [T],
    out: &mut EnvOutput<'_>,
) {
    let perspective = default_perspective(game);
    toroid_rules::with_game!(game, g => {
        g.legal_mask(legal);
        write_observation(g, perspective, legal, stones, observation);
    });
    out.mask.copy_from_slice(legal);
    *out.to_move = perspective.index() as i8;
}

/// Whether `action` is legal by the mask `legal`.
fn allows(legal: &[bool], action: i64) -> bool {
    usize::try_from(action).is_ok_and(|a| legal.get(a) == Some(&true))
}

/// A uniformly random action among those the mask `legal` allows.
fn sample(legal: &[bool], rng: &mut Xoshiro256PlusPlus) -> usize {
    // Most positions leave most actions legal, so a few draws over all actions find one
    // sooner than counting the legal ones; each draw that hits is uniform among them.
    for _ in 0..SAMPLE_DRAWS {
        let action = rng.random_range(0..legal.len());
        if legal[action] {
            return action;
        }
    }
    let count = legal.iter().filter(|&&legal| legal).count();
    let chosen = rng.random_range(0..count);
    (legal.iter().enumerate())
        .filter(|&(_, &legal)| legal)
        .nth(chosen)
        .map(|(action, _)| action)
        .expect("chosen among the legal actions")
}

/// The threads that step every `VectorEnv`: `RAYON_NUM_THREADS`, by default one per core.
/// For one there is no pool: each call steps on its own thread ([`on_threads`]). Otherwise
/// the first thread to step one is among them, so that a call from it starts its share of
/// the work at once instead of handing it all over and sleeping until it is done (once a
/// step of `step(sample_actions())`). Other threads' calls run on the rest, so the first
/// thread joins only where at least one more is there to serve them.
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::env::var("RAYON_NUM_THREADS")
            .ok()
            .and_then(|n| n.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()));
        let builder = || rayon::ThreadPoolBuilder::new().num_threads(threads);
        (threads > 1).then(|| {
            (builder().use_current_thread().build())
                .or_else(|_| builder().build())
                .expect("the threads of VectorEnv start")
        })
    })
    .as_ref()
}

/// Runs `op` on [`pool`]'s threads, or on the calling thread when there is no pool: a pool
/// of one would take the work from the caller and put it to sleep until the work is done.
/// `op` gets the environments its parallel iterators must hand each task (`with_min_len`):
/// on one thread all of them, so that the work is never split and never leaves the caller.
fn on_threads<R: Send>(op: impl FnOnce(usize) -> R + Send) -> R {
    match pool() {
        Some(pool) => pool.install(|| op(MIN_ENVS_PER_TASK)),
        None => op(usize::MAX),
    }
}

/// The random sources of `count` environments under `seed`: the seed's stream, jumped
/// 2^128 draws further for each next environment, so that no two environments of any seeds
/// share a stream (seeding with `seed + i` made environment i of seed 1 replay environment
/// i + 1 of seed 0).
fn env_rngs(seed: u64, count: usize) -> Vec<Xoshiro256PlusPlus> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let this = rng.clone();
            rng.jump();
            this
        })
        .collect()
}

/// The observations of every environment, `(N, PLANES, H, W)`, in the element type chosen
/// when the environment was made.
enum Observations {
    Float32(Py<PyArray4<f32>>),
    Uint8(Py<PyArray4<u8>>),
    Bool(Py<PyArray4<bool>>),
}

impl Observations {
    fn zeros(py: Python<'_>, plane_type: PlaneType, shape: [usize; 4]) -> Observations {
        match plane_type {
            PlaneType::Float32 => Observations::Float32(PyArray4::zeros(py, shape, false).unbind()),
            PlaneType::Uint8 => Observations::Uint8(PyArray4::zeros(py, shape, false).unbind()),
            PlaneType::Bool => Observations::Bool(PyArray4::zeros(py, shape, false).unbind()),
        }
    }

    /// The array, for Python.
    fn array(&self, py: Python<'_>) -> Py<PyAny> {
        match self {
            Observations::Float32(a) => a.clone_ref(py).into_any(),
            Observations::Uint8(a) => a.clone_ref(py).into_any(),
            Observations::Bool(a) => a.clone_ref(py).into_any(),
        }
    }
}

/// A batch of games of one rule set. `reset()` and `step(actions)` return arrays that the
/// environment reuses: each call overwrites what the last one returned (copy what you keep).
/// Actions are integers as in `Game` (cell index, `W*H` pass, `W*H + 1` end). A finished
/// game starts again at once: its `done` flag is set and its row already shows the new game.
/// Observations are float32, or `dtype` (`uint8`, `bool`) at a quarter of the memory.
#[pyclass(module = "toroid._toroid", name = "VectorEnv")]
pub struct VectorEnv {
    start: AnyGame,
    games: Vec<AnyGame>,
    /// Every game's legal-move mask, `N × A` in one block: kept here as well as in the
    /// output, which the caller may write into. Checking and sampling actions read every
    /// game's mask and random source; in two blocks of their own (87 KB and 32 KB for 1,024
    /// games of 9×9 Go) they stay in the cache, where the games themselves do not.
    legal: Vec<bool>,
    /// The random source of each game's sampled actions.
    rngs: Vec<Xoshiro256PlusPlus>,
    /// For the player to move in each game.
    observations: Observations,
    /// `(N, A)` bool, true where an action is legal.
    masks: Py<PyArray2<bool>>,
    /// `(N,)` float32: +1 when the step's mover won, -1 when it lost, 0 otherwise.
    rewards: Py<PyArray1<f32>>,
    /// `(N,)` bool: the step ended the game.
    dones: Py<PyArray1<bool>>,
    /// `(N,)` int8: who moves next, 0 black, 1 white (CTOR players move twice in a row).
    to_move: Py<PyArray1<i8>>,
    /// `(N,)` int64: what `sample_actions()` returned last, or the draws made ahead for it.
    sampled: Py<PyArray1<i64>>,
    /// `step`'s actions, copied out of the caller's array: the step may write `sampled`,
    /// which the caller may have passed.
    actions: Vec<i64>,
    /// `sample_actions()` was called since the last step or reset, so the next one draws
    /// the next actions while it has each game in hand: random self-play then costs one
    /// pass over the threads a step instead of two.
    draw_ahead: bool,
    /// `sampled` holds actions drawn for the current positions that no call returned yet.
    drawn: bool,
}

impl VectorEnv {
    fn observation_len(&self) -> usize {
        PLANES * self.start.topology().len()
    }

    /// Runs `work` on every environment (with its index) and its output rows, then
    /// publishes its state ([`publish`]) and, if `draw_ahead`, draws its next sampled
    /// action, across threads, without the GIL.
    fn for_each_env(
        &mut self,
        py: Python<'_>,
        work: impl Fn(usize, &mut AnyGame, &mut EnvOutput<'_>) + Sync,
    ) -> PyResult<()> {
        match &self.observations {
            Observations::Float32(a) => self.for_each_env_as(py, &a.clone_ref(py), work),
            Observations::Uint8(a) => self.for_each_env_as(py, &a.clone_ref(py), work),
            Observations::Bool(a) => self.for_each_env_as(py, &a.clone_ref(py), work),
        }
    }

    /// [`VectorEnv::for_each_env`] with observations of `T`.
    fn for_each_env_as<T: PlaneValue>(
        &mut self,
        py: Python<'_>,
        observations: &Py<PyArray4<T>>,
        work: impl Fn(usize, &mut AnyGame, &mut EnvOutput<'_>) + Sync,
    ) -> PyResult<()> {
        let observation_len = self.observation_len();
        let action_len = action_count(self.start.topology());
        let mut observations = observations.bind(py).try_readwrite()?;
        let mut masks = self.masks.bind(py).try_readwrite()?;
        let mut rewards = self.rewards.bind(py).try_readwrite()?;
        let mut dones = self.dones.bind(py).try_readwrite()?;
        let mut to_move = self.to_move.bind(py).try_readwrite()?;
        let observations = observations.as_slice_mut()?;
        let masks = masks.as_slice_mut()?;
        let rewards = rewards.as_slice_mut()?;
        let dones = dones.as_slice_mut()?;
        let to_move = to_move.as_slice_mut()?;
        let mut sampled = self.sampled.bind(py).try_readwrite()?;
        let sampled = sampled.as_slice_mut()?;
        let draw = self.draw_ahead;
        let (games, legal, rngs) = (&mut self.games, &mut self.legal, &mut self.rngs);
        py.detach(|| {
            on_threads(|min_envs_per_task| {
                let outputs = (masks.par_chunks_mut(action_len))
                    .zip(to_move.par_iter_mut())
                    .zip(rewards.par_iter_mut())
                    .zip(dones.par_iter_mut())
                    .zip(sampled.par_iter_mut())
                    .zip(rngs.par_iter_mut())
                    .map(
                        |(((((mask, to_move), reward), done), sampled), rng)| EnvOutput {
                            mask,
                            to_move,
                            reward,
                            done,
                            sampled,
                            rng,
                        },
                    );
                (games.par_iter_mut().enumerate())
                    .zip(legal.par_chunks_mut(action_len))
                    .zip(observations.par_chunks_mut(observation_len))
                    .zip(outputs)
                    .with_min_len(min_envs_per_task)
                    .for_each_init(
                        Vec::new,
                        |stones, ((((i, game), legal), observation), mut out)| {
                            work(i, game, &mut out);
                            publish(game, legal, stones, observation, &mut out);
                            if draw {
                                *out.sampled = sample(legal, out.rng) as i64;
                            }
                        },
                    );
            })
        });
        self.drawn = draw;
        self.draw_ahead = false;
        Ok(())
    }

    /// Why environment `index` cannot play `action`.
    fn refusal(&self, index: usize, action: i64) -> PyErr {
        let game = &self.games[index];
        let topology = game.topology();
        let mv = match move_of_action(topology, action) {
            Ok(mv) => mv,
            Err(why) => return value_error(format!("environment {index}: {why}")),
        };
        let reason = match game.check(mv) {
            Err(reason) => reason.to_string(),
            Ok(()) => "it is not among the legal moves".to_string(),
        };
        IllegalMove::new_err(format!(
            "environment {index}: action {action} ({}): {reason}",
            mv.notation(topology)
        ))
    }

    /// Copies the actions into `self.actions`, refusing anything but one integer per game.
    fn read_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let numpy = actions.py().import("numpy")?;
        let array = numpy.call_method1("asarray", (actions,))?;
        let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        if !matches!(kind.as_str(), "i" | "u") {
            return Err(PyTypeError::new_err(format!(
                "actions must be integers, not an array of dtype kind '{kind}'"
            )));
        }
        let array = numpy.call_method1("ascontiguousarray", (array, "int64"))?;
        let array: PyReadonlyArray1<'_, i64> = array.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "actions must be a one-dimensional array of {} integers",
                self.games.len()
            ))
        })?;
        if array.len() != self.games.len() {
            return Err(value_error(format!(
                "{} actions for {} environments",
                array.len(),
                self.games.len()
            )));
        }
        self.actions.clear();
        self.actions.extend_from_slice(array.as_slice()?);
        Ok(())
    }
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (name, num_envs, seed = 0, dtype = None, **params))]
    fn new(
        py: Python<'_>,
        name: &str,
        num_envs: usize,
        seed: u64,
        dtype: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorEnv> {
        if num_envs == 0 {
            return Err(value_error("num_envs must be at least 1"));
        }
        let plane_type = PlaneType::read(dtype)?;
        let start = new_game(name, params)?;
        let topology = start.topology();
        let (width, height) = (topology.width(), topology.height());
        let actions = action_count(topology);
        let games = vec![start.clone(); num_envs];
        let rngs = env_rngs(seed, num_envs);
        let mut env = VectorEnv {
            observations: Observations::zeros(py, plane_type, [num_envs, PLANES, height, width]),
            masks: PyArray2::zeros(py, [num_envs, actions], false).unbind(),
            rewards: PyArray1::zeros(py, num_envs, false).unbind(),
            dones: PyArray1::zeros(py, num_envs, false).unbind(),
            to_move: PyArray1::zeros(py, num_envs, false).unbind(),
            sampled: PyArray1::zeros(py, num_envs, false).unbind(),
            actions: Vec::with_capacity(num_envs),
            draw_ahead: false,
            drawn: false,
            start,
            games,
            legal: vec![false; num_envs * actions],
            rngs,
        };
        env.reset(py, None)?;
        Ok(env)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        action_count(self.start.topology())
    }

    /// `(PLANES, H, W)`: the shape of one environment's observation.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let topology = self.start.topology();
        (PLANES, topology.height(), topology.width())
    }

    /// Who moves next in each game: 0 black, 1 white (a reused array).
    #[getter]
    fn to_move(&self, py: Python<'_>) -> Py<PyArray1<i8>> {
        self.to_move.clone_ref(py)
    }

    /// Starts every game again (and, given a seed, the random sources of
    /// `sample_actions`); returns the observations and the legal masks.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<Py<PyAny>> {
        if let Some(seed) = seed {
            self.rngs = env_rngs(seed, self.rngs.len());
        }
        let start = self.start.clone();
        self.for_each_env(py, |_, game, out| {
            *game = start.clone();
            *out.reward = 0.0;
            *out.done = false;
        })?;
        let result = (self.observations.array(py), self.masks.clone_ref(py));
        Ok(result.into_pyobject(py)?.into_any().unbind())
    }

    /// Plays one action in every game. Returns observations, rewards (for the player who
    /// moved), done flags and legal masks. If any action is illegal, raises `IllegalMove`
    /// (`ValueError` for a number that is no action) naming the first such environment,
    /// and no game changes.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.read_actions(actions)?;
        let action_len = action_count(self.start.topology());
        let refused = (self.legal.chunks_exact(action_len).zip(&self.actions))
            .position(|(legal, &action)| !allows(legal, action));
        if let Some(index) = refused {
            return Err(self.refusal(index, self.actions[index]));
        }
        let start = self.start.clone();
        let topology = start.topology();
        let actions = std::mem::take(&mut self.actions);
        let stepped = self.for_each_env(py, |i, game, out| {
            let mv = move_of_action(topology, actions[i]).expect("actions were checked");
            let mover = game.turn().expect("a game with a legal move is on");
            game.play_legal(mv);
            *out.reward = 0.0;
            *out.done = false;
            if let Some(outcome) = game.outcome() {
                *out.reward = match outcome.winner {
                    Some(winner) if winner == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
                *out.done = true;
                *game = start.clone();
            }
        });
        self.actions = actions;
        stepped?;
        let result = (
            self.observations.array(py),
            self.rewards.clone_ref(py),
            self.dones.clone_ref(py),
            self.masks.clone_ref(py),
        );
        Ok(result.into_pyobject(py)?.into_any().unbind())
    }

    /// A uniformly random legal action for every game, drawn from each environment's own
    /// random source (seeded by `seed`; a reused array). Each call draws anew; in a loop
    /// of `step(sample_actions())` the step has drawn them already (`draw_ahead`).
    fn sample_actions(&mut self, py: Python<'_>) -> PyResult<Py<PyArray1<i64>>> {
        self.draw_ahead = true;
        if std::mem::take(&mut self.drawn) {
            return Ok(self.sampled.clone_ref(py));
        }
        {
            let mut sampled = self.sampled.bind(py).try_readwrite()?;
            let sampled = sampled.as_slice_mut()?;
            let action_len = action_count(self.start.topology());
            let (legal, rngs) = (&self.legal, &mut self.rngs);
            py.detach(|| {
                on_threads(|min_envs_per_task| {
                    (legal.par_chunks_exact(action_len))
                        .zip(rngs.par_iter_mut())
                        .zip(sampled.par_iter_mut())
                        .with_min_len(min_envs_per_task)
                        .for_each(|((legal, rng), action)| {
                            *action = sample(legal, rng) as i64;
                        })
                })
            });
        }
        Ok(self.sampled.clone_ref(py))
    }
}

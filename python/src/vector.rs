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
use toroid_rules::{AnyGame, Color, Move, Position};
use toroid_search::Tuning;

use crate::bot::level_config;
use crate::encoding::{
    action_count, action_of_move, default_perspective, more_planes, move_of_action,
    write_observation, MorePlanes, PlaneType, PlaneValue, PLANES,
};
use crate::game::{new_game, Game};
use crate::{value_error, IllegalMove};

/// Environments handed to one thread at a time: enough to pay for the hand-over.
const MIN_ENVS_PER_TASK: usize = 16;

/// Draws over all actions before `sample` counts the legal ones.
const SAMPLE_DRAWS: usize = 8;

/// The rows of the output arrays that belong to one environment, but its observations, and
/// what it keeps of its game beyond the position.
struct EnvOutput<'a> {
    mask: &'a mut [bool],
    to_move: &'a mut i8,
    reward: &'a mut f32,
    done: &'a mut bool,
    truncated: &'a mut bool,
    /// Its slot in `sample_actions()`'s array, and its random source.
    sampled: &'a mut i64,
    rng: &'a mut Xoshiro256PlusPlus,
    /// The game `set_game` gave it (`None`: its start), and the moves played since.
    origin: &'a mut Option<Game>,
    history: &'a mut Vec<Move>,
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
    /// `(N,)` bool: the step reached `max_steps` plies and cut the game short.
    truncated: Py<PyArray1<bool>>,
    /// The observation of each game that the step ended or cut short, for the player who
    /// made its last move, before it started again (other rows keep older ones).
    final_observations: Observations,
    /// Plies at which a game is cut short and started again, if any.
    max_steps: Option<usize>,
    /// The planes asked for beyond the six.
    more: MorePlanes,
    /// Each environment's start: the rule set's, or what `reset(starts=...)` gave. A game
    /// that ends or is cut short starts again from it.
    starts: Vec<Game>,
    /// The game `set_game` gave each environment (`None`: its start).
    origins: Vec<Option<Game>>,
    /// The moves each environment played since its start or its `set_game`.
    histories: Vec<Vec<Move>>,
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
        self.more.planes() * self.start.topology().len()
    }

    /// Runs `work` on every environment (with its index) and its output rows; where it
    /// returns a player, the game is over or cut short: its final observation (for that
    /// player) is kept and it starts again. Then publishes its state ([`publish`]) and, if
    /// `draw_ahead`, draws its next sampled action; across threads, without the GIL.
    fn for_each_env(
        &mut self,
        py: Python<'_>,
        work: impl Fn(usize, &mut AnyGame, &mut EnvOutput<'_>) -> Option<Color> + Sync,
    ) -> PyResult<()> {
        match (&self.observations, &self.final_observations) {
            (Observations::Float32(a), Observations::Float32(f)) => {
                self.for_each_env_as(py, &a.clone_ref(py), &f.clone_ref(py), work)
            }
            (Observations::Uint8(a), Observations::Uint8(f)) => {
                self.for_each_env_as(py, &a.clone_ref(py), &f.clone_ref(py), work)
            }
            (Observations::Bool(a), Observations::Bool(f)) => {
                self.for_each_env_as(py, &a.clone_ref(py), &f.clone_ref(py), work)
            }
            _ => unreachable!("both observation arrays have the element type chosen"),
        }
    }

    /// [`VectorEnv::for_each_env`] with observations of `T`.
    fn for_each_env_as<T: PlaneValue>(
        &mut self,
        py: Python<'_>,
        observations: &Py<PyArray4<T>>,
        final_observations: &Py<PyArray4<T>>,
        work: impl Fn(usize, &mut AnyGame, &mut EnvOutput<'_>) -> Option<Color> + Sync,
    ) -> PyResult<()> {
        let observation_len = self.observation_len();
        let action_len = action_count(self.start.topology());
        let mut finals = final_observations.bind(py).try_readwrite()?;
        let finals = finals.as_slice_mut()?;
        let mut truncated = self.truncated.bind(py).try_readwrite()?;
        let truncated = truncated.as_slice_mut()?;
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
        let (origins, histories, starts) = (&mut self.origins, &mut self.histories, &self.starts);
        let more = self.more;
        let base_len = PLANES * self.start.topology().len();
        // The planes beyond the six: the moves since the environment's start or `set_game`,
        // then those of the game it started from.
        let write_more =
            |i: usize, game: &AnyGame, viewer: Color, out: &EnvOutput<'_>, planes: &mut [T]| {
                if more != MorePlanes::default() {
                    let origin = out.origin.as_ref().unwrap_or(&starts[i]);
                    let recent = (out.history.iter().rev().copied()).chain(origin.recent_moves());
                    more.write(game, viewer, recent, &mut planes[base_len..]);
                }
            };
        py.detach(|| {
            on_threads(|min_envs_per_task| {
                let outputs = (masks.par_chunks_mut(action_len))
                    .zip(to_move.par_iter_mut())
                    .zip(rewards.par_iter_mut())
                    .zip(dones.par_iter_mut())
                    .zip(truncated.par_iter_mut())
                    .zip(sampled.par_iter_mut())
                    .zip(rngs.par_iter_mut())
                    .zip(origins.par_iter_mut())
                    .zip(histories.par_iter_mut())
                    .map(
                        |(
                            (
                                ((((((mask, to_move), reward), done), truncated), sampled), rng),
                                origin,
                            ),
                            history,
                        )| {
                            EnvOutput {
                                mask,
                                to_move,
                                reward,
                                done,
                                truncated,
                                sampled,
                                rng,
                                origin,
                                history,
                            }
                        },
                    );
                (games.par_iter_mut().enumerate())
                    .zip(legal.par_chunks_mut(action_len))
                    .zip(observations.par_chunks_mut(observation_len))
                    .zip(finals.par_chunks_mut(observation_len))
                    .zip(outputs)
                    .with_min_len(min_envs_per_task)
                    .for_each_init(
                        Vec::new,
                        |stones, (((((i, game), legal), observation), last), mut out)| {
                            if let Some(viewer) = work(i, game, &mut out) {
                                toroid_rules::with_game!(&*game, g => {
                                    g.legal_mask(legal);
                                    write_observation(g, viewer, legal, stones, last);
                                });
                                write_more(i, game, viewer, &out, last);
                                *game = starts[i].position().clone();
                                *out.origin = None;
                                out.history.clear();
                            }
                            publish(game, legal, stones, observation, &mut out);
                            write_more(i, game, default_perspective(game), &out, observation);
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

    /// `game`, checked to be a game this environment may play: its rule set and parameters,
    /// and not over.
    fn checked(&self, game: &Bound<'_, PyAny>) -> PyResult<Game> {
        let game: Game = game.extract().map_err(|_| {
            PyTypeError::new_err(format!("expected a toroid.Game, not {}", game.get_type()))
        })?;
        let (position, start) = (game.position(), &self.start);
        if position.kind() != start.kind() || position.params() != start.params() {
            return Err(value_error(format!(
                "a game of {} with other parameters: these environments play {}",
                position.kind(),
                start.kind()
            )));
        }
        if position.outcome().is_some() {
            return Err(value_error("the game is over"));
        }
        Ok(game)
    }

    /// The starts `reset(starts=...)` names: one `Game` for all, or one for each.
    fn read_starts(&self, starts: &Bound<'_, PyAny>) -> PyResult<Vec<Game>> {
        if starts.extract::<Game>().is_ok() {
            return Ok(vec![self.checked(starts)?; self.games.len()]);
        }
        let starts: Vec<Bound<'_, PyAny>> = starts.try_iter()?.collect::<PyResult<_>>()?;
        if starts.len() != self.games.len() {
            return Err(value_error(format!(
                "{} starts for {} environments",
                starts.len(),
                self.games.len()
            )));
        }
        starts.iter().map(|s| self.checked(s)).collect()
    }

    fn index(&self, index: usize) -> PyResult<usize> {
        if index < self.games.len() {
            Ok(index)
        } else {
            Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "environment {index} of {}",
                self.games.len()
            )))
        }
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
    #[pyo3(signature = (name, num_envs, seed = 0, dtype = None, max_steps = None, last_moves = 0, extras = false, **params))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        name: &str,
        num_envs: usize,
        seed: u64,
        dtype: Option<&Bound<'_, PyAny>>,
        max_steps: Option<usize>,
        last_moves: usize,
        extras: bool,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorEnv> {
        if num_envs == 0 {
            return Err(value_error("num_envs must be at least 1"));
        }
        if max_steps == Some(0) {
            return Err(value_error("max_steps must be at least 1"));
        }
        let plane_type = PlaneType::read(dtype)?;
        let more = more_planes(plane_type, last_moves, extras)?;
        let start = new_game(name, params)?;
        let topology = start.topology();
        let (width, height) = (topology.width(), topology.height());
        let actions = action_count(topology);
        let games = vec![start.clone(); num_envs];
        let rngs = env_rngs(seed, num_envs);
        let shape = [num_envs, more.planes(), height, width];
        let mut env = VectorEnv {
            observations: Observations::zeros(py, plane_type, shape),
            final_observations: Observations::zeros(py, plane_type, shape),
            truncated: PyArray1::zeros(py, num_envs, false).unbind(),
            max_steps,
            more,
            starts: vec![Game::from_start(start.clone())?; num_envs],
            origins: vec![None; num_envs],
            histories: vec![Vec::new(); num_envs],
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
        env.reset(py, None, None)?;
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

    /// `(C, H, W)`: the shape of one environment's observation (`C` is `PLANES`, and more
    /// with `last_moves` or `extras`).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let topology = self.start.topology();
        (self.more.planes(), topology.height(), topology.width())
    }

    /// Whether the last step cut each game short at `max_steps` plies (a reused array): such
    /// a game starts again, as a finished one does, with its `done` flag clear.
    #[getter]
    fn truncated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.truncated.clone_ref(py)
    }

    /// The observation of each game that a step ended or cut short, for the player who made
    /// its last move, as it stood before the game started again (a reused array; a row
    /// changes only when its game ends).
    #[getter]
    fn final_observations(&self, py: Python<'_>) -> Py<PyAny> {
        self.final_observations.array(py)
    }

    /// A copy of environment `index`'s game as a `Game`, with its moves since its start (or
    /// since `set_game`).
    fn game(&self, index: usize) -> PyResult<Game> {
        let index = self.index(index)?;
        let mut game = (self.origins[index].clone()).unwrap_or_else(|| self.starts[index].clone());
        for &mv in &self.histories[index] {
            game.play_recorded(mv)?;
        }
        Ok(game)
    }

    /// Environment `index` goes on from a copy of `game` (this rule set and parameters, not
    /// over); its rows of the observations and masks show it at once. When it ends, the
    /// environment starts again from its start. Costs a pass over the environments: to set
    /// them all, give `reset` the starts.
    fn set_game(&mut self, py: Python<'_>, index: usize, game: &Bound<'_, PyAny>) -> PyResult<()> {
        let index = self.index(index)?;
        let given = self.checked(game)?;
        // Actions drawn ahead for the old position may not fit the new one.
        self.drawn = false;
        self.for_each_env(py, |i, game, out| {
            if i == index {
                *game = given.position().clone();
                *out.origin = Some(given.clone());
                out.history.clear();
            }
            None
        })
    }

    /// Who moves next in each game: 0 black, 1 white (a reused array).
    #[getter]
    fn to_move(&self, py: Python<'_>) -> Py<PyArray1<i8>> {
        self.to_move.clone_ref(py)
    }

    /// Starts every game again (and, given a seed, the random sources of
    /// `sample_actions`); returns the observations and the legal masks. `starts`, a `Game`
    /// or one for each environment, of this rule set and parameters and not over, are the
    /// positions the environments start from, now and whenever a game starts again; without
    /// it they keep theirs (at first the rule set's start).
    #[pyo3(signature = (seed = None, starts = None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        starts: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        if let Some(starts) = starts {
            self.starts = self.read_starts(starts)?;
        }
        if let Some(seed) = seed {
            self.rngs = env_rngs(seed, self.rngs.len());
        }
        let starts = &self.starts.clone();
        self.for_each_env(py, |i, game, out| {
            *game = starts[i].position().clone();
            *out.origin = None;
            out.history.clear();
            *out.reward = 0.0;
            *out.done = false;
            *out.truncated = false;
            None
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
        let max_steps = self.max_steps.unwrap_or(usize::MAX);
        let stepped = self.for_each_env(py, |i, game, out| {
            let mv = move_of_action(topology, actions[i]).expect("actions were checked");
            let mover = game.turn().expect("a game with a legal move is on");
            game.play_legal(mv);
            out.history.push(mv);
            *out.reward = 0.0;
            *out.done = false;
            *out.truncated = false;
            if let Some(outcome) = game.outcome() {
                *out.reward = match outcome.winner {
                    Some(winner) if winner == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
                *out.done = true;
                return Some(mover);
            }
            if game.ply() >= max_steps {
                *out.truncated = true;
                return Some(mover);
            }
            None
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

    /// A house bot's move in every game, as actions (a new array): `level` as `toroid.Bot`
    /// takes it, with its own budget or `playouts`, one search thread a game and the games
    /// across the threads. Deterministic under `seed` with a playout budget (environment i
    /// searches with a seed of its own).
    #[pyo3(signature = (level = "greedy", seed = 0, playouts = None))]
    fn bot_actions(
        &self,
        py: Python<'_>,
        level: &str,
        seed: u64,
        playouts: Option<u64>,
    ) -> PyResult<Py<PyArray1<i64>>> {
        // One search thread a game: the games share the threads.
        let (level, tuning) = level_config(level, None, playouts, None)?;
        if let Some(game) = self.games.first() {
            level.for_game(game.kind()).map_err(value_error)?;
        }
        let tuning = Tuning {
            threads: Some(1),
            ..tuning
        };
        let games = &self.games;
        let actions: Vec<i64> = py.detach(|| {
            on_threads(|min_envs_per_task| {
                // A search is long: one game a task, unless there is one thread.
                let min = if min_envs_per_task == usize::MAX {
                    usize::MAX
                } else {
                    1
                };
                (games.par_iter().enumerate())
                    .with_min_len(min)
                    .map(|(i, game)| {
                        let seed = seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        let mv = level.bot_with(seed, tuning.clone()).choose(game, None);
                        action_of_move(game.topology(), mv) as i64
                    })
                    .collect()
            })
        });
        Ok(PyArray1::from_vec(py, actions).unbind())
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

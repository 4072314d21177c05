//! `toroid.Bot`: a house bot (docs/strength.md) that chooses moves and analyses positions.

use std::sync::Mutex;
use std::time::Duration;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use toroid_rules::{Move, Position, Topology};
use toroid_search::{Analyst, Budget, Level, Proof, Tuning};

use crate::encoding::action_of_move;
use crate::game::Game;
use crate::value_error;

/// The bot of a level: a search, which can also report what it found (the MCTS levels and
/// `zero`), or one of the levels that does not search (`random`, `greedy`).
enum Player {
    Search(Box<dyn Analyst>),
    Plain(Box<dyn toroid_rules::Bot>),
}

/// A house bot of a level (`random`, `greedy`, `beginner`, `casual`, `strong`, `max`,
/// `zero`). `seconds` or `playouts` replace a search level's own budget per move, `threads`
/// its threads (`zero` searches on one). Deterministic under `seed` with a playout budget.
#[pyclass(module = "toroid._toroid", name = "Bot")]
pub struct Bot {
    level: Level,
    // The search runs without the GIL, so the bot is locked instead.
    player: Mutex<Player>,
}

/// The level called `level` with `seconds` or `playouts` in place of its budget and
/// `threads` of its threads, for a level that searches (`zero` takes no threads); a level
/// that does not search takes none of them.
pub fn level_config(
    level: &str,
    seconds: Option<f64>,
    playouts: Option<u64>,
    threads: Option<usize>,
) -> PyResult<(Level, Tuning)> {
    let level: Level = level.parse().map_err(value_error)?;
    let budget = match (seconds, playouts) {
        (Some(_), Some(_)) => return Err(value_error("give seconds or playouts, not both")),
        (Some(s), None) => Some(Budget::Time(
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| value_error(format!("seconds must be positive, not {s}")))?,
        )),
        (None, Some(0)) => return Err(value_error("playouts must be at least 1")),
        (None, Some(n)) => Some(Budget::Playouts(n)),
        (None, None) => None,
    };
    if level == Level::Zero && threads.is_some() {
        return Err(value_error(
            "'zero' searches on one thread: it takes no threads",
        ));
    }
    let searches = level == Level::Zero || level.search_config().is_some();
    if !searches && (budget.is_some() || threads.is_some()) {
        return Err(value_error(format!(
            "'{level}' does not search: it takes no seconds, playouts or threads"
        )));
    }
    let tuning = Tuning {
        budget,
        threads,
        ..Tuning::default()
    };
    Ok((level, tuning))
}

fn proof_name(proof: Proof) -> Option<&'static str> {
    match proof {
        Proof::Unknown => None,
        Proof::Win => Some("win"),
        Proof::Loss => Some("loss"),
    }
}

fn notation(topology: &Topology, mv: Move) -> String {
    mv.notation(topology).to_string()
}

impl Bot {
    /// Runs `work` on the bot without the GIL, once the game is known to be on.
    fn with_player<T: Send>(
        &self,
        py: Python<'_>,
        game: &Game,
        work: impl FnOnce(&mut Player) -> T + Send,
    ) -> PyResult<T> {
        if game.position().turn().is_none() {
            return Err(value_error("the game is over"));
        }
        (self.level.for_game(game.position().kind())).map_err(value_error)?;
        py.detach(|| {
            let mut player = self.player.lock().unwrap_or_else(|e| e.into_inner());
            Ok(work(&mut player))
        })
    }
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (level = "casual", seed = 0, seconds = None, playouts = None, threads = None))]
    fn new(
        level: &str,
        seed: u64,
        seconds: Option<f64>,
        playouts: Option<u64>,
        threads: Option<usize>,
    ) -> PyResult<Bot> {
        let (level, tuning) = level_config(level, seconds, playouts, threads)?;
        let player = match level.analyst_with(seed, tuning) {
            Some(analyst) => Player::Search(analyst),
            None => Player::Plain(level.bot(seed)),
        };
        Ok(Bot {
            level,
            player: Mutex::new(player),
        })
    }

    #[getter]
    fn level(&self) -> &'static str {
        self.level.name()
    }

    /// The bot's move for the player to move in `game`, in notation.
    fn genmove(&self, py: Python<'_>, game: &Game) -> PyResult<String> {
        let position = game.position();
        let mv = self.with_player(py, game, |player| match player {
            Player::Search(search) => search.choose(position, None),
            Player::Plain(bot) => bot.choose(position, None),
        })?;
        Ok(notation(position.topology(), mv))
    }

    /// What a search finds in `game` within the bot's budget: `simulations`, `seconds`,
    /// `moves` (best first, each with `move`, `action`, `visits`, `win_rate` for the player
    /// to move, `proof` — `"win"`, `"loss"` or None — and `pv`, the expected continuation)
    /// and `visit_map`, the visits of each cell's placement as an (H, W) array. Only the
    /// search levels analyse. A playout budget is spent whole (a move choice stops once more
    /// simulations could not change the move; an analysis does not), so `simulations` is
    /// the budget.
    fn analyse<'py>(&self, py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyDict>> {
        let position = game.position();
        let analysis = self
            .with_player(py, game, |player| match player {
                Player::Search(search) => Some(search.analyse_fully(position)),
                Player::Plain(_) => None,
            })?
            .ok_or_else(|| value_error(format!("'{}' does not search", self.level)))?;
        let topology = position.topology();
        let moves = PyList::empty(py);
        for info in &analysis.moves {
            let entry = PyDict::new(py);
            entry.set_item("move", notation(topology, info.mv))?;
            entry.set_item("action", action_of_move(topology, info.mv))?;
            entry.set_item("visits", info.visits)?;
            entry.set_item("win_rate", info.win_rate)?;
            entry.set_item("proof", proof_name(info.proof))?;
            let pv: Vec<String> = info.pv.iter().map(|&mv| notation(topology, mv)).collect();
            entry.set_item("pv", pv)?;
            moves.append(entry)?;
        }
        let result = PyDict::new(py);
        result.set_item("simulations", analysis.simulations)?;
        result.set_item("seconds", analysis.elapsed.as_secs_f64())?;
        result.set_item("moves", moves)?;
        result.set_item(
            "visit_map",
            PyArray1::from_vec(py, analysis.visit_map)
                .reshape([topology.height(), topology.width()])?,
        )?;
        Ok(result)
    }

    fn __repr__(&self) -> String {
        format!("<toroid.Bot {}>", self.level)
    }
}

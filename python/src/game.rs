//! `toroid.Game`: one game of any rule set, with its record for SGF.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use serde_json::{Map, Value};
use toroid_protocol::record::Record;
use toroid_protocol::view::{lattice_name, stone_letter, ParamsView, TopologyView};
use toroid_rules::{AnyGame, Color, GameKind, Lattice, Move, ParamValue, Position};

use crate::encoding::{
    action_count, action_of_move, default_perspective, legal_mask, more_planes, move_of_action,
    symmetry_actions, write_observation, MorePlanes, PlaneType, PlaneValue, PLANES,
};
use crate::{value_error, IllegalMove};

/// A new game of the rule set `name` with parameters given as Python keyword arguments
/// (`size=9`, `komi=6.5`, `surface="klein"`); every parameter left out keeps its default.
pub fn new_game(name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<AnyGame> {
    let kind: GameKind = name.parse().map_err(value_error)?;
    let mut values = Map::new();
    for (key, value) in params.into_iter().flat_map(|p| p.iter()) {
        let key: String = key.extract()?;
        let value = param_json(&key, &value)?;
        values.insert(key, value);
    }
    // The JSON reader is the one the API and JSON records use: same checks, same messages.
    let params = ParamsView::read(kind, &values).map_err(value_error)?;
    kind.start(&params).map_err(value_error)
}

/// A parameter value as the JSON reader takes it: a number, or a string for its text (a
/// bool is the text `true` or `false`, as in `swap=True`).
fn param_json(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Value> {
    let refuse = || {
        let kind = value
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!(
            "parameter '{name}' must be an int, a float, a bool or a str, not {kind}"
        ))
    };
    if value.is_instance_of::<PyBool>() {
        Ok(Value::String(value.is_truthy()?.to_string()))
    } else if let Ok(v) = value.extract::<i64>() {
        Ok(v.into())
    } else if let Ok(v) = value.extract::<f64>() {
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| value_error(format!("parameter '{name}' cannot be {v}")))
    } else if let Ok(text) = value.extract::<String>() {
        Ok(Value::String(text))
    } else {
        Err(refuse())
    }
}

/// A player's name (`"black"`, `"white"`) as a colour.
pub(crate) fn parse_color(name: &str) -> PyResult<Color> {
    Color::BOTH
        .into_iter()
        .find(|c| c.name() == name)
        .ok_or_else(|| value_error(format!("'{name}' is not a player: say 'black' or 'white'")))
}

/// A move given as notation (`"ee"`, `"pass"`, `"end"`) or as an integer action.
fn read_move(game: &AnyGame, value: &Bound<'_, PyAny>) -> PyResult<Move> {
    let topology = game.topology();
    if value.is_instance_of::<PyString>() {
        let text: String = value.extract()?;
        Move::parse(&text, topology)
            .map_err(|e| value_error(format!("'{text}' is not a move on this board: {e}")))
    } else if value.is_instance_of::<PyBool>() {
        Err(PyTypeError::new_err(
            "a move is a str in notation ('ee', 'pass', 'end') or an int action, not a bool",
        ))
    } else if value.hasattr("__index__")? {
        // Any integer: Python's, or NumPy's (`np.int64` from `argmax`), through `__index__`.
        let action = value
            .extract::<i64>()
            .map_err(|_| value_error(format!("action {value} is not an action on this board")))?;
        move_of_action(topology, action).map_err(value_error)
    } else {
        Err(PyTypeError::new_err(
            "a move is a str in notation ('ee', 'pass', 'end') or an int action",
        ))
    }
}

/// The legal moves of `game`.
fn legal_moves(game: &AnyGame) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

/// A Python value of a parameter.
pub(crate) fn param_value(py: Python<'_>, value: &ParamValue) -> PyResult<Py<PyAny>> {
    Ok(match value {
        ParamValue::Int(v) => v.into_pyobject(py)?.into_any().unbind(),
        ParamValue::Float(v) => v.into_pyobject(py)?.into_any().unbind(),
        ParamValue::Choice(v) => v.into_pyobject(py)?.into_any().unbind(),
    })
}

/// A game of one of toroid's rule sets: the position, whose turn it is, how it ended, and
/// the record of its moves (for SGF).
#[pyclass(module = "toroid._toroid", name = "Game")]
#[derive(Clone)]
pub struct Game {
    game: AnyGame,
    /// The start (with any setup stones read from SGF) and every move played since.
    record: Record,
}

impl Game {
    pub fn from_start(game: AnyGame) -> PyResult<Game> {
        let record = Record::new(game.kind(), game.params()).map_err(value_error)?;
        Ok(Game { game, record })
    }

    pub fn position(&self) -> &AnyGame {
        &self.game
    }

    /// Plays `mv` for the player to move and records it; raises `IllegalMove` with the
    /// rules' reason, and changes nothing, when the rules refuse it.
    pub fn play_recorded(&mut self, mv: Move) -> PyResult<()> {
        let mover = self.game.turn();
        self.game.play(mv).map_err(|reason| {
            IllegalMove::new_err(format!("{}: {reason}", mv.notation(self.game.topology())))
        })?;
        let mover = mover.expect("a move was played, so the game was on");
        self.record.push_move(mover, mv).map_err(value_error)?;
        // A result read from a record no longer holds once the game goes on.
        self.record.result = self.game.outcome();
        Ok(())
    }

    /// The observation as `(C, H, W)` values of `T` for `perspective`: the [`PLANES`] and
    /// `more`.
    fn planes<'py, T: PlaneValue>(
        &self,
        py: Python<'py>,
        perspective: Color,
        more: MorePlanes,
    ) -> PyResult<Bound<'py, PyAny>> {
        let topology = self.game.topology();
        let cells = topology.len();
        let mut planes = vec![T::from_bit(false); more.planes() * cells];
        let (base, rest) = planes.split_at_mut(PLANES * cells);
        write_observation(
            &self.game,
            perspective,
            &legal_mask(&self.game),
            &mut Vec::new(),
            base,
        );
        more.write(&self.game, perspective, self.recent_moves(), rest);
        let planes = PyArray1::from_vec(py, planes);
        Ok(planes
            .reshape([more.planes(), topology.height(), topology.width()])?
            .into_any())
    }

    /// The moves played, most recent first (for the last-move planes).
    pub(crate) fn recent_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.record.moves_from_last().map(|(_, mv)| mv)
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (name, **params))]
    fn new(name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
        Game::from_start(new_game(name, params)?)
    }

    /// Reads an SGF record (toroid's own or a Go program's) and plays its main line.
    #[staticmethod]
    fn from_sgf(text: &str) -> PyResult<Game> {
        let record = Record::from_sgf(text).map_err(value_error)?;
        let game = record.replay().map_err(value_error)?;
        Ok(Game { game, record })
    }

    /// The game as an SGF record, with its result once it is over.
    fn to_sgf(&self) -> String {
        let mut record = self.record.clone();
        if let Some(outcome) = self.game.outcome() {
            record.result = Some(outcome);
        }
        record.to_sgf()
    }

    /// The rule set's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.game.kind().name()
    }

    #[getter]
    fn width(&self) -> usize {
        self.game.topology().width()
    }

    #[getter]
    fn height(&self) -> usize {
        self.game.topology().height()
    }

    /// How many integer actions there are: `W*H` cells, pass (`W*H`) and end (`W*H + 1`).
    #[getter]
    fn num_actions(&self) -> usize {
        action_count(self.game.topology())
    }

    /// The parameters, every default resolved.
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.game.params().iter() {
            if let Some(value) = value {
                dict.set_item(name, param_value(py, value)?)?;
            }
        }
        Ok(dict)
    }

    /// Every legal move in notation: points like `"ee"`, `"pass"`, `"end"`.
    fn legal_moves(&self) -> Vec<String> {
        let topology = self.game.topology();
        (legal_moves(&self.game).into_iter())
            .map(|mv| mv.notation(topology).to_string())
            .collect()
    }

    /// Every legal move as an integer action.
    fn legal_actions(&self) -> Vec<usize> {
        let topology = self.game.topology();
        (legal_moves(&self.game).into_iter())
            .map(|mv| action_of_move(topology, mv))
            .collect()
    }

    /// A boolean array over the actions, true where the action is legal.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        PyArray1::from_vec(py, legal_mask(&self.game))
    }

    /// Plays a move (notation or integer action) for the player to move. Raises
    /// `IllegalMove` with the reason when the rules refuse it, `ValueError` when it is no
    /// move on this board; either way the game does not change.
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = read_move(&self.game, r#move)?;
        self.play_recorded(mv)
    }

    /// The symmetries of the board that keep the rules, as an `(S, A)` int64 array: row s
    /// maps each action to its image (cells to cells; `pass`, `end`, `swap` stay), the
    /// identity first. The image of an observation `o` is `t` with
    /// `t.reshape(C, -1)[:, row[:W*H]] = o.reshape(C, -1)` (docs/python.md).
    fn symmetries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let (count, rows) = symmetry_actions(&self.game);
        let actions = rows.len() / count;
        PyArray1::from_vec(py, rows).reshape([count, actions])
    }

    /// Takes the last move back (the position is replayed from the start, so it costs a
    /// replay of the game); returns it in notation. Raises `ValueError` when no move was
    /// played (or read from the record).
    fn undo(&mut self) -> PyResult<String> {
        let (_, mv) =
            (self.record.pop_move()).ok_or_else(|| value_error("there is no move to take back"))?;
        self.game = self.record.replay().map_err(value_error)?;
        self.record.result = self.game.outcome();
        Ok(mv.notation(self.game.topology()).to_string())
    }

    /// The integer action of a move in notation.
    fn move_to_action(&self, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mv = read_move(&self.game, r#move)?;
        Ok(action_of_move(self.game.topology(), mv))
    }

    /// The notation of an integer action.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        let topology = self.game.topology();
        let mv = move_of_action(topology, action).map_err(value_error)?;
        Ok(mv.notation(topology).to_string())
    }

    /// An independent copy.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }

    /// Pickles as its SGF record, which holds the parameters, any setup and every move.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_sgf = py.get_type::<Game>().getattr("from_sgf")?;
        Ok((from_sgf, (self.to_sgf(),)))
    }

    /// `"black"` or `"white"`, or `None` once the game is over.
    fn to_move(&self) -> Option<&'static str> {
        self.game.turn().map(Color::name)
    }

    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// `"black"`, `"white"` or `"draw"` once the game is over, else `None`.
    fn winner(&self) -> Option<&'static str> {
        self.game.outcome().map(|o| o.winner_name())
    }

    /// Why the game ended, as its code (`"two-passes"`, `"ring"`, ...), or `None`.
    fn reason(&self) -> Option<&'static str> {
        self.game.outcome().map(|o| o.reason.code())
    }

    /// Moves played so far.
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The moves of the game in notation, from the start (or from the record's start).
    fn moves(&self) -> Vec<String> {
        self.record.move_notation()
    }

    /// Stones captured (CTOR: turned over) by black and by white.
    fn captures(&self) -> (u32, u32) {
        let [black, white] = self.game.captures();
        (black, white)
    }

    /// The score of black and of white (`go` only, komi in white's), else `None`.
    fn score(&self) -> Option<(f64, f64)> {
        self.game.score().map(|[black, white]| (black, white))
    }

    /// The board, `H × W` int8: 0 empty, 1 black, 2 white.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let topology = self.game.topology();
        let cells: Vec<i8> = (topology.cells())
            .map(|c| {
                self.game
                    .stone(c)
                    .map_or(0, |color| color.index() as i8 + 1)
            })
            .collect();
        PyArray1::from_vec(py, cells).reshape([topology.height(), topology.width()])
    }

    /// The observation planes `(C, H, W)` for `player` (`"black"`, `"white"`; the player to
    /// move when left out, black once the game is over), as float32 or the `dtype` given
    /// (`uint8`, `bool`): the six planes, then `last_moves` planes of the latest moves and,
    /// with `extras`, the five planes of captures, komi, moves left and the player to move
    /// (float32 only). docs/python.md lists the planes.
    #[pyo3(signature = (player = None, dtype = None, last_moves = 0, extras = false))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<&str>,
        dtype: Option<&Bound<'py, PyAny>>,
        last_moves: usize,
        extras: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let perspective = match player {
            Some(name) => parse_color(name)?,
            None => default_perspective(&self.game),
        };
        let plane_type = PlaneType::read(dtype)?;
        let more = more_planes(plane_type, last_moves, extras)?;
        match plane_type {
            PlaneType::Float32 => self.planes::<f32>(py, perspective, more),
            PlaneType::Uint8 => self.planes::<u8>(py, perspective, more),
            PlaneType::Bool => self.planes::<bool>(py, perspective, more),
        }
    }

    /// The cell graph for graph networks: `cells` (N, 2) display coordinates `x, y` by
    /// cell index; `edges` (E, 2) every directed adjacency `from, to`; `seams` (E, 2) how
    /// many times each edge crosses the left/right and the top/bottom seam; with the
    /// board's size, lattice, surface and gluing.
    fn topology<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let topology = self.game.topology();
        let view = TopologyView::new(topology);
        let cells: Vec<i32> = (view.cells.iter())
            .flat_map(|&(x, y)| [x as i32, y as i32])
            .collect();
        let edges: Vec<i32> = (view.edges.iter())
            .flat_map(|&(from, to, _, _)| [i32::from(from), i32::from(to)])
            .collect();
        let seams: Vec<i8> = (view.edges.iter())
            .flat_map(|&(_, _, cx, cy)| [cx, cy])
            .collect();
        let edge_count = view.edges.len();
        let dict = PyDict::new(py);
        dict.set_item("width", topology.width())?;
        dict.set_item("height", topology.height())?;
        dict.set_item("lattice", lattice_name(topology.lattice()))?;
        dict.set_item("surface", topology.surface().name())?;
        dict.set_item("left_right", view.gluing.left_right)?;
        dict.set_item("top_bottom", view.gluing.top_bottom)?;
        dict.set_item(
            "cells",
            PyArray1::from_vec(py, cells).reshape([topology.len(), 2])?,
        )?;
        dict.set_item(
            "edges",
            PyArray1::from_vec(py, edges).reshape([edge_count, 2])?,
        )?;
        dict.set_item(
            "seams",
            PyArray1::from_vec(py, seams).reshape([edge_count, 2])?,
        )?;
        Ok(dict)
    }

    /// The board as text (`b`, `w`, `.`; odd rows of hex boards shifted right) and who is to
    /// move or how the game ended.
    fn __str__(&self) -> String {
        let topology = self.game.topology();
        let hex = topology.lattice() == Lattice::HexOddR;
        let mut text = String::new();
        for y in 0..topology.height() {
            if hex && y % 2 == 1 {
                text.push(' ');
            }
            let row: Vec<String> = (0..topology.width())
                .filter_map(|x| topology.cell_at(x, y))
                .map(|cell| stone_letter(self.game.stone(cell)).to_string())
                .collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        match self.game.outcome() {
            Some(outcome) => text.push_str(&outcome.to_string()),
            None => text.push_str(&format!("{} to move", default_perspective(&self.game))),
        }
        text
    }

    fn __repr__(&self) -> String {
        let params: Vec<String> = (self.game.params().iter())
            .filter_map(|(name, value)| Some(format!("{name}={}", value?)))
            .collect();
        format!(
            "<toroid.Game {} ({}) after {} moves>",
            self.game.kind(),
            params.join(", "),
            self.game.ply()
        )
    }
}

//! The JSON shapes of the inspection interface: a game as `toroid replay --json`
//! prints it, a cell graph as `toroid topology --json` prints it, and the rule sets with
//! their parameters as `toroid games --json` prints them.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use toroid_rules::params::{ParamDefault, ParamKind};
use toroid_rules::{
    Cell, Color, EndPhase, GameKind, Gluing, Lattice, Move, ParamError, ParamSpec, ParamValue,
    Params, Position, Reason, Topology,
};

/// One number per player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct PerColor<T> {
    pub black: T,
    pub white: T,
}

impl<T: Copy> PerColor<T> {
    /// From an array indexed by [`Color::index`].
    pub fn from_array(values: [T; 2]) -> PerColor<T> {
        PerColor {
            black: values[Color::Black.index()],
            white: values[Color::White.index()],
        }
    }

    /// The value for `color`.
    pub fn get(&self, color: Color) -> T {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// Parameter values as a JSON object in the order of the rule set's specification.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamsView(pub Params);

impl Serialize for ParamsView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (name, value) in self.0.iter() {
            map.serialize_entry(name, &value)?;
        }
        map.end()
    }
}

impl ParamsView {
    /// Reads a rule set's parameter values from a JSON object, as the API and JSON records
    /// give them: a number as a value, a string as its text (`"9"`, `"torus"`), a boolean as
    /// the choice it names (`true` for `"true"`). Values left out keep their defaults.
    pub fn read(kind: GameKind, json: &Map<String, Value>) -> Result<Params, ParamError> {
        let mut params = Params::defaults(kind.params());
        for (name, value) in json {
            match value {
                Value::Number(n) => match n.as_i64() {
                    Some(v) => params.assign(name, ParamValue::Int(v))?,
                    None => {
                        params.assign(name, ParamValue::Float(n.as_f64().unwrap_or(f64::NAN)))?
                    }
                },
                Value::String(text) => params.assign_text(name, text)?,
                Value::Bool(yes) => {
                    params.assign_text(name, if *yes { "true" } else { "false" })?
                }
                other => {
                    return Err(ParamError::Invalid(format!(
                        "parameter '{name}' must be a number, a string or a boolean, not {other}"
                    )))
                }
            }
        }
        Ok(params)
    }
}

/// Why the game ended as its kebab-case code (`"two-passes"`), or `""` while it goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReasonView(pub Option<Reason>);

impl Serialize for ReasonView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(reason) => reason.serialize(serializer),
            None => serializer.serialize_str(""),
        }
    }
}

/// The name of a lattice in views.
pub fn lattice_name(lattice: Lattice) -> &'static str {
    match lattice {
        Lattice::Square4 => "square",
        Lattice::Square8 => "square-8",
        Lattice::HexOddR => "hex-odd-r",
    }
}

/// A game as the inspection interface shows it: the board, the turn and the outcome, then
/// extras.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameView {
    pub game: &'static str,
    pub params: ParamsView,
    pub width: usize,
    pub height: usize,
    /// Rows top to bottom: `b` black, `w` white, `.` empty.
    pub board: Vec<String>,
    pub to_move: Option<Color>,
    pub over: bool,
    /// `"black"`, `"white"`, `"draw"`, or null while the game goes on.
    pub winner: Option<&'static str>,
    pub reason: ReasonView,
    /// `reason` in words (`""` while the game goes on).
    pub reason_text: &'static str,
    pub captures: PerColor<u32>,
    /// `go` only (komi in white's); null for the other rule sets.
    pub score: Option<PerColor<f64>>,
    /// `go` under area or territory scoring: who owns each empty point as `score` counts
    /// it (an empty region bordered by one colour only), rows like `board`; null elsewhere.
    pub territory: Option<Vec<String>>,
    /// Every legal move in notation; empty once the game is over.
    pub legal_moves: Vec<String>,
    /// The moves played, in notation.
    pub moves: Vec<String>,
    /// Who made each move, one letter a move (`b`, `w`): in CTOR a player often moves twice
    /// in a row.
    pub movers: String,
    pub ply: usize,
    /// Play goes on after two passes to capture the dead stones (Go's scoring phase
    /// `cleanup`, or `agreement` disputed): the stones captured until the next two passes
    /// count as dead. GTP engines are asked `kgs-genmove_cleanup` then.
    pub cleanup: bool,
    /// The cells that decided the game (a winning loop, a surrounded stone).
    pub highlight: Vec<String>,
    pub lattice: &'static str,
    pub surface: &'static str,
}

/// The letter of a cell's content in `board` rows.
pub fn stone_letter(stone: Option<Color>) -> char {
    stone.map_or('.', Color::letter)
}

impl GameView {
    /// The view of `game`, which reached its position by `history`: each move with the
    /// player who made it.
    pub fn new<P: Position>(game: &P, history: &[(Color, Move)]) -> GameView {
        let topology = game.topology();
        let outcome = game.outcome();
        let notation = |mv: &Move| mv.notation(topology).to_string();
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        GameView {
            game: game.kind().name(),
            params: ParamsView(game.params().clone()),
            width: topology.width(),
            height: topology.height(),
            board: board_rows(game),
            to_move: game.turn(),
            over: outcome.is_some(),
            winner: outcome.map(|o| o.winner_name()),
            reason: ReasonView(outcome.map(|o| o.reason)),
            reason_text: outcome.map_or("", |o| o.reason.describe()),
            captures: PerColor::from_array(game.captures()),
            score: game.score().map(PerColor::from_array),
            territory: game
                .territory()
                .map(|owners| rows(topology, |cell| stone_letter(owners[cell.index()]))),
            legal_moves: legal.iter().map(notation).collect(),
            moves: history.iter().map(|(_, mv)| notation(mv)).collect(),
            movers: history.iter().map(|(color, _)| color.letter()).collect(),
            ply: game.ply(),
            cleanup: game.end_phase() != EndPhase::Play,
            highlight: game
                .highlight()
                .into_iter()
                .map(|c| topology.point_name(c).to_string())
                .collect(),
            lattice: lattice_name(topology.lattice()),
            surface: topology.surface().name(),
        }
    }
}

/// A cell graph: display positions `[x, y]` by cell index; every directed adjacency
/// `[i, j, cx, cy]` with its seam label; every grid step `[i, j, dx, dy]` from a cell and
/// the cell `j` it reaches (a page draws `j`'s copy at `i`'s position plus `(dx, dy)` when
/// the step crosses a seam; two steps may reach one neighbour); and how each pair of
/// opposite edges is glued.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopologyView {
    pub cells: Vec<(usize, usize)>,
    pub edges: Vec<(u16, u16, i8, i8)>,
    pub steps: Vec<(u16, u16, i32, i32)>,
    pub gluing: GluingView,
}

/// How the grid's opposite edges are glued: `"open"`, `"straight"` or `"reversed"`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GluingView {
    pub left_right: &'static str,
    pub top_bottom: &'static str,
}

fn gluing_name(gluing: Gluing) -> &'static str {
    match gluing {
        Gluing::Open => "open",
        Gluing::Straight => "straight",
        Gluing::Reversed => "reversed",
    }
}

impl TopologyView {
    pub fn new(topology: &Topology) -> TopologyView {
        let (left_right, top_bottom) = topology.surface().gluing();
        let steps = topology.cells().flat_map(|c| {
            (topology.grid_steps(c).iter()).filter_map(move |&(dx, dy)| {
                let (to, _) = topology.step(c, dx, dy)?;
                (to != c).then_some((c.0, to.0, dx, dy))
            })
        });
        TopologyView {
            cells: topology.cells().map(|c| topology.xy(c)).collect(),
            edges: topology
                .edges()
                .map(|(from, to, seam)| (from.0, to.0, seam.cx, seam.cy))
                .collect(),
            steps: steps.collect(),
            gluing: GluingView {
                left_right: gluing_name(left_right),
                top_bottom: gluing_name(top_bottom),
            },
        }
    }
}

/// Every board of a game from its start, as the rules made them: what a page needs to step
/// through a game and animate each change without knowing the rules itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryView {
    /// The board after 0, 1, … moves, each as [`GameView::board`] writes it.
    pub boards: Vec<Vec<String>>,
    /// The captures (CTOR: turnovers) after 0, 1, … moves, as [`GameView::captures`].
    pub captures: Vec<PerColor<u32>>,
    /// The score after 0, 1, … moves, as [`GameView::score`] (`go` only; else every one
    /// is null).
    pub scores: Vec<Option<PerColor<f64>>>,
}

impl HistoryView {
    /// Plays `moves` from `start`; `None` if one of them is illegal there.
    pub fn new<P: Position + Clone>(start: &P, moves: &[Move]) -> Option<HistoryView> {
        let mut game = start.clone();
        let mut history = HistoryView {
            boards: Vec::with_capacity(moves.len() + 1),
            captures: Vec::with_capacity(moves.len() + 1),
            scores: Vec::with_capacity(moves.len() + 1),
        };
        history.push(&game);
        for &mv in moves {
            game.play(mv).ok()?;
            history.push(&game);
        }
        Some(history)
    }

    fn push<P: Position>(&mut self, game: &P) {
        self.boards.push(board_rows(game));
        self.captures.push(PerColor::from_array(game.captures()));
        self.scores.push(game.score().map(PerColor::from_array));
    }
}

/// The board as rows, top to bottom: `b` black, `w` white, `.` empty.
fn board_rows<P: Position>(game: &P) -> Vec<String> {
    rows(game.topology(), |cell| stone_letter(game.stone(cell)))
}

/// Rows top to bottom of one letter a cell.
fn rows(topology: &Topology, letter: impl Fn(Cell) -> char) -> Vec<String> {
    (0..topology.height())
        .map(|y| {
            (0..topology.width())
                .filter_map(|x| topology.cell_at(x, y))
                .map(&letter)
                .collect()
        })
        .collect()
}

/// A parameter's default: a value, or the text saying how it is derived.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DefaultView {
    Value(ParamValue),
    Derived(&'static str),
}

/// One parameter of a rule set, as `toroid games --json` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamView {
    pub name: &'static str,
    /// `"int"`, `"float"` or `"choice"`.
    pub kind: &'static str,
    pub default: DefaultView,
    /// Whether `default` is a text saying how the rule set computes it.
    pub default_derived: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<ParamValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<ParamValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<&'static [&'static str]>,
    pub help: &'static str,
}

impl ParamView {
    pub fn new(spec: &ParamSpec) -> ParamView {
        let (kind, min, max, choices) = match &spec.kind {
            ParamKind::Int { min, max } => (
                "int",
                Some(ParamValue::Int(*min)),
                Some(ParamValue::Int(*max)),
                None,
            ),
            ParamKind::Float { min, max } => (
                "float",
                Some(ParamValue::Float(*min)),
                Some(ParamValue::Float(*max)),
                None,
            ),
            ParamKind::Choice(options) => ("choice", None, None, Some(*options)),
        };
        let (default, default_derived) = match &spec.default {
            ParamDefault::Value(v) => (DefaultView::Value(v.clone()), false),
            ParamDefault::Derived(text) => (DefaultView::Derived(text), true),
        };
        ParamView {
            name: spec.name,
            kind,
            default,
            default_derived,
            min,
            max,
            choices,
            help: spec.help,
        }
    }
}

/// A rule set, as `toroid games --json` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub params: Vec<ParamView>,
}

impl GameInfo {
    pub fn new(game: GameKind) -> GameInfo {
        GameInfo {
            name: game.name(),
            summary: game.summary(),
            params: game.params().iter().map(ParamView::new).collect(),
        }
    }
}

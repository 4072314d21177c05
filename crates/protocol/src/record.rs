//! Game records: the parameters, the players, the result and the moves of a game, with the
//! comments, setup stones and side variations of an SGF file kept. Read and written as SGF
//! ([`Record::from_sgf`], [`Record::to_sgf`]) or JSON ([`Record::from_json`],
//! [`Record::to_json`]); `docs/records.md` describes both formats.

use thiserror::Error;
use toroid_rules::{
    AnyGame, Cell, Color, GameKind, IllegalMove, Move, Outcome, ParamError, Params, Position,
    SetupError, Topology, UnknownGame,
};

use crate::sgf::{GameTree, Property, SgfError};

mod json;
mod result;
mod sgf;

pub use result::{read_sgf_result, sgf_result};

/// A player's name as records hold it, whichever format it was read from: SGF's SimpleText
/// turns line breaks into spaces, and real records break names across lines, so every run
/// of white space is one space and none is kept at either end. A name then reads back
/// exactly as it was written.
fn simple_text(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One node of the main line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordNode {
    /// The move of this node (`B[..]` or `W[..]`), with the colour the record gives it.
    pub play: Option<(Color, Move)>,
    /// Setup stones (`AB`, `AW`; `AE` as `None`), applied before the node's move.
    pub setup: Vec<(Cell, Option<Color>)>,
    /// `C[...]`.
    pub comment: Option<String>,
    /// Every other property, kept verbatim for writing back (markup, names, timing...).
    pub properties: Vec<Property>,
    /// Side variations: alternatives to the next main-line node, as SGF trees.
    pub variations: Vec<GameTree>,
}

/// A setup stone of the main line: `color` `None` empties the cell (`AE`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SetupStone {
    /// The main-line node (0 is the root) that places it.
    pub node: usize,
    pub cell: Cell,
    pub color: Option<Color>,
}

/// Why a record cannot be read or replayed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RecordError {
    #[error(transparent)]
    Sgf(#[from] SgfError),
    #[error("JSON record: {0}")]
    Json(String),
    #[error("the SGF file holds no game")]
    NoGame,
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error("SGF game GM[{0}] is not played by toroid (GM[1] is Go; GM[100] needs TG[game])")]
    UnsupportedGame(String),
    #[error(transparent)]
    Params(#[from] ParamError),
    #[error("node {node}: bad {property}[{value}]: {why}")]
    BadProperty {
        node: usize,
        property: String,
        value: String,
        why: String,
    },
    #[error("move {number} ({mv}): the record gives it to {color}, but {expected} is to move")]
    WrongColor {
        number: usize,
        mv: String,
        color: Color,
        expected: Color,
    },
    #[error("move {number} ({mv}) is illegal: {reason}")]
    Illegal {
        number: usize,
        mv: String,
        reason: IllegalMove,
    },
    #[error("node {node} sets up stones (AB/AW/AE), which JSON records cannot hold")]
    SetupUnsupported { node: usize },
    #[error("node {node}: the setup stones (AB/AW/AE) are refused: {reason}")]
    BadSetup { node: usize, reason: SetupError },
}

/// A game record. The main line is [`Record::nodes`]: node 0 is the root, and each later
/// node usually holds one move.
#[derive(Clone, Debug)]
pub struct Record {
    start: AnyGame,
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: Option<Outcome>,
    nodes: Vec<RecordNode>,
}

impl Record {
    /// An empty record (a root node, no moves) of a rule set with these parameters.
    pub fn new(kind: GameKind, params: &Params) -> Result<Record, RecordError> {
        Ok(Record {
            start: kind.start(params)?,
            black: None,
            white: None,
            result: None,
            nodes: vec![RecordNode::default()],
        })
    }

    /// A record of `moves` played from the start; each move's colour is the player to move.
    pub fn from_moves(
        kind: GameKind,
        params: &Params,
        moves: &[Move],
    ) -> Result<Record, RecordError> {
        let mut record = Record::new(kind, params)?;
        let mut game = record.start.clone();
        for (i, &mv) in moves.iter().enumerate() {
            let color = game.turn();
            game.play(mv)
                .map_err(|reason| record.illegal(i + 1, mv, reason))?;
            record.push_move(color.expect("play succeeded, so the game was on"), mv)?;
        }
        Ok(record)
    }

    /// Reads a record in either format: JSON if the text starts with `{`, SGF otherwise.
    pub fn read(text: &str) -> Result<Record, RecordError> {
        if text.trim_start().starts_with('{') {
            Record::from_json(text)
        } else {
            Record::from_sgf(text)
        }
    }

    pub fn kind(&self) -> GameKind {
        self.start.kind()
    }

    /// The parameters, every default resolved.
    pub fn params(&self) -> &Params {
        self.start.params()
    }

    pub fn topology(&self) -> &Topology {
        self.start.topology()
    }

    /// The game before any move or setup.
    pub fn start(&self) -> &AnyGame {
        &self.start
    }

    /// The main line, root first.
    pub fn nodes(&self) -> &[RecordNode] {
        &self.nodes
    }

    /// The moves of the main line, the last first.
    pub fn moves_from_last(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.nodes.iter().rev().filter_map(|n| n.play)
    }

    /// The moves of the main line with the colours the record gives them.
    pub fn moves(&self) -> Vec<(Color, Move)> {
        self.nodes.iter().filter_map(|n| n.play).collect()
    }

    /// The moves of the main line in notation (`ee`, `pass`, `end`).
    pub fn move_notation(&self) -> Vec<String> {
        self.moves()
            .into_iter()
            .map(|(_, mv)| self.notation(mv))
            .collect()
    }

    /// Every setup stone of the main line, in order.
    pub fn setup(&self) -> Vec<SetupStone> {
        let mut out = Vec::new();
        for (node, n) in self.nodes.iter().enumerate() {
            out.extend(
                n.setup
                    .iter()
                    .map(|&(cell, color)| SetupStone { node, cell, color }),
            );
        }
        out
    }

    /// Appends a node with `color` playing `mv` (not checked against the rules: see
    /// [`Record::replay`]; only that the cell is on this board).
    pub fn push_move(&mut self, color: Color, mv: Move) -> Result<(), RecordError> {
        if mv
            .cell()
            .is_some_and(|c| c.index() >= self.topology().len())
        {
            return Err(self.illegal(self.moves().len() + 1, mv, IllegalMove::OffBoard));
        }
        self.nodes.push(RecordNode {
            play: Some((color, mv)),
            ..RecordNode::default()
        });
        Ok(())
    }

    /// Sets stones up in the root node (`AB`, `AW`, `AE` there), replacing any set up before.
    pub fn set_up(&mut self, changes: &[(Cell, Option<Color>)]) {
        self.nodes[0].setup = changes.to_vec();
    }

    /// Sets the comment of the last node of the main line.
    pub fn comment(&mut self, text: impl Into<String>) {
        self.nodes.last_mut().expect("a record has a root").comment = Some(text.into());
    }

    /// Takes the last move of the main line back, with its comment and the nodes after it:
    /// the move, or `None` when there is none. Setup stones placed before it stay.
    pub fn pop_move(&mut self) -> Option<(Color, Move)> {
        let last = self.nodes.iter().rposition(|n| n.play.is_some())?;
        self.nodes.truncate(last + 1);
        let node = &mut self.nodes[last];
        let play = node.play.take();
        node.comment = None;
        if node.setup.is_empty() {
            self.nodes.pop();
        }
        play
    }

    /// Plays the main line from the start and returns the final position. Setup stones are
    /// placed with `Position::setup` (refused with [`RecordError::BadSetup`] where the rules could not go on from them).
    pub fn replay(&self) -> Result<AnyGame, RecordError> {
        self.replay_moves(usize::MAX)
    }

    /// Plays the main line from the start as [`Record::replay`] does, but only its first
    /// `count` moves (with the setup stones before each).
    pub fn replay_moves(&self, count: usize) -> Result<AnyGame, RecordError> {
        let mut game = self.start.clone();
        let mut number = 0;
        for (node, n) in self.nodes.iter().enumerate() {
            if n.play.is_some() && number == count {
                break;
            }
            if !n.setup.is_empty() {
                // SGF gives the move to the colour of the next move (PL is not read).
                let to_move = self.nodes[node..]
                    .iter()
                    .find_map(|n| n.play.map(|(color, _)| color))
                    .or(game.turn())
                    .unwrap_or(Color::Black);
                game.setup(&n.setup, to_move)
                    .map_err(|reason| RecordError::BadSetup { node, reason })?;
            }
            let Some((color, mv)) = n.play else { continue };
            number += 1;
            match game.turn() {
                Some(expected) if expected != color => {
                    return Err(RecordError::WrongColor {
                        number,
                        mv: self.notation(mv),
                        color,
                        expected,
                    })
                }
                _ => game
                    .play(mv)
                    .map_err(|reason| self.illegal(number, mv, reason))?,
            }
        }
        Ok(game)
    }

    fn notation(&self, mv: Move) -> String {
        match mv.cell() {
            Some(c) if c.index() >= self.topology().len() => format!("cell {}", c.0),
            _ => mv.notation(self.topology()).to_string(),
        }
    }

    fn illegal(&self, number: usize, mv: Move, reason: IllegalMove) -> RecordError {
        RecordError::Illegal {
            number,
            mv: self.notation(mv),
            reason,
        }
    }
}

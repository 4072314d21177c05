//! Records as JSON, for scripts: the main line only (no setup stones, no variations).

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toroid_rules::{GameKind, Move, Outcome};

use crate::view::ParamsView;

use super::{simple_text, Record, RecordError};

#[derive(Serialize, Deserialize)]
struct JsonRecord {
    game: String,
    #[serde(default)]
    params: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    white: Option<String>,
    moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Outcome>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<JsonComment>,
}

/// A comment on the position after `ply` moves (0: before the first move).
#[derive(Serialize, Deserialize)]
struct JsonComment {
    ply: usize,
    text: String,
}

impl Record {
    /// Reads a JSON record; the moves are checked by playing them, which also gives each
    /// its colour.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let json: JsonRecord =
            serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))?;
        let kind = GameKind::from_str(&json.game)?;
        let params = ParamsView::read(kind, &json.params)?;
        let empty = Record::new(kind, &params)?;
        let topology = empty.topology();
        let mut moves = Vec::with_capacity(json.moves.len());
        for (i, text) in json.moves.iter().enumerate() {
            let mv = Move::parse(text, topology)
                .map_err(|e| RecordError::Json(format!("move {} '{text}': {e}", i + 1)))?;
            moves.push(mv);
        }
        let mut record = Record::from_moves(kind, empty.params(), &moves)?;
        record.black = json.black.as_deref().map(simple_text);
        record.white = json.white.as_deref().map(simple_text);
        record.result = json.result;
        for comment in json.comments {
            let node = record.nodes.get_mut(comment.ply).ok_or_else(|| {
                RecordError::Json(format!("comment after move {}: no such move", comment.ply))
            })?;
            node.comment = Some(match node.comment.take() {
                Some(earlier) => format!("{earlier}\n\n{}", comment.text),
                None => comment.text,
            });
        }
        Ok(record)
    }

    /// The record as JSON. Setup stones cannot be written in JSON: such a record is refused
    /// with [`RecordError::SetupUnsupported`].
    pub fn to_json(&self) -> Result<String, RecordError> {
        if let Some(stone) = self.setup().first() {
            return Err(RecordError::SetupUnsupported { node: stone.node });
        }
        let params = self
            .params()
            .iter()
            .filter_map(|(name, value)| {
                Some((name.to_string(), serde_json::to_value(value?).ok()?))
            })
            .collect();
        let mut comments = Vec::new();
        let mut ply = 0;
        for node in &self.nodes {
            ply += usize::from(node.play.is_some());
            if let Some(text) = &node.comment {
                comments.push(JsonComment {
                    ply,
                    text: text.clone(),
                });
            }
        }
        let json = JsonRecord {
            game: self.kind().name().into(),
            params,
            black: self.black.clone(),
            white: self.white.clone(),
            moves: self.move_notation(),
            result: self.result,
            comments,
        };
        serde_json::to_string_pretty(&json).map_err(|e| RecordError::Json(e.to_string()))
    }
}

//! How a game on the server ended: by its rules, a resignation, or on time. Stored as JSON
//! in the form the API shows (`{"winner":"black|white|draw","reason":"code","text":"words"}`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toroid_protocol::record::GameResult;
use toroid_rules::{AnyGame, Color, Position};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GameEnd {
    /// `None` for a draw.
    #[serde(with = "winner_name")]
    #[schema(value_type = String, example = "black")]
    pub winner: Option<Color>,
    /// A rules reason (`two-passes`, `ring`, …), `resignation` or `time`.
    pub reason: String,
    /// The result in words.
    pub text: String,
}

impl GameEnd {
    /// The rules' verdict on `game`, once it is over.
    pub fn by_rules(game: &AnyGame) -> Option<GameEnd> {
        let outcome = game.outcome()?;
        Some(GameEnd {
            winner: outcome.winner,
            reason: GameResult::from_outcome(&outcome, None).reason,
            text: outcome.to_string(),
        })
    }

    pub fn resignation(loser: Color) -> GameEnd {
        GameEnd {
            winner: Some(loser.opponent()),
            reason: "resignation".into(),
            text: format!("{} wins: {loser} resigned", loser.opponent()),
        }
    }

    pub fn time(loser: Color) -> GameEnd {
        GameEnd {
            winner: Some(loser.opponent()),
            reason: "time".into(),
            text: format!("{} wins: {loser} ran out of time", loser.opponent()),
        }
    }

    /// The result for the game's record; `game` is the final position (for a score margin).
    pub fn record_result(&self, game: &AnyGame) -> GameResult {
        match GameResult::of_game(game) {
            Some(by_rules) if by_rules.reason == self.reason => by_rules,
            _ => GameResult {
                winner: self.winner,
                reason: self.reason.clone(),
                margin: None,
            },
        }
    }
}

/// A winner as `"black"`, `"white"` or `"draw"`.
mod winner_name {
    use super::*;

    pub fn serialize<S: Serializer>(winner: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(winner.map_or("draw", Color::name))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        match String::deserialize(d)?.as_str() {
            "draw" => Ok(None),
            "black" => Ok(Some(Color::Black)),
            "white" => Ok(Some(Color::White)),
            other => Err(serde::de::Error::custom(format!(
                "unknown winner '{other}'"
            ))),
        }
    }
}

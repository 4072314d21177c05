//! The result of a recorded game, and its SGF `RE` form.

use toroid_rules::{AnyGame, Color, Outcome, Position};

/// How a recorded game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// A rule-set reason in kebab-case (`two-passes`, `surrounded`, `ring`, ...), or
    /// `resignation`, `time`, `forfeit...` (any text after it says why), `score`, `unknown`.
    pub reason: String,
    /// The winner's lead in points, where a score decided (`go`).
    pub margin: Option<f64>,
}

impl GameResult {
    /// The result of a finished game (`None` while it goes on).
    pub fn of_game(game: &AnyGame) -> Option<GameResult> {
        let outcome = game.outcome()?;
        let margin = game
            .score()
            .filter(|_| outcome.winner.is_some())
            .map(|[b, w]| (b - w).abs());
        Some(GameResult::from_outcome(&outcome, margin))
    }

    pub fn from_outcome(outcome: &Outcome, margin: Option<f64>) -> GameResult {
        let reason = match serde_json::to_value(outcome.reason) {
            Ok(serde_json::Value::String(name)) => name,
            _ => outcome.reason.to_string(),
        };
        GameResult {
            winner: outcome.winner,
            reason,
            margin,
        }
    }

    /// `winner` won because the other side resigned.
    pub fn resignation(winner: Color) -> GameResult {
        GameResult {
            winner: Some(winner),
            reason: "resignation".into(),
            margin: None,
        }
    }

    /// `winner` won by forfeit; `why` says what the loser did wrong.
    pub fn forfeit(winner: Color, why: &str) -> GameResult {
        GameResult {
            winner: Some(winner),
            reason: format!("forfeit: {why}"),
            margin: None,
        }
    }

    /// The SGF `RE` value: `0` for a draw, else `B+` or `W+` then `R` (resignation), `T`
    /// (time), `F` (forfeit), the margin, or nothing.
    pub fn to_sgf(&self) -> String {
        let Some(winner) = self.winner else {
            return "0".into();
        };
        let how = match (self.reason.as_str(), self.margin) {
            ("resignation", _) => "R".to_string(),
            ("time", _) => "T".to_string(),
            (r, _) if r.starts_with("forfeit") => "F".to_string(),
            (_, Some(margin)) => margin.to_string(),
            _ => String::new(),
        };
        format!("{}+{how}", winner.letter().to_ascii_uppercase())
    }

    /// Reads an SGF `RE` value; `None` for `Void`, `?` and anything unreadable.
    pub fn from_sgf(value: &str) -> Option<GameResult> {
        let value = value.trim();
        if ["0", "draw", "jigo"].contains(&value.to_ascii_lowercase().as_str()) {
            return Some(GameResult {
                winner: None,
                reason: "draw".into(),
                margin: None,
            });
        }
        let (color, how) = value.split_once('+')?;
        let winner = match color.trim() {
            "B" | "b" => Color::Black,
            "W" | "w" => Color::White,
            _ => return None,
        };
        let (reason, margin) = match how.trim().to_ascii_lowercase().as_str() {
            "r" | "resign" => ("resignation", None),
            "t" | "time" => ("time", None),
            "f" | "forfeit" => ("forfeit", None),
            "" => ("unknown", None),
            number => {
                let margin = number.parse::<f64>().ok().filter(|m| m.is_finite())?;
                ("score", Some(margin))
            }
        };
        Some(GameResult {
            winner: Some(winner),
            reason: reason.into(),
            margin,
        })
    }
}

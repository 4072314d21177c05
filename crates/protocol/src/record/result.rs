//! A game's ending in SGF: the `RE` value (winner and how: `B+R`, `W+12.5`, `0`). toroid
//! also writes the reason's code in its own `TO` property, which `RE` cannot hold.

use toroid_rules::{Color, Fault, Outcome, Reason};

/// The SGF `RE` value of an ending: `Void` for an aborted game (no result), `0` for a draw,
/// else `B+` or `W+` then `R` (resignation), `T` (time), `F` (forfeit), the margin, or
/// nothing.
pub fn sgf_result(outcome: &Outcome) -> String {
    if outcome.reason == Reason::Abort {
        return "Void".into();
    }
    let Some(winner) = outcome.winner else {
        return "0".into();
    };
    let how = match (outcome.reason, outcome.margin) {
        (Reason::Resignation, _) => "R".to_string(),
        (Reason::Time, _) => "T".to_string(),
        (Reason::Forfeit(_), _) => "F".to_string(),
        (_, Some(margin)) => margin.to_string(),
        _ => String::new(),
    };
    format!("{}+{how}", winner.letter().to_ascii_uppercase())
}

/// Reads an SGF `RE` value; `None` for `?` and anything unreadable. The reason is
/// as much as `RE` says: a score gives [`Reason::Score`], a bare winner or a draw
/// [`Reason::Unknown`].
pub fn read_sgf_result(value: &str) -> Option<Outcome> {
    let value = value.trim();
    if value.eq_ignore_ascii_case("void") {
        return Some(Outcome::abort());
    }
    if ["0", "draw", "jigo"].contains(&value.to_ascii_lowercase().as_str()) {
        return Some(Outcome::draw(Reason::Unknown));
    }
    let (color, how) = value.split_once('+')?;
    let winner = match color.trim() {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        _ => return None,
    };
    let (reason, margin) = match how.trim().to_ascii_lowercase().as_str() {
        "r" | "resign" => (Reason::Resignation, None),
        "t" | "time" => (Reason::Time, None),
        "f" | "forfeit" => (Reason::Forfeit(Fault::Unspecified), None),
        "" => (Reason::Unknown, None),
        number => {
            // `abs` turns `-0` into `0`; other negative margins are refused.
            let margin = number
                .parse::<f64>()
                .ok()
                .filter(|&m| Outcome::is_margin(m))?;
            (Reason::Score, Some(margin.abs()))
        }
    };
    Some(Outcome {
        winner: Some(winner),
        reason,
        margin,
    })
}

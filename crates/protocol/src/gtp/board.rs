//! The board as text (`showboard`) and as JSON (`toroid-board`).

use serde_json::{json, Map, Value};
use toroid_rules::{cell::value_letter, AnyGame, Color, Position};

use crate::gtp::vertex::{column_letter, MAX_GTP_SIZE};

/// Whether a game is Go on a board GTP vertices can name: standard commands then speak
/// GTP vertices, and toroid notation otherwise.
pub fn speaks_vertices(game: &AnyGame) -> bool {
    game.kind().rule_set().go_like && game.topology().width() <= MAX_GTP_SIZE
}

/// A text diagram: `X` black, `O` white, `.` empty, labelled with GTP vertices for Go and
/// with notation letters (row letters from the top) for the other games. Starts with a
/// newline so that the diagram begins on a line of its own after `= `.
pub fn diagram(game: &AnyGame) -> String {
    let topology = game.topology();
    let (width, height) = (topology.width(), topology.height());
    let vertices = speaks_vertices(game);
    let column = |x: usize| {
        if vertices {
            column_letter(x).to_string()
        } else {
            value_letter(x).to_string()
        }
    };
    let row = |y: usize| {
        if vertices {
            (height - y).to_string()
        } else {
            value_letter(y).to_string()
        }
    };
    let header: String = (0..width).map(|x| format!(" {}", column(x))).collect();
    let mut out = format!("\n   {header}\n");
    for y in 0..height {
        let label = row(y);
        out.push_str(&format!("{label:>2} "));
        for x in 0..width {
            let stone = topology.cell_at(x, y).and_then(|c| game.stone(c));
            out.push(' ');
            out.push(match stone {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
        }
        out.push_str(&format!(" {label}\n"));
    }
    out.push_str(&format!("   {header}\n"));
    let [b, w] = game.captures();
    out.push_str(&format!(
        "{} · captures black {b}, white {w} · ",
        game.kind()
    ));
    match (game.turn(), game.outcome()) {
        (Some(c), _) => out.push_str(&format!("{c} to move")),
        (None, Some(o)) => out.push_str(&o.to_string()),
        (None, None) => out.push_str("over"),
    }
    out
}

/// The position as one line of JSON: `game`, `params`, `width`, `height`, `board` (rows top
/// to bottom, `b`/`w`/`.`), `to_move`, `over`, `winner`, `reason`, `captures`, `ply`, and
/// `score` for `go`.
pub fn json(game: &AnyGame) -> String {
    let topology = game.topology();
    let board: Vec<String> = (0..topology.height())
        .map(|y| {
            (0..topology.width())
                .map(|x| {
                    topology
                        .cell_at(x, y)
                        .and_then(|c| game.stone(c))
                        .map_or('.', Color::letter)
                })
                .collect()
        })
        .collect();
    let params: Map<String, Value> = game
        .params()
        .iter()
        .map(|(name, value)| (name.to_string(), json!(value)))
        .collect();
    let outcome = game.outcome();
    let [b, w] = game.captures();
    let mut object = json!({
        "game": game.kind().name(),
        "params": params,
        "width": topology.width(),
        "height": topology.height(),
        "board": board,
        "to_move": game.turn().map(Color::name),
        "over": outcome.is_some(),
        "winner": outcome.map(|o| o.winner_name()),
        "reason": outcome.map(|o| o.reason),
        "captures": {"black": b, "white": w},
        "ply": game.ply(),
    });
    if let Some([b, w]) = game.score() {
        object["score"] = json!({"black": b, "white": w});
    }
    object.to_string()
}

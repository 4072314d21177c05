//! How to play each rule set, for players: a few short paragraphs and worked examples. Each
//! example is a position reached by real moves, so the rules engine makes it and the page
//! draws it with its own board code (the page's rules panel). docs/rules.md is the full
//! statement of the rules.

use serde::Serialize;
use toroid_rules::{AnyGame, Color, GameKind, Move, Position};

use crate::view::{GameView, TopologyView};

/// A rule set's help: what to do, and positions that show it.
#[derive(Debug, Clone, Serialize)]
pub struct RulesHelp {
    pub game: &'static str,
    pub paragraphs: &'static [&'static str],
    pub examples: Vec<ExampleView>,
}

/// A worked example: its words, and the position its moves reach (the last move marked,
/// the decisive cells highlighted).
#[derive(Debug, Clone, Serialize)]
pub struct ExampleView {
    pub title: &'static str,
    pub text: &'static str,
    pub position: GameView,
    pub topology: TopologyView,
}

/// An example as written here: parameters as `KEY=VALUE` and moves in SGF points. Its last
/// move is also a lesson: from the position before it, the player to move is asked to
/// `goal`, with `hint` after a move that does not.
struct Example {
    title: &'static str,
    text: &'static str,
    params: &'static [&'static str],
    moves: &'static str,
    goal: Goal,
    hint: &'static str,
}

/// What a lesson asks for; the rules say whether a move did it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// Win with this move.
    Win,
    /// Capture (or, in CTOR, turn over) at least one enemy stone with this move.
    Capture,
}

impl Goal {
    fn words(self) -> &'static str {
        match self {
            Goal::Win => "win the game",
            Goal::Capture => "capture",
        }
    }
}

const GO_SURFACES: &str = "The board may be a plane, or glued into a cylinder, a Möbius strip, \
    a torus, a Klein bottle or a projective plane (the topology parameter). Then the points \
    at an edge have neighbours across it, drawn faded beyond the edge; arrows beside the \
    board show how its edges are glued: equal arrows straight, opposite arrows in reverse.";

fn text(game: GameKind) -> (&'static [&'static str], &'static [Example]) {
    match game {
        GameKind::Torus => (
            &[
                "Black and white take turns placing a stone on an empty cell. The board is a \
                 torus: its left edge is glued to its right edge and its top to its bottom, so \
                 every cell has four neighbours, and the diagonals wrap around too.",
                "Surround an enemy stone on all four sides and you win at once.",
                "Capture along diagonals: from the stone you place, one or more enemy stones \
                 in a row on a diagonal, closed by one of your stones, are captured. You may \
                 not place a stone between two enemy stones on a diagonal unless your move \
                 captures, and no move may repeat an earlier board.",
                "A player without a legal move passes; two passes in a row are a draw.",
            ],
            &[Example {
                title: "A capture across the corner",
                text: "Black's aa and dd close the white stone on ee along the diagonal that \
                       wraps through the corner (aa to ee is one diagonal step across both \
                       seams), so ee is captured.",
                params: &["size=5"],
                moves: "dd ee aa",
                goal: Goal::Capture,
                hint: "Capture along a diagonal: an enemy stone between the stone you place and one of yours on a diagonal. The diagonals wrap around the seams too.",
            }],
        ),
        GameKind::HexTorus => (
            &[
                "Hexagonal cells on a torus: both pairs of edges are glued straight, so every \
                 cell has six neighbours. Players take turns placing one stone; stones never \
                 move, and nobody passes.",
                "Win by closing a loop of your stones that goes around the torus. Black wins \
                 with a ring (a loop around from top to bottom) or a right helix (around both \
                 ways, sloping down to the right). White wins with a bracelet (around from \
                 left to right) or a left helix.",
                "Only the player who just moved can complete a loop, and a loop of the other \
                 player's kind wins nothing. There are no draws.",
            ],
            &[Example {
                title: "A ring",
                text: "Black's zig-zag column crosses the top/bottom seam once and the \
                       left/right seam not at all: a ring, which wins for black. White's \
                       column is one stone short.",
                params: &[],
                moves: "aa ea ab eb ac ec ad ed ae ee af ef ag eg ah",
                goal: Goal::Win,
                hint: "A ring goes around the torus from top to bottom: black's column needs one more stone to meet itself across the top/bottom seam.",
            }],
        ),
        GameKind::MTorus => (
            &[
                "Hexagonal cells whose opposite edges are glued in reverse (the arrows point \
                 opposite ways): leaving the top of a column you come back at the bottom of \
                 the mirrored column, and leaving the right side of a row you come back on \
                 the left of the mirrored row. The surface is a projective plane.",
                "Win by closing a loop that crosses the seams an odd number of times in all: \
                 one top-bottom loop or one left-right loop. A loop that crosses each seam \
                 once crosses twice in all, and does not win.",
            ],
            &[Example {
                title: "A top-bottom loop",
                text: "Black's column e closes through the reversed top/bottom seam: ei \
                       touches ea, because the seam mirrors the columns and column e is the \
                       middle one. One crossing: odd, a win.",
                params: &[],
                moves: "ea aa eb ab ec ac ed ad ee ae ef af eg ag eh ah ei",
                goal: Goal::Win,
                hint: "Leaving the top of a column you come back at the bottom of the mirrored column; for the middle column that is the column itself.",
            }],
        ),
        GameKind::Ctor => (
            &[
                "A torus where every cell has eight neighbours, the diagonal ones included, \
                 all wrapping around the edges.",
                "A turn is one or two placements (black's very first turn is one). After the \
                 first placement you may end the turn.",
                "Turnovers: after every placement, every enemy stone with at least five of \
                 its eight neighbours yours turns over to your colour, again and again until \
                 none is left.",
                "The game ends when the board is full: more stones wins.",
            ],
            &[Example {
                title: "A turnover",
                text: "Black's dc gives the white stone on cc its fifth black neighbour \
                       (bb, cb, db, bc and dc), and it turns black.",
                params: &["size=5"],
                moves: "bb cc end cb db aa ae bc dc",
                goal: Goal::Capture,
                hint: "A white stone with five of its eight neighbours black turns black: count the black stones around cc, diagonals included.",
            }],
        ),
        GameKind::CaptureGo => (
            &[
                "Go's captures: a chain of stones with no empty point next to it is \
                 captured, and a move that leaves your own chain without one is not allowed. \
                 Passing is always allowed; there is no ko rule.",
                "The first player to capture target stones (5 unless chosen otherwise) wins. \
                 Two passes in a row end the game: more captures wins.",
                GO_SURFACES,
            ],
            &[Example {
                title: "A capture across the seams of a torus",
                text: "On a torus the white stone on A5 has four neighbours: B5 and A4 on the \
                       board, E5 and A1 across the seams. Black takes all four and captures \
                       it.",
                params: &["size=5", "topology=torus"],
                moves: "ba aa ab cc ea dd ae",
                goal: Goal::Capture,
                hint: "On a torus the corner stone on A5 has four neighbours, two of them across the seams: find the one still empty.",
            }],
        ),
        GameKind::Go => (
            &[
                "Go: a chain of stones with no empty point next to it is captured, a move \
                 that leaves your own chain without one is not allowed, and ko forbids \
                 repeating the board at once. Passing is always allowed.",
                "Two passes in a row (or the move limit) end the game. The score counts area \
                 (stones and the empty points they surround) or territory, as chosen, with \
                 komi added to white.",
                "Dead stones are not taken off by themselves; the game's scoring phase says \
                 what follows two passes. none: the game ends and every stone counts as it \
                 stands (Tromp-Taylor), so capture the dead ones before you pass. cleanup: \
                 play goes on until two more passes, and the stones captured then count as \
                 dead. agreement: both players mark the dead stones and accept them; a \
                 dispute goes on as cleanup. Games between people use agreement, games with \
                 bots cleanup.",
                GO_SURFACES,
            ],
            &[Example {
                title: "A capture across a reversed seam (Klein bottle)",
                text: "The Klein bottle glues its top and bottom edges in reverse: above B5 \
                       is D1. Black's D1 takes white's B5's last liberty across that seam and \
                       captures it.",
                params: &["size=5", "topology=klein"],
                moves: "aa ba ca cc bb dc de",
                goal: Goal::Capture,
                hint: "The Klein bottle glues its top and bottom edges in reverse: the point above B5 is at the bottom, mirrored.",
            }],
        ),
    }
}

/// A lesson: the position before an example's last move, and what to do there.
#[derive(Debug, Clone, Serialize)]
pub struct LessonView {
    pub title: &'static str,
    /// What the player to move is asked, in words.
    pub prompt: String,
    pub goal: Goal,
    pub position: GameView,
    pub topology: TopologyView,
}

/// The rules' word on a lesson's answer.
#[derive(Debug, Clone, Serialize)]
pub struct LessonAnswer {
    pub solved: bool,
    /// Why, in words: the example's explanation when solved, else what the move did not do
    /// and a hint.
    pub explanation: String,
    /// The position after the move, if it was legal.
    pub position: Option<GameView>,
}

/// Why a lesson's answer cannot be judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LessonError {
    #[error("{0} has no lesson {1}")]
    NoLesson(&'static str, usize),
    #[error("'{0}' is not a cell of this board")]
    NotAMove(String),
}

/// The lessons of `game`, one for each of its examples.
pub fn lessons(game: GameKind) -> Vec<LessonView> {
    let (_, examples) = text(game);
    (examples.iter())
        .map(|e| {
            let (position, history) = before_last(game, e);
            let mover = position.turn().expect("an example ends with its last move");
            LessonView {
                title: e.title,
                prompt: format!(
                    "{} to play: find the move that makes you {}.",
                    capitalized(mover),
                    e.goal.words()
                ),
                goal: e.goal,
                position: GameView::new(&position, &history),
                topology: TopologyView::new(position.topology()),
            }
        })
        .collect()
}

/// Whether `notation`, played in lesson `index` of `game`, does what the lesson asks, as the
/// rules say (the move that wins or captures, whichever it is).
pub fn answer(game: GameKind, index: usize, notation: &str) -> Result<LessonAnswer, LessonError> {
    let (_, examples) = text(game);
    let example = (examples.get(index)).ok_or(LessonError::NoLesson(game.name(), index))?;
    let (mut position, mut history) = before_last(game, example);
    let mv = Move::parse(notation, position.topology())
        .map_err(|_| LessonError::NotAMove(notation.to_string()))?;
    let mover = position.turn().expect("an example ends with its last move");
    let before = GameView::new(&position, &history).captures;
    if let Err(illegal) = position.play(mv) {
        return Ok(LessonAnswer {
            solved: false,
            explanation: format!(
                "{notation} is not allowed here: {illegal}. {}",
                example.hint
            ),
            position: None,
        });
    }
    history.push((mover, mv));
    let after = GameView::new(&position, &history);
    let solved = match example.goal {
        Goal::Win => position.outcome().and_then(|o| o.winner) == Some(mover),
        Goal::Capture => after.captures.get(mover) > before.get(mover),
    };
    let explanation = match solved {
        true => format!("Right. {}", example.text),
        false => format!(
            "{notation} does not {} here. {}",
            example.goal.words(),
            example.hint
        ),
    };
    Ok(LessonAnswer {
        solved,
        explanation,
        position: Some(after),
    })
}

/// `Black` or `White`, to begin a sentence.
pub fn capitalized(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The position of `example` before its last move, and the moves to it.
fn before_last(game: GameKind, example: &Example) -> (AnyGame, Vec<(Color, Move)>) {
    let moves = example.moves.split_whitespace().count();
    played(game, example, moves - 1)
}

/// The help of `game`, its examples played out by the rules.
pub fn help(game: GameKind) -> RulesHelp {
    let (paragraphs, examples) = text(game);
    RulesHelp {
        game: game.name(),
        paragraphs,
        examples: examples.iter().map(|e| play(game, e)).collect(),
    }
}

/// The first `moves` moves of `example` played out: the position they reach, and the moves
/// with their colours.
fn played(game: GameKind, example: &Example, moves: usize) -> (AnyGame, Vec<(Color, Move)>) {
    let mut position = game
        .new_game(example.params)
        .expect("an example's parameters are valid");
    let mut history = Vec::new();
    for notation in example.moves.split_whitespace().take(moves) {
        let mv = Move::parse(notation, position.topology()).expect("an example's moves parse");
        let color: Color = position.turn().expect("an example ends with its last move");
        position.play(mv).expect("an example's moves are legal");
        history.push((color, mv));
    }
    (position, history)
}

fn play(game: GameKind, example: &Example) -> ExampleView {
    let (position, history) = played(game, example, usize::MAX);
    ExampleView {
        title: example.title,
        text: example.text,
        position: GameView::new(&position, &history),
        topology: TopologyView::new(position.topology()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(view: &GameView, name: &str) -> char {
        let (x, y) = (name.as_bytes()[0] - b'a', name.as_bytes()[1] - b'a');
        view.board[y as usize].as_bytes()[x as usize] as char
    }

    /// Every example plays out, and shows what its words say.
    #[test]
    fn each_example_shows_what_it_says() {
        let example = |game| help(game).examples.remove(0).position;
        assert_eq!(cell(&example(GameKind::Torus), "ee"), '.', "captured");
        let ring = example(GameKind::HexTorus);
        assert_eq!(
            (ring.winner, ring.reason_text),
            (Some("black"), "a ring was completed")
        );
        let m_torus = example(GameKind::MTorus);
        assert_eq!(m_torus.winner, Some("black"));
        assert_eq!(cell(&example(GameKind::Ctor), "cc"), 'b', "turned over");
        let capture_go = example(GameKind::CaptureGo);
        assert_eq!(
            (cell(&capture_go, "aa"), capture_go.captures.black),
            ('.', 1)
        );
        let klein = example(GameKind::Go);
        assert_eq!((cell(&klein, "ba"), klein.captures.black), ('.', 1));
        for game in GameKind::ALL {
            assert!(!help(game).paragraphs.is_empty());
        }
    }

    /// Each lesson's example move solves it, and a move elsewhere does not, with a hint; a
    /// move that is not a cell, or a lesson that is not there, is refused.
    #[test]
    fn lessons_accept_the_move_that_does_it_and_explain_others() {
        for game in GameKind::ALL {
            for (i, example) in text(game).1.iter().enumerate() {
                let last = example.moves.split_whitespace().last().unwrap();
                let right = answer(game, i, last).unwrap();
                assert!(right.solved, "{game} lesson {i}: {}", right.explanation);
                assert!(right.explanation.starts_with("Right."));
                let lesson = &lessons(game)[i];
                let wrong = (lesson.position.legal_moves.iter())
                    .find(|m| m.as_str() != last && m.as_str() != "pass" && m.as_str() != "end")
                    .unwrap();
                let answered = answer(game, i, wrong).unwrap();
                assert!(!answered.solved, "{game}: {wrong} solved lesson {i}");
                assert!(
                    answered.explanation.contains(example.hint),
                    "{}",
                    answered.explanation
                );
            }
        }
        assert!(matches!(
            answer(GameKind::Go, 0, "zz"),
            Err(LessonError::NotAMove(_))
        ));
        assert!(matches!(
            answer(GameKind::Go, 9, "aa"),
            Err(LessonError::NoLesson(..))
        ));
        let taken = answer(GameKind::Go, 0, "aa").unwrap();
        assert!(
            !taken.solved && taken.explanation.contains("not allowed"),
            "{}",
            taken.explanation
        );
    }
}

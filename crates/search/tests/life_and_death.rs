//! A collection of hand-made 9×9 problems of life and death, each with the one right move:
//! the vital point of a small eye space (nakade), to kill and to live, for six shapes;
//! ladders, where black takes the atari whose ladder works and white runs where a ladder
//! breaker lets it; and capturing races (semeai) between two chains of two liberties that
//! share one, which the side to move wins by taking the other chain's outside liberty, not
//! the shared one. The nakade problems sit on the left of a Go board whose right is settled,
//! with komi such that the problem decides the game (whole-board positions, as in GNU Go's
//! regression tests); the ladders and races are played in `capture-go` with a target of one
//! stone, where a capture decides. The bot is `strong`'s search with a fixed budget of
//! simulations instead of its second (so that the result does not depend on the machine),
//! and must play the right move under at least two of three seeds: a search is a sample,
//! and a problem it gets right only by luck fails under two.

use toroid_rules::games::capture_go::CAPTURE_GO_PARAMS;
use toroid_rules::games::go::GO_PARAMS;
use toroid_rules::games::Go;
use toroid_rules::{AnyGame, Bot, Cell, Color, Move, Params, Position};
use toroid_search::games::go::ladder::captured_in_ladder;
use toroid_search::{Budget, Level, Mcts};

const SIZE: usize = 9;

/// Simulations per problem: about what `strong` runs in its second on one core.
const SIMULATIONS: u64 = 20_000;

fn at(x: usize, y: usize) -> Cell {
    Cell((y * SIZE + x) as u16)
}

/// The problem's own stones, `black` and `white`, on the left six columns; the rest of the
/// board is settled (a black wall on the seventh column, a white wall on the eighth, white's
/// territory on the ninth), with komi such that the white group of `white_group` points (its
/// stones and its eye space) decides the game: alive, white wins, dead, black wins.
fn position(
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    white_group: usize,
    to_move: Color,
) -> Go {
    // Area: black has the left and its wall (63 points) less the white group; white has its
    // wall and territory (18) and the group if it lives.
    let komi = 45.0 - white_group as f64 + 0.5;
    let params = Params::parse(GO_PARAMS, &[format!("komi={komi}")]).unwrap();
    let mut g = Go::go(&params).unwrap();
    let walls = (0..SIZE).flat_map(|y| [(6, y, Color::Black), (7, y, Color::White)]);
    let stones: Vec<_> = (black.iter().map(|&(x, y)| (x, y, Color::Black)))
        .chain(white.iter().map(|&(x, y)| (x, y, Color::White)))
        .chain(walls)
        .map(|(x, y, color)| (at(x, y), Some(color)))
        .collect();
    g.setup(&stones, to_move).unwrap();
    g
}

/// The cells within one step (of the eight around) of `cells`, on the board, not in them.
fn ring(cells: &[(usize, usize)], inside: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for &(x, y) in cells {
        for dy in -1i32..=1 {
            for dx in -1i32..=1 {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                if !(0..SIZE as i32).contains(&nx) || !(0..SIZE as i32).contains(&ny) {
                    continue;
                }
                let cell = (nx as usize, ny as usize);
                if !cells.contains(&cell) && !inside.contains(&cell) && !out.contains(&cell) {
                    out.push(cell);
                }
            }
        }
    }
    out
}

/// A white group whose only eye space is `space`, walled in by black: white's wall is every
/// point around the space, black's every point around the wall.
fn eye_space(space: &[(usize, usize)], to_move: Color) -> Go {
    let wall = ring(space, &[]);
    let outside = ring(&wall, space);
    let g = position(&outside, &wall, wall.len() + space.len(), to_move);
    // The wall is one chain, its only liberties the eye space.
    let (x, y) = wall[0];
    assert_eq!(
        g.chain(at(x, y)).len(),
        wall.len(),
        "{space:?}: the wall is split"
    );
    for &(wx, wy) in &wall {
        for n in g.topology().adjacent(at(wx, wy)) {
            let (nx, ny) = g.topology().xy(n);
            let free = g.stone(n).is_none();
            assert!(
                !free || space.contains(&(nx, ny)),
                "{space:?}: a liberty outside"
            );
        }
    }
    g
}

/// What the bot plays in `go`, for `seed`.
fn bot_move(go: &Go, seed: u64) -> Move {
    let mut config = Level::Strong.search_config().expect("strong searches");
    config.budget = Budget::Playouts(SIMULATIONS);
    Mcts::new("strong", config, seed).choose(&AnyGame::Go(go.clone()), None)
}

/// Points of the board by `(x, y)`.
type Points = &'static [(usize, usize)];

struct Problem {
    name: &'static str,
    position: Go,
    answer: (usize, usize),
}

/// Each unsettled eye shape, its vital point, black to kill and white to live.
fn nakade() -> Vec<Problem> {
    let shapes: [(&str, Points, (usize, usize)); 6] = [
        ("straight three", &[(0, 0), (1, 0), (2, 0)], (1, 0)),
        ("bent three", &[(0, 0), (1, 0), (0, 1)], (0, 0)),
        ("pyramid four", &[(1, 0), (2, 0), (3, 0), (2, 1)], (2, 0)),
        (
            "bulky five",
            &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)],
            (1, 0),
        ),
        (
            "cross five",
            &[(3, 2), (2, 3), (3, 3), (4, 3), (3, 4)],
            (3, 3),
        ),
        (
            "rabbity six",
            &[(2, 2), (1, 3), (2, 3), (3, 3), (2, 4), (3, 4)],
            (2, 3),
        ),
    ];
    let mut problems = Vec::new();
    for (shape, space, vital) in shapes {
        for (to_move, name) in [(Color::Black, "kill"), (Color::White, "live")] {
            problems.push(Problem {
                name: leak(format!("{shape}: {name}")),
                position: eye_space(space, to_move),
                answer: vital,
            });
        }
    }
    problems
}

/// A lone white stone with two liberties, chased by black's ataris in `capture-go` with a
/// target of one stone, where a capture decides the game: from the right the ladder runs
/// down to the lower left, from below up to the upper right, and a white stone further along
/// one of the two ways breaks that ladder. `flip` turns the board upside down. Black to move
/// takes the atari whose ladder works; white to move, after black's atari on the broken side,
/// runs out of it.
fn ladders() -> Vec<Problem> {
    let black = [(1, 4), (2, 3), (3, 5)];
    let stone = (2, 4);
    let (right, below) = ((3, 4), (2, 5));
    // Breakers found by reading every cell: (5, 3) breaks the ladder from below, (1, 6) the
    // one from the right.
    let layouts = [
        ("breaker up", (5, 3), right, below),
        ("breaker down", (1, 6), below, right),
    ];
    let mut problems = Vec::new();
    for flip in [false, true] {
        let f = |(x, y): (usize, usize)| if flip { (x, SIZE - 1 - y) } else { (x, y) };
        let cell = |p: (usize, usize)| at(f(p).0, f(p).1);
        for (layout, breaker, works, fails) in layouts {
            let params = Params::parse(CAPTURE_GO_PARAMS, &["target=1"]).unwrap();
            let mut caught = Go::capture_go(&params).unwrap();
            let stones: Vec<_> = (black.iter().map(|&p| (cell(p), Some(Color::Black))))
                .chain([stone, breaker].map(|p| (cell(p), Some(Color::White))))
                .collect();
            caught.setup(&stones, Color::Black).unwrap();
            let mut broken = caught.clone();
            broken.play(Move::Place(cell(fails))).unwrap();
            // The premise: one side works, the other is broken.
            let mut chased = caught.clone();
            chased.play(Move::Place(cell(works))).unwrap();
            assert!(captured_in_ladder(&chased, cell(stone)));
            assert!(!captured_in_ladder(&broken, cell(stone)));
            let flipped = if flip { ", flipped" } else { "" };
            let name = |what: &str| leak(format!("ladder, {layout}{flipped}: {what}"));
            problems.push(Problem {
                name: name("capture"),
                position: caught,
                answer: f(works),
            });
            // White runs at its other liberty, the side that works for black.
            problems.push(Problem {
                name: name("escape"),
                position: broken,
                answer: f(works),
            });
        }
    }
    problems
}

/// A race in the top left corner, drawn as rows from the top: black's chain `A` has the
/// liberties `a` (outside) and `s` (shared), white's chain `B` has `s` and `b`; `X` and `O`
/// are black's and white's walls, each with five liberties or more. The chain that fills
/// the shared liberty puts itself in atari, so black to move wins only at `b` and white to
/// move only at `a`.
const RACE: [&str; 3] = ["aAAsBBbX", "OOAABXXX", ".OOOXX.."];

/// The race in every orientation of the corner (turned about the diagonal, mirrored left to
/// right), for black and for white to move.
fn races() -> Vec<Problem> {
    let mut problems = Vec::new();
    for (turned, mirrored) in [(false, false), (false, true), (true, false), (true, true)] {
        let place = |x: usize, y: usize| {
            let (x, y) = if turned { (y, x) } else { (x, y) };
            if mirrored {
                (SIZE - 1 - x, y)
            } else {
                (x, y)
            }
        };
        let mut stones = Vec::new();
        let mut marks = std::collections::HashMap::new();
        for (y, row) in RACE.iter().enumerate() {
            for (x, mark) in row.chars().enumerate() {
                let (px, py) = place(x, y);
                match mark {
                    'A' | 'X' => stones.push((at(px, py), Some(Color::Black))),
                    'B' | 'O' => stones.push((at(px, py), Some(Color::White))),
                    _ => {}
                }
                marks.insert(mark, (px, py));
            }
        }
        let params = Params::parse(CAPTURE_GO_PARAMS, &["target=1"]).unwrap();
        let mut race = Go::capture_go(&params).unwrap();
        race.setup(&stones, Color::Black).unwrap();
        let point = |mark: char| marks[&mark];
        let cell = |mark: char| at(point(mark).0, point(mark).1);
        // The premise: two liberties each, one of them shared; walls of five or more.
        let libs = |mark: char| race.liberties(cell(mark));
        assert_eq!((libs('A'), libs('B')), (2, 2));
        assert!(libs('X') >= 5 && libs('O') >= 5);
        let orientation = format!("turned {turned}, mirrored {mirrored}");
        for (to_move, answer, wrong) in [
            (Color::Black, 'b', ['a', 's']),
            (Color::White, 'a', ['b', 's']),
        ] {
            let mut position = race.clone();
            position.setup(&[], to_move).unwrap();
            // The premise, read out: the answer wins whatever the reply; the wrong moves
            // of the race, and a move elsewhere (a pass), lose to the opponent's answer.
            let mut after = position.clone();
            after.play(Move::Place(cell(answer))).unwrap();
            assert!(wins_whatever_the_reply(&after, to_move), "{orientation}");
            let reply = if answer == 'b' { 'a' } else { 'b' };
            for mv in wrong
                .map(|m| Move::Place(cell(m)))
                .into_iter()
                .chain([Move::Pass])
            {
                let mut after = position.clone();
                after.play(mv).unwrap();
                let mut answered = after.clone();
                let refuted = wins_at_once(&after, to_move.opponent())
                    || (answered.play(Move::Place(cell(reply))).is_ok()
                        && wins_whatever_the_reply(&answered, to_move.opponent()));
                assert!(refuted, "{orientation}: {to_move:?} {mv:?} should lose");
            }
            let side = if to_move == Color::Black {
                "black"
            } else {
                "white"
            };
            problems.push(Problem {
                name: leak(format!("race, {orientation}: {side} wins")),
                position,
                answer: point(answer),
            });
        }
    }
    problems
}

fn has_won(position: &Go, winner: Color) -> bool {
    position.outcome().and_then(|o| o.winner) == Some(winner)
}

/// Whether `winner`, to move in `position`, wins with the next move (or has won).
fn wins_at_once(position: &Go, winner: Color) -> bool {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    has_won(position, winner)
        || moves.iter().any(|&mv| {
            let mut g = position.clone();
            g.play(mv).is_ok() && has_won(&g, winner)
        })
}

/// Whether `winner`, with the opponent to move in `position`, wins with the next move
/// whatever the opponent plays (or has won).
fn wins_whatever_the_reply(position: &Go, winner: Color) -> bool {
    if position.outcome().is_some() {
        return has_won(position, winner);
    }
    let mut replies = Vec::new();
    position.legal_moves(&mut replies);
    replies.iter().all(|&reply| {
        let mut g = position.clone();
        g.play(reply).unwrap();
        wins_at_once(&g, winner)
    })
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

#[test]
fn the_bot_solves_every_problem() {
    let problems: Vec<Problem> = (nakade().into_iter().chain(ladders()).chain(races())).collect();
    assert!(problems.len() >= 20);
    let mut misses = Vec::new();
    let mut unsolved = Vec::new();
    for problem in &problems {
        let (x, y) = problem.answer;
        let answer = Move::Place(at(x, y));
        let mut missed = 0;
        for seed in 1..=3 {
            let mv = bot_move(&problem.position, seed);
            if mv != answer {
                missed += 1;
                misses.push(format!(
                    "{} (seed {seed}): played {}, not {}",
                    problem.name,
                    mv.notation(problem.position.topology()),
                    answer.notation(problem.position.topology())
                ));
            }
        }
        if missed >= 2 {
            unsolved.push(problem.name);
        }
    }
    // The misses under one seed, for the record (docs/strength.md lists them).
    eprintln!("{} problems, misses: {misses:#?}", problems.len());
    assert!(
        unsolved.is_empty(),
        "unsolved: {unsolved:#?}; misses: {misses:#?}"
    );
}

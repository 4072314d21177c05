//! Learned move patterns: shapes and their symmetries, the learning itself on data drawn
//! from known strengths, the pattern files, Go's tactical features, the playout reply and
//! the switch that leaves the patterns out.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::games::go::GO_PARAMS;
use toroid_rules::games::Go;
use toroid_rules::{AnyGame, Cell, Color, GameKind, Move, Params, Position};
use toroid_search::knowledge::Knowledge;
use toroid_search::learned::{
    self, fit, learn, shape, Candidate, Features, Near, Patterns, Sample, Symmetry,
};
use toroid_search::{Level, Tuning};

/// A 9×9 Go position from the points of its stones.
fn go(black: &[(usize, usize)], white: &[(usize, usize)], to_move: Color) -> Go {
    let mut g = Go::go(&Params::parse(GO_PARAMS, &[] as &[&str]).unwrap()).unwrap();
    let stones: Vec<_> = (black.iter().map(|&(x, y)| (at(x, y), Some(Color::Black))))
        .chain(white.iter().map(|&(x, y)| (at(x, y), Some(Color::White))))
        .collect();
    g.setup(&stones, to_move).unwrap();
    g
}

fn at(x: usize, y: usize) -> Cell {
    Cell((y * 9 + x) as u16)
}

/// A small shape: black stones at (2, 1) and (3, 2), a white one at (2, 2); the point to
/// play is (3, 1).
const BLACK: [(usize, usize); 2] = [(2, 1), (3, 2)];
const WHITE: [(usize, usize); 1] = [(2, 2)];
const POINT: (usize, usize) = (3, 1);

/// Points turned a quarter, or mirrored left to right.
fn turned((x, y): (usize, usize)) -> (usize, usize) {
    (8 - y, x)
}
fn mirrored((x, y): (usize, usize)) -> (usize, usize) {
    (8 - x, y)
}

#[test]
fn a_shape_is_the_same_turned_mirrored_and_from_the_other_side() {
    let key = |map: fn((usize, usize)) -> (usize, usize), swap: bool, me: Color, point| {
        let (black, white): (Vec<_>, Vec<_>) = (
            BLACK.iter().map(|&p| map(p)).collect(),
            WHITE.iter().map(|&p| map(p)).collect(),
        );
        let g = if swap {
            go(&white, &black, me)
        } else {
            go(&black, &white, me)
        };
        let (x, y) = map(point);
        shape(&g, at(x, y), me, Symmetry::Full)
    };
    let same = |p| p;
    let base = key(same, false, Color::Black, POINT);
    assert_eq!(key(turned, false, Color::Black, POINT), base);
    assert_eq!(key(mirrored, false, Color::Black, POINT), base);
    assert_eq!(key(same, true, Color::White, POINT), base);
    // Another point, or the other player, is another shape.
    assert_ne!(key(same, false, Color::Black, (1, 2)), base);
    assert_ne!(key(same, false, Color::White, POINT), base);
    // Oriented shapes keep the direction and the colour.
    let g = go(&BLACK, &WHITE, Color::Black);
    let oriented = shape(&g, at(3, 1), Color::Black, Symmetry::Oriented);
    let turned_black: Vec<_> = BLACK.iter().map(|&p| turned(p)).collect();
    let turned_white: Vec<_> = WHITE.iter().map(|&p| turned(p)).collect();
    let t = go(&turned_black, &turned_white, Color::Black);
    assert_ne!(
        shape(&t, at(7, 3), Color::Black, Symmetry::Oriented),
        oriented
    );
    assert_ne!(
        shape(&g, at(3, 1), Color::White, Symmetry::Oriented),
        oriented
    );
}

#[test]
fn near_tells_the_last_move_from_the_one_before() {
    let g = go(&BLACK, &WHITE, Color::Black);
    let recent = [
        (Move::Place(at(2, 1)), Color::Black),
        (Move::Place(at(2, 2)), Color::White),
    ];
    assert_eq!(learned::near(&g, at(3, 3), &recent), Near::Last);
    assert_eq!(learned::near(&g, at(3, 0), &recent), Near::Previous);
    assert_eq!(learned::near(&g, at(6, 6), &recent), Near::Far);
    assert_eq!(learned::near(&g, at(3, 3), &[]), Near::Far);
}

/// Positions drawn from a known model: each has 10 to 30 candidates with random features,
/// and the move chosen with probability proportional to the true strengths.
fn planted(count: usize, shapes: &[f64], near: [f64; 3], tactic: f64) -> Vec<Sample> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    (0..count)
        .map(|_| {
            let candidates: Vec<Candidate> = (0..rng.random_range(10..30))
                .map(|_| {
                    Candidate::Place(Features {
                        shape: rng.random_range(0..shapes.len() as u32),
                        near: [Near::Far, Near::Last, Near::Previous][rng.random_range(0..3)],
                        tactics: u8::from(rng.random_bool(0.2)),
                    })
                })
                .chain(std::iter::once(Candidate::Pass))
                .collect();
            let strength = |c: &Candidate| match c {
                Candidate::Pass => 0.5,
                Candidate::Place(f) => {
                    shapes[f.shape as usize]
                        * near[f.near as usize]
                        * if f.tactics == 1 { tactic } else { 1.0 }
                }
            };
            let total: f64 = candidates.iter().map(strength).sum();
            let mut draw = rng.random::<f64>() * total;
            let chosen = candidates
                .iter()
                .position(|c| {
                    draw -= strength(c);
                    draw < 0.0
                })
                .unwrap_or(candidates.len() - 1);
            Sample { candidates, chosen }
        })
        .collect()
}

#[test]
fn learning_recovers_the_strengths_the_moves_were_chosen_by() {
    let shapes = [1.0, 4.0, 0.25, 2.0, 8.0, 0.5];
    let samples = planted(6_000, &shapes, [1.0, 3.0, 1.5], 5.0);
    let patterns = learn(&samples, 40);
    let gamma = |shape: u32, near: Near, tactics: u8| {
        f64::from(patterns.gamma(&Candidate::Place(Features {
            shape,
            near,
            tactics,
        })))
    };
    // Strengths are known up to one common factor: compare ratios.
    let base = gamma(0, Near::Far, 0);
    for (s, &truth) in shapes.iter().enumerate() {
        let ratio = gamma(s as u32, Near::Far, 0) / base;
        assert!(
            (ratio / truth - 1.0).abs() < 0.15,
            "shape {s}: learned {ratio:.3}, true {truth}"
        );
    }
    let near = gamma(0, Near::Last, 0) / base;
    assert!(
        (near / 3.0 - 1.0).abs() < 0.15,
        "near the last move: {near:.3}"
    );
    let tactic = gamma(0, Near::Far, 1) / base;
    assert!((tactic / 5.0 - 1.0).abs() < 0.15, "tactic: {tactic:.3}");
    let pass = f64::from(patterns.gamma(&Candidate::Pass)) / base;
    assert!((pass / 0.5 - 1.0).abs() < 0.2, "pass: {pass:.3}");
    // And they predict new positions of the same model better than knowing nothing.
    let test = planted(1_000, &shapes, [1.0, 3.0, 1.5], 5.0);
    let (learned, hits) = fit(&patterns, &test);
    let (uniform, uniform_hits) = fit(&Patterns::none(), &test);
    assert!(learned > uniform + 0.2, "{learned} against {uniform}");
    assert!(hits > 2.0 * uniform_hits, "{hits} against {uniform_hits}");
}

#[test]
fn pattern_files_read_back_what_was_written_and_refuse_damage() {
    let patterns = learn(&planted(500, &[1.0, 3.0], [1.0, 2.0, 1.0], 2.0), 10);
    let text = patterns.to_text("a header\nof two lines");
    assert!(text.starts_with("# a header\n# of two lines\n"));
    let read = Patterns::parse(&text).unwrap();
    assert_eq!(read.to_text("a header\nof two lines"), text);
    assert!(!read.is_empty());
    for damaged in [
        "pass",
        "pass -1",
        "pass 0",
        "pass NaN",
        "near 3 1.0",
        "tactic 8 1.0",
        "shape 131072 1.0",
        "shape 12",
        "shape x 1.0",
        "colour 1 1.0",
        "near 1 2.0 3.0",
    ] {
        let err = Patterns::parse(damaged).unwrap_err();
        assert!(err.contains("line 1"), "{damaged}: {err}");
    }
    assert!(Patterns::parse("# nothing learned\n").unwrap().is_empty());
    // Shapes not listed share the rare shapes' strength, wherever that line stands.
    let read = Patterns::parse("shape 7 3.0\nrare 2.5\n").unwrap();
    assert_eq!((read.shape_gamma(7), read.shape_gamma(8)), (3.0, 2.5));
}

#[test]
fn every_rule_set_has_learned_patterns_built_in() {
    for kind in GameKind::ALL {
        let game: AnyGame = kind.default_game();
        let patterns = toroid_rules::with_game!(&game, g => g.patterns());
        assert!(!patterns.is_empty(), "{}", kind.name());
    }
}

#[test]
fn go_tactics_name_captures_escapes_ataris_and_self_ataris() {
    const CAPTURE: u8 = 1;
    const ESCAPE: u8 = 2;
    const SELF_ATARI: u8 = 4;
    const LONE_SELF_ATARI: u8 = 8;
    const ATARI: u8 = 16;
    // A white stone with one liberty, at (4, 5): black takes it, white runs out.
    let g = go(&[(3, 4), (5, 4), (4, 3)], &[(4, 4)], Color::Black);
    assert_eq!(g.tactics(at(4, 5), Color::Black), CAPTURE);
    assert_eq!(g.tactics(at(4, 5), Color::White), ESCAPE);
    // The same stone with two liberties: either is an atari; a cell away from it nothing.
    let g = go(&[(3, 4), (5, 4)], &[(4, 4)], Color::Black);
    assert_eq!(g.tactics(at(4, 3), Color::Black), ATARI);
    assert_eq!(g.tactics(at(4, 5), Color::Black), ATARI);
    assert_eq!(g.tactics(at(7, 7), Color::Black), 0);
    // In the corner beside a white stone, black's lone stone keeps one liberty.
    let g = go(&[], &[(1, 0)], Color::Black);
    assert_eq!(g.tactics(at(0, 0), Color::Black), LONE_SELF_ATARI);
    // Joined to a black stone under a white wall, two stones keep one liberty.
    let g = go(&[(0, 1)], &[(1, 0), (1, 1)], Color::Black);
    assert_eq!(g.tactics(at(0, 0), Color::Black), SELF_ATARI);
}

#[test]
fn the_reply_is_an_empty_cell_around_the_last_move_or_none() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let g = go(&BLACK, &WHITE, Color::Black);
    let last = at(2, 2);
    let ring: Vec<Cell> = g.topology().ring(last).iter().flatten().copied().collect();
    let mut replies = 0;
    for _ in 0..2_000 {
        if let Some(c) = learned::reply(&g, last, Color::Black, &mut rng) {
            assert!(ring.contains(&c) && g.stone(c).is_none(), "{c:?}");
            replies += 1;
        }
    }
    // Six empty cells around the last move against 72 elsewhere: some replies, not all.
    assert!((20..1_900).contains(&replies), "{replies} replies");
}

/// Switching the patterns off (`Tuning::patterns`, which `toroid gtp --no-patterns` sets)
/// changes the moves of a fixed-budget bot, and the same seed still gives the same game.
#[test]
fn a_bot_without_patterns_plays_other_moves() {
    let game_of = |patterns: bool| {
        let tuning = Tuning {
            patterns: Some(patterns),
            ..Tuning::default()
        };
        let mut bot = Level::Beginner.bot_with(5, tuning);
        let mut game = GameKind::HexTorus.default_game();
        let mut moves = Vec::new();
        for _ in 0..12 {
            let mv = bot.choose(&game, None);
            game.play(mv).expect("the bot plays legal moves");
            moves.push(mv);
        }
        moves
    };
    let without = game_of(false);
    assert_eq!(without, game_of(false));
    assert_ne!(without, game_of(true));
}

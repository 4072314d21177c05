//! Setting up stones outside the rules (`Position::setup`) on every rule set.

mod support;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use support::{at, mv, play_line};
use toroid_rules::{
    random_playout, AnyGame, Cell, Color, GameKind, Position, SetupChange, SetupError,
};

fn game(kind: GameKind, params: &[&str]) -> AnyGame {
    kind.new_game(params).unwrap()
}

fn changes(g: &AnyGame, black: &[&str], white: &[&str], empty: &[&str]) -> Vec<SetupChange> {
    let cell = |s: &&str| mv(g, s).cell().unwrap();
    black
        .iter()
        .map(|s| (cell(s), Some(Color::Black)))
        .chain(white.iter().map(|s| (cell(s), Some(Color::White))))
        .chain(empty.iter().map(|s| (cell(s), None)))
        .collect()
}

fn stones(g: &AnyGame) -> Vec<Option<Color>> {
    g.topology().cells().map(|c| g.stone(c)).collect()
}

/// A refused setup leaves the stones, the hash and the turn as they were.
fn assert_refused(g: &mut AnyGame, setup: &[SetupChange], to_move: Color, why: SetupError) {
    let (before, hash, turn) = (stones(g), g.hash(), g.turn());
    assert_eq!(g.setup(setup, to_move), Err(why));
    assert_eq!((stones(g), g.hash(), g.turn()), (before, hash, turn));
}

#[test]
fn go_handicap_stones_then_white_moves() {
    let mut g = game(GameKind::Go, &[]);
    let handicap = changes(&g, &["cc", "gg", "cg", "gc"], &[], &[]);
    g.setup(&handicap, Color::White).unwrap();
    assert_eq!(g.turn(), Some(Color::White));
    assert_eq!(at(&g, "gg"), Some(Color::Black));
    assert_eq!(g.ply(), 0);
    play_line(&mut g, "ee dd");
    let AnyGame::Go(go) = &g else { unreachable!() };
    go.check_consistency().unwrap();
}

#[test]
fn go_refuses_a_chain_without_liberties() {
    let mut g = game(GameKind::Go, &["size=5"]);
    // A white stone in the corner with black on both sides has no liberty.
    let setup = changes(&g, &["ba", "ab"], &["aa"], &[]);
    assert_refused(&mut g, &setup, Color::Black, SetupError::NoLiberties);
    // Emptying a cell in the same setup gives it its liberty back.
    let setup = changes(&g, &["ba", "ab"], &["aa"], &["ab"]);
    g.setup(&setup, Color::Black).unwrap();
    assert_eq!(at(&g, "ab"), None);
    assert_eq!(at(&g, "aa"), Some(Color::White));
}

#[test]
fn go_ko_holds_after_setup() {
    // Black's `cb` takes the white stone on `bb`; white may not take back at once.
    let mut g = game(GameKind::Go, &["size=5"]);
    let setup = changes(&g, &["ba", "ab", "bc"], &["ca", "bb", "db", "cc"], &[]);
    g.setup(&setup, Color::Black).unwrap();
    play_line(&mut g, "cb");
    assert_eq!(at(&g, "bb"), None);
    assert_eq!(g.check(mv(&g, "bb")), Err(toroid_rules::IllegalMove::Ko));
}

#[test]
fn setup_off_the_board_or_after_the_end_is_refused() {
    let mut g = game(GameKind::Go, &["size=5"]);
    assert_refused(
        &mut g,
        &[(Cell(25), Some(Color::Black))],
        Color::Black,
        SetupError::OffBoard,
    );
    play_line(&mut g, "pass pass");
    assert_refused(&mut g, &[], Color::Black, SetupError::GameOver);
}

#[test]
fn torus_refuses_a_surrounded_stone_and_restarts_the_history() {
    let mut g = game(GameKind::Torus, &["size=5"]);
    let setup = changes(&g, &["cb", "bc", "dc", "cd"], &["cc"], &[]);
    assert_refused(&mut g, &setup, Color::Black, SetupError::Surrounded);
    let setup = changes(&g, &["cb", "bc", "dc"], &["cc"], &[]);
    g.setup(&setup, Color::Black).unwrap();
    // Black surrounds the white stone and wins.
    play_line(&mut g, "cd");
    assert_eq!(g.outcome().unwrap().winner, Some(Color::Black));
}

#[test]
fn ctor_refuses_stones_that_would_turn_over_and_full_boards() {
    let mut g = game(GameKind::Ctor, &["size=4"]);
    let setup = changes(&g, &["aa", "ba", "ca", "ab", "cb"], &["bb"], &[]);
    assert_refused(&mut g, &setup, Color::Black, SetupError::WouldTurnOver);
    let all: Vec<SetupChange> = g
        .topology()
        .cells()
        .map(|c| (c, Some(Color::Black)))
        .collect();
    assert_refused(&mut g, &all, Color::White, SetupError::BoardFull);
    let setup = changes(&g, &["aa", "ba", "ca", "ab"], &["bb"], &[]);
    g.setup(&setup, Color::Black).unwrap();
    // The fifth black neighbour turns the white stone over; a setup turn has two placements.
    play_line(&mut g, "cb");
    assert_eq!(at(&g, "bb"), Some(Color::Black));
    assert_eq!(g.turn(), Some(Color::Black));
}

#[test]
fn loop_games_refuse_a_winning_loop_and_find_one_completed_after_setup() {
    let mut g = game(GameKind::HexTorus, &[]);
    let ring = ["aa", "ab", "ac", "ad", "ae", "af", "ag", "ah"];
    let setup = changes(&g, &ring, &[], &[]);
    assert_refused(&mut g, &setup, Color::Black, SetupError::WinningLoop);
    let setup = changes(&g, &ring[..7], &["ea"], &[]);
    g.setup(&setup, Color::Black).unwrap();
    play_line(&mut g, "ah");
    assert_eq!(g.outcome().unwrap().winner, Some(Color::Black));

    let mut m = game(GameKind::MTorus, &[]);
    let column = ["ea", "eb", "ec", "ed", "ee", "ef", "eg", "eh", "ei"];
    let setup = changes(&m, &[], &column, &[]);
    assert_refused(&mut m, &setup, Color::Black, SetupError::WinningLoop);
    let setup = changes(&m, &[], &column[1..], &[]);
    m.setup(&setup, Color::White).unwrap();
    play_line(&mut m, "ea");
    assert_eq!(m.outcome().unwrap().winner, Some(Color::White));
}

proptest! {
    #![proptest_config(toroid_testkit::cases(96))]

    /// After random play, a random setup either is refused and changes nothing, or puts
    /// exactly the asked stones on the board, gives the turn as asked, and the game plays on
    /// to its end with legal moves only.
    #[test]
    fn random_setups_are_exact_or_change_nothing(
        kind in prop::sample::select(GameKind::ALL.to_vec()),
        seed: u64,
    ) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut g = kind.default_game();
        for _ in 0..rng.random_range(0..20) {
            if let Some(m) = g.uniform_move(&mut rng) {
                g.play(m).unwrap();
            }
        }
        let n = g.topology().len() as u16;
        let setup: Vec<SetupChange> = (0..rng.random_range(0..8))
            .map(|_| {
                let stone = [None, Some(Color::Black), Some(Color::White)][rng.random_range(0..3)];
                (Cell(rng.random_range(0..n)), stone)
            })
            .collect();
        let to_move = if rng.random() { Color::Black } else { Color::White };
        let (before, hash) = (stones(&g), g.hash());
        let mut expected = before.clone();
        for &(c, s) in &setup {
            expected[c.index()] = s;
        }
        match g.setup(&setup, to_move) {
            Ok(()) => {
                let empty = expected.iter().filter(|s| s.is_none()).count();
                prop_assert_eq!(g.empty_cells(), empty);
                prop_assert_eq!(stones(&g), expected);
                prop_assert_eq!(g.turn(), Some(to_move));
                match &g {
                    AnyGame::Go(go) => prop_assert!(go.check_consistency().is_ok()),
                    AnyGame::Ctor(ctor) => prop_assert_eq!(ctor.check_consistency(), Ok(())),
                    _ => {}
                }
                random_playout(&mut g, &mut rng);
                prop_assert!(g.outcome().is_some());
            }
            Err(_) => {
                prop_assert_eq!(stones(&g), before);
                prop_assert_eq!(g.hash(), hash);
            }
        }
    }
}

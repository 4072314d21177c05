//! The symmetries each rule set lists keep its rules: a random game and its image under
//! every symmetry, played move for move, have the same legal moves at every step and end
//! alike; and each board has the symmetries its surface should.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{symmetries, AnyGame, Cell, GameKind, Move, Position};

/// Small boards of every rule set and Go's every surface.
const BOARDS: &[(GameKind, &[&str])] = &[
    (GameKind::Torus, &["size=5"]),
    (GameKind::HexTorus, &["width=4", "height=4"]),
    (GameKind::MTorus, &["width=4", "height=5"]),
    (GameKind::Ctor, &["size=4"]),
    (GameKind::CaptureGo, &["size=4", "target=2"]),
    (
        GameKind::CaptureGo,
        &["size=4", "target=2", "topology=torus"],
    ),
    (GameKind::Go, &["size=4"]),
    (GameKind::Go, &["size=4", "topology=cylinder"]),
    (GameKind::Go, &["size=4", "topology=mobius"]),
    (GameKind::Go, &["size=4", "topology=torus"]),
    (GameKind::Go, &["size=4", "topology=klein"]),
    (GameKind::Go, &["size=4", "topology=projective"]),
];

fn image(mv: Move, map: &[Cell]) -> Move {
    match mv {
        Move::Place(cell) => Move::Place(map[cell.index()]),
        other => other,
    }
}

fn legal(game: &AnyGame) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

#[test]
fn every_symmetry_keeps_the_rules_of_random_games() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for &(kind, params) in BOARDS {
        let start = kind.new_game(params).expect("parameters fit");
        let maps = symmetries(start.topology(), kind.rule_set().symmetries);
        let identity: Vec<Cell> = start.topology().cells().collect();
        assert_eq!(
            maps[0], identity,
            "{kind} {params:?}: the identity comes first"
        );
        for _ in 0..12 {
            let mut game = start.clone();
            let mut images: Vec<AnyGame> = vec![start.clone(); maps.len()];
            while game.outcome().is_none() {
                let moves = legal(&game);
                for (map, other) in maps.iter().zip(&images) {
                    let mut mapped: Vec<Move> = moves.iter().map(|&m| image(m, map)).collect();
                    let mut theirs = legal(other);
                    mapped.sort_unstable_by_key(|m| m.index(identity.len()));
                    theirs.sort_unstable_by_key(|m| m.index(identity.len()));
                    assert_eq!(mapped, theirs, "{kind} {params:?}: legal moves differ");
                }
                let mv = moves[rng.random_range(0..moves.len())];
                game.play(mv).expect("legal");
                for (map, other) in maps.iter().zip(&mut images) {
                    other.play(image(mv, map)).expect("the image is legal");
                }
            }
            for other in &images {
                assert_eq!(
                    other.outcome(),
                    game.outcome(),
                    "{kind} {params:?}: results differ"
                );
            }
        }
    }
}

#[test]
fn boards_have_the_symmetries_of_their_surfaces() {
    let count = |kind: GameKind, params: &[&str]| {
        let game = kind.new_game(params).unwrap();
        symmetries(game.topology(), kind.rule_set().symmetries).len()
    };
    // A square plane board: its eight rotations and reflections, no shift.
    assert_eq!(count(GameKind::Go, &["size=9"]), 8);
    // A square torus: every shift of each of the eight.
    assert_eq!(count(GameKind::Go, &["size=9", "topology=torus"]), 8 * 81);
    // A cylinder wraps one way: shifts along it, with the reflections that keep its edges.
    assert_eq!(count(GameKind::Go, &["size=5", "topology=cylinder"]), 4 * 5);
    // Hex-torus: shifts only, by whole pairs of rows (the odd-r layout).
    assert_eq!(count(GameKind::HexTorus, &[]), 8 * 8 / 2);
}

//! Random playouts per second for every rule set at its defaults, on one core, and the cost
//! of a legal-move mask (what `toroid.VectorEnv` writes for every game every step).
//!
//! `cargo bench -p toroid-rules --bench playouts` (add `-- go` to run only the entries whose
//! name contains "go"). One element of throughput is one playout from the empty board, or
//! one mask.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{random_playout, AnyGame, GameKind, Move, Position};

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    for kind in GameKind::ALL {
        group.bench_function(kind.name(), |b| {
            let start = kind.default_game();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            b.iter(|| {
                let mut game = start.clone();
                random_playout(&mut game, &mut rng)
            });
        });
    }
    group.finish();
}

/// Masks along the positions of random games (uniform among the legal moves, so eyes get
/// filled and suicides come up), each position's mask in turn.
fn legal_masks(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_mask");
    group.throughput(Throughput::Elements(1));
    for kind in GameKind::ALL {
        let start = kind.default_game();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut positions: Vec<AnyGame> = Vec::new();
        while positions.len() < 1_000 {
            let mut game = start.clone();
            while let Some(mv) = game.uniform_move(&mut rng) {
                positions.push(game.clone());
                game.play(mv).expect("a uniform move is legal");
            }
        }
        let mut mask = vec![false; start.topology().len() + Move::BEYOND_CELLS];
        group.bench_function(kind.name(), |b| {
            let mut next = positions.iter().cycle();
            b.iter(|| {
                let position = next.next().expect("positions");
                position.legal_mask(&mut mask);
                mask[0]
            });
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, legal_masks);
criterion_main!(benches);

//! Random playouts per second for every rule set at its defaults, on one core.
//!
//! `cargo bench -p toroid-rules --bench playouts` (add `-- go` to run only the entries whose
//! name contains "go"). One element of throughput is one playout from the empty board.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{random_playout, GameKind};

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

criterion_group!(benches, playouts);
criterion_main!(benches);

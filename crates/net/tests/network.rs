//! The network computes what its weights say (against a plain-loop reference that reads the
//! same safetensors file), keeps it through a save and a load, gives priors only to legal
//! moves, and learns.

use std::collections::HashMap;

use toroid_net::encoding::{action_count, write_observation, PLANES};
use toroid_net::stencil::reads;
use toroid_net::{Device, Network, Sample, Shape, Stencil, Tensor, Trainer};
use toroid_rules::{AnyGame, GameKind, Move, Position};

fn played(kind: GameKind, moves: usize, seed: u64) -> AnyGame {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = kind.default_game();
    let mut legal = Vec::new();
    for _ in 0..moves {
        legal.clear();
        game.legal_moves(&mut legal);
        if game.outcome().is_some() || legal.is_empty() {
            break;
        }
        game.play_legal(legal[rng.random_range(0..legal.len())]);
    }
    game
}

fn observation(game: &AnyGame) -> Vec<f32> {
    let cells = game.topology().len();
    let mut mask = vec![false; action_count(game.topology())];
    game.legal_mask(&mut mask);
    let mut out = vec![0.0; PLANES * cells];
    write_observation(game, game.turn().unwrap(), &mask, &mut Vec::new(), &mut out);
    out
}

/// The network's function in plain loops over the weights of a safetensors file.
fn reference(weights: &HashMap<String, Tensor>, game: &AnyGame) -> (Vec<f32>, f32) {
    let matrix = |name: &str| -> Vec<Vec<f32>> { weights[name].to_vec2().unwrap() };
    let vector = |name: &str| -> Vec<f32> { weights[name].to_vec1().unwrap() };
    let topology = game.topology();
    let cells = topology.len();
    let stencil: Vec<Vec<Option<usize>>> = (topology.cells())
        .map(|c| {
            reads(topology, c)
                .iter()
                .map(|r| r.map(|c| c.index()))
                .collect()
        })
        .collect();
    // A convolution: out[i][o] = bias[o] + Σ_k Σ_c x[stencil[i][k]][c] · w[k·C + c][o].
    let conv = |x: &Vec<Vec<f32>>, layer: &str| -> Vec<Vec<f32>> {
        let (w, b) = (
            matrix(&format!("{layer}.weight")),
            vector(&format!("{layer}.bias")),
        );
        let channels = x[0].len();
        (0..cells)
            .map(|i| {
                (0..b.len())
                    .map(|o| {
                        let mut sum = b[o];
                        for (k, read) in stencil[i].iter().enumerate() {
                            if let Some(j) = read {
                                for c in 0..channels {
                                    sum += x[*j][c] * w[k * channels + c][o];
                                }
                            }
                        }
                        sum
                    })
                    .collect()
            })
            .collect()
    };
    let dense = |x: &[f32], layer: &str| -> Vec<f32> {
        let (w, b) = (
            matrix(&format!("{layer}.weight")),
            vector(&format!("{layer}.bias")),
        );
        (0..b.len())
            .map(|o| b[o] + x.iter().zip(&w).map(|(v, row)| v * row[o]).sum::<f32>())
            .collect()
    };
    let relu = |x: Vec<Vec<f32>>| -> Vec<Vec<f32>> {
        x.into_iter()
            .map(|row| row.into_iter().map(|v| v.max(0.0)).collect())
            .collect()
    };
    let planes = observation(game);
    let input: Vec<Vec<f32>> = (0..cells)
        .map(|i| (0..PLANES).map(|p| planes[p * cells + i]).collect())
        .collect();
    let mut x = relu(conv(&input, "input"));
    let mut block = 0;
    while weights.contains_key(&format!("block{block}.conv1.weight")) {
        let h = relu(conv(&x, &format!("block{block}.conv1")));
        let h = conv(&h, &format!("block{block}.conv2"));
        x = relu(
            x.iter()
                .zip(&h)
                .map(|(a, b)| a.iter().zip(b).map(|(a, b)| a + b).collect())
                .collect(),
        );
        block += 1;
    }
    let channels = x[0].len();
    let pooled: Vec<f32> = (0..channels)
        .map(|c| x.iter().map(|row| row[c]).sum::<f32>() / cells as f32)
        .collect();
    let mut logits: Vec<f32> = x.iter().map(|row| dense(row, "policy.cells")[0]).collect();
    logits.extend(dense(&pooled, "policy.beyond"));
    let hidden: Vec<f32> = dense(&pooled, "value.hidden")
        .into_iter()
        .map(|v| v.max(0.0))
        .collect();
    let value = dense(&hidden, "value.out")[0].tanh();
    (logits, value)
}

/// A network whose every weight is random (a fresh one has zero biases and zero second
/// convolutions, which would hide mistakes there).
fn scrambled(shape: Shape) -> Network {
    let device = Device::Cpu;
    let network = Network::new(shape, 1, &device).unwrap();
    for var in network.vars().all_vars() {
        let noise = Tensor::randn(0f32, 0.3, var.shape(), &device).unwrap();
        var.set(&noise).unwrap();
    }
    network
}

#[test]
fn the_network_computes_what_its_weights_say_on_every_lattice() {
    let dir = tempfile::tempdir().unwrap();
    for kind in GameKind::ALL {
        let game = played(kind, 12, 3);
        let stencil = Stencil::new(game.topology(), &Device::Cpu).unwrap();
        let shape = Shape {
            stencil: stencil.width(),
            channels: 8,
            blocks: 2,
        };
        let network = scrambled(shape);
        let path = dir.path().join(format!("{kind:?}.safetensors"));
        network.save(&path).unwrap();
        let weights = candle_core::safetensors::load(&path, &Device::Cpu).unwrap();
        let loaded = Network::load(&path, &Device::Cpu).unwrap();
        assert_eq!(loaded.shape(), shape);
        let input = Tensor::from_vec(
            observation(&game),
            (1, PLANES, game.topology().len()),
            &Device::Cpu,
        )
        .unwrap();
        let (want_logits, want_value) = reference(&weights, &game);
        for net in [&network, &loaded] {
            let output = net.forward(&input, &stencil).unwrap();
            let logits: Vec<f32> = output.logits.squeeze(0).unwrap().to_vec1().unwrap();
            let value: f32 = output.values.squeeze(0).unwrap().to_scalar().unwrap();
            assert_eq!(logits.len(), want_logits.len());
            for (got, want) in logits.iter().zip(&want_logits) {
                assert!(
                    (got - want).abs() < 1e-3 * (1.0 + want.abs()),
                    "{kind:?}: {got} against {want}"
                );
            }
            assert!(
                (value - want_value).abs() < 1e-4,
                "{kind:?}: {value} against {want_value}"
            );
        }
    }
}

#[test]
fn priors_go_to_legal_moves_only() {
    let shape = Shape {
        stencil: 9,
        channels: 8,
        blocks: 1,
    };
    let network = scrambled(shape);
    let games = [
        played(GameKind::Torus, 10, 1),
        played(GameKind::Torus, 20, 2),
    ];
    let stencil = Stencil::new(games[0].topology(), &Device::Cpu).unwrap();
    let positions: Vec<&AnyGame> = games.iter().collect();
    let evaluations = network.evaluate(&positions, &stencil).unwrap();
    for (game, evaluation) in games.iter().zip(&evaluations) {
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let cells = game.topology().len();
        let legal: Vec<usize> = legal.iter().map(|m: &Move| m.index(cells)).collect();
        for (action, &p) in evaluation.priors.iter().enumerate() {
            assert_eq!(p > 0.0, legal.contains(&action), "action {action}: {p}");
        }
        let sum: f32 = evaluation.priors.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
        assert!(evaluation.value.abs() <= 1.0);
    }
}

#[test]
fn training_fits_a_small_set_of_targets() {
    let game = played(GameKind::HexTorus, 6, 5);
    let stencil = Stencil::new(game.topology(), &Device::Cpu).unwrap();
    let actions = action_count(game.topology());
    let samples: Vec<Sample> = (0..8)
        .map(|i| {
            let g = played(GameKind::HexTorus, 4 + i, i as u64);
            let mut policy = vec![0.0; actions];
            policy[i * 3] = 1.0;
            Sample {
                planes: observation(&g),
                policy,
                value: if i % 2 == 0 { 1.0 } else { -1.0 },
            }
        })
        .collect();
    let batch: Vec<&Sample> = samples.iter().collect();
    let network = Network::new(
        Shape {
            stencil: 7,
            channels: 16,
            blocks: 2,
        },
        4,
        &Device::Cpu,
    )
    .unwrap();
    let mut trainer = Trainer::new(std::sync::Arc::new(network), 3e-3).unwrap();
    let first = trainer.step(&batch, &stencil).unwrap();
    let mut last = first;
    for _ in 0..150 {
        last = trainer.step(&batch, &stencil).unwrap();
    }
    assert!(last.policy < first.policy / 4.0, "{first:?} then {last:?}");
    assert!(last.value < first.value / 4.0, "{first:?} then {last:?}");
}

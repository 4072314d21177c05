//! A self-play training run writes its folder and resumes from it.

use std::sync::Arc;

use toroid_net::{Device, Network, Shape};
use toroid_rules::GameKind;
use toroid_search::training::{self_play, train, SelfPlay, TrainConfig};

#[test]
fn a_training_run_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = TrainConfig {
        kind: GameKind::HexTorus,
        params: vec!["width=4".into(), "height=4".into()],
        dir: dir.path().to_path_buf(),
        shape: Shape {
            stencil: 0,
            channels: 8,
            blocks: 1,
        },
        from: None,
        simulations: 8,
        value_mix: 0.0,
        playout_share: 0.0,
        games: 2,
        workers: 2,
        window: 1_000,
        steps: 2,
        batch: 16,
        learning_rate: 1e-3,
        snapshot_every: 1,
        seed: 5,
        rounds: Some(1),
        seconds: None,
    };
    let mut rounds = Vec::new();
    let first = train(&config, |r| rounds.push(r.progress.rounds)).unwrap();
    assert_eq!((first.rounds, first.games), (1, 2));
    assert!(first.samples >= 2 * 4, "{first:?}");
    let after_one = std::fs::read(dir.path().join("network.safetensors")).unwrap();
    // A second session goes on from round 1 to round 3, with the window and the weights.
    config.rounds = Some(3);
    let resumed = train(&config, |r| rounds.push(r.progress.rounds)).unwrap();
    assert_eq!(rounds, [1, 2, 3]);
    assert_eq!((resumed.rounds, resumed.games), (3, 6));
    assert!(resumed.samples > first.samples);
    let log = std::fs::read_to_string(dir.path().join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
    for round in 1..=3 {
        let snapshot = dir
            .path()
            .join(format!("networks/round-{round}.safetensors"));
        let network = Network::load(&snapshot, &Device::Cpu).unwrap();
        assert_eq!(
            network.shape(),
            Shape {
                stencil: 7,
                channels: 8,
                blocks: 1
            }
        );
    }
    let after_three = std::fs::read(dir.path().join("network.safetensors")).unwrap();
    assert_ne!(after_one, after_three, "training changed the weights");
    // A third session with nothing left to do changes nothing.
    assert_eq!(train(&config, |_| panic!("no round")).unwrap(), resumed);

    // A new run may start from kept weights, on a board of their lattice only.
    let kept = dir.path().join("networks/round-3.safetensors");
    let other = tempfile::tempdir().unwrap();
    let from = TrainConfig {
        dir: other.path().to_path_buf(),
        from: Some(kept),
        rounds: Some(1),
        ..config.clone()
    };
    assert_eq!(train(&from, |_| {}).unwrap().rounds, 1);
    let square = tempfile::tempdir().unwrap();
    let go = TrainConfig {
        kind: GameKind::Go,
        params: vec!["size=5".into()],
        dir: square.path().to_path_buf(),
        ..from
    };
    let refused = train(&go, |_| panic!("no round")).unwrap_err();
    assert!(refused.contains("another lattice"), "{refused}");
}

#[test]
fn self_play_with_playouts_learns_from_a_different_search() {
    let start = GameKind::HexTorus
        .new_game(&["width=4", "height=4"])
        .unwrap();
    let network = Network::new(
        Shape {
            stencil: 7,
            channels: 8,
            blocks: 1,
        },
        3,
        &Device::Cpu,
    )
    .map(Arc::new)
    .unwrap();
    let games = |playout_share| {
        let how = SelfPlay {
            games: 2,
            simulations: 16,
            value_mix: 1.0,
            playout_share,
        };
        self_play(&start, &network, &how, 1, 9)
    };
    let (alone, mixed) = (games(0.0), games(1.0));
    assert_eq!(
        games(1.0)[0].samples[0].policy,
        mixed[0].samples[0].policy,
        "seeded"
    );
    // The first position is the same in both; the search's value of it, its value target
    // here, is the network's alone or the playouts' alone.
    assert_eq!(alone[0].samples[0].planes, mixed[0].samples[0].planes);
    assert_ne!(alone[0].samples[0].value, mixed[0].samples[0].value);
    assert_ne!(alone[0].samples[0].policy, mixed[0].samples[0].policy);
}

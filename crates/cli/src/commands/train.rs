//! `toroid train`: trains a rule set's network by self-play ([`toroid_search::training`]),
//! resuming the run its folder holds.

use std::path::PathBuf;

use toroid_net::Shape;
use toroid_rules::GameKind;
use toroid_search::all_cores;
use toroid_search::training::{train, TrainConfig};

use super::Failure;

#[derive(clap::Args)]
#[command(after_help = "\
Every round plays --games self-play games and takes --steps optimiser steps. The run lives in
--dir (network.safetensors, replay.safetensors, progress.txt, log.csv and a snapshot in
networks/ every --snapshot-every rounds) and resumes from it: stop it at any time and run the
same command again.

Examples:
  toroid train hex-torus --minutes 30
  toroid train go -p size=7 --dir target/train/go7 --rounds 5 --games 4")]
pub struct Args {
    /// The rule set.
    game: GameKind,
    /// A parameter of the rule set's board (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// The run's folder (default target/train/GAME).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Start a new run from these weights instead of random ones (a network kept in the
    /// repository, such as crates/search/data/networks/GAME.safetensors).
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Features per cell of a new network.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(4..=512))]
    channels: u32,
    /// Residual blocks of a new network.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    blocks: u32,
    /// Search simulations per self-play move.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(2..))]
    simulations: u64,
    /// The search's share of a position's value target, the rest the game's result (0:
    /// AlphaZero's target, the result alone; docs/strength.md measures 0.5 against it).
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    value_mix: f32,
    /// The share of a house playout's result in each leaf's value during self-play, as the
    /// `zero` level plays (0: the network alone, AlphaZero's search). A search stronger than
    /// its network teaches it more (docs/strength.md measures 0.5 against 0).
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    playout_share: f32,
    /// Self-play games per round.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Threads playing self-play games (default: every core).
    #[arg(long)]
    workers: Option<usize>,
    /// Positions the replay window holds.
    #[arg(long, default_value_t = 200_000)]
    window: usize,
    /// Optimiser steps per round.
    #[arg(long, default_value_t = 100)]
    steps: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    #[arg(long, default_value_t = 1e-3)]
    learning_rate: f64,
    #[arg(long, default_value_t = 5)]
    snapshot_every: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop once the run has this many rounds in all.
    #[arg(long)]
    rounds: Option<u64>,
    /// Stop after this many minutes of this session.
    #[arg(long)]
    minutes: Option<f64>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let dir = args
        .dir
        .unwrap_or_else(|| PathBuf::from("target/train").join(args.game.name()));
    let config = TrainConfig {
        kind: args.game,
        params: args.params,
        dir,
        shape: Shape {
            stencil: 0,
            channels: args.channels as usize,
            blocks: args.blocks as usize,
        },
        from: args.from,
        simulations: args.simulations,
        value_mix: args.value_mix,
        playout_share: args.playout_share,
        games: args.games as usize,
        workers: args.workers.unwrap_or_else(all_cores).max(1),
        window: args.window.max(1),
        steps: args.steps,
        batch: args.batch as usize,
        learning_rate: args.learning_rate,
        snapshot_every: args.snapshot_every,
        seed: args.seed,
        rounds: args.rounds,
        seconds: args.minutes.map(|m| m * 60.0),
    };
    let progress = train(&config, |round| {
        let p = &round.progress;
        println!(
            "round {:>4}  games {:>6}  positions {:>8}  {:>7.0} s  policy loss {:.3}  value loss {:.3}  black wins {:.0}%  length {:.0}",
            p.rounds,
            p.games,
            p.samples,
            p.seconds,
            round.policy_loss,
            round.value_loss,
            100.0 * round.black_wins,
            round.mean_length
        );
    })
    .map_err(Failure::usage)?;
    eprintln!(
        "{}: {} rounds, {} games in {:.0} s",
        config.dir.display(),
        progress.rounds,
        progress.games,
        progress.seconds
    );
    Ok(())
}

fn share(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err(format!("{text} is not a share from 0 to 1")),
    }
}

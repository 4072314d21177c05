//! Training a network by self-play, as AlphaZero does: the [`Zero`] search with the current
//! network plays itself with noise at the root, every position becomes a sample (its
//! observation, the search's visit shares, and the game's result mixed with the search's
//! value by `value_mix`), and the network trains on a
//! window of the latest samples, each seen under a random symmetry of its board.
//!
//! A run lives in one folder and resumes from it: `network.safetensors` (the latest weights),
//! `replay.safetensors` (the window), `progress.txt` (rounds, games, seconds) and
//! `log.csv`; `networks/round-N.safetensors` keeps a snapshot every few rounds for the
//! strength reports. It may be stopped at any time: the files are written to a temporary
//! name and renamed, so a stop loses at most the round in progress.

use std::collections::{HashMap, VecDeque};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_net::encoding::{action_count, write_observation, PLANES};
use toroid_net::{Device, Network, Sample, Shape, Stencil, Tensor, Trainer};
use toroid_rules::{symmetries, AnyGame, Cell, Color, GameKind, Position};

use crate::budget::Budget;
use crate::zero::{Noise, Zero, ZeroConfig};

/// What a training run does each round and how long it goes on.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub kind: GameKind,
    /// The board: the rule set's parameters (`size=9`, ...), its defaults when empty.
    pub params: Vec<String>,
    pub dir: PathBuf,
    /// The shape of a new network (its stencil is the board's; a resumed run keeps its own).
    pub shape: Shape,
    /// Weights a new run starts from instead of random ones (its shape is theirs): a
    /// network kept in the repository, whose run's folder is gone.
    pub from: Option<PathBuf>,
    /// Simulations per self-play move.
    pub simulations: u64,
    /// The search's share of a sample's value target (see [`SelfPlay::value_mix`]).
    pub value_mix: f32,
    /// The self-play search's share of house playouts in a leaf's value (see
    /// [`SelfPlay::playout_share`]).
    pub playout_share: f32,
    /// Self-play games per round.
    pub games: usize,
    /// Threads playing games.
    pub workers: usize,
    /// Samples the replay window holds.
    pub window: usize,
    /// Optimiser steps per round, and positions per step.
    pub steps: usize,
    pub batch: usize,
    pub learning_rate: f64,
    /// A snapshot of the network every this many rounds.
    pub snapshot_every: u64,
    pub seed: u64,
    /// Stop after this many rounds in all, or after this many seconds of this session.
    pub rounds: Option<u64>,
    pub seconds: Option<f64>,
}

/// How far a run has come (kept in `progress.txt`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    pub rounds: u64,
    pub games: u64,
    pub samples: u64,
    /// Seconds of training over every session of the run.
    pub seconds: f64,
}

impl Progress {
    fn read(path: &Path) -> std::io::Result<Progress> {
        let text = fs::read_to_string(path)?;
        let mut progress = Progress::default();
        for line in text.lines() {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let bad = || std::io::Error::other(format!("{}: bad {key}", path.display()));
            let value = value.trim();
            match key.trim() {
                "rounds" => progress.rounds = value.parse().map_err(|_| bad())?,
                "games" => progress.games = value.parse().map_err(|_| bad())?,
                "samples" => progress.samples = value.parse().map_err(|_| bad())?,
                "seconds" => progress.seconds = value.parse().map_err(|_| bad())?,
                _ => {}
            }
        }
        Ok(progress)
    }

    fn text(&self) -> String {
        format!(
            "rounds = {}\ngames = {}\nsamples = {}\nseconds = {}\n",
            self.rounds, self.games, self.samples, self.seconds
        )
    }
}

/// One round's figures, as `log.csv` keeps them.
#[derive(Clone, Debug)]
pub struct Round {
    pub progress: Progress,
    pub policy_loss: f32,
    pub value_loss: f32,
    /// Black's share of the round's self-play wins.
    pub black_wins: f32,
    pub mean_length: f32,
}

/// Runs (or resumes) the training run of `config`, calling `report` after each round.
pub fn train(config: &TrainConfig, mut report: impl FnMut(&Round)) -> Result<Progress, String> {
    let mut run = Run::open(config)?;
    let session = Instant::now();
    while config.rounds.is_none_or(|r| run.progress.rounds < r)
        && config
            .seconds
            .is_none_or(|s| session.elapsed().as_secs_f64() < s)
    {
        let round_start = Instant::now();
        let games = self_play(
            &run.start,
            run.network(),
            &config.self_play(),
            config.workers,
            run.round_seed(),
        );
        report(&run.learn(games, round_start.elapsed().as_secs_f64())?);
    }
    Ok(run.progress)
}

impl TrainConfig {
    /// How this run's self-play games are played.
    pub fn self_play(&self) -> SelfPlay {
        SelfPlay {
            games: self.games,
            simulations: self.simulations,
            value_mix: self.value_mix,
            playout_share: self.playout_share,
        }
    }
}

/// An open training run: its network and optimiser, its window and its files. [`train`]
/// plays each round's games itself; a distributed driver (Python's `toroid.ray_train`) has
/// them played elsewhere by [`self_play`] and hands them to [`Run::learn`].
pub struct Run {
    config: TrainConfig,
    start: AnyGame,
    stencil: Stencil,
    files: RunFiles,
    progress: Progress,
    replay: VecDeque<Sample>,
    maps: Vec<Vec<Cell>>,
    trainer: Trainer,
    rng: Xoshiro256PlusPlus,
}

impl Run {
    /// Opens the run in `config.dir`, resuming it where it stopped, or starts one there.
    pub fn open(config: &TrainConfig) -> Result<Run, String> {
        let err = |e: &dyn std::fmt::Display| e.to_string();
        let start = config.kind.new_game(&config.params).map_err(|e| err(&e))?;
        fs::create_dir_all(config.dir.join("networks")).map_err(|e| err(&e))?;
        let device = Device::cuda_if_available(0).map_err(|e| err(&e))?;
        let stencil = Stencil::new(start.topology(), &device).map_err(|e| err(&e))?;
        let files = RunFiles::new(&config.dir);
        let (network, progress, replay) = if files.progress.exists() {
            let network = Network::load(&files.network, &device).map_err(|e| err(&e))?;
            let progress = Progress::read(&files.progress).map_err(|e| err(&e))?;
            let replay = load_replay(&files.replay, &device).map_err(|e| err(&e))?;
            (network, progress, replay)
        } else {
            let network = match &config.from {
                Some(path) => Network::load(path, &device).map_err(|e| err(&e))?,
                None => Network::new(
                    Shape {
                        stencil: stencil.width(),
                        ..config.shape
                    },
                    config.seed,
                    &device,
                )
                .map_err(|e| err(&e))?,
            };
            (network, Progress::default(), VecDeque::new())
        };
        network.check_board(start.topology()).map_err(|e| err(&e))?;
        let maps = symmetries(start.topology(), config.kind.rule_set().symmetries);
        let trainer = Trainer::new(Arc::new(network), config.learning_rate).map_err(|e| err(&e))?;
        let rng = Xoshiro256PlusPlus::seed_from_u64(config.seed ^ progress.rounds);
        Ok(Run {
            config: config.clone(),
            start,
            stencil,
            files,
            progress,
            replay,
            maps,
            trainer,
            rng,
        })
    }

    /// The network self-play should use now.
    pub fn network(&self) -> &Arc<Network> {
        self.trainer.network()
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The seed of the next round's self-play: the run's seed and the round's number, so that
    /// a resumed run plays the games it would have played without the stop.
    pub fn round_seed(&self) -> u64 {
        self.config.seed ^ (self.progress.rounds << 16)
    }

    /// Ends a round: adds `games` to the window, takes the round's optimiser steps, and
    /// saves the run. `seconds` is the time the games took; the run's time adds the steps'.
    pub fn learn(&mut self, games: Vec<SelfPlayGame>, seconds: f64) -> Result<Round, String> {
        let steps_start = Instant::now();
        let err = |e: &dyn std::fmt::Display| e.to_string();
        let config = &self.config;
        let cells = self.start.topology().len();
        let sizes = (PLANES * cells, action_count(self.start.topology()));
        if let Some(bad) = (games.iter().flat_map(|g| &g.samples))
            .find(|s| (s.planes.len(), s.policy.len()) != sizes)
        {
            return Err(format!(
                "a self-play sample has {} planes values and {} actions, this board {} and {}",
                bad.planes.len(),
                bad.policy.len(),
                sizes.0,
                sizes.1
            ));
        }
        let black_wins = games
            .iter()
            .filter(|g| g.winner == Some(Color::Black))
            .count();
        let mean_length =
            games.iter().map(|g| g.samples.len()).sum::<usize>() as f32 / games.len().max(1) as f32;
        for game in &games {
            self.progress.samples += game.samples.len() as u64;
            self.replay.extend(game.samples.iter().cloned());
        }
        while self.replay.len() > config.window {
            self.replay.pop_front();
        }
        self.progress.games += games.len() as u64;
        let (mut policy_loss, mut value_loss) = (0.0, 0.0);
        for _ in 0..config.steps {
            let batch: Vec<Sample> = (0..config.batch.min(self.replay.len()))
                .map(|_| {
                    let sample = &self.replay[self.rng.random_range(0..self.replay.len())];
                    transformed(
                        sample,
                        &self.maps[self.rng.random_range(0..self.maps.len())],
                    )
                })
                .collect();
            if batch.is_empty() {
                break;
            }
            let refs: Vec<&Sample> = batch.iter().collect();
            let losses = self
                .trainer
                .step(&refs, &self.stencil)
                .map_err(|e| err(&e))?;
            policy_loss += losses.policy / config.steps as f32;
            value_loss += losses.value / config.steps as f32;
        }
        self.progress.rounds += 1;
        self.progress.seconds += seconds + steps_start.elapsed().as_secs_f64();
        self.files
            .save(
                self.trainer.network(),
                &self.replay,
                &self.progress,
                config.snapshot_every,
            )
            .map_err(|e| err(&e))?;
        let round = Round {
            progress: self.progress.clone(),
            policy_loss,
            value_loss,
            black_wins: black_wins as f32 / games.len().max(1) as f32,
            mean_length,
        };
        self.files.log(&round).map_err(|e| err(&e))?;
        Ok(round)
    }
}

/// The files of a run.
struct RunFiles {
    dir: PathBuf,
    network: PathBuf,
    replay: PathBuf,
    progress: PathBuf,
    log: PathBuf,
}

impl RunFiles {
    fn new(dir: &Path) -> RunFiles {
        RunFiles {
            dir: dir.to_path_buf(),
            network: dir.join("network.safetensors"),
            replay: dir.join("replay.safetensors"),
            progress: dir.join("progress.txt"),
            log: dir.join("log.csv"),
        }
    }

    /// Writes the network, the window and the progress, each by a rename (the progress
    /// last: a run resumes from the round it names).
    fn save(
        &self,
        network: &Network,
        replay: &VecDeque<Sample>,
        progress: &Progress,
        snapshot_every: u64,
    ) -> toroid_net::Result<()> {
        let temporary = self.dir.join("network.safetensors.part");
        network.save(&temporary)?;
        fs::rename(&temporary, &self.network)?;
        if progress.rounds.is_multiple_of(snapshot_every.max(1)) {
            let snapshot =
                (self.dir.join("networks")).join(format!("round-{}.safetensors", progress.rounds));
            fs::copy(&self.network, snapshot)?;
        }
        let temporary = self.dir.join("replay.safetensors.part");
        save_replay(replay, &temporary)?;
        fs::rename(&temporary, &self.replay)?;
        let temporary = self.dir.join("progress.txt.part");
        fs::write(&temporary, progress.text())?;
        fs::rename(&temporary, &self.progress)?;
        Ok(())
    }

    fn log(&self, round: &Round) -> std::io::Result<()> {
        let new = !self.log.exists();
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)?;
        if new {
            writeln!(
                file,
                "round,games,samples,seconds,policy_loss,value_loss,black_wins,mean_length"
            )?;
        }
        let p = &round.progress;
        writeln!(
            file,
            "{},{},{},{:.1},{:.4},{:.4},{:.3},{:.1}",
            p.rounds,
            p.games,
            p.samples,
            p.seconds,
            round.policy_loss,
            round.value_loss,
            round.black_wins,
            round.mean_length
        )
    }
}

fn save_replay(replay: &VecDeque<Sample>, path: &Path) -> toroid_net::Result<()> {
    let n = replay.len();
    let (planes, actions) = replay
        .front()
        .map_or((0, 0), |s| (s.planes.len(), s.policy.len()));
    let device = Device::Cpu;
    let tensors = [
        (
            "planes".to_string(),
            Tensor::from_iter(
                replay.iter().flat_map(|s| s.planes.iter().copied()),
                &device,
            )?
            .reshape((n, planes))?,
        ),
        (
            "policy".to_string(),
            Tensor::from_iter(
                replay.iter().flat_map(|s| s.policy.iter().copied()),
                &device,
            )?
            .reshape((n, actions))?,
        ),
        (
            "value".to_string(),
            Tensor::from_iter(replay.iter().map(|s| s.value), &device)?,
        ),
    ];
    toroid_net::safetensors::save(&HashMap::from(tensors), path)
}

fn load_replay(path: &Path, device: &Device) -> toroid_net::Result<VecDeque<Sample>> {
    if !path.exists() {
        return Ok(VecDeque::new());
    }
    let tensors = toroid_net::safetensors::load(path, device)?;
    let get = |name: &str| {
        tensors
            .get(name)
            .cloned()
            .ok_or_else(|| toroid_net::Error::Msg(format!("{}: no {name}", path.display())))
    };
    let planes: Vec<Vec<f32>> = get("planes")?.to_vec2()?;
    let policy: Vec<Vec<f32>> = get("policy")?.to_vec2()?;
    let value: Vec<f32> = get("value")?.to_vec1()?;
    Ok((planes.into_iter().zip(policy).zip(value))
        .map(|((planes, policy), value)| Sample {
            planes,
            policy,
            value,
        })
        .collect())
}

/// `sample` seen under the board symmetry `map` (cell `c` goes to `map[c]`).
fn transformed(sample: &Sample, map: &[Cell]) -> Sample {
    let cells = map.len();
    let mut planes = vec![0.0; sample.planes.len()];
    for (from, to) in sample
        .planes
        .chunks_exact(cells)
        .zip(planes.chunks_exact_mut(cells))
    {
        for (c, &image) in map.iter().enumerate() {
            to[image.index()] = from[c];
        }
    }
    let mut policy = sample.policy.clone();
    for (c, &image) in map.iter().enumerate() {
        policy[image.index()] = sample.policy[c];
    }
    Sample {
        planes,
        policy,
        value: sample.value,
    }
}

/// One self-play game's samples and winner.
#[derive(Clone, Debug)]
pub struct SelfPlayGame {
    pub samples: Vec<Sample>,
    pub winner: Option<Color>,
}

/// How self-play games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    pub games: usize,
    /// Simulations per move.
    pub simulations: u64,
    /// The search's share of a sample's value target, the rest being the game's result: 0 is
    /// AlphaZero's target. A result alone is a noisy target for the early positions of a
    /// weak network's games; the search's root value is steadier but biased.
    pub value_mix: f32,
    /// The share of a house playout's result in each leaf's value during self-play
    /// ([`ZeroConfig::playout_share`]; 0: the network alone). A search that is stronger than
    /// its network teaches it better moves and values (expert iteration).
    pub playout_share: f32,
}

/// Plays `how.games` self-play games from `start` with `network` on `workers` threads,
/// each game's randomness drawn from `seed` and its number.
pub fn self_play(
    start: &AnyGame,
    network: &Arc<Network>,
    how: &SelfPlay,
    workers: usize,
    seed: u64,
) -> Vec<SelfPlayGame> {
    let workers = workers.clamp(1, how.games.max(1));
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let count = how.games / workers + usize::from(w < how.games % workers);
                let seed = seed ^ w as u64;
                scope.spawn(move || {
                    (0..count)
                        .map(|i| play_one(how, start, network, seed.wrapping_add(i as u64 * 7919)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a self-play worker"))
            .collect()
    })
}

fn play_one(how: &SelfPlay, start: &AnyGame, network: &Arc<Network>, seed: u64) -> SelfPlayGame {
    let topology = start.topology();
    let cells = topology.len();
    let actions = action_count(topology);
    let mut search_config = ZeroConfig::new(Budget::Playouts(how.simulations));
    search_config.noise = Some(Noise {
        alpha: 10.0 / cells as f32,
        fraction: 0.25,
    });
    search_config.sampled_plies = cells / 4;
    search_config.playout_share = how.playout_share;
    let mut zero = Zero::with_network("self-play", search_config, network.clone(), seed);
    let mut game = start.clone();
    let mut positions: Vec<(Vec<f32>, Vec<f32>, Color, f32)> = Vec::new();
    let mut mask = vec![false; actions];
    let mut stones = Vec::new();
    while let Some(mover) = game.turn() {
        let analysis = zero.analyse(&game, None);
        let mv = analysis.best_move().expect("a game not over");
        game.legal_mask(&mut mask);
        let mut planes = vec![0.0; PLANES * cells];
        write_observation(&game, mover, &mask, &mut stones, &mut planes);
        let searched = analysis.value().unwrap_or(0.0) as f32;
        positions.push((planes, zero.visit_shares(actions), mover, searched));
        game.play_legal(mv);
    }
    let winner = game.outcome().and_then(|o| o.winner);
    let samples = positions
        .into_iter()
        .map(|(planes, policy, mover, searched)| {
            let result = match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
            Sample {
                planes,
                policy,
                value: (1.0 - how.value_mix) * result + how.value_mix * searched,
            }
        })
        .collect();
    SelfPlayGame { samples, winner }
}

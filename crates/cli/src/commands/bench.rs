//! `toroid bench`: single-core random playouts per second, MCTS simulations per second, or a
//! network's evaluations per second.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid::render::params_line;
use toroid::setup::new_game;
use toroid_net::{Device, Network, Stencil};
use toroid_rules::{random_playout, uniform_playout, AnyGame, GameKind, Position};
use toroid_search::{Budget, Level, Mcts, MctsConfig, Rollout, Zero, ZeroConfig};

use super::{print, Failure};

/// How playout moves are chosen.
#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum Policy {
    /// The rule set's playout policy (`playout_move`; Go does not fill its own eyes, unless
    /// false); with `--mcts`, the house bots' playouts (that policy after the rule set's
    /// tactical replies).
    Playout,
    /// Uniform among all legal moves (`legal_moves`), as other engines' random playouts.
    Uniform,
}

#[derive(clap::Args)]
pub struct Args {
    /// Rule set to measure, or `all` (the default) for every rule set at its defaults.
    game: Option<String>,
    /// A parameter of the rule set (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// How long to measure each rule set, in seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Seed of the random number generator (xoshiro256++).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How playout moves are chosen.
    #[arg(long, value_enum, default_value_t = Policy::Playout)]
    policy: Policy,
    /// Measure the house bots' tree search instead: simulations per second of one search
    /// from the start position (UCT with RAVE, every simulation played out to the end of the
    /// game by `--policy`).
    #[arg(long)]
    mcts: bool,
    /// Search threads with `--mcts` (each grows its own tree).
    #[arg(long, default_value_t = 1, requires = "mcts", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// With `--mcts`, search without the learned move patterns (no tree priors, no playout
    /// replies), to measure what they cost.
    #[arg(long, requires = "mcts")]
    no_patterns: bool,
    /// Measure a network instead (weights as `toroid train` writes them): evaluations per
    /// second at batch 1 and batch 8, and simulations per second of the search it guides.
    #[arg(long, value_name = "FILE", conflicts_with = "mcts")]
    network: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 86_400.0) {
        return Err(Failure::usage(format!(
            "--seconds must be a number of seconds above 0 and at most 86400, got {}",
            args.seconds
        )));
    }
    let games: Vec<AnyGame> = match args.game.as_deref() {
        None | Some("all") if !args.params.is_empty() => {
            return Err(Failure::usage("-p needs a single game, not all of them"));
        }
        None | Some("all") => GameKind::ALL.map(GameKind::default_game).to_vec(),
        Some(name) => {
            vec![new_game(name, &args.params).map_err(Failure::usage)?]
        }
    };
    let duration = Duration::from_secs_f64(args.seconds);
    for game in &games {
        let (policy, rollout) = match args.policy {
            Policy::Playout => ("playout", Rollout::Tactical),
            Policy::Uniform => ("uniform", Rollout::Uniform),
        };
        let mut what = match args.threads {
            _ if !args.mcts => format!("{policy} policy"),
            1 => format!("MCTS, 1 thread, {policy} policy"),
            n => format!("MCTS, {n} threads, {policy} policy"),
        };
        if args.no_patterns {
            what.push_str(", no patterns");
        }
        if let Some(path) = &args.network {
            what = format!("network {}", path.display());
        }
        print(&format!(
            "{} ({}), {what}, seed {}\n",
            game.kind(),
            params_line(game),
            args.seed
        ))?;
        if let Some(path) = &args.network {
            print(&network(game, path, duration, args.seed)?)?;
        } else if args.mcts {
            let mut config = MctsConfig::new(Budget::Time(duration), args.threads.into());
            config.settings.rollout = rollout;
            config.settings.patterns = !args.no_patterns;
            print(&search(game, config, args.seed))?;
        } else {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
            let stats = measure_any(game, args.policy, duration, &mut rng);
            print(&stats.report())?;
        }
    }
    Ok(())
}

/// Searches `game` by `config` and reports simulations per second.
fn search(game: &AnyGame, mut config: MctsConfig, seed: u64) -> String {
    // The measurement is the rate over the whole time, not a move.
    config.settings.stop_early = false;
    let analysis = Mcts::new("bench", config, seed).analyse(game, None);
    let seconds = analysis.elapsed.as_secs_f64();
    format!(
        "{:.1} simulations/s\n{} simulations in {seconds:.2} s\n",
        analysis.simulations as f64 / seconds,
        analysis.simulations,
    )
}

/// Evaluations per second of the network at `path` on `game`'s start, one position at a
/// time and eight at once, and simulations per second of the search it guides (one thread)
/// with leaves one at a time, in batches of eight (self-play's), and one at a time with a
/// house playout beside each evaluation (the `zero` level's setting), each for a fifth of
/// `duration`.
fn network(game: &AnyGame, path: &Path, duration: Duration, seed: u64) -> Result<String, Failure> {
    let fail = |e: toroid_net::Error| Failure::usage(format!("{}: {e}", path.display()));
    let net = Arc::new(Network::load(path, &Device::Cpu).map_err(fail)?);
    let stencil = Stencil::new(game.topology(), &Device::Cpu).map_err(fail)?;
    let share = duration / 5;
    let mut report = String::new();
    for batch in [1, 8] {
        let positions = vec![game; batch];
        let start = Instant::now();
        let mut evaluated = 0;
        while evaluated == 0 || start.elapsed() < share {
            net.evaluate(&positions, &stencil).map_err(fail)?;
            evaluated += batch;
        }
        let seconds = start.elapsed().as_secs_f64();
        report.push_str(&format!(
            "{:.0} evaluations/s at batch {batch}\n",
            evaluated as f64 / seconds
        ));
    }
    for (batch, playout_share) in [(1, 0.0), (8, 0.0), (1, Level::ZERO_PLAYOUT_SHARE)] {
        let mut config = ZeroConfig::new(Budget::Time(share));
        config.batch = batch;
        config.playout_share = playout_share;
        let analysis = Zero::with_network("bench", config, net.clone(), seed).analyse(game, None);
        let seconds = analysis.elapsed.as_secs_f64();
        let playouts = if playout_share > 0.0 {
            " and playouts (the zero level)"
        } else {
            ""
        };
        report.push_str(&format!(
            "{:.1} simulations/s of the search with leaves in batches of {batch}{playouts} \
             ({} simulations in {seconds:.2} s)\n",
            analysis.simulations as f64 / seconds,
            analysis.simulations
        ));
    }
    Ok(report)
}

/// What a measurement counted.
#[derive(Default)]
struct Stats {
    playouts: u64,
    moves: u64,
    /// Wins of black and white; the rest are draws.
    wins: [u64; 2],
    elapsed: Duration,
}

impl Stats {
    fn report(&self) -> String {
        let seconds = self.elapsed.as_secs_f64();
        let n = self.playouts as f64;
        let percent = |k: u64| 100.0 * k as f64 / n;
        let draws = self.playouts - self.wins[0] - self.wins[1];
        format!(
            "{:.1} playouts/s\n{:.0} moves/s\n{:.1} moves per game on average; \
             black won {:.1}%, white {:.1}%, draws {:.1}% ({} playouts in {seconds:.2} s)\n",
            n / seconds,
            self.moves as f64 / seconds,
            self.moves as f64 / n,
            percent(self.wins[0]),
            percent(self.wins[1]),
            percent(draws),
            self.playouts,
        )
    }
}

/// Measures on the concrete rule-set type, so that playouts pay no enum dispatch.
fn measure_any(game: &AnyGame, policy: Policy, duration: Duration, rng: &mut impl Rng) -> Stats {
    toroid_rules::with_game!(game, g => measure(g, policy, duration, rng))
}

/// Plays whole games from `start` until `duration` has passed (at least one game).
fn measure<P: Position>(
    start: &P,
    policy: Policy,
    duration: Duration,
    rng: &mut impl Rng,
) -> Stats {
    let mut stats = Stats::default();
    let began = Instant::now();
    // Every game starts from a copy of `start`, made in place: a playout engine keeps its
    // buffers (`Clone::clone_from`; Go's board copies its tables without allocating).
    let mut game = start.clone();
    loop {
        game.clone_from(start);
        stats.moves += match policy {
            Policy::Playout => random_playout(&mut game, rng),
            Policy::Uniform => uniform_playout(&mut game, rng),
        } as u64;
        stats.playouts += 1;
        if let Some(winner) = game.outcome().and_then(|o| o.winner) {
            stats.wins[winner.index()] += 1;
        }
        stats.elapsed = began.elapsed();
        if stats.elapsed >= duration {
            return stats;
        }
    }
}

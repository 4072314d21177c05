//! `toroid gtp`: a house bot as a GTP version 2 engine on standard input and output.

use std::io;

use toroid::seed::clock_seed;
use toroid_protocol::gtp::Engine;
use toroid_search::{Level, Tuning};

use super::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// The bot's level: random, greedy, beginner, casual, strong, max or zero (zero plays
    /// with the rule set's network where it has one, and with playouts in its place where not).
    #[arg(long, default_value = "strong")]
    level: String,
    /// The bot's seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Search without the learned move patterns (no tree priors, no playout replies), to
    /// measure what they give.
    #[arg(long)]
    no_patterns: bool,
    /// Think on the opponent's time: after each move it plays, the bot searches on until the
    /// next command arrives, on all its threads but one (so an opponent on the same machine
    /// keeps a core), and starts its next move from that search.
    #[arg(long)]
    ponder: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let level: Level = args.level.parse().map_err(Failure::usage)?;
    let tuning = Tuning {
        patterns: args.no_patterns.then_some(false),
        ..Tuning::default()
    };
    let bot = level.bot_with(args.seed.unwrap_or_else(clock_seed), tuning);
    let mut engine = Engine::new(bot);
    if args.ponder {
        engine = engine.pondering();
    }
    engine.run(io::stdin().lock(), io::stdout().lock())?;
    Ok(())
}

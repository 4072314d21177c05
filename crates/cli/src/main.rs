//! The `toroid` command. Each subcommand lives in its own module under `commands`.

mod commands;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Board games on wrapped surfaces: inspect rule sets, replay games, benchmark playouts, play
/// house bots, run matches between them and external engines, speak GTP, and serve games on
/// the web.
#[derive(Parser)]
#[command(name = "toroid", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every rule set with its parameters.
    Games(commands::games::Args),
    /// Play moves from the start of a game and show the position.
    Replay(commands::replay::Args),
    /// Show a game's cell graph: cells and directed adjacencies with seam labels.
    Topology(commands::topology::Args),
    /// Measure single-core random playouts per second, or MCTS simulations per second.
    Bench(commands::bench::Args),
    /// Play a house bot in the terminal.
    Play(commands::play::Args),
    /// Play N games between two players and estimate their Elo difference.
    Match(commands::match_::Args),
    /// Learn the strengths of move patterns from game records (what scripts/patterns runs).
    Patterns(commands::patterns::Args),
    /// Train a rule set's network by self-play, resuming the run its folder holds.
    Train(commands::train::Args),
    /// Play a round robin or Swiss tournament between house bots and engines.
    Tournament(commands::tournament::Args),
    /// Speak GTP version 2 on standard input and output, as a house bot.
    Gtp(commands::gtp::Args),
    /// Run the game server and its web page.
    Serve(commands::serve::Args),
    /// Copy a server's database consistently, while it runs.
    Backup(commands::backup::Args),
    /// Connect a GTP engine to a server as a registered bot.
    Bridge(commands::bridge::Args),
    /// Administer a server's data: roles, bans, passwords, sign-ups.
    Admin(commands::admin::Args),
}

fn main() -> ExitCode {
    let argv = std::env::args_os().collect();
    let argv = match commands::config_file::with_config_file(Cli::command(), argv) {
        Ok(argv) => argv,
        Err(failure) => return failure.report(),
    };
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return commands::Failure::from_clap(e).report(),
    };
    // candle splits each matrix product over every core unless RAYON_NUM_THREADS says
    // otherwise: for `zero`'s small networks, one position at a time, the hand-offs cost
    // more than the threads share (a quarter of the speed on two cores, docs/performance.md).
    // Every command but `train`, whose optimiser's large batches gain from them, evaluates on
    // one thread; no thread has started yet to read the variable.
    if !matches!(cli.command, Command::Train(_)) && std::env::var_os("RAYON_NUM_THREADS").is_none()
    {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let result = match cli.command {
        Command::Games(args) => commands::games::run(args),
        Command::Replay(args) => commands::replay::run(args),
        Command::Topology(args) => commands::topology::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Match(args) => commands::match_::run(args),
        Command::Patterns(args) => commands::patterns::run(args),
        Command::Train(args) => commands::train::run(args),
        Command::Tournament(args) => commands::tournament::run(args),
        Command::Gtp(args) => commands::gtp::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Backup(args) => commands::backup::run(args),
        Command::Bridge(args) => commands::bridge::run(args),
        Command::Admin(args) => commands::admin::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

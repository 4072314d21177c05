//! The `toroid` command. Each subcommand lives in its own module under `commands`.

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Board games on wrapped surfaces: inspect rule sets, replay games, benchmark playouts.
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
    /// Measure single-core random playouts per second.
    Bench(commands::bench::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return commands::Failure::from_clap(e).report(),
    };
    let result = match cli.command {
        Command::Games(args) => commands::games::run(args),
        Command::Replay(args) => commands::replay::run(args),
        Command::Topology(args) => commands::topology::run(args),
        Command::Bench(args) => commands::bench::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

//! MCTS simulations per second on the 9×9 `go` start position, on one thread and on two,
//! with the plain random playouts and with the tactical playout policy.
//!
//! `cargo run --release -p toroid-search --example mcts_speed [SIMULATIONS]`

use std::time::Instant;

use toroid_rules::GameKind;
use toroid_search::{Budget, Mcts, MctsConfig};

fn main() {
    let simulations: u64 = std::env::args()
        .nth(1)
        .map_or(20_000, |s| s.parse().expect("a number of simulations"));
    let game = GameKind::Go.default_game();
    for heavy in [false, true] {
        for threads in [1, 2] {
            let mut config = MctsConfig::new(Budget::Playouts(simulations), threads);
            config.settings.heavy_playouts = heavy;
            let mut bot = Mcts::new("speed", config, 1);
            let start = Instant::now();
            let analysis = bot.analyse(&game, None);
            let secs = start.elapsed().as_secs_f64();
            println!(
                "go 9x9 start, {} playouts, {threads} thread(s): {:.0} simulations/s",
                if heavy { "policy" } else { "plain" },
                analysis.simulations as f64 / secs
            );
        }
    }
}

//! `toroid topology`: a game's cell graph.

use std::fmt::Write;

use toroid::setup::new_game;
use toroid::view::{lattice_name, TopologyView};
use toroid_rules::Position;

use super::{print, print_json, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// Rule set: torus, hex-torus, m-torus, ctor, capture-go or go.
    game: String,
    /// A parameter of the rule set (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Print `{"cells": [[x, y], ...], "edges": [[i, j, cx, cy], ...]}` instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let game = new_game(&args.game, &args.params).map_err(Failure::usage)?;
    let topology = game.topology();
    if args.json {
        return print_json(&TopologyView::new(topology));
    }
    let mut text = format!(
        "{} {}×{}, {} lattice on the {}: {} cells, {} directed edges\n",
        args.game,
        topology.width(),
        topology.height(),
        lattice_name(topology.lattice()),
        topology.surface().words(),
        topology.len(),
        topology.edges().count()
    );
    text.push_str("cell: neighbours, with the seam label (cx,cy) of steps that cross a seam\n");
    for cell in topology.cells() {
        let _ = write!(text, "{}:", topology.point_name(cell));
        for nb in topology.neighbors(cell) {
            let _ = write!(text, " {}", topology.point_name(nb.cell));
            if !nb.seam.is_none() {
                let _ = write!(text, "({:+},{:+})", nb.seam.cx, nb.seam.cy);
            }
        }
        text.push('\n');
    }
    print(&text)
}

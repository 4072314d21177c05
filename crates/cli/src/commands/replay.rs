//! `toroid replay`: play moves from the start and show the position.

use toroid::render::game_text;
use toroid::setup::{new_game, play_moves};
use toroid::view::GameView;

use super::{print, print_json, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// Rule set: torus, hex-torus, m-torus, ctor, capture-go or go.
    game: String,
    /// Moves in notation, from the start: points like `ee`, `pass`, `end`.
    moves: Vec<String>,
    /// A parameter of the rule set (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Print the inspection interface's JSON object instead of a text board.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let mut game = new_game(&args.game, &args.params).map_err(Failure::usage)?;
    let history = play_moves(&mut game, &args.moves).map_err(Failure::usage)?;
    if args.json {
        print_json(&GameView::new(&game, &history))
    } else {
        print(&game_text(&game, &history))
    }
}

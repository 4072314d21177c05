//! `toroid replay`: play moves from the start, or from a game record, and show the position;
//! optionally save the game as a record.

use std::fs;
use std::path::{Path, PathBuf};

use toroid::render::game_text;
use toroid::setup::{new_game, play_moves};
use toroid::view::GameView;
use toroid_protocol::record::Record;
use toroid_rules::{AnyGame, Move, Position};

use super::{print, print_json, read_record, Failure};

#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  toroid replay go -p size=9 ee ec pass
  toroid replay --record game.sgf            the main line of a record (SGF or JSON)
  toroid replay --record game.sgf dd         ...and one more move
  toroid replay hex-torus aa bb --save g.sgf save the game as a record (.sgf or .json)")]
pub struct Args {
    /// The rule set (torus, hex-torus, m-torus, ctor, capture-go or go), then moves in
    /// notation from the start: points like `ee`, `pass`, `end`. With --record, only moves,
    /// played after the record's main line.
    #[arg(value_name = "GAME MOVE")]
    words: Vec<String>,
    /// A parameter of the rule set (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Start from this game record (SGF or JSON) instead of a rule set and its parameters.
    #[arg(long, value_name = "FILE", conflicts_with = "params")]
    record: Option<PathBuf>,
    /// Save the game as a record: SGF if FILE ends in .sgf, JSON if in .json.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Print the inspection interface's JSON object instead of a text board.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let save_format = args.save.as_deref().map(record_format).transpose()?;
    let (record, texts) = match &args.record {
        Some(path) => (Some(read_record(path)?), &args.words[..]),
        None => (None, args.words.get(1..).unwrap_or_default()),
    };
    let (mut game, mut history) = match &record {
        Some(record) => (
            record.replay().map_err(Failure::usage)?,
            record.moves().into_iter().map(|(_, mv)| mv).collect(),
        ),
        None => {
            let name = args.words.first().ok_or_else(|| {
                Failure::usage("name a game (see 'toroid games') or give --record FILE")
            })?;
            (
                new_game(name, &args.params).map_err(Failure::usage)?,
                Vec::new(),
            )
        }
    };
    let before = game.clone();
    let mut extra = play_moves(&mut game, texts).map_err(|mut e| {
        e.number += history.len();
        Failure::usage(e)
    })?;
    if let (Some(path), Some(format)) = (&args.save, save_format) {
        let mut saved = match &record {
            Some(record) => {
                let mut record = record.clone();
                extend(&mut record, &before, &extra)?;
                record
            }
            None => Record::from_moves(before.kind(), before.params(), &extra)
                .map_err(Failure::usage)?,
        };
        if let Some(result) = game.outcome() {
            saved.result = Some(result);
        }
        let text = match format {
            Format::Sgf => saved.to_sgf(),
            Format::Json => saved.to_json().map_err(Failure::usage)?,
        };
        fs::write(path, text)
            .map_err(|e| Failure::usage(format!("cannot write '{}': {e}", path.display())))?;
    }
    let recorded = history.len();
    history.append(&mut extra);
    if args.json {
        // Who made each move, for the view: the record says so for its moves; the others
        // are played again from where the record ended.
        let mut made = record.as_ref().map_or_else(Vec::new, Record::moves);
        let mut replay = before;
        for &mv in &history[recorded..] {
            made.push((replay.turn().expect("the move was played"), mv));
            replay.play(mv).expect("the move was played");
        }
        print_json(&GameView::new(&game, &made))
    } else {
        let mut text = game_text(&game, &history);
        if let Some(result) = record.as_ref().and_then(|r| r.result.as_ref()) {
            if game.outcome().is_none() {
                let re = toroid_protocol::record::sgf_result(result);
                text.push_str(&format!("the record's result: {result} ({re})\n"));
            }
        }
        print(&text)
    }
}

#[derive(Clone, Copy)]
enum Format {
    Sgf,
    Json,
}

fn record_format(path: &Path) -> Result<Format, Failure> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("sgf") => Ok(Format::Sgf),
        Some(e) if e.eq_ignore_ascii_case("json") => Ok(Format::Json),
        _ => Err(Failure::usage(format!(
            "cannot tell the record format of '{}': name it .sgf or .json",
            path.display()
        ))),
    }
}

/// Appends `moves`, played from `game`, to `record`.
fn extend(record: &mut Record, game: &AnyGame, moves: &[Move]) -> Result<(), Failure> {
    let mut game = game.clone();
    for &mv in moves {
        let color = game
            .turn()
            .expect("the move was played, so the game was on");
        record.push_move(color, mv).map_err(Failure::usage)?;
        game.play(mv).expect("the move was played once already");
    }
    Ok(())
}

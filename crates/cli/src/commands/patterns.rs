//! `toroid patterns`: learns the strengths of move patterns ([`toroid_search::learned`]) from
//! game records and prints them as a pattern file, with how well they predict held-out moves.

use std::fs;
use std::path::{Path, PathBuf};

use toroid_protocol::record::Record;
use toroid_rules::{GameKind, Position};
use toroid_search::learned::{self, Patterns, Sample};

use super::{print, read_record, Failure};

#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  toroid patterns target/selfplay/go > crates/search/data/patterns/go.txt
  toroid patterns a.sgf b.json --iterations 10 --holdout 0")]
pub struct Args {
    /// Game records (SGF or JSON) of one rule set, or folders of them.
    #[arg(value_name = "RECORD", required = true)]
    records: Vec<PathBuf>,
    /// Sweeps of minorization–maximization over the features.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=1000))]
    iterations: u32,
    /// Hold every Nth game out of the learning to measure how well the patterns predict its
    /// moves (0: learn from every game, measure nothing).
    #[arg(long, default_value_t = 5)]
    holdout: usize,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let mut paths = Vec::new();
    for path in &args.records {
        record_paths(path, &mut paths)?;
    }
    let mut kind: Option<GameKind> = None;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0;
    for (i, path) in paths.iter().enumerate() {
        let record = read_record(path)?;
        let here = record.kind();
        if kind.is_some_and(|k| k != here) {
            return Err(Failure::usage(format!(
                "{}: a {} record among {} records: learn one rule set at a time",
                path.display(),
                here.name(),
                kind.map_or("", |k| k.name())
            )));
        }
        kind = Some(here);
        let samples = game_samples(&record)
            .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
        let held_out = args.holdout > 0 && i % args.holdout == args.holdout - 1;
        if held_out { &mut test } else { &mut train }.extend(samples);
        games += 1;
    }
    let kind = kind.ok_or_else(|| Failure::usage("no game records found"))?;
    if train.is_empty() {
        return Err(Failure::usage("no moves to learn from"));
    }
    let patterns = learned::learn(&train, args.iterations as usize);
    let mut header = format!(
        "Move pattern strengths of {}, learned by `toroid patterns` ({} iterations) from {} \
         positions of {games} games.",
        kind.name(),
        args.iterations,
        train.len()
    );
    if !test.is_empty() {
        let (ll, hits) = learned::fit(&patterns, &test);
        let (ll0, hits0) = learned::fit(&Patterns::none(), &test);
        header.push_str(&format!(
            "\nOn {} held-out positions: log-likelihood per move {ll:.3} (uniform {ll0:.3}), \
             the strongest move played {:.1}% of the time (uniform {:.1}%).",
            test.len(),
            100.0 * hits,
            100.0 * hits0
        ));
    }
    eprintln!("{header}");
    print(&patterns.to_text(&header))
}

/// `path` itself, or the record files in the folder `path`, in name order.
fn record_paths(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let entries = fs::read_dir(path)
        .map_err(|e| Failure::usage(format!("cannot read '{}': {e}", path.display())))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sgf" || x == "json"))
        .collect();
    found.sort();
    out.extend(found);
    Ok(())
}

/// The training positions of a record's main line.
fn game_samples(record: &Record) -> Result<Vec<Sample>, String> {
    let start = record.start();
    if start.ply() > 0 || !record.setup().is_empty() {
        return Err("records with set-up stones are not learned from".into());
    }
    let moves: Vec<_> = record.moves().into_iter().map(|(_, mv)| mv).collect();
    toroid_rules::with_game!(start, g => learned::samples(g, &moves))
}

//! `toroid match`: N games between two players (house bots or external GTP engines) with
//! alternating colours, in parallel, with a result table and an Elo estimate.
//!
//! Player A (`--black`) has black in games 1, 3, 5, … (index 0, 2, 4, …) and player B in the
//! others. Game `i`'s seed is derived from `--seed` and `i` alone, and each colour's bot gets
//! its own seed derived from the game's, so a match gives the same games whatever
//! `--parallel` is.

use std::fmt::Write as _;
use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use toroid::arena::{Played, Referee};
use toroid::elo::{Elo, Tally};
use toroid::player::{play_between, PlayerSpec, Timing};
use toroid::render::params_line;
use toroid::seed::game_seed;
use toroid::setup::new_game;
use toroid::view::{ParamsView, PerColor};
use toroid_rules::{AnyGame, Color, Position};

use super::{print, print_json, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// Rule set: torus, hex-torus, m-torus, ctor, capture-go or go.
    game: String,
    /// A parameter of the rule set (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Player A, black in the first game: a level (random, greedy, beginner, casual, strong,
    /// max, zero where the rule set has a network), a network's weights as `zero:PATH` (the
    /// network-guided search with the network alone, no playouts, 800 simulations a move
    /// without --move-time, its first move drawn in proportion to its visits so that games
    /// differ), as `zero+playouts:PATH` the same with half of each leaf's value from a house
    /// playout (as the `zero` level values them), or the command line of a GTP engine, like
    /// "gnugo --mode gtp --level 10".
    #[arg(long, value_name = "PLAYER")]
    black: String,
    /// Player B, white in the first game.
    #[arg(long, value_name = "PLAYER")]
    white: String,
    /// Number of games; the players swap colours every game.
    #[arg(long, value_name = "N")]
    games: u32,
    #[command(flatten)]
    running: Running,
    /// Print one JSON object with every game and the summary instead of a table.
    #[arg(long)]
    json: bool,
    /// Save every game as a record in this folder (created if missing).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// The records' format.
    #[arg(long, value_enum, default_value_t = RecordFormat::Sgf)]
    record_format: RecordFormat,
    /// A GTP Go engine that counts every go game ended by two passes or the move limit, with
    /// its final_score, in place of toroid's count (which keeps dead stones on the board),
    /// like "gnugo --mode gtp --chinese-rules".
    #[arg(long, value_name = "ENGINE")]
    referee: Option<String>,
}

/// How games between named players are run: the options `toroid match` and
/// `toroid tournament` share.
#[derive(clap::Args)]
pub struct Running {
    /// Games played at once (default: the number of cores; use 1 for bots that search on
    /// every core themselves).
    #[arg(long, value_name = "K")]
    parallel: Option<usize>,
    /// Seed the games' seeds are derived from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds per move for every player: searching house bots search this long, engines
    /// are told it with time_settings (default: each level's own budget).
    #[arg(long, value_name = "SECONDS")]
    move_time: Option<f64>,
    /// Seconds an engine may take for one answer before it loses the game on time
    /// (default: the move time × 1.5 + 1, or 60 without a move time).
    #[arg(long, value_name = "SECONDS")]
    engine_timeout: Option<f64>,
}

impl Running {
    /// How long players may think.
    pub fn timing(&self) -> Result<Timing, Failure> {
        Ok(Timing {
            move_time: seconds("--move-time", self.move_time)?,
            engine_timeout: seconds("--engine-timeout", self.engine_timeout)?,
        })
    }

    /// Games at once, at most `games`.
    pub fn parallel(&self, games: usize) -> Result<usize, Failure> {
        let parallel = match self.parallel {
            Some(0) => return Err(Failure::usage("--parallel must be at least 1")),
            Some(k) => k,
            None => thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(parallel.min(games.max(1)))
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum RecordFormat {
    Sgf,
    Json,
}

impl RecordFormat {
    fn extension(self) -> &'static str {
        match self {
            RecordFormat::Sgf => "sgf",
            RecordFormat::Json => "json",
        }
    }
}

/// The two players, A and B.
struct Players([PlayerSpec; 2]);

impl Players {
    /// Who plays each colour in game `index`, as indexes into `self.0`.
    fn seats(index: usize) -> PerColor<usize> {
        let black = index % 2;
        PerColor {
            black,
            white: 1 - black,
        }
    }
}

const LABELS: [&str; 2] = ["A", "B"];

/// One game of the match as `--json` lists it.
#[derive(Serialize)]
struct ReportedGame {
    index: usize,
    seed: u64,
    /// `"A"` or `"B"`.
    black: &'static str,
    white: &'static str,
    /// `"black"`, `"white"` or `"draw"`.
    winner: &'static str,
    /// A code: the rules' reason, `resignation`, or the loser's fault (`illegal-move`,
    /// `timeout`, `crash`, `malformed-answer`, `refused-command`, `wrong-colour`).
    reason: &'static str,
    /// The ending in words.
    detail: String,
    plies: usize,
}

#[derive(Serialize)]
struct Summary {
    games: u32,
    /// A's results against B.
    #[serde(flatten)]
    tally: Tally,
    /// A's score fraction.
    score: f64,
    /// A's Elo over B: `estimate`, `low`, `high` (null where unbounded or, for an all-win
    /// or all-loss match, no estimate).
    elo: Elo,
    black_wins: u32,
    white_wins: u32,
}

#[derive(Serialize)]
struct Report<'a> {
    game: &'static str,
    params: ParamsView,
    seed: u64,
    players: PerLabel<'a>,
    games: Vec<ReportedGame>,
    summary: Summary,
}

#[derive(Serialize)]
#[serde(rename_all = "UPPERCASE")]
struct PerLabel<'a> {
    a: &'a str,
    b: &'a str,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let start = new_game(&args.game, &args.params).map_err(Failure::usage)?;
    if args.games == 0 {
        return Err(Failure::usage("--games must be at least 1"));
    }
    let timing = args.running.timing()?;
    let a = PlayerSpec::parse(&args.black).map_err(Failure::usage)?;
    let b = PlayerSpec::parse(&args.white).map_err(Failure::usage)?;
    for player in [&a, &b] {
        player.check(&start, timing).map_err(Failure::usage)?;
    }
    let referee = (args.referee.as_deref())
        .map(|command| Referee::new(command, &start))
        .transpose()
        .map_err(Failure::usage)?;
    super::kill_engines_on_interrupt();
    let players = Players([a, b]);
    let games = args.games as usize;
    let parallel = args.running.parallel(games)?;
    if let Some(dir) = &args.records {
        fs::create_dir_all(dir).map_err(|e| {
            Failure::usage(format!("cannot create the folder '{}': {e}", dir.display()))
        })?;
    }

    let progress = progress_bar(games as u64, args.json);
    let mut results: Vec<Option<Played>> = vec![None; games];
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let saved = thread::scope(|scope| {
        for _ in 0..parallel {
            let sender = sender.clone();
            let (next, start, players, referee) = (&next, &start, &players, &referee);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= games {
                    break;
                }
                let mut played = play_one(start, players, timing, args.running.seed, index);
                if let Some(referee) = referee {
                    played = referee.recount(start, played);
                }
                if sender.send((index, played)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        // Records are written as games finish, so that an interrupted match keeps them.
        for (index, played) in receiver {
            if let Some(dir) = &args.records {
                save(dir, &args, &start, &players, index, &played)?;
            }
            results[index] = Some(played);
            progress.inc(1);
        }
        Ok::<(), Failure>(())
    });
    progress.finish_and_clear();
    saved?;
    let results: Vec<Played> = results.into_iter().flatten().collect();

    let mut tally = Tally::default();
    let mut black_wins = 0;
    let mut white_wins = 0;
    for (index, played) in results.iter().enumerate() {
        let seats = Players::seats(index);
        let winner = match played.ending.winner {
            None => None,
            Some(Color::Black) => {
                black_wins += 1;
                Some(seats.black)
            }
            Some(Color::White) => {
                white_wins += 1;
                Some(seats.white)
            }
        };
        match winner {
            None => tally.draws += 1,
            Some(0) => tally.wins += 1,
            Some(_) => tally.losses += 1,
        }
    }
    let elo = tally.elo().expect("a match has at least one game");
    let names = [players.0[0].to_string(), players.0[1].to_string()];
    if args.json {
        let report = Report {
            game: start.kind().name(),
            params: ParamsView(start.params().clone()),
            seed: args.running.seed,
            players: PerLabel {
                a: &names[0],
                b: &names[1],
            },
            games: results
                .iter()
                .enumerate()
                .map(|(index, played)| {
                    let seats = Players::seats(index);
                    ReportedGame {
                        index,
                        seed: game_seed(args.running.seed, index),
                        black: LABELS[seats.black],
                        white: LABELS[seats.white],
                        winner: played.ending.winner_name(),
                        reason: played.ending.reason.code(),
                        detail: played.describe(),
                        plies: played.moves.len(),
                    }
                })
                .collect(),
            summary: Summary {
                games: args.games,
                tally,
                score: tally.score().expect("a match has at least one game"),
                elo,
                black_wins,
                white_wins,
            },
        };
        print_json(&report)
    } else {
        print(&table(
            &start,
            &names,
            &args,
            parallel,
            tally,
            elo,
            [black_wins, white_wins],
        ))
    }
}

/// Plays game `index` of the match.
fn play_one(start: &AnyGame, players: &Players, timing: Timing, seed: u64, index: usize) -> Played {
    let seats = Players::seats(index);
    let [black, white] = [seats.black, seats.white].map(|i| &players.0[i]);
    play_between(start, black, white, timing, game_seed(seed, index))
}

/// Seconds from the command line as a duration.
fn seconds(flag: &str, value: Option<f64>) -> Result<Option<Duration>, Failure> {
    value
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    Failure::usage(format!("{flag} must be a positive number of seconds"))
                })
        })
        .transpose()
}

/// Saves game `index` as `DIR/game-007.sgf`: numbered from 1, zero-padded so that files
/// sort in game order.
fn save(
    dir: &Path,
    args: &Args,
    start: &AnyGame,
    players: &Players,
    index: usize,
    played: &Played,
) -> Result<(), Failure> {
    let seats = Players::seats(index);
    let names = [
        players.0[seats.black].to_string(),
        players.0[seats.white].to_string(),
    ];
    let format = args.record_format;
    let text = played
        .record(start, names)
        .and_then(|record| match format {
            RecordFormat::Sgf => Ok(record.to_sgf()),
            RecordFormat::Json => record.to_json(),
        })
        .map_err(|e| Failure::usage(format!("cannot record game {}: {e}", index + 1)))?;
    let width = args.games.to_string().len();
    let path = dir.join(format!("game-{:0width$}.{}", index + 1, format.extension()));
    fs::write(&path, text)
        .map_err(|e| Failure::usage(format!("cannot write '{}': {e}", path.display())))
}

/// A bar on standard error, hidden when that is not a terminal or the output is JSON.
pub fn progress_bar(games: u64, json: bool) -> ProgressBar {
    let target = if json || !std::io::stderr().is_terminal() {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(Some(games), target);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

fn table(
    start: &AnyGame,
    names: &[String; 2],
    args: &Args,
    parallel: usize,
    tally: Tally,
    elo: Elo,
    color_wins: [u32; 2],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}): {} games, {} at a time, seed {}",
        start.kind(),
        params_line(start),
        args.games,
        parallel,
        args.running.seed
    );
    let _ = writeln!(
        out,
        "A = {}, B = {}; A has black in games 1, 3, 5, …\n",
        names[0], names[1]
    );
    let _ = writeln!(out, "     wins  losses  draws   score");
    for (label, t) in [("A", tally), ("B", tally.reversed())] {
        let score = 100.0 * t.score().unwrap_or(0.0);
        let _ = writeln!(
            out,
            "{label}  {:>6}  {:>6}  {:>5}  {score:>5.1}%",
            t.wins, t.losses, t.draws
        );
    }
    let draws = tally.draws;
    let _ = writeln!(out, "\nElo of A over B: {elo}");
    let _ = writeln!(
        out,
        "black won {}, white won {}, draws {draws}",
        color_wins[0], color_wins[1]
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_swap_colours_every_game() {
        assert_eq!(Players::seats(0).black, 0);
        assert_eq!(Players::seats(0).white, 1);
        assert_eq!(Players::seats(1).black, 1);
        assert_eq!(Players::seats(1).white, 0);
        assert_eq!(Players::seats(4).black, 0);
    }
}

//! `toroid tournament`: a local round robin or Swiss tournament between house bots and GTP
//! engines, played round by round through the runner of `toroid match`, with Glicko-2
//! ratings updated after every game (each its own rating period, as the server does) and a
//! crosstable at the end.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use indicatif::ProgressBar;
use serde::Serialize;
use toroid::arena::Played;
use toroid::player::{play_between, PlayerSpec, Timing};
use toroid::seed::game_seed;
use toroid::setup::new_game;
use toroid::view::ParamsView;
use toroid_rules::{AnyGame, Color, Position};
use toroid_server::hub::tournaments::pairing::{
    round_robin, History, Pairing, Result as GameResult, Round,
};
use toroid_server::rating::Rating;

use super::match_::{progress_bar, Running};
use super::{print, print_json, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// Rule set: torus, hex-torus, m-torus, ctor, capture-go or go.
    game: String,
    /// A parameter of the rule set (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// The players, comma-separated, strongest seed first: house-bot levels or GTP engine
    /// command lines (repeat `--players` for a command line that holds a comma).
    #[arg(long, value_name = "A,B,C", value_delimiter = ',', required = true)]
    players: Vec<String>,
    /// `swiss` or `round-robin`.
    #[arg(long, value_enum)]
    format: Format,
    /// Rounds: for Swiss, at most half the number of players (default: as many rounds as
    /// it takes to find a winner, log2 of the players); a round robin plays all of its
    /// rounds unless told fewer.
    #[arg(long, value_name = "N")]
    rounds: Option<usize>,
    #[command(flatten)]
    running: Running,
    /// Print one JSON object with the rounds, the standings and the ratings.
    #[arg(long)]
    json: bool,
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Format {
    Swiss,
    RoundRobin,
}

/// One game as the report lists it.
#[derive(Serialize)]
struct ReportedGame {
    white: String,
    black: String,
    /// `"white"`, `"black"` or `"draw"`.
    winner: &'static str,
    reason: &'static str,
    plies: usize,
}

#[derive(Serialize)]
struct ReportedRound {
    games: Vec<ReportedGame>,
    bye: Option<String>,
}

/// A player's line of the standings.
#[derive(Serialize)]
struct Standing {
    rank: usize,
    name: String,
    score: f64,
    buchholz: f64,
    sonneborn_berger: f64,
    rating: f64,
    deviation: f64,
}

#[derive(Serialize)]
struct Report {
    game: &'static str,
    params: ParamsView,
    format: Format,
    seed: u64,
    rounds: Vec<ReportedRound>,
    standings: Vec<Standing>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let start = new_game(&args.game, &args.params).map_err(Failure::usage)?;
    let timing = args.running.timing()?;
    let specs = (args.players.iter())
        .map(|p| PlayerSpec::parse(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::usage)?;
    let players = specs.len();
    if players < 2 {
        return Err(Failure::usage("a tournament has at least two players"));
    }
    for spec in &specs {
        spec.check(&start, timing).map_err(Failure::usage)?;
    }
    let rounds = match (args.format, args.rounds) {
        (_, Some(0)) => return Err(Failure::usage("--rounds must be at least 1")),
        (Format::Swiss, Some(n)) if n > (players / 2).max(1) => {
            return Err(Failure::usage(format!(
                "a Swiss of {players} players has at most {} rounds (more can reach a round \
                 nobody can pair without a rematch); use --format round-robin",
                (players / 2).max(1)
            )))
        }
        (Format::Swiss, Some(n)) => n,
        (Format::Swiss, None) => {
            (players.next_power_of_two().trailing_zeros() as usize).clamp(1, (players / 2).max(1))
        }
        (Format::RoundRobin, n) => {
            let all = round_robin(players).len();
            n.map_or(all, |n| n.min(all))
        }
    };
    let parallel = args.running.parallel(players / 2)?;
    super::kill_engines_on_interrupt();
    let names = names(&specs);
    let mut schedule = round_robin(players).into_iter();
    let games_per_round = players / 2;
    let progress = progress_bar((rounds * games_per_round) as u64, args.json);
    let mut history = History::new(players);
    let mut ratings = vec![Rating::default(); players];
    let mut reported = Vec::new();
    let mut index = 0;
    for _ in 0..rounds {
        let round = match args.format {
            Format::RoundRobin => schedule.next().expect("rounds are at most the schedule's"),
            Format::Swiss => history
                .next_swiss_round()
                .ok_or_else(|| Failure::usage("no pairing without a rematch is left"))?,
        };
        let played = play_round(
            &start,
            &specs,
            &round,
            timing,
            args.running.seed,
            index,
            parallel,
            &progress,
        );
        index += round.games.len();
        let results: Vec<GameResult> = played.iter().map(result).collect();
        for (game, outcome) in round.games.iter().zip(&results) {
            rate(&mut ratings, game, *outcome);
        }
        reported.push(ReportedRound {
            games: (round.games.iter().zip(&played))
                .map(|(game, played)| ReportedGame {
                    white: names[game.white].clone(),
                    black: names[game.black].clone(),
                    winner: played.ending.winner_name(),
                    reason: played.ending.reason.code(),
                    plies: played.moves.len(),
                })
                .collect(),
            bye: round.bye.map(|p| names[p].clone()),
        });
        history.rounds.push((round, results));
    }
    progress.finish_and_clear();
    let standings = standings(&history, &ratings, &names);
    if args.json {
        print_json(&Report {
            game: start.kind().name(),
            params: ParamsView(start.params().clone()),
            format: args.format,
            seed: args.running.seed,
            rounds: reported,
            standings,
        })
    } else {
        print(&crosstable(&history, &standings, &names))
    }
}

/// The players' names: their specs, numbered where two are the same.
fn names(specs: &[PlayerSpec]) -> Vec<String> {
    let mut names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    for i in 0..names.len() {
        let twins = (0..i).filter(|&j| specs[j] == specs[i]).count();
        if twins > 0 || specs[i + 1..].contains(&specs[i]) {
            names[i] = format!("{} #{}", names[i], twins + 1);
        }
    }
    names
}

/// Plays the games of `round` at once (up to `parallel`); game `i` of it is the
/// tournament's game `first + i`, seeded from it.
#[allow(clippy::too_many_arguments)]
fn play_round(
    start: &AnyGame,
    specs: &[PlayerSpec],
    round: &Round,
    timing: Timing,
    seed: u64,
    first: usize,
    parallel: usize,
    progress: &ProgressBar,
) -> Vec<Played> {
    let next = AtomicUsize::new(0);
    let mut played: Vec<Option<Played>> = vec![None; round.games.len()];
    let results = std::sync::Mutex::new(&mut played);
    thread::scope(|scope| {
        for _ in 0..parallel.min(round.games.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(game) = round.games.get(i) else {
                    break;
                };
                // The pairing's white is the colour that moves second in toroid's games.
                let (black, white) = (&specs[game.black], &specs[game.white]);
                let outcome = play_between(start, black, white, timing, game_seed(seed, first + i));
                results.lock().expect("no player panics")[i] = Some(outcome);
                progress.inc(1);
            });
        }
    });
    played.into_iter().flatten().collect()
}

/// A game's result for the pairing's white.
fn result(played: &Played) -> GameResult {
    match played.ending.winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    }
}

/// Both players' ratings after `game` ended in `result`.
fn rate(ratings: &mut [Rating], game: &Pairing, result: GameResult) {
    let white_score = match result {
        GameResult::WhiteWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    };
    let (white, black) = (ratings[game.white], ratings[game.black]);
    ratings[game.white] = white.after(&[(black, white_score)]);
    ratings[game.black] = black.after(&[(white, 1.0 - white_score)]);
}

fn standings(history: &History, ratings: &[Rating], names: &[String]) -> Vec<Standing> {
    let (scores, breaks) = (history.scores(), history.tie_breaks());
    let tenth = |x: f64| (x * 10.0).round() / 10.0;
    (history.standings().into_iter().enumerate())
        .map(|(rank, p)| Standing {
            rank: rank + 1,
            name: names[p].clone(),
            score: scores[p],
            buchholz: breaks[p].0,
            sonneborn_berger: breaks[p].1,
            rating: tenth(ratings[p].rating),
            deviation: tenth(ratings[p].deviation),
        })
        .collect()
}

/// The crosstable: a line per player in standing order, and per round its opponent's rank,
/// its colour and its result (`+` won, `=` drew, `-` lost), or the bye.
fn crosstable(history: &History, standings: &[Standing], names: &[String]) -> String {
    let rank_of = |player: usize| {
        (standings.iter())
            .position(|s| s.name == names[player])
            .map_or(0, |r| r + 1)
    };
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(6);
    let mut out = String::new();
    let _ = write!(out, "  # {:width$}", "player");
    for round in 1..=history.rounds.len() {
        let _ = write!(out, " {:>5}", format!("R{round}"));
    }
    let _ = writeln!(
        out,
        " {:>5} {:>6} {:>6} {:>13}",
        "score", "buch", "s-b", "rating"
    );
    for standing in standings {
        let player = (0..names.len())
            .find(|&p| names[p] == standing.name)
            .unwrap_or(0);
        let _ = write!(out, "{:>3} {:width$}", standing.rank, standing.name);
        for (round, results) in &history.rounds {
            let cell = match round.bye {
                Some(bye) if bye == player => "bye".to_string(),
                _ => (round.games.iter().zip(results))
                    .find_map(|(game, result)| {
                        let (opponent, colour, mine) = match player {
                            p if p == game.white => (game.black, 'w', *result),
                            p if p == game.black => (game.white, 'b', flip(*result)),
                            _ => return None,
                        };
                        let sign = match mine {
                            GameResult::WhiteWins => '+',
                            GameResult::Draw => '=',
                            GameResult::BlackWins => '-',
                        };
                        Some(format!("{}{colour}{sign}", rank_of(opponent)))
                    })
                    .unwrap_or_default(),
            };
            let _ = write!(out, " {cell:>5}");
        }
        let _ = writeln!(
            out,
            " {:>5} {:>6} {:>6} {:>7} ±{:<5}",
            standing.score,
            standing.buchholz,
            standing.sonneborn_berger,
            standing.rating,
            standing.deviation.round()
        );
    }
    out
}

/// A result seen from black's side, as white's.
fn flip(result: GameResult) -> GameResult {
    match result {
        GameResult::WhiteWins => GameResult::BlackWins,
        GameResult::Draw => GameResult::Draw,
        GameResult::BlackWins => GameResult::WhiteWins,
    }
}

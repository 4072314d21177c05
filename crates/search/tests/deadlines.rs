//! Every level and every analysis keeps to its deadline on the largest board each rule set
//! allows, set-up work included (the moves to avoid, the root's proofs, greedy's checks),
//! at the start and in the middle of a game. The server gives its searches such a deadline
//! through a `Pace`; the command line through the clock or a time budget.
//!
//! A deadline is kept within [`MARGIN`] (the last simulation or set-up step, and the move's
//! choice): before the deadline reached the set-up work, a first move on the largest boards
//! took 30 to 40 seconds. At the start of a game nothing is settled, so the levels that
//! search for a time search until the deadline, not less. A search of 300 ms must also get
//! to simulate: on the loop games' largest boards the set-up alone once took longer than any
//! house bot's time.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::params::ParamKind;
use toroid_rules::{AnyGame, GameKind, Position, TimeLeft};
use toroid_search::{Budget, Level, Mcts, MctsConfig, Pace, Tuning};

const DEADLINE: Duration = Duration::from_millis(300);
/// How long past its deadline a search may take to answer.
const MARGIN: Duration = Duration::from_millis(100);

/// The six tests time their searches one at a time: six searching threads on a CI machine's
/// two cores would wait for each other past any margin, and measure the scheduler instead.
static TIMING: Mutex<()> = Mutex::new(());

/// A pace that stops the search at a fixed moment, as the server's does at its deadline.
struct Until(Instant);

impl Pace for Until {
    fn go_on(&self) -> bool {
        Instant::now() < self.0
    }
}

/// The start of `kind` on its largest board: every board dimension at its maximum.
fn largest(kind: GameKind) -> AnyGame {
    let params: Vec<String> = kind
        .params()
        .iter()
        .filter(|spec| ["size", "width", "height"].contains(&spec.name))
        .map(|spec| match spec.kind {
            ParamKind::Int { max, .. } => format!("{}={max}", spec.name),
            _ => panic!("{kind}: {} is not a number", spec.name),
        })
        .collect();
    let params: Vec<&str> = params.iter().map(String::as_str).collect();
    kind.new_game(&params)
        .unwrap_or_else(|e| panic!("{kind} at {params:?}: {e}"))
}

/// `start` after random moves that fill about a third of its cells (fewer if the game ends).
fn middle(start: &AnyGame) -> AnyGame {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut game = start.clone();
    let mut last = game.clone();
    for _ in 0..game.topology().len() / 3 {
        let Some(mv) = game.uniform_move(&mut rng) else {
            break;
        };
        last = game.clone();
        game.play(mv).expect("uniform moves are legal");
    }
    // A game that ended is no position to choose a move in.
    if game.turn().is_some() {
        game
    } else {
        last
    }
}

fn keeps_deadlines(name: &str) {
    let kind: GameKind = name.parse().expect("a rule set");
    let start = largest(kind);
    // Another test's failure poisons the lock; this one's timing is still worth taking.
    let _timing = TIMING.lock().unwrap_or_else(PoisonError::into_inner);
    for (stage, game) in [("start", start.clone()), ("middle", middle(&start))] {
        for level in Level::ALL {
            let asked = Instant::now();
            let pace: Arc<dyn Pace> = Arc::new(Until(asked + DEADLINE));
            let tuning = Tuning {
                threads: Some(1),
                pace: Some(pace),
                ..Tuning::default()
            };
            let mv = level.bot_with(1, tuning).choose(&game, None);
            let took = asked.elapsed();
            // Strong and max would search for longer than the deadline, which stops them.
            let searches_on = stage == "start" && matches!(level, Level::Strong | Level::Max);
            let least = if searches_on {
                DEADLINE
            } else {
                Duration::ZERO
            };
            assert!(
                (least..=DEADLINE + MARGIN).contains(&took),
                "{kind} {stage}, {level}: {took:?} for a deadline of {DEADLINE:?}"
            );
            game.clone()
                .play(mv)
                .unwrap_or_else(|e| panic!("{kind} {stage}, {level}: illegal move: {e}"));
        }
        // The clock bounds a bot without a pace just as well.
        let time = TimeLeft {
            remaining: DEADLINE * 2,
            increment: Duration::ZERO,
            overtime: Duration::ZERO,
        };
        for level in [Level::Greedy, Level::Strong] {
            let asked = Instant::now();
            level.bot(1).choose(&game, Some(time));
            let took = asked.elapsed();
            // A move never gets more than half the time left.
            assert!(
                took <= time.remaining / 2 + MARGIN,
                "{kind} {stage}, {level} on a clock: {took:?}"
            );
        }
        // An analysis of 1 ms, the least the server asks for.
        let asked = Instant::now();
        let least = Duration::from_millis(1);
        let mut config = MctsConfig::new(Budget::Time(least), 1);
        config.settings.stop_early = false;
        let analysis = Mcts::new("analysis", config, 1).analyse(&game, None);
        let took = asked.elapsed();
        // Not stopping early, it searches its whole time.
        assert!(
            (least..=least + MARGIN).contains(&took),
            "{kind} {stage}, analysis of 1 ms: {took:?}"
        );
        assert!(
            !analysis.moves.is_empty(),
            "{kind} {stage}: no candidate moves"
        );
        // The set-up leaves time to search: the house bots' 2 s are not spent on it alone.
        let config = MctsConfig::new(Budget::Time(DEADLINE), 1);
        let analysis = Mcts::new("search", config, 1).analyse(&game, None);
        assert!(
            analysis.simulations > 0,
            "{kind} {stage}: no simulation in {DEADLINE:?}"
        );
    }
}

#[test]
fn torus() {
    keeps_deadlines("torus");
}

#[test]
fn hex_torus() {
    keeps_deadlines("hex-torus");
}

#[test]
fn m_torus() {
    keeps_deadlines("m-torus");
}

#[test]
fn ctor() {
    keeps_deadlines("ctor");
}

#[test]
fn capture_go() {
    keeps_deadlines("capture-go");
}

#[test]
fn go() {
    keeps_deadlines("go");
}

//! Every bot plays only legal moves, search finds immediate wins and blocks immediate losses
//! on every rule set, and a seed fixes the game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use toroid_rules::{AnyGame, Color, GameKind, Move, Params, Position};
use toroid_rules::{Bot, TimeLeft};
use toroid_search::budget::{SearchLimits, Stop};
use toroid_search::search::Searcher;
use toroid_search::tree::ROOT;
use toroid_search::{Analysis, Budget, Level, Mcts, MctsConfig, Proof};
use toroid_search::{PlayoutEvaluator, Zero, ZeroConfig};

/// A game of the rule set called `name` after `moves`.
fn game(name: &str, params: &[&str], moves: &[&str]) -> AnyGame {
    let kind: GameKind = name.parse().expect("a rule set");
    let mut g = kind.new_game(params).expect("valid parameters");
    for m in moves {
        let mv = Move::parse(m, g.topology()).expect("valid notation");
        g.play(mv)
            .unwrap_or_else(|e| panic!("{kind}: {m} is illegal: {e}"));
    }
    g
}

fn mcts(playouts: u64, threads: usize, seed: u64) -> Mcts {
    Mcts::new(
        "test",
        MctsConfig::new(Budget::Playouts(playouts), threads),
        seed,
    )
}

/// The network-guided search with a uniform "network" that values leaves by one random
/// playout: plain Monte Carlo tree search with PUCT's selection.
fn puct(playouts: u64, seed: u64) -> Zero {
    let config = ZeroConfig::new(Budget::Playouts(playouts));
    Zero::new("puct", config, Box::new(PlayoutEvaluator::new(seed)), seed)
}

/// A search that spends its whole budget, as analysis does.
fn mcts_whole_budget(playouts: u64, threads: usize, seed: u64) -> Mcts {
    let mut config = MctsConfig::new(Budget::Playouts(playouts), threads);
    config.settings.stop_early = false;
    Mcts::new("test", config, seed)
}

/// The moves that win at once for the player to move.
fn winning_moves(g: &AnyGame) -> Vec<Move> {
    let Some(me) = g.turn() else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv| {
            let mut after = g.clone();
            after.play(mv).is_ok() && after.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .collect()
}

/// Whether, after `mv`, the opponent of the mover can win at once.
fn lets_opponent_win(g: &AnyGame, mv: Move) -> bool {
    let me = g.turn().unwrap();
    let mut after = g.clone();
    after.play(mv).unwrap();
    after.turn() == Some(me.opponent()) && !winning_moves(&after).is_empty()
}

/// Plays `start` out between the two bots, checking every move, and returns the end.
fn plays_legally_to_the_end(start: &AnyGame, black: &mut dyn Bot, white: &mut dyn Bot) -> AnyGame {
    let kind = start.kind();
    let mut g = start.clone();
    while let Some(turn) = g.turn() {
        let bot: &mut dyn Bot = if turn == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let mv = bot.choose(&g, None);
        let before = g.clone();
        g.play(mv)
            .unwrap_or_else(|e| panic!("{kind}: {} played {mv:?}, illegal: {e}", bot.name()));
        assert_ne!(g.hash(), before.hash());
    }
    g
}

/// A game on a small board (6×6, or 5×5 where the rule set wants odd sides), which keeps
/// whole games quick.
fn small(kind: GameKind) -> AnyGame {
    [6, 5]
        .into_iter()
        .find_map(|side| {
            let mut params = Params::defaults(kind.params());
            for (key, value) in kind.rule_set().board.assignments(side, side)? {
                params.assign(key, value).ok()?;
            }
            kind.start(&params).ok()
        })
        .expect("a small board")
}

#[test]
fn every_bot_plays_only_legal_moves_on_every_rule_set() {
    for kind in GameKind::ALL {
        for (i, level) in [Level::Random, Level::Greedy].into_iter().enumerate() {
            let mut search = mcts(64, 1 + i, 7);
            let mut other = level.bot(3);
            plays_legally_to_the_end(&small(kind), &mut search, other.as_mut());
            plays_legally_to_the_end(&small(kind), other.as_mut(), &mut search);
        }
        let (mut a, mut b) = (Level::Greedy.bot(1), Level::Random.bot(2));
        plays_legally_to_the_end(&small(kind), a.as_mut(), b.as_mut());
    }
}

/// Positions where the player to move can win at once, per rule set.
fn wins_available() -> Vec<AnyGame> {
    vec![
        // White's cc has black on three sides; cd surrounds it.
        game("torus", &["size=5"], &["bc", "cc", "dc", "aa", "cb", "ae"]),
        // Black's column x=1 needs bd to close a ring.
        game(
            "hex-torus",
            &["width=4", "height=4"],
            &["ba", "da", "bb", "db", "bc", "ad"],
        ),
        // Black's middle column needs ce to close a loop through the top/bottom seam.
        game(
            "m-torus",
            &["width=5", "height=5"],
            &["ca", "aa", "cb", "ab", "cc", "ea", "cd", "eb"],
        ),
        // White's bb is in atari; bc captures the one stone the target asks for.
        game(
            "capture-go",
            &["size=5", "target=1"],
            &["ab", "bb", "cb", "ee", "ba", "ea"],
        ),
        // White passed while behind on the board (komi 0.5): passing ends the game won.
        game("go", &["size=5", "komi=0.5"], &["cc", "pass"]),
        ctor_endgame(),
    ]
}

/// A `ctor` position near the full board where the mover has a winning move and a losing
/// one, found by playing random moves from a fixed seed.
fn ctor_endgame() -> AnyGame {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    loop {
        let mut g = game("ctor", &["size=4"], &[]);
        while g.turn().is_some() {
            let wins = winning_moves(&g);
            let mut all = Vec::new();
            g.legal_moves(&mut all);
            if !wins.is_empty() && wins.len() < all.len() {
                return g;
            }
            let mv = g.playout_move(&mut rng).unwrap();
            g.play(mv).unwrap();
        }
    }
}

#[test]
fn search_finds_the_immediate_win_on_every_rule_set() {
    for (i, g) in wins_available().into_iter().enumerate() {
        let wins = winning_moves(&g);
        assert!(
            !wins.is_empty(),
            "{}: no winning move in the test position",
            g.kind()
        );
        for threads in [1, 2] {
            let mv = mcts(1000, threads, i as u64).choose(&g, None);
            assert!(
                wins.contains(&mv),
                "{}: played {mv:?}, wins are {wins:?}",
                g.kind()
            );
        }
        let mv = puct(1000, i as u64).choose(&g, None);
        assert!(
            wins.contains(&mv),
            "{}: PUCT played {mv:?}, wins are {wins:?}",
            g.kind()
        );
    }
}

#[test]
fn search_stops_once_more_simulations_cannot_change_the_move() {
    const BUDGET: u64 = 60_000;
    // A win at once is proven on the first simulations.
    for g in wins_available() {
        let analysis = mcts(BUDGET, 1, 3).analyse(&g, None);
        assert!(
            analysis.simulations < 1_000,
            "{}: {} simulations for a proven win",
            g.kind(),
            analysis.simulations
        );
    }
    // On a tiny board the best move soon leads by more than what is left of the budget.
    let g = game("go", &["size=5"], &[]);
    let early = mcts(BUDGET, 1, 3).analyse(&g, None);
    assert!(early.simulations < BUDGET, "{}", early.simulations);
    let whole = mcts_whole_budget(BUDGET, 1, 3).analyse(&g, None);
    assert_eq!(whole.simulations, BUDGET);
    // Stopping early never changes the move the whole budget would choose by visits: the
    // leader could not be overtaken.
    assert_eq!(early.best_move(), whole.best_move());
}

/// Positions where the opponent threatens to win at once and the mover can stop it.
fn threats() -> Vec<AnyGame> {
    vec![
        game("torus", &["size=5"], &["bc", "cc", "dc", "aa", "cb"]),
        game(
            "hex-torus",
            // White's row y=1 needs only db to close a bracelet (a straight gap in a hex
            // row has one filling; a gap in a column has two).
            &["width=6", "height=6"],
            &["ae", "ab", "be", "bb", "de", "cb", "ee", "eb", "cd", "fb"],
        ),
        game(
            "m-torus",
            // White's middle row needs only cc to close a loop through the left/right seam.
            &["width=5", "height=5"],
            &["aa", "ac", "ee", "bc", "ae", "dc", "ea", "ec"],
        ),
        // Black threatens bc, capturing white's bb.
        game(
            "capture-go",
            &["size=5", "target=1"],
            &["ab", "bb", "cb", "ee", "ba"],
        ),
    ]
}

#[test]
fn search_blocks_the_opponents_immediate_win() {
    for (i, g) in threats().into_iter().enumerate() {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(
            moves.iter().any(|&m| lets_opponent_win(&g, m)),
            "{}: no threat in the test position",
            g.kind()
        );
        assert!(
            moves.iter().any(|&m| !lets_opponent_win(&g, m)),
            "{}: the threat cannot be stopped",
            g.kind()
        );
        for threads in [1, 2] {
            let mv = mcts(3000, threads, i as u64).choose(&g, None);
            assert!(
                !lets_opponent_win(&g, mv),
                "{}: {mv:?} lets the opponent win",
                g.kind()
            );
        }
        let mv = puct(3000, i as u64).choose(&g, None);
        assert!(
            !lets_opponent_win(&g, mv),
            "{}: PUCT's {mv:?} lets the opponent win",
            g.kind()
        );
        let mv = Level::Greedy.bot(5).choose(&g, None);
        assert!(
            !lets_opponent_win(&g, mv),
            "{}: greedy's {mv:?} lets the opponent win",
            g.kind()
        );
    }
}

#[test]
fn greedy_takes_the_immediate_win() {
    for (i, g) in wins_available().into_iter().enumerate() {
        let mv = Level::Greedy.bot(i as u64).choose(&g, None);
        assert!(
            winning_moves(&g).contains(&mv),
            "{}: greedy played {mv:?}",
            g.kind()
        );
    }
}

fn record(seed: u64) -> Vec<Move> {
    let mut g = game("go", &["size=7"], &[]);
    let mut black = mcts(200, 2, seed);
    let mut white = Level::Greedy.bot(seed);
    let mut moves = Vec::new();
    while let Some(turn) = g.turn() {
        let mv = if turn == Color::Black {
            black.choose(&g, None)
        } else {
            white.choose(&g, None)
        };
        g.play(mv).unwrap();
        moves.push(mv);
    }
    moves
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let first = record(42);
    assert_eq!(first, record(42));
    assert_ne!(first, record(43));
}

#[test]
fn time_budgets_are_kept() {
    let g = game("go", &[], &[]);
    let mut bot = Mcts::new(
        "t",
        MctsConfig::new(Budget::Time(Duration::from_millis(100)), 2),
        1,
    );
    let start = Instant::now();
    let analysis = bot.analyse(&g, None);
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(analysis.simulations > 0);
    // A tight clock overrides a generous budget.
    let mut bot = Mcts::new(
        "t",
        MctsConfig::new(Budget::Time(Duration::from_secs(60)), 1),
        1,
    );
    let clock = TimeLeft {
        remaining: Duration::from_millis(400),
        increment: Duration::ZERO,
        overtime: Duration::ZERO,
    };
    let start = Instant::now();
    bot.choose(&g, Some(clock));
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[test]
fn analysis_reports_candidates_visits_and_variations() {
    let g = game("go", &["size=7"], &[]);
    let analysis = mcts_whole_budget(2000, 2, 9).analyse(&g, None);
    assert_eq!(analysis.simulations, 2000);
    assert_eq!(analysis.visit_map.len(), 49);
    let total: u32 = analysis.moves.iter().map(|m| m.visits).sum();
    // Every simulation passes through one root move.
    assert_eq!(total, 2000);
    let best = &analysis.moves[0];
    assert!(analysis.moves.iter().all(|m| m.visits <= best.visits));
    assert_eq!(best.pv[0], best.mv);
    assert!(best.pv.len() > 1);
    assert!((0.0..=1.0).contains(&best.win_rate));
    assert_eq!(
        analysis.visit_map.iter().sum::<u32>() + pass_visits(&analysis),
        total
    );
}

fn pass_visits(a: &Analysis) -> u32 {
    a.moves
        .iter()
        .filter(|m| m.mv.cell().is_none())
        .map(|m| m.visits)
        .sum()
}

#[test]
fn the_tree_is_reused_after_the_opponents_reply() {
    let mut g = game("go", &["size=7"], &[]);
    // The whole budget each time: a search that stops early could run fewer than 2000.
    let mut bot = mcts_whole_budget(2000, 1, 4);
    let first = bot.analyse(&g, None);
    let mine = first.best_move().unwrap();
    let reply = first.moves[0]
        .pv
        .get(1)
        .copied()
        .expect("a reply in the variation");
    g.play(mine).unwrap();
    g.play(reply).unwrap();
    let second = bot.analyse(&g, None);
    let total: u32 = second.moves.iter().map(|m| m.visits).sum();
    // The kept subtree already had visits before these 2000 simulations.
    assert!(total > 2000, "{total}");
}

#[test]
fn pondering_searches_the_opponents_moves_until_told_to_stop() {
    let mut g = game("go", &["size=7"], &["dd"]);
    // Two threads, so that pondering takes one of them and leaves the other idle.
    let mut bot = mcts_whole_budget(1, 2, 5);
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (flag, position) = (Arc::clone(&stop), &g);
        let thinker = scope.spawn(|| bot.ponder(position, flag));
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        stop.store(true, Ordering::Relaxed);
        thinker.join().unwrap();
        // It returns soon (within a simulation or two), not at some budget of its own.
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "{:?}",
            asked.elapsed()
        );
    });
    // The opponent's reply the ponder liked best, from a one-simulation look at its tree.
    let pondered = bot.analyse(&g, None);
    let seen: u32 = pondered.moves.iter().map(|m| m.visits).sum();
    assert!(seen > 20, "only {seen} simulations in 300 ms of pondering");
    g.play(pondered.best_move().unwrap()).unwrap();
    let expected = pondered.moves[0].visits;
    // The search of the next move starts from the pondered subtree: besides its own one
    // simulation, the root's moves have the visits that went below the reply.
    let next = bot.analyse(&g, None);
    let total: u32 = next.moves.iter().map(|m| m.visits).sum();
    assert!(total > 1 && total + 2 >= expected, "{total} of {expected}");
}

#[test]
fn a_bot_without_a_tree_to_keep_does_not_ponder() {
    let g = game("go", &["size=7"], &["dd"]);
    let mut config = MctsConfig::new(Budget::Playouts(1), 1);
    config.reuse_tree = false;
    let mut bot = Mcts::new("test", config, 5);
    let asked = Instant::now();
    // Not stopped, yet it returns: a search it could not keep would be wasted.
    bot.ponder(&g, Arc::new(AtomicBool::new(false)));
    assert!(asked.elapsed() < Duration::from_secs(1));
}

/// `torus`: after these moves white wins by force with two threats: ad threatens black's ae,
/// black must fill af, and ig captures af, threatening ae again where black can neither fill
/// (into a capture) nor capture.
const TORUS_COMBINATION: [&str; 5] = ["ae", "be", "ea", "ie", "eh"];

#[test]
fn search_proves_a_forced_win_and_plays_it() {
    let start = game("torus", &[], &TORUS_COMBINATION);
    assert!(winning_moves(&start).is_empty());
    let analysis = mcts(300, 1, 3).analyse(&start, None);
    assert_eq!(analysis.moves[0].proof, Proof::Win);
    // Whatever black answers, white wins with its third move at the latest.
    let defenders: [Box<dyn Bot>; 3] = [
        Level::Greedy.bot(1),
        Level::Random.bot(2),
        Box::new(mcts(1000, 1, 4)),
    ];
    for mut black in defenders {
        let mut g = start.clone();
        let mut white = mcts(300, 1, 3);
        for _ in 0..5 {
            let Some(turn) = g.turn() else { break };
            let mv = if turn == Color::White {
                white.choose(&g, None)
            } else {
                black.choose(&g, None)
            };
            g.play(mv).unwrap();
        }
        assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Color::White)));
    }
}

#[test]
fn search_avoids_a_move_that_allows_a_forced_win() {
    // Black to move before eh: after most moves white's ad, black's forced af and white's
    // ig leave black without a saving move.
    let g = game("torus", &[], &TORUS_COMBINATION[..4]);
    let mv = mcts(300, 1, 5).choose(&g, None);
    let mut line = g.clone();
    line.play(mv).unwrap();
    // The seeded search answers elsewhere, so the combination is played out against it. (A
    // search that took one of its points instead would need another check of the defence.)
    for m in ["ad", "af", "ig"] {
        let step = Move::parse(m, line.topology()).unwrap();
        assert!(
            line.turn().is_some(),
            "the game ended before {m}, after black's {mv:?}"
        );
        if let Err(e) = line.play(step) {
            panic!("the combination cannot go on at {m} after black's {mv:?}: {e}");
        }
    }
    let mut replies = Vec::new();
    line.legal_moves(&mut replies);
    assert!(
        line.turn().is_some() && replies.iter().any(|&r| !lets_opponent_win(&line, r)),
        "black's {mv:?} lets the combination through"
    );
}

/// Where the rule set's knowledge avoids every move (each loses by force), the search still
/// searches and offers one. Once this panicked: with every root child pruned, selection fell
/// back to the root itself and replayed its move, which in a kept subtree is the occupied
/// point that led there.
#[test]
fn a_search_that_avoids_every_move_still_searches_and_offers_one() {
    let AnyGame::Go(mut g) = game("go", &["size=7"], &[]) else {
        unreachable!("a go game")
    };
    let settings = MctsConfig::new(Budget::Playouts(1), 1).settings;
    let limits = SearchLimits {
        playouts: 2000,
        stop: Stop::new(None, None),
    };
    let mut searcher = Searcher::new(1);
    searcher.prepare(&g, true, &[], &settings, &limits.stop);
    searcher.run(&g, &limits, &settings);
    // Two plies on, inside the kept tree, with every move avoided.
    for _ in 0..2 {
        let best = searcher.tree.most_visited(ROOT).expect("a searched move");
        let mv = searcher.tree.node(best).mv;
        g.play(mv).unwrap();
        searcher.prepare(&g, true, &[], &settings, &limits.stop);
    }
    assert!(
        searcher.tree.root().mv.cell().is_some(),
        "the subtree was kept"
    );
    let mut every_move = Vec::new();
    g.legal_moves(&mut every_move);
    searcher.prepare(&g, true, &every_move, &settings, &limits.stop);
    let simulations = searcher.run(&g, &limits, &settings);
    assert!(simulations > 0);
    let cells = g.topology().len();
    let analysis = Analysis::merge(&[&searcher.tree], cells, simulations, Duration::ZERO);
    let best = analysis.best_move().expect("a move for a lost position");
    assert!(g.check(best).is_ok());
}

#[test]
fn the_guided_search_keeps_its_tree_after_the_opponents_reply() {
    let mut g = game("go", &["size=5"], &[]);
    let mut search = puct(2000, 4);
    let first = search.analyse(&g, None);
    let pv = &first.moves[0].pv;
    assert!(pv.len() >= 3, "{pv:?}");
    g.play(pv[0]).unwrap();
    g.play(pv[1]).unwrap();
    let second = search.analyse(&g, None);
    let visits: u32 = second.moves.iter().map(|m| m.visits).sum();
    // The subtree below the two moves brought its visits along: more than this search's own.
    assert!(
        visits as u64 > second.simulations,
        "{visits} visits, {} simulations",
        second.simulations
    );
}

/// `zero` plays every rule set with its built-in network, on any size of their boards; with
/// it, it beats `random` from both sides on each.
#[test]
fn zero_plays_every_rule_set_and_beats_random() {
    for kind in GameKind::ALL {
        assert!(Level::Zero.plays(kind), "{kind}");
        assert!(
            toroid_search::zero::house_network(&small(kind)).is_some(),
            "{kind}"
        );
    }
    let network = toroid_search::zero::house_network(&small(GameKind::HexTorus))
        .expect("hex-torus has a network");
    assert_eq!(
        network.shape().stencil,
        7,
        "the hex lattice's cell and six neighbours"
    );
    for (kind, zero_is) in (GameKind::ALL.into_iter()).flat_map(|k| Color::BOTH.map(|c| (k, c))) {
        let tuning = toroid_search::Tuning {
            budget: Some(Budget::Playouts(100)),
            ..Default::default()
        };
        let mut zero = Level::Zero.bot_with(5, tuning);
        let mut random = Level::Random.bot(6);
        let (black, white): (&mut dyn Bot, &mut dyn Bot) = match zero_is {
            Color::Black => (zero.as_mut(), random.as_mut()),
            Color::White => (random.as_mut(), zero.as_mut()),
        };
        let g = plays_legally_to_the_end(&small(kind), black, white);
        assert_eq!(
            g.outcome().and_then(|o| o.winner),
            Some(zero_is),
            "{kind:?}"
        );
    }
}

/// An evaluator that knows nothing and says so: uniform priors, every position even.
struct Even;

impl toroid_search::Evaluator for Even {
    fn evaluate(&mut self, positions: &[&AnyGame]) -> Vec<toroid_net::Evaluation> {
        (positions.iter())
            .map(|p| {
                let mut mask = vec![false; p.topology().len() + Move::BEYOND_CELLS];
                p.legal_mask(&mut mask);
                toroid_net::Evaluation {
                    priors: toroid_net::uniform_priors(&mask),
                    value: 0.0,
                }
            })
            .collect()
    }
}

/// A leaf's value is the evaluator's and the house playout's results mixed by
/// `playout_share`: with an evaluator that calls everything even, a move searched once is
/// worth exactly the playout's ±1 times the share.
#[test]
fn the_playout_share_mixes_a_playouts_result_into_each_leafs_value() {
    // Two simulations: the first evaluates the root, the second visits one move. No game
    // ends in one ply here.
    let g = game("hex-torus", &["width=8", "height=8"], &[]);
    for share in [0.0, 0.5, 1.0] {
        for seed in 0..5 {
            let mut config = ZeroConfig::new(Budget::Playouts(2));
            config.playout_share = share;
            let analysis = Zero::new("mixed", config, Box::new(Even), seed).analyse(&g, None);
            let visited: Vec<_> = analysis.moves.iter().filter(|m| m.visits > 0).collect();
            assert_eq!(visited.len(), 1, "{share}, seed {seed}");
            assert_eq!(visited[0].visits, 1);
            let value = (2.0 * visited[0].win_rate - 1.0).abs();
            assert!(
                (value - f64::from(share)).abs() < 1e-6,
                "{share}, seed {seed}: {value}"
            );
        }
    }
}

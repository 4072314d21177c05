//! `hex-torus` (Mark Steere's Torus): worked examples of every kind of loop, illegal moves,
//! and property tests against a brute-force referee that enumerates simple cycles.

mod loops_referee;

use loops_referee::*;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::games::HexTorus;
use toroid_rules::{
    random_playout, zobrist, Cell, Color, GameKind, IllegalMove, Move, Outcome, Params, Position,
    Reason, Topology,
};

fn game(w: usize, h: usize) -> HexTorus {
    let params = Params::parse(
        HexTorus::PARAMS,
        &[format!("width={w}"), format!("height={h}")],
    )
    .unwrap();
    HexTorus::new(&params).unwrap()
}

/// A game with the pie rule on (`swap=true`).
fn pie_game(w: usize, h: usize) -> HexTorus {
    let params = Params::parse(
        HexTorus::PARAMS,
        &[
            format!("width={w}"),
            format!("height={h}"),
            "swap=true".into(),
        ],
    )
    .unwrap();
    HexTorus::new(&params).unwrap()
}

#[test]
fn swap_is_refused_without_the_pie_rule() {
    swap_needs_the_pie_rule(game(8, 8));
}

fn cells(g: &HexTorus, xy: &[(usize, usize)]) -> Vec<Cell> {
    xy.iter()
        .map(|&(x, y)| g.topology().cell_at(x, y).unwrap())
        .collect()
}

/// The kind of a loop by its winding `(a, b)` and whom it wins for, as docs/rules.md says.
fn kind((a, b): (i32, i32)) -> Option<(Reason, Color)> {
    match (a, b) {
        (0, 0) => None,
        (0, _) => Some((Reason::Ring, Color::Black)),
        (_, 0) => Some((Reason::Bracelet, Color::White)),
        _ if a * b > 0 => Some((Reason::RightHelix, Color::Black)),
        _ => Some((Reason::LeftHelix, Color::White)),
    }
}

fn cross(u: (i32, i32), v: (i32, i32)) -> i32 {
    u.0 * v.1 - u.1 * v.0
}

/// Whether the stones marked in `stones`, `color`'s, hold a loop that wins for `color`
/// (brute force): a simple loop of `color`'s kind, or a group with two simple loops of
/// windings in two directions (whose cells form a torus with holes: it holds loops of every
/// winding that do not cross themselves; see `src/games/hex_torus/mod.rs`). `None` if there are
/// too many cycles to try.
fn holds_winning_loop(t: &Topology, stones: &[bool], color: Color) -> Option<bool> {
    let group = groups(t, stones);
    let mut direction: Vec<Option<(i32, i32)>> = vec![None; stones.len()];
    find_cycle(t, stones, &mut |cells, w| {
        if w == (0, 0) {
            return false;
        }
        let seen = &mut direction[group[cells[0].index()]];
        let two_directions = seen.is_some_and(|d| cross(d, w) != 0);
        seen.get_or_insert(w);
        two_directions || kind(w).is_some_and(|(_, winner)| winner == color)
    })
}

/// Whether the stones marked in `stones` hold a *simple* loop that wins for `color`.
fn holds_simple_winning_loop(t: &Topology, stones: &[bool], color: Color) -> Option<bool> {
    find_cycle(t, stones, &mut |_, w| {
        kind(w).is_some_and(|(_, winner)| winner == color)
    })
}

fn has_winning_loop(g: &HexTorus, color: Color) -> Option<bool> {
    holds_winning_loop(g.topology(), &stones_of(g, color), color)
}

/// Checks a finished game: the highlight is a closed walk of the winner's stones through
/// the last stone, of the kind the outcome names; it is a simple loop unless the winner's
/// group holds loops in two directions.
fn assert_highlight_wins(g: &HexTorus, last: Cell) {
    let outcome = g.outcome().expect("the game is over");
    let winner = outcome.winner.expect("hex-torus has no draws");
    let lit = g.highlight();
    let winding = closed_walk_of(g, &lit, winner);
    assert!(winding.is_some(), "{lit:?}");
    assert_eq!(kind(winding.unwrap()), Some((outcome.reason, winner)));
    assert!(lit.contains(&last));
    if !distinct(&lit) {
        let mine = stones_of(g, winner);
        let group = groups(g.topology(), &mine);
        let own: Vec<bool> = (0..mine.len())
            .map(|i| group[i] == group[last.index()])
            .collect();
        let mut directions = vec![];
        let two_directions = find_cycle(g.topology(), &own, &mut |_, w| {
            if w != (0, 0) {
                directions.push(w);
            }
            directions.iter().any(|&d| cross(d, w) != 0)
        });
        assert_ne!(
            two_directions,
            Some(false),
            "the walk {lit:?} repeats a stone of a group with loops in one direction only"
        );
    }
}

fn assert_win(g: &HexTorus, winner: Color, reason: Reason, last: Cell) {
    assert_eq!(g.outcome(), Some(Outcome::win(winner, reason)));
    assert_eq!(g.turn(), None);
    assert_highlight_wins(g, last);
    assert!(distinct(&g.highlight()));
}

/// Black's column x = 2, top to bottom: winding (0, 1).
#[test]
fn black_wins_with_a_ring() {
    let mut g = game(8, 8);
    let ring = cells(&g, &(0..8).map(|y| (2, y)).collect::<Vec<_>>());
    let white = scattered(g.topology(), &ring, 7);
    play_alternately(&mut g, &ring, &white);
    assert_win(&g, Color::Black, Reason::Ring, ring[7]);
    let mut lit = g.highlight();
    lit.sort();
    assert_eq!(lit, ring);
}

/// White's row 3, left to right: winding (1, 0).
#[test]
fn white_wins_with_a_bracelet() {
    let mut g = game(8, 8);
    let bracelet = cells(&g, &(0..8).map(|x| (x, 3)).collect::<Vec<_>>());
    let black = scattered(g.topology(), &bracelet, 8);
    play_alternately(&mut g, &black, &bracelet);
    assert_win(&g, Color::White, Reason::Bracelet, bracelet[7]);
}

/// Down-right along the diagonal from (0, 0) to (4, 0) across the bottom, then right along
/// row 0 back to (0, 0) across the right edge: winding (1, 1).
#[test]
fn black_wins_with_a_right_helix() {
    let mut g = game(8, 8);
    let helix = cells(
        &g,
        &[
            (0, 0),
            (0, 1),
            (1, 2),
            (1, 3),
            (2, 4),
            (2, 5),
            (3, 6),
            (3, 7),
            (4, 0),
            (5, 0),
            (6, 0),
            (7, 0),
        ],
    );
    let white = scattered(g.topology(), &helix, 11);
    play_alternately(&mut g, &helix, &white);
    assert_win(&g, Color::Black, Reason::RightHelix, helix[11]);
}

/// Down-left along the diagonal from (7, 0) to (3, 0) across the bottom, then left along
/// row 0 back to (7, 0) across the left edge: winding (-1, 1).
#[test]
fn white_wins_with_a_left_helix() {
    let mut g = game(8, 8);
    let helix = cells(
        &g,
        &[
            (7, 0),
            (6, 1),
            (6, 2),
            (5, 3),
            (5, 4),
            (4, 5),
            (4, 6),
            (3, 7),
            (3, 0),
            (2, 0),
            (1, 0),
            (0, 0),
        ],
    );
    let black = scattered(g.topology(), &helix, 12);
    play_alternately(&mut g, &black, &helix);
    assert_win(&g, Color::White, Reason::LeftHelix, helix[11]);
}

/// Black closes a bracelet (white's kind): nothing happens, and white then wins with a
/// bracelet of its own.
#[test]
fn a_bracelet_does_not_win_for_black_and_white_can_still_make_one() {
    let mut g = game(8, 8);
    let black = cells(&g, &(0..8).map(|x| (x, 0)).collect::<Vec<_>>());
    let white = cells(&g, &(0..8).map(|x| (x, 4)).collect::<Vec<_>>());
    play_alternately(&mut g, &black, &white[..7]);
    assert_eq!(g.outcome(), None, "black's bracelet does not win");
    assert_eq!(has_winning_loop(&g, Color::Black), Some(false));
    g.play(Move::Place(white[7])).unwrap();
    assert_win(&g, Color::White, Reason::Bracelet, white[7]);
}

/// White closes a ring (black's kind): nothing happens.
#[test]
fn a_ring_does_not_win_for_white() {
    let mut g = game(8, 8);
    let ring = cells(&g, &(0..8).map(|y| (5, y)).collect::<Vec<_>>());
    let black = scattered(g.topology(), &ring, 9);
    play_alternately(&mut g, &black, &ring);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.turn(), Some(Color::White));
}

/// Black holds a bracelet on row 0, then runs white's left-helix diagonal from (7, 0) down
/// to (3, 0). Black's group now has loops in two directions: besides the bracelet and the
/// left helix it holds the diagonal closed by the arc of row 0 from (3, 0) right to (7, 0),
/// winding (-1, 1) + (1, 0) = (0, 1): a ring, and black wins.
#[test]
fn a_group_with_loops_in_two_directions_wins_for_its_owner() {
    let mut g = game(8, 8);
    let mut black = cells(&g, &(0..8).map(|x| (x, 0)).collect::<Vec<_>>());
    black.extend(cells(
        &g,
        &[(6, 1), (6, 2), (5, 3), (5, 4), (4, 5), (4, 6), (3, 7)],
    ));
    let white = scattered(g.topology(), &black, 14);
    play_alternately(&mut g, &black, &white);
    assert_win(&g, Color::Black, Reason::Ring, black[14]);
}

/// A random game on the 6×6 board. Before white's last move white's group holds rings
/// (black's kind). White's `dd` closes loops winding (1, 1) and (1, 2), right helixes, also
/// black's kind: every simple loop of white's is of black's kinds. But white's group now
/// holds loops in two directions, and a bracelet that passes one stone twice: white wins.
/// Filling the last two cells with black stones gives a full board on which neither player
/// has a simple loop of their own kind, so a rule that counted simple loops only would not
/// be drawless.
#[test]
fn simple_loops_alone_would_allow_draws() {
    let mut g = game(6, 6);
    let record = "eb bf ac dc cc ea bd fd aa ad af fa fe ee ff cd df ce ae ca de cf bc ef da \
                  cb db be bb fc ba fb ab dd";
    let moves: Vec<Move> = record
        .split_whitespace()
        .map(|m| Move::parse(m, g.topology()).unwrap())
        .collect();
    for &mv in &moves[..moves.len() - 1] {
        g.play(mv).unwrap();
    }
    assert_eq!(g.outcome(), None);
    let last = moves.last().unwrap().cell().unwrap();
    g.play(Move::Place(last)).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Bracelet))
    );
    assert_highlight_wins(&g, last);
    assert!(!distinct(&g.highlight()));

    let white = stones_of(&g, Color::White);
    let black: Vec<bool> = white.iter().map(|w| !w).collect();
    assert_eq!(black.iter().filter(|&&b| b).count(), 19);
    let t = g.topology();
    assert_eq!(
        holds_simple_winning_loop(t, &white, Color::White),
        Some(false)
    );
    assert_eq!(
        holds_simple_winning_loop(t, &black, Color::Black),
        Some(false)
    );
    assert_eq!(holds_winning_loop(t, &white, Color::White), Some(true));
    assert_eq!(holds_winning_loop(t, &black, Color::Black), Some(false));
}

#[test]
fn illegal_moves_change_nothing() {
    let mut g = game(8, 8);
    let fresh = snapshot(&g);
    assert_eq!(g.play(Move::Pass), Err(IllegalMove::PassNotAllowed));
    assert_eq!(g.play(Move::EndTurn), Err(IllegalMove::EndNotAllowed));
    assert_eq!(g.play(Move::Place(Cell(64))), Err(IllegalMove::OffBoard));
    assert_eq!(
        g.play(Move::Place(Cell(u16::MAX))),
        Err(IllegalMove::OffBoard)
    );
    assert_eq!(snapshot(&g), fresh);

    g.play(Move::Place(Cell(10))).unwrap();
    let after_one = snapshot(&g);
    assert_eq!(g.play(Move::Place(Cell(10))), Err(IllegalMove::Occupied));
    assert_eq!(g.check(Move::Place(Cell(10))), Err(IllegalMove::Occupied));
    assert_eq!(snapshot(&g), after_one);

    let ring = cells(&g, &(0..8).map(|y| (2, y)).collect::<Vec<_>>());
    let mut g = game(8, 8);
    let white = scattered(g.topology(), &ring, 7);
    play_alternately(&mut g, &ring, &white);
    let over = snapshot(&g);
    for mv in [
        Move::Pass,
        Move::EndTurn,
        Move::Place(Cell(63)),
        Move::Place(ring[0]),
        Move::Place(Cell(64)),
    ] {
        assert_eq!(g.play(mv), Err(IllegalMove::GameOver));
    }
    assert_eq!(snapshot(&g), over);
    let mut legal = vec![];
    g.legal_moves(&mut legal);
    assert!(legal.is_empty());
    assert_eq!(
        g.playout_move(&mut Xoshiro256PlusPlus::seed_from_u64(1)),
        None
    );
}

#[test]
fn parameters_and_start() {
    let g = HexTorus::new(&Params::defaults(HexTorus::PARAMS)).unwrap();
    assert_eq!((g.topology().width(), g.topology().height()), (8, 8));
    assert_eq!(g.kind(), GameKind::HexTorus);
    assert_eq!(g.turn(), Some(Color::Black));
    assert_eq!(g.hash(), 0);
    let mut legal = vec![];
    g.legal_moves(&mut legal);
    assert_eq!(legal.len(), 64);
    assert!(GameKind::HexTorus.new_game(&["height=7"]).is_err());
    assert!(GameKind::HexTorus.new_game(&["width=3"]).is_err());
    assert!(GameKind::HexTorus.new_game(&["height=2"]).is_err());
    assert!(GameKind::HexTorus.new_game(&["width=53"]).is_err());
    assert!(GameKind::HexTorus
        .new_game(&["width=52", "height=52"])
        .is_ok());
}

#[test]
fn hash_is_the_stones_and_the_side_to_move() {
    let mut g = game(8, 8);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..20 {
        let mv = g.playout_move(&mut rng).unwrap();
        g.play(mv).unwrap();
        let mut expected = if g.turn() == Some(Color::White) {
            zobrist::WHITE_TO_MOVE
        } else {
            0
        };
        for c in g.topology().cells() {
            if let Some(color) = g.stone(c) {
                expected ^= zobrist::stone(c.index(), color);
            }
        }
        assert_eq!(g.hash(), expected);
    }
}

const SMALL: [(usize, usize); 4] = [(4, 4), (4, 6), (6, 4), (6, 6)];

/// Along random games on small boards, the engine ends the game exactly when the mover has
/// a winning simple loop, names a kind of loop the mover has, and lights one up.
#[test]
fn the_incremental_verdict_matches_brute_force() {
    run_counting_unchecked(400, (0..SMALL.len(), any::<u64>()), |(size, seed)| {
        let (w, h) = SMALL[size];
        let mut g = game(w, h);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut last = None;
        while let Some(mv) = g.playout_move(&mut rng) {
            let mover = g.turn().unwrap();
            g.play(mv).unwrap();
            last = mv.cell();
            let (mine, theirs) = (
                has_winning_loop(&g, mover),
                has_winning_loop(&g, mover.opponent()),
            );
            let (Some(mine), Some(theirs)) = (mine, theirs) else {
                return Ok(false);
            };
            prop_assert!(!theirs);
            prop_assert_eq!(g.outcome().is_some(), mine);
        }
        assert_highlight_wins(&g, last.unwrap());
        Ok(true)
    });
}

/// Steere: a full board holds a winning loop for exactly one player (brute force; cell `i`
/// is black when bit `i` of `colours` is set). Simple loops alone would not do: see
/// `simple_loops_alone_would_allow_draws`.
#[test]
fn a_full_small_board_has_exactly_one_winner() {
    run_counting_unchecked(400, (0..SMALL.len(), any::<u64>()), |(size, colours)| {
        let (w, h) = SMALL[size];
        let g = game(w, h);
        let black: Vec<bool> = (0..w * h).map(|i| colours >> i & 1 == 1).collect();
        let white: Vec<bool> = black.iter().map(|b| !b).collect();
        let winners = [
            holds_winning_loop(g.topology(), &black, Color::Black),
            holds_winning_loop(g.topology(), &white, Color::White),
        ];
        let [Some(black_wins), Some(white_wins)] = winners else {
            return Ok(false);
        };
        prop_assert!(black_wins != white_wins);
        Ok(true)
    });
}

proptest! {
    #![proptest_config(toroid_testkit::cases(64))]

    /// Along random playouts every group stays what the stones make it (see
    /// `check_consistency`), at sizes from the smallest up.
    #[test]
    fn groups_stay_consistent_along_playouts(w in 4usize..=12, h in 2usize..=6, seed: u64) {
        let mut g = game(w, 2 * h);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        while g.play_playout_move(&mut rng).is_some() {
            prop_assert_eq!(g.check_consistency(), Ok(()));
        }
    }

    /// Replaying a random full board in a random order ends with a winner before the board
    /// fills, on the default board and larger ones, and lights up a winning loop.
    #[test]
    fn replayed_full_boards_always_end_with_a_winner(
        size in prop::sample::select(vec![(8usize, 8usize), (4, 8), (10, 6), (13, 12)]),
        seed: u64,
    ) {
        let mut g = game(size.0, size.1);
        let (black, white) = random_balanced_fill(g.topology(), seed);
        let last = play_until_over(&mut g, &black, &white);
        prop_assert!(g.outcome().is_some(), "the board filled without a winner");
        assert_highlight_wins(&g, last);
    }

    /// Random moves of every kind never panic, and refused ones change nothing.
    #[test]
    fn random_moves_never_panic(w in 4usize..=14, h in 2usize..=7, seed: u64, pie: bool) {
        let g = if pie { random_abuse(pie_game(w, 2 * h), seed) } else { random_abuse(game(w, 2 * h), seed) };
        prop_assert!(g.outcome().is_some());
    }

    /// With `swap=true`, white may take over black's first stone exactly at move 2.
    #[test]
    fn the_pie_rule_is_legal_exactly_at_move_2(w in 4usize..=14, h in 2usize..=7, seed: u64, take: bool) {
        let g = play_with_pie_rule(pie_game(w, 2 * h), seed, take);
        prop_assert!(g.outcome().unwrap().winner.is_some());
    }

    /// Random playouts end with a win, at any size (possibly on the last empty cell).
    #[test]
    fn random_playouts_end_with_a_win(w in 4usize..=52, h in 2usize..=26, seed: u64) {
        let mut g = game(w, 2 * h);
        let moves = random_playout(&mut g, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
        prop_assert!(moves <= w * 2 * h);
        let winner = g.outcome().unwrap().winner;
        prop_assert!(winner.is_some());
        // A playout judges only black's loops (`start_playout`): black's win lights up its
        // loop, white's (the board filled without black's) nothing.
        prop_assert_eq!(g.highlight().is_empty(), winner == Some(Color::White));
    }
}

//! `m-torus` (Mark Steere's M-Torus): the seed's figures rebuilt on the default 9×9 board,
//! illegal moves, and property tests against a brute-force referee that enumerates simple
//! cycles.
//!
//! The seed's figures are lost; its text names half cells by letters along the top and
//! bottom and by numbers along the sides, a letter or number naming the two halves of one
//! cell split by a seam. Our board has whole cells only: "top X" is a cell of row 0 and
//! "bottom X" the cell of row 8 next to it across the top/bottom seam, "left n" a cell of
//! column 0 and "right n" the cell of column 8 next to it across the left/right seam. The
//! seams reverse: (x, -1) is (8 - x, 8) and (-1, y) is (8, 8 - y).

mod loops_referee;

use loops_referee::*;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::games::MTorus;
use toroid_rules::{
    random_playout, zobrist, Cell, Color, GameKind, IllegalMove, Move, Outcome, Params, Position,
    Reason, Topology,
};

fn game(w: usize, h: usize) -> MTorus {
    let params = Params::parse(
        MTorus::PARAMS,
        &[format!("width={w}"), format!("height={h}")],
    )
    .unwrap();
    MTorus::new(&params).unwrap()
}

/// A game with the pie rule on (`swap=true`).
fn pie_game(w: usize, h: usize) -> MTorus {
    let params = Params::parse(
        MTorus::PARAMS,
        &[
            format!("width={w}"),
            format!("height={h}"),
            "swap=true".into(),
        ],
    )
    .unwrap();
    MTorus::new(&params).unwrap()
}

#[test]
fn swap_is_refused_without_the_pie_rule() {
    swap_needs_the_pie_rule(game(8, 9));
}

fn cells(g: &MTorus, xy: &[(usize, usize)]) -> Vec<Cell> {
    xy.iter()
        .map(|&(x, y)| g.topology().cell_at(x, y).unwrap())
        .collect()
}

/// Whether a loop with these summed seam labels wins: an odd number of crossings in all.
fn odd((cx, cy): (i32, i32)) -> bool {
    (cx + cy) % 2 != 0
}

/// Whether the stones marked in `stones` hold a simple loop that crosses the seams an odd
/// number of times (brute force), or `None` if there are too many cycles to try.
fn holds_odd_loop(t: &Topology, stones: &[bool]) -> Option<bool> {
    find_cycle(t, stones, &mut |_, sum| odd(sum))
}

fn has_odd_loop(g: &MTorus, color: Color) -> Option<bool> {
    holds_odd_loop(g.topology(), &stones_of(g, color))
}

/// How many steps of the closed walk through `cells` cross the left/right seam and the
/// top/bottom seam.
fn crossings(t: &Topology, cells: &[Cell]) -> (usize, usize) {
    let mut count = (0, 0);
    for (i, &from) in cells.iter().enumerate() {
        let to = cells[(i + 1) % cells.len()];
        let nb = t.neighbors(from).iter().find(|nb| nb.cell == to).unwrap();
        count.0 += (nb.seam.cx != 0) as usize;
        count.1 += (nb.seam.cy != 0) as usize;
    }
    count
}

/// Checks a finished game: the highlight is a simple loop of the winner's stones through
/// the last stone with an odd number of seam crossings.
fn assert_highlight_wins(g: &MTorus, last: Cell) {
    let outcome = g.outcome().expect("the game is over");
    assert_eq!(outcome.reason, Reason::SeamLoop);
    let winner = outcome.winner.expect("m-torus has no draws");
    let lit = g.highlight();
    assert!(distinct(&lit), "{lit:?}");
    assert!(lit.contains(&last));
    let sum = closed_walk_of(g, &lit, winner);
    assert!(sum.is_some_and(odd), "{lit:?}: {sum:?}");
}

/// Plays black's `stones` in order against scattered white stones and checks that black
/// wins exactly with the last one.
fn black_wins_with(xy: &[(usize, usize)]) -> MTorus {
    let mut g = game(9, 9);
    let black = cells(&g, xy);
    let white = scattered(g.topology(), &black, black.len() - 1);
    play_alternately(&mut g, &black, &white);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::SeamLoop))
    );
    assert_eq!(has_odd_loop(&g, Color::Black), Some(true));
    assert_highlight_wins(&g, *black.last().unwrap());
    g
}

/// Plays black's `stones` against scattered white stones and checks that nobody has won.
fn black_does_not_win_with(xy: &[(usize, usize)]) {
    let mut g = game(9, 9);
    let black = cells(&g, xy);
    let white = scattered(g.topology(), &black, black.len());
    play_alternately(&mut g, &black, &white);
    assert_eq!(g.outcome(), None);
    assert_eq!(has_odd_loop(&g, Color::Black), Some(false));
}

/// Figure 1: a top-bottom loop. Column 4 top to bottom; (4, 8) and (4, 0) touch across the
/// top/bottom seam (the middle column is its own mirror image).
#[test]
fn figure_1_a_top_bottom_loop_wins() {
    let column: Vec<_> = (0..9).map(|y| (4, y)).collect();
    let g = black_wins_with(&column);
    assert_eq!(crossings(g.topology(), &cells(&g, &column)), (0, 1));
    assert_eq!(g.highlight().len(), 9);
}

/// Figure 2: a left-right loop. Row 4 left to right; (8, 4) and (0, 4) touch across the
/// left/right seam.
#[test]
fn figure_2_a_left_right_loop_wins() {
    let row: Vec<_> = (0..9).map(|x| (x, 4)).collect();
    let g = black_wins_with(&row);
    assert_eq!(crossings(g.topology(), &cells(&g, &row)), (1, 0));
}

/// The loop of figure 3: from top (1, 0) down the left edge to left (0, 3), across to right
/// (8, 5), down column 8 to bottom (8, 8), across to top (1, 0). One top-bottom and one
/// left-right crossing: two in all.
const BOTH_SEAMS: [(usize, usize); 8] = [
    (1, 0),
    (1, 1),
    (1, 2),
    (0, 3),
    (8, 5),
    (8, 6),
    (8, 7),
    (8, 8),
];

/// Figure 3: a loop that crosses both seams (a top-bottom and a left-right loop combined)
/// shrinks to a point and does not win.
#[test]
fn figure_3_a_loop_across_both_seams_does_not_win() {
    let g = game(9, 9);
    assert_eq!(crossings(g.topology(), &cells(&g, &BOTH_SEAMS)), (1, 1));
    black_does_not_win_with(&BOTH_SEAMS);
}

/// Figure 4: a figure 8. The seed's figure is lost; ours joins the loop of figure 3 to a
/// ring of six stones around the empty cell (7, 6), sharing the stone (8, 6) (stones next to
/// it on both lobes touch too: on hexagons they always do). Neither lobe, nor any loop
/// through both, crosses the seams an odd number of times. (A figure 8 whose lobes were a
/// top-bottom and a left-right loop would hold an odd simple loop, each lobe, and win.)
#[test]
fn figure_4_a_figure_8_does_not_win() {
    let mut xy = BOTH_SEAMS.to_vec();
    xy.extend([(6, 6), (6, 5), (7, 5), (6, 7), (7, 7)]);
    black_does_not_win_with(&xy);
}

/// Figure 5: a top-bottom loop that strays across the left/right seam and back: from top
/// (1, 0) down to left (0, 2), across to right (8, 5), back across to left (0, 4) (column 0
/// between them is not black, so the loop must stray), down to the bottom row and along it
/// to bottom (7, 8), across to top (1, 0). Three crossings: odd, a win.
#[test]
fn figure_5_a_top_bottom_loop_straying_across_the_side_wins() {
    let route = [
        (1, 0),
        (0, 1),
        (0, 2),
        (8, 5),
        (0, 4),
        (0, 5),
        (1, 6),
        (1, 7),
        (2, 8),
        (3, 8),
        (4, 8),
        (5, 8),
        (6, 8),
        (7, 8),
    ];
    let g = black_wins_with(&route);
    assert_eq!(crossings(g.topology(), &cells(&g, &route)), (2, 1));
    let stray = g.topology().cell_at(8, 5).unwrap();
    assert!(g.highlight().contains(&stray));
}

/// Figure 6: the route "top D, left 3, right 3, right 4, left 4, bottom J, top J, top F,
/// bottom F, bottom D" (and back to top D). Rebuilt: top D = (1, 0), down to left 3 =
/// (0, 2), across to right 3 = (8, 6), up to right 4 = (8, 5), across to left 4 = (0, 4),
/// down to bottom J = (2, 8), across to top J = (6, 0), left to top F = (4, 0), across to
/// bottom F = (4, 8), right to bottom D = (7, 8), across to top D. Two left-right and three
/// top-bottom crossings: five, odd, a win.
#[test]
fn figure_6_the_seed_route_wins() {
    let route = [
        (1, 0),
        (0, 1),
        (0, 2),
        (8, 6),
        (8, 5),
        (0, 4),
        (0, 5),
        (1, 6),
        (1, 7),
        (2, 8),
        (6, 0),
        (5, 0),
        (4, 0),
        (4, 8),
        (5, 8),
        (6, 8),
        (7, 8),
    ];
    let g = game(9, 9);
    assert_eq!(crossings(g.topology(), &cells(&g, &route)), (2, 3));
    black_wins_with(&route);
}

#[test]
fn white_wins_too() {
    let mut g = game(9, 9);
    let white = cells(&g, &(0..9).map(|y| (4, y)).collect::<Vec<_>>());
    let black = scattered(g.topology(), &white, 9);
    play_alternately(&mut g, &black, &white);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::SeamLoop))
    );
    assert_highlight_wins(&g, white[8]);
}

#[test]
fn illegal_moves_change_nothing() {
    let mut g = game(9, 9);
    let fresh = snapshot(&g);
    assert_eq!(g.play(Move::Pass), Err(IllegalMove::PassNotAllowed));
    assert_eq!(g.play(Move::EndTurn), Err(IllegalMove::EndNotAllowed));
    assert_eq!(g.play(Move::Place(Cell(81))), Err(IllegalMove::OffBoard));
    assert_eq!(snapshot(&g), fresh);

    g.play(Move::Place(Cell(40))).unwrap();
    let after_one = snapshot(&g);
    assert_eq!(g.play(Move::Place(Cell(40))), Err(IllegalMove::Occupied));
    assert_eq!(snapshot(&g), after_one);

    let g = black_wins_with(&(0..9).map(|x| (x, 4)).collect::<Vec<_>>());
    let mut g2 = g.clone();
    let over = snapshot(&g2);
    for mv in [
        Move::Pass,
        Move::EndTurn,
        Move::Place(Cell(0)),
        Move::Place(Cell(40)),
        Move::Place(Cell(81)),
    ] {
        assert_eq!(g2.play(mv), Err(IllegalMove::GameOver));
    }
    assert_eq!(snapshot(&g2), over);
}

#[test]
fn parameters_and_start() {
    let g = MTorus::new(&Params::defaults(MTorus::PARAMS)).unwrap();
    assert_eq!((g.topology().width(), g.topology().height()), (9, 9));
    assert_eq!(g.kind(), GameKind::MTorus);
    assert_eq!(g.turn(), Some(Color::Black));
    let mut legal = vec![];
    g.legal_moves(&mut legal);
    assert_eq!(legal.len(), 81);
    assert!(GameKind::MTorus.new_game(&["height=8"]).is_err());
    assert!(GameKind::MTorus.new_game(&["height=3"]).is_err());
    assert!(GameKind::MTorus.new_game(&["width=3"]).is_err());
    assert!(GameKind::MTorus
        .new_game(&["width=52", "height=51"])
        .is_ok());
}

#[test]
fn hash_is_the_stones_and_the_side_to_move() {
    let mut g = game(9, 9);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
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

const SMALL: [(usize, usize); 3] = [(4, 5), (5, 5), (6, 5)];

/// Along random games on small boards, the engine ends the game exactly when the mover has
/// an odd simple loop, and lights one up.
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
            let (mine, theirs) = (has_odd_loop(&g, mover), has_odd_loop(&g, mover.opponent()));
            let (Some(mine), Some(theirs)) = (mine, theirs) else {
                return Ok(false);
            };
            prop_assert!(!theirs);
            prop_assert_eq!(g.outcome().is_some(), mine);
        }
        prop_assert_eq!(g.outcome().unwrap().winner, g.stone(last.unwrap()));
        assert_highlight_wins(&g, last.unwrap());
        Ok(true)
    });
}

/// Steere: a full board holds an odd simple loop for exactly one player (brute force; cell
/// `i` is black when bit `i` of `colours` is set).
#[test]
fn a_full_small_board_has_exactly_one_winner() {
    run_counting_unchecked(400, (0..SMALL.len(), any::<u64>()), |(size, colours)| {
        let (w, h) = SMALL[size];
        let g = game(w, h);
        let black: Vec<bool> = (0..w * h).map(|i| colours >> i & 1 == 1).collect();
        let white: Vec<bool> = black.iter().map(|b| !b).collect();
        let winners = [
            holds_odd_loop(g.topology(), &black),
            holds_odd_loop(g.topology(), &white),
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
        let mut g = game(w, 2 * h + 1);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        while g.play_playout_move(&mut rng).is_some() {
            prop_assert_eq!(g.check_consistency(), Ok(()));
        }
    }

    /// Replaying a random full board in a random order ends with a winner before the board
    /// fills, on the default board and others, and lights up a winning loop.
    #[test]
    fn replayed_full_boards_always_end_with_a_winner(
        size in prop::sample::select(vec![(9usize, 9usize), (4, 5), (10, 7), (13, 15)]),
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
        let g = if pie { random_abuse(pie_game(w, 2 * h + 1), seed) } else { random_abuse(game(w, 2 * h + 1), seed) };
        prop_assert!(g.outcome().is_some());
    }

    /// With `swap=true`, white may take over black's first stone exactly at move 2.
    #[test]
    fn the_pie_rule_is_legal_exactly_at_move_2(w in 4usize..=14, h in 2usize..=7, seed: u64, take: bool) {
        let g = play_with_pie_rule(pie_game(w, 2 * h + 1), seed, take);
        prop_assert!(g.outcome().unwrap().winner.is_some());
    }

    /// Random playouts end with a win, at any size (possibly on the last empty cell).
    #[test]
    fn random_playouts_end_with_a_win(w in 4usize..=52, h in 2usize..=25, seed: u64) {
        let mut g = game(w, 2 * h + 1);
        let moves = random_playout(&mut g, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
        prop_assert!(moves <= w * (2 * h + 1));
        let winner = g.outcome().unwrap().winner;
        prop_assert!(winner.is_some());
        // A playout judges only black's loops (`start_playout`): black's win lights up its
        // loop, white's (the board filled without black's) nothing.
        prop_assert_eq!(g.highlight().is_empty(), winner == Some(Color::White));
    }
}

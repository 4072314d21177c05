//! An independent referee for the loop games (`hex-torus`, `m-torus`): it enumerates the
//! simple cycles of one player's stones by brute force (small boards only), and helpers to
//! set up positions and check that illegal moves change nothing.

#![allow(dead_code)] // each test file uses its own part

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{zobrist, Cell, Color, IllegalMove, Move, Position, Topology};

use proptest::strategy::Strategy;
use proptest::test_runner::{contextualize_config, TestCaseError, TestRunner};

/// The largest share of cases a property test may leave unchecked because the referee ran
/// out of budget: more would leave the densest positions, the likeliest to hide a bug,
/// untested.
pub const MOST_UNCHECKED: f64 = 0.05;

/// Runs `cases` cases of `strategy` through `test`, which answers whether the referee could
/// check the case (`Ok(false)`: it ran out of budget). Fails on a failing case, as
/// `proptest!` does, and also when more than [`MOST_UNCHECKED`] of the cases went unchecked.
pub fn run_counting_unchecked<S: Strategy>(
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) {
    let unchecked = std::cell::Cell::new(0u32);
    // The environment's settings (`PROPTEST_CASES`) apply here too, as in `proptest!`.
    let mut runner = TestRunner::new(contextualize_config(toroid_testkit::cases(cases)));
    let cases = runner.config().cases;
    let result = runner.run(&strategy, |case| {
        if !test(case)? {
            unchecked.set(unchecked.get() + 1);
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let share = f64::from(unchecked.get()) / f64::from(cases);
    eprintln!(
        "{} of {cases} cases unchecked (too many cycles to enumerate)",
        unchecked.get()
    );
    assert!(
        share <= MOST_UNCHECKED,
        "{} of {cases} cases were too dense for the referee; at most {:.0}% may be",
        unchecked.get(),
        MOST_UNCHECKED * 100.0
    );
}

/// The summed seam labels `(cx, cy)` of a closed walk through `cells` (back to the first).
pub fn walk_sum(t: &Topology, cells: &[Cell]) -> Option<(i32, i32)> {
    let mut sum = (0, 0);
    for (i, &from) in cells.iter().enumerate() {
        let to = cells[(i + 1) % cells.len()];
        let nb = t.neighbors(from).iter().find(|nb| nb.cell == to)?;
        sum.0 += nb.seam.cx as i32;
        sum.1 += nb.seam.cy as i32;
    }
    Some(sum)
}

/// What [`find_cycle`] calls with each cycle: its cells and summed seam labels.
pub type Visit<'a> = dyn FnMut(&[Cell], (i32, i32)) -> bool + 'a;

/// How many paths [`find_cycle`] extends before it gives up: dense groups on a full board
/// hold tens of millions of simple cycles, and a test that meets one leaves that case
/// unchecked (see [`run_counting_unchecked`]).
const BUDGET: u64 = 3_000_000;

/// Calls `visit` with the cells and the summed seam labels of every simple cycle (three
/// cells or more) among the cells marked in `stones`, once per direction, until `visit`
/// returns true. Returns whether it did, or `None` if there were too many paths to try.
pub fn find_cycle(t: &Topology, stones: &[bool], visit: &mut Visit) -> Option<bool> {
    struct Search<'a> {
        t: &'a Topology,
        stones: &'a [bool],
        path: Vec<Cell>,
        budget: u64,
    }
    impl Search<'_> {
        /// Extends the path from its last cell; `Some(true)` once `visit` is satisfied.
        fn extend(&mut self, sum: (i32, i32), visit: &mut Visit) -> Option<bool> {
            self.budget = self.budget.checked_sub(1)?;
            let start = self.path[0];
            let at = *self.path.last().unwrap();
            for nb in self.t.neighbors(at) {
                let next = (sum.0 + nb.seam.cx as i32, sum.1 + nb.seam.cy as i32);
                if nb.cell == start {
                    if self.path.len() >= 3 && visit(&self.path, next) {
                        return Some(true);
                    }
                } else if nb.cell > start
                    && self.stones[nb.cell.index()]
                    && !self.path.contains(&nb.cell)
                {
                    self.path.push(nb.cell);
                    if self.extend(next, visit)? {
                        return Some(true);
                    }
                    self.path.pop();
                }
            }
            Some(false)
        }
    }
    let mut search = Search {
        t,
        stones,
        path: Vec::new(),
        budget: BUDGET,
    };
    // Each cycle is found from its smallest cell.
    for c in t.cells().filter(|c| stones[c.index()]) {
        search.path = vec![c];
        if search.extend((0, 0), visit)? {
            return Some(true);
        }
    }
    Some(false)
}

/// For every cell, the index of its group among the marked cells (cells next to each other
/// are in one group), or `usize::MAX` for unmarked cells.
pub fn groups(t: &Topology, stones: &[bool]) -> Vec<usize> {
    let mut group = vec![usize::MAX; stones.len()];
    for start in t.cells().filter(|c| stones[c.index()]) {
        if group[start.index()] != usize::MAX {
            continue;
        }
        let mut stack = vec![start];
        group[start.index()] = start.index();
        while let Some(at) = stack.pop() {
            for nb in t.adjacent(at) {
                if stones[nb.index()] && group[nb.index()] == usize::MAX {
                    group[nb.index()] = start.index();
                    stack.push(nb);
                }
            }
        }
    }
    group
}

/// The summed seam labels of `cells` if they are a closed walk of `color`'s stones (each
/// next to the next, the last next to the first, three steps or more).
pub fn closed_walk_of<P: Position>(p: &P, cells: &[Cell], color: Color) -> Option<(i32, i32)> {
    if cells.len() < 3 || cells.iter().any(|&c| p.stone(c) != Some(color)) {
        return None;
    }
    walk_sum(p.topology(), cells)
}

/// The cells that hold `color`'s stones.
pub fn stones_of<P: Position>(p: &P, color: Color) -> Vec<bool> {
    p.topology()
        .cells()
        .map(|c| p.stone(c) == Some(color))
        .collect()
}

/// Whether no cell appears twice in `cells`.
pub fn distinct(cells: &[Cell]) -> bool {
    let mut sorted = cells.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted.len() == cells.len()
}

/// Plays `black[i]`, `white[i]` alternately (black first), checking that the game goes on
/// until the last stone.
pub fn play_alternately<P: Position>(p: &mut P, black: &[Cell], white: &[Cell]) {
    assert!(white.len() + 1 >= black.len() && white.len() <= black.len());
    for (i, &b) in black.iter().enumerate() {
        assert_eq!(p.outcome(), None, "the game ended before black's stone {i}");
        p.play(Move::Place(b)).unwrap();
        if let Some(&w) = white.get(i) {
            assert_eq!(p.outcome(), None, "the game ended before white's stone {i}");
            p.play(Move::Place(w)).unwrap();
        }
    }
}

/// `count` cells outside `avoid` no two of which touch (so stones on them close no loop).
pub fn scattered(t: &Topology, avoid: &[Cell], count: usize) -> Vec<Cell> {
    let mut chosen: Vec<Cell> = Vec::new();
    for c in t.cells() {
        if chosen.len() == count {
            break;
        }
        if !avoid.contains(&c) && !t.adjacent(c).any(|n| chosen.contains(&n)) {
            chosen.push(c);
        }
    }
    assert_eq!(chosen.len(), count, "not enough room for scattered stones");
    chosen
}

/// Everything observable about a position, to check that a refused move changed nothing.
pub fn snapshot<P: Position>(p: &P) -> impl PartialEq + std::fmt::Debug {
    let mut legal = Vec::new();
    p.legal_moves(&mut legal);
    let stones: Vec<Option<Color>> = p.topology().cells().map(|c| p.stone(c)).collect();
    (
        stones,
        p.turn(),
        p.outcome(),
        p.ply(),
        p.hash(),
        legal,
        p.highlight(),
    )
}

/// Plays random moves of every kind (points on and off the board, `pass`, `end`, `swap`) from
/// `p` until the game is over and a few more, checking that every refused move changes
/// nothing and that `check` agrees with `play`. Returns the finished game.
pub fn random_abuse<P: Position>(mut p: P, seed: u64) -> P {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = p.topology().len() as u16;
    // Until the game is over, and a few moves more.
    let mut after = 20;
    while after > 0 {
        if p.outcome().is_some() {
            after -= 1;
        }
        let mv = match rng.random_range(0..11) {
            0 => Move::Pass,
            1 => Move::EndTurn,
            10 => Move::Swap,
            2 => Move::Place(Cell(rng.random_range(n..=u16::MAX))),
            _ => Move::Place(Cell(rng.random_range(0..n))),
        };
        let before = snapshot(&p);
        let (ply, mover) = (p.ply(), p.turn());
        let checked = p.check(mv);
        let played = p.play(mv);
        assert_eq!(checked, played, "{mv:?}");
        match played {
            Ok(()) => {
                assert_eq!(p.ply(), ply + 1);
                match mv {
                    Move::Place(c) => assert_eq!(p.stone(c), mover),
                    // The pie rule: only at move 2, and black's one stone turns white.
                    Move::Swap => {
                        assert_eq!(ply, 1);
                        let stones: Vec<_> =
                            p.topology().cells().filter_map(|c| p.stone(c)).collect();
                        assert_eq!(stones, [Color::White]);
                    }
                    _ => panic!("{mv:?} accepted: only placements and the swap are legal"),
                }
            }
            Err(e) => {
                assert_eq!(
                    snapshot(&p),
                    before,
                    "{mv:?} refused ({e}) but changed the game"
                );
                let expected = match mv {
                    _ if p.outcome().is_some() => IllegalMove::GameOver,
                    Move::Pass => IllegalMove::PassNotAllowed,
                    Move::EndTurn => IllegalMove::EndNotAllowed,
                    Move::Swap => IllegalMove::SwapNotAllowed,
                    Move::Place(c) if c.0 >= n => IllegalMove::OffBoard,
                    Move::Place(_) => IllegalMove::Occupied,
                };
                assert_eq!(e, expected, "{mv:?}");
            }
        }
    }
    p
}

/// A random colouring of every cell, as the cells of each colour in a random order, with
/// black having as many cells as white or one more (so the two can be played alternately).
pub fn random_balanced_fill(t: &Topology, seed: u64) -> (Vec<Cell>, Vec<Cell>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut cells: Vec<Cell> = t.cells().collect();
    cells.shuffle(&mut rng);
    let white = cells.split_off(cells.len().div_ceil(2));
    (cells, white)
}

/// Plays `black[0]`, `white[0]`, `black[1]`, ... until the game ends or the stones run out;
/// returns the last stone played.
pub fn play_until_over<P: Position>(p: &mut P, black: &[Cell], white: &[Cell]) -> Cell {
    let mut last = None;
    for (i, &c) in black.iter().enumerate() {
        for c in std::iter::once(c).chain(white.get(i).copied()) {
            if p.outcome().is_none() {
                p.play(Move::Place(c)).unwrap();
                last = Some(c);
            }
        }
    }
    last.expect("at least one stone to play")
}

/// Plays a random game with the pie rule on from the empty board `p`, checking before every
/// move that `swap` is legal exactly at move 2 (in the legal moves, by `check` and by
/// `play`), and taking it at move 2 when `take`. Returns the finished game.
pub fn play_with_pie_rule<P: Position>(mut p: P, seed: u64, take: bool) -> P {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut legal = Vec::new();
    while p.outcome().is_none() {
        let ply = p.ply();
        legal.clear();
        p.legal_moves(&mut legal);
        assert_eq!(legal.contains(&Move::Swap), ply == 1, "at ply {ply}");
        assert_eq!(p.check(Move::Swap).is_ok(), ply == 1, "at ply {ply}");
        if ply == 1 && take {
            let first = p
                .topology()
                .cells()
                .find(|&c| p.stone(c).is_some())
                .unwrap();
            p.play(Move::Swap).unwrap();
            assert_eq!(p.stone(first), Some(Color::White));
            assert_eq!(p.turn(), Some(Color::Black));
            assert_eq!(p.hash(), zobrist::stone(first.index(), Color::White));
            continue;
        }
        if ply != 1 {
            let before = snapshot(&p);
            assert_eq!(p.play(Move::Swap), Err(IllegalMove::SwapNotAllowed));
            assert_eq!(snapshot(&p), before);
        }
        let placements: Vec<Move> = legal.iter().copied().filter(|m| *m != Move::Swap).collect();
        p.play(placements[rng.random_range(0..placements.len())])
            .unwrap();
    }
    p
}

/// In `p`, a game without the pie rule, `swap` is refused at move 2 and changes nothing.
pub fn swap_needs_the_pie_rule<P: Position>(mut p: P) {
    p.play(Move::Place(Cell(10))).unwrap();
    let before = snapshot(&p);
    assert_eq!(p.play(Move::Swap), Err(IllegalMove::SwapNotAllowed));
    assert_eq!(snapshot(&p), before);
    let mut legal = vec![];
    p.legal_moves(&mut legal);
    assert!(!legal.contains(&Move::Swap));
}

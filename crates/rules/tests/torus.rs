//! `torus`: the seed's situations, and random games checked against a plain reference
//! implementation of the numbered steps of docs/rules.md.

mod support;

use std::collections::HashSet;
use support::{any_move, at, mv, play_line};

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::games::Torus;
use toroid_rules::{zobrist, Cell, Color, IllegalMove, Move, Outcome, Params, Position, Reason};

fn new_game(size: usize) -> Torus {
    Torus::new(&Params::parse(Torus::PARAMS, &[format!("size={size}")]).unwrap()).unwrap()
}

fn game(size: usize, moves: &str) -> Torus {
    let mut g = new_game(size);
    play_line(&mut g, moves);
    g
}

type Snapshot = (
    Vec<Option<Color>>,
    u64,
    usize,
    Option<Color>,
    [u32; 2],
    Option<Outcome>,
);

fn snapshot(g: &Torus) -> Snapshot {
    (
        stones(g),
        g.hash(),
        g.ply(),
        g.turn(),
        g.captures(),
        g.outcome(),
    )
}

fn stones(g: &Torus) -> Vec<Option<Color>> {
    g.topology().cells().map(|c| g.stone(c)).collect()
}

/// Plays `m`, which must be refused for `why`, and checks that nothing changed.
fn refused(g: &mut Torus, m: &str, why: IllegalMove) {
    let before = snapshot(g);
    let m = mv(g, m);
    assert_eq!(g.check(m), Err(why));
    assert_eq!(g.play(m), Err(why));
    assert_eq!(snapshot(g), before);
}

#[test]
fn surrounding_an_enemy_stone_wins() {
    let mut g = game(9, "ed ee fe ah de ch");
    assert_eq!(g.turn(), Some(Color::Black));
    play_line(&mut g, "ef");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::Surrounded))
    );
    assert_eq!(g.turn(), None);
    assert_eq!(g.highlight(), vec![mv(&g, "ee").cell().unwrap()]);
    refused(&mut g, "aa", IllegalMove::GameOver);
    let mut none = Vec::new();
    g.legal_moves(&mut none);
    assert!(none.is_empty());
}

#[test]
fn a_winning_move_is_legal_even_where_it_would_be_self_surrounded() {
    // White ed, fe, de and ef surround ee; black's stone there still wins, because white's
    // ed then has black on all four sides (ec, dd, fd, ee).
    let mut g = game(9, "ec ed dd fe fd de ah ef");
    play_line(&mut g, "ee");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::Surrounded))
    );
    assert_eq!(g.highlight(), vec![mv(&g, "ed").cell().unwrap()]);
    // The game ends at step 1: nothing is captured, the surrounded stone stays.
    assert_eq!(at(&g, "ed"), Some(Color::White));
    assert_eq!(g.captures(), [0, 0]);
}

#[test]
fn a_stone_with_four_enemy_neighbours_is_illegal() {
    let mut g = game(9, "aa ed ca fe ac de cc ef");
    refused(&mut g, "ee", IllegalMove::SelfSurrounded);
    // White may play there (it is surrounded by its own stones).
    play_line(&mut g, "ii ee");
}

#[test]
fn diagonal_steps_wrap_round_the_torus() {
    for size in [5, 6, 9] {
        let g = new_game(size);
        let directions = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        for c in g.topology().cells() {
            for (d, (dx, dy)) in directions.into_iter().enumerate() {
                let expected = g.topology().step(c, dx, dy).unwrap().0;
                assert_eq!(g.diagonal_step(c, d), expected, "size {size}, {c:?}, {d}");
                assert_eq!(g.diagonal_step(expected, 3 - d), c);
            }
        }
    }
    // From the corner aa, down and right is bb; up and left wraps to the far corner.
    let g = new_game(9);
    let cell = |name| Move::parse(name, g.topology()).unwrap().cell().unwrap();
    assert_eq!(g.diagonal_step(cell("aa"), 0), cell("bb"));
    assert_eq!(g.diagonal_step(cell("aa"), 3), cell("ii"));
}

#[test]
fn a_single_stone_is_captured_diagonally() {
    let g = game(9, "cc dd ee");
    assert_eq!(at(&g, "dd"), None);
    assert_eq!(g.captures(), [1, 0]);
    assert_eq!(g.turn(), Some(Color::White));
}

#[test]
fn a_run_of_stones_is_captured() {
    let g = game(9, "bb cc ah dd ch ee ff");
    for p in ["cc", "dd", "ee"] {
        assert_eq!(at(&g, p), None, "{p}");
    }
    assert_eq!(at(&g, "bb"), Some(Color::Black));
    assert_eq!(at(&g, "ff"), Some(Color::Black));
    assert_eq!(g.captures(), [3, 0]);
}

#[test]
fn captures_in_all_four_directions_at_once() {
    let g = game(9, "gg ff cc dd gc fd cg df ee");
    for p in ["ff", "dd", "fd", "df"] {
        assert_eq!(at(&g, p), None, "{p}");
    }
    assert_eq!(g.captures(), [4, 0]);
}

#[test]
fn runs_crossing_each_other_are_captured_at_once() {
    // On 6×6 the two diagonals through aa meet again at dd. Both runs (bb cc dd, closed by
    // ee, and bf ce dd ec, closed by fb) go, though each holds dd.
    let g = game(6, "ee bb fb cc ad dd da bf ef ce fe ec aa");
    for p in ["bb", "cc", "dd", "bf", "ce", "ec"] {
        assert_eq!(at(&g, p), None, "{p}");
    }
    assert_eq!(g.captures(), [6, 0]);
}

#[test]
fn captures_wrap_across_both_seams() {
    // hh, (ii, aa), bb: the run crosses the corner.
    let g = game(9, "hh ii ah aa bb");
    assert_eq!(at(&g, "ii"), None);
    assert_eq!(at(&g, "aa"), None);
    assert_eq!(g.captures(), [2, 0]);
}

#[test]
fn captures_wrap_across_one_seam() {
    // hd, ie, then af: the step from ie to af crosses the left/right seam only.
    let g = game(9, "hd ie af");
    assert_eq!(at(&g, "ie"), None);
    assert_eq!(g.captures(), [1, 0]);
}

#[test]
fn the_placed_stone_closes_a_run_around_the_whole_diagonal() {
    // On 5×5 the diagonal through aa is a cycle of 5 cells; white holds the other four.
    let g = game(5, "ba bb ca cc da dd ea ee aa");
    for p in ["bb", "cc", "dd", "ee"] {
        assert_eq!(at(&g, p), None, "{p}");
    }
    // Both directions find the same run: it is captured (and counted) once.
    assert_eq!(g.captures(), [4, 0]);
}

#[test]
fn playing_into_a_capture_is_illegal() {
    let mut g = game(9, "dd ah ff");
    refused(&mut g, "ee", IllegalMove::IntoCapture);
    // Also when the stone extends a run of its own.
    let mut g = game(9, "cc dd ff");
    refused(&mut g, "ee", IllegalMove::IntoCapture);
    // But not where one end of the run is open.
    let mut g = game(9, "dd ah ii");
    play_line(&mut g, "ee");
}

#[test]
fn playing_into_a_capture_is_legal_when_the_own_capture_breaks_it() {
    let g = game(9, "dd gg ff ee");
    assert_eq!(at(&g, "ff"), None);
    assert_eq!(at(&g, "ee"), Some(Color::White));
    assert_eq!(at(&g, "dd"), Some(Color::Black));
    assert_eq!(g.captures(), [0, 1]);
}

#[test]
fn a_run_that_fills_the_whole_diagonal_is_not_closed() {
    // White fills the diagonal through aa on 5×5: no black stone is on it, no end closes it.
    let g = game(5, "ba bb ca cc da dd ea ee bd aa");
    for p in ["aa", "bb", "cc", "dd", "ee"] {
        assert_eq!(at(&g, p), Some(Color::White), "{p}");
    }
    assert_eq!(g.captures(), [0, 0]);
}

#[test]
fn a_run_with_one_enemy_stone_on_its_cycle_is_closed_by_it_at_both_ends() {
    // Black aa alone on the 5-cycle: white's run bb..ee would be closed by aa at both ends,
    // but white's ee captures aa first (the run aa is closed by bb after wrapping).
    let g = game(5, "aa bb ba cc ca dd da ee");
    assert_eq!(at(&g, "aa"), None);
    assert_eq!(g.captures(), [0, 1]);
}

#[test]
fn no_move_may_repeat_an_earlier_board() {
    // Black ee captures dd (closed by cc); white dd would capture ee (closed by ff) and
    // recreate the board from before black's capture.
    let mut g = game(9, "cc dd ah ff ee");
    assert_eq!(at(&g, "dd"), None);
    refused(&mut g, "dd", IllegalMove::Superko);
    // Another board with the same recapture is new, so the same move is legal there.
    let mut g = game(9, "cc dd ah ff ee ii bh");
    play_line(&mut g, "dd");
    assert_eq!(at(&g, "ee"), None);
}

/// A 6×6 board where neither player has a legal placement: cells with (x + y) mod 6 = 1 or
/// 5 black, 2 or 4 white, 0 or 3 empty. Every empty cell has four enemy neighbours for one
/// player and lies between two enemy stones on a diagonal for the other; every anti-diagonal
/// is a whole-cycle run, and no other run is closed, so the stones can be placed in any order.
fn deadlock() -> Torus {
    let mut g = new_game(6);
    let of = |k: usize| -> Vec<Cell> {
        g.topology()
            .cells()
            .filter(|&c| {
                let (x, y) = g.topology().xy(c);
                (x + y) % 6 == k || (x + y) % 6 == 6 - k
            })
            .collect()
    };
    let (black, white) = (of(1), of(2));
    assert_eq!((black.len(), white.len()), (12, 12));
    for (b, w) in black.into_iter().zip(white) {
        g.play(Move::Place(b)).unwrap();
        g.play(Move::Place(w)).unwrap();
    }
    g
}

#[test]
fn pass_is_allowed_only_without_a_legal_placement() {
    let mut g = new_game(9);
    refused(&mut g, "pass", IllegalMove::PassNotAllowed);
    let mut g = deadlock();
    assert_eq!(g.turn(), Some(Color::Black));
    for c in g.topology().cells() {
        let expected = match g.stone(c) {
            Some(_) => IllegalMove::Occupied,
            None => {
                let (x, y) = g.topology().xy(c);
                if (x + y) % 6 == 0 {
                    IllegalMove::IntoCapture
                } else {
                    IllegalMove::SelfSurrounded
                }
            }
        };
        assert_eq!(g.check(Move::Place(c)), Err(expected));
    }
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    assert_eq!(legal, vec![Move::Pass]);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(g.playout_move(&mut rng), Some(Move::Pass));
    refused(&mut g, "end", IllegalMove::EndNotAllowed);
    play_line(&mut g, "pass");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.turn(), Some(Color::White));
}

#[test]
fn two_consecutive_passes_draw() {
    let mut g = deadlock();
    play_line(&mut g, "pass pass");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::TwoPasses)));
    assert_eq!(g.ply(), 26);
    assert!(g.highlight().is_empty());
}

#[test]
fn a_single_pass_does_not_end_the_game() {
    // A random 5×5 game in which white must pass, black plays on, and white then wins.
    let mut g = game(
        5,
        "bb ce ec eb dc cb dd ad ee ed cd bc ac bd ab ae aa db bc ca ec be de ad bc ea ab da \
         de cd bc da cb ec dc ca dd ea de",
    );
    assert_eq!(g.turn(), Some(Color::White));
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    assert_eq!(legal, vec![Move::Pass]);
    play_line(&mut g, "pass ad ac");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Surrounded))
    );
}

#[test]
fn off_board_and_foreign_moves_are_refused() {
    let mut g = new_game(5);
    let before = snapshot(&g);
    for m in [Move::Place(Cell(25)), Move::Place(Cell(u16::MAX))] {
        assert_eq!(g.play(m), Err(IllegalMove::OffBoard));
    }
    assert_eq!(g.play(Move::EndTurn), Err(IllegalMove::EndNotAllowed));
    assert_eq!(snapshot(&g), before);
    assert_eq!(g.stone(Cell(999)), None);
}

/// The rules written out plainly, on coordinates, with whole boards as history.
struct Reference {
    n: i32,
    board: Vec<Option<Color>>,
    to_move: Color,
    history: Vec<Vec<Option<Color>>>,
}

impl Reference {
    fn new(n: usize) -> Reference {
        Reference {
            n: n as i32,
            board: vec![None; n * n],
            to_move: Color::Black,
            history: vec![vec![None; n * n]],
        }
    }

    fn idx(&self, x: i32, y: i32) -> usize {
        (y.rem_euclid(self.n) * self.n + x.rem_euclid(self.n)) as usize
    }

    /// The board after the mover plays (x, y), and whether it wins.
    fn judge(&self, x: i32, y: i32) -> Result<(bool, Vec<Option<Color>>), IllegalMove> {
        const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let (a, p) = (Some(self.to_move), Some(self.to_move.opponent()));
        if self.board[self.idx(x, y)].is_some() {
            return Err(IllegalMove::Occupied);
        }
        let mut b = self.board.clone();
        b[self.idx(x, y)] = a;
        for (dx, dy) in ORTH {
            let (nx, ny) = (x + dx, y + dy);
            if b[self.idx(nx, ny)] == p
                && ORTH
                    .iter()
                    .all(|(ex, ey)| b[self.idx(nx + ex, ny + ey)] == a)
            {
                return Ok((true, b));
            }
        }
        if ORTH.iter().all(|(dx, dy)| b[self.idx(x + dx, y + dy)] == p) {
            return Err(IllegalMove::SelfSurrounded);
        }
        let mut gone = Vec::new();
        for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let mut run = Vec::new();
            let mut k = 1;
            while b[self.idx(x + k * dx, y + k * dy)] == p {
                run.push(self.idx(x + k * dx, y + k * dy));
                k += 1;
            }
            if !run.is_empty() && b[self.idx(x + k * dx, y + k * dy)] == a {
                gone.extend(run);
            }
        }
        for i in gone {
            b[i] = None;
        }
        for (dx, dy) in [(1, 1), (1, -1)] {
            let end = |sign: i32| {
                (1..self.n)
                    .map(|k| b[self.idx(x + sign * k * dx, y + sign * k * dy)])
                    .find(|s| *s != a)
            };
            if let (Some(e1), Some(e2)) = (end(1), end(-1)) {
                if e1 == p && e2 == p {
                    return Err(IllegalMove::IntoCapture);
                }
            }
        }
        if self.history.contains(&b) {
            return Err(IllegalMove::Superko);
        }
        Ok((false, b))
    }

    fn legal_cells(&self) -> Vec<usize> {
        (0..self.board.len())
            .filter(|&i| {
                let (x, y) = (i as i32 % self.n, i as i32 / self.n);
                self.judge(x, y).is_ok()
            })
            .collect()
    }
}

fn surrounded_stone(g: &Torus) -> bool {
    let t = g.topology();
    t.cells().any(|c| {
        g.stone(c)
            .is_some_and(|s| t.adjacent(c).all(|n| g.stone(n) == Some(s.opponent())))
    })
}

proptest! {
    #![proptest_config(toroid_testkit::cases(200))]

    #[test]
    fn random_games_follow_the_reference(size in 5usize..=9, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut g = new_game(size);
        let mut r = Reference::new(size);
        let mut boards: HashSet<Vec<Option<Color>>> = HashSet::from([stones(&g)]);
        while g.outcome().is_none() {
            // Legal placements agree with the reference; pass exactly when there are none.
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            let expected: Vec<Move> = match r.legal_cells() {
                cells if cells.is_empty() => vec![Move::Pass],
                cells => cells.into_iter().map(|i| Move::Place(Cell(i as u16))).collect(),
            };
            prop_assert_eq!(&legal, &expected);

            // Refused moves change nothing.
            let wrong = any_move(&g, &mut rng);
            let before = snapshot(&g);
            if g.clone().play(wrong).is_err() {
                prop_assert!(g.check(wrong).is_err());
                prop_assert!(g.play(wrong).is_err());
                prop_assert_eq!(snapshot(&g), before);
            }

            let m = g.playout_move(&mut rng).unwrap();
            prop_assert!(legal.contains(&m));
            g.play(m).unwrap();
            match m {
                Move::Place(c) => {
                    let (x, y) = g.topology().xy(c);
                    let (wins, board) = r.judge(x as i32, y as i32).unwrap();
                    prop_assert_eq!(wins, g.outcome().is_some());
                    r.history.push(board.clone());
                    r.board = board;
                }
                _ => prop_assert_eq!(stones(&g), r.board.clone()),
            }
            r.to_move = r.to_move.opponent();
            prop_assert_eq!(stones(&g), r.board.clone());

            prop_assert_eq!(g.hash(), g.recompute_hash());
            prop_assert!(g.lines_match_board());
            let board_hash = g.topology().cells().fold(0, |h, c| {
                g.stone(c).map_or(h, |s| h ^ zobrist::stone(c.index(), s))
            });
            prop_assert_eq!(g.board_hash(), board_hash);
            if g.outcome().is_none() {
                prop_assert!(!surrounded_stone(&g));
                if matches!(m, Move::Place(_)) {
                    prop_assert!(boards.insert(stones(&g)), "a board repeated");
                }
            }
        }
        prop_assert!(g.playout_move(&mut rng).is_none());
    }
}

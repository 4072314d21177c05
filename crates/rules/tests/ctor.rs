//! `ctor`: the seed's situations, and random games checked against a plain reference that
//! turns stones over in rounds by scanning the whole board.

mod support;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use support::{any_move, at, mv, play_line};
use toroid_rules::games::Ctor;
use toroid_rules::{zobrist, Cell, Color, IllegalMove, Move, Outcome, Params, Position, Reason};

fn new_game(size: usize) -> Ctor {
    Ctor::new(&Params::parse(Ctor::PARAMS, &[format!("size={size}")]).unwrap()).unwrap()
}

fn game(size: usize, moves: &str) -> Ctor {
    let mut g = new_game(size);
    play_line(&mut g, moves);
    g
}

fn stones(g: &Ctor) -> Vec<Option<Color>> {
    g.topology().cells().map(|c| g.stone(c)).collect()
}

type Snapshot = (
    Vec<Option<Color>>,
    u64,
    usize,
    Option<Color>,
    bool,
    [u32; 2],
    Option<Outcome>,
);

fn snapshot(g: &Ctor) -> Snapshot {
    (
        stones(g),
        g.hash(),
        g.ply(),
        g.turn(),
        g.in_second_placement(),
        g.captures(),
        g.outcome(),
    )
}

/// Plays `m`, which must be refused for `why`, and checks that nothing changed.
fn refused(g: &mut Ctor, m: Move, why: IllegalMove) {
    let before = snapshot(g);
    assert_eq!(g.check(m), Err(why));
    assert_eq!(g.play(m), Err(why));
    assert_eq!(snapshot(g), before);
}

#[test]
fn blacks_first_turn_is_one_placement_then_turns_have_two() {
    let mut g = new_game(10);
    refused(&mut g, Move::EndTurn, IllegalMove::EndNotAllowed);
    play_line(&mut g, "ee");
    assert_eq!(g.turn(), Some(Color::White));
    assert!(!g.in_second_placement());
    play_line(&mut g, "aa");
    assert_eq!(g.turn(), Some(Color::White));
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    assert!(legal.contains(&Move::EndTurn));
    assert_eq!(legal.len(), 100 - 2 + 1);
    play_line(&mut g, "ab");
    assert_eq!(g.turn(), Some(Color::Black));
    play_line(&mut g, "jj");
    assert_eq!(g.turn(), Some(Color::Black));
    play_line(&mut g, "ij");
    assert_eq!(g.turn(), Some(Color::White));
    assert_eq!(g.ply(), 5);
}

#[test]
fn end_stops_a_turn_after_one_placement() {
    let mut g = game(10, "ee aa");
    play_line(&mut g, "end");
    assert_eq!(g.turn(), Some(Color::Black));
    assert_eq!(g.ply(), 3);
    refused(&mut g, Move::EndTurn, IllegalMove::EndNotAllowed);
    play_line(&mut g, "jj end");
    assert_eq!(g.turn(), Some(Color::White));
}

#[test]
fn a_stone_turns_over_with_five_enemy_neighbours_not_four() {
    let mut g = game(10, "ee ff end fe ge aa end ef");
    // ff has black ee, fe, ge, ef around it: four.
    assert_eq!(at(&g, "ff"), Some(Color::White));
    assert_eq!(g.captures(), [0, 0]);
    play_line(&mut g, "gf");
    assert_eq!(at(&g, "ff"), Some(Color::Black));
    assert_eq!(g.captures(), [1, 0]);
    assert_eq!(g.stone_counts(), [6, 1]);
}

#[test]
fn direct_turnovers_count_the_stones_one_placement_turns_over_first() {
    let g = game(10, "ee ff end fe ge aa end ef");
    // Black to move: ff (white) has four black neighbours, so any empty cell next to ff
    // turns it over; a cell away from it turns nothing over, and white turns no black
    // stone over anywhere yet.
    let cell = |s: &str| mv(&g, s).cell().unwrap();
    assert_eq!(g.turn(), Some(Color::Black));
    assert_eq!(g.direct_turnovers(cell("gf"), Color::Black), 1);
    assert_eq!(g.direct_turnovers(cell("gg"), Color::Black), 1);
    assert_eq!(g.direct_turnovers(cell("jj"), Color::Black), 0);
    assert_eq!(g.direct_turnovers(cell("gf"), Color::White), 0);
}

#[test]
fn turning_over_cascades() {
    // ff has ee, ef, eg, fe black; gf has fe, he, hf black. Black gg gives ff five, then
    // ff itself gives gf its fifth.
    let mut g = game(10, "ee ff gf ef eg aa end fe he ab end hf");
    assert_eq!(at(&g, "ff"), Some(Color::White));
    assert_eq!(at(&g, "gf"), Some(Color::White));
    play_line(&mut g, "gg");
    assert_eq!(at(&g, "ff"), Some(Color::Black));
    assert_eq!(at(&g, "gf"), Some(Color::Black));
    assert_eq!(g.captures(), [2, 0]);
}

#[test]
fn turning_over_wraps_across_the_seams() {
    // aa's neighbours jj, aj, bj, ja, jb lie across one or both seams.
    let mut g = game(10, "jj aa end aj bj ee end ja");
    assert_eq!(at(&g, "aa"), Some(Color::White));
    play_line(&mut g, "jb");
    assert_eq!(at(&g, "aa"), Some(Color::Black));
    assert_eq!(g.captures(), [1, 0]);
}

#[test]
fn only_the_movers_stones_replace_during_its_turn() {
    // Black ee joins five white stones: it stays black during black's turn, and white's
    // next placement, far away, turns it over.
    let mut g = game(10, "aa dd ed ja jb fd de ha hb fe end ee");
    assert_eq!(at(&g, "ee"), Some(Color::Black));
    assert_eq!(g.turn(), Some(Color::Black));
    play_line(&mut g, "end");
    assert_eq!(at(&g, "ee"), Some(Color::Black));
    play_line(&mut g, "hh");
    assert_eq!(at(&g, "ee"), Some(Color::White));
    assert_eq!(g.captures(), [0, 1]);
}

#[test]
fn a_full_board_with_equal_counts_is_a_draw() {
    // Columns a, b black and c, d white on 4×4: no stone ever has 5 enemy neighbours.
    let mut g = game(4, "aa ca da ba ab cb db bb ac cc dc bc ad cd dd");
    assert_eq!(g.turn(), Some(Color::Black));
    // The board fills on the first placement of black's turn: the game is over.
    play_line(&mut g, "bd");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::BoardFull)));
    assert_eq!(g.turn(), None);
    assert_eq!(g.stone_counts(), [8, 8]);
    assert_eq!(g.captures(), [0, 0]);
    refused(&mut g, Move::EndTurn, IllegalMove::GameOver);
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    assert!(legal.is_empty());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    assert_eq!(g.playout_move(&mut rng), None);
}

#[test]
fn a_full_board_with_more_stones_wins() {
    let g = game(4, "aa da cb ba ab db cc bb ac dc cd bc ad dd end bd ca");
    assert_eq!(
        g.outcome(),
        Some(Outcome::by_score(9.0, 7.0, Reason::BoardFull))
    );
    assert_eq!(g.outcome().unwrap().margin, Some(2.0));
    assert_eq!(g.stone_counts(), [9, 7]);
}

#[test]
fn illegal_moves_change_nothing() {
    let mut g = game(10, "ee aa");
    refused(&mut g, Move::Pass, IllegalMove::PassNotAllowed);
    let occupied = mv(&g, "ee");
    refused(&mut g, occupied, IllegalMove::Occupied);
    refused(&mut g, Move::Place(Cell(100)), IllegalMove::OffBoard);
    refused(&mut g, Move::Place(Cell(u16::MAX)), IllegalMove::OffBoard);
    play_line(&mut g, "end");
    refused(&mut g, Move::EndTurn, IllegalMove::EndNotAllowed);
    assert_eq!(g.stone(Cell(5000)), None);
}

/// The rules written out plainly: whole-board scans, one round at a time.
struct Reference {
    n: i32,
    board: Vec<Option<Color>>,
    to_move: Color,
    placed_this_turn: u8,
    captures: [u32; 2],
    over: bool,
}

impl Reference {
    fn new(n: usize) -> Reference {
        Reference {
            n: n as i32,
            board: vec![None; n * n],
            to_move: Color::Black,
            placed_this_turn: 0,
            captures: [0, 0],
            over: false,
        }
    }

    fn mover_neighbours(&self, i: usize, m: Color) -> usize {
        let (x, y) = (i as i32 % self.n, i as i32 / self.n);
        let mut count = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let j =
                    ((y + dy).rem_euclid(self.n) * self.n + (x + dx).rem_euclid(self.n)) as usize;
                if (dx, dy) != (0, 0) && self.board[j] == Some(m) {
                    count += 1;
                }
            }
        }
        count
    }

    fn play(&mut self, m: Move) {
        let mover = self.to_move;
        let first_of_game = self.board.iter().all(Option::is_none);
        match m {
            Move::Place(c) => {
                self.board[c.index()] = Some(mover);
                loop {
                    let round: Vec<usize> = (0..self.board.len())
                        .filter(|&i| {
                            self.board[i] == Some(mover.opponent())
                                && self.mover_neighbours(i, mover) >= 5
                        })
                        .collect();
                    if round.is_empty() {
                        break;
                    }
                    self.captures[mover.index()] += round.len() as u32;
                    for i in round {
                        self.board[i] = Some(mover);
                    }
                }
                self.placed_this_turn += 1;
                if self.board.iter().all(Option::is_some) {
                    self.over = true;
                } else if first_of_game || self.placed_this_turn == 2 {
                    self.placed_this_turn = 0;
                    self.to_move = mover.opponent();
                }
            }
            _ => {
                self.placed_this_turn = 0;
                self.to_move = mover.opponent();
            }
        }
    }
}

proptest! {
    #![proptest_config(toroid_testkit::cases(200))]

    #[test]
    fn random_games_follow_the_reference(size in 4usize..=10, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut g = new_game(size);
        let mut r = Reference::new(size);
        let cells = size * size;
        while g.outcome().is_none() {
            let wrong = any_move(&g, &mut rng);
            let before = snapshot(&g);
            if g.clone().play(wrong).is_err() {
                prop_assert!(g.check(wrong).is_err());
                prop_assert!(g.play(wrong).is_err());
                prop_assert_eq!(snapshot(&g), before);
            }

            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            let m = g.playout_move(&mut rng).unwrap();
            prop_assert!(legal.contains(&m));
            prop_assert_eq!(g.check(m), Ok(()));
            let mover = g.turn().unwrap();
            g.play(m).unwrap();
            r.play(m);

            prop_assert_eq!(stones(&g), r.board.clone());
            prop_assert_eq!(g.captures(), r.captures);
            prop_assert_eq!(g.outcome().is_some(), r.over);
            if !r.over {
                prop_assert_eq!(g.turn(), Some(r.to_move));
                prop_assert_eq!(g.in_second_placement(), r.placed_this_turn == 1);
            }
            let counted = [Color::Black, Color::White]
                .map(|c| stones(&g).iter().filter(|s| **s == Some(c)).count() as u32);
            let empty = stones(&g).iter().filter(|s| s.is_none()).count();
            prop_assert_eq!(g.stone_counts(), counted);
            prop_assert_eq!(counted[0] as usize + counted[1] as usize + empty, cells);
            if matches!(m, Move::Place(_)) {
                let left = (0..cells).find(|&i| {
                    r.board[i] == Some(mover.opponent()) && r.mover_neighbours(i, mover) >= 5
                });
                prop_assert_eq!(left, None, "a stone the mover should have turned over");
            }

            prop_assert_eq!(g.hash(), g.recompute_hash());
            prop_assert_eq!(g.check_consistency(), Ok(()));
            let board_hash = g.topology().cells().fold(0, |h, c| {
                g.stone(c).map_or(h, |s| h ^ zobrist::stone(c.index(), s))
            });
            prop_assert_eq!(g.board_hash(), board_hash);
        }
        let [black, white] = g.stone_counts();
        let expected = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        };
        let margin = expected.map(|_| f64::from(black.abs_diff(white)));
        prop_assert_eq!(g.outcome(), Some(Outcome { winner: expected, reason: Reason::BoardFull, margin }));
        prop_assert!(g.playout_move(&mut rng).is_none());
    }
}

#[test]
fn the_hash_tells_the_placement_of_the_turn_apart() {
    // The same stones with white to move at the start of a turn, and in its second placement.
    let a = game(10, "ee aa bb jj end");
    let b = game(10, "ee aa end jj end bb");
    let c = game(10, "ee bb end jj end aa");
    assert_eq!(stones(&a), stones(&b));
    assert_eq!(a.turn(), b.turn());
    assert_ne!(a.hash(), b.hash());
    assert_eq!(stones(&b), stones(&c));
    assert_eq!(b.hash(), c.hash());
}

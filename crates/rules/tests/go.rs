//! `capture-go` and `go`: the seed's situations, every rule the spec fixes, and property
//! tests of the incremental engine against from-scratch recounts and naive references.

use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::games::capture_go::CAPTURE_GO_PARAMS;
use toroid_rules::games::go::GO_PARAMS;
use toroid_rules::games::Go;
use toroid_rules::params::ParamKind;
use toroid_rules::topology::AROUND;
use toroid_rules::zobrist::{self, WHITE_TO_MOVE};
use toroid_rules::{
    Cell, Color, GameKind, IllegalMove, Move, ParamSpec, ParamValue, Params, Position, Reason,
    Surface,
};

fn go(params: &[&str]) -> Go {
    Go::go(&Params::parse(GO_PARAMS, params).unwrap()).unwrap()
}

fn capture_go(params: &[&str]) -> Go {
    Go::capture_go(&Params::parse(CAPTURE_GO_PARAMS, params).unwrap()).unwrap()
}

fn mv(g: &Go, notation: &str) -> Move {
    Move::parse(notation, g.topology()).unwrap()
}

fn cell(g: &Go, point: &str) -> Cell {
    mv(g, point).cell().unwrap()
}

fn play(g: &mut Go, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = mv(g, m);
        g.play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// The board as rows, top to bottom: `b`, `w`, `.`.
fn board(g: &Go) -> Vec<String> {
    let t = g.topology();
    (0..t.height())
        .map(|y| {
            (0..t.width())
                .map(|x| g.stone(t.cell_at(x, y).unwrap()).map_or('.', Color::letter))
                .collect()
        })
        .collect()
}

/// Puts the stones of `rows` (the top rows; the rest stay empty) on the board: black and white alternately (row by row), the
/// player who runs out first passing. The last setup move is a placement, so one pass
/// after it never ends the game. Checks that nothing was captured on the way.
fn setup(g: &mut Go, rows: &[&str]) {
    let mut stones = [Vec::new(), Vec::new()];
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let c = g.topology().cell_at(x, y).unwrap();
            match ch {
                'b' => stones[0].push(c),
                'w' => stones[1].push(c),
                _ => {}
            }
        }
    }
    let turns = stones[0].len().max(stones[1].len());
    let mut moves: Vec<Option<Cell>> = (0..turns)
        .flat_map(|i| [stones[0].get(i).copied(), stones[1].get(i).copied()])
        .collect();
    while moves.last() == Some(&None) {
        moves.pop();
    }
    for m in moves {
        g.play(m.map_or(Move::Pass, Move::Place)).unwrap();
    }
    let now = board(g);
    assert_eq!(now[..rows.len()], *rows, "setup captured something");
    assert!(now[rows.len()..].iter().all(|r| !r.contains(['b', 'w'])));
}

/// `setup`, then a pass if needed so that `color` is to move.
fn position(g: &mut Go, rows: &[&str], to_move: Color) {
    setup(g, rows);
    if g.turn() != Some(to_move) {
        g.play(Move::Pass).unwrap();
    }
}

fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort();
    cells
}

fn points(g: &Go, list: &str) -> Vec<Cell> {
    sorted(list.split_whitespace().map(|p| cell(g, p)).collect())
}

/// Everything a failed `play` must leave untouched.
fn snapshot(g: &Go) -> (Vec<String>, u64, usize, Option<Color>, [u32; 2], bool) {
    (
        board(g),
        g.hash(),
        g.ply(),
        g.turn(),
        g.captures(),
        g.outcome().is_some(),
    )
}

/// A move given as a `Move` or in notation.
trait AsMove {
    fn on(self, g: &Go) -> Move;
}

impl AsMove for Move {
    fn on(self, _: &Go) -> Move {
        self
    }
}

impl AsMove for &str {
    fn on(self, g: &Go) -> Move {
        mv(g, self)
    }
}

fn refused(g: &mut Go, m: impl AsMove, why: IllegalMove) {
    let m = m.on(g);
    let before = snapshot(g);
    assert_eq!(g.check(m), Err(why));
    assert_eq!(g.play(m), Err(why));
    assert_eq!(snapshot(g), before);
}

#[test]
fn seed_chains_are_orthogonally_connected_stones() {
    // Two black stones side by side are one chain; two diagonal white stones are two.
    let mut g = go(&["size=5"]);
    setup(&mut g, &[".....", ".bb..", ".w...", "..w..", "....."]);
    assert_eq!(sorted(g.chain(cell(&g, "bb"))), points(&g, "bb cb"));
    assert_eq!(g.chain(cell(&g, "bc")), points(&g, "bc"));
    assert_eq!(g.chain(cell(&g, "cd")), points(&g, "cd"));
    assert!(g.chain(cell(&g, "aa")).is_empty());

    // Five black stones in one chain; three white stones touching only diagonally.
    let mut g = go(&["size=5"]);
    setup(&mut g, &[".b...", ".bbb.", "...b.", "w.w..", ".w..."]);
    assert_eq!(
        sorted(g.chain(cell(&g, "ba"))),
        points(&g, "ba bb cb db dc")
    );
    for w in ["ad", "cd", "be"] {
        assert_eq!(g.chain(cell(&g, w)), vec![cell(&g, w)]);
    }
}

#[test]
fn liberties_atari_and_capture_of_a_chain() {
    let mut g = go(&["size=5"]);
    position(
        &mut g,
        &[".w...", "wbbw.", ".w...", ".....", "....."],
        Color::White,
    );
    let chain = cell(&g, "bb");
    assert_eq!(g.liberties(chain), 2);
    assert!(!g.in_atari(chain));
    assert_eq!(g.atari_point(chain), None);
    play(&mut g, "ca");
    assert_eq!(g.liberties(chain), 1);
    assert!(g.in_atari(chain));
    assert_eq!(g.atari_point(chain), Some(cell(&g, "cc")));
    play(&mut g, "pass cc");
    assert_eq!(board(&g), [".ww..", "w..w.", ".ww..", ".....", "....."]);
    assert_eq!(g.captures(), [0, 2]);
    assert_eq!(g.liberties(cell(&g, "ba")), 4);
    assert_eq!(g.liberties(chain), 0);
    g.check_consistency().unwrap();
}

#[test]
fn seed_white_at_2_2_captures_three() {
    // White to play at (2, 2) = "cc", the last liberty of the three black stones.
    let mut g = go(&["size=5"]);
    position(
        &mut g,
        &["...w.", "..wbw", "...bw", "..wbw", "...w."],
        Color::White,
    );
    assert_eq!(g.liberties(cell(&g, "dc")), 1);
    play(&mut g, "cc");
    assert_eq!(board(&g), ["...w.", "..w.w", "..w.w", "..w.w", "...w."]);
    assert_eq!(g.captures(), [0, 3]);
    g.check_consistency().unwrap();
}

#[test]
fn suicide_is_illegal_unless_it_captures() {
    // A lone stone without liberties.
    let mut g = go(&["size=5"]);
    position(&mut g, &[".w...", "w...."], Color::Black);
    refused(&mut g, "aa", IllegalMove::Suicide);

    // A chain filling its own last liberty.
    let mut g = capture_go(&["size=5"]);
    position(&mut g, &["bw...", ".w...", "w...."], Color::Black);
    refused(&mut g, "ab", IllegalMove::Suicide);

    // Without a liberty of its own, but taking the two white stones: legal, and the
    // white stones go, not the black one.
    let mut g = go(&["size=5"]);
    position(&mut g, &[".wb..", "wb...", "b...."], Color::Black);
    play(&mut g, "aa");
    assert_eq!(board(&g)[..3], ["b.b..", ".b...", "b...."]);
    assert_eq!(g.captures(), [2, 0]);
}

#[test]
fn seed_ko_forbids_the_immediate_recapture() {
    let mut g = go(&["size=5"]);
    position(&mut g, &[".wb..", "w.wb.", ".wb.."], Color::Black);
    // Black at (1, 1) takes the white stone at (2, 1) ...
    play(&mut g, "bb");
    assert_eq!(board(&g)[..3], [".wb..", "wb.b.", ".wb.."]);
    assert_eq!(g.ko_point(), Some(cell(&g, "cb")));
    // ... and white may not take back at (2, 1) at once: that recreates the first board.
    refused(&mut g, "cb", IllegalMove::Ko);
    // After an exchange elsewhere the board differs and the recapture is legal.
    play(&mut g, "ee ea cb");
    assert_eq!(board(&g)[..3], [".wb.b", "w.wb.", ".wb.."]);
    assert_eq!(g.ko_point(), Some(cell(&g, "bb")));
    refused(&mut g, "bb", IllegalMove::Ko);
    // Any other move, a pass included, lifts the ban.
    play(&mut g, "pass");
    assert_eq!(g.ko_point(), None);
}

#[test]
fn a_capture_by_a_chain_of_two_is_no_ko() {
    // Black at (1, 0) takes (2, 0) and joins (0, 0): retaking takes two stones, so the
    // board cannot repeat and white may retake at once.
    let mut g = go(&["size=5"]);
    position(&mut g, &["b.wb.", "wwb.."], Color::Black);
    play(&mut g, "ba");
    assert_eq!(g.ko_point(), None);
    assert_eq!(g.atari_point(cell(&g, "aa")), Some(cell(&g, "ca")));
    play(&mut g, "ca");
    assert_eq!(board(&g)[..2], ["..wb.", "wwb.."]);
    assert_eq!(g.captures(), [1, 2]);
}

#[test]
fn capture_go_has_no_ko_rule() {
    let mut g = capture_go(&["size=5", "target=5"]);
    position(&mut g, &[".wb..", "w.wb.", ".wb.."], Color::Black);
    play(&mut g, "bb cb bb cb");
    assert_eq!(g.captures(), [2, 2]);
    assert_eq!(g.ko_point(), None);
    assert_eq!(g.score(), None);
}

fn ko_game(ko: &str, moves: &str) -> Go {
    let mut g = go(&["size=2", &format!("ko={ko}")]);
    play(&mut g, moves);
    g
}

#[test]
fn superko_forbids_older_repetitions_that_simple_ko_allows() {
    // 2×2 board. B aa, W ba, B pass, W ab takes aa, B pass, W bb; now B aa takes the
    // three white stones and recreates the board after move 1 (B aa, white to move).
    let moves = "aa ba pass ab pass bb";
    let mut simple = ko_game("simple", moves);
    play(&mut simple, "aa");
    assert_eq!(board(&simple), ["b.", ".."]);
    refused(
        &mut ko_game("positional", moves),
        Move::Place(Cell(0)),
        IllegalMove::Superko,
    );
    refused(
        &mut ko_game("situational", moves),
        Move::Place(Cell(0)),
        IllegalMove::Superko,
    );
}

#[test]
fn situational_superko_allows_a_board_with_the_other_player_to_move() {
    // B aa, W ba, B ab, W pass, B bb takes ba, W ba takes three; now B aa recreates the
    // board after move 2 (B aa, W ba), but with white to move instead of black.
    let moves = "aa ba ab pass bb ba";
    let mut situational = ko_game("situational", moves);
    play(&mut situational, "aa");
    assert_eq!(board(&situational), ["bw", ".."]);
    play(&mut ko_game("simple", moves), "aa");
    refused(
        &mut ko_game("positional", moves),
        Move::Place(Cell(0)),
        IllegalMove::Superko,
    );
}

#[test]
fn superko_also_forbids_the_simple_ko_recapture() {
    for ko in ["positional", "situational"] {
        let mut g = go(&["size=5", &format!("ko={ko}")]);
        position(&mut g, &[".wb..", "w.wb.", ".wb.."], Color::Black);
        play(&mut g, "bb");
        assert_eq!(g.ko_point(), None);
        refused(&mut g, "cb", IllegalMove::Superko);
    }
}

const WALLS: [&str; 5] = [".bw..", ".bw..", ".bw..", ".bw..", ".bw.."];
const DAME: [&str; 5] = [".b.w.", ".b.w.", ".b.w.", ".b.w.", ".b.w."];

fn scored(scoring: &str, komi: &str, rows: &[&str]) -> Go {
    let mut g = go(&[
        "size=5",
        &format!("scoring={scoring}"),
        &format!("komi={komi}"),
    ]);
    setup(&mut g, rows);
    g
}

#[test]
fn scoring_methods_count_as_the_seed_defines() {
    // Walls: black 5 stones and the 5 points left of them; white 5 stones and 10 points.
    assert_eq!(scored("stone", "0.5", &WALLS).score(), Some([5.0, 5.5]));
    assert_eq!(
        scored("territory", "0.5", &WALLS).score(),
        Some([5.0, 10.5])
    );
    assert_eq!(scored("area", "0.5", &WALLS).score(), Some([10.0, 15.5]));
    // The middle column touches both colours: nobody's.
    assert_eq!(scored("territory", "0", &DAME).score(), Some([5.0, 5.0]));
    assert_eq!(scored("area", "0", &DAME).score(), Some([10.0, 10.0]));
    // An empty board is nobody's territory.
    assert_eq!(go(&["size=5"]).score(), Some([0.0, 7.5]));
    // A lone stone owns every empty point.
    let mut g = go(&["size=5", "scoring=territory", "komi=0"]);
    play(&mut g, "cc");
    assert_eq!(g.score(), Some([24.0, 0.0]));
}

#[test]
fn japanese_scoring_adds_prisoners_to_territory() {
    // Without captures it is territory scoring.
    assert_eq!(scored("japanese", "0.5", &WALLS).score(), Some([5.0, 10.5]));
    // White captures the black stone at the bottom: a prisoner, and its point is white's
    // territory again. Territory scoring counts the point, Japanese scoring the prisoner too.
    let rows = [".bw..", ".bw..", ".bw..", ".bww.", ".bwb."];
    for (scoring, white) in [("territory", 8.0), ("japanese", 9.0)] {
        let mut g = go(&["size=5", &format!("scoring={scoring}"), "komi=0"]);
        position(&mut g, &rows, Color::White);
        play(&mut g, "ee");
        assert_eq!(g.captures(), [0, 1]);
        assert_eq!(g.score(), Some([5.0, white]), "{scoring}");
    }
}

/// The territory as rows: the owner's letter on each point it owns, `.` elsewhere.
fn territory_rows(g: &Go) -> Option<Vec<String>> {
    let owners = g.territory()?;
    let t = g.topology();
    Some(
        (0..t.height())
            .map(|y| {
                (0..t.width())
                    .map(|x| owners[t.cell_at(x, y).unwrap().index()].map_or('.', Color::letter))
                    .collect()
            })
            .collect(),
    )
}

#[test]
fn territory_marks_the_points_the_score_counts() {
    let walls = scored("area", "0", &WALLS);
    let rows = territory_rows(&walls).unwrap();
    assert_eq!(rows, ["b..ww"; 5]);
    // Every point marked is one the score counts.
    let marked = |c: char| {
        rows.iter()
            .flat_map(|r| r.chars())
            .filter(|&x| x == c)
            .count()
    };
    assert_eq!((marked('b'), marked('w')), (5, 10));
    assert_eq!(
        territory_rows(&scored("territory", "0", &DAME)).unwrap(),
        ["b...w"; 5]
    );
    // Stone scoring counts no territory, and capture-go has no score.
    assert_eq!(territory_rows(&scored("stone", "0", &WALLS)), None);
    assert_eq!(capture_go(&[]).territory(), None);
    // On a torus the walls close both ways: the column between them touches both.
    let mut torus = go(&["size=5", "topology=torus", "komi=0"]);
    position(&mut torus, &WALLS, Color::Black);
    assert_eq!(territory_rows(&torus).unwrap(), ["....."; 5]);
}

#[test]
fn the_winning_capture_is_highlighted() {
    // White's stone on cb takes the black stone on bb and wins: both are lit, nothing
    // before the end.
    let rows = [".w...", "wb...", ".w..."];
    let mut g = capture_go(&["size=5", "target=1"]);
    position(&mut g, &rows, Color::White);
    assert!(g.highlight().is_empty());
    play(&mut g, "cb");
    assert_eq!(g.highlight(), [cell(&g, "cb"), cell(&g, "bb")]);

    // Two chains taken by one stone: every captured stone is lit.
    let rows = [".b.b.", "bw.wb", ".b.b."];
    let mut g = capture_go(&["size=5", "target=2"]);
    position(&mut g, &rows, Color::Black);
    play(&mut g, "cb");
    assert_eq!(g.outcome().unwrap().reason, Reason::CaptureTarget);
    assert_eq!(sorted(g.highlight()), points(&g, "cb bb db"));

    // A game ended by passes highlights nothing.
    let mut g = capture_go(&["size=5"]);
    play(&mut g, "pass pass");
    assert!(g.highlight().is_empty());
}

fn two_passes(mut g: Go) -> Option<Color> {
    play(&mut g, "pass pass");
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason, Reason::TwoPasses);
    assert_eq!(g.turn(), None);
    outcome.winner
}

#[test]
fn komi_goes_to_white_and_equal_scores_draw() {
    assert_eq!(two_passes(go(&["size=5"])), Some(Color::White));
    assert_eq!(two_passes(go(&["size=5", "komi=-0.5"])), Some(Color::Black));
    assert_eq!(two_passes(go(&["size=5", "komi=0"])), None);
    assert_eq!(two_passes(scored("area", "0", &DAME)), None);
    assert_eq!(
        two_passes(scored("territory", "-5.5", &WALLS)),
        Some(Color::Black)
    );
    assert_eq!(
        two_passes(scored("stone", "-0.5", &WALLS)),
        Some(Color::Black)
    );
    assert_eq!(two_passes(scored("area", "-5", &WALLS)), None);
}

#[test]
fn capture_target_wins_at_once() {
    let rows = [".w...", "wb...", ".w..."];
    let mut g = capture_go(&["size=5", "target=1"]);
    position(&mut g, &rows, Color::White);
    play(&mut g, "cb");
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.reason, Reason::CaptureTarget);
    assert_eq!(g.turn(), None);
    refused(&mut g, Move::Pass, IllegalMove::GameOver);
    refused(&mut g, "ee", IllegalMove::GameOver);

    // Below the target the game goes on; two passes then give it to the capturer.
    let mut g = capture_go(&["size=5", "target=2"]);
    position(&mut g, &rows, Color::White);
    play(&mut g, "cb");
    assert_eq!(g.outcome(), None);
    assert_eq!(two_passes(g), Some(Color::White));
    assert_eq!(two_passes(capture_go(&[])), None);
}

#[test]
fn max_moves_ends_the_game_and_counts_passes() {
    assert_eq!(go(&[]).params().int("max_moves"), Some(243));
    assert_eq!(go(&["size=5"]).params().int("max_moves"), Some(75));
    let mut g = go(&["size=5", "max_moves=3", "komi=0"]);
    play(&mut g, "pass aa pass");
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason, Reason::MoveLimit);
    assert_eq!(outcome.winner, Some(Color::White));
    refused(&mut g, Move::Pass, IllegalMove::GameOver);
}

#[test]
fn captures_cross_the_seams() {
    // On a cylinder (0, 2) also touches (4, 2).
    let rows = [".....", "w....", "bw...", "w....", "....."];
    let mut g = go(&["size=5", "topology=cylinder"]);
    position(&mut g, &rows, Color::White);
    assert_eq!(g.atari_point(cell(&g, "ac")), Some(cell(&g, "ec")));
    play(&mut g, "ec");
    assert_eq!(g.stone(cell(&g, "ac")), None);
    assert_eq!(g.captures(), [0, 1]);
    // On the plane the same three white stones already took it.
    let mut g = go(&["size=5"]);
    play(&mut g, "ac ab pass bc pass");
    play(&mut g, "ad");
    assert_eq!(g.stone(cell(&g, "ac")), None);

    // On a torus (1, 0) also touches (1, 4), and (4, 0) touches (4, 4).
    let mut g = go(&["size=5", "topology=torus"]);
    position(&mut g, &["wbw..", ".w...", "....."], Color::White);
    assert_eq!(g.liberties(cell(&g, "ba")), 1);
    play(&mut g, "be");
    assert_eq!(g.stone(cell(&g, "ba")), None);
    assert_eq!(g.captures(), [0, 1]);
    play(&mut g, "ea pass ee");
    assert_eq!(sorted(g.chain(cell(&g, "ea"))), points(&g, "ea ee"));
    // A chain across the left/right seam of a cylinder.
    let mut g = go(&["size=5", "topology=cylinder"]);
    play(&mut g, "ac pass ec");
    assert_eq!(sorted(g.chain(cell(&g, "ac"))), points(&g, "ac ec"));
    assert_eq!(g.liberties(cell(&g, "ac")), 6);
}

#[test]
fn bad_moves_are_typed_errors_that_change_nothing() {
    let mut g = go(&["size=5"]);
    play(&mut g, "cc");
    refused(&mut g, Move::Place(Cell(25)), IllegalMove::OffBoard);
    refused(&mut g, Move::Place(Cell(u16::MAX)), IllegalMove::OffBoard);
    refused(&mut g, "cc", IllegalMove::Occupied);
    refused(&mut g, Move::EndTurn, IllegalMove::EndNotAllowed);
    assert!(!g.is_own_eye(Cell(999), Color::Black));
    assert_eq!(g.liberties(Cell(999)), 0);
    assert!(g.chain(Cell(999)).is_empty());
    play(&mut g, "pass pass");
    refused(&mut g, Move::EndTurn, IllegalMove::GameOver);
}

#[test]
fn parameters_are_checked_when_assigned() {
    let mut p = Params::defaults(GO_PARAMS);
    let defaults = p.clone();
    assert!(p.assign("size", ParamValue::Int(40)).is_err());
    assert!(p.assign("size", ParamValue::Float(9.0)).is_err());
    assert!(p.assign("ko", ParamValue::Choice("none")).is_err());
    assert!(p.assign("komi", ParamValue::Choice("simple")).is_err());
    assert!(p.assign("komi", ParamValue::Float(f64::NAN)).is_err());
    assert!(p.assign("target", ParamValue::Int(5)).is_err());
    assert_eq!(p, defaults, "a refused value changes nothing");
    p.assign("komi", ParamValue::Int(6)).unwrap();
    assert_eq!(p.float("komi"), Some(6.0), "an integer is a number");
    p.assign_text("topology", "klein").unwrap();
    let g = Go::go(&p).unwrap();
    assert_eq!(g.score(), Some([0.0, 6.0]));
    assert_eq!(g.topology().surface(), Surface::Klein);
    assert!(Go::capture_go(&Params::defaults(GO_PARAMS)).is_err());
    let g = GameKind::Go
        .new_game(&["size=7", "topology=torus"])
        .unwrap();
    assert_eq!(g.kind(), GameKind::Go);
    assert_eq!(g.topology().len(), 49);
    assert_eq!(
        GameKind::CaptureGo.default_game().kind(),
        GameKind::CaptureGo
    );
}

#[test]
fn own_eyes_and_the_playout_policy() {
    // Black's two eyes: nobody has a sensible placement, so both pass.
    let mut g = go(&["size=3"]);
    position(&mut g, &["b.b", "bbb", "b.b"], Color::White);
    assert!(g.is_own_eye(cell(&g, "ba"), Color::Black));
    assert!(!g.is_own_eye(cell(&g, "ba"), Color::White));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    assert_eq!(g.playout_move(&mut rng), Some(Move::Pass));
    play(&mut g, "pass");
    assert_eq!(g.playout_move(&mut rng), Some(Move::Pass));

    // A point whose own neighbour is in atari there is no eye: filling it connects.
    let mut g = go(&["size=3"]);
    position(&mut g, &[".bw", "bw.", "..."], Color::Black);
    assert!(g.in_atari(cell(&g, "ba")));
    assert!(!g.is_own_eye(cell(&g, "aa"), Color::Black));
}

#[test]
fn the_neighborhood_reads_the_eight_cells_around_clockwise_from_above() {
    let mut g = go(&["size=5"]);
    position(&mut g, &["bw...", ".b..."], Color::Black);
    // Around `ab` (x 0, y 1) on the plane: above `aa` black, `ba` white, `bb` black, then
    // below and left of it the empty `bc` `ac` and three cells off the board.
    let around = g.around(cell(&g, "ab"));
    let off = None;
    let at = |p| Some(cell(&g, p));
    assert_eq!(
        around,
        [
            at("aa"),
            at("ba"),
            at("bb"),
            at("bc"),
            at("ac"),
            off,
            off,
            off
        ]
    );
    let fields = [1, 2, 1, 0, 0, 3, 3, 3];
    let expected = fields
        .iter()
        .enumerate()
        .fold(0, |code, (i, &v)| code | v << (2 * i));
    assert_eq!(g.neighborhood(cell(&g, "ab")), expected);
}

/// The 3×3 neighbourhood code of `c`, recomputed from the topology and the stones.
fn naive_neighborhood(g: &Go, c: Cell) -> u16 {
    AROUND.iter().enumerate().fold(0, |code, (i, &(dx, dy))| {
        let field = match g.topology().step(c, dx, dy) {
            None => 3,
            Some((n, _)) => g.stone(n).map_or(0, |color| color.index() as u16 + 1),
        };
        code | field << (2 * i)
    })
}

/// Whether a `me` stone on the empty `c` would be suicide, and whether `c` is `me`'s own
/// eye, from the neighbours' colours and their chains' liberties counted one by one: a
/// suicide has no empty neighbour, no own chain with a second liberty and no enemy chain in
/// atari to capture; an own eye has only own neighbours on the board, none in atari.
fn naive_suicide_and_eye(g: &Go, c: Cell, me: Color) -> (bool, bool) {
    let mut liberty = false;
    let mut eye = true;
    for n in g.topology().adjacent(c) {
        match g.stone(n) {
            None => (liberty, eye) = (true, false),
            Some(color) if color == me => {
                let safe = g.liberties(n) >= 2;
                liberty |= safe;
                eye &= safe;
            }
            Some(_) => {
                liberty |= g.liberties(n) == 1;
                eye = false;
            }
        }
    }
    (!liberty, eye)
}

/// Whether an eye shape at `c` is false for `me` by its diagonal cells: two enemy stones, or
/// one with another diagonal off the board.
fn naive_false(g: &Go, c: Cell, me: Color) -> bool {
    let diagonals: Vec<Option<Cell>> = g.around(c).into_iter().skip(1).step_by(2).collect();
    let enemies = (diagonals.iter().flatten())
        .filter(|&&d| g.stone(d) == Some(me.opponent()))
        .count();
    enemies >= 2 || (enemies == 1 && diagonals.contains(&None))
}

/// Draws 40,000 moves and checks each of `expected` comes up within 10% of its fair share
/// (and nothing else comes up).
fn assert_uniform(expected: &[Move], mut draw: impl FnMut() -> Move) {
    let draws = 40_000;
    let mut counts = vec![0; expected.len()];
    for _ in 0..draws {
        let m = draw();
        let i = expected
            .iter()
            .position(|&s| s == m)
            .unwrap_or_else(|| panic!("{m:?} is not among the expected moves"));
        counts[i] += 1;
    }
    let fair = draws as f64 / expected.len() as f64;
    for (m, c) in expected.iter().zip(counts) {
        assert!(
            (c as f64 - fair).abs() < 0.1 * fair,
            "{m:?} drawn {c} times, expected {fair}"
        );
    }
}

#[test]
fn the_playout_policy_fills_false_eyes_and_keeps_true_ones() {
    // Black's eye shapes: `aa` in the corner with white on its one diagonal and `ed` in the
    // middle with white on two (both false: white can cut there), and `gg` in the corner
    // with black on its diagonal (true).
    let mut g = go(&["size=7"]);
    let rows = [
        ".bb....", "bw.....", "b..wbw.", "...b.b.", "....b..", ".....bb", ".....b.",
    ];
    position(&mut g, &rows, Color::Black);
    for (p, false_eye) in [("aa", true), ("ed", true), ("gg", false)] {
        assert!(g.is_own_eye(cell(&g, p), Color::Black), "{p}");
        assert_eq!(g.is_false_eye(cell(&g, p), Color::Black), false_eye, "{p}");
        assert!(!g.is_false_eye(cell(&g, p), Color::White), "{p}");
    }
    let mut sensible: Vec<Move> = Vec::new();
    g.legal_moves(&mut sensible);
    sensible.retain(|&m| m != Move::Pass && m != mv(&g, "gg"));
    assert!(sensible.contains(&mv(&g, "aa")) && sensible.contains(&mv(&g, "ed")));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    assert_uniform(&sensible, || g.playout_move(&mut rng).unwrap());
}

/// A 4×4 position with an own eye at `aa`, a suicide point for white, and an atari.
fn policy_position() -> Go {
    let mut g = go(&["size=4"]);
    position(&mut g, &["b.b.", "bbbw", "..w.", "...."], Color::Black);
    g
}

#[test]
fn playout_moves_are_uniform_over_sensible_placements() {
    let g = policy_position();
    let mut sensible: Vec<Move> = Vec::new();
    g.legal_moves(&mut sensible);
    sensible.retain(|&m| m != Move::Pass && !g.is_own_eye(m.cell().unwrap(), Color::Black));
    assert!(!sensible.contains(&mv(&g, "ba")));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    assert_uniform(&sensible, || g.playout_move(&mut rng).unwrap());
}

#[test]
fn uniform_moves_are_uniform_over_all_legal_moves() {
    let g = policy_position();
    let mut legal: Vec<Move> = Vec::new();
    g.legal_moves(&mut legal);
    assert!(legal.contains(&Move::Pass) && legal.contains(&mv(&g, "ba")));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    assert_uniform(&legal, || g.uniform_move(&mut rng).unwrap());
}

// ---- Property tests ----------------------------------------------------------------

fn new_game(kind: GameKind, size: usize, topology: &str, ko: &str) -> Go {
    let size = format!("size={size}");
    let topology = format!("topology={topology}");
    match kind {
        GameKind::Go => go(&[&size, &topology, &format!("ko={ko}"), "max_moves=120"]),
        _ => capture_go(&[&size, &topology, "target=8"]),
    }
}

fn stones_hash(g: &Go) -> u64 {
    g.topology()
        .cells()
        .filter_map(|c| g.stone(c).map(|s| zobrist::stone(c.index(), s)))
        .fold(0, |h, k| h ^ k)
}

/// The values a choice parameter of `spec` takes (every surface, every ko rule).
fn choices(spec: &[ParamSpec], name: &str) -> Vec<&'static str> {
    match spec.iter().find(|p| p.name == name).map(|p| &p.kind) {
        Some(ParamKind::Choice(options)) => options.to_vec(),
        other => panic!("{name} is no choice: {other:?}"),
    }
}

fn game_params() -> impl Strategy<Value = (GameKind, usize, &'static str, &'static str, u64)> {
    (
        prop::sample::select(vec![GameKind::Go, GameKind::CaptureGo]),
        2usize..=7,
        prop::sample::select(choices(GO_PARAMS, "topology")),
        prop::sample::select(choices(GO_PARAMS, "ko")),
        any::<u64>(),
    )
}

/// A random move: mostly legal ones, preferring points next to stones (captures, kos),
/// sometimes anything at all (errors must change nothing).
fn random_move(g: &Go, rng: &mut Xoshiro256PlusPlus) -> Move {
    let n = g.topology().len();
    if rng.random_bool(0.15) {
        return match rng.random_range(0..4) {
            0 => Move::EndTurn,
            1 => Move::Pass,
            _ => Move::Place(Cell(rng.random_range(0..n as u16 + 3))),
        };
    }
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    let near: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            m.cell()
                .is_some_and(|c| g.topology().adjacent(c).any(|a| g.stone(a).is_some()))
        })
        .collect();
    if !near.is_empty() && rng.random_bool(0.7) {
        *near.choose(rng).unwrap()
    } else if rng.random_bool(0.05) {
        Move::Pass
    } else {
        *legal.choose(rng).unwrap()
    }
}

proptest! {
    #![proptest_config(toroid_testkit::cases(256))]

    #[test]
    fn random_games_keep_every_invariant(params in game_params()) {
        let (kind, size, topology, ko, seed) = params;
        let mut g = new_game(kind, size, topology, ko);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut last_was_pass = false;
        // Copied into at every move (`clone_from`, as ladder reads do), starting from a
        // game of another size and kind.
        let mut copy = capture_go(&["size=9", "target=3"]);
        play(&mut copy, "ee de");
        for _ in 0..150 {
            if g.outcome().is_some() {
                break;
            }
            // The playout policy proposes only legal moves, never an own eye unless it is
            // false, and passes only when every legal placement is such an eye.
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            prop_assert_eq!(legal.last(), Some(&Move::Pass));
            let me = g.turn().unwrap();
            let fillable = |c| !g.is_own_eye(c, me) || g.is_false_eye(c, me);
            let sensible = legal.iter().any(|m| m.cell().is_some_and(fillable));
            match g.playout_move(&mut rng).unwrap() {
                Move::Pass => prop_assert!(!sensible),
                m => {
                    prop_assert!(g.check(m).is_ok());
                    prop_assert!(fillable(m.cell().unwrap()));
                }
            }
            // A self-atari is what playing there does: a chain with one liberty and
            // nothing captured.
            for c in g.topology().cells() {
                let mut after = g.clone();
                if g.stone(c).is_some() || after.play(Move::Place(c)).is_err() {
                    continue;
                }
                let expected = (after.liberties(c) == 1 && after.captures() == g.captures())
                    .then(|| after.chain(c).len());
                prop_assert_eq!(g.self_atari(c, me), expected, "at {:?}", c);
            }
            for c in g.topology().cells() {
                prop_assert_eq!(g.neighborhood(c), naive_neighborhood(&g, c), "at {:?}", c);
            }
            // Suicides and own eyes as the chains' counted liberties tell them, against the
            // board's tests from its liberty words.
            for c in g.topology().cells().filter(|&c| g.stone(c).is_none()) {
                let (suicide, eye) = naive_suicide_and_eye(&g, c, me);
                let verdict = g.check(Move::Place(c));
                prop_assert_eq!(verdict == Err(IllegalMove::Suicide), suicide, "at {:?}", c);
                prop_assert_eq!(g.is_own_eye(c, me), eye, "at {:?}", c);
                prop_assert_eq!(g.is_false_eye(c, me), eye && naive_false(&g, c, me), "at {:?}", c);
            }
            // The uniform policy proposes only legal moves (with every ko rule).
            let u = g.uniform_move(&mut rng).unwrap();
            prop_assert!(legal.contains(&u), "uniform_move proposed illegal {:?}", u);
            let m = random_move(&g, &mut rng);
            let before = snapshot(&g);
            match g.play(m) {
                Ok(()) => {
                    prop_assert!(legal.contains(&m));
                    last_was_pass = m == Move::Pass;
                }
                Err(_) => {
                    prop_assert!(!legal.contains(&m));
                    prop_assert_eq!(snapshot(&g), before);
                }
            }
            if let Err(e) = g.check_consistency() {
                prop_assert!(false, "{}", e);
            }
            copy.clone_from(&g);
            prop_assert_eq!(snapshot(&copy), snapshot(&g));
            prop_assert!(copy.check_consistency().is_ok());
            let (mut copy_legal, mut legal) = (Vec::new(), Vec::new());
            copy.legal_moves(&mut copy_legal);
            g.legal_moves(&mut legal);
            prop_assert_eq!(copy_legal, legal);
            // Without ko point, pass or end, and outside capture-go, the hash is the
            // stones' zobrist and the side to move, nothing else.
            if kind == GameKind::Go && g.ko_point().is_none() && !last_was_pass && g.outcome().is_none() {
                let side = if g.turn() == Some(Color::White) { WHITE_TO_MOVE } else { 0 };
                prop_assert_eq!(g.hash(), stones_hash(&g) ^ side);
            }
        }
    }

    /// Each ko rule against its definition, judged on boards produced by a ko-free shadow
    /// game (`capture-go` with an unreachable target) that plays the same moves.
    #[test]
    fn ko_rules_match_their_definitions(params in game_params()) {
        let (_, size, topology, ko, seed) = params;
        let mut g = new_game(GameKind::Go, size, topology, ko);
        let mut shadow = capture_go(&[&format!("size={size}"), &format!("topology={topology}"), "target=625"]);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        // Every board of the game so far with the player to move then.
        let mut history = vec![(board(&g), Color::Black)];
        while g.outcome().is_none() {
            let me = g.turn().unwrap();
            for c in g.topology().cells() {
                if g.stone(c).is_some() {
                    continue;
                }
                let mut next = shadow.clone();
                let expected = match next.play(Move::Place(c)) {
                    Err(e) => Err(e),
                    Ok(()) => {
                        let after = board(&next);
                        let repeats = match ko {
                            "simple" => history.len() >= 2 && history[history.len() - 2].0 == after,
                            "positional" => history.iter().any(|(b, _)| *b == after),
                            _ => history.iter().any(|(b, to_move)| *b == after && *to_move == me.opponent()),
                        };
                        match (repeats, ko) {
                            (false, _) => Ok(()),
                            (true, "simple") => Err(IllegalMove::Ko),
                            (true, _) => Err(IllegalMove::Superko),
                        }
                    }
                };
                prop_assert_eq!(g.check(Move::Place(c)), expected, "at {:?}", c);
            }
            let m = loop {
                let m = random_move(&g, &mut rng);
                if g.check(m).is_ok() {
                    break m;
                }
            };
            g.play(m).unwrap();
            shadow.play(m).unwrap();
            prop_assert_eq!(board(&g), board(&shadow));
            history.push((board(&g), me.opponent()));
        }
    }
}

// --- The non-orientable surfaces (docs/rules.md, "Surfaces") ---------------------------------

/// A stone on the edge of a reversed gluing is captured by the stone across the seam,
/// mirrored: on the Klein bottle, up from (1, 0) is (3, 4) on a 5×5 board; on the Möbius
/// strip, left from (0, 1) is (4, 3). On the torus the same stones leave it a liberty.
#[test]
fn captures_reach_across_the_reversed_seams_of_the_klein_bottle_and_the_mobius_strip() {
    for (topology, white, moves) in [
        // White's ba: aa, ca and bb beside it, de across the top/bottom seam.
        ("klein", "ba", "aa ba ca cc bb dc de"),
        // White's ab: aa, ac and bb beside it, ed across the left/right seam.
        ("mobius", "ab", "aa ab ac cc bb dc ed"),
    ] {
        let mut g = go(&["size=5", &format!("topology={topology}")]);
        play(&mut g, moves);
        assert_eq!(
            g.stone(cell(&g, white)),
            None,
            "{topology}: {:?}",
            board(&g)
        );
        assert_eq!(g.captures(), [1, 0], "{topology}");
        let mut torus = go(&["size=5", "topology=torus"]);
        play(&mut torus, moves);
        assert_eq!(
            torus.stone(cell(&torus, white)),
            Some(Color::White),
            "torus"
        );
    }
}

/// A ko that straddles the left/right seam of the torus: black takes at ab, white may not
/// take back at eb at once, and may after an exchange elsewhere.
#[test]
fn ko_holds_across_a_seam() {
    let mut g = go(&["size=5", "topology=torus"]);
    // Columns d, e | a, b side by side across the seam: black's eb-ko shape.
    position(&mut g, &["w...b", ".w.bw", "w...b"], Color::Black);
    play(&mut g, "ab");
    assert_eq!(
        g.stone(cell(&g, "eb")),
        None,
        "black's ab took eb across the seam"
    );
    assert_eq!(g.play(mv(&g, "eb")), Err(IllegalMove::Ko));
    play(&mut g, "cd ce");
    play(&mut g, "eb");
    assert_eq!(
        g.stone(cell(&g, "ab")),
        None,
        "white took back after the exchange"
    );
}

/// Area scoring on the projective plane: the corner aa touches ee (the two corners are one
/// neighbour across both seams), so with a white stone on ee it is no black territory, as it
/// would be on the plane.
#[test]
fn scoring_on_the_projective_plane_counts_the_identified_corners() {
    for (topology, black) in [("plane", 3.0), ("projective", 2.0)] {
        let mut g = go(&["size=5", &format!("topology={topology}"), "komi=0.5"]);
        play(&mut g, "ba ee ab pass pass");
        assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::TwoPasses));
        assert_eq!(g.score(), Some([black, 1.5]), "{topology}: {:?}", board(&g));
    }
}

/// White's wall with a dead black stone in white's corner: black's column and its stone
/// against white's wall and the rest.
const DEAD_IN_THE_CORNER: [&str; 5] = [".bw..", ".bw..", ".bw..", ".bw..", ".bw.b"];

/// A game of `DEAD_IN_THE_CORNER` under `scoring_phase`, ended by two passes (white's
/// first, so white is to move again after them).
fn passed_out(phase: &str, scoring: &str) -> Go {
    let mut g = go(&[
        "size=5",
        "komi=0.5",
        &format!("scoring={scoring}"),
        &format!("scoring_phase={phase}"),
    ]);
    position(&mut g, &DEAD_IN_THE_CORNER, Color::White);
    play(&mut g, "pass pass");
    g
}

#[test]
fn without_a_scoring_phase_dead_stones_count_as_they_stand() {
    let g = passed_out("none", "area");
    assert_eq!(g.end_phase(), toroid_rules::EndPhase::Play);
    // The stone at ee spoils white's corner: black 5 + 5 + 1, white 5 + 0.5.
    let end = g.outcome().unwrap();
    assert_eq!(
        (end.winner, end.reason),
        (Some(Color::Black), Reason::TwoPasses)
    );
    assert_eq!(g.outcome_with_dead(&[cell(&g, "ee")]), None);
}

#[test]
fn under_agreement_two_passes_wait_for_the_dead_stones_and_a_dispute_goes_on_as_cleanup() {
    for (scoring, margin) in [("area", 5.5), ("japanese", 6.5)] {
        let g = passed_out("agreement", scoring);
        assert_eq!(g.end_phase(), toroid_rules::EndPhase::Counting);
        assert_eq!((g.outcome(), g.turn()), (None, Some(Color::White)));
        // Agreed dead, the stone is taken off (a prisoner under Japanese counting).
        let agreed = g.outcome_with_dead(&[cell(&g, "ee")]).unwrap();
        assert_eq!(agreed.winner, Some(Color::White), "{scoring}");
        assert_eq!(agreed.margin, Some(margin), "{scoring}");
        // Nothing agreed dead: as the stones stand.
        let as_they_stand = g.outcome_with_dead(&[]).unwrap();
        assert_eq!(as_they_stand.winner, Some(Color::Black), "{scoring}");
        // A dispute is a move: play goes on, and the phase is cleanup.
        let mut disputed = g.clone();
        play(&mut disputed, "pass");
        assert_eq!(disputed.end_phase(), toroid_rules::EndPhase::Cleanup);
        assert_eq!(disputed.outcome(), None);
        assert_ne!(disputed.hash(), g.hash());
    }
}

#[test]
fn under_cleanup_the_stones_captured_after_two_passes_count_as_dead_on_the_board_they_left() {
    for (scoring, margin) in [("area", 5.5), ("japanese", 6.5)] {
        let mut g = passed_out("cleanup", scoring);
        assert_eq!(g.end_phase(), toroid_rules::EndPhase::Cleanup);
        assert_eq!(g.outcome(), None, "two passes start the cleanup");
        // White fills the stone's two liberties and takes it; black's stones inside count
        // nothing, and white's placements cost nothing under either scoring.
        play(&mut g, "de pass ed");
        assert_eq!(g.captures(), [0, 1]);
        play(&mut g, "pass");
        assert_eq!(g.end_phase(), toroid_rules::EndPhase::Cleanup);
        assert_eq!(g.outcome(), None, "one pass");
        play(&mut g, "pass");
        let end = g.outcome().unwrap();
        assert_eq!(
            (end.winner, end.reason),
            (Some(Color::White), Reason::TwoPasses),
            "{scoring}"
        );
        assert_eq!(end.margin, Some(margin), "{scoring}");
        // The same as agreeing on that stone.
        let agreed = passed_out("agreement", scoring).outcome_with_dead(&[cell(&g, "ee")]);
        assert_eq!(agreed, Some(end), "{scoring}");
    }
}

#[test]
fn a_chain_is_its_connected_stones_and_toggling_one_stone_marks_all() {
    let g = passed_out("agreement", "area");
    assert_eq!(
        sorted(g.chain(cell(&g, "cb"))),
        points(&g, "ca cb cc cd ce")
    );
    assert_eq!(g.chain(cell(&g, "dd")), Vec::<Cell>::new());
    // Marking one stone of white's wall marks the wall: black owns the board but ee.
    let wall = g.outcome_with_dead(&[cell(&g, "cc")]).unwrap();
    assert_eq!(wall.winner, Some(Color::Black));
}

//! Puzzles: positions where exactly one move wins or saves the game, proven by an
//! exhaustive search to a few plies (not by sampling), so that a puzzle never has a second
//! answer within its horizon and its answer is never refuted within it.
//!
//! - **Win**: the player to move can force a win within [`WIN_PLIES`] plies (their move,
//!   any reply, their next move: a win at once or in two), and exactly one legal move wins
//!   the quickest (as lichess's mates: a slower win is not the answer).
//! - **Save**: no move wins so, every legal move but one lets the opponent win at once, and
//!   after that one the opponent cannot force a win within [`WIN_PLIES`] plies.
//!
//! Only endings the rules count as final ([`Knowledge::ending_is_final`]) are wins: a Go
//! game ended by two passes, which the players still score, proves nothing.

use toroid_rules::{AnyGame, Color, Move, Position};

use crate::knowledge::Knowledge;
use crate::tactics::wins_at_once;

/// The plies within which a puzzle's win is forced: the mover's move, the opponent's reply
/// and the mover's next move.
pub const WIN_PLIES: u32 = 3;

/// What a puzzle asks the player to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Find the one move that forces the quickest win.
    Win,
    /// Find the one move that does not let the opponent win at once.
    Save,
}

impl Goal {
    /// `win` or `save`, as the API and the database write it.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Save => "save",
        }
    }

    /// The goal called `name` ([`Goal::name`]).
    pub fn from_name(name: &str) -> Option<Goal> {
        [Goal::Win, Goal::Save]
            .into_iter()
            .find(|g| g.name() == name)
    }
}

/// A puzzle found in a position: its goal and its one answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub goal: Goal,
    pub answer: Move,
    /// For a win: the plies to the win with best play by both (1: the answer wins at once;
    /// 3: in two moves). For a save: 0.
    pub plies: u32,
}

/// The search ran out of the positions it was allowed to play: nothing is proven.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Exhausted;

/// A bound on the positions a search plays.
pub struct Budget {
    left: u64,
}

impl Budget {
    pub fn new(positions: u64) -> Budget {
        Budget { left: positions }
    }

    fn spend(&mut self) -> Result<(), Exhausted> {
        self.left = self.left.checked_sub(1).ok_or(Exhausted)?;
        Ok(())
    }
}

/// The puzzle in `position`, if it holds one (see the module's description), within
/// `budget`.
pub fn find<P: Knowledge>(position: &P, budget: &mut Budget) -> Result<Option<Puzzle>, Exhausted> {
    let Some(mover) = position.turn() else {
        return Ok(None);
    };
    if position.outcome().is_some() {
        return Ok(None);
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.len() < 2 {
        return Ok(None);
    }
    let mut after = position.clone();
    // The quickest wins, and how many moves reach them.
    let mut quickest: Option<(Move, u32)> = None;
    let mut ties = 0;
    for &mv in &moves {
        budget.spend()?;
        after.clone_from(position);
        if after.play(mv).is_err() {
            continue;
        }
        if after.outcome().is_some() && !after.ending_is_final() {
            // A move to an ending the players still score (two passes): nothing to prove.
            return Ok(None);
        }
        let Some(plies) = win_plies(&after, mover, WIN_PLIES - 1, budget)? else {
            continue;
        };
        match quickest {
            Some((_, best)) if best < plies + 1 => {}
            Some((_, best)) if best == plies + 1 => ties += 1,
            _ => (quickest, ties) = (Some((mv, plies + 1)), 0),
        }
    }
    if let Some((answer, plies)) = quickest {
        // Two moves that win as quickly: no one answer, no puzzle.
        return Ok((ties == 0 && placed(answer)).then_some(Puzzle {
            goal: Goal::Win,
            answer,
            plies,
        }));
    }
    let opponent = mover.opponent();
    let mut saving = None;
    for &mv in &moves {
        after.clone_from(position);
        budget.spend()?;
        if after.play(mv).is_err() {
            continue;
        }
        if forces_win(&after, opponent, 1, budget)? {
            continue;
        }
        if saving.is_some() {
            return Ok(None);
        }
        saving = Some((mv, after.clone()));
    }
    match saving {
        Some((answer, after))
            if placed(answer) && !forces_win(&after, opponent, WIN_PLIES, budget)? =>
        {
            Ok(Some(Puzzle {
                goal: Goal::Save,
                answer,
                plies: 0,
            }))
        }
        _ => Ok(None),
    }
}

/// Whether `mv` puts a stone on the board: a puzzle's answer is a point to find, never a
/// pass (which may save a game by ending it in a draw) or the end of a turn.
fn placed(mv: Move) -> bool {
    matches!(mv, Move::Place(_))
}

/// [`find`] on any rule set's game.
pub fn find_in(game: &AnyGame, budget: &mut Budget) -> Result<Option<Puzzle>, Exhausted> {
    toroid_rules::with_game!(game, g => find(g, budget))
}

/// What a move other than a puzzle's answer does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The puzzle's answer.
    Answer,
    /// It wins too, but in more plies than the answer.
    SlowerWin { plies: u32 },
    /// The game ends at once, and not in the mover's favour.
    LosesAtOnce,
    /// The opponent wins at once with `reply`.
    LosesTo { reply: Move },
    /// It neither wins within the horizon nor loses at once.
    NoWin,
}

/// How legal move `mv` answers `puzzle` in `position` (within `budget`, else `NoWin`).
pub fn judge(position: &AnyGame, puzzle: &Puzzle, mv: Move, budget: &mut Budget) -> Verdict {
    if mv == puzzle.answer {
        return Verdict::Answer;
    }
    let (Some(mover), mut after) = (position.turn(), position.clone()) else {
        return Verdict::NoWin;
    };
    if after.play(mv).is_err() {
        return Verdict::NoWin;
    }
    if after.outcome().is_some_and(|o| o.winner != Some(mover)) {
        return Verdict::LosesAtOnce;
    }
    if puzzle.goal == Goal::Win {
        let slower =
            toroid_rules::with_game!(&after, g => win_plies(g, mover, WIN_PLIES - 1, budget));
        if let Ok(Some(plies)) = slower {
            return Verdict::SlowerWin { plies: plies + 1 };
        }
    }
    if after.turn() == Some(mover.opponent()) {
        if let Some(reply) = toroid_rules::with_game!(&after, g => winning_move(g)) {
            return Verdict::LosesTo { reply };
        }
    }
    Verdict::NoWin
}

/// A move that wins at once for the player to move in `position`, if there is one.
fn winning_move<P: Knowledge>(position: &P) -> Option<Move> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.into_iter().find(|&mv| wins_at_once(position, mv))
}

/// Whether `me` can force a win in `position` within `plies` plies.
pub fn forces_win<P: Knowledge>(
    position: &P,
    me: Color,
    plies: u32,
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    Ok(win_plies(position, me, plies, budget)?.is_some())
}

/// The fewest plies within `plies` in which `me` forces a win in `position` (0: it is won
/// already), if `me` can.
fn win_plies<P: Knowledge>(
    position: &P,
    me: Color,
    plies: u32,
    budget: &mut Budget,
) -> Result<Option<u32>, Exhausted> {
    if let Some(outcome) = position.outcome() {
        let won = outcome.winner == Some(me) && position.ending_is_final();
        return Ok(won.then_some(0));
    }
    let Some(turn) = position.turn() else {
        return Ok(None);
    };
    if plies == 0 {
        return Ok(None);
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return Ok(None);
    }
    let mut after = position.clone();
    // My move: the quickest win among them. The opponent's: the slowest, if every reply
    // loses.
    let mut found: Option<u32> = None;
    for mv in moves {
        budget.spend()?;
        after.clone_from(position);
        if after.play(mv).is_err() {
            continue;
        }
        let line = win_plies(&after, me, plies - 1, budget)?;
        match (turn == me, line) {
            (true, Some(n)) => {
                found = Some(found.map_or(n + 1, |f| f.min(n + 1)));
                if n == 0 {
                    break;
                }
            }
            (false, None) => return Ok(None),
            (false, Some(n)) => found = Some(found.map_or(n + 1, |f| f.max(n + 1))),
            (true, None) => {}
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::lets_opponent_win;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use toroid_rules::{GameKind, Position};

    /// Small boards of every rule set, where random games reach tactics quickly.
    const SMALL: [(GameKind, &[&str]); 6] = [
        (GameKind::Torus, &["size=7"]),
        (GameKind::HexTorus, &["width=5", "height=4"]),
        (GameKind::MTorus, &["width=5", "height=5"]),
        (GameKind::Ctor, &["size=5"]),
        (GameKind::CaptureGo, &["size=5", "target=1"]),
        (GameKind::Go, &["size=5"]),
    ];

    /// Every puzzle found in random games agrees with the one-move tactics the bots use:
    /// a win at once is the only move that wins at once, and a save is the only move after
    /// which the opponent cannot win at once. Each goal is met on some board.
    #[test]
    fn puzzles_in_random_games_agree_with_the_bots_tactics() {
        let mut found = [0usize; 2];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for (kind, params) in SMALL {
            for _ in 0..40 {
                let mut game = kind.new_game(params).expect("parameters fit");
                let mut moves = Vec::new();
                while game.outcome().is_none() {
                    if let Ok(Some(puzzle)) = find_in(&game, &mut Budget::new(2_000_000)) {
                        found[(puzzle.goal == Goal::Save) as usize] += 1;
                        toroid_rules::with_game!(&game, g => agrees(g, puzzle));
                    }
                    moves.clear();
                    game.legal_moves(&mut moves);
                    let mv = moves[rng.random_range(0..moves.len())];
                    game.play(mv).expect("a legal move");
                }
            }
        }
        assert!(
            found[0] > 0 && found[1] > 0,
            "wins and saves found: {found:?}"
        );
    }

    fn agrees<P: Knowledge>(game: &P, puzzle: Puzzle) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut scratch = Vec::new();
        for &mv in &moves {
            match (puzzle.goal, puzzle.plies) {
                (Goal::Win, 1) => assert_eq!(wins_at_once(game, mv), mv == puzzle.answer),
                (Goal::Win, _) => assert!(!wins_at_once(game, mv)),
                (Goal::Save, _) => {
                    let mut after = game.clone();
                    after.play(mv).expect("a legal move");
                    let lost = after
                        .outcome()
                        .is_some_and(|o| o.winner.is_some() && o.winner != game.turn());
                    let loses = lost || lets_opponent_win(game, mv, &mut scratch);
                    assert_eq!(
                        loses,
                        mv != puzzle.answer,
                        "{:?} {:?} after {:?}: {:?}",
                        game.kind(),
                        puzzle,
                        mv,
                        after.turn()
                    )
                }
            }
        }
    }

    fn replayed(kind: GameKind, params: &[&str], moves: &str) -> AnyGame {
        let mut game = kind.new_game(params).expect("parameters fit");
        for name in moves.split_whitespace() {
            let mv = Move::parse(name, game.topology()).expect("a move");
            game.play(mv).expect("a legal move");
        }
        game
    }

    #[test]
    fn a_capture_that_wins_at_once_is_a_win_puzzle_with_one_answer() {
        // Capture-go to one capture on 5×5: black's stone in the corner has one liberty.
        // White wins in two moves by bb or ac too, but only ab wins at once.
        let game = replayed(GameKind::CaptureGo, &["size=5", "target=1"], "cc ba aa");
        let puzzle = find_in(&game, &mut Budget::new(1_000_000))
            .unwrap()
            .unwrap();
        assert_eq!(puzzle.goal, Goal::Win);
        assert_eq!(puzzle.plies, 1);
        assert_eq!(puzzle.answer.notation(game.topology()).to_string(), "ab");
    }

    #[test]
    fn the_only_move_that_keeps_a_stone_alive_is_a_save_puzzle() {
        // Black's corner stone is in atari: only extending saves it.
        let game = replayed(GameKind::CaptureGo, &["size=5", "target=1"], "aa ba");
        let puzzle = find_in(&game, &mut Budget::new(1_000_000)).unwrap();
        let puzzle = puzzle.expect("a save");
        assert_eq!(puzzle.goal, Goal::Save);
        assert_eq!(puzzle.answer.notation(game.topology()).to_string(), "ab");
    }

    #[test]
    fn a_wrong_answer_is_judged_by_what_it_lets_happen() {
        let game = replayed(GameKind::CaptureGo, &["size=5", "target=1"], "cc ba aa");
        let puzzle = find_in(&game, &mut Budget::new(1_000_000))
            .unwrap()
            .unwrap();
        let judged = |name: &str| {
            let mv = Move::parse(name, game.topology()).unwrap();
            judge(&game, &puzzle, mv, &mut Budget::new(1_000_000))
        };
        assert_eq!(judged("ab"), Verdict::Answer);
        assert_eq!(judged("bb"), Verdict::SlowerWin { plies: 3 });
        assert_eq!(judged("ee"), Verdict::NoWin);
        let save = replayed(GameKind::CaptureGo, &["size=5", "target=1"], "aa ba");
        let puzzle = find_in(&save, &mut Budget::new(1_000_000))
            .unwrap()
            .unwrap();
        let mv = Move::parse("ee", save.topology()).unwrap();
        let ab = Move::parse("ab", save.topology()).unwrap();
        assert_eq!(
            judge(&save, &puzzle, mv, &mut Budget::new(1_000_000)),
            Verdict::LosesTo { reply: ab }
        );
    }

    #[test]
    fn an_empty_board_holds_no_puzzle_and_a_small_budget_proves_nothing() {
        let game = replayed(GameKind::CaptureGo, &["size=5", "target=1"], "");
        assert_eq!(find_in(&game, &mut Budget::new(1_000_000)), Ok(None));
        let game = replayed(GameKind::CaptureGo, &["size=5", "target=1"], "cc ba aa");
        assert_eq!(find_in(&game, &mut Budget::new(10)), Err(Exhausted));
    }
}

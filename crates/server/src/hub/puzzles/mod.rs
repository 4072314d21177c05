//! Puzzles, as lichess's: positions from finished games where exactly one move wins the
//! quickest or saves the game (`toroid_search::puzzle`, proven by an exhaustive search of
//! three plies), each with a Glicko-2 rating of its own, solved on a page per rule set
//! with a puzzle rating per player and rule set.
//!
//! Every node mines: a finished game is claimed by the conditional update that marks it
//! mined (`games.mined_at`), in the transaction that stores its puzzles, so two nodes that
//! searched the same game store its puzzles once. A node wakes when a game ends here and
//! looks for games left over (ended on another node, or before a restart) every half
//! minute.

mod queries;
pub mod routes;
pub mod wire;

use std::sync::Arc;
use std::time::Duration;

use rand::seq::IndexedRandom;
use tokio::sync::Notify;
use toroid_protocol::gtp::vertex::spoken;
use toroid_protocol::help::capitalized;
use toroid_protocol::view::{GameView, TopologyView};
use toroid_rules::{AnyGame, Color, GameKind, Move, Position};
use toroid_search::puzzle::{self, Budget, Goal, Puzzle, Verdict};

use crate::error::ApiError;
use crate::game::{Game, Resume};
use crate::ids::{new_id, now_ms};
use crate::model::GameSpec;
use crate::rating::Rating;
use crate::storage::{PuzzleRow, SessionRow, StorageError, Write};
use wire::{PuzzleAnswer, PuzzlePool, PuzzleRatingChange, PuzzleSummary, PuzzleView};

use super::ratings::tenth;
use super::Hub;

/// Positions the search of one position may play before it gives up (a few milliseconds
/// on a 9×9 board; a 19×19 board's tactics fit too, its quiet positions are given up).
const POSITION_BUDGET: u64 = 200_000;
/// Puzzles one game gives at most: those its players missed first.
const PER_GAME: usize = 3;
/// How often a node looks for finished games not mined yet.
const SWEEP: Duration = Duration::from_secs(30);
/// Games a node looks at in one go; it takes one of them at random, so that nodes looking
/// at once rarely search the same game.
const CANDIDATES: u32 = 4;
/// Puzzles near a player's rating that the next one is drawn from.
const NEAREST: u32 = 12;
/// How often a rated attempt is tried again when another attempt changed a rating between.
const RATING_TRIES: usize = 8;
/// A puzzle's first deviation: it is known after a few dozen attempts.
const PUZZLE_DEVIATION: f64 = 250.0;

/// What puzzles keep in memory: the signal that a game ended here.
#[derive(Default)]
pub struct PuzzleState {
    wake: Notify,
}

/// A puzzle's first rating, by how hard its kind is: a win at once, a save, a win in two.
fn first_rating(puzzle: &Puzzle) -> Rating {
    let rating = match (puzzle.goal, puzzle.plies) {
        (Goal::Win, 1) => 1300.0,
        (Goal::Save, _) => 1500.0,
        (Goal::Win, _) => 1700.0,
    };
    Rating {
        rating,
        deviation: PUZZLE_DEVIATION,
        ..Rating::default()
    }
}

/// A stored puzzle, replayed: its position, the moves to it with their movers, the
/// puzzle as the search states it.
struct Replayed {
    position: AnyGame,
    history: Vec<(Color, Move)>,
    puzzle: Puzzle,
}

impl Replayed {
    fn of(row: &PuzzleRow) -> Result<Replayed, ApiError> {
        let corrupt = |what: String| ApiError::Unavailable(format!("puzzle {}: {what}", row.id));
        let mut position = row.spec.start();
        let mut history = Vec::new();
        for name in &row.moves {
            let mv = Move::parse(name, position.topology())
                .map_err(|e| corrupt(format!("move {name}: {e}")))?;
            let mover = position
                .turn()
                .ok_or_else(|| corrupt("a move after the end".into()))?;
            position
                .play(mv)
                .map_err(|e| corrupt(format!("move {name}: {e}")))?;
            history.push((mover, mv));
        }
        let answer = Move::parse(&row.answer, position.topology())
            .map_err(|e| corrupt(format!("answer {}: {e}", row.answer)))?;
        let puzzle = Puzzle {
            goal: row.goal,
            answer,
            plies: row.plies as u32,
        };
        Ok(Replayed {
            position,
            history,
            puzzle,
        })
    }

    fn mover(&self) -> Color {
        self.position.turn().unwrap_or(Color::Black)
    }

    /// `mv` as players read it.
    fn spoken(&self, mv: Move) -> String {
        let go_like = self.position.kind().rule_set().go_like;
        spoken(mv, self.position.topology(), go_like)
    }

    /// `mv` in toroid notation.
    fn notation(&self, mv: Move) -> String {
        mv.notation(self.position.topology()).to_string()
    }

    fn prompt(&self) -> String {
        let mover = capitalized(self.mover());
        match self.puzzle.goal {
            Goal::Win => format!("{mover} to play: find the quickest win."),
            Goal::Save => format!(
                "{mover} to play: find the one move after which {} cannot win at once.",
                self.mover().opponent()
            ),
        }
    }

    /// The position after `mv`, played by the mover.
    fn after(&self, mv: Move) -> GameView {
        let (mut position, mut history) = (self.position.clone(), self.history.clone());
        if position.play(mv).is_ok() {
            history.push((self.mover(), mv));
        }
        GameView::new(&position, &history)
    }

    /// Why `verdict`, on move `played`, is what it is, in words.
    fn explanation(&self, played: Move, verdict: Verdict) -> String {
        let (name, answer) = (self.spoken(played), self.spoken(self.puzzle.answer));
        let opponent = self.mover().opponent();
        let answer_does = match (self.puzzle.goal, self.puzzle.plies) {
            (Goal::Win, 1) => format!("{answer} wins at once"),
            (Goal::Win, _) => format!(
                "{answer} wins by force: whatever {opponent} answers, {} wins with the next move",
                self.mover()
            ),
            (Goal::Save, _) => format!("only {answer} keeps {opponent} from winning at once"),
        };
        match verdict {
            Verdict::Answer => format!("Right: {answer_does}."),
            Verdict::SlowerWin { .. } => {
                format!("{name} wins too, but more slowly: {answer_does}.")
            }
            Verdict::LosesAtOnce => format!("{name} loses at once: {answer_does}."),
            Verdict::LosesTo { reply } => format!(
                "After {name}, {opponent} wins at once with {}: {answer_does}.",
                self.spoken(reply)
            ),
            Verdict::NoWin => format!("{name} does not win by force: {answer_does}."),
        }
    }
}

impl Hub {
    /// Tells the miner that a game ended here.
    pub(super) fn game_ended_for_puzzles(&self) {
        self.puzzles.wake.notify_one();
    }

    /// Every rule set with its number of puzzles and `viewer`'s puzzle rating there.
    pub async fn puzzle_pools(
        &self,
        viewer: Option<&SessionRow>,
    ) -> Result<Vec<PuzzlePool>, ApiError> {
        let counts = self.storage.puzzle_counts().await?;
        let ratings = match viewer.and_then(|s| s.account_id.as_deref()) {
            Some(account) => self.storage.puzzle_ratings_of(account).await?,
            None => Vec::new(),
        };
        Ok((GameKind::ALL.into_iter())
            .map(|kind| {
                let puzzles = (counts.iter())
                    .find(|(game, _)| game == kind.name())
                    .map_or(0, |(_, n)| *n);
                let mine = ratings.iter().find(|(pool, ..)| pool == kind.name());
                PuzzlePool {
                    game: kind.name(),
                    puzzles,
                    rating: mine.map(|(_, r, _)| tenth(r.rating)),
                    attempts: mine.map_or(0, |(.., n)| *n),
                }
            })
            .collect())
    }

    /// A puzzle of rule set `game` for `viewer`: one it has not tried, rated near its
    /// puzzle rating, other than `skip`.
    pub async fn next_puzzle(
        &self,
        game: &str,
        viewer: Option<&SessionRow>,
        skip: &str,
    ) -> Result<PuzzleView, ApiError> {
        let kind: GameKind = game
            .parse()
            .map_err(|e| ApiError::NotFound(format!("{e}")))?;
        let account = viewer.and_then(|s| s.account_id.as_deref());
        let rating = match account {
            Some(account) => self.storage.puzzle_rating(account, kind).await?,
            None => None,
        };
        let rank = rating.map_or(Rating::default().rating, |(r, _)| r.rating) as i64;
        let near = (self.storage)
            .puzzles_near(kind, rank, account, skip, NEAREST)
            .await?;
        let Some(id) = near.choose(&mut rand::rng()) else {
            return Err(ApiError::NotFound(format!(
                "no {kind} puzzle left to try: puzzles come from finished games"
            )));
        };
        self.puzzle(id, viewer).await
    }

    /// Puzzle `id` as `viewer` sees it.
    pub async fn puzzle(
        &self,
        id: &str,
        viewer: Option<&SessionRow>,
    ) -> Result<PuzzleView, ApiError> {
        let row = self.stored_puzzle(id).await?;
        let replayed = Replayed::of(&row)?;
        let tried = match viewer.and_then(|s| s.account_id.as_deref()) {
            Some(account) => self.storage.puzzle_tried(account, id).await?,
            None => None,
        };
        Ok(PuzzleView {
            id: row.id.clone(),
            game: row.spec.kind().name(),
            goal: row.goal.name(),
            plies: row.plies,
            prompt: replayed.prompt(),
            position: GameView::new(&replayed.position, &replayed.history),
            topology: TopologyView::new(replayed.position.topology()),
            rating: tenth(row.rating.rating),
            attempts: row.attempts,
            solved: row.solved,
            tried,
        })
    }

    async fn stored_puzzle(&self, id: &str) -> Result<PuzzleRow, ApiError> {
        (self.storage.puzzle(id).await?).ok_or_else(|| ApiError::NotFound(format!("puzzle '{id}'")))
    }

    /// `viewer` plays `notation` in puzzle `id`: whether it solves it and why. A signed-in
    /// player's first attempt changes its puzzle rating and the puzzle's; a later one, or a
    /// guest's, changes nothing.
    pub async fn attempt_puzzle(
        &self,
        id: &str,
        notation: &str,
        viewer: Option<&SessionRow>,
    ) -> Result<PuzzleAnswer, ApiError> {
        let row = self.stored_puzzle(id).await?;
        let replayed = Replayed::of(&row)?;
        let played = Move::parse(notation, replayed.position.topology())
            .map_err(|e| ApiError::BadRequest(format!("'{notation}': {e}")))?;
        let mut legal = Vec::new();
        replayed.position.legal_moves(&mut legal);
        if !legal.contains(&played) {
            return Err(ApiError::BadRequest(format!(
                "{notation} is not a legal move here"
            )));
        }
        let verdict = {
            let (position, puzzle) = (replayed.position.clone(), replayed.puzzle);
            tokio::task::spawn_blocking(move || {
                puzzle::judge(
                    &position,
                    &puzzle,
                    played,
                    &mut Budget::new(POSITION_BUDGET),
                )
            })
            .await
            .map_err(|e| ApiError::Unavailable(format!("the judge failed: {e}")))?
        };
        let solved = verdict == Verdict::Answer;
        let (rating, puzzle_rating) = match viewer.and_then(|s| s.account_id.as_deref()) {
            Some(account) => self.rate_attempt(&row, account, solved).await?,
            None => (None, row.rating),
        };
        Ok(PuzzleAnswer {
            solved,
            explanation: replayed.explanation(played, verdict),
            answer: replayed.notation(replayed.puzzle.answer),
            position: replayed.after(replayed.puzzle.answer),
            rating,
            puzzle_rating: tenth(puzzle_rating.rating),
            game_id: row.game_id.clone(),
            ply: row.ply,
        })
    }

    /// Rates `account`'s attempt at puzzle `row` if it is its first: the player's rating
    /// change, if any, and the puzzle's rating after.
    async fn rate_attempt(
        &self,
        row: &PuzzleRow,
        account: &str,
        solved: bool,
    ) -> Result<(Option<PuzzleRatingChange>, Rating), ApiError> {
        let pool = row.spec.kind();
        let score = if solved { 1.0 } else { 0.0 };
        let mut puzzle = row.clone();
        for _ in 0..RATING_TRIES {
            let (mine, attempts) = (self.storage.puzzle_rating(account, pool).await?)
                .unwrap_or((Rating::default(), 0));
            let (my_after, its_after) = (
                mine.after(&[(puzzle.rating, score)]),
                puzzle.rating.after(&[(mine, 1.0 - score)]),
            );
            let at = now_ms();
            let writes = vec![
                Write::PuzzleAttempt {
                    account_id: account.to_string(),
                    puzzle_id: puzzle.id.clone(),
                    solved,
                    at,
                },
                Write::PuzzleRating {
                    account_id: account.to_string(),
                    pool,
                    rating: my_after,
                    attempts: attempts + 1,
                    at,
                },
                Write::PuzzleScore {
                    puzzle_id: puzzle.id.clone(),
                    rating: its_after,
                    attempts: puzzle.attempts + 1,
                    solved,
                },
            ];
            match self.storage.commit(writes).await {
                Ok(()) => {
                    let change = PuzzleRatingChange {
                        before: tenth(mine.rating),
                        after: tenth(my_after.rating),
                    };
                    return Ok((Some(change), its_after));
                }
                // Tried before: the first attempt was the rated one.
                Err(StorageError::PuzzleTried) => return Ok((None, puzzle.rating)),
                Err(StorageError::RatingChanged) => {
                    puzzle = self.stored_puzzle(&puzzle.id).await?;
                }
                Err(error) => return Err(error.into()),
            }
        }
        Err(ApiError::Busy("puzzle ratings change too fast; try again"))
    }

    /// The puzzles mined from game `game_id`.
    pub async fn puzzles_from(&self, game_id: &str) -> Result<Vec<PuzzleSummary>, ApiError> {
        let rows = self.storage.puzzles_from(game_id).await?;
        Ok((rows.iter())
            .map(|row| PuzzleSummary {
                id: row.id.clone(),
                ply: row.ply,
                goal: row.goal.name(),
                rating: tenth(row.rating.rating),
            })
            .collect())
    }

    /// Mines one finished game not mined yet, if there is one: whether there was.
    async fn mine_one(&self) -> Result<bool, ApiError> {
        let candidates = self.storage.games_to_mine(CANDIDATES).await?;
        let Some(id) = candidates.choose(&mut rand::rng()).cloned() else {
            return Ok(false);
        };
        let Some(row) = self.storage.game(&id).await? else {
            return Ok(true);
        };
        let moves = self.storage.moves(&row).await?;
        let game = match Game::restore(row, &moves, Resume::AsStored) {
            Ok(game) => game,
            Err(error) => {
                // Marked mined all the same, not searched again at every sweep.
                tracing::warn!(game = %id, %error, "a game that cannot be replayed gives no puzzles");
                let mined = Write::PuzzlesMined {
                    game_id: id,
                    at: now_ms(),
                };
                return match self.storage.commit(vec![mined]).await {
                    Ok(()) | Err(StorageError::Outdated) => Ok(true),
                    Err(error) => Err(error.into()),
                };
            }
        };
        let (spec, positions, played) = (game.spec(), game.positions()?, game.moves.clone());
        let found = tokio::task::spawn_blocking(move || mine(&spec, &positions, &played, &id))
            .await
            .map_err(|e| ApiError::Unavailable(format!("the miner failed: {e}")))?;
        let mut writes = vec![Write::PuzzlesMined {
            game_id: game.id.clone(),
            at: now_ms(),
        }];
        let count = found.len();
        writes.extend(found.into_iter().map(Write::Puzzle));
        match self.storage.commit(writes).await {
            Ok(()) => tracing::debug!(game = %game.id, puzzles = count, "game mined"),
            // Another node mined it first.
            Err(StorageError::Outdated) => {}
            Err(error) => return Err(error.into()),
        }
        Ok(true)
    }
}

/// The puzzles of a game of `spec` from `start` by `moves` (game `game_id`): at most
/// [`PER_GAME`], those where the player to move did not play the answer first.
fn mine(
    spec: &GameSpec,
    positions: &[AnyGame],
    moves: &[(Color, Move)],
    game_id: &str,
) -> Vec<PuzzleRow> {
    let mut found = Vec::new();
    // Each position before a move (the last, after the end, holds none).
    for (ply, (position, &(_, played))) in positions.iter().zip(moves).enumerate() {
        if let Ok(Some(puzzle)) = puzzle::find_in(position, &mut Budget::new(POSITION_BUDGET)) {
            found.push((ply, played != puzzle.answer, puzzle, position));
        }
    }
    // Missed ones first, then the game's order.
    found.sort_by_key(|&(ply, missed, _, _)| (!missed, ply));
    found.truncate(PER_GAME);
    let at = now_ms();
    (found.into_iter())
        .map(|(ply, _, puzzle, position)| {
            let topology = position.topology();
            PuzzleRow {
                id: new_id(),
                spec: spec.clone(),
                moves: (moves[..ply].iter())
                    .map(|(_, mv)| mv.notation(topology).to_string())
                    .collect(),
                position: position.hash(),
                goal: puzzle.goal,
                answer: puzzle.answer.notation(topology).to_string(),
                plies: i64::from(puzzle.plies),
                game_id: game_id.to_string(),
                ply: ply as i64,
                rating: first_rating(&puzzle),
                attempts: 0,
                solved: 0,
                created_at: at,
            }
        })
        .collect()
}

/// Mines finished games for puzzles when one ends here, and every half minute for those left
/// over; runs until the hub stops.
pub async fn mine_puzzles(hub: Arc<Hub>) {
    loop {
        tokio::select! {
            () = hub.puzzles.wake.notified() => {}
            () = tokio::time::sleep(SWEEP) => {}
            () = hub.stopped() => return,
        }
        loop {
            match hub.mine_one().await {
                Ok(true) => {}
                Ok(false) => break,
                Err(error) => {
                    tracing::warn!(%error, "cannot mine puzzles");
                    break;
                }
            }
            if *hub.stopping.borrow() {
                return;
            }
        }
    }
}

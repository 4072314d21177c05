//! What puzzles read from the database.

use sqlx::any::AnyRow;
use sqlx::Row;
use toroid_rules::GameKind;

use toroid_search::puzzle::Goal;

use crate::rating::Rating;
use crate::storage::{PuzzleRow, Storage, StorageError};

const PUZZLE_COLUMNS: &str = "id, spec, moves, position, goal, answer, plies, game_id, ply, \
    rating, attempts, solved, created_at";

fn corrupt(what: &str, error: impl std::fmt::Display) -> StorageError {
    StorageError::Corrupt(format!("a puzzle's {what}: {error}"))
}

fn puzzle_row(r: &AnyRow) -> Result<PuzzleRow, StorageError> {
    let text = |name: &str| r.try_get::<String, _>(name);
    let position = text("position")?;
    Ok(PuzzleRow {
        id: text("id")?,
        spec: serde_json::from_str(&text("spec")?).map_err(|e| corrupt("game", e))?,
        moves: serde_json::from_str(&text("moves")?).map_err(|e| corrupt("moves", e))?,
        position: u64::from_str_radix(&position, 16).map_err(|e| corrupt("position", e))?,
        goal: Goal::from_name(&text("goal")?).ok_or_else(|| corrupt("goal", "unknown"))?,
        answer: text("answer")?,
        plies: r.try_get("plies")?,
        game_id: text("game_id")?,
        ply: r.try_get("ply")?,
        rating: serde_json::from_str(&text("rating")?).map_err(|e| corrupt("rating", e))?,
        attempts: r.try_get("attempts")?,
        solved: r.try_get("solved")?,
        created_at: r.try_get("created_at")?,
    })
}

/// How far from a player's puzzle rating the next puzzle is looked for first.
const NEAR_WINDOW: i64 = 300;

/// A player's puzzle rating and rated attempts, from a `puzzle_ratings` row.
fn player_rating(r: &AnyRow) -> Result<(Rating, i64), StorageError> {
    let rating: String = r.try_get("rating")?;
    let rating = serde_json::from_str(&rating).map_err(|e| corrupt("player rating", e))?;
    Ok((rating, r.try_get("attempts")?))
}

/// The `id` column of `rows`.
fn ids(rows: &[AnyRow]) -> Result<Vec<String>, StorageError> {
    Ok(rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?)
}

impl Storage {
    /// Finished games whose positions were not searched for puzzles yet, those finished
    /// first first.
    pub async fn games_to_mine(&self, limit: u32) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'finished' AND mined_at IS NULL
             ORDER BY finished_at, id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        ids(&rows)
    }

    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StorageError> {
        let sql = format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        row.as_ref().map(puzzle_row).transpose()
    }

    /// The puzzles mined from game `game_id`, in the game's order.
    pub async fn puzzles_from(&self, game_id: &str) -> Result<Vec<PuzzleRow>, StorageError> {
        let sql = format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE game_id = $1 ORDER BY ply");
        let rows = sqlx::query(&sql)
            .bind(game_id)
            .fetch_all(&self.readers)
            .await?;
        rows.iter().map(puzzle_row).collect()
    }

    /// Up to `limit` puzzles of rule set `game` rated nearest `rank`, leaving out `skip` and
    /// those `account_id` tried: first among those within 300 points of it (a range
    /// of the `(game, rank)` index, not every puzzle of the rule set sorted), then among
    /// all if that finds too few.
    pub async fn puzzles_near(
        &self,
        game: GameKind,
        rank: i64,
        account_id: Option<&str>,
        skip: &str,
        limit: u32,
    ) -> Result<Vec<String>, StorageError> {
        let mut found = Vec::new();
        for window in [NEAR_WINDOW, i64::MAX / 4] {
            let rows = sqlx::query(
                "SELECT id FROM puzzles p WHERE game = $1 AND id <> $2
                    AND rank BETWEEN $4 - $6 AND $4 + $6
                    AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                        WHERE a.account_id = $3 AND a.puzzle_id = p.id)
                 ORDER BY ABS(rank - $4), id LIMIT $5",
            )
            .bind(game.name())
            .bind(skip)
            .bind(account_id.unwrap_or(""))
            .bind(rank)
            .bind(i64::from(limit))
            .bind(window)
            .fetch_all(&self.readers)
            .await?;
            found = ids(&rows)?;
            if found.len() >= limit as usize {
                break;
            }
        }
        Ok(found)
    }

    /// How many puzzles each rule set has.
    pub async fn puzzle_counts(&self) -> Result<Vec<(String, i64)>, StorageError> {
        let rows = sqlx::query("SELECT game, COUNT(*) AS n FROM puzzles GROUP BY game")
            .fetch_all(&self.readers)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("game")?, r.try_get("n")?)))
            .collect()
    }

    /// Account `account_id`'s puzzle rating in `pool` and its rated attempts there, if any.
    pub async fn puzzle_rating(
        &self,
        account_id: &str,
        pool: GameKind,
    ) -> Result<Option<(Rating, i64)>, StorageError> {
        let row = sqlx::query(
            "SELECT rating, attempts FROM puzzle_ratings WHERE account_id = $1 AND pool = $2",
        )
        .bind(account_id)
        .bind(pool.name())
        .fetch_optional(&self.readers)
        .await?;
        row.as_ref().map(player_rating).transpose()
    }

    /// Account `account_id`'s puzzle ratings: each pool's name, rating and rated attempts.
    pub async fn puzzle_ratings_of(
        &self,
        account_id: &str,
    ) -> Result<Vec<(String, Rating, i64)>, StorageError> {
        let rows =
            sqlx::query("SELECT pool, rating, attempts FROM puzzle_ratings WHERE account_id = $1")
                .bind(account_id)
                .fetch_all(&self.readers)
                .await?;
        rows.iter()
            .map(|r| {
                let (rating, attempts) = player_rating(r)?;
                Ok((r.try_get("pool")?, rating, attempts))
            })
            .collect()
    }

    /// Whether account `account_id` tried puzzle `puzzle_id`, and solved it.
    pub async fn puzzle_tried(
        &self,
        account_id: &str,
        puzzle_id: &str,
    ) -> Result<Option<bool>, StorageError> {
        let row = sqlx::query(
            "SELECT solved FROM puzzle_attempts WHERE account_id = $1 AND puzzle_id = $2",
        )
        .bind(account_id)
        .bind(puzzle_id)
        .fetch_optional(&self.readers)
        .await?;
        Ok(match row {
            Some(row) => Some(row.try_get::<i32, _>("solved")? != 0),
            None => None,
        })
    }
}

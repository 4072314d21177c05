//! What ratings read from the database (its writes are `Write`s, applied by the
//! storage's writer).

use sqlx::any::AnyRow;
use sqlx::Row;

use toroid_rules::GameKind;

use crate::storage::{from_json, game_kind, RatingRow, Storage, StorageError};

impl Storage {
    /// `player`'s rating in `pool`, if it has played a rated game there.
    pub async fn rating(
        &self,
        player: &str,
        pool: GameKind,
    ) -> Result<Option<RatingRow>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 AND pool = $2"
        ))
        .bind(player)
        .bind(pool.name())
        .fetch_optional(&self.readers)
        .await?;
        row.as_ref().map(rating_row).transpose()
    }

    /// The players of `pool`, highest rating first.
    pub async fn leaderboard(
        &self,
        pool: GameKind,
        limit: u32,
    ) -> Result<Vec<RatingRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE pool = $1 ORDER BY rank DESC, player LIMIT $2"
        ))
        .bind(pool.name())
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(rating_row).collect()
    }

    /// Rated games between players `a` and `b` that changed their ratings since `since`.
    pub async fn rated_games_between(
        &self,
        a: &str,
        b: &str,
        since: i64,
    ) -> Result<i64, StorageError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM rating_history mine
             JOIN rating_history theirs ON theirs.game_id = mine.game_id
             WHERE mine.player = $1 AND theirs.player = $2 AND mine.at >= $3",
        )
        .bind(a)
        .bind(b)
        .bind(since)
        .fetch_one(&self.readers)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// The rating changes game `game_id` made: each player's, before and after.
    pub async fn rating_changes(
        &self,
        game_id: &str,
    ) -> Result<Vec<(String, crate::rating::Rating, crate::rating::Rating)>, StorageError> {
        let rows =
            sqlx::query("SELECT player, before, after FROM rating_history WHERE game_id = $1")
                .bind(game_id)
                .fetch_all(&self.readers)
                .await?;
        rows.iter()
            .map(|r| {
                let player = r.try_get("player")?;
                Ok((
                    player,
                    stored_rating(r, "before")?,
                    stored_rating(r, "after")?,
                ))
            })
            .collect()
    }

    /// `player`'s ratings in every pool it has played.
    pub async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 ORDER BY pool"
        ))
        .bind(player)
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(rating_row).collect()
    }

    /// `player`'s rating after each of its rated games in `pool`, oldest first: (game, when,
    /// the rating after it).
    pub async fn rating_history(
        &self,
        player: &str,
        pool: GameKind,
    ) -> Result<Vec<(String, i64, crate::rating::Rating)>, StorageError> {
        let rows = sqlx::query(
            "SELECT game_id, at, after FROM rating_history WHERE player = $1 AND pool = $2
             ORDER BY at, game_id",
        )
        .bind(player)
        .bind(pool.name())
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| {
                let after = stored_rating(r, "after")?;
                Ok((r.try_get("game_id")?, r.try_get("at")?, after))
            })
            .collect()
    }
}

const RATING_COLUMNS: &str = "player, pool, name, rating, games, updated_at";

fn rating_row(r: &AnyRow) -> Result<RatingRow, StorageError> {
    Ok(RatingRow {
        player: r.try_get("player")?,
        pool: game_kind(r, "pool")?,
        name: r.try_get("name")?,
        rating: stored_rating(r, "rating")?,
        games: r.try_get("games")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// The rating stored as JSON in `column`.
fn stored_rating(r: &AnyRow, column: &str) -> Result<crate::rating::Rating, StorageError> {
    from_json(Some(r.try_get::<String, _>(column)?))?
        .ok_or_else(|| StorageError::Corrupt("a rating".into()))
}

//! What reviews read from the database.

use sqlx::Row;

use super::StoredReview;
use crate::storage::{Storage, StorageError};

impl Storage {
    /// The review of game `game_id`, if one was asked for.
    pub async fn review(&self, game_id: &str) -> Result<Option<StoredReview>, StorageError> {
        let row =
            sqlx::query("SELECT status, total, points, updated_at FROM reviews WHERE game_id = $1")
                .bind(game_id)
                .fetch_optional(&self.readers)
                .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let points: String = row.try_get("points")?;
        Ok(Some(StoredReview {
            status: row.try_get("status")?,
            total: row.try_get("total")?,
            points: serde_json::from_str(&points)
                .map_err(|e| StorageError::Corrupt(format!("a review's points: {e}")))?,
            updated_at: row.try_get("updated_at")?,
        }))
    }
}

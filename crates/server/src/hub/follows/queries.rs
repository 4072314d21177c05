//! What follows read from the database.

use sqlx::Row;

use crate::storage::{Storage, StorageError};

impl Storage {
    /// The players `follower` (an account or a guest session) follows, newest first: each
    /// one's name and since when.
    pub async fn follows(&self, follower: &str) -> Result<Vec<(String, i64)>, StorageError> {
        let rows = sqlx::query(
            "SELECT followed_name, at FROM follows WHERE follower = $1 ORDER BY at DESC",
        )
        .bind(follower)
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("followed_name")?, r.try_get("at")?)))
            .collect()
    }

    /// Whether a session of the name whose key is `key` was marked online since `since`.
    pub async fn online(&self, key: &str, since: i64) -> Result<bool, StorageError> {
        let row =
            sqlx::query("SELECT id FROM sessions WHERE name_key = $1 AND online_at >= $2 LIMIT 1")
                .bind(key)
                .bind(since)
                .fetch_optional(&self.readers)
                .await?;
        Ok(row.is_some())
    }
}

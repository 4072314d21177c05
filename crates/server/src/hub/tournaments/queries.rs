//! What tournaments read from the database (its writes are `Write`s, applied by the
//! storage's writer).

use sqlx::Row;

use crate::storage::{Storage, StorageError};

impl Storage {
    /// Tournament `id`'s stored state (JSON) and its version.
    pub async fn tournament(&self, id: &str) -> Result<Option<(String, i64)>, StorageError> {
        let row = sqlx::query("SELECT state, version FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("state")?, r.try_get("version")?)))
            .transpose()?)
    }

    /// The states of the latest `limit` tournaments (JSON), newest first.
    pub async fn recent_tournaments(&self, limit: u32) -> Result<Vec<String>, StorageError> {
        let rows =
            sqlx::query("SELECT state FROM tournaments ORDER BY created_at DESC, id LIMIT $1")
                .bind(i64::from(limit))
                .fetch_all(&self.readers)
                .await?;
        rows.iter().map(|r| Ok(r.try_get("state")?)).collect()
    }

    /// The states of the tournaments not over (open, running or being cancelled).
    pub async fn unfinished_tournaments(&self) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT state FROM tournaments WHERE status NOT IN ('finished', 'cancelled')",
        )
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("state")?)).collect()
    }

    /// The tournaments that need a director (running or being cancelled), oldest first.
    pub async fn running_tournaments(&self) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT id FROM tournaments WHERE status IN ('running', 'cancelling')
             ORDER BY created_at, id",
        )
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Makes `node` the director of every running (or cancelling) tournament that has none at `now_ms`
    /// (none ever had, or its lease expired), and renews its own leases until `until_ms`:
    /// the tournaments it directs.
    pub async fn direct_tournaments(
        &self,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "UPDATE tournaments SET director = $1, director_until = $2
             WHERE status IN ('running', 'cancelling')
               AND (director IS NULL OR director = $1 OR director_until < $3)
             RETURNING id",
        )
        .bind(node)
        .bind(until_ms)
        .bind(now_ms)
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Gives up the tournaments that `node` directs (it stops), for another node to take.
    pub async fn release_tournaments(&self, node: &str) -> Result<(), StorageError> {
        sqlx::query("UPDATE tournaments SET director = NULL WHERE director = $1")
            .bind(node)
            .execute(&self.readers)
            .await?;
        Ok(())
    }
}

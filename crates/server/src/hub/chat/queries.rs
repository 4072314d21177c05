//! What the chat reads from the database (its writes are `Write`s, applied by the
//! storage's writer).

use sqlx::Row;

use crate::storage::{ChatRow, Storage, StorageError};

impl Storage {
    /// The latest `limit` lines of game `game_id`'s chat in `room`, oldest first.
    pub async fn chat(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
    ) -> Result<Vec<ChatRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, game_id, room, author, body, at FROM chat
             WHERE game_id = $1 AND room = $2 ORDER BY at DESC, id DESC LIMIT $3",
        )
        .bind(game_id)
        .bind(room)
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        let mut lines = rows
            .iter()
            .map(|r| {
                Ok(ChatRow {
                    id: r.try_get("id")?,
                    game_id: r.try_get("game_id")?,
                    room: r.try_get("room")?,
                    author: r.try_get("author")?,
                    body: r.try_get("body")?,
                    at: r.try_get("at")?,
                })
            })
            .collect::<Result<Vec<_>, StorageError>>()?;
        lines.reverse();
        Ok(lines)
    }
}

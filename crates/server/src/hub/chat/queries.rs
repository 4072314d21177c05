//! What the chat reads from the database (its writes are `Write`s, applied by the
//! storage's writer).

use sqlx::any::AnyRow;
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
            "SELECT id, game_id, room, author, body, at, deleted_at FROM chat
             WHERE game_id = $1 AND room = $2 AND deleted_at IS NULL
             ORDER BY at DESC, id DESC LIMIT $3",
        )
        .bind(game_id)
        .bind(room)
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        let mut lines = rows.iter().map(chat_row).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// The latest `limit` lines said by the player whose name's key is `author_key`, newest
    /// first, deleted ones too (for moderators).
    pub async fn chat_by(
        &self,
        author_key: &str,
        limit: u32,
    ) -> Result<Vec<ChatRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, game_id, room, author, body, at, deleted_at FROM chat
             WHERE author_key = $1 ORDER BY at DESC, id DESC LIMIT $2",
        )
        .bind(author_key)
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(chat_row).collect()
    }

    /// Chat line `id`, deleted or not.
    pub async fn chat_line(&self, id: &str) -> Result<Option<ChatRow>, StorageError> {
        let row = sqlx::query(
            "SELECT id, game_id, room, author, body, at, deleted_at FROM chat WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.readers)
        .await?;
        row.as_ref().map(chat_row).transpose()
    }
}

fn chat_row(r: &AnyRow) -> Result<ChatRow, StorageError> {
    Ok(ChatRow {
        id: r.try_get("id")?,
        game_id: r.try_get("game_id")?,
        room: r.try_get("room")?,
        author: r.try_get("author")?,
        body: r.try_get("body")?,
        at: r.try_get("at")?,
        deleted_at: r.try_get("deleted_at")?,
    })
}

//! What registered bots and the arena read from the database (its writes are `Write`s, applied by the
//! storage's writer).

use sqlx::Row;

use crate::storage::{
    bot_row, bot_seat, game_kind, time_control, ArenaMember, BotKey, BotRow, Storage, StorageError,
};

impl Storage {
    /// The arena's bots waiting for a game at `now_ms`: not playing (or their game over),
    /// and their node still holding their connection.
    pub async fn arena_waiting(&self, now_ms: i64) -> Result<Vec<ArenaMember>, StorageError> {
        let rows = sqlx::query(
            "SELECT a.bot_id, b.name, a.game, a.initial_ms, a.increment_ms, a.playing,
                a.last_opponent, COALESCE(g.finished_at, a.waiting_since) AS since
             FROM arena a JOIN bots b ON b.id = a.bot_id LEFT JOIN games g ON g.id = a.playing
             WHERE a.until_ms >= $1
                AND (a.playing IS NULL OR g.status = 'finished' OR g.id IS NULL)
             ORDER BY a.bot_id",
        )
        .bind(now_ms)
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ArenaMember {
                    bot_id: r.try_get("bot_id")?,
                    name: r.try_get("name")?,
                    game: game_kind(r, "game")?,
                    clock: time_control(r.try_get("initial_ms")?, r.try_get("increment_ms")?)?,
                    playing: r.try_get("playing")?,
                    last_opponent: r.try_get("last_opponent")?,
                    waiting_since: r.try_get("since")?,
                })
            })
            .collect()
    }

    /// The bot with this token hash, or with this name.
    pub async fn bot(&self, by: BotKey<'_>) -> Result<Option<BotRow>, StorageError> {
        let (sql, value) = match by {
            BotKey::TokenHash(h) => (
                "SELECT id, name, owner, token_hash, created_at FROM bots WHERE token_hash = $1",
                h,
            ),
            BotKey::Id(id) => (
                "SELECT id, name, owner, token_hash, created_at FROM bots WHERE id = $1",
                id,
            ),
            BotKey::Name(n) => (
                "SELECT id, name, owner, token_hash, created_at FROM bots WHERE name = $1",
                n,
            ),
        };
        let row = sqlx::query(sql)
            .bind(value)
            .fetch_optional(&self.readers)
            .await?;
        row.as_ref().map(bot_row).transpose()
    }

    /// The bots that session `owner` registered, oldest first.
    pub async fn bots_of(&self, owner: &str) -> Result<Vec<BotRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, name, owner, token_hash, created_at FROM bots WHERE owner = $1
             ORDER BY created_at, name",
        )
        .bind(owner)
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(bot_row).collect()
    }

    /// When bot `id`'s last connection ended; `None` if it never did.
    pub async fn bot_seen_until(&self, id: &str) -> Result<Option<i64>, StorageError> {
        let row = sqlx::query("SELECT seen_until FROM bots WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row.map(|r| r.try_get("seen_until")).transpose()?.flatten())
    }

    /// The games bot `id` played that ended after its last connection did, newest first:
    /// those it has not been told of. None for a bot that never disconnected.
    pub async fn ended_while_away(
        &self,
        bot: &BotRow,
        limit: u32,
    ) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g JOIN bots b ON b.id = $1
             WHERE b.seen_until IS NOT NULL AND g.status = 'finished'
                AND g.finished_at >= b.seen_until
                AND ((g.black_name = $2 AND g.black LIKE $4) OR (g.white_name = $2 AND g.white LIKE $4))
             ORDER BY g.finished_at DESC LIMIT $3",
        )
        .bind(&bot.id)
        .bind(&bot.name)
        .bind(i64::from(limit))
        .bind(bot_seat(&bot.id))
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// How many games bot `black` has had black against bot `white` (ids).
    pub async fn games_as_black(&self, black: &str, white: &str) -> Result<i64, StorageError> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM games WHERE black LIKE $1 AND white LIKE $2")
                .bind(bot_seat(black))
                .bind(bot_seat(white))
                .fetch_one(&self.readers)
                .await?;
        Ok(row.try_get("n")?)
    }
}

//! What moderation reads from the database (its writes are `Write`s, applied by the
//! storage's writer).

use sqlx::Row;

use super::wire::{AccountSummary, BlockView, ChatRecord, ReportView};
use super::Role;
use crate::storage::{Storage, StorageError};

impl Storage {
    /// Whether an account, a bot (or a retired bot's name) or a guest session has the name
    /// whose key is `key`.
    pub async fn name_in_use(&self, key: &str) -> Result<bool, StorageError> {
        let row = sqlx::query(
            "SELECT name_key FROM names WHERE name_key = $1
             UNION ALL SELECT name_key FROM sessions WHERE name_key = $1 LIMIT 1",
        )
        .bind(key)
        .fetch_optional(&self.readers)
        .await?;
        Ok(row.is_some())
    }

    /// The players that `blocker` (`SessionRow::owner_id`) blocks, newest first.
    pub async fn blocks(&self, blocker: &str) -> Result<Vec<BlockView>, StorageError> {
        let rows =
            sqlx::query("SELECT blocked_name, at FROM blocks WHERE blocker = $1 ORDER BY at DESC")
                .bind(blocker)
                .fetch_all(&self.readers)
                .await?;
        rows.iter()
            .map(|r| {
                Ok(BlockView {
                    name: r.try_get("blocked_name")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }

    /// Whether `blocker` blocks the player whose name's key is `key`.
    pub async fn blocked(&self, blocker: &str, key: &str) -> Result<bool, StorageError> {
        let row = sqlx::query("SELECT at FROM blocks WHERE blocker = $1 AND blocked_key = $2")
            .bind(blocker)
            .bind(key)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row.is_some())
    }

    /// The accounts banned at `since` (ms since the epoch) or later.
    pub async fn banned_since(&self, since: i64) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query("SELECT id FROM accounts WHERE banned_at >= $1")
            .bind(since)
            .fetch_all(&self.readers)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// The ids of the sessions signed in to account `account`.
    pub async fn sessions_of(&self, account: &str) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query("SELECT id FROM sessions WHERE account_id = $1")
            .bind(account)
            .fetch_all(&self.readers)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// The latest `limit` accounts, newest first.
    pub async fn recent_accounts(&self, limit: u32) -> Result<Vec<AccountSummary>, StorageError> {
        let rows = sqlx::query(
            "SELECT name, created_at, role, banned_at FROM accounts
             ORDER BY created_at DESC, id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| {
                let role: Option<String> = r.try_get("role")?;
                let banned_at: Option<i64> = r.try_get("banned_at")?;
                Ok(AccountSummary {
                    name: r.try_get("name")?,
                    created_at: r.try_get("created_at")?,
                    role: Role::read(role.as_deref()),
                    banned: banned_at.is_some(),
                })
            })
            .collect()
    }

    pub async fn report_exists(&self, id: &str) -> Result<bool, StorageError> {
        let row = sqlx::query("SELECT id FROM reports WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row.is_some())
    }

    /// The latest `limit` reports (only those not dealt with, unless `all`), newest first,
    /// each with the chat line it points at.
    pub async fn reports(&self, all: bool, limit: u32) -> Result<Vec<ReportView>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, reporter_name, player, chat_id, reason, at, resolved_at, resolved_by
             FROM reports WHERE $1 = 1 OR resolved_at IS NULL ORDER BY at DESC, id LIMIT $2",
        )
        .bind(i64::from(all))
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        let mut reports = Vec::with_capacity(rows.len());
        for r in &rows {
            let chat_id: Option<String> = r.try_get("chat_id")?;
            let chat_line = match chat_id {
                Some(id) => self.chat_line(&id).await?.map(ChatRecord::from),
                None => None,
            };
            reports.push(ReportView {
                id: r.try_get("id")?,
                reporter: r.try_get("reporter_name")?,
                player: r.try_get("player")?,
                chat_line,
                reason: r.try_get("reason")?,
                at: r.try_get("at")?,
                resolved_at: r.try_get("resolved_at")?,
                resolved_by: r.try_get("resolved_by")?,
            });
        }
        Ok(reports)
    }
}

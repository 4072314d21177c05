//! What sessions and accounts read from the database (its writes are `Write`s, applied by the
//! storage's writer).

use sqlx::Row;

use crate::storage::{AccountKey, AccountRow, SessionKey, SessionRow, Storage, StorageError};

impl Storage {
    pub async fn session(&self, by: SessionKey<'_>) -> Result<Option<SessionRow>, StorageError> {
        let (column, value) = match by {
            SessionKey::TokenHash(hash) => ("token_hash", hash),
            SessionKey::Id(id) => ("id", id),
        };
        let row = sqlx::query(&format!(
            "SELECT id, name, token_hash, created_at, last_seen_at, account_id FROM sessions
             WHERE {column} = $1"
        ))
        .bind(value)
        .fetch_optional(&self.readers)
        .await?;
        row.map(|r| {
            Ok(SessionRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                token_hash: r.try_get("token_hash")?,
                created_at: r.try_get("created_at")?,
                last_seen_at: r.try_get("last_seen_at")?,
                account_id: r.try_get("account_id")?,
            })
        })
        .transpose()
    }

    /// The account whose name, in lowercase, is `name_key`.
    /// Whether account `account` signed in before from the address whose hash is
    /// `address_hash`.
    pub async fn signed_in_from(
        &self,
        account: &str,
        address_hash: &str,
    ) -> Result<bool, StorageError> {
        let row = sqlx::query(
            "SELECT 1 AS known FROM account_addresses WHERE account_id = $1 AND address_hash = $2",
        )
        .bind(account)
        .bind(address_hash)
        .fetch_optional(&self.readers)
        .await?;
        Ok(row.is_some())
    }

    /// The site's setting `name`, if set.
    pub async fn setting(&self, name: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT value FROM settings WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row.map(|r| r.try_get("value")).transpose()?)
    }

    /// Who holds the name key `key`: `account:ID` or `bot:ID` (a deleted bot's name stays
    /// held).
    pub async fn name_holder(&self, key: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT holder FROM names WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row.map(|r| r.try_get("holder")).transpose()?)
    }

    pub async fn account(&self, by: AccountKey<'_>) -> Result<Option<AccountRow>, StorageError> {
        let (column, value) = match by {
            AccountKey::NameKey(key) => ("name_key", key),
            AccountKey::Id(id) => ("id", id),
        };
        let sql = format!(
            "SELECT id, name, name_key, password_hash, created_at, role, banned_at FROM accounts
             WHERE {column} = $1"
        );
        let row = sqlx::query(&sql)
            .bind(value)
            .fetch_optional(&self.readers)
            .await?;
        row.map(|r| {
            Ok(AccountRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                name_key: r.try_get("name_key")?,
                password_hash: r.try_get("password_hash")?,
                created_at: r.try_get("created_at")?,
                role: r.try_get("role")?,
                banned_at: r.try_get("banned_at")?,
            })
        })
        .transpose()
    }
}

//! The database schema and its migrations. The same SQL runs on SQLite and PostgreSQL: text
//! and 64-bit integers only, ids made by the server, times in milliseconds since the epoch.

use sqlx::{AnyPool, Row};

use super::StorageError;

/// Each entry brings the schema from the previous version to the next; entry `i` makes
/// version `i + 1`. Never edit an entry that has shipped: append a new one.
const MIGRATIONS: &[&[&str]] = &[
    &[
        "CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL)",
        "CREATE TABLE bots (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        owner TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL)",
        // Seats are JSON (`crate::seat::Seat`), NULL while open; `result` is JSON
        // (`toroid_rules::Outcome` as JSON); `black_ms`/`white_ms` are the clocks when it ended.
        "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        params TEXT NOT NULL,
        clock_initial_ms BIGINT,
        clock_increment_ms BIGINT,
        black TEXT,
        white TEXT,
        creator TEXT,
        invite TEXT UNIQUE,
        status TEXT NOT NULL,
        result TEXT,
        black_ms BIGINT,
        white_ms BIGINT,
        created_at BIGINT NOT NULL,
        finished_at BIGINT)",
        "CREATE INDEX games_by_status ON games (status, created_at)",
        // The clocks after the move (NULL without a clock), so a restart resumes them.
        "CREATE TABLE moves (
        game_id TEXT NOT NULL,
        ply BIGINT NOT NULL,
        mv TEXT NOT NULL,
        black_ms BIGINT,
        white_ms BIGINT,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply))",
    ],
    // Sessions expire when idle: when each was last used.
    &[
        "ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT",
        "UPDATE sessions SET last_seen_at = created_at",
    ],
];

/// Creates the schema or brings it up to date, in one transaction.
pub async fn migrate(pool: &AnyPool) -> Result<(), StorageError> {
    let mut tx = pool.begin().await?;
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(&mut *tx)
        .await?;
    let current: i64 = sqlx::query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
        .fetch_one(&mut *tx)
        .await?
        .try_get("v")?;
    let known = MIGRATIONS.len() as i64;
    if current > known {
        return Err(StorageError::TooNew {
            found: current,
            known,
        });
    }
    for (i, steps) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        for sql in *steps {
            sqlx::query(sql).execute(&mut *tx).await?;
        }
        sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
            .bind(i as i64 + 1)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

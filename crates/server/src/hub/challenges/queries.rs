//! What challenges read from the database (their writes are `Write::Challenge` and
//! `Write::CloseChallenge`).

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::model::{GameSpec, Seat};
use crate::storage::{
    from_json, stored_clock, stored_color, ChallengeRow, Challenged, Storage, StorageError,
};

const COLUMNS: &str = "id, challenger, challenged_account, challenged_bot, challenged_session, \
    challenged_name, \
    game, params, clock_initial_ms, clock_increment_ms, color, rated, status, game_id, reason, \
    created_at, expires_at, answered_at";

fn challenge_row(r: &AnyRow) -> Result<ChallengeRow, StorageError> {
    let corrupt = |what: String| StorageError::Corrupt(format!("challenge: {what}"));
    let from: Option<Seat> = from_json(r.try_get("challenger")?)?;
    let name: String = r.try_get("challenged_name")?;
    let to = match (
        r.try_get::<Option<String>, _>("challenged_account")?,
        r.try_get::<Option<String>, _>("challenged_bot")?,
        r.try_get::<Option<String>, _>("challenged_session")?,
    ) {
        (Some(id), None, None) => Challenged::Account { id, name },
        (None, Some(id), None) => Challenged::Bot { id, name },
        (None, None, Some(session)) => Challenged::Guest { session, name },
        _ => return Err(corrupt("not one account, bot or guest".into())),
    };
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        from: from.ok_or_else(|| corrupt("no challenger".into()))?,
        to,
        spec: GameSpec::from_stored(
            &r.try_get::<String, _>("game")?,
            &r.try_get::<String, _>("params")?,
        )
        .map_err(corrupt)?,
        clock: stored_clock(r)?,
        color: stored_color(r, "color")?.ok_or_else(|| corrupt("no colour".into()))?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        status: r.try_get("status")?,
        game_id: r.try_get("game_id")?,
        reason: r.try_get("reason")?,
        created_at: r.try_get("created_at")?,
        expires_at: r.try_get("expires_at")?,
        answered_at: r.try_get("answered_at")?,
    })
}

impl Storage {
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StorageError> {
        let sql = format!("SELECT {COLUMNS} FROM challenges WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        row.as_ref().map(challenge_row).transpose()
    }

    /// The guest sessions (at most two: one is enough to know, two too many) whose name's
    /// key is `key` and whose page was open at `since` or after: their ids and names.
    pub async fn online_guests(
        &self,
        key: &str,
        since: i64,
    ) -> Result<Vec<(String, String)>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, name FROM sessions
             WHERE name_key = $1 AND account_id IS NULL AND online_at >= $2 LIMIT 2",
        )
        .bind(key)
        .bind(since)
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
            .collect()
    }

    /// The challenges to the player whose name's key is `key` still open at `now`, oldest
    /// first.
    pub async fn challenges_to(
        &self,
        key: &str,
        now: i64,
    ) -> Result<Vec<ChallengeRow>, StorageError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM challenges
             WHERE challenged_key = $1 AND status = 'open' AND expires_at > $2
             ORDER BY created_at, id"
        );
        let rows = sqlx::query(&sql)
            .bind(key)
            .bind(now)
            .fetch_all(&self.readers)
            .await?;
        rows.iter().map(challenge_row).collect()
    }

    /// The challenges of the player whose name's key is `key` that were open at `since` or
    /// answered or withdrawn since (open ones, and those that ended after it), oldest first.
    pub async fn challenges_from(
        &self,
        key: &str,
        since: i64,
    ) -> Result<Vec<ChallengeRow>, StorageError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM challenges
             WHERE challenger_key = $1
                AND (answered_at >= $2 OR (status = 'open' AND expires_at > $2))
             ORDER BY created_at, id"
        );
        let rows = (sqlx::query(&sql).bind(key).bind(since))
            .fetch_all(&self.readers)
            .await?;
        rows.iter().map(challenge_row).collect()
    }
}

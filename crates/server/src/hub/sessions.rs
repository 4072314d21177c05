//! People and registered bots: guest sessions and bot registration, and which games a bot
//! plays.

use crate::error::ApiError;
use crate::ids::{hash_secret, new_id, new_secret, now_ms};
use crate::storage::{BotKey, BotRow, SessionRow, Write};

use super::{lock, Hub, MAX_NAME};

impl Hub {
    pub async fn create_session(&self, name: &str) -> Result<(SessionRow, String), ApiError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(ApiError::BadRequest(format!(
                "a name has 1 to {MAX_NAME} characters, none of them control characters"
            )));
        }
        let token = new_secret();
        let session = SessionRow {
            id: new_id(),
            name: name.to_string(),
            token_hash: hash_secret(&token),
            created_at: now_ms(),
        };
        self.storage
            .commit(vec![Write::Session(session.clone())])
            .await?;
        Ok((session, token))
    }

    /// The session whose cookie is `token`.
    pub async fn session(&self, token: &str) -> Result<Option<SessionRow>, ApiError> {
        Ok(self.storage.session(&hash_secret(token)).await?)
    }

    pub async fn register_bot(
        &self,
        owner: &SessionRow,
        name: &str,
    ) -> Result<(BotRow, String), ApiError> {
        let valid = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
        if name.is_empty() || name.len() > MAX_NAME || !name.chars().all(valid) {
            return Err(ApiError::BadRequest(format!(
                "a bot's name has 1 to {MAX_NAME} letters, digits, '-', '_' or '.'"
            )));
        }
        if self.storage.bot(BotKey::Name(name)).await?.is_some() {
            return Err(ApiError::Conflict(format!("the name '{name}' is taken")));
        }
        let token = new_secret();
        let bot = BotRow {
            id: new_id(),
            name: name.to_string(),
            owner: owner.id.clone(),
            token_hash: hash_secret(&token),
            created_at: now_ms(),
        };
        // Two registrations racing for a name: the database's unique index refuses one.
        self.storage
            .commit(vec![Write::Bot(bot.clone())])
            .await
            .map_err(|_| ApiError::Conflict(format!("the name '{name}' is taken")))?;
        Ok((bot, token))
    }

    /// The bot whose token is `token`.
    pub async fn bot(&self, token: &str) -> Result<Option<BotRow>, ApiError> {
        Ok(self
            .storage
            .bot(BotKey::TokenHash(&hash_secret(token)))
            .await?)
    }

    /// The ids of the unfinished games bot `id` plays.
    pub fn bot_games(&self, id: &str) -> Vec<String> {
        lock(&self.live)
            .values()
            .filter(|g| g.bots.iter().any(|b| b == id))
            .map(|g| g.id.clone())
            .collect()
    }
}

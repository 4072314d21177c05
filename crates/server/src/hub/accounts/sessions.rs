//! People and registered bots: guest sessions and bot registration, and which games a bot
//! plays.

use std::net::IpAddr;

use crate::error::ApiError;
use crate::ids::{hash_secret, new_id, new_secret, now_ms};

use crate::cluster::Event;
use crate::storage::{BotKey, BotRow, SessionKey, SessionRow, Write};
use tokio::sync::broadcast;

use crate::hub::{Hub, SESSION_IDLE_MS, SESSION_SEEN_STEP_MS};
use crate::model::{PlayerName, MAX_NAME};

/// A person's name, checked ([`PlayerName`]); a refusal is `400 bad-request` with the rule.
pub(in crate::hub) fn person_name(name: &str) -> Result<PlayerName, ApiError> {
    PlayerName::new(name).map_err(|e| ApiError::BadRequest(e.to_string()))
}

impl Hub {
    /// A new guest session for a person at `address`, within the limits on new sessions. A
    /// guest may not take a name that reads as an account's or a bot's.
    pub async fn create_session(
        &self,
        name: &str,
        address: IpAddr,
    ) -> Result<(SessionRow, String), ApiError> {
        let name = person_name(name)?;
        if self.storage.name_holder(name.key()).await?.is_some() {
            return Err(ApiError::Conflict(format!(
                "'{name}' is (or reads as) an account's or a bot's name: sign in with its \
                 password, or choose another"
            )));
        }
        let (session, token) = self.new_session(name.as_str(), None, address).await?;
        self.storage
            .commit(vec![Write::Session(session.clone())])
            .await?;
        Ok((session, token))
    }

    /// The session whose cookie is `token`, unless it has expired (idle for
    /// [`SESSION_IDLE_MS`]), which ends it.
    pub async fn session(&self, token: &str) -> Result<Option<SessionRow>, ApiError> {
        let hash = hash_secret(token);
        self.open_session(SessionKey::TokenHash(&hash)).await
    }

    /// Session `id`, if it is still open: a socket asks before each message it acts on,
    /// so that a session signed out, expired or ended elsewhere acts no more.
    pub async fn session_by_id(&self, id: &str) -> Result<Option<SessionRow>, ApiError> {
        self.open_session(SessionKey::Id(id)).await
    }

    /// Whether session `id` is still open, without noting a use: an open socket asks now
    /// and then, so that a session ended where no event reaches it (`toroid admin`, an
    /// expiry) closes its sockets even while they say nothing. An expired session is ended.
    pub async fn session_still_open(&self, id: &str) -> Result<bool, ApiError> {
        Ok(self.unexpired(SessionKey::Id(id)).await?.is_some())
    }

    /// The session found `by`, unless it has expired, which ends it; its use is noted.
    async fn open_session(&self, by: SessionKey<'_>) -> Result<Option<SessionRow>, ApiError> {
        let Some(mut session) = self.unexpired(by).await? else {
            return Ok(None);
        };
        let now = now_ms();
        let idle = now - session.last_seen_at;
        if idle > SESSION_SEEN_STEP_MS {
            session.last_seen_at = now;
            let id = session.id.clone();
            self.storage
                .commit(vec![Write::SessionSeen { id, at: now }])
                .await?;
        }
        Ok(Some(session))
    }

    /// The session found `by`, unless it has expired (idle for [`SESSION_IDLE_MS`]), which
    /// ends it.
    async fn unexpired(&self, by: SessionKey<'_>) -> Result<Option<SessionRow>, ApiError> {
        let Some(session) = self.storage.session(by).await? else {
            return Ok(None);
        };
        if now_ms() - session.last_seen_at > SESSION_IDLE_MS {
            self.end_session(&session).await?;
            return Ok(None);
        }
        Ok(Some(session))
    }

    /// Ends a session: its cookie no longer opens it, and its sockets close (4401) on
    /// every node. Its games keep their seats.
    pub async fn end_session(&self, session: &SessionRow) -> Result<(), ApiError> {
        let id = session.id.clone();
        self.storage.commit(vec![Write::EndSession { id }]).await?;
        self.end_session_everywhere(&session.id).await;
        Ok(())
    }

    /// Closes the sockets of session `id`, ended in the database, on every node.
    pub(in crate::hub) async fn end_session_everywhere(&self, id: &str) {
        self.session_ended(id);
        if let Some(cluster) = &self.cluster {
            let event = Event::SessionEnded {
                from: cluster.node.clone(),
                session: id.to_string(),
            };
            cluster.publish(&event).await;
        }
    }

    /// Tells this node's sockets that session `id` has ended.
    pub(in crate::hub) fn session_ended(&self, id: &str) {
        // Nobody listening is no error: no socket of any session is open.
        let _ = self.accounts.ended.send(id.to_string());
    }

    /// The sessions ended from now on, on any node, for a socket to close if its own is one.
    pub fn ended_sessions(&self) -> broadcast::Receiver<String> {
        self.accounts.ended.subscribe()
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
        // `/api/bots/mine` and `/api/bots/seeks` are routes: no bot may be called so.
        if ["mine", "seeks"]
            .iter()
            .any(|r| name.eq_ignore_ascii_case(r))
        {
            return Err(ApiError::BadRequest(format!(
                "'{name}' is not a bot's name"
            )));
        }
        let key = person_name(name)?.key().to_string();
        if self.storage.name_holder(&key).await?.is_some() {
            return Err(ApiError::Conflict(format!(
                "the name '{name}' is taken (or reads as one taken)"
            )));
        }
        let token = new_secret();
        let bot = BotRow {
            id: new_id(),
            name: name.to_string(),
            owner: owner.owner_id().to_string(),
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
}

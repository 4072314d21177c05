//! Who sits on a colour: a person (a guest session), a house bot, or a registered bot that
//! plays over the bot WebSocket. A seat is stored as JSON
//! (`{"kind":"person","session":"…","name":"alice"}`, `{"kind":"house","level":"casual"}`,
//! `{"kind":"bot","bot":"…","name":"Hexer"}`).

use serde::{Deserialize, Serialize};
use toroid_rules::GameKind;
use toroid_search::Level;

use crate::error::ApiError;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Seat {
    Person {
        session: String,
        name: String,
        /// The account the session was signed in to when it sat down; none for a guest.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<String>,
    },
    House {
        #[serde(with = "level_name")]
        level: Level,
    },
    Bot {
        bot: String,
        name: String,
    },
}

impl Seat {
    /// The house bot named `level` for a game of `kind`: a known level that plays it.
    pub fn house(level: &str, kind: GameKind) -> Result<Seat, ApiError> {
        let level = (level.parse::<Level>().map_err(|e| e.to_string()))
            .and_then(|level| level.for_game(kind).map_err(|e| e.to_string()))
            .map_err(ApiError::BadRequest)?;
        Ok(Seat::House { level })
    }

    /// The player's key in the rating pools (`account:ID`, `bot:ID`, `house:LEVEL`); `None`
    /// for a guest, who plays only casual games.
    pub fn rated_player(&self) -> Option<String> {
        match self {
            Seat::Person {
                account: Some(account),
                ..
            } => Some(format!("account:{account}")),
            Seat::Person { account: None, .. } => None,
            Seat::Bot { bot, .. } => Some(format!("bot:{bot}")),
            Seat::House { level } => Some(format!("house:{}", level.name())),
        }
    }

    /// `person`, `house` or `bot`.
    pub fn kind(&self) -> &'static str {
        match self {
            Seat::Person { .. } => "person",
            Seat::House { .. } => "house",
            Seat::Bot { .. } => "bot",
        }
    }

    /// The name shown for the player: the person's or bot's name, the house bot's level.
    pub fn name(&self) -> &str {
        match self {
            Seat::Person { name, .. } | Seat::Bot { name, .. } => name,
            Seat::House { level } => level.name(),
        }
    }

    /// Whether the guest session `id` sits here.
    pub fn is_session(&self, id: &str) -> bool {
        matches!(self, Seat::Person { session, .. } if session == id)
    }

    /// Whether the person of session `session_id`, signed in to `account_id`, sits here:
    /// from this very session, or from another session of the same account.
    pub fn is_person(&self, session_id: &str, account_id: Option<&str>) -> bool {
        match self {
            Seat::Person {
                session, account, ..
            } => session == session_id || (account.is_some() && account.as_deref() == account_id),
            _ => false,
        }
    }

    /// Whether the registered bot `id` sits here.
    pub fn is_bot(&self, id: &str) -> bool {
        matches!(self, Seat::Bot { bot, .. } if bot == id)
    }

    /// The registered bot's id, if this is its seat.
    pub fn bot_id(&self) -> Option<&str> {
        match self {
            Seat::Bot { bot, .. } => Some(bot),
            _ => None,
        }
    }

    /// The house bot's level, if this is a house seat.
    pub fn house_level(&self) -> Option<Level> {
        match self {
            Seat::House { level } => Some(*level),
            _ => None,
        }
    }
}

/// A level as its name (`"casual"`).
mod level_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use toroid_search::Level;

    pub fn serialize<S: Serializer>(level: &Level, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(level.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

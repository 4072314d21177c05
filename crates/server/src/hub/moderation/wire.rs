//! What moderation's routes take and answer.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::Role;
use crate::storage::ChatRow;

/// A report of a player, or of one of their chat lines.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewReport {
    /// The player reported (not needed with `chat_line`).
    #[serde(default)]
    pub player: Option<String>,
    /// The chat line reported (its id); its author is the player reported.
    #[serde(default)]
    pub chat_line: Option<String>,
    /// Why, in up to 500 characters.
    pub reason: String,
}

/// A report as moderators read it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportView {
    pub id: String,
    /// Who reported.
    pub reporter: String,
    /// Whom.
    pub player: String,
    /// The line reported, if any.
    pub chat_line: Option<ChatRecord>,
    pub reason: String,
    pub at: i64,
    /// When a moderator dealt with it, and who.
    pub resolved_at: Option<i64>,
    pub resolved_by: Option<String>,
}

/// A chat line as moderators read it, deleted or not.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatRecord {
    pub id: String,
    pub game_id: String,
    /// `players` or `spectators`.
    pub room: String,
    pub author: String,
    pub text: String,
    pub at: i64,
    pub deleted: bool,
}

impl From<ChatRow> for ChatRecord {
    fn from(row: ChatRow) -> ChatRecord {
        ChatRecord {
            id: row.id,
            game_id: row.game_id,
            room: row.room,
            author: row.author,
            text: row.body,
            at: row.at,
            deleted: row.deleted_at.is_some(),
        }
    }
}

/// A player one blocks.
#[derive(Debug, Serialize, ToSchema)]
pub struct BlockView {
    pub name: String,
    /// Since when (milliseconds since the epoch).
    pub at: i64,
}

/// A new password for one's account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub current: String,
    /// 8 to 128 characters.
    pub new: String,
}

/// An account as moderators see it in the list of sign-ups.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountSummary {
    pub name: String,
    pub created_at: i64,
    pub role: Role,
    pub banned: bool,
}

/// A role to give.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleChange {
    pub role: Role,
}

/// Whether sign-ups are open.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignUps {
    pub open: bool,
}

/// Which reports to list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ReportsQuery {
    /// Also those dealt with.
    #[serde(default)]
    pub all: bool,
}

/// What an act did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActDone {
    /// In words.
    pub message: String,
    /// A password it made (a reset), shown this once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
}

/// A new report's id.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportMade {
    pub id: String,
}

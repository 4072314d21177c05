//! The JSON shapes of sessions and accounts.
//! `crate::api` gathers every feature's.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/session`: a guest session under `name`, or, with `password`, a session
/// signed in to the account called `name`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSession {
    /// 1 to 32 characters.
    pub name: String,
    #[serde(default)]
    pub password: Option<String>,
}

/// `POST /api/accounts`: claims `name` with `password` (8 to 128 characters).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAccount {
    pub name: String,
    pub password: String,
}

/// A session: a guest's, or one signed in to an account (`account`).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct SessionView {
    pub id: String,
    pub name: String,
    /// Whether the session is signed in to an account.
    pub account: bool,
    /// The account's role (`none` for a guest): moderators and admins have the page at
    /// `/admin`.
    pub role: crate::hub::moderation::Role,
}

//! The JSON shapes of follows.
//! `crate::api` gathers every feature's.

use serde::Serialize;
use utoipa::ToSchema;

use crate::hub::games::wire::GameSummary;

/// A player one follows, in `GET /api/follows`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct FollowView {
    pub name: String,
    /// Since when (milliseconds since the epoch).
    pub at: i64,
    /// Whether a page of theirs is open now (within two minutes).
    pub online: bool,
    /// Their live games, newest first (five at most).
    pub games: Vec<GameSummary>,
}

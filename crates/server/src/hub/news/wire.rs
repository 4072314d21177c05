//! The messages of a person's news socket (`GET /api/me/ws`).
//! `crate::api` gathers every feature's.

use serde::Serialize;
use utoipa::ToSchema;

use crate::hub::challenges::wire::ChallengeView;
use crate::hub::games::wire::GameSummary;

/// One message to a person's page, `{"type": …}`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum NewsMessage {
    /// The socket has looked once: what follows is news. (The open challenges to the
    /// person and the correspondence games waiting for them come just before.)
    Ready {},
    /// Someone challenges the person (an open challenge not told before).
    Challenge { challenge: ChallengeView },
    /// A game of theirs started (someone joined their open game, accepted their challenge, a
    /// tournament paired them).
    GameStarted { game: GameSummary },
    /// A correspondence game waits for their move.
    YourTurn { game: GameSummary },
    /// A correspondence game waits for their move with little time left on their clock.
    Reminder { game: GameSummary, left_ms: i64 },
    /// A tournament they play in moved on: a round began or ended, or it finished.
    Tournament {
        id: String,
        name: String,
        /// `running`, `finished`, `cancelling` or `cancelled`.
        stage: &'static str,
        /// Rounds paired so far.
        round: usize,
    },
}

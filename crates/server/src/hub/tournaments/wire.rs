//! The JSON shapes of tournaments.
//! `crate::api` gathers every feature's.

use serde::{Deserialize, Serialize};
use toroid_rules::GameKind;
use utoipa::ToSchema;

use crate::hub::games::wire::PlayerView;
use crate::model::TimeControl;

/// A tournament's format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TournamentFormat {
    Swiss,
    RoundRobin,
}

fn yes() -> bool {
    true
}

/// `POST /api/tournaments`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    /// 1 to 64 characters.
    pub name: String,
    /// A rule set, played at its default parameters.
    #[schema(value_type = String)]
    pub game: GameKind,
    pub clock: TimeControl,
    pub format: TournamentFormat,
    /// Rounds (a round robin has at most one per opponent; a Swiss at most half the players).
    pub rounds: usize,
    /// Whether its games are rated (default yes).
    #[serde(default = "yes")]
    pub rated: bool,
    /// House-bot levels that take part, each once.
    #[serde(default)]
    pub house: Vec<String>,
    /// Whether its creator plays in it: the person's account, or the bot that creates it
    /// (default no; the page asks, and says yes unless told not).
    #[serde(default)]
    pub join: bool,
}

/// A game of a tournament round.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TournamentGame {
    pub white: String,
    pub black: String,
    pub game_id: Option<String>,
    /// `white`, `black`, `draw`, or null while it is played.
    pub result: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TournamentRound {
    pub games: Vec<TournamentGame>,
    pub bye: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TournamentStanding {
    pub rank: usize,
    pub player: PlayerView,
    pub score: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
}

/// What a tournament is, in its view and in the list alike.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TournamentInfo {
    pub id: String,
    pub name: String,
    /// The account that created it (and may start it).
    pub creator: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    #[schema(value_type = String)]
    pub game: GameKind,
    pub clock: TimeControl,
    pub format: TournamentFormat,
    pub rounds: usize,
    pub rated: bool,
    /// `open`, `running`, `finished`, `cancelling` (a moderator cancelled it; its games are
    /// being aborted) or `cancelled`.
    pub stage: &'static str,
}

/// A tournament: its settings, players, rounds (the current one with its games' ids, their
/// results once over) and standings.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TournamentView {
    #[serde(flatten)]
    pub info: TournamentInfo,
    pub players: Vec<PlayerView>,
    pub played: Vec<TournamentRound>,
    pub standings: Vec<TournamentStanding>,
}

/// A tournament in `GET /api/tournaments`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TournamentSummary {
    #[serde(flatten)]
    pub info: TournamentInfo,
    /// Players in it.
    pub players: usize,
}

/// `GET /api/tournaments` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct TournamentListQuery {
    /// At most this many, newest first (default 50, at most 200).
    pub limit: Option<u32>,
}

//! The JSON shapes of games and play.
//! `crate::api` gathers every feature's.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use toroid_protocol::view::{GameView, ParamsView};
use toroid_rules::{Color, GameKind, Outcome};
use utoipa::ToSchema;

use crate::model::{Status, TimeControl};

/// A player as others see it.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerView {
    /// `person`, `house` or `bot`.
    pub kind: &'static str,
    pub name: String,
}

/// Black's and white's players; null for a seat still open.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct Players {
    pub black: Option<PlayerView>,
    pub white: Option<PlayerView>,
}

/// The clocks when the state was sent; the running one counts down from there.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ClocksView {
    pub black_ms: i64,
    pub white_ms: i64,
    #[schema(value_type = Option<String>)]
    pub running: Option<Color>,
}

/// A game: who plays it, its clocks, its position and its result.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GameState {
    pub id: String,
    #[schema(value_type = String)]
    pub game: GameKind,
    /// Every parameter, resolved.
    #[schema(value_type = Object)]
    pub params: ParamsView,
    #[schema(value_type = String, example = "live")]
    pub status: Status,
    pub players: Players,
    pub clock: Option<TimeControl>,
    pub clocks: Option<ClocksView>,
    /// The position as `toroid replay --json` prints it (README.md, docs/server.md).
    #[schema(value_type = Object)]
    pub position: Arc<GameView>,
    #[schema(value_type = Option<ResultSchema>)]
    pub result: Option<Outcome>,
    /// Whether the game changes its players' ratings.
    pub rated: bool,
    /// The colour whose draw offer stands (`black` or `white`), null without one.
    #[schema(value_type = Option<String>)]
    pub draw_offer: Option<Color>,
    /// The colour whose takeback request stands (`black` or `white`), null without one.
    #[schema(value_type = Option<String>)]
    pub takeback_offer: Option<Color>,
    /// Whether the players may ask to take moves back now: a live casual game between
    /// people or against a house bot.
    pub takebacks: bool,
    /// In a finished game between two people: the colour whose rematch offer stands.
    #[schema(value_type = Option<String>)]
    pub rematch_offer: Option<Color>,
    /// The id of the game the rematch opened, once both players agreed.
    pub rematch: Option<String>,
    /// The colour of the session that asked, if it plays this game.
    #[schema(value_type = Option<String>)]
    pub you: Option<Color>,
    /// `/join/CODE`: only to the creator of an invite game while it waits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// Whether the session that asked may have `GET /api/games/{id}/analysis` now.
    pub analysis: bool,
    /// In a live clocked game whose player to move has not made a first move: the
    /// milliseconds left for it (30 s from when its clock started), after which the game is
    /// aborted without a result. Null otherwise.
    pub first_move_ms: Option<i64>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// After two passes under `scoring_phase=agreement`: the dead stones the players agree
    /// on (while they do, no clock runs and no move is played), and once they have. Null
    /// otherwise.
    pub counting: Option<CountingView>,
    /// The id of the tournament it is a game of (`/api/tournaments/{id}`), if any.
    pub tournament: Option<String>,
    /// A waiting open game, which anyone may join from its page (`POST
    /// /api/games/{id}/join` without a code) or by quick pairing.
    pub open: bool,
}

/// The dead stones marked after two passes, who accepts them, and the result if both do.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct CountingView {
    /// The points of the stones marked dead (every stone of their chains).
    pub dead: Vec<String>,
    #[schema(value_type = Object)]
    pub accepted: toroid_protocol::view::PerColor<bool>,
    /// The result with these stones taken off.
    #[schema(value_type = Option<ResultSchema>)]
    pub result: Option<Outcome>,
}

/// `GET /api/games/{id}/history`: what a page needs to replay a game truthfully without
/// knowing its rules.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameHistory {
    /// `boards`, `captures` and `scores` after 0, 1, … moves.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub history: toroid_protocol::view::HistoryView,
    /// The clocks (milliseconds left) after 0, 1, … moves, as stored with each move; null
    /// for a game without a clock.
    #[schema(value_type = Option<Vec<Object>>)]
    pub clocks: Option<Vec<toroid_protocol::view::PerColor<i64>>>,
}

/// How a game ended, as the API writes it: [`toroid_rules::Outcome`] in JSON. (For the
/// API description only.)
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ResultSchema {
    /// `black`, `white` or `draw`.
    #[schema(example = "white")]
    winner: String,
    /// A rules reason (`two-passes`, `ring`, …), `resignation`, `time`, a forfeit's fault
    /// (`illegal-move`, `timeout`, …) or `abort`.
    #[schema(example = "resignation")]
    reason: String,
    /// The winner's lead in points, where a score decided (`go`).
    margin: Option<f64>,
    /// The result in words.
    #[schema(example = "white wins: black resigned")]
    text: String,
}

/// A game in a list.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    #[schema(value_type = String)]
    pub game: GameKind,
    #[schema(value_type = Object)]
    pub params: ParamsView,
    #[schema(value_type = String, example = "finished")]
    pub status: Status,
    pub players: Players,
    #[schema(value_type = Option<ResultSchema>)]
    pub result: Option<Outcome>,
    pub plies: i64,
    pub rated: bool,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// In the asker's own games (`mine=true`), for a live one: whether it waits for the
    /// asker's move. Null otherwise.
    pub your_turn: Option<bool>,
}

/// One candidate move of an analysis.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct MoveAnalysis {
    #[serde(rename = "move")]
    pub mv: String,
    pub visits: u32,
    /// Expected result for the player to move (1 win, 0.5 draw, 0 loss).
    pub win_rate: f64,
    /// The expected continuation, starting with this move.
    pub pv: Vec<String>,
}

/// What a short search found: candidate moves best first, and visits by cell index.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct AnalysisView {
    pub simulations: u64,
    pub moves: Vec<MoveAnalysis>,
    pub visit_map: Vec<u32>,
}

/// `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// A point (`ee`), `pass` or `end`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The ply the mover believes the game is at (`position.ply`); an old one is refused.
    pub ply: u64,
}

/// `POST /api/games/{id}/toggle-dead`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ToggleDeadRequest {
    /// A stone of the chain to mark dead, or alive again.
    pub point: String,
}

/// `POST /api/games/{id}/accept-dead`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptDeadRequest {
    /// The stones marked dead as the player saw them (`counting.dead`): accepted only if
    /// they are still the marks.
    pub dead: Vec<String>,
}

/// `GET /api/games` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// `live`, `finished` or `waiting`; all games when absent.
    pub status: Option<String>,
    /// Only the games of a player of this name (a bot's, a person's or a house level's; bot
    /// names are unique, guests' names need not be).
    pub player: Option<String>,
    /// Only the asker's own games (`true`): those its session sat down in, and its
    /// account's from any session. Needs a session.
    pub mine: Option<bool>,
    /// At most this many (default 50, at most 200).
    pub limit: Option<u32>,
}

/// `GET /api/games/{id}/analysis` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    /// Milliseconds to search (default 500; the server caps it).
    pub ms: Option<u64>,
}

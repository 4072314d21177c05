//! The JSON shapes of the HTTP API and the WebSockets (docs/server.md, /api/openapi.json).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
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

/// `POST /api/games`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A rule set's name (`GET /api/rules`).
    #[schema(value_type = String)]
    pub game: GameKind,
    /// Parameters by name, numbers or strings; the others take their defaults.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub params: Map<String, Value>,
    /// No clock when null or absent.
    #[serde(default)]
    pub clock: Option<TimeControl>,
    pub opponent: Opponent,
    #[serde(default)]
    pub color: ColorChoice,
    /// Whether the game changes the players' ratings: only between accounts, registered
    /// bots and house bots, with a clock, at the rule set's default parameters.
    #[serde(default)]
    pub rated: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Opponent {
    /// A house bot of a level (`GET /api/levels`).
    House { level: String },
    /// A person who opens the invite link. (Braces, so that unknown fields are refused:
    /// serde checks them only on the struct variants of an internally tagged enum.)
    Invite {},
    /// A registered bot, connected now, that accepts the challenge.
    Bot { name: String },
}

/// The word `any`, for what a seek leaves open.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub enum AnyWord {
    #[serde(rename = "any")]
    Any,
}

/// The parameters a seek asks for: given ones (the others take their defaults), or `any`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SeekParams {
    Any(AnyWord),
    Given(Map<String, Value>),
}

impl Default for SeekParams {
    fn default() -> SeekParams {
        SeekParams::Given(Map::new())
    }
}

/// The clock a seek asks for (null: none): exactly one, any whose initial time is in a
/// range, or `any` (a clock or none).
#[derive(Copy, Clone, Debug, PartialEq, ToSchema)]
pub enum SeekClock {
    Exactly(TimeControl),
    Range(ClockRange),
    Any(AnyWord),
}

/// Told apart by their fields, so that a clock out of bounds is refused with its own
/// reason rather than serde's "matches no variant".
impl<'de> Deserialize<'de> for SeekClock {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SeekClock, D::Error> {
        use serde::de::Error;
        fn read<T: serde::de::DeserializeOwned, E: Error>(value: Value) -> Result<T, E> {
            serde_json::from_value(value).map_err(E::custom)
        }
        let value = Value::deserialize(deserializer)?;
        match &value {
            Value::String(_) => read(value).map(SeekClock::Any),
            Value::Object(fields) if fields.contains_key("initial_s") => {
                read(value).map(SeekClock::Exactly)
            }
            Value::Object(_) => read(value).map(SeekClock::Range),
            _ => Err(D::Error::custom(
                "a seek's clock is a clock, a range of initial times, or \"any\"",
            )),
        }
    }
}

/// Any clock whose initial time is within these bounds, in seconds.
#[derive(Copy, Clone, Debug, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockRange {
    pub min_initial_s: f64,
    pub max_initial_s: f64,
}

/// A bot's open seek, in `GET /api/bots/seeks`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct SeekView {
    pub bot: String,
    /// `game`, `params` (an object or `"any"`) and `clock` (null, a clock, a range or
    /// `"any"`), as the seek said them.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub terms: Value,
}

#[derive(Copy, Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    Black,
    White,
    #[default]
    Random,
}

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
}

/// `POST /api/games/{id}/join` and `POST /api/join`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The code of the invite link (`/join/CODE`).
    pub code: String,
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

/// `POST /api/bots`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBot {
    /// 1 to 32 letters, digits, `-`, `_` or `.`; unique.
    pub name: String,
}

/// A bot just registered: its token is shown this once (the server keeps only its hash).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct BotCreated {
    pub id: String,
    pub name: String,
    /// For `Authorization: Bearer TOKEN` on `/api/bot/ws`.
    pub token: String,
}

/// A bot of the asker's, for `GET /api/bots/mine`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct OwnBot {
    pub id: String,
    pub name: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Whether it is connected now.
    pub online: bool,
}

/// The asker's bots, oldest first.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct OwnBots {
    pub bots: Vec<OwnBot>,
}

/// The bots connected now, which people can challenge by name.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct OnlineBots {
    pub online: Vec<String>,
}

/// A player's rating in one pool (a rule set), in `GET /api/leaderboard/{game}` and
/// `GET /api/players/{name}`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct RatingView {
    /// The player's name when last rated.
    pub name: String,
    /// `person` (an account), `bot` or `house`.
    pub kind: &'static str,
    /// The rule set.
    #[schema(value_type = String)]
    pub pool: GameKind,
    /// Glicko-2, rounded to a tenth.
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: i64,
    /// While the deviation is above 110.
    pub provisional: bool,
}

/// One point of a rating's history: the rating after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct RatingPoint {
    pub game_id: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    pub rating: f64,
}

/// A pool's rating and its history, on a player's page.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PoolRating {
    #[serde(flatten)]
    pub rating: RatingView,
    pub history: Vec<RatingPoint>,
}

/// `GET /api/players/{name}`: a player's ratings in every pool with their history, its
/// recent games, and an account's bots.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerPage {
    pub name: String,
    pub kind: &'static str,
    pub ratings: Vec<PoolRating>,
    pub games: Vec<GameSummary>,
    pub bots: Vec<String>,
}

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
    /// `open`, `running` or `finished`.
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

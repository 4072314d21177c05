//! Why the server refused a request: one code per reason, shared by the HTTP API
//! (`{"error":{"code","message"}}` with a 4xx or 5xx status) and the WebSockets
//! (`{"type":"error","code","message"}`).

use thiserror::Error;

use crate::game::GameError;
use crate::storage::StorageError;

#[derive(Debug, Error)]
pub enum ApiError {
    /// The body or message is not the JSON the route takes.
    #[error("{0}")]
    BadJson(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("the request body or message is too large")]
    TooLarge,
    #[error("the body must be JSON (Content-Type: application/json)")]
    NotJson,
    #[error("{0} not found")]
    NotFound(String),
    #[error("no session: create one with POST /api/session")]
    NoSession,
    #[error("no valid bot token: send 'Authorization: Bearer TOKEN'")]
    BadToken,
    #[error("no account has this name and password")]
    BadCredentials,
    #[error("{0}")]
    Declined(String),
    #[error("you are not a player of this game")]
    NotAPlayer,
    #[error("no analysis during this game: while a game is played, only a person playing a house bot gets one; everyone does once it is over")]
    NoAnalysis,
    #[error("it is {0}'s turn")]
    NotYourTurn(&'static str),
    #[error("the game is at ply {current}, not {sent}: the move was meant for a position that has changed")]
    StalePly { current: usize, sent: u64 },
    #[error("{0}")]
    IllegalMove(String),
    #[error("the game is over")]
    GameOver,
    #[error("the game has not started: it waits for its second player")]
    NotStarted,
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Limit(String),
    #[error("too many requests: slow down")]
    RateLimited,
    #[error("the server is busy: {0}")]
    Busy(&'static str),
    #[error("game '{0}' is damaged in the database and set aside (the server's log says why)")]
    Unavailable(String),
    #[error("this method is not allowed here")]
    MethodNotAllowed,
    #[error("requests from the page at {0} may not act here: it is not this server's origin (an operator allows it with --allowed-origin)")]
    CrossOrigin(String),
    /// Refused by the site's administration: sign-ups closed, an account banned.
    #[error("{0}")]
    Closed(String),
    /// A moderator's or admin's act that this account's role does not allow.
    #[error("{0}")]
    Forbidden(String),
    /// One of the two players blocks the other: no game, challenge or invitation between them.
    #[error("{0}")]
    Blocked(String),
    #[error("this server is not served at '{0}': a request names one of its public origins as its Host (an operator names them with --public-origin)")]
    UnknownHost(String),
    #[error("storage failed: {0}")]
    Storage(#[from] StorageError),
}

impl ApiError {
    /// The kebab-case code clients act on.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadJson(_) => "bad-json",
            ApiError::BadRequest(_) => "bad-request",
            ApiError::TooLarge => "too-large",
            ApiError::NotJson => "not-json",
            ApiError::NotFound(_) => "not-found",
            ApiError::NoSession => "no-session",
            ApiError::BadToken => "bad-token",
            ApiError::BadCredentials => "bad-credentials",
            ApiError::Declined(_) => "declined",
            ApiError::NotAPlayer => "not-a-player",
            ApiError::NoAnalysis => "no-analysis",
            ApiError::NotYourTurn(_) => "not-your-turn",
            ApiError::StalePly { .. } => "stale-ply",
            ApiError::IllegalMove(_) => "illegal-move",
            ApiError::GameOver => "game-over",
            ApiError::NotStarted => "not-started",
            ApiError::Conflict(_) => "conflict",
            ApiError::Limit(_) => "limit",
            ApiError::RateLimited => "rate-limited",
            ApiError::Busy(_) => "busy",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::MethodNotAllowed => "method-not-allowed",
            ApiError::CrossOrigin(_) => "cross-origin",
            ApiError::UnknownHost(_) => "unknown-host",
            ApiError::Closed(_) => "closed",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::Blocked(_) => "blocked",
            ApiError::Storage(_) => "storage",
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadJson(_) | ApiError::BadRequest(_) => 400,
            ApiError::NoSession | ApiError::BadToken | ApiError::BadCredentials => 401,
            ApiError::NotAPlayer
            | ApiError::NoAnalysis
            | ApiError::CrossOrigin(_)
            | ApiError::Closed(_)
            | ApiError::Forbidden(_)
            | ApiError::Blocked(_) => 403,
            ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed => 405,
            ApiError::NotYourTurn(_)
            | ApiError::StalePly { .. }
            | ApiError::GameOver
            | ApiError::NotStarted
            | ApiError::Declined(_)
            | ApiError::Conflict(_) => 409,
            ApiError::TooLarge => 413,
            ApiError::UnknownHost(_) => 421,
            ApiError::NotJson => 415,
            ApiError::IllegalMove(_) => 422,
            ApiError::Limit(_) | ApiError::RateLimited => 429,
            ApiError::Storage(_) => 500,
            ApiError::Busy(_) | ApiError::Unavailable(_) => 503,
        }
    }
}

/// How the API answers a game's refusal.
impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        match error {
            GameError::NotAPlayer => ApiError::NotAPlayer,
            GameError::NotYourTurn(color) => ApiError::NotYourTurn(color.name()),
            GameError::StalePly { current, sent } => ApiError::StalePly { current, sent },
            GameError::NotAMove(_) | GameError::NoStone(_) => {
                ApiError::BadRequest(error.to_string())
            }
            GameError::OffBoard(_) | GameError::Illegal { .. } => {
                ApiError::IllegalMove(error.to_string())
            }
            GameError::GameOver => ApiError::GameOver,
            GameError::NotStarted => ApiError::NotStarted,
            GameError::NoSuchInvite => ApiError::NotFound("invite".into()),
            GameError::AlreadyStarted
            | GameError::AlreadyPlaying
            | GameError::TooLateToAbort
            | GameError::TournamentAbort
            | GameError::NoOffer(_)
            | GameError::NoTakebacks(_)
            | GameError::NothingToTakeBack
            | GameError::NoRematch
            | GameError::RematchStarted
            | GameError::Counting
            | GameError::NotCounting
            | GameError::StaleCounting
            | GameError::OpponentPresent(_) => ApiError::Conflict(error.to_string()),
        }
    }
}

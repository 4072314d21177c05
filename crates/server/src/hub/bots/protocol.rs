//! The JSON messages of the bot WebSocket (`/api/bot/ws`; docs/protocol.md, "Bots on the
//! server"). Every message is one JSON object with a `type`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use toroid_protocol::view::{GameView, ParamsView, PerColor};
use toroid_rules::{Color, GameKind, Outcome};
use utoipa::ToSchema;

use crate::api::{
    ClocksView, CountingView, NewGame, NewTournament, PlayerView, Players, RatingChange,
    ResultSchema, SeekClock, SeekParams, TournamentView,
};
use crate::game::CountingAct;
use crate::hub::challenges::wire::{ChallengeView, NewChallenge};
use crate::hub::Action;
use crate::model::TimeControl;

/// The protocol's version, in `hello` and `welcome`.
pub const PROTOCOL: u32 = 1;

/// Bot to server. Every variant has braces: serde refuses unknown fields only in the struct
/// variants of an internally tagged enum, and would let `{"type":"cancel-seek","x":1}` through
/// a unit variant.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum FromBot {
    /// The first message: the protocol version the bot speaks.
    Hello {
        protocol: u32,
    },
    Accept {
        challenge: String,
    },
    Decline {
        challenge: String,
        #[serde(default)]
        reason: Option<String>,
    },
    /// Asks for a game against another bot whose seek pairs with this one
    /// (`crate::hub::bots::seek`).
    Seek {
        #[schema(value_type = String)]
        game: GameKind,
        /// Only rated games (with other rated seeks), or only casual ones.
        #[serde(default)]
        rated: bool,
        /// An object of parameters, or `"any"`.
        #[serde(default)]
        #[schema(value_type = Object)]
        params: SeekParams,
        #[serde(default)]
        clock: Option<SeekClock>,
    },
    CancelSeek {},
    /// Joins the rated arena of a rule set (its default parameters) at a clock: the server
    /// pairs the bots waiting there, game after game, until `leave-arena`.
    Arena {
        #[schema(value_type = String)]
        game: GameKind,
        clock: TimeControl,
    },
    LeaveArena {},
    /// Joins an open tournament (`POST /api/tournaments`); its games come as `start`.
    JoinTournament {
        tournament: String,
    },
    /// Creates a tournament for the bot's owner (an account): the body of `POST
    /// /api/tournaments`. The bot is not in it until it joins.
    CreateTournament(NewTournament),
    /// Starts a tournament that the bot's owner created.
    StartTournament {
        tournament: String,
    },
    /// Asks for a game: against a house bot (it starts at once), a registered bot (which
    /// accepts or declines), or a person who opens the invite link it is given. The body of
    /// `POST /api/games`.
    Challenge(NewGame),
    /// Challenges a player by name, an account or a bot, online or not: the body of `POST
    /// /api/challenges`. `challenge-created` answers; `start` follows if it is accepted,
    /// `challenge-declined` if not.
    ChallengePlayer(NewChallenge),
    Move {
        game_id: String,
        #[serde(rename = "move")]
        mv: String,
        ply: u64,
    },
    /// Says `text` in the players' room of a game the bot plays (the limits of people's
    /// lines: 280 characters, 5 at once then one every 2 seconds).
    Chat {
        game_id: String,
        text: String,
    },
    Resign {
        game_id: String,
    },
    /// Offers a draw, or accepts the opponent's offer.
    Draw {
        game_id: String,
    },
    /// Declines the opponent's draw offer, or withdraws the bot's own.
    DeclineDraw {
        game_id: String,
    },
    /// Ends the game without a result, before both sides have moved.
    Abort {
        game_id: String,
    },
    /// Wins a game whose opponent, a registered bot, has been disconnected for 60 seconds.
    ClaimVictory {
        game_id: String,
    },
    /// After two passes under `scoring_phase=agreement` (`counting`): marks the chain on
    /// `point` dead, or alive again.
    ToggleDead {
        game_id: String,
        point: String,
    },
    /// Accepts the dead stones marked, which must be `dead` (`counting.dead`).
    AcceptDead {
        game_id: String,
        dead: Vec<String>,
    },
    /// Disputes the dead stones marked: play goes on as cleanup (`your-turn` follows for
    /// the player to move, with `position.cleanup` true).
    ResumePlay {
        game_id: String,
    },
}

impl FromBot {
    /// The act on dead stones this message asks for, and its game.
    pub fn counting_act(&self) -> Option<(CountingAct<'_>, &str)> {
        match self {
            FromBot::ToggleDead { game_id, point } => Some((CountingAct::Toggle(point), game_id)),
            FromBot::AcceptDead { game_id, dead } => Some((CountingAct::Accept(dead), game_id)),
            _ => None,
        }
    }

    /// The game action this message asks for, and its game.
    pub fn action(&self) -> Option<(Action, &str)> {
        match self {
            FromBot::Resign { game_id } => Some((Action::Resign, game_id)),
            FromBot::Draw { game_id } => Some((Action::Draw, game_id)),
            FromBot::DeclineDraw { game_id } => Some((Action::DeclineDraw, game_id)),
            FromBot::Abort { game_id } => Some((Action::Abort, game_id)),
            FromBot::ClaimVictory { game_id } => Some((Action::ClaimVictory, game_id)),
            FromBot::ResumePlay { game_id } => Some((Action::ResumePlay, game_id)),
            _ => None,
        }
    }
}

/// The bot, as `welcome` names it.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotView {
    pub id: String,
    pub name: String,
}

/// Server to bot.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ToBot {
    Welcome {
        bot: BotView,
        protocol: u32,
    },
    /// Someone wants to play; answer with `accept` or `decline` within 10 seconds, or, for a
    /// challenge by name (`POST /api/challenges`), before `expires_at`.
    Challenge {
        challenge: String,
        from: PlayerView,
        #[schema(value_type = String)]
        game: GameKind,
        #[schema(value_type = Object)]
        params: ParamsView,
        clock: Option<TimeControl>,
        /// The colour the bot would play.
        #[schema(value_type = String)]
        color: Color,
        rated: bool,
        /// For a challenge by name: when it expires (ms since the Unix epoch).
        #[serde(skip_serializing_if = "Option::is_none")]
        expires_at: Option<i64>,
    },
    /// The bot's challenge by name (`challenge-player`) is stored.
    ChallengeCreated {
        challenge: ChallengeView,
    },
    /// The bot is in the arena's pool of `game` at `clock`; its games come as `start`.
    ArenaJoined {
        #[schema(value_type = String)]
        game: GameKind,
        clock: TimeControl,
    },
    /// The bot has left the arena (its games go on).
    ArenaLeft,
    /// The bot is a player of the tournament.
    TournamentJoined {
        tournament: String,
    },
    /// The seek is taken: queued until another bot seeks a game that matches, or paired at
    /// once (`start` follows).
    Seeking,
    SeekCancelled,
    /// The game the bot challenged for exists: live at once against a house bot or an
    /// accepting bot (`start` follows), or waiting for a person to open `invite`.
    GameCreated {
        game_id: String,
        /// `/join/CODE` on the server, for an invite game.
        #[serde(skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
    },
    /// The bot the bot challenged declined (or did not answer in 10 seconds).
    ChallengeDeclined {
        opponent: String,
        reason: String,
    },
    /// A challenge put to the bot is withdrawn: the challenger stopped waiting.
    ChallengeCancelled {
        challenge: String,
    },
    /// A game of the bot's has started (or is going on, or ended while the bot was away,
    /// after a reconnection): everything about it, as lichess's `gameFull`.
    Start {
        game_id: String,
        #[schema(value_type = String)]
        game: GameKind,
        #[schema(value_type = Object)]
        params: ParamsView,
        #[schema(value_type = String)]
        color: Color,
        opponent: Option<PlayerView>,
        players: Players,
        clock: Option<TimeControl>,
        clocks: Option<ClocksView>,
        /// Moves so far; `position.moves` lists them.
        ply: usize,
        #[schema(value_type = Object)]
        position: Arc<GameView>,
        #[schema(value_type = Option<String>)]
        draw_offer: Option<Color>,
        /// Whether the game changes its players' ratings.
        rated: bool,
        /// Both players' ratings in the rule set's pool as the game starts (null for a
        /// guest; a player not yet rated at the rating it enters at).
        #[schema(value_type = Object)]
        ratings: PerColor<Option<f64>>,
        /// The tournament it is a game of.
        tournament: Option<String>,
    },
    /// A move of either side: `ply` moves have been played with it; the clocks now.
    Moved {
        game_id: String,
        ply: usize,
        #[serde(rename = "move")]
        mv: String,
        #[schema(value_type = String)]
        color: Color,
        clocks: Option<ClocksView>,
    },
    /// The standing draw offer changed: `by` the colour that offers, null when withdrawn or
    /// declined.
    DrawOffer {
        game_id: String,
        #[schema(value_type = Option<String>)]
        by: Option<Color>,
    },
    /// Two passes under `scoring_phase=agreement` have been played, or the marks changed:
    /// the dead stones marked (first the house bots' judgement), who accepts them and the
    /// result if both do. Answer with `accept-dead`, `toggle-dead` or `resume-play`.
    Counting {
        game_id: String,
        counting: CountingView,
    },
    /// The bot is to move: the position (with `legal_moves` and `moves`) and the clocks.
    YourTurn {
        game_id: String,
        ply: usize,
        #[schema(value_type = Object)]
        position: Arc<GameView>,
        clocks: Option<ClocksView>,
    },
    /// A tournament the bot plays in started, went on to its next round, finished or was
    /// cancelled: the whole of it (`GET /api/tournaments/{id}`), standings included.
    Tournament {
        #[schema(value_type = Object)]
        tournament: Box<TournamentView>,
    },
    /// The tournament the bot created: its id.
    TournamentCreated {
        tournament: String,
    },
    /// The bot's opponent in a live game has left (a person closed the game, a bot
    /// disconnected): victory may be claimed (`claim-victory`) in `claim_in_s` seconds,
    /// unless it comes back. As lichess's `opponentGone`.
    OpponentGone {
        game_id: String,
        claim_in_s: u64,
    },
    /// The opponent said gone is back.
    OpponentBack {
        game_id: String,
    },
    /// A line said in the players' room of a game the bot plays, its own included.
    Chat {
        game_id: String,
        /// The line's id.
        id: String,
        author: String,
        text: String,
        /// Milliseconds since the Unix epoch.
        at: i64,
    },
    GameOver {
        game_id: String,
        #[schema(value_type = Option<ResultSchema>)]
        result: Option<Outcome>,
        #[schema(value_type = Object)]
        position: Arc<GameView>,
        /// What the game did to each player's rating (`{"before","after"}`), null for a
        /// player whose rating it did not change (an unrated game, or one that does not
        /// count: docs/server.md, "Fair play").
        #[schema(value_type = Object)]
        rating_changes: PerColor<Option<RatingChange>>,
    },
    Error {
        #[schema(value_type = String)]
        code: &'static str,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        game_id: Option<String>,
    },
}

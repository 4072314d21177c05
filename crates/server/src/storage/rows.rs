//! What the storage layer reads and writes: one type per table row, and the writes that the
//! group-commit writer applies.

use toroid_rules::{GameKind, Outcome};

use crate::model::{GameSpec, Seat, Status, TimeControl};

/// A guest session: a name, and the hash of the cookie that proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    pub id: String,
    pub name: String,
    pub token_hash: String,
    pub created_at: i64,
    /// When the session was last used, to the hour (sessions idle for
    /// [`SESSION_IDLE_MS`](crate::hub::SESSION_IDLE_MS) expire).
    pub last_seen_at: i64,
    /// The account the session is signed in to; `None` for a guest.
    pub account_id: Option<String>,
}

impl SessionRow {
    /// Who owns what the session registers (bots): its account, or the guest session.
    pub fn owner_id(&self) -> &str {
        self.account_id.as_deref().unwrap_or(&self.id)
    }

    /// The seat of the session's person.
    pub fn seat(&self) -> Seat {
        Seat::Person {
            session: self.id.clone(),
            name: self.name.clone(),
            account: self.account_id.clone(),
        }
    }

    /// Whether the session's person sits at `seat` (through this session or another of its
    /// account).
    pub fn sits_at(&self, seat: &Seat) -> bool {
        seat.is_person(&self.id, self.account_id.as_deref())
    }
}

/// An account: a person's name, claimed with a password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: String,
    pub name: String,
    /// The name in lowercase: names are unique whatever their case.
    pub name_key: String,
    /// The argon2id hash of the password, in the PHC string format.
    pub password_hash: String,
    pub created_at: i64,
    /// `admin` or `moderator`, or none.
    pub role: Option<String>,
    /// When it was banned: it signs in no more.
    pub banned_at: Option<i64>,
}

/// A registered bot: its unique name, the session that registered it, its token's hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotRow {
    pub id: String,
    pub name: String,
    pub owner: String,
    pub token_hash: String,
    pub created_at: i64,
}

/// A bot waiting in the arena, as stored.
#[derive(Clone, Debug)]
pub struct ArenaMember {
    pub bot_id: String,
    pub name: String,
    /// Its pool: a rule set (at its defaults) and a clock.
    pub game: GameKind,
    pub clock: TimeControl,
    /// Its last arena game, over.
    pub playing: Option<String>,
    /// Whom it met last (a bot id, or `house:LEVEL`).
    pub last_opponent: Option<String>,
    /// Since when it has waited (ms since the epoch).
    pub waiting_since: i64,
}

/// A game as stored; its moves are in [`MoveRow`]s.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    /// The rule set and its parameters.
    pub spec: GameSpec,
    pub clock: Option<TimeControl>,
    /// Black's and white's seats; `None` while open.
    pub seats: [Option<Seat>; 2],
    /// The session that created the game (`None` for games between bots).
    pub creator: Option<String>,
    /// The address the creator's request came from, while the game is unfinished (for the
    /// limit on unfinished games per address).
    pub creator_address: Option<std::net::IpAddr>,
    /// The SHA-256 of an invite game's code (`ids::hash_secret`): the code itself is never
    /// stored, so a copy of the database opens no game.
    pub invite_hash: Option<String>,
    pub status: Status,
    pub result: Option<Outcome>,
    /// The clocks when the game ended, or those of a live game taken back to its start
    /// (until its next move).
    pub final_clocks: Option<[i64; 2]>,
    /// Moves played: the game's version, which every move must name (the database refuses
    /// a second move for the same ply, whichever server sends it).
    pub plies: i64,
    pub created_at: i64,
    /// When both seats were taken and the clock started.
    pub started_at: Option<i64>,
    /// When a server last took the live game over from one that died or stopped: its
    /// clock runs from then (the time between is charged to no one).
    pub resumed_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// The colour whose draw offer stands, in a live game.
    pub draw_offer: Option<toroid_rules::Color>,
    /// The colour whose takeback request stands, in a live game.
    pub takeback_offer: Option<toroid_rules::Color>,
    /// The colour whose rematch offer stands, in a finished game.
    pub rematch_offer: Option<toroid_rules::Color>,
    /// The game a finished game's rematch opened.
    pub rematch_id: Option<String>,
    /// Whether the game changes its players' ratings.
    pub rated: bool,
    /// The tournament it is a game of.
    pub tournament: Option<String>,
    /// The dead stones its players agree on after two passes (Go's `agreement`), while they
    /// do and once they have.
    pub counting: Option<crate::model::Counting>,
    /// An open game's quick-pairing key (`model::seek_key`): anyone may take its open seat
    /// without an invite code. `None` for every other game.
    pub seek: Option<String>,
}

/// Whom a challenge is to: an account or a registered bot, by id and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Challenged {
    Account {
        id: String,
        name: String,
    },
    Bot {
        id: String,
        name: String,
    },
    /// A guest, by its session (challenged while its page was open).
    Guest {
        session: String,
        name: String,
    },
}

impl Challenged {
    pub fn name(&self) -> &str {
        match self {
            Challenged::Account { name, .. }
            | Challenged::Bot { name, .. }
            | Challenged::Guest { name, .. } => name,
        }
    }

    /// Whether `seat` is this player: a person signed in to the account, the bot, or the
    /// guest's session.
    pub fn is(&self, seat: &Seat) -> bool {
        match (self, seat) {
            (Challenged::Account { id, .. }, Seat::Person { account, .. }) => {
                account.as_deref() == Some(id.as_str())
            }
            (Challenged::Bot { id, .. }, Seat::Bot { bot, .. }) => bot == id,
            (
                Challenged::Guest { session, .. },
                Seat::Person {
                    session: asker,
                    account: None,
                    ..
                },
            ) => asker == session,
            _ => false,
        }
    }

    /// A seat of this player, for the checks that take one (blocks); an account's has no
    /// session.
    pub fn seat(&self) -> Seat {
        match self {
            Challenged::Account { id, name } => Seat::Person {
                session: String::new(),
                name: name.clone(),
                account: Some(id.clone()),
            },
            Challenged::Bot { id, name } => Seat::Bot {
                bot: id.clone(),
                name: name.clone(),
            },
            Challenged::Guest { session, name } => Seat::Person {
                session: session.clone(),
                name: name.clone(),
                account: None,
            },
        }
    }
}

/// A challenge to a player by name (`hub::challenges`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    pub id: String,
    pub from: Seat,
    pub to: Challenged,
    pub spec: GameSpec,
    pub clock: Option<TimeControl>,
    /// The colour of the player challenged.
    pub color: toroid_rules::Color,
    pub rated: bool,
    /// `open`, `accepted`, `declined` or `withdrawn` (an open one past `expires_at` has
    /// expired).
    pub status: String,
    pub game_id: Option<String>,
    pub reason: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub answered_at: Option<i64>,
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    pub id: String,
    pub game_id: String,
    /// `players` or `spectators`.
    pub room: String,
    /// The name the author had.
    pub author: String,
    pub body: String,
    pub at: i64,
    /// When a moderator deleted it (nobody else sees it then).
    pub deleted_at: Option<i64>,
}

/// A player's report of another player, or of a line they said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    pub id: String,
    /// Who made it: an account's id, or a guest's session id (`SessionRow::owner_id`).
    pub reporter: String,
    pub reporter_name: String,
    /// The reported player's name, and its key.
    pub player: String,
    pub player_key: String,
    /// The chat line it is about, if any.
    pub chat_id: Option<String>,
    pub reason: String,
    pub at: i64,
    /// When a moderator dealt with it, and who (an account's name).
    pub resolved_at: Option<i64>,
    pub resolved_by: Option<String>,
}

/// A player's rating in a pool, and how many rated games it rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// `account:ID`, `bot:ID` or `house:LEVEL` (`Seat::rated_player`).
    pub player: String,
    /// The rule set.
    pub pool: GameKind,
    /// The player's name when last rated.
    pub name: String,
    pub rating: crate::rating::Rating,
    pub games: i64,
    pub updated_at: i64,
}

/// A puzzle mined from a finished game (`hub::puzzles`): a position where exactly one move
/// wins or saves the game.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    pub id: String,
    pub spec: GameSpec,
    /// The moves from the start to the puzzle's position, named.
    pub moves: Vec<String>,
    /// The position's hash: a position is one puzzle, whichever games reach it.
    pub position: u64,
    pub goal: toroid_search::puzzle::Goal,
    pub answer: String,
    /// The plies to the win with best play (0 for a save).
    pub plies: i64,
    /// The game it comes from, and the moves played before it there.
    pub game_id: String,
    pub ply: i64,
    pub rating: crate::rating::Rating,
    pub attempts: i64,
    pub solved: i64,
    pub created_at: i64,
}

/// One move of a game: its 0-based ply, its notation, and the clocks after it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MoveRow {
    pub game_id: String,
    pub ply: i64,
    pub notation: String,
    pub clocks: Option<[i64; 2]>,
    pub at: i64,
}

/// One change to the database. A batch of writes commits together or not at all.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    Session(SessionRow),
    /// A session was used at `at`.
    SessionSeen {
        id: String,
        at: i64,
    },
    /// A session signed out or expired: its cookie no longer opens it.
    EndSession {
        id: String,
    },
    Account(AccountRow),
    /// Guest session `session` claimed its name: it is signed in to account `account`,
    /// under the account's name, its bots are the account's, and its cookie is a new one
    /// (whose hash is `token_hash`: a cookie planted before the claim opens nothing).
    ClaimName {
        session: String,
        account: String,
        name: String,
        token_hash: String,
    },
    /// Account `account` signed in (or was created) at `at` from the address whose hash is
    /// `address_hash`.
    SignedInFrom {
        account: String,
        address_hash: String,
        at: i64,
    },
    /// Account `account` gets the role `role` (none: none).
    SetRole {
        account: String,
        role: Option<String>,
    },
    /// Account `account` is banned at `at` (its sessions end, its bots' tokens stop
    /// opening them), or unbanned (`None`).
    Ban {
        account: String,
        at: Option<i64>,
    },
    /// Account `account`'s password is replaced: its sessions end, but for `keep` (the one
    /// that changed it).
    SetPassword {
        account: String,
        password_hash: String,
        keep: Option<String>,
    },
    /// A moderator deleted chat line `id` at `at`.
    DeleteChat {
        id: String,
        at: i64,
    },
    /// A moderator took game `game_id` off the lists at `at`.
    HideGame {
        game_id: String,
        at: i64,
    },
    Report(ReportRow),
    /// A moderator (named `by`) dealt with report `id` at `at`.
    ResolveReport {
        id: String,
        by: String,
        at: i64,
    },
    /// `blocker` (`SessionRow::owner_id`) blocks the player whose name is `name` (from
    /// `at`), or unblocks them (`at` is `None`).
    Block {
        blocker: String,
        name: String,
        at: Option<i64>,
    },
    /// The site's setting `name` is `value`.
    Setting {
        name: &'static str,
        value: String,
    },
    Bot(BotRow),
    /// A bot's token was replaced: the old one no longer opens its WebSocket.
    BotToken {
        id: String,
        token_hash: String,
    },
    /// A bot is deleted; its name stays held (retired), never another's.
    DeleteBot {
        id: String,
    },
    /// A new game (boxed: it is much larger than the other writes).
    Game(Box<GameRow>),
    /// The open seat of a waiting game is taken at `at`: the game goes live.
    Seat {
        game_id: String,
        color: toroid_rules::Color,
        seat: Seat,
        at: i64,
    },
    /// A waiting game's invite code was replaced: the old one no longer opens it.
    NewInvite {
        game_id: String,
        invite_hash: String,
    },
    Move(MoveRow),
    /// A game at `plies` moves gets (or loses) a standing offer (a draw or takeback in a
    /// live game, a rematch in a finished one).
    Offer {
        game_id: String,
        plies: i64,
        offer: crate::model::Offer,
        by: Option<toroid_rules::Color>,
    },
    /// A new challenge.
    Challenge(Box<ChallengeRow>),
    /// Open challenge `id`, not expired at `at`, becomes `status` (`accepted` with the game
    /// it opened, `declined` or `withdrawn` with a reason); refused with
    /// `StorageError::ChallengeChanged` if it is no longer open.
    CloseChallenge {
        id: String,
        status: &'static str,
        game_id: Option<String>,
        reason: Option<String>,
        at: i64,
    },
    /// The dead stones of a live game at `plies` moves change from `before` to `after`
    /// (stored JSON; `None`: no agreement under way).
    Counting {
        game_id: String,
        plies: i64,
        before: Option<String>,
        after: Option<String>,
    },
    /// A live game at `plies` moves goes back to its first `keep` moves, agreed at `at`
    /// (its clock runs from then, showing `clocks`: a takeback gives back no time); its
    /// standing offers lapse.
    Takeback {
        game_id: String,
        plies: i64,
        keep: i64,
        clocks: Option<[i64; 2]>,
        at: i64,
    },
    /// Finished game `game_id` led to the rematch `next`.
    Rematch {
        game_id: String,
        next: String,
    },
    Chat(ChatRow),
    /// A rated game changed a player's rating from `before` to `row.rating`; stored only if
    /// the player still has the `row.games - 1` rated games it had when it was worked out
    /// (another game's rating, on this server or another, may have come first).
    Rating {
        row: RatingRow,
        before: crate::rating::Rating,
        game_id: String,
    },
    /// A tournament's state, stored whole (`crate::hub::tournaments::Tournament` as JSON):
    /// a new one (`read_at` is `None`), or a change of the one stored at version `read_at`,
    /// refused with `StorageError::TournamentChanged` if another change came first.
    Tournament {
        id: String,
        state: String,
        status: &'static str,
        created_at: i64,
        read_at: Option<i64>,
    },
    /// Bot `bot_id` joins the arena's pool of rule set `game` at `clock` (leaving any other),
    /// through `node` until `until_ms`, waiting from `at`.
    ArenaJoin {
        bot_id: String,
        game: GameKind,
        clock: TimeControl,
        node: String,
        until_ms: i64,
        at: i64,
    },
    /// Bot `bot_id` (or every bot, if `None`) connected through `node` leaves the arena.
    ArenaLeave {
        bot_id: Option<String>,
        node: String,
    },
    /// `node` still holds its arena bots' connections, until `until_ms`.
    ArenaRenew {
        node: String,
        until_ms: i64,
    },
    /// Bot `bot_id`, waiting in pool (`game`, `clock`) after its game `was_playing`, plays
    /// arena game `game_id` against `opponent` (a bot id, or `house:LEVEL`); refused with
    /// `StorageError::ArenaChanged` if the bot is no longer waiting there.
    ArenaGame {
        bot_id: String,
        game: GameKind,
        clock: TimeControl,
        was_playing: Option<String>,
        game_id: String,
        opponent: String,
    },
    /// Bot `id` was told of its games' ends until `at` (on connecting), or left at `at`.
    BotSeen {
        id: String,
        at: i64,
    },
    /// A server takes live game `game_id` over at `at` (`GameRow::resumed_at`).
    Resume {
        game_id: String,
        at: i64,
    },
    Finish {
        game_id: String,
        result: Outcome,
        clocks: Option<[i64; 2]>,
        at: i64,
    },
    /// `follower` follows the player `name` since `at`, or (`None`) no longer does.
    Follow {
        follower: String,
        name: String,
        at: Option<i64>,
    },
    /// Session `session` had a page open at `at`.
    Online {
        session: String,
        at: i64,
    },
    /// Starts the review of game `game_id` for `owner` (a task's token): a new row, or one
    /// whose owner stopped writing before `stale_before` (`ReviewTaken` otherwise).
    ReviewStart {
        game_id: String,
        owner: String,
        total: i64,
        at: i64,
        stale_before: i64,
    },
    /// The review of game `game_id` so far (`points`, a JSON array), by its `owner`
    /// (`ReviewTaken` if another task took it over); `status` `running`, `done` or `failed`.
    ReviewSave {
        game_id: String,
        owner: String,
        status: &'static str,
        points: String,
        at: i64,
    },
    /// Finished game `game_id`'s positions were searched for puzzles at `at` (`Outdated`
    /// if another task did it first).
    PuzzlesMined {
        game_id: String,
        at: i64,
    },
    /// A new puzzle; nothing if its position is a puzzle already.
    Puzzle(PuzzleRow),
    /// Account `account_id` tried puzzle `puzzle_id` at `at` (`PuzzleTried` if it had).
    PuzzleAttempt {
        account_id: String,
        puzzle_id: String,
        solved: bool,
        at: i64,
    },
    /// Account `account_id`'s puzzle rating in `pool` after its `attempts`-th rated attempt
    /// (`RatingChanged` if another attempt came between).
    PuzzleRating {
        account_id: String,
        pool: GameKind,
        rating: crate::rating::Rating,
        attempts: i64,
        at: i64,
    },
    /// Puzzle `puzzle_id`'s rating after its `attempts`-th rated attempt, solved or not
    /// (`RatingChanged` if another attempt came between).
    PuzzleScore {
        puzzle_id: String,
        rating: crate::rating::Rating,
        attempts: i64,
        solved: bool,
    },
    /// A waiting game withdrawn by its creator: finished with `result` while still waiting
    /// (a conflict once someone took its open seat).
    Withdraw {
        game_id: String,
        result: Outcome,
        at: i64,
    },
}

impl Write {
    /// The game a write changes, if it changes one.
    pub fn game_id(&self) -> Option<&str> {
        match self {
            Write::Game(g) => Some(&g.id),
            Write::Seat { game_id, .. }
            | Write::NewInvite { game_id, .. }
            | Write::Resume { game_id, .. }
            | Write::Offer { game_id, .. }
            | Write::Counting { game_id, .. }
            | Write::Takeback { game_id, .. }
            | Write::Rematch { game_id, .. }
            | Write::Finish { game_id, .. }
            | Write::Withdraw { game_id, .. } => Some(game_id),
            Write::Move(m) => Some(&m.game_id),
            Write::Session(_)
            | Write::SessionSeen { .. }
            | Write::EndSession { .. }
            | Write::Account(_)
            | Write::ClaimName { .. }
            | Write::SignedInFrom { .. }
            | Write::SetRole { .. }
            | Write::Ban { .. }
            | Write::SetPassword { .. }
            | Write::Setting { .. }
            | Write::DeleteChat { .. }
            | Write::HideGame { .. }
            | Write::Report(_)
            | Write::Challenge(_)
            | Write::Follow { .. }
            | Write::Online { .. }
            | Write::ReviewStart { .. }
            | Write::ReviewSave { .. }
            | Write::PuzzlesMined { .. }
            | Write::Puzzle(_)
            | Write::PuzzleAttempt { .. }
            | Write::PuzzleRating { .. }
            | Write::PuzzleScore { .. }
            | Write::CloseChallenge { .. }
            | Write::ResolveReport { .. }
            | Write::Block { .. }
            | Write::Rating { .. }
            | Write::Tournament { .. }
            | Write::ArenaJoin { .. }
            | Write::ArenaLeave { .. }
            | Write::ArenaRenew { .. }
            | Write::ArenaGame { .. }
            | Write::Bot(_)
            | Write::BotToken { .. }
            | Write::BotSeen { .. }
            | Write::Chat(_)
            | Write::DeleteBot { .. } => None,
        }
    }
}

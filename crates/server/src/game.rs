//! One game in memory: the position, the seats, the clocks and the result, and the changes
//! that moves, resignations, joins and time-outs make. A change is prepared first (checked,
//! with the writes that store it), committed to storage, and only then applied, so a refused
//! or failed change leaves the game as it was.

use std::sync::Arc;
use std::time::{Duration, Instant};

use toroid_protocol::record::Record;
use toroid_protocol::view::{GameView, HistoryView, ParamsView, PerColor};
use toroid_rules::{
    AnyGame, Cell, Color, EndPhase, Move, Outcome, ParseMoveError, Position, Reason,
};

use crate::api::{ClocksView, CountingView, GameState, PlayerView, Players};
use crate::clock::Clock;
use crate::error::ApiError;
use crate::ids::{hash_secret, new_secret, now_ms};
use crate::model::{Counting, GameSpec, Offer, Seat, Status};
use crate::storage::{GameRow, MoveRow, StorageError, Write};

/// Who asks to act: a guest session, a registered bot, or the program playing a colour (a
/// house bot).
#[derive(Copy, Clone, Debug)]
pub enum Actor<'a> {
    Session(&'a str),
    Bot(&'a str),
    Seat(Color),
}

/// Why a game refuses an action: the game's own reasons, which the HTTP layer maps to a
/// status and a code (`From<GameError> for ApiError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("you are not a player of this game")]
    NotAPlayer,
    #[error("it is {0}'s turn")]
    NotYourTurn(Color),
    #[error("the game is at ply {current}, not {sent}: the move was meant for a position that has changed")]
    StalePly { current: usize, sent: u64 },
    #[error("'{0}' is not a move: a move is a point (two letters, column then row, like 'ee'), 'pass' or 'end'")]
    NotAMove(String),
    #[error("'{0}' is off the board")]
    OffBoard(String),
    #[error("'{notation}': {reason}")]
    Illegal {
        notation: String,
        reason: toroid_rules::IllegalMove,
    },
    #[error("the game is over")]
    GameOver,
    #[error("the game has not started: it waits for its second player")]
    NotStarted,
    #[error("no such invite")]
    NoSuchInvite,
    #[error("the game has already started: its seats are taken")]
    AlreadyStarted,
    #[error("you already play this game: send the invite to your opponent")]
    AlreadyPlaying,
    #[error(
        "both sides have moved: a game can be aborted only before that (resign, or offer a draw)"
    )]
    TooLateToAbort,
    #[error("a tournament's game counts: it cannot be aborted (resign, or offer a draw)")]
    TournamentAbort,
    #[error("there is no {} offer to decline", offer_name(*.0))]
    NoOffer(Offer),
    #[error("takebacks are for casual games between people or against a house bot: {0}")]
    NoTakebacks(&'static str),
    #[error("you have made no move to take back")]
    NothingToTakeBack,
    #[error("a rematch is offered once the game is over, between two people")]
    NoRematch,
    #[error("this game's rematch has started already")]
    RematchStarted,
    #[error(
        "the players are agreeing on the dead stones: accept them, mark others, or resume play"
    )]
    Counting,
    #[error("the players are not agreeing on dead stones: that comes after two passes in a game whose scoring phase is 'agreement'")]
    NotCounting,
    #[error("the dead stones have changed since you saw them: accept the ones marked now")]
    StaleCounting,
    #[error("'{0}' holds no stone")]
    NoStone(String),
    #[error("your opponent has not left: victory can be claimed only against a registered bot disconnected for {}s", .0.as_secs())]
    OpponentPresent(Duration),
}

/// What a rematch request does: stands as an offer, or (accepting the opponent's) opens the
/// new game between these seats, the colours swapped.
#[derive(Debug)]
pub enum RematchStep {
    // Boxed: a change is far larger than two seats.
    Offer(Box<Change>),
    Open([Option<Seat>; 2]),
}

/// A move as it reaches a game: as text from a client, read against the game's board, or as
/// a move from a house bot, which is never written out and read back.
#[derive(Copy, Clone, Debug)]
pub enum MoveInput<'a> {
    Text(&'a str),
    Move(Move),
}

/// What a player does while the players agree on the dead stones.
#[derive(Clone, Debug)]
pub enum CountingAct<'a> {
    /// Marks the chain on this point dead, or alive again if it is marked.
    Toggle(&'a str),
    /// Accepts the dead stones marked, which must be these (in any order).
    Accept(&'a [String]),
    /// Disputes them: play goes on, and the stones captured until the next two passes
    /// count as dead (cleanup).
    Resume,
}

/// An offer in words.
fn offer_name(offer: Offer) -> &'static str {
    match offer {
        Offer::Draw => "draw",
        Offer::Takeback => "takeback",
        Offer::Rematch => "rematch",
    }
}

impl Change {
    /// How the game ends with this change, if it does.
    pub fn ending(&self) -> Option<Outcome> {
        self.end
    }

    /// Sets the standing `offer` of game `game_id`, at `plies` moves, to `by`.
    fn set_offer(&mut self, game_id: &str, plies: i64, offer: Offer, by: Option<Color>) {
        self.offers.push((offer, by));
        self.writes.push(Write::Offer {
            game_id: game_id.to_string(),
            plies,
            offer,
            by,
        });
    }

    /// A change at `at` that changes nothing yet.
    fn at(at: i64) -> Change {
        Change {
            played: None,
            rewind: None,
            clock: None,
            seat: None,
            offers: Vec::new(),
            rematch: None,
            counting: None,
            end: None,
            at,
            writes: Vec::new(),
        }
    }
}

impl Actor<'_> {
    /// The session to show the result to, if a person acts.
    pub fn viewer(&self) -> Option<&str> {
        match self {
            Actor::Session(id) => Some(id),
            Actor::Bot(_) | Actor::Seat(_) => None,
        }
    }
}

/// A checked change to a game and the writes that store it.
#[derive(Debug)]
pub struct Change {
    played: Option<(AnyGame, Color, Move)>,
    /// A takeback: the position after the first `n` moves, and `n`.
    rewind: Option<(AnyGame, usize)>,
    clock: Option<Clock>,
    seat: Option<(Color, Seat)>,
    /// The standing offers that change, and the colour offering after the change.
    offers: Vec<(Offer, Option<Color>)>,
    /// The game a rematch opened.
    rematch: Option<String>,
    /// The agreement on dead stones after the change (`Some(None)`: none under way).
    counting: Option<Option<Counting>>,
    end: Option<Outcome>,
    at: i64,
    pub writes: Vec<Write>,
}

/// How long each player of a clocked game has for a first move, from the moment their clock
/// starts, before the game is aborted without a result.
pub const FIRST_MOVE_WAIT: Duration = Duration::from_secs(30);

#[derive(Clone, Debug)]
pub struct Game {
    pub id: String,
    pub position: AnyGame,
    /// Every move so far, with the player who made it.
    pub moves: Vec<(Color, Move)>,
    view: Arc<GameView>,
    pub seats: [Option<Seat>; 2],
    pub clock: Option<Clock>,
    pub status: Status,
    pub result: Option<Outcome>,
    pub creator: Option<String>,
    /// The address its creator asked from, while it is unfinished.
    pub creator_address: Option<std::net::IpAddr>,
    /// The stored hash of a waiting game's invite code.
    pub invite_hash: Option<String>,
    /// The code itself, known only to the server that made it (never stored): the
    /// creator's link until a restart, after which the creator asks for a new one.
    pub invite_code: Option<String>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// When it last changed (created, joined, a move), in milliseconds since the epoch.
    pub last_change_at: i64,
    /// The colour whose draw offer stands: the opponent accepts it by offering too, and
    /// declines it by moving (or saying so).
    pub draw_offer: Option<Color>,
    /// The colour whose takeback request stands: the opponent accepts it by asking too, and
    /// declines it by saying so; any move withdraws it.
    pub takeback_offer: Option<Color>,
    /// In a finished game, the colour whose rematch offer stands.
    pub rematch_offer: Option<Color>,
    /// In a finished game, the game its rematch opened.
    pub rematch: Option<String>,
    /// Whether its end changes the players' ratings.
    pub rated: bool,
    /// The tournament it is a game of: it cannot be aborted, and a player who never makes
    /// a first move loses it.
    pub tournament: Option<String>,
    /// The dead stones its players agree on after two passes (`scoring_phase=agreement`):
    /// while they do, no clock runs and no move is played; kept once they have.
    pub counting: Option<Counting>,
    /// An open game's quick-pairing key: anyone may take its open seat, without a code.
    pub seek: Option<String>,
}

/// When a restored game's running clock runs from.
#[derive(Copy, Clone, Debug)]
pub enum Resume {
    /// From this instant: the time since the last stored change is charged to no one (a
    /// restart, or another server taking over the game of one that died).
    At(Instant),
    /// As if it had run all along: another server, which runs the game now, stored the last
    /// change (or took the game over, `GameRow::resumed_at`).
    AsStored,
}

/// Plays stored move `m` on `position`: the colour that made it and the move, or why it
/// cannot be played there.
fn play_stored(position: &mut AnyGame, m: &MoveRow) -> Result<(Color, Move), String> {
    let mv = Move::parse(&m.notation, position.topology())
        .map_err(|e| format!("move {}: {e:?}", m.ply))?;
    let mover = (position.turn()).ok_or_else(|| format!("move {} after the end", m.ply))?;
    (position.play(mv)).map_err(|e| format!("move {} '{}': {e}", m.ply, m.notation))?;
    Ok((mover, mv))
}

/// The instant of this process's clock that was `at` (ms since the epoch), or now if it is
/// in the future or before the process's clock began.
fn instant_at(at: i64) -> Instant {
    let ago = Duration::from_millis((now_ms() - at).max(0) as u64);
    Instant::now().checked_sub(ago).unwrap_or_else(Instant::now)
}

impl Game {
    /// A stored game with its moves replayed (a new game is a row without moves), its clock
    /// running as `resume` says.
    pub fn restore(row: GameRow, moves: &[MoveRow], resume: Resume) -> Result<Game, StorageError> {
        let corrupt = |what: String| StorageError::Corrupt(format!("game {}: {what}", row.id));
        let mut position = row.spec.start();
        if moves.len() as i64 != row.plies {
            return Err(corrupt(format!(
                "it counts {} moves, {} are stored",
                row.plies,
                moves.len()
            )));
        }
        let mut played = Vec::with_capacity(moves.len());
        for m in moves {
            played.push(play_stored(&mut position, m).map_err(corrupt)?);
        }
        let last_change_at = (moves.last().map(|m| m.at))
            .or(row.started_at)
            .unwrap_or(row.created_at);
        let clock_from = match resume {
            Resume::At(now) => now,
            Resume::AsStored => instant_at(
                row.resumed_at
                    .map_or(last_change_at, |r| r.max(last_change_at)),
            ),
        };
        let remaining = row
            .final_clocks
            .or_else(|| moves.last().and_then(|m| m.clocks));
        let clock = row.clock.map(|control| match remaining {
            Some(left) => Clock::resume(control, left),
            None => Clock::new(control),
        });
        let mut game = Game {
            id: row.id,
            view: Arc::new(GameView::new(&position, &played)),
            position,
            moves: played,
            seats: row.seats,
            clock,
            status: row.status,
            result: row.result,
            creator: row.creator,
            creator_address: row.creator_address,
            invite_hash: row.invite_hash,
            invite_code: None,
            last_change_at,
            created_at: row.created_at,
            finished_at: row.finished_at,
            draw_offer: row.draw_offer,
            takeback_offer: row.takeback_offer,
            rematch_offer: row.rematch_offer,
            rematch: row.rematch_id,
            rated: row.rated,
            tournament: row.tournament,
            counting: row.counting,
            seek: row.seek,
        };
        game.start_clock(clock_from);
        Ok(game)
    }

    /// Applies move `m`, which another node stored, if it is this copy's next move in a live
    /// game: the game as a reload would make it, without reading it again. Whether it did
    /// (if not, the copy is to be reloaded).
    pub fn follow_move(&mut self, m: &MoveRow) -> bool {
        if m.game_id != self.id || self.status != Status::Live || m.ply != self.moves.len() as i64 {
            return false;
        }
        let mut position = self.position.clone();
        let Ok(played) = play_stored(&mut position, m) else {
            return false;
        };
        self.position = position;
        self.moves.push(played);
        self.view = Arc::new(GameView::new(&self.position, &self.moves));
        self.last_change_at = m.at;
        if let (Some(clock), Some(left)) = (self.clock.as_mut(), m.clocks) {
            *clock = Clock::resume(clock.control, left);
        }
        self.start_clock(instant_at(m.at));
        true
    }

    /// Runs the clock of the player to move, if the game is live and its players are not
    /// agreeing on dead stones.
    fn start_clock(&mut self, now: Instant) {
        if let (Status::Live, None, Some(clock), Some(turn)) = (
            self.status,
            &self.counting,
            self.clock.as_mut(),
            self.position.turn(),
        ) {
            clock.start(turn, now);
        }
    }

    /// The colours `actor` plays.
    pub fn colors_of(&self, actor: Actor) -> Vec<Color> {
        Color::BOTH
            .into_iter()
            .filter(|c| {
                let seat = self.seats[c.index()].as_ref();
                match actor {
                    Actor::Seat(color) => color == *c,
                    Actor::Session(id) => seat.is_some_and(|s| s.is_session(id)),
                    Actor::Bot(id) => seat.is_some_and(|s| s.is_bot(id)),
                }
            })
            .collect()
    }

    /// The colour `session` plays, if any.
    pub fn color_of(&self, session: &str) -> Option<Color> {
        self.colors_of(Actor::Session(session)).first().copied()
    }

    /// Whether `viewer` (a session id) may see an analysis of this game now, as on lichess:
    /// anyone once it is over; while it is played, only a person who plays a house bot (a
    /// teaching aid), never a spectator nor a player against another person or bot.
    pub fn analysis_open_to(&self, viewer: Option<&str>) -> bool {
        if self.status == Status::Finished {
            return true;
        }
        // Engine help in a game that changes ratings is cheating, whoever the opponent.
        if self.rated {
            return false;
        }
        let Some(color) = viewer.and_then(|v| self.color_of(v)) else {
            return false;
        };
        matches!(
            self.seats[color.opponent().index()],
            Some(Seat::House { .. })
        )
    }

    /// A new invite code for this waiting game, asked by its creator `session`: the write
    /// that stores its hash, and the code. The old code stops working once it is applied.
    pub fn prepare_new_invite(&self, session: &str) -> Result<(Write, String), GameError> {
        if self.creator.as_deref() != Some(session) {
            return Err(GameError::NotAPlayer);
        }
        if self.status != Status::Waiting {
            return Err(GameError::AlreadyStarted);
        }
        let code = new_secret();
        let write = Write::NewInvite {
            game_id: self.id.clone(),
            invite_hash: hash_secret(&code),
        };
        Ok((write, code))
    }

    /// Replaces the invite code (after its write is stored).
    pub fn set_invite(&mut self, code: String) {
        self.invite_hash = Some(hash_secret(&code));
        self.invite_code = Some(code);
    }

    /// Takes back the invite code another server made (a node of a cluster keeps it in
    /// Redis), if it is the one whose hash is stored.
    pub fn recall_invite(&mut self, code: String) {
        if self.invite_hash.as_deref() == Some(hash_secret(&code).as_str()) {
            self.invite_code = Some(code);
        }
    }

    /// The colours `actor` plays in a live game, or why it may not act.
    fn check_player(&self, actor: Actor) -> Result<Vec<Color>, GameError> {
        let colors = self.colors_of(actor);
        if colors.is_empty() {
            return Err(GameError::NotAPlayer);
        }
        match self.status {
            Status::Finished => Err(GameError::GameOver),
            Status::Waiting => Err(GameError::NotStarted),
            Status::Live => Ok(colors),
        }
    }

    /// `actor` plays `input` believing the game is at `ply`.
    pub fn prepare_move(
        &self,
        actor: Actor,
        ply: u64,
        input: MoveInput,
        now: Instant,
        at: i64,
    ) -> Result<Change, GameError> {
        let colors = self.check_player(actor)?;
        if self.counting.is_some() {
            return Err(GameError::Counting);
        }
        if ply != self.moves.len() as u64 {
            return Err(GameError::StalePly {
                current: self.moves.len(),
                sent: ply,
            });
        }
        let turn = self.position.turn().ok_or(GameError::GameOver)?;
        if !colors.contains(&turn) {
            return Err(GameError::NotYourTurn(turn));
        }
        let mv = match input {
            MoveInput::Move(mv) => mv,
            MoveInput::Text(text) => self.read_move(text)?,
        };
        let mut position = self.position.clone();
        position.play(mv).map_err(|reason| GameError::Illegal {
            notation: mv.notation(self.position.topology()).to_string(),
            reason,
        })?;
        // Two passes under `agreement` stop the clocks: the players agree on the dead stones
        // that the house bots' judgement proposes.
        let counting = (position.end_phase() == EndPhase::Counting)
            .then(|| Counting::proposed(&toroid_search::ownership::house_judgement(&position)));
        let next = position.turn().filter(|_| counting.is_none());
        let clock = match self.clock.map(|c| c.after_move(now, next)) {
            // The flag fell before the move came: the referee ends the game on time.
            Some(Err(_)) => return Err(GameError::GameOver),
            Some(Ok(clock)) => Some(clock),
            None => None,
        };
        let end = position.outcome();
        let row = MoveRow {
            game_id: self.id.clone(),
            ply: self.moves.len() as i64,
            notation: mv.notation(position.topology()).to_string(),
            clocks: clock.map(|c| c.left(now)),
            at,
        };
        let mut writes = vec![Write::Move(row)];
        if let Some(counting) = &counting {
            writes.push(self.counting_write(self.moves.len() as i64 + 1, None, Some(counting)));
        }
        let mut change = Change {
            played: Some((position, turn, mv)),
            clock,
            counting: counting.map(Some),
            writes,
            ..Change::at(at)
        };
        // Moving declines the opponent's draw offer (the mover's own stands), and withdraws
        // any takeback request: the position it was about has changed.
        let plies = self.moves.len() as i64 + 1;
        if self.draw_offer == Some(turn.opponent()) {
            change.set_offer(&self.id, plies, Offer::Draw, None);
        }
        if self.takeback_offer.is_some() {
            change.set_offer(&self.id, plies, Offer::Takeback, None);
        }
        if let Some(end) = end {
            self.finish(&mut change, end, now);
        }
        Ok(change)
    }

    /// The write that changes the dead stones agreed on at `plies` moves from `before` to
    /// `after`.
    fn counting_write(
        &self,
        plies: i64,
        before: Option<&Counting>,
        after: Option<&Counting>,
    ) -> Write {
        Write::Counting {
            game_id: self.id.clone(),
            plies,
            before: before.map(Counting::stored),
            after: after.map(Counting::stored),
        }
    }

    /// `actor` marks, accepts or disputes the dead stones while the players agree on them.
    /// Both accepting ends the game, scored with the marked stones taken off.
    pub fn prepare_counting(
        &self,
        actor: Actor,
        act: CountingAct,
        now: Instant,
        at: i64,
    ) -> Result<Change, GameError> {
        let colors = self.check_player(actor)?;
        let counting = self.counting.as_ref().ok_or(GameError::NotCounting)?;
        let after = match act {
            CountingAct::Toggle(point) => {
                let chain = self.position.chain(self.read_point(point)?);
                if chain.is_empty() {
                    return Err(GameError::NoStone(point.to_string()));
                }
                Some(counting.toggled(&chain))
            }
            CountingAct::Accept(dead) => {
                let dead = (dead.iter())
                    .map(|p| self.read_point(p))
                    .collect::<Result<Vec<Cell>, _>>()?;
                if !counting.marks(&dead) {
                    return Err(GameError::StaleCounting);
                }
                Some(counting.accepted_by(&colors))
            }
            CountingAct::Resume => None,
        };
        let plies = self.moves.len() as i64;
        let mut change = Change {
            writes: vec![self.counting_write(plies, Some(counting), after.as_ref())],
            ..Change::at(at)
        };
        match &after {
            Some(agreed) if agreed.agreed() => {
                let end = (self.position.outcome_with_dead(&agreed.dead()))
                    .expect("a game whose players agree on dead stones counts them");
                self.finish(&mut change, end, now);
            }
            Some(_) => {}
            None => {
                // Play goes on: the clock of the player to move runs again.
                let mut clock = self.clock;
                if let (Some(clock), Some(turn)) = (clock.as_mut(), self.position.turn()) {
                    clock.start(turn, now);
                }
                change.clock = clock;
            }
        }
        change.counting = Some(after);
        Ok(change)
    }

    /// Adds the end of the game to `change`: the clocks stop and the result is stored.
    fn finish(&self, change: &mut Change, end: Outcome, now: Instant) {
        let mut clock = change.clock.or(self.clock);
        if let Some(clock) = clock.as_mut() {
            clock.stop(now);
        }
        change.clock = clock;
        change.writes.push(Write::Finish {
            game_id: self.id.clone(),
            result: end,
            clocks: clock.map(|c| c.left(now).map(|ms| ms.max(0))),
            at: change.at,
        });
        change.end = Some(end);
    }

    fn ending(&self, end: Outcome, now: Instant, at: i64) -> Change {
        let mut change = Change::at(at);
        self.finish(&mut change, end, now);
        change
    }

    /// The colour `actor` plays in a live game (the one to move, if it plays both).
    fn own_color(&self, actor: Actor) -> Result<Color, GameError> {
        let colors = self.check_player(actor)?;
        Ok(self
            .position
            .turn()
            .filter(|t| colors.contains(t))
            .unwrap_or(colors[0]))
    }

    /// `actor` offers a draw, or accepts the opponent's offer (the game ends drawn by
    /// agreement). Offering again changes nothing.
    pub fn prepare_draw(&self, actor: Actor, now: Instant, at: i64) -> Result<Change, GameError> {
        let color = self.own_color(actor)?;
        if self.draw_offer == Some(color.opponent()) {
            return Ok(self.ending(Outcome::draw(Reason::Agreement), now, at));
        }
        Ok(self.offering(Offer::Draw, Some(color), at))
    }

    /// The colour whose `offer` stands.
    fn offer(&self, offer: Offer) -> Option<Color> {
        match offer {
            Offer::Draw => self.draw_offer,
            Offer::Takeback => self.takeback_offer,
            Offer::Rematch => self.rematch_offer,
        }
    }

    /// `actor` declines the opponent's `offer`, or withdraws its own.
    pub fn prepare_decline(
        &self,
        actor: Actor,
        offer: Offer,
        at: i64,
    ) -> Result<Change, GameError> {
        match offer {
            Offer::Rematch => self.rematch_player(actor).map(|_| ())?,
            Offer::Draw | Offer::Takeback => self.own_color(actor).map(|_| ())?,
        }
        match self.offer(offer) {
            Some(_) => Ok(self.offering(offer, None, at)),
            None => Err(GameError::NoOffer(offer)),
        }
    }

    fn offering(&self, offer: Offer, by: Option<Color>, at: i64) -> Change {
        let mut change = Change::at(at);
        if by != self.offer(offer) {
            change.set_offer(&self.id, self.moves.len() as i64, offer, by);
        }
        change
    }

    /// Why takebacks are refused in this game, if they are: rated games, and games with a
    /// registered bot (bots, as on lichess, do not take moves back).
    pub fn no_takebacks(&self) -> Option<&'static str> {
        if self.rated {
            return Some("this game is rated");
        }
        (self.seats.iter().flatten())
            .any(|seat| seat.bot_id().is_some())
            .then_some("a registered bot plays this game")
    }

    /// `actor` asks to take back its last turn (and any reply to it), or accepts the
    /// opponent's request. A house bot accepts at once. A takeback gives back no time: each
    /// clock keeps what it shows at `now`, and the clock of the player to move runs on.
    pub fn prepare_takeback(
        &self,
        actor: Actor,
        now: Instant,
        at: i64,
    ) -> Result<Change, GameError> {
        let color = self.own_color(actor)?;
        if let Some(why) = self.no_takebacks() {
            return Err(GameError::NoTakebacks(why));
        }
        let opponent = color.opponent();
        let house = matches!(self.seats[opponent.index()], Some(Seat::House { .. }));
        let asker = match self.takeback_offer {
            Some(by) if by == opponent => opponent,
            _ if house => color,
            _ => {
                self.takeback_point(color)
                    .ok_or(GameError::NothingToTakeBack)?;
                return Ok(self.offering(Offer::Takeback, Some(color), at));
            }
        };
        let keep = self
            .takeback_point(asker)
            .ok_or(GameError::NothingToTakeBack)?;
        let mut position = self.start_position();
        for &(_, mv) in &self.moves[..keep] {
            position
                .play(mv)
                .expect("the moves were legal when they were played");
        }
        let clock = self.clock.map(|clock| {
            let mut clock = Clock::resume(clock.control, clock.left(now));
            if let Some(turn) = position.turn() {
                clock.start(turn, now);
            }
            clock
        });
        Ok(Change {
            rewind: Some((position, keep)),
            clock,
            offers: vec![(Offer::Draw, None), (Offer::Takeback, None)],
            writes: vec![Write::Takeback {
                game_id: self.id.clone(),
                plies: self.moves.len() as i64,
                keep: keep as i64,
                clocks: clock.map(|clock| clock.left(now)),
                at,
            }],
            ..Change::at(at)
        })
    }

    /// How many moves stay when `color` takes back its last turn and any reply to it (a
    /// CTOR turn's placements go together); `None` if it has not moved.
    fn takeback_point(&self, color: Color) -> Option<usize> {
        let mine = self.moves.iter().rposition(|&(mover, _)| mover == color)?;
        let turn_start = self.moves[..mine]
            .iter()
            .rposition(|&(mover, _)| mover != color)
            .map_or(0, |i| i + 1);
        Some(turn_start)
    }

    /// The colour `actor` played in a finished game between two people, who may offer a
    /// rematch.
    fn rematch_player(&self, actor: Actor) -> Result<Color, GameError> {
        let people = (self.seats.iter().flatten()).all(|s| matches!(s, Seat::Person { .. }));
        let colors = self.colors_of(actor);
        if self.status != Status::Finished || !people || colors.len() != 1 {
            return Err(match colors.is_empty() {
                true => GameError::NotAPlayer,
                false => GameError::NoRematch,
            });
        }
        if self.rematch.is_some() {
            return Err(GameError::RematchStarted);
        }
        Ok(colors[0])
    }

    /// `actor` offers a rematch, or accepts the opponent's offer.
    pub fn prepare_rematch(&self, actor: Actor, at: i64) -> Result<RematchStep, GameError> {
        let color = self.rematch_player(actor)?;
        if self.rematch_offer != Some(color.opponent()) {
            let offer = self.offering(Offer::Rematch, Some(color), at);
            return Ok(RematchStep::Offer(Box::new(offer)));
        }
        let [black, white] = self.seats.clone();
        Ok(RematchStep::Open([white, black]))
    }

    /// Records that this finished game's rematch is game `next` (stored with the new game).
    pub fn rematched(&self, next: &str, at: i64) -> Change {
        Change {
            rematch: Some(next.to_string()),
            offers: vec![(Offer::Rematch, None)],
            writes: vec![Write::Rematch {
                game_id: self.id.clone(),
                next: next.to_string(),
            }],
            ..Change::at(at)
        }
    }

    /// `actor` aborts the game, which ends without a result: allowed until both sides
    /// have made a move, as on lichess, except in a tournament (whose games count).
    pub fn prepare_abort(&self, actor: Actor, now: Instant, at: i64) -> Result<Change, GameError> {
        self.check_player(actor)?;
        if self.tournament.is_some() {
            return Err(GameError::TournamentAbort);
        }
        if Color::BOTH.into_iter().all(|c| self.has_moved(c)) {
            return Err(GameError::TooLateToAbort);
        }
        Ok(self.ending(Outcome::abort(), now, at))
    }

    /// Its creator (`actor`, the player of its one seat) withdraws this waiting game: it ends
    /// without a result, unless someone takes the open seat first (the write's condition).
    pub fn prepare_withdraw(&self, actor: Actor, at: i64) -> Result<Change, GameError> {
        if self.colors_of(actor).is_empty() {
            return Err(GameError::NotAPlayer);
        }
        if self.status != Status::Waiting {
            return Err(GameError::AlreadyStarted);
        }
        Ok(Change {
            end: Some(Outcome::abort()),
            writes: vec![Write::Withdraw {
                game_id: self.id.clone(),
                result: Outcome::abort(),
                at,
            }],
            ..Change::at(at)
        })
    }

    /// The end of the game when its tournament is cancelled: aborted without a result,
    /// unless it is over already.
    pub fn prepare_cancel(&self, now: Instant, at: i64) -> Option<Change> {
        (self.status != Status::Finished).then(|| self.ending(Outcome::abort(), now, at))
    }

    /// `actor` claims the win because its opponent left the game; the hub checks that the
    /// opponent has been gone for the grace time.
    pub fn prepare_claim_victory(
        &self,
        actor: Actor,
        now: Instant,
        at: i64,
    ) -> Result<Change, GameError> {
        let color = self.own_color(actor)?;
        let end = Outcome::forfeit(color.opponent(), toroid_rules::Fault::Left);
        Ok(self.ending(end, now, at))
    }

    /// `actor` resigns (at any time in a live game, whoever is to move).
    pub fn prepare_resign(&self, actor: Actor, now: Instant, at: i64) -> Result<Change, GameError> {
        let loser = self.own_color(actor)?;
        Ok(self.ending(Outcome::resignation(loser), now, at))
    }

    /// Whether `color` has made a move in this game.
    fn has_moved(&self, color: Color) -> bool {
        self.moves.iter().any(|(mover, _)| *mover == color)
    }

    /// Whether `color`'s first move is awaited for [`FIRST_MOVE_WAIT`] only: it has not
    /// made one, and the clock is not a correspondence clock (whose days are for thinking).
    fn first_move_waits(&self, color: Color) -> bool {
        let correspondence = self
            .clock
            .is_some_and(|c| c.control.days_per_move().is_some());
        !self.has_moved(color) && !correspondence
    }

    /// When a live clocked game ends unless the player to move moves: at their flag, or,
    /// for a player who has not made a first move, at the end of [`FIRST_MOVE_WAIT`].
    pub fn deadline(&self) -> Option<Instant> {
        if self.status != Status::Live {
            return None;
        }
        let clock = self.clock?;
        let (color, since) = clock.running_since()?;
        let (_, flag) = clock.flag()?;
        Some(match self.first_move_waits(color) {
            false => flag,
            true => flag.min(since + FIRST_MOVE_WAIT),
        })
    }

    /// The end of the game if its deadline has passed at `now`: a loss on time, or, when the
    /// player to move has not made a first move, an abort without a result (as on lichess:
    /// nobody loses a game that never began), except in a tournament, where the player who
    /// failed to move loses (as in lichess's arenas).
    pub fn prepare_timeout(&self, now: Instant, at: i64) -> Option<Change> {
        if now < self.deadline()? {
            return None;
        }
        let color = self.position.turn()?;
        let end = match self.has_moved(color) || self.tournament.is_some() {
            true => Outcome::time(color),
            false => Outcome::abort(),
        };
        Some(self.ending(end, now, at))
    }

    /// The end of a game without a clock, or whose players agree on dead stones (no clock
    /// runs then), that nobody has touched for `idle_ms` at `at`: it is abandoned, aborted
    /// without a result (a clocked game ends by its clock instead).
    pub fn prepare_abandon(&self, idle_ms: i64, now: Instant, at: i64) -> Option<Change> {
        let idle = self.status != Status::Finished
            && (self.clock.is_none() || self.counting.is_some())
            && at - self.last_change_at >= idle_ms;
        idle.then(|| self.ending(Outcome::abort(), now, at))
    }

    /// `seat` takes the open seat of this waiting game: with the invite `code`, or without
    /// one in an open game.
    pub fn prepare_join(
        &self,
        seat: Seat,
        code: Option<&str>,
        now: Instant,
        at: i64,
    ) -> Result<Change, GameError> {
        let invited =
            code.is_some_and(|code| self.invite_hash.as_deref() == Some(&hash_secret(code)));
        if !invited && self.seek.is_none() {
            return Err(GameError::NoSuchInvite);
        }
        if self.status != Status::Waiting {
            return Err(GameError::AlreadyStarted);
        }
        if let Seat::Person { session, .. } = &seat {
            if self.colors_of(Actor::Session(session)).len() == 1 {
                return Err(GameError::AlreadyPlaying);
            }
        }
        // A waiting game has one seat open.
        let color = Color::BOTH
            .into_iter()
            .find(|c| self.seats[c.index()].is_none())
            .ok_or(GameError::AlreadyStarted)?;
        let mut clock = self.clock;
        if let (Some(clock), Some(turn)) = (clock.as_mut(), self.position.turn()) {
            clock.start(turn, now);
        }
        Ok(Change {
            clock,
            seat: Some((color, seat.clone())),
            writes: vec![Write::Seat {
                game_id: self.id.clone(),
                color,
                seat,
                at,
            }],
            ..Change::at(at)
        })
    }

    /// Applies a change whose writes are committed.
    pub fn apply(&mut self, change: Change) {
        self.last_change_at = change.at;
        if let Some((position, mover, mv)) = change.played {
            self.position = position;
            self.moves.push((mover, mv));
            self.view = Arc::new(GameView::new(&self.position, &self.moves));
        }
        if let Some((position, keep)) = change.rewind {
            // A takeback goes back before the two passes.
            self.counting = None;
            self.position = position;
            self.moves.truncate(keep);
            self.view = Arc::new(GameView::new(&self.position, &self.moves));
        }
        if change.clock.is_some() {
            self.clock = change.clock;
        }
        if let Some((color, seat)) = change.seat {
            self.seats[color.index()] = Some(seat);
            self.status = Status::Live;
        }
        for (offer, by) in change.offers {
            match offer {
                Offer::Draw => self.draw_offer = by,
                Offer::Takeback => self.takeback_offer = by,
                Offer::Rematch => self.rematch_offer = by,
            }
        }
        if change.rematch.is_some() {
            self.rematch = change.rematch;
        }
        if let Some(counting) = change.counting {
            self.counting = counting;
        }
        if let Some(end) = change.end {
            self.draw_offer = None;
            self.takeback_offer = None;
            self.result = Some(end);
            self.status = Status::Finished;
            self.finished_at = Some(change.at);
        }
    }

    /// The state as `viewer` (a session id) sees it at `now`.
    pub fn state(&self, viewer: Option<&str>, now: Instant) -> GameState {
        let you = viewer.and_then(|v| self.color_of(v));
        let invite = match (self.status, viewer) {
            (Status::Waiting, Some(v)) if self.creator.as_deref() == Some(v) => self
                .invite_code
                .as_ref()
                .map(|code| format!("/join/{code}")),
            _ => None,
        };
        GameState {
            id: self.id.clone(),
            game: self.position.kind(),
            params: ParamsView(self.position.params().clone()),
            status: self.status,
            players: players(&self.seats),
            clock: self.clock.map(|c| c.control),
            clocks: self.clock.map(|c| {
                let [black_ms, white_ms] = c.left(now).map(|ms| ms.max(0));
                ClocksView {
                    black_ms,
                    white_ms,
                    running: c.running(),
                }
            }),
            position: self.view.clone(),
            result: self.result,
            rated: self.rated,
            draw_offer: self.draw_offer,
            takeback_offer: self.takeback_offer,
            takebacks: self.status == Status::Live && self.no_takebacks().is_none(),
            rematch_offer: self.rematch_offer,
            rematch: self.rematch.clone(),
            you,
            invite,
            analysis: self.analysis_open_to(viewer),
            first_move_ms: self.first_move_left(now),
            created_at: self.created_at,
            finished_at: self.finished_at,
            tournament: self.tournament.clone(),
            open: self.status == Status::Waiting && self.seek.is_some(),
            counting: self.counting.as_ref().map(|counting| {
                let dead = counting.dead();
                let topology = self.position.topology();
                CountingView {
                    dead: dead
                        .iter()
                        .map(|&c| topology.point_name(c).to_string())
                        .collect(),
                    accepted: PerColor::from_array(Color::BOTH.map(|c| counting.accepts(c))),
                    result: self.position.outcome_with_dead(&dead),
                }
            }),
        }
    }

    /// What is left at `now` of [`FIRST_MOVE_WAIT`] for the player to move, while it has not
    /// made a first move in a live clocked game (then the game is aborted at its end).
    fn first_move_left(&self, now: Instant) -> Option<i64> {
        if self.status != Status::Live {
            return None;
        }
        let (color, since) = self.clock?.running_since()?;
        let end = (self.first_move_waits(color)).then_some(since + FIRST_MOVE_WAIT)?;
        Some(end.saturating_duration_since(now).as_millis() as i64)
    }

    /// A point a client names, read against this game's board.
    fn read_point(&self, text: &str) -> Result<Cell, GameError> {
        match self.read_move(text)? {
            Move::Place(cell) => Ok(cell),
            _ => Err(GameError::NotAMove(text.to_string())),
        }
    }

    /// A client's move, read against this game's board.
    fn read_move(&self, text: &str) -> Result<Move, GameError> {
        Move::parse(text, self.position.topology()).map_err(|e| match e {
            ParseMoveError::Point(toroid_rules::PointError::OffBoard { .. }) => {
                GameError::OffBoard(text.to_string())
            }
            _ => GameError::NotAMove(text.to_string()),
        })
    }

    /// What game this is: its rule set and parameters.
    pub fn spec(&self) -> GameSpec {
        GameSpec::of(&self.position)
    }

    /// The position the game started from: its rule set's at its parameters.
    pub fn start_position(&self) -> AnyGame {
        self.spec().start()
    }

    /// Every position from the start: one more than the moves (a review searches each, the
    /// puzzle miner looks for puzzles in each). `Unavailable` if a stored move is illegal.
    pub fn positions(&self) -> Result<Vec<AnyGame>, ApiError> {
        let mut position = self.start_position();
        let mut positions = vec![position.clone()];
        for &(_, mv) in &self.moves {
            position
                .play(mv)
                .map_err(|e| ApiError::Unavailable(format!("a stored move is illegal: {e}")))?;
            positions.push(position.clone());
        }
        Ok(positions)
    }

    /// Every board from the start to now, as the rules made them.
    pub fn history(&self) -> HistoryView {
        let start = self.start_position();
        let moves: Vec<Move> = self.moves.iter().map(|&(_, mv)| mv).collect();
        HistoryView::new(&start, &moves).expect("the moves were legal when they were played")
    }

    /// The game's record (SGF or JSON), with the players and the result.
    pub fn record(&self) -> Record {
        let kind = self.position.kind();
        let moves: Vec<Move> = self.moves.iter().map(|&(_, mv)| mv).collect();
        let mut record = Record::from_moves(kind, self.position.params(), &moves)
            .expect("the moves were legal when they were played");
        let name = |c: Color| self.seats[c.index()].as_ref().map(|s| s.name().to_string());
        record.black = name(Color::Black);
        record.white = name(Color::White);
        record.result = self.result;
        record
    }
}

/// A player as others see it.
pub fn player_view(seat: &Seat) -> PlayerView {
    PlayerView {
        kind: seat.kind(),
        name: seat.name().to_string(),
    }
}

/// The players as others see them.
pub fn players(seats: &[Option<Seat>; 2]) -> Players {
    Players {
        black: seats[0].as_ref().map(player_view),
        white: seats[1].as_ref().map(player_view),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::error::ApiError;
    use crate::model::TimeControl;

    const ALICE: &str = "alice-session";
    const BOB: &str = "bob-session";

    fn person(session: &str) -> Seat {
        Seat::Person {
            session: session.into(),
            name: session.into(),
            account: None,
        }
    }

    fn row(seats: [Option<Seat>; 2], clock: Option<TimeControl>) -> GameRow {
        let status = if seats.iter().all(Option::is_some) {
            Status::Live
        } else {
            Status::Waiting
        };
        GameRow {
            id: "g".into(),
            spec: GameSpec::from_stored("go", r#"{"size":5}"#).unwrap(),
            clock,
            seats,
            creator: Some(ALICE.into()),
            creator_address: None,
            invite_hash: Some(hash_secret("code")),
            status,
            result: None,
            final_clocks: None,
            plies: 0,
            created_at: 1,
            started_at: (status == Status::Live).then_some(1),
            resumed_at: None,
            finished_at: None,
            draw_offer: None,
            takeback_offer: None,
            rematch_offer: None,
            rematch_id: None,
            rated: false,
            tournament: None,
            counting: None,
            seek: None,
        }
    }

    fn live_game(now: Instant) -> Game {
        let seats = [Some(person(ALICE)), Some(person(BOB))];
        Game::restore(row(seats, None), &[], Resume::At(now)).unwrap()
    }

    fn play(game: &mut Game, actor: Actor, text: &str) -> Result<(), GameError> {
        let ply = game.moves.len() as u64;
        let change = game.prepare_move(actor, ply, MoveInput::Text(text), Instant::now(), 2)?;
        game.apply(change);
        Ok(())
    }

    #[test]
    fn only_the_player_to_move_moves_and_refusals_change_nothing() {
        let mut game = live_game(Instant::now());
        let now = Instant::now();
        let refused = |game: &Game, actor, ply, text: &str| {
            let refusal = game.prepare_move(actor, ply, MoveInput::Text(text), now, 2);
            ApiError::from(refusal.unwrap_err()).code()
        };
        assert_eq!(
            refused(&game, Actor::Session("eve"), 0, "cc"),
            "not-a-player"
        );
        assert_eq!(
            refused(&game, Actor::Session(BOB), 0, "cc"),
            "not-your-turn"
        );
        assert_eq!(refused(&game, Actor::Session(ALICE), 1, "cc"), "stale-ply");
        assert_eq!(
            refused(&game, Actor::Session(ALICE), 0, "c3"),
            "bad-request"
        );
        assert_eq!(
            refused(&game, Actor::Session(ALICE), 0, "zz"),
            "illegal-move"
        );
        assert_eq!(game.moves.len(), 0);
        play(&mut game, Actor::Session(ALICE), "cc").unwrap();
        assert_eq!(refused(&game, Actor::Session(BOB), 1, "cc"), "illegal-move");
        // A replay of Alice's first message is stale now.
        assert_eq!(refused(&game, Actor::Session(ALICE), 0, "dd"), "stale-ply");
        play(&mut game, Actor::Session(BOB), "pass").unwrap();
        play(&mut game, Actor::Session(ALICE), "pass").unwrap();
        assert_eq!(game.status, Status::Finished);
        assert_eq!(game.result.as_ref().unwrap().reason.code(), "two-passes");
        assert_eq!(refused(&game, Actor::Session(BOB), 3, "dd"), "game-over");
        assert_eq!(
            game.state(Some(BOB), now).position.moves,
            ["cc", "pass", "pass"]
        );
    }

    #[test]
    fn analysis_during_play_is_for_a_person_against_a_house_bot_in_a_casual_game() {
        let house = Seat::House {
            level: toroid_search::Level::Random,
        };
        let seats = [Some(person(ALICE)), Some(house)];
        let mut game =
            Game::restore(row(seats.clone(), None), &[], Resume::At(Instant::now())).unwrap();
        assert!(game.analysis_open_to(Some(ALICE)));
        assert!(!game.analysis_open_to(Some(BOB)) && !game.analysis_open_to(None));
        game.rated = true;
        assert!(!game.analysis_open_to(Some(ALICE)), "none in a rated game");
        game.status = Status::Finished;
        assert!(game.analysis_open_to(Some(ALICE)) && game.analysis_open_to(None));
    }

    fn clocked_game(initial_ms: i64, increment_ms: i64, t0: Instant) -> Game {
        let control = TimeControl::new(initial_ms, increment_ms).unwrap();
        let seats = [Some(person(ALICE)), Some(person(BOB))];
        Game::restore(row(seats, Some(control)), &[], Resume::At(t0)).unwrap()
    }

    fn play_at(game: &mut Game, actor: Actor, text: &str, at: Instant) {
        let ply = game.moves.len() as u64;
        let change = game
            .prepare_move(actor, ply, MoveInput::Text(text), at, 2)
            .unwrap();
        game.apply(change);
    }

    fn ending(game: &Game) -> (Option<Color>, &'static str) {
        let end = game.result.unwrap();
        (end.winner, end.reason.code())
    }

    #[test]
    fn the_clock_charges_the_mover_and_a_fallen_flag_ends_the_game() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut game = clocked_game(1_000, 500, t0);
        play_at(&mut game, Actor::Session(ALICE), "cc", t0 + ms(400));
        let clocks = game.state(None, t0 + ms(400)).clocks.unwrap();
        assert_eq!((clocks.black_ms, clocks.white_ms), (1_100, 1_000));
        assert_eq!(clocks.running, Some(Color::White));
        play_at(&mut game, Actor::Session(BOB), "dd", t0 + ms(900));
        // Black's clock runs from 900 ms with 1,100 ms left.
        assert!(game.prepare_timeout(t0 + ms(1_999), 3).is_none());
        let late = t0 + ms(2_000);
        let change = game.prepare_timeout(late, 3).unwrap();
        assert!(matches!(
            change.writes[..],
            [Write::Finish {
                clocks: Some([0, 1_000]),
                ..
            }]
        ));
        game.apply(change);
        assert_eq!(ending(&game), (Some(Color::White), "time"));
        assert_eq!(game.state(None, late).clocks.unwrap().running, None);
    }

    #[test]
    fn a_game_whose_first_moves_do_not_come_is_aborted_without_a_result() {
        let t0 = Instant::now();
        // Black never moves: aborted when the first-move wait ends, long before the flag.
        let mut game = clocked_game(600_000, 0, t0);
        assert_eq!(game.deadline(), Some(t0 + FIRST_MOVE_WAIT));
        let just_before = t0 + FIRST_MOVE_WAIT - Duration::from_millis(1);
        assert!(game.prepare_timeout(just_before, 3).is_none());
        game.apply(game.prepare_timeout(t0 + FIRST_MOVE_WAIT, 3).unwrap());
        assert_eq!(ending(&game), (None, "abort"));

        // White's wait starts with its clock, at black's first move; then its flag falls
        // before the wait ends, and the game is aborted all the same.
        let mut game = clocked_game(5_000, 0, t0);
        let black_moved = t0 + Duration::from_secs(3);
        play_at(&mut game, Actor::Session(ALICE), "cc", black_moved);
        assert_eq!(game.deadline(), Some(black_moved + Duration::from_secs(5)));
        game.apply(
            game.prepare_timeout(black_moved + Duration::from_secs(5), 3)
                .unwrap(),
        );
        assert_eq!(ending(&game), (None, "abort"));
    }

    #[test]
    fn in_a_tournament_who_never_moves_loses_and_nobody_aborts() {
        let t0 = Instant::now();
        let mut game = clocked_game(600_000, 0, t0);
        game.tournament = Some("t".into());
        let refused = game.prepare_abort(Actor::Session(ALICE), t0, 2);
        assert_eq!(refused.unwrap_err(), GameError::TournamentAbort);
        game.apply(game.prepare_timeout(t0 + FIRST_MOVE_WAIT, 3).unwrap());
        assert_eq!(ending(&game), (Some(Color::White), "time"));
    }

    #[test]
    fn an_invite_is_taken_once_by_someone_else() {
        let now = Instant::now();
        let mut game =
            Game::restore(row([Some(person(ALICE)), None], None), &[], Resume::At(now)).unwrap();
        // Restored from storage, the game knows only the code's hash.
        assert_eq!(game.state(Some(ALICE), now).invite, None);
        game.set_invite("code".into());
        assert_eq!(
            game.state(Some(ALICE), now).invite.as_deref(),
            Some("/join/code")
        );
        assert_eq!(game.state(Some(BOB), now).invite, None);
        let code = |r: Result<Change, GameError>| ApiError::from(r.unwrap_err()).code();
        assert_eq!(
            code(game.prepare_join(person(BOB), Some("wrong"), now, 2)),
            "not-found"
        );
        // An invite game is joined with its code only.
        assert_eq!(
            code(game.prepare_join(person(BOB), None, now, 2)),
            "not-found"
        );
        assert_eq!(
            code(game.prepare_join(person(ALICE), Some("code"), now, 2)),
            "conflict"
        );
        assert_eq!(
            code(game.prepare_move(Actor::Session(ALICE), 0, MoveInput::Text("cc"), now, 2)),
            "not-started"
        );
        let change = game
            .prepare_join(person(BOB), Some("code"), now, 2)
            .unwrap();
        game.apply(change);
        assert_eq!(game.status, Status::Live);
        assert_eq!(game.color_of(BOB), Some(Color::White));
        assert_eq!(game.state(Some(ALICE), now).invite, None);
        let again = game.prepare_join(person("carol"), Some("code"), now, 2);
        assert_eq!(code(again), "conflict");
    }

    #[test]
    fn a_takeback_asked_and_accepted_goes_back_before_the_askers_turn() {
        let now = Instant::now();
        let mut game = live_game(now);
        let takeback = |game: &Game, who| {
            game.prepare_takeback(Actor::Session(who), now, 3)
                .map_err(|e| ApiError::from(e).code())
        };
        assert_eq!(takeback(&game, ALICE).unwrap_err(), "conflict");
        for (who, mv) in [(ALICE, "cc"), (BOB, "dd"), (ALICE, "bb")] {
            play(&mut game, Actor::Session(who), mv).unwrap();
        }
        // Bob asks: his turn (dd) and Alice's reply (bb) go once Alice agrees.
        game.apply(takeback(&game, BOB).unwrap());
        assert_eq!(game.takeback_offer, Some(Color::White));
        assert_eq!(game.moves.len(), 3);
        let accepted = takeback(&game, ALICE).unwrap();
        assert!(matches!(
            accepted.writes[..],
            [Write::Takeback {
                plies: 3,
                keep: 1,
                ..
            }]
        ));
        game.apply(accepted);
        assert_eq!(game.moves.len(), 1);
        assert_eq!(game.position.turn(), Some(Color::White));
        assert_eq!(game.takeback_offer, None);
        assert_eq!(game.state(None, now).position.moves, ["cc"]);
        // Rated games have none.
        game.rated = true;
        assert_eq!(takeback(&game, ALICE).unwrap_err(), "conflict");
    }

    #[test]
    fn resigning_and_restoring_from_stored_moves() {
        let now = Instant::now();
        let mut game = live_game(now);
        play(&mut game, Actor::Session(ALICE), "cc").unwrap();
        let stored: Vec<MoveRow> = vec![MoveRow {
            game_id: "g".into(),
            ply: 0,
            notation: "cc".into(),
            clocks: None,
            at: 2,
        }];
        let seats = [Some(person(ALICE)), Some(person(BOB))];
        let one_move = GameRow {
            plies: 1,
            ..row(seats.clone(), None)
        };
        let restored = Game::restore(one_move.clone(), &stored, Resume::At(now)).unwrap();
        assert_eq!(restored.position.hash(), game.position.hash());
        // A row that counts another number of moves than are stored is damaged.
        assert!(Game::restore(row(seats.clone(), None), &stored, Resume::At(now)).is_err());
        // Alice resigns though it is Bob's turn.
        let change = game.prepare_resign(Actor::Session(ALICE), now, 3).unwrap();
        game.apply(change);
        assert_eq!(game.result.as_ref().unwrap().winner, Some(Color::White));
        let record = game.record();
        assert_eq!(
            toroid_protocol::record::sgf_result(record.result.as_ref().unwrap()),
            "W+R"
        );
        assert_eq!(record.black.as_deref(), Some(ALICE));
        // A corrupt move is reported, not played.
        let mut bad = stored;
        bad[0].notation = "cc cc".into();
        assert!(Game::restore(one_move, &bad, Resume::At(now)).is_err());
    }
}

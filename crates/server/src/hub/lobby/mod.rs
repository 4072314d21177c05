//! Games before they start: new games against a house bot, a person by invitation or a
//! registered bot by challenge, the seek queue that pairs bots, and joining an open seat.

mod pairing;
pub mod routes;
pub mod wire;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use toroid_rules::Color;

use crate::api::{ColorChoice, GameState, NewGame, Opponent};
use crate::error::ApiError;
use crate::game::{Actor, Game, Resume};
use crate::ids::{hash_secret, new_id, new_secret, now_ms};
use crate::model::{GameSpec, Seat, Status, TimeControl};
use crate::storage::{BotRow, CreatedBy, GameRow, SessionRow, Write};

use super::{lock, Hub, LiveGame};

impl Hub {
    /// A new game for `session`, a person at `address`, within the limits on unfinished
    /// games (per session, per address, on the server).
    pub async fn create_game(
        self: &Arc<Hub>,
        session: &SessionRow,
        address: IpAddr,
        request: NewGame,
    ) -> Result<GameState, ApiError> {
        let open = self
            .unfinished_created(CreatedBy::Session(&session.id))
            .await?;
        if open >= self.limits.games_per_session {
            return Err(ApiError::Limit(format!(
                "you have {open} unfinished games; finish one first"
            )));
        }
        let from_address = self.unfinished_created(CreatedBy::Address(address)).await?;
        if from_address >= self.limits.games_per_address {
            return Err(ApiError::Limit(format!(
                "{} unfinished games from one address at most; finish one first",
                self.limits.games_per_address
            )));
        }
        self.room_for_a_game()?;
        let person = session.seat();
        let creator = Some((session.id.clone(), address));
        let live = self.new_game(person, request, creator).await?;
        let game = live.game.lock().await;
        self.acted(&live, &game, Actor::Session(&session.id)).await;
        Ok(game.state(Some(&session.id), Instant::now()))
    }

    /// A new game that registered bot `bot` asks for (a challenge of its own): its id, and
    /// for an invite game the link a person opens to take the other seat.
    pub async fn bot_create_game(
        self: &Arc<Hub>,
        bot: &BotRow,
        request: NewGame,
    ) -> Result<(String, Option<String>), ApiError> {
        if matches!(&request.opponent, Opponent::Bot { name } if *name == bot.name) {
            return Err(ApiError::BadRequest("a bot cannot challenge itself".into()));
        }
        if self.unfinished(|g| g.bots.contains(&bot.id)) >= self.limits.games_per_session {
            return Err(ApiError::Limit("too many unfinished games".into()));
        }
        self.room_for_a_game()?;
        let me = Seat::Bot {
            bot: bot.id.clone(),
            name: bot.name.clone(),
        };
        let live = self.new_game(me, request, None).await?;
        let game = live.game.lock().await;
        let link = game
            .invite_code
            .as_ref()
            .map(|code| format!("/join/{code}"));
        Ok((game.id.clone(), link))
    }

    /// Opens the game `request` describes, `me` in the colour it asks for: against a house
    /// bot at once, a registered bot once it accepts the challenge, or waiting for a person
    /// with the invite link.
    async fn new_game(
        self: &Arc<Hub>,
        me: Seat,
        request: NewGame,
        creator: Option<(String, IpAddr)>,
    ) -> Result<Arc<LiveGame>, ApiError> {
        // A registered bot's engine counts the stones as they stand; a person marks dead
        // stones, which a house bot agrees to by its own judgement.
        let with_bot =
            matches!(me, Seat::Bot { .. }) || matches!(request.opponent, Opponent::Bot { .. });
        let spec = GameSpec::for_players(request.game, &request.params, with_bot)
            .map_err(|e| ApiError::BadRequest(format!("{}: {e}", request.game)))?;
        let clock = request.clock;
        if request.rated {
            Self::check_rated(&spec, clock, &me)?;
        }
        let color = match request.color {
            ColorChoice::Black => Color::Black,
            ColorChoice::White => Color::White,
            ColorChoice::Random => random_color(),
        };
        let open = matches!(request.opponent, Opponent::Open {});
        let opponent = match request.opponent {
            Opponent::House { level } => Some(Seat::house(&level, request.game)?),
            Opponent::Invite {} | Opponent::Open {} => None,
            Opponent::Bot { name } => Some(
                self.put_challenge(&me, &name, &spec, clock, color.opponent(), request.rated)
                    .await?,
            ),
        };
        let mut seats = [None, None];
        seats[color.index()] = Some(me);
        seats[color.opponent().index()] = opponent;
        self.open_game(spec, clock, seats, creator, request.rated, open)
            .await
    }

    /// Refuses a rated game that cannot be: one without a clock, at other than the rule
    /// set's default parameters (there is one pool per rule set), or for a guest.
    pub(super) fn check_rated(
        spec: &GameSpec,
        clock: Option<TimeControl>,
        me: &Seat,
    ) -> Result<(), ApiError> {
        if clock.is_none() {
            return Err(ApiError::BadRequest("a rated game has a clock".into()));
        }
        if !spec.at_defaults() {
            return Err(ApiError::BadRequest(format!(
                "a rated game of {} is played at its default parameters (one rating pool per rule set)",
                spec.kind()
            )));
        }
        if me.rated_player().is_none() {
            return Err(guests_unrated());
        }
        Ok(())
    }

    /// Refuses a new game when the server holds its most unfinished games.
    pub(super) fn room_for_a_game(&self) -> Result<(), ApiError> {
        match lock(&self.live).len() < self.limits.unfinished_games {
            true => Ok(()),
            false => Err(ApiError::Busy(
                "the server holds as many unfinished games as it may; try again later",
            )),
        }
    }

    /// How many unfinished games `by` created: on a node of a cluster, which holds only some
    /// of them, as the database counts them.
    pub(super) async fn unfinished_created(&self, by: CreatedBy<'_>) -> Result<usize, ApiError> {
        if self.cluster.is_some() {
            return Ok(self.storage.unfinished_created(by).await? as usize);
        }
        Ok(self.unfinished(|g| match by {
            CreatedBy::Session(id) => g.creator.as_deref() == Some(id),
            CreatedBy::Address(address) => g.address == Some(address),
        }))
    }

    /// Games in memory (waiting or live) for which `which` holds.
    pub(super) fn unfinished(&self, which: impl Fn(&LiveGame) -> bool) -> usize {
        lock(&self.live).values().filter(|g| which(g)).count()
    }

    /// Stores a new game of `spec` and puts it in play: live when both seats are taken,
    /// else waiting, `open` to anyone or with an invite code.
    pub(super) async fn open_game(
        self: &Arc<Hub>,
        spec: GameSpec,
        clock: Option<TimeControl>,
        seats: [Option<Seat>; 2],
        creator: Option<(String, IpAddr)>,
        rated: bool,
        open: bool,
    ) -> Result<Arc<LiveGame>, ApiError> {
        let (creator, address) = creator.unzip();
        let waiting = !seats.iter().all(Option::is_some);
        let invite_code = (waiting && !open).then(new_secret);
        let seek = (waiting && open).then(|| spec.seek_key(clock, rated));
        let mut row = new_game_row(
            new_id(),
            spec,
            clock,
            seats,
            creator,
            rated,
            invite_code.as_deref(),
        );
        row.creator_address = address;
        row.seek = seek;
        self.store_new_game(row, invite_code, Vec::new()).await
    }

    /// The rematch of finished game `game`, which `actor` accepts: a new live game between
    /// `seats`, stored together with the old game's link to it.
    pub(super) async fn open_rematch(
        self: &Arc<Hub>,
        old: &LiveGame,
        game: &mut Game,
        seats: [Option<Seat>; 2],
        actor: Actor<'_>,
    ) -> Result<(), ApiError> {
        self.room_for_a_game()?;
        let clock = game.clock.map(|c| c.control);
        let id = new_id();
        let mut link = game.rematched(&id, now_ms());
        let creator = actor.viewer().map(str::to_string);
        let row = new_game_row(id, game.spec(), clock, seats, creator, game.rated, None);
        let writes = std::mem::take(&mut link.writes);
        self.store_new_game(row, None, writes).await?;
        self.applied(old, game, link, None).await;
        Ok(())
    }

    /// Stores new game `row` (with `also`, in one transaction) and puts it in play.
    pub(super) async fn store_new_game(
        self: &Arc<Hub>,
        row: GameRow,
        invite_code: Option<String>,
        also: Vec<Write>,
    ) -> Result<Arc<LiveGame>, ApiError> {
        let mut writes = vec![Write::Game(Box::new(row.clone()))];
        writes.extend(also);
        self.storage.commit(writes).await?;
        self.play_stored_game(row, invite_code).await
    }

    /// Puts new game `row`, stored, in play: held here, its referee started, the other
    /// nodes told.
    pub(super) async fn play_stored_game(
        self: &Arc<Hub>,
        row: GameRow,
        invite_code: Option<String>,
    ) -> Result<Arc<LiveGame>, ApiError> {
        let mut game = Game::restore(row, &[], Resume::At(Instant::now()))?;
        game.invite_code = invite_code;
        self.tell_players(&game).await;
        self.remember_invite(&game).await;
        let live = self.insert(game);
        self.tell_other_nodes(&live, None).await;
        Ok(live)
    }

    /// `session` takes the open seat of game `id`: with the invite `code`, or without one in
    /// an open game.
    pub async fn join(
        self: &Arc<Hub>,
        session: &SessionRow,
        id: &str,
        code: Option<&str>,
    ) -> Result<GameState, ApiError> {
        let live = self.find(id).await?;
        self.take_seat(&live, session, code).await
    }

    /// The game that invite code `code` opens, as anyone sees it: what the invited person
    /// is asked to play before choosing a name.
    pub async fn invitation(&self, code: &str) -> Result<GameState, ApiError> {
        let live = self.find(&self.invited_game(code).await?).await?;
        let game = live.game.lock().await;
        Ok(game.state(None, Instant::now()))
    }

    /// A new invite code for the waiting game `id`, which `session` created; the old code
    /// stops working. The creator's link is known only to the server that made it, so after
    /// a restart this is how the creator gets one again.
    pub async fn new_invite(&self, session: &SessionRow, id: &str) -> Result<GameState, ApiError> {
        let live = self.find(id).await?;
        let mut game = live.game.lock().await;
        self.reload(&mut game).await?;
        let (write, code) = game.prepare_new_invite(&session.id)?;
        self.storage.commit(vec![write]).await?;
        game.set_invite(code);
        self.remember_invite(&game).await;
        Ok(game.state(Some(&session.id), Instant::now()))
    }

    /// The id of the waiting game that invite code `code` opens.
    async fn invited_game(&self, code: &str) -> Result<String, ApiError> {
        (self.storage.game_by_invite(&hash_secret(code)).await?)
            .ok_or_else(|| ApiError::NotFound("invite".into()))
    }

    /// `session` takes the open seat of the game whose invite code is `code`.
    pub async fn join_by_code(
        self: &Arc<Hub>,
        session: &SessionRow,
        code: &str,
    ) -> Result<GameState, ApiError> {
        let id = self.invited_game(code).await?;
        self.join(session, &id, Some(code)).await
    }

    pub(super) async fn take_seat(
        self: &Arc<Hub>,
        live: &Arc<LiveGame>,
        session: &SessionRow,
        code: Option<&str>,
    ) -> Result<GameState, ApiError> {
        let mut game = live.game.lock().await;
        self.reload(&mut game).await?;
        let seat = session.seat();
        if game.rated && seat.rated_player().is_none() {
            return Err(guests_unrated());
        }
        if let Some(other) = game.seats.iter().flatten().next() {
            self.check_not_blocked(&seat, other).await?;
        }
        let change = game.prepare_join(seat, code, Instant::now(), now_ms())?;
        self.commit(live, &mut game, change).await?;
        self.start_referee(live.clone());
        self.acted(live, &game, Actor::Session(&session.id)).await;
        Ok(game.state(Some(&session.id), Instant::now()))
    }
}

/// The row of a new game: live when both seats are taken, else waiting with the invite
/// `invite_code`.
#[allow(clippy::too_many_arguments)]
pub(super) fn new_game_row(
    id: String,
    spec: GameSpec,
    clock: Option<TimeControl>,
    seats: [Option<Seat>; 2],
    creator: Option<String>,
    rated: bool,
    invite_code: Option<&str>,
) -> GameRow {
    let live = seats.iter().all(Option::is_some);
    GameRow {
        id,
        spec,
        clock,
        seats,
        creator,
        creator_address: None,
        invite_hash: invite_code.map(hash_secret),
        status: if live { Status::Live } else { Status::Waiting },
        result: None,
        final_clocks: None,
        plies: 0,
        created_at: now_ms(),
        started_at: live.then(now_ms),
        resumed_at: None,
        finished_at: None,
        draw_offer: None,
        takeback_offer: None,
        rematch_offer: None,
        rematch_id: None,
        rated,
        tournament: None,
        counting: None,
        seek: None,
    }
}

pub(super) fn random_color() -> Color {
    Color::BOTH[usize::from(rand::random::<bool>())]
}

fn guests_unrated() -> ApiError {
    ApiError::BadRequest(
        "rated games are for accounts and registered bots: claim your name with POST /api/accounts"
            .into(),
    )
}

//! Tournaments on the server: an account creates one (a rule set at its default parameters,
//! a clock, round robin or Swiss, a number of rounds, rated or not, and house bots to take
//! part); people with accounts and registered bots join; its creator starts it; then each
//! round starts by itself once the previous one is over, with the pairings and tie-breaks of
//! [`pairing`].
//!
//! A tournament's whole state is one JSON row with a version. Every change (a join, the
//! start, a round recorded and the next paired) reads the row, and stores the changed state
//! together with the round's new games in one transaction only if the version is still the
//! one read; otherwise it reads again. So any node serves every route, two changes at once
//! are each applied once, and a start that lost the race is answered `conflict`. One node
//! directs each running tournament (looks for its round's end and pairs the next) under a
//! lease, as a referee runs a game: when that node stops or dies another takes over.

pub mod pairing;
mod queries;
pub mod routes;
pub mod wire;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Map;
use toroid_rules::{Color, GameKind};

use crate::api::{
    NewTournament, TournamentFormat, TournamentGame, TournamentInfo, TournamentRound,
    TournamentStanding, TournamentSummary, TournamentView,
};
use crate::cluster;
use crate::error::ApiError;
use crate::game::player_view;
use crate::hub::tournaments::pairing::{round_robin, History, Result as GameResult, Round};
use crate::ids::{new_id, now_ms};
use crate::model::text::shows_as_typed;
use crate::model::{stored_millis, GameSpec, Seat, Status, TimeControl};
use crate::storage::{AccountKey, BotRow, CreatedBy, GameRow, SessionRow, StorageError, Write};

use super::lobby::new_game_row;
use super::news::{person_key, News};
use super::{Hub, MAX_LIST};

/// How often running tournaments are looked at for a finished round.
const TICK: Duration = Duration::from_millis(500);
/// Players in one tournament at most.
pub const MAX_PLAYERS: usize = 64;
/// Tournaments not finished (open or running) that one account may have created, and that
/// the server holds: 150 created in 10 s once filled the list.
pub const UNFINISHED_PER_ACCOUNT: usize = 3;
pub const UNFINISHED_ON_THE_SERVER: usize = 100;
/// How often a change is tried again after other changes to the same tournament came first
/// (as many as it has players, at most, when all of them join at once).
const TRIES: usize = 2 * MAX_PLAYERS;

/// Where a tournament is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Players join until its creator starts it.
    Open,
    Running,
    Finished,
    /// Cancelled while running: its director aborts the games of the round under way.
    Cancelling,
    /// Cancelled by a moderator: it ends without a winner.
    Cancelled,
}

impl Stage {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Stage::Open => "open",
            Stage::Running => "running",
            Stage::Finished => "finished",
            Stage::Cancelling => "cancelling",
            Stage::Cancelled => "cancelled",
        }
    }
}

/// A tournament's whole state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tournament {
    pub id: String,
    pub name: String,
    /// The rule set, at its default parameters.
    pub game: GameKind,
    #[serde(with = "stored_millis")]
    pub clock: TimeControl,
    pub format: TournamentFormat,
    pub rounds: usize,
    pub rated: bool,
    /// The account that created it.
    pub creator: String,
    /// Its name (kept since the state was first written: older states lack it).
    #[serde(default)]
    pub creator_name: String,
    /// The address it was created from: its games count against that address's limit on
    /// unfinished games, as the creator's own games do.
    #[serde(default)]
    pub creator_address: Option<IpAddr>,
    pub stage: Stage,
    /// The players in seed order (the order they joined).
    pub players: Vec<Seat>,
    /// The rounds played, with their results.
    pub history: History,
    /// The games' ids of each round played, in the order of its pairings.
    pub game_ids: Vec<Vec<String>>,
    /// The round under way, and its games' ids (in the order of its pairings).
    pub current: Option<(Round, Vec<String>)>,
    pub created_at: i64,
}

impl Tournament {
    /// The tournament stored as `state` (JSON).
    pub(crate) fn read(state: &str) -> Result<Tournament, ApiError> {
        serde_json::from_str(state)
            .map_err(|e| ApiError::Storage(StorageError::Corrupt(e.to_string())))
    }

    /// The write that stores it: new, or changed from the version `read_at`.
    pub(crate) fn write(&self, read_at: Option<i64>) -> Write {
        Write::Tournament {
            id: self.id.clone(),
            state: serde_json::to_string(self).expect("tournaments serialize"),
            status: self.stage.as_str(),
            created_at: self.created_at,
            read_at,
        }
    }

    /// Pairs the next round (its games' rows, to store with it), or finishes the
    /// tournament when every round is played.
    fn next_round(&mut self) -> Vec<GameRow> {
        let played = self.history.rounds.len();
        let round = match (played < self.rounds, self.format) {
            (false, _) => None,
            (true, TournamentFormat::RoundRobin) => {
                round_robin(self.players.len()).into_iter().nth(played)
            }
            (true, TournamentFormat::Swiss) => self.history.next_swiss_round(),
        };
        let Some(round) = round else {
            self.stage = Stage::Finished;
            self.current = None;
            return Vec::new();
        };
        // Bots may play: Go's dead stones are captured before the end (`cleanup`).
        let spec = GameSpec::for_players(self.game, &Map::new(), true)
            .expect("a rule set takes its default parameters");
        let rows: Vec<GameRow> = (round.games.iter())
            .map(|game| {
                let mut seats = [None, None];
                seats[Color::White.index()] = Some(self.players[game.white].clone());
                seats[Color::Black.index()] = Some(self.players[game.black].clone());
                let mut row = new_game_row(
                    new_id(),
                    spec.clone(),
                    Some(self.clock),
                    seats,
                    None,
                    self.rated,
                    None,
                );
                row.tournament = Some(self.id.clone());
                row.creator_address = self.creator_address;
                row
            })
            .collect();
        self.current = Some((round, rows.iter().map(|row| row.id.clone()).collect()));
        rows
    }

    fn info(&self) -> TournamentInfo {
        TournamentInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            creator: self.creator_name.clone(),
            created_at: self.created_at,
            game: self.game,
            clock: self.clock,
            format: self.format,
            rounds: self.rounds,
            rated: self.rated,
            stage: self.stage.as_str(),
        }
    }

    fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            info: self.info(),
            players: self.players.len(),
        }
    }

    /// Its view, standings included.
    fn view(&self) -> TournamentView {
        let history = &self.history;
        let (scores, breaks) = (history.scores(), history.tie_breaks());
        let name = |p: usize| self.players[p].name().to_string();
        let standings = (history.standings().into_iter().enumerate())
            .map(|(rank, p)| TournamentStanding {
                rank: rank + 1,
                player: player_view(&self.players[p]),
                score: scores[p],
                buchholz: breaks[p].0,
                sonneborn_berger: breaks[p].1,
            })
            .collect();
        // A round's games with their ids (where known) and results (once it is over).
        let round_view =
            |round: &Round, ids: Option<&Vec<String>>, results: Option<&[GameResult]>| {
                TournamentRound {
                    games: (round.games.iter().enumerate())
                        .map(|(i, g)| TournamentGame {
                            white: name(g.white),
                            black: name(g.black),
                            game_id: ids.and_then(|ids| ids.get(i)).cloned(),
                            result: results.map(|r| result_word(r[i])),
                        })
                        .collect(),
                    bye: round.bye.map(name),
                }
            };
        let mut played: Vec<TournamentRound> = (history.rounds.iter().enumerate())
            .map(|(k, (round, results))| round_view(round, self.game_ids.get(k), Some(results)))
            .collect();
        if let Some((round, ids)) = &self.current {
            played.push(round_view(round, Some(ids), None));
        }
        TournamentView {
            info: self.info(),
            players: self.players.iter().map(player_view).collect(),
            played,
            standings,
        }
    }
}

fn result_word(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "white",
        GameResult::Draw => "draw",
        GameResult::BlackWins => "black",
    }
}

/// Who creates a tournament: an account (by a person or by one of its bots), shown by `name`;
/// the address a person created it from, whose limit on unfinished games its games count
/// against.
struct Creator {
    account: String,
    name: String,
    address: Option<IpAddr>,
    /// The player it is when it plays in its tournament (`NewTournament::join`).
    seat: Seat,
}

/// What a change makes of a tournament: new games to store with it, or nothing to store.
type Changed = Result<Option<Vec<GameRow>>, ApiError>;

impl Hub {
    /// A new tournament created by `creator` (a session signed in to an account), open for
    /// players, with the house bots it names already in.
    pub async fn create_tournament(
        &self,
        creator: &SessionRow,
        request: NewTournament,
        address: IpAddr,
    ) -> Result<TournamentView, ApiError> {
        let account = creator.account_id.clone().ok_or_else(|| {
            ApiError::BadRequest("tournaments are created by accounts: POST /api/accounts".into())
        })?;
        let creator = Creator {
            account,
            name: creator.name.clone(),
            address: Some(address),
            seat: creator.seat(),
        };
        self.new_tournament(creator, request).await
    }

    /// A new tournament created by registered bot `bot` for its owner, an account (whose
    /// people or bots may start it).
    pub async fn create_tournament_as_bot(
        &self,
        bot: &BotRow,
        request: NewTournament,
    ) -> Result<TournamentView, ApiError> {
        if self
            .storage
            .account(AccountKey::Id(&bot.owner))
            .await?
            .is_none()
        {
            return Err(ApiError::BadRequest(
                "tournaments are created for accounts: the bot's owner is a guest".into(),
            ));
        }
        let creator = Creator {
            account: bot.owner.clone(),
            name: bot.name.clone(),
            address: None,
            seat: Seat::Bot {
                bot: bot.id.clone(),
                name: bot.name.clone(),
            },
        };
        self.new_tournament(creator, request).await
    }

    async fn new_tournament(
        &self,
        creator: Creator,
        request: NewTournament,
    ) -> Result<TournamentView, ApiError> {
        let account = creator.account;
        self.room_for_a_tournament(&account).await?;
        let (game, clock) = (request.game, request.clock);
        if clock.days_per_move().is_some() {
            return Err(ApiError::BadRequest(
                "a tournament's rounds are played on a live clock, not days per move".into(),
            ));
        }
        if request.rounds == 0 {
            return Err(ApiError::BadRequest(
                "a tournament has at least one round".into(),
            ));
        }
        let name = request.name.trim();
        let plain = name.chars().all(shows_as_typed);
        if name.is_empty() || name.chars().count() > 64 || !plain {
            return Err(ApiError::BadRequest(
                "a tournament's name has 1 to 64 characters, without control, direction or invisible characters".into(),
            ));
        }
        let mut players = Vec::new();
        for level in &request.house {
            let seat = Seat::house(level, game)?;
            if players.contains(&seat) {
                return Err(ApiError::BadRequest(format!("{} is in twice", seat.name())));
            }
            players.push(seat);
        }
        if request.join {
            players.insert(0, creator.seat);
        }
        let tournament = Tournament {
            id: new_id(),
            name: name.to_string(),
            game,
            clock,
            format: request.format,
            rounds: request.rounds,
            rated: request.rated,
            creator: account,
            creator_name: creator.name,
            creator_address: creator.address,
            stage: Stage::Open,
            players,
            history: History::new(0),
            game_ids: Vec::new(),
            current: None,
            created_at: now_ms(),
        };
        self.storage.commit(vec![tournament.write(None)]).await?;
        Ok(tournament.view())
    }

    /// Refuses a new tournament of `account` when it has [`UNFINISHED_PER_ACCOUNT`]
    /// unfinished ones, or the server [`UNFINISHED_ON_THE_SERVER`]. (Two created at once
    /// may both pass: the limit bounds a flood, not the last one.)
    async fn room_for_a_tournament(&self, account: &str) -> Result<(), ApiError> {
        let unfinished = self.storage.unfinished_tournaments().await?;
        if unfinished.len() >= UNFINISHED_ON_THE_SERVER {
            return Err(ApiError::Busy(
                "too many tournaments at once; try again later",
            ));
        }
        let mine = (unfinished.iter())
            .filter_map(|state| Tournament::read(state).ok())
            .filter(|t| t.creator == account)
            .count();
        if mine >= UNFINISHED_PER_ACCOUNT {
            return Err(ApiError::Limit(format!(
                "{UNFINISHED_PER_ACCOUNT} unfinished tournaments of one account at most"
            )));
        }
        Ok(())
    }

    /// Tournament `id` as stored, and its version.
    async fn stored_tournament(&self, id: &str) -> Result<(Tournament, i64), ApiError> {
        let (state, version) = (self.storage.tournament(id).await?)
            .ok_or_else(|| ApiError::NotFound(format!("tournament '{id}'")))?;
        Ok((Tournament::read(&state)?, version))
    }

    /// Tournament `id` as it stands.
    pub async fn tournament(&self, id: &str) -> Result<TournamentView, ApiError> {
        Ok(self.stored_tournament(id).await?.0.view())
    }

    /// The latest `limit` tournaments, newest first, as stored (a damaged row is skipped
    /// and logged).
    pub async fn tournaments(&self, limit: u32) -> Result<Vec<TournamentSummary>, ApiError> {
        let states = self.storage.recent_tournaments(limit.min(MAX_LIST)).await?;
        Ok((states.iter())
            .filter_map(|state| match Tournament::read(state) {
                Ok(t) => Some(t.summary()),
                Err(error) => {
                    tracing::error!(%error, "a stored tournament cannot be read");
                    None
                }
            })
            .collect())
    }

    /// Changes tournament `id` by `change`, which sees it as stored: stores what `change`
    /// made of it, with the games it made, in one transaction, if no other change came
    /// first; else tries again on the newer state. The tournament as it then stands.
    async fn change_tournament(
        self: &Arc<Hub>,
        id: &str,
        mut change: impl FnMut(&mut Tournament) -> Changed,
    ) -> Result<Tournament, ApiError> {
        for _ in 0..TRIES {
            let (mut tournament, version) = self.stored_tournament(id).await?;
            let Some(games) = change(&mut tournament)? else {
                return Ok(tournament);
            };
            let mut writes = vec![tournament.write(Some(version))];
            writes.extend(games.iter().map(|row| Write::Game(Box::new(row.clone()))));
            match self.storage.commit(writes).await {
                Ok(()) => {}
                Err(StorageError::TournamentChanged) => continue,
                Err(error) => return Err(error.into()),
            }
            // The news of a round before its games: a bot reads the pairings, then plays.
            self.tell_players_of(&tournament).await;
            for row in games {
                self.play_stored_game(row, None).await?;
            }
            return Ok(tournament);
        }
        Err(ApiError::Conflict(
            "the tournament is changing too fast: try again".into(),
        ))
    }

    /// Tells the registered bots and the people of `tournament`, on every node, that it moved
    /// on (once it has started: joins are not news).
    async fn tell_players_of(&self, tournament: &Tournament) {
        if tournament.stage == Stage::Open {
            return;
        }
        let news = News {
            people: tournament.players.iter().filter_map(person_key).collect(),
            tournament: Some(tournament.id.clone()),
        };
        self.tell(news).await;
        let bots: Vec<String> = (tournament.players.iter())
            .filter_map(|seat| seat.bot_id().map(str::to_string))
            .collect();
        for bot in &bots {
            self.bots.tell_tournament(bot, &tournament.id);
        }
        if let Some(cluster) = &self.cluster {
            let event = cluster::Event::Tournament {
                from: cluster.node.clone(),
                tournament: tournament.id.clone(),
                bots,
            };
            cluster.publish(&event).await;
        }
    }

    /// The person of `session` (an account) joins open tournament `id`.
    pub async fn join_tournament_as_person(
        self: &Arc<Hub>,
        session: &SessionRow,
        id: &str,
    ) -> Result<TournamentView, ApiError> {
        if session.account_id.is_none() {
            return Err(ApiError::BadRequest(
                "tournaments are for accounts: POST /api/accounts".into(),
            ));
        }
        self.join_tournament(id, session.seat()).await
    }

    /// Registered bot `bot` joins open tournament `id`.
    pub async fn join_tournament_as_bot(
        self: &Arc<Hub>,
        bot: &BotRow,
        id: &str,
    ) -> Result<TournamentView, ApiError> {
        let seat = Seat::Bot {
            bot: bot.id.clone(),
            name: bot.name.clone(),
        };
        self.join_tournament(id, seat).await
    }

    async fn join_tournament(
        self: &Arc<Hub>,
        id: &str,
        seat: Seat,
    ) -> Result<TournamentView, ApiError> {
        let key = seat.rated_player();
        let joined = self.change_tournament(id, |tournament| {
            if tournament.stage != Stage::Open {
                return Err(ApiError::Conflict("the tournament has started".into()));
            }
            if tournament.players.iter().any(|p| p.rated_player() == key) {
                return Err(ApiError::Conflict("already in this tournament".into()));
            }
            if tournament.players.len() >= MAX_PLAYERS {
                return Err(ApiError::Limit(format!("{MAX_PLAYERS} players at most")));
            }
            tournament.players.push(seat.clone());
            Ok(Some(Vec::new()))
        });
        Ok(joined.await?.view())
    }

    /// Its creator (`account`: a person's, or a bot's owner's) starts tournament `id`: the
    /// first round is paired and its games begin.
    pub async fn start_tournament(
        self: &Arc<Hub>,
        account: Option<&str>,
        id: &str,
    ) -> Result<TournamentView, ApiError> {
        // Its games count against the creator's address's limit: the first round's must fit.
        let (stored, _) = self.stored_tournament(id).await?;
        if let Some(address) = stored.creator_address {
            let playing = self.unfinished_created(CreatedBy::Address(address)).await?;
            let first_round = stored.players.len() / 2;
            if playing + first_round > self.limits.games_per_address {
                return Err(ApiError::Limit(format!(
                    "{} unfinished games from one address at most, a tournament's included",
                    self.limits.games_per_address
                )));
            }
        }
        let started = self.change_tournament(id, |tournament| {
            if account != Some(tournament.creator.as_str()) {
                return Err(ApiError::NotAPlayer);
            }
            if tournament.stage != Stage::Open {
                return Err(ApiError::Conflict("the tournament has started".into()));
            }
            let players = tournament.players.len();
            if players < 2 {
                return Err(ApiError::Conflict("a tournament needs two players".into()));
            }
            let most = match tournament.format {
                TournamentFormat::RoundRobin => round_robin(players).len(),
                TournamentFormat::Swiss => (players / 2).max(1),
            };
            tournament.rounds = tournament.rounds.min(most);
            tournament.history = History::new(players);
            tournament.stage = Stage::Running;
            Ok(Some(tournament.next_round()))
        });
        Ok(started.await?.view())
    }

    /// Moves on every running tournament that this server directs (on a node of a
    /// cluster, those whose lease it holds or takes now).
    async fn direct_tournaments(self: &Arc<Hub>) {
        let directed = match &self.cluster {
            Some(cluster) => {
                let now = now_ms();
                let until = now + cluster::LEASE.as_millis() as i64;
                (self.storage)
                    .direct_tournaments(&cluster.node, now, until)
                    .await
            }
            None => self.storage.running_tournaments().await,
        };
        let directed = match directed {
            Ok(directed) => directed,
            Err(error) => {
                tracing::warn!(%error, "cannot read the running tournaments");
                return;
            }
        };
        for id in directed {
            if let Err(error) = self.advance(&id).await {
                tracing::warn!(%error, tournament = %id, "cannot go on");
            }
        }
    }

    /// Records the current round of tournament `id` if all its games are over, and starts
    /// the next.
    async fn advance(self: &Arc<Hub>, id: &str) -> Result<(), ApiError> {
        let (tournament, _) = self.stored_tournament(id).await?;
        if tournament.stage == Stage::Cancelling {
            return self.wind_up(tournament).await;
        }
        let Some((_, ids)) = tournament.current else {
            return Ok(());
        };
        // The finished games are read as rows (their results), not replayed.
        let mut results = Vec::with_capacity(ids.len());
        for game in &ids {
            let row = (self.storage.game(game).await?)
                .ok_or_else(|| ApiError::NotFound(format!("game '{game}'")))?;
            if row.status != Status::Finished {
                return Ok(());
            }
            results.push(match row.result.and_then(|r| r.winner) {
                Some(Color::White) => GameResult::WhiteWins,
                Some(Color::Black) => GameResult::BlackWins,
                None => GameResult::Draw,
            });
        }
        let advanced = self.change_tournament(id, |tournament| {
            // Recorded meanwhile (by this node's earlier pass or a director before it).
            if tournament.current.as_ref().map(|(_, now)| now) != Some(&ids) {
                return Ok(None);
            }
            let (round, ids) = tournament.current.take().expect("the round read");
            tournament.history.rounds.push((round, results.clone()));
            tournament.game_ids.push(ids);
            Ok(Some(tournament.next_round()))
        });
        advanced.await.map(drop)
    }

    /// Aborts the unfinished games of cancelled `tournament`'s round under way (no rating
    /// changes by an abort), then marks it cancelled.
    async fn wind_up(self: &Arc<Hub>, tournament: Tournament) -> Result<(), ApiError> {
        let ids = tournament.current.map(|(_, ids)| ids).unwrap_or_default();
        for id in &ids {
            let live = self.find(id).await?;
            let mut game = live.game.lock().await;
            self.reload(&mut game).await?;
            if let Some(change) = game.prepare_cancel(std::time::Instant::now(), now_ms()) {
                self.commit(&live, &mut game, change).await?;
            }
        }
        let cancelled = self.change_tournament(&tournament.id, |tournament| {
            if tournament.stage != Stage::Cancelling {
                return Ok(None);
            }
            tournament.stage = Stage::Cancelled;
            Ok(Some(Vec::new()))
        });
        cancelled.await.map(drop)
    }

    /// Lets another node direct the tournaments that this one directed (it stops).
    pub(super) async fn release_tournaments(&self) {
        if let Some(cluster) = &self.cluster {
            if let Err(error) = self.storage.release_tournaments(&cluster.node).await {
                tracing::warn!(%error, "cannot give up the tournaments; their leases expire");
            }
        }
    }
}

/// Directs the running tournaments every [`TICK`] until the hub stops.
pub(super) async fn run_tournaments(hub: Arc<Hub>) {
    super::every(
        hub,
        TICK,
        |hub| async move { hub.direct_tournaments().await },
    )
    .await;
}

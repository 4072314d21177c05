//! Tournaments on the server: an account creates one (a rule set at its default parameters,
//! a clock, round robin or Swiss, a number of rounds, rated or not, and house bots to take
//! part); people with accounts and registered bots join; its creator starts it; then each
//! round starts by itself once the previous one is over, with the pairings and tie-breaks of
//! `crate::pairing`. A tournament's whole state is stored as one JSON row after every change,
//! and the server that created it runs it (a single server picks it up again after a
//! restart; a node of a cluster does not, lest two nodes run it).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toroid_rules::{Color, GameKind};
use toroid_search::Level;

use crate::api::{
    NewTournament, TournamentFormat, TournamentGame, TournamentInfo, TournamentRound,
    TournamentStanding, TournamentSummary, TournamentView,
};
use crate::error::ApiError;
use crate::game::{clock_settings, player_view};
use crate::ids::{new_id, now_ms};
use crate::pairing::{round_robin, History, Result as GameResult, Round};
use crate::seat::Seat;
use crate::storage::{BotRow, SessionRow, Status, TimeControl, Write};

use super::lobby::time_control;
use super::{lock, Hub, MAX_LIST};

/// How often running tournaments are looked at for a finished round.
const TICK: Duration = Duration::from_millis(500);
/// Players in one tournament at most.
pub const MAX_PLAYERS: usize = 64;

/// Where a tournament is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Players join until its creator starts it.
    Open,
    Running,
    Finished,
}

impl Stage {
    fn as_str(self) -> &'static str {
        match self {
            Stage::Open => "open",
            Stage::Running => "running",
            Stage::Finished => "finished",
        }
    }
}

/// A tournament's whole state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tournament {
    pub id: String,
    pub name: String,
    /// The rule set's name.
    pub game: String,
    pub clock: TimeControl,
    pub format: TournamentFormat,
    pub rounds: usize,
    pub rated: bool,
    /// The account that created it.
    pub creator: String,
    /// Its name (kept since the state was first written: older states lack it).
    #[serde(default)]
    pub creator_name: String,
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
    fn write(&self) -> Write {
        Write::Tournament {
            id: self.id.clone(),
            state: serde_json::to_string(self).expect("tournaments serialize"),
            status: self.stage.as_str(),
            created_at: self.created_at,
        }
    }

    fn info(&self) -> TournamentInfo {
        TournamentInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            creator: self.creator_name.clone(),
            created_at: self.created_at,
            game: self.game.clone(),
            clock: clock_settings(self.clock),
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

fn parse_state(state: &str) -> Result<Tournament, ApiError> {
    serde_json::from_str(state)
        .map_err(|e| ApiError::Storage(crate::storage::StorageError::Corrupt(e.to_string())))
}

fn result_word(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "white",
        GameResult::Draw => "draw",
        GameResult::BlackWins => "black",
    }
}

/// The tournaments this server runs (or that wait to start), by id.
#[derive(Default)]
pub struct Tournaments {
    held: std::sync::Mutex<HashMap<String, Tournament>>,
}

impl Hub {
    /// A new tournament created by `creator` (a session signed in to an account), open for
    /// players, with the house bots it names already in.
    pub async fn create_tournament(
        &self,
        creator: &SessionRow,
        request: NewTournament,
    ) -> Result<TournamentView, ApiError> {
        let account = creator.account_id.clone().ok_or_else(|| {
            ApiError::BadRequest("tournaments are created by accounts: POST /api/accounts".into())
        })?;
        let game: GameKind =
            (request.game.parse()).map_err(|e| ApiError::BadRequest(format!("{e}")))?;
        let clock = time_control(request.clock)?;
        if request.rounds == 0 {
            return Err(ApiError::BadRequest(
                "a tournament has at least one round".into(),
            ));
        }
        let name = request.name.trim();
        if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
            return Err(ApiError::BadRequest(
                "a tournament's name has 1 to 64 characters".into(),
            ));
        }
        let mut players = Vec::new();
        for level in &request.house {
            let level: Level = level
                .parse()
                .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
            let seat = Seat::House { level };
            if players.contains(&seat) {
                return Err(ApiError::BadRequest(format!(
                    "{} is in twice",
                    level.name()
                )));
            }
            players.push(seat);
        }
        let tournament = Tournament {
            id: new_id(),
            name: name.to_string(),
            game: game.name().to_string(),
            clock,
            format: request.format,
            rounds: request.rounds,
            rated: request.rated,
            creator: account,
            creator_name: creator.name.clone(),
            stage: Stage::Open,
            players,
            history: History::new(0),
            game_ids: Vec::new(),
            current: None,
            created_at: now_ms(),
        };
        self.storage.commit(vec![tournament.write()]).await?;
        let view = tournament.view();
        lock(&self.tournaments.held).insert(tournament.id.clone(), tournament);
        Ok(view)
    }

    /// Tournament `id` as it stands.
    pub async fn tournament(&self, id: &str) -> Result<TournamentView, ApiError> {
        if let Some(t) = lock(&self.tournaments.held).get(id) {
            return Ok(t.view());
        }
        let state = (self.storage.tournament(id).await?)
            .ok_or_else(|| ApiError::NotFound(format!("tournament '{id}'")))?;
        Ok(parse_state(&state)?.view())
    }

    /// The latest `limit` tournaments, newest first, as stored (a damaged row is skipped
    /// and logged).
    pub async fn tournaments(&self, limit: u32) -> Result<Vec<TournamentSummary>, ApiError> {
        let states = self.storage.recent_tournaments(limit.min(MAX_LIST)).await?;
        Ok((states.iter())
            .filter_map(|state| match parse_state(state) {
                Ok(t) => Some(t.summary()),
                Err(error) => {
                    tracing::error!(%error, "a stored tournament cannot be read");
                    None
                }
            })
            .collect())
    }

    /// The person of `session` (an account) joins open tournament `id`.
    pub async fn join_tournament_as_person(
        &self,
        session: &SessionRow,
        id: &str,
    ) -> Result<TournamentView, ApiError> {
        if session.account_id.is_none() {
            return Err(ApiError::BadRequest(
                "tournaments are for accounts: POST /api/accounts".into(),
            ));
        }
        self.join_tournament(id, Seat::person(session)).await
    }

    /// Registered bot `bot` joins open tournament `id`.
    pub async fn join_tournament_as_bot(
        &self,
        bot: &BotRow,
        id: &str,
    ) -> Result<TournamentView, ApiError> {
        let seat = Seat::Bot {
            bot: bot.id.clone(),
            name: bot.name.clone(),
        };
        self.join_tournament(id, seat).await
    }

    async fn join_tournament(&self, id: &str, seat: Seat) -> Result<TournamentView, ApiError> {
        let mut tournament = self.held_tournament(id)?;
        if tournament.stage != Stage::Open {
            return Err(ApiError::Conflict("the tournament has started".into()));
        }
        let key = seat.rated_player();
        if tournament.players.iter().any(|p| p.rated_player() == key) {
            return Err(ApiError::Conflict("already in this tournament".into()));
        }
        if tournament.players.len() >= MAX_PLAYERS {
            return Err(ApiError::Limit(format!("{MAX_PLAYERS} players at most")));
        }
        tournament.players.push(seat);
        self.storage.commit(vec![tournament.write()]).await?;
        let view = tournament.view();
        lock(&self.tournaments.held).insert(id.to_string(), tournament);
        Ok(view)
    }

    /// A copy of open or running tournament `id`, held by this server.
    fn held_tournament(&self, id: &str) -> Result<Tournament, ApiError> {
        lock(&self.tournaments.held)
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(format!("open tournament '{id}' on this server")))
    }

    /// Its creator (`session`) starts tournament `id`: the first round is paired and
    /// its games begin.
    pub async fn start_tournament(
        self: &Arc<Hub>,
        session: &SessionRow,
        id: &str,
    ) -> Result<TournamentView, ApiError> {
        let mut tournament = self.held_tournament(id)?;
        if session.account_id.as_deref() != Some(tournament.creator.as_str()) {
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
        self.next_round(&mut tournament).await?;
        let view = tournament.view();
        lock(&self.tournaments.held).insert(id.to_string(), tournament);
        Ok(view)
    }

    /// Pairs and starts the next round of `tournament`, or finishes it; stores it.
    async fn next_round(self: &Arc<Hub>, tournament: &mut Tournament) -> Result<(), ApiError> {
        let played = tournament.history.rounds.len();
        let round = match (played < tournament.rounds, tournament.format) {
            (false, _) => None,
            (true, TournamentFormat::RoundRobin) => round_robin(tournament.players.len())
                .into_iter()
                .nth(played),
            (true, TournamentFormat::Swiss) => tournament.history.next_swiss_round(),
        };
        let Some(round) = round else {
            tournament.stage = Stage::Finished;
            tournament.current = None;
            self.storage.commit(vec![tournament.write()]).await?;
            return Ok(());
        };
        let kind: GameKind =
            (tournament.game.parse()).map_err(|e| ApiError::BadRequest(format!("{e}")))?;
        let start = kind.default_game();
        let mut ids = Vec::new();
        for game in &round.games {
            let mut seats = [None, None];
            seats[Color::White.index()] = Some(tournament.players[game.white].clone());
            seats[Color::Black.index()] = Some(tournament.players[game.black].clone());
            let rated = tournament.rated;
            let live = (self.open_game(&start, Some(tournament.clock), seats, None, rated)).await?;
            ids.push(live.id.clone());
        }
        tournament.current = Some((round, ids));
        self.storage.commit(vec![tournament.write()]).await?;
        Ok(())
    }

    /// Moves every running tournament whose round is over on to its next round.
    async fn advance_tournaments(self: &Arc<Hub>) {
        let running: Vec<Tournament> = (lock(&self.tournaments.held).values())
            .filter(|t| t.stage == Stage::Running)
            .cloned()
            .collect();
        for mut tournament in running {
            match self.advance(&mut tournament).await {
                Ok(()) => {
                    let mut held = lock(&self.tournaments.held);
                    match tournament.stage {
                        Stage::Finished => held.remove(&tournament.id),
                        _ => held.insert(tournament.id.clone(), tournament),
                    };
                }
                Err(error) => tracing::warn!(%error, tournament = %tournament.id, "cannot go on"),
            }
        }
    }

    /// Records the current round of `tournament` if all its games are over, and starts the
    /// next.
    async fn advance(self: &Arc<Hub>, tournament: &mut Tournament) -> Result<(), ApiError> {
        let Some((round, ids)) = tournament.current.clone() else {
            return self.next_round(tournament).await;
        };
        // A game still held is still played; only then are the finished ones read, as rows
        // (their results), not replayed.
        if ids.iter().any(|id| lock(&self.live).contains_key(id)) {
            return Ok(());
        }
        let mut results = Vec::with_capacity(ids.len());
        for id in &ids {
            let row = (self.storage.game(id).await?)
                .ok_or_else(|| ApiError::NotFound(format!("game '{id}'")))?;
            if row.status != Status::Finished {
                return Ok(());
            }
            results.push(match row.result.and_then(|r| r.winner) {
                Some(Color::White) => GameResult::WhiteWins,
                Some(Color::Black) => GameResult::BlackWins,
                None => GameResult::Draw,
            });
        }
        tournament.history.rounds.push((round, results));
        tournament.game_ids.push(ids);
        tournament.current = None;
        self.next_round(tournament).await
    }

    /// Takes back the tournaments that were open or running when this server stopped. (Not
    /// on a node of a cluster, where another node may run them: there a tournament lives
    /// on the node it was created on.)
    pub(super) async fn restore_tournaments(&self) -> Result<(), ApiError> {
        if self.cluster.is_some() {
            return Ok(());
        }
        for state in self.storage.unfinished_tournaments().await? {
            match parse_state(&state) {
                Ok(t) => {
                    lock(&self.tournaments.held).insert(t.id.clone(), t);
                }
                Err(error) => tracing::error!(%error, "a stored tournament cannot be read"),
            }
        }
        Ok(())
    }
}

/// Moves the running tournaments on every [`TICK`] until the hub stops.
pub(super) async fn run_tournaments(hub: Arc<Hub>) {
    super::every(
        hub,
        TICK,
        |hub| async move { hub.advance_tournaments().await },
    )
    .await;
}

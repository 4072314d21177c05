//! What ratings show: a pool's leaderboard and a player's page.

mod queries;
pub mod routes;
pub mod wire;

use toroid_rules::{Color, GameKind, Outcome, Position, Reason};
use toroid_search::Level;

use toroid_protocol::view::PerColor;

use crate::api::{GameRatings, PlayerPage, PoolRating, RatingChange, RatingPoint, RatingView};
use crate::error::ApiError;
use crate::game::Game;
use crate::ids::now_ms;
use crate::model::{Seat, Status};
use crate::rating::Rating;
use crate::storage::{AccountKey, BotKey, RatingRow, StorageError, Write};

use super::Hub;
use crate::model::name_key;

/// Players on a leaderboard at most.
const LEADERBOARD: u32 = 100;
/// Recent games on a player's page.
const RECENT_GAMES: u32 = 20;

/// How often a rated game's end is tried again when another game changed a rating
/// meanwhile.
const RATING_TRIES: usize = 8;
/// Moves each side makes before a game that the rules did not end changes a rating: a
/// shorter game, resigned, timed out or abandoned, is as lichess's aborted games.
const MOVES_TO_COUNT: usize = 2;
/// Rated games between the same two players that change their ratings in a day (games
/// between two registered bots, as in the arena, are not limited).
pub const PAIR_GAMES_A_DAY: i64 = 5;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// A house level's deviation when it enters a pool: its rating was measured, over hundreds
/// of games, so it moves slowly.
const HOUSE_DEVIATION: f64 = 60.0;

/// The rating `seat` enters `pool` at: a house level's the ladder measured, anyone else's
/// Glicko-2's default.
fn first_rating(seat: &Seat, pool: GameKind) -> Rating {
    match seat {
        Seat::House { level } => Rating {
            rating: level.ladder_rating(pool),
            deviation: HOUSE_DEVIATION,
            ..Rating::default()
        },
        _ => Rating::default(),
    }
}

/// A value rounded to a tenth, as ratings are shown.
pub(super) fn tenth(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

fn view(row: &RatingRow) -> RatingView {
    let kind = match row.player.split(':').next() {
        Some("account") => "person",
        Some("bot") => "bot",
        _ => "house",
    };
    RatingView {
        name: row.name.clone(),
        kind,
        pool: row.pool,
        rating: tenth(row.rating.rating),
        deviation: tenth(row.rating.deviation),
        volatility: row.rating.volatility,
        games: row.games,
        provisional: row.rating.provisional(),
    }
}

impl Hub {
    /// The players of the pool of rule set `game`, highest rating first.
    pub async fn leaderboard(&self, game: &str) -> Result<Vec<RatingView>, ApiError> {
        let kind: GameKind = game
            .parse()
            .map_err(|e| ApiError::NotFound(format!("{e}")))?;
        let rows = self.storage.leaderboard(kind, LEADERBOARD).await?;
        Ok(rows.iter().map(view).collect())
    }

    /// The page of the player called `name`: an account (whatever the case), else a
    /// registered bot, else a house level.
    pub async fn player(&self, name: &str) -> Result<PlayerPage, ApiError> {
        let (player, kind, shown, bots) = match self
            .storage
            .account(AccountKey::NameKey(&name_key(name)))
            .await?
        {
            Some(account) => {
                let bots = self.storage.bots_of(&account.id).await?;
                let names = bots.into_iter().map(|b| b.name).collect();
                (
                    format!("account:{}", account.id),
                    "person",
                    account.name,
                    names,
                )
            }
            None => match self.storage.bot(BotKey::Name(name)).await? {
                Some(bot) => (format!("bot:{}", bot.id), "bot", bot.name, Vec::new()),
                None => match name.parse::<Level>() {
                    Ok(level) => (
                        format!("house:{}", level.name()),
                        "house",
                        level.name().to_string(),
                        Vec::new(),
                    ),
                    Err(_) => return Err(ApiError::NotFound(format!("player '{name}'"))),
                },
            },
        };
        let mut ratings = Vec::new();
        for row in self.storage.ratings_of(&player).await? {
            let history = (self.storage.rating_history(&player, row.pool).await?)
                .into_iter()
                .map(|(game_id, at, after)| RatingPoint {
                    game_id,
                    at,
                    rating: tenth(after.rating),
                })
                .collect();
            ratings.push(PoolRating {
                rating: view(&row),
                history,
            });
        }
        let games = self
            .list(Some(Status::Finished), Some(&shown), RECENT_GAMES)
            .await?;
        Ok(PlayerPage {
            name: shown,
            kind,
            ratings,
            games,
            bots,
        })
    }

    /// Stores `writes`, which end rated game `game` with `end`, together with both players'
    /// ratings, or none of them. A rating that another game changed meanwhile is worked out
    /// again, up to [`RATING_TRIES`] times.
    pub(super) async fn commit_rated_end(
        &self,
        game: &Game,
        writes: Vec<Write>,
        end: Outcome,
    ) -> Result<Result<(), StorageError>, ApiError> {
        let mut stored = Err(StorageError::RatingChanged);
        for _ in 0..RATING_TRIES {
            let mut all = writes.clone();
            all.extend(self.rating_writes(game, end).await?);
            stored = self.storage.commit(all).await;
            if !matches!(stored, Err(StorageError::RatingChanged)) {
                break;
            }
        }
        Ok(stored)
    }

    /// The rating changes of the end `end` of rated game `game`: none when
    /// [`Hub::counts_for_ratings`] says it does not count.
    async fn rating_writes(&self, game: &Game, end: Outcome) -> Result<Vec<Write>, ApiError> {
        if !self.counts_for_ratings(game, end).await? {
            return Ok(Vec::new());
        }
        let pool = game.position.kind();
        let mut players = Vec::new();
        for seat in game.seats.iter().flatten() {
            let Some(player) = seat.rated_player() else {
                return Ok(Vec::new());
            };
            let (rating, games) = self.standing(seat, &player, pool).await?;
            players.push((seat, player, rating, games));
        }
        let black_score = match end.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
        let at = now_ms();
        Ok((players.iter().enumerate())
            .map(|(i, (seat, player, rating, games))| {
                let (opponent, score) = match i {
                    0 => (players[1].2, black_score),
                    _ => (players[0].2, 1.0 - black_score),
                };
                Write::Rating {
                    row: RatingRow {
                        player: player.clone(),
                        pool,
                        name: seat.name().to_string(),
                        rating: rating.after(&[(opponent, score)]),
                        games: games + 1,
                        updated_at: at,
                    },
                    before: *rating,
                    game_id: game.id.clone(),
                }
            })
            .collect())
    }

    /// Whether the end `end` of rated game `game` changes ratings. It does not when the game
    /// was aborted; when it ended before each side made [`MOVES_TO_COUNT`] moves, other
    /// than by the rules on the board; when one owner is on both seats (an account and its
    /// bot, or two of its bots); or when the two players, one of them a person and neither a
    /// house bot (a game against one is played, not arranged), have had
    /// [`PAIR_GAMES_A_DAY`] rated games in the last day.
    async fn counts_for_ratings(&self, game: &Game, end: Outcome) -> Result<bool, ApiError> {
        if end.reason == Reason::Abort {
            return Ok(false);
        }
        let moves_of = |color| {
            game.moves
                .iter()
                .filter(|(mover, _)| *mover == color)
                .count()
        };
        let short = Color::BOTH
            .into_iter()
            .any(|c| moves_of(c) < MOVES_TO_COUNT);
        if short && !end.reason.is_by_rules() {
            return Ok(false);
        }
        let [Some(black), Some(white)] = &game.seats else {
            return Ok(false);
        };
        let (Some(black_owner), Some(white_owner)) =
            (self.owner_of(black).await?, self.owner_of(white).await?)
        else {
            return Ok(true); // a house bot: nobody owns it
        };
        if black_owner == white_owner {
            return Ok(false);
        }
        let people = matches!(black, Seat::Person { .. }) || matches!(white, Seat::Person { .. });
        if !people {
            return Ok(true);
        }
        let (Some(a), Some(b)) = (black.rated_player(), white.rated_player()) else {
            return Ok(false);
        };
        let played = (self.storage)
            .rated_games_between(&a, &b, now_ms() - DAY_MS)
            .await?;
        Ok(played < PAIR_GAMES_A_DAY)
    }

    /// The rating of `player`, on `seat`, in `pool` and its rated games there: as stored,
    /// or the rating it enters the pool at.
    pub(super) async fn standing(
        &self,
        seat: &Seat,
        player: &str,
        pool: GameKind,
    ) -> Result<(Rating, i64), StorageError> {
        let stored = self.storage.rating(player, pool).await?;
        Ok(stored.map_or((first_rating(seat, pool), 0), |r| (r.rating, r.games)))
    }

    /// The ratings in `pool` of the players of `seats` (black's, white's), as they stand: a
    /// player not yet rated at the rating it would enter at; a guest (who plays no rated
    /// game) and an open seat without one.
    pub async fn ratings_of_seats(
        &self,
        seats: &[Option<Seat>; 2],
        pool: GameKind,
    ) -> Result<PerColor<Option<f64>>, ApiError> {
        let mut ratings = [None, None];
        for (i, seat) in seats.iter().enumerate() {
            if let Some((seat, player)) = seat.as_ref().and_then(|s| Some((s, s.rated_player()?))) {
                let (rating, _) = self.standing(seat, &player, pool).await?;
                ratings[i] = Some(tenth(rating.rating));
            }
        }
        Ok(PerColor::from_array(ratings))
    }

    /// What finished game `game_id` (between `seats`) did to its players' ratings, by colour:
    /// `None` for a player whose rating it did not change (an unrated game, or one that did
    /// not count).
    pub async fn rating_changes(
        &self,
        game_id: &str,
        seats: &[Option<Seat>; 2],
    ) -> Result<PerColor<Option<RatingChange>>, ApiError> {
        let changes = self.storage.rating_changes(game_id).await?;
        let of = |seat: &Option<Seat>| {
            let player = seat.as_ref()?.rated_player()?;
            let (_, before, after) = changes.iter().find(|(p, _, _)| *p == player)?;
            Some(RatingChange {
                before: tenth(before.rating),
                after: tenth(after.rating),
            })
        };
        Ok(PerColor {
            black: of(&seats[0]),
            white: of(&seats[1]),
        })
    }

    /// `GET /api/games/{id}/ratings`: the ratings of a rated game's players, and once it is
    /// over what it did to them.
    pub async fn game_ratings(&self, id: &str) -> Result<GameRatings, ApiError> {
        let live = self.find(id).await?;
        let (seats, pool, finished) = {
            let game = live.game.lock().await;
            if !game.rated {
                return Ok(GameRatings::default());
            }
            let finished = game.status == Status::Finished;
            (game.seats.clone(), game.position.kind(), finished)
        };
        let changes = match finished {
            true => self.rating_changes(id, &seats).await?,
            false => PerColor::default(),
        };
        Ok(GameRatings {
            ratings: self.ratings_of_seats(&seats, pool).await?,
            changes,
        })
    }

    /// Who owns the player on `seat`: a person's account, a bot's owner; `None` for a house
    /// bot or a guest.
    pub(super) async fn owner_of(&self, seat: &Seat) -> Result<Option<String>, StorageError> {
        Ok(match seat {
            Seat::Person { account, .. } => account.clone(),
            Seat::Bot { bot, .. } => self.storage.bot(BotKey::Id(bot)).await?.map(|b| b.owner),
            Seat::House { .. } => None,
        })
    }
}

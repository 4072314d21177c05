//! What ratings show: a pool's leaderboard and a player's page.

mod queries;
pub mod routes;
pub mod wire;

use toroid_rules::GameKind;
use toroid_search::Level;

use crate::api::{PlayerPage, PoolRating, RatingPoint, RatingView};
use crate::error::ApiError;
use crate::model::Status;
use crate::storage::{BotKey, RatingRow};

use super::accounts::name_key;
use super::Hub;

/// Players on a leaderboard at most.
const LEADERBOARD: u32 = 100;
/// Recent games on a player's page.
const RECENT_GAMES: u32 = 20;

/// A value rounded to a tenth, as ratings are shown.
fn tenth(value: f64) -> f64 {
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
        let (player, kind, shown, bots) = match self.storage.account(&name_key(name)).await? {
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
}

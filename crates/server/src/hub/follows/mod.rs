//! Following players, as on lichess: a person keeps a list of players (by name) and sees, for
//! each, whether they are online (a page of theirs open: its news socket marks its session
//! every minute) and their live games, with a way to challenge them. Stored as rows, one a
//! pair; nothing is told to the player followed.

mod queries;
pub mod routes;
pub mod wire;

use crate::error::ApiError;
use crate::ids::now_ms;
use crate::model::{name_key, Status};
use crate::storage::{AccountKey, BotKey, SessionRow, Write};
use wire::FollowView;

use super::Hub;

/// Players a person follows at most.
const MAX_FOLLOWS: usize = 200;
/// Live games shown for each player followed.
const GAMES_SHOWN: u32 = 5;
/// A session marked within this long is online; its news socket marks it every minute.
pub const ONLINE_MS: i64 = 2 * 60 * 1000;
/// How often a news socket marks its session online.
pub const MARK_EVERY_MS: i64 = 60 * 1000;

impl Hub {
    /// `session`'s person follows the player `name` (`follow`), or no longer does.
    pub async fn follow(
        &self,
        session: &SessionRow,
        name: &str,
        follow: bool,
    ) -> Result<(), ApiError> {
        let name = self.other_player(session, name, "follow", follow).await?;
        let follower = session.owner_id().to_string();
        if follow && self.storage.follows(&follower).await?.len() >= MAX_FOLLOWS {
            return Err(ApiError::Limit(format!(
                "{MAX_FOLLOWS} players followed at most"
            )));
        }
        // The name as its holder writes it (an account's, a bot's), which its games show.
        let account = self
            .storage
            .account(AccountKey::NameKey(name.key()))
            .await?;
        let bot = match account {
            Some(_) => None,
            None => self.storage.bot(BotKey::Name(name.as_str())).await?,
        };
        let held = (account.map(|a| a.name)).or(bot.map(|b| b.name));
        let write = Write::Follow {
            follower,
            name: held.unwrap_or_else(|| name.as_str().to_string()),
            at: follow.then(now_ms),
        };
        self.storage.commit(vec![write]).await?;
        Ok(())
    }

    /// The players `session`'s person follows, newest first: online or not, and their live
    /// games.
    pub async fn follows(&self, session: &SessionRow) -> Result<Vec<FollowView>, ApiError> {
        let follows = self.storage.follows(session.owner_id()).await?;
        let since = now_ms() - ONLINE_MS;
        let mut views = Vec::new();
        for (name, at) in follows {
            let online = self.storage.online(&name_key(&name), since).await?;
            let games = self
                .list(Some(Status::Live), Some(&name), GAMES_SHOWN)
                .await?;
            views.push(FollowView {
                name,
                at,
                online,
                games,
            });
        }
        Ok(views)
    }

    /// Marks `session` online now (its person has a page open).
    pub(in crate::hub) async fn mark_online(&self, session: &SessionRow) -> Result<(), ApiError> {
        let write = Write::Online {
            session: session.id.clone(),
            at: now_ms(),
        };
        Ok(self.storage.commit(vec![write]).await?)
    }
}

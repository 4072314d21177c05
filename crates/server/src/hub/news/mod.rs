//! A person's news, over one WebSocket per page (`GET /api/me/ws`, `ws.rs`): challenges to
//! them, their games starting, their move in a correspondence game and a reminder before its
//! time runs out, and their tournaments moving on. What changed is told by a word (`News`,
//! the keys of the people it concerns) on this node's bus and, in a cluster, over Redis; each
//! socket then reads what it shows from the database, so a word lost or doubled costs
//! nothing but a look.

pub mod routes;
pub mod wire;
pub mod ws;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use toroid_rules::Color;

use crate::cluster::Event;
use crate::error::ApiError;
use crate::game::Game;
use crate::model::Seat;
use crate::storage::SessionRow;

use super::Hub;

/// Words a slow socket may fall behind by before it looks again at everything.
const BACKLOG: usize = 256;

/// Something changed for `people` (keys of [`person_key`]): a game, a challenge, or, when
/// `tournament` is given, that tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct News {
    pub people: Vec<String>,
    #[serde(default)]
    pub tournament: Option<String>,
}

/// The bus of news on this node.
pub struct NewsState {
    bus: broadcast::Sender<News>,
}

impl NewsState {
    pub(super) fn new() -> NewsState {
        NewsState {
            bus: broadcast::Sender::new(BACKLOG),
        }
    }
}

/// The key of the person on `seat` in news: their account's, else their guest session's;
/// `None` for a bot.
pub fn person_key(seat: &Seat) -> Option<String> {
    match seat {
        Seat::Person {
            account: Some(account),
            ..
        } => Some(format!("account:{account}")),
        Seat::Person { session, .. } => Some(format!("session:{session}")),
        Seat::House { .. } | Seat::Bot { .. } => None,
    }
}

/// The keys the news for `session`'s person come by: its session's and its account's.
pub fn keys_of(session: &SessionRow) -> Vec<String> {
    let mut keys = vec![format!("session:{}", session.id)];
    keys.extend(session.account_id.as_ref().map(|a| format!("account:{a}")));
    keys
}

impl Hub {
    /// Tells `news` to the sockets here and, in a cluster, on the other nodes.
    pub(super) async fn tell(&self, news: News) {
        if news.people.is_empty() {
            return;
        }
        if let Some(cluster) = &self.cluster {
            let event = Event::News {
                from: cluster.node.clone(),
                news: news.clone(),
            };
            cluster.publish(&event).await;
        }
        self.tell_here(news);
    }

    /// Tells `news` to the sockets on this node.
    pub(super) fn tell_here(&self, news: News) {
        // Nobody listening is no error.
        let _ = self.news.bus.send(news);
    }

    /// The news from now on, for a socket to pick its own from.
    pub fn news(&self) -> broadcast::Receiver<News> {
        self.news.bus.subscribe()
    }

    /// In live game `id`, if it is played on a correspondence clock and `session`'s person
    /// plays it: the time a move has and the time that person has left (milliseconds).
    pub async fn correspondence_left(
        &self,
        id: &str,
        session: &SessionRow,
    ) -> Result<Option<(i64, i64)>, ApiError> {
        let live = self.find(id).await?;
        let game = live.game.lock().await;
        let Some(clock) = game.clock.filter(|c| c.control.days_per_move().is_some()) else {
            return Ok(None);
        };
        let mine = (Color::BOTH.into_iter()).find(|c| {
            game.seats[c.index()]
                .as_ref()
                .is_some_and(|s| session.sits_at(s))
        });
        Ok(mine.map(|color| {
            let left = clock.left(std::time::Instant::now())[color.index()];
            (clock.control.increment_ms(), left)
        }))
    }

    /// Tells the people of `game` that it changed.
    pub(super) async fn tell_players(&self, game: &Game) {
        let people = game.seats.iter().flatten().filter_map(person_key).collect();
        self.tell(News {
            people,
            tournament: None,
        })
        .await;
    }
}

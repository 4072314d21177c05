//! Each game's chat: a room for its players and a separate one for its spectators, as on
//! lichess. Lines are stored with the game, carried live over the game's WebSocket, and
//! passed between the nodes of a cluster.

mod queries;

use std::num::NonZeroU32;
use std::sync::atomic::Ordering;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::game::Actor;
use crate::game::Game;
use crate::ids::{new_id, now_ms};
use crate::model::text::shows_as_typed;
use crate::storage::{BotRow, ChatRow, SessionRow, Write};

use super::{Hub, LiveGame};

/// Longest line, in characters.
pub const MAX_CHAT_CHARS: usize = 280;
/// Lines a room shows on arrival: the latest.
const CHAT_HISTORY: u32 = 100;
/// A person says up to 5 lines at once, then one every 2 seconds.
const CHAT_BURST: u32 = 5;
const CHAT_PERIOD: Duration = Duration::from_secs(2);

/// What the chat keeps in memory: how fast each session has spoken (on this node).
pub struct ChatState {
    lines: DefaultKeyedRateLimiter<String>,
}

impl ChatState {
    pub(super) fn new() -> ChatState {
        let quota = Quota::with_period(CHAT_PERIOD)
            .expect("a period above zero")
            .allow_burst(NonZeroU32::new(CHAT_BURST).expect("a burst above zero"));
        ChatState {
            lines: RateLimiter::keyed(quota),
        }
    }

    /// Forgets sessions that have not spoken lately.
    pub(super) fn forget_idle(&self) {
        self.lines.retain_recent();
    }
}

/// Who reads and writes a room.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    Players,
    Spectators,
}

impl Room {
    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    /// The room of `viewer` (a session id) in `game`: its players', or everyone else's.
    pub fn of(game: &Game, viewer: Option<&str>) -> Room {
        match viewer.and_then(|v| game.color_of(v)) {
            Some(_) => Room::Players,
            None => Room::Spectators,
        }
    }
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChatLine {
    pub id: String,
    pub room: Room,
    /// The author's name.
    pub author: String,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
}

impl ChatLine {
    fn from_row(row: ChatRow) -> Option<ChatLine> {
        let room = [Room::Players, Room::Spectators]
            .into_iter()
            .find(|r| r.name() == row.room)?;
        Some(ChatLine {
            id: row.id,
            room,
            author: row.author,
            text: row.body,
            at: row.at,
        })
    }
}

/// A line as typed, checked: trimmed, not empty, at most [`MAX_CHAT_CHARS`] characters,
/// without control characters or any that hides or reorders text.
fn checked(text: &str) -> Result<&str, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::BadRequest("a chat line has some text".into()));
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err(ApiError::BadRequest(format!(
            "a chat line has at most {MAX_CHAT_CHARS} characters"
        )));
    }
    if !text.chars().all(shows_as_typed) {
        return Err(ApiError::BadRequest(
            "a chat line is one line of text, without control, direction or invisible characters"
                .into(),
        ));
    }
    Ok(text)
}

impl Hub {
    /// Whether this server has chat (`Limits::chat`).
    pub fn chat_on(&self) -> bool {
        self.limits.chat
    }

    /// The room `viewer` (a session id) reads in game `live`, and its latest lines.
    pub async fn chat_history(
        &self,
        live: &LiveGame,
        viewer: Option<&str>,
    ) -> Result<(Room, Vec<ChatLine>), ApiError> {
        let room = Room::of(&*live.game.lock().await, viewer);
        let rows = (self.storage)
            .chat(&live.id, room.name(), CHAT_HISTORY)
            .await?;
        Ok((
            room,
            rows.into_iter().filter_map(ChatLine::from_row).collect(),
        ))
    }

    /// `speaker` says `text` in its room of game `live`: stored, then passed to everyone
    /// who reads the room, here and on the other nodes, and to the registered bots that play
    /// the game when it is the players' room.
    pub async fn say(
        &self,
        live: &LiveGame,
        speaker: Speaker<'_>,
        text: &str,
    ) -> Result<(), ApiError> {
        if !self.chat_on() {
            return Err(ApiError::Conflict(
                "chat is turned off on this server".into(),
            ));
        }
        let text = checked(text)?;
        if self.chat.lines.check_key(&speaker.key()).is_err() {
            return Err(ApiError::RateLimited);
        }
        let room = {
            let game = live.game.lock().await;
            match speaker {
                Speaker::Person(session) => Room::of(&game, Some(&session.id)),
                Speaker::Bot(bot) if game.colors_of(Actor::Bot(&bot.id)).is_empty() => {
                    return Err(ApiError::NotAPlayer)
                }
                Speaker::Bot(_) => Room::Players,
            }
        };
        let line = ChatLine {
            id: new_id(),
            room,
            author: speaker.name().to_string(),
            text: text.to_string(),
            at: next_chat_at(live, now_ms()),
        };
        let row = ChatRow {
            id: line.id.clone(),
            game_id: live.id.clone(),
            room: room.name().to_string(),
            author: line.author.clone(),
            body: line.text.clone(),
            at: line.at,
            deleted_at: None,
        };
        self.storage.commit(vec![Write::Chat(row)]).await?;
        let _ = live.chat.send(line.clone());
        self.tell_bots(&live.id, &line, &live.bots);
        if let Some(cluster) = &self.cluster {
            let from = cluster.node.clone();
            let game_id = live.id.clone();
            let bots = live.bots.clone();
            cluster
                .publish(&crate::cluster::Event::Chat {
                    from,
                    game_id,
                    line,
                    bots,
                })
                .await;
        }
        Ok(())
    }

    /// A line another node's player said in game `game`: passed to its followers here, and
    /// to those of `bots` (the game's) connected here.
    pub(super) fn heard(&self, game: &str, line: ChatLine, bots: &[String]) {
        self.tell_bots(game, &line, bots);
        if let Some(live) = self.held(game) {
            live.last_chat_at.fetch_max(line.at, Ordering::Relaxed);
            let _ = live.chat.send(line);
        }
    }

    /// Passes a line of the players' room of game `game` to its bots `bots` connected here.
    fn tell_bots(&self, game: &str, line: &ChatLine, bots: &[String]) {
        if line.room == Room::Players {
            for bot in bots {
                self.bots.tell_chat(bot, game, line);
            }
        }
    }
}

/// The time to stamp a line of `live`'s said at `now`: after its latest line, so that lines
/// said in one millisecond are read in the order they were said.
fn next_chat_at(live: &LiveGame, now: i64) -> i64 {
    let after = |latest: i64| Some(now.max(latest + 1));
    let latest = (live.last_chat_at)
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, after)
        .expect("always updated");
    now.max(latest + 1)
}

/// Who says a line: a person (by their session) or a registered bot playing the game.
#[derive(Copy, Clone)]
pub enum Speaker<'a> {
    Person(&'a SessionRow),
    Bot(&'a BotRow),
}

impl<'a> Speaker<'a> {
    /// What its rate of lines is counted by.
    fn key(self) -> String {
        match self {
            Speaker::Person(session) => session.id.clone(),
            Speaker::Bot(bot) => format!("bot:{}", bot.id),
        }
    }

    fn name(self) -> &'a str {
        match self {
            Speaker::Person(session) => &session.name,
            Speaker::Bot(bot) => &bot.name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_bounded_and_single() {
        assert_eq!(checked("  gg  ").unwrap(), "gg");
        assert!(checked("   ").is_err());
        assert!(checked(&"é".repeat(MAX_CHAT_CHARS)).is_ok());
        assert!(checked(&"é".repeat(MAX_CHAT_CHARS + 1)).is_err());
        assert!(checked("one\ntwo").is_err());
        assert!(checked("bell\u{7}").is_err());
        assert!(
            checked("I resign \u{202E}ton\u{202C}").is_err(),
            "a right-to-left override"
        );
        assert!(checked("gg\u{200B}").is_err(), "an invisible space");
    }
}

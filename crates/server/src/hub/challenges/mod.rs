//! Challenges to a player by name: an account or a registered bot, online or not, or a
//! guest whose page is open (its session, since a guest's name is not reserved). A
//! challenge is stored until it is answered, withdrawn or expires: a person finds it in
//! `GET /api/challenges`, a bot is told it at once when connected and otherwise when it
//! connects. Accepting one opens the game in the same transaction that closes it, so two
//! answers at once (on two nodes) open one game.

mod queries;
pub mod routes;
pub mod wire;

use std::sync::Arc;
use std::time::Duration;

use crate::api::{ColorChoice, PlayerView};
use crate::cluster;
use crate::error::ApiError;
use crate::game::player_view;
use crate::ids::{new_id, now_ms};
use crate::model::{name_key, GameSpec, Seat};
use crate::storage::{AccountKey, BotKey, ChallengeRow, Challenged, StorageError, Write};

use super::follows::ONLINE_MS;
use super::lobby::{new_game_row, random_color};
use super::news::{person_key, News};
use super::Hub;
use wire::{ChallengeList, ChallengeView, NewChallenge};

/// How long a challenge waits for an answer when its challenger says nothing.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(86_400);
/// The longest wait a challenger may ask for, and the shortest.
pub const MAX_WAIT: Duration = Duration::from_secs(7 * 86_400);
pub const MIN_WAIT: Duration = Duration::from_secs(10);
/// Open challenges a player may have at once.
pub const MAX_OPEN: usize = 20;
/// How long an answered challenge stays in its challenger's list.
const ANSWERED_SHOWN: Duration = Duration::from_secs(3600);

fn changed() -> ApiError {
    ApiError::Conflict("the challenge was answered, withdrawn or has expired".into())
}

impl Hub {
    /// `from` challenges the player `request.to` names.
    pub async fn create_challenge(
        self: &Arc<Hub>,
        from: Seat,
        request: NewChallenge,
    ) -> Result<ChallengeView, ApiError> {
        let key = name_key(&request.to);
        let nobody = || ApiError::NotFound(format!("player '{}'", request.to));
        let holder = self.storage.name_holder(&key).await?;
        let to = match holder.as_deref().and_then(|h| h.split_once(':')) {
            Some(("account", id)) => {
                let account = self.storage.account(AccountKey::Id(id)).await?;
                let account = account.ok_or_else(nobody)?;
                Challenged::Account {
                    id: account.id,
                    name: account.name,
                }
            }
            Some(("bot", id)) => {
                let bot = self.storage.bot(BotKey::Id(id)).await?.ok_or_else(nobody)?;
                Challenged::Bot {
                    id: bot.id,
                    name: bot.name,
                }
            }
            Some(_) => return Err(nobody()),
            // No account or bot holds the name: a guest whose page is open may.
            None => self.online_guest(&key).await?.ok_or_else(nobody)?,
        };
        if key == name_key(from.name()) {
            return Err(ApiError::BadRequest("you cannot challenge yourself".into()));
        }
        let with_bot = matches!(from, Seat::Bot { .. }) || matches!(to, Challenged::Bot { .. });
        let spec = GameSpec::for_players(request.game, &request.params, with_bot)
            .map_err(|e| ApiError::BadRequest(format!("{}: {e}", request.game)))?;
        if request.rated {
            Self::check_rated(&spec, request.clock, &from)?;
        }
        self.check_not_blocked(&from, &to.seat()).await?;
        let now = now_ms();
        let open = self
            .storage
            .challenges_from(&name_key(from.name()), now)
            .await?;
        if open.iter().filter(|c| c.status == "open").count() >= MAX_OPEN {
            return Err(ApiError::Limit(format!(
                "{MAX_OPEN} open challenges at once: withdraw one or wait for answers"
            )));
        }
        let wait = (request.wait_s.map(Duration::from_secs))
            .unwrap_or(DEFAULT_WAIT)
            .clamp(MIN_WAIT, MAX_WAIT);
        let challenger_color = match request.color {
            ColorChoice::Black => toroid_rules::Color::Black,
            ColorChoice::White => toroid_rules::Color::White,
            ColorChoice::Random => random_color(),
        };
        let row = ChallengeRow {
            id: new_id(),
            from,
            to,
            spec,
            clock: request.clock,
            color: challenger_color.opponent(),
            rated: request.rated,
            status: "open".into(),
            game_id: None,
            reason: None,
            created_at: now,
            expires_at: now + wait.as_millis() as i64,
            answered_at: None,
        };
        self.storage
            .commit(vec![Write::Challenge(Box::new(row.clone()))])
            .await?;
        self.tell_challenge_news(&row).await;
        Ok(view(&row, now))
    }

    /// The guest called by the name whose key is `key`, if exactly one such guest has a page
    /// open (a guest's name is not reserved: two online guests may share it).
    async fn online_guest(&self, key: &str) -> Result<Option<Challenged>, ApiError> {
        let since = now_ms() - ONLINE_MS;
        match self.storage.online_guests(key, since).await?.as_slice() {
            [] => Ok(None),
            [(session, name)] => Ok(Some(Challenged::Guest {
                session: session.clone(),
                name: name.clone(),
            })),
            _ => Err(ApiError::Conflict(
                "several guests online use this name: invite one by link instead".into(),
            )),
        }
    }

    /// The challenges to and from the player `seat`: open, or (its own) ended in the last
    /// hour.
    pub async fn challenges_of(&self, seat: &Seat) -> Result<ChallengeList, ApiError> {
        let (key, now) = (name_key(seat.name()), now_ms());
        let since = now - ANSWERED_SHOWN.as_millis() as i64;
        let incoming = self.storage.challenges_to(&key, now).await?;
        let outgoing = self.storage.challenges_from(&key, since).await?;
        Ok(ChallengeList {
            // Another guest of the same name's are not this one's.
            incoming: (incoming.iter())
                .filter(|c| c.to.is(seat))
                .map(|c| view(c, now))
                .collect(),
            outgoing: outgoing.iter().map(|c| view(c, now)).collect(),
        })
    }

    /// `by`, the player challenged, accepts challenge `id`: the id of the game it opens.
    pub async fn accept_challenge(self: &Arc<Hub>, id: &str, by: Seat) -> Result<String, ApiError> {
        let challenge = self.challenge_to(id, &by).await?;
        self.room_for_a_game()?;
        let mut seats = [None, None];
        seats[challenge.color.index()] = Some(by);
        seats[challenge.color.opponent().index()] = Some(challenge.from.clone());
        let creator = match &challenge.from {
            Seat::Person { session, .. } => Some(session.clone()),
            Seat::Bot { .. } | Seat::House { .. } => None,
        };
        let spec = challenge.spec.clone();
        let row = new_game_row(
            new_id(),
            spec,
            challenge.clock,
            seats,
            creator,
            challenge.rated,
            None,
        );
        let game_id = row.id.clone();
        let close = Write::CloseChallenge {
            id: id.to_string(),
            status: "accepted",
            game_id: Some(game_id.clone()),
            reason: None,
            at: now_ms(),
        };
        match self.store_new_game(row, None, vec![close]).await {
            Err(ApiError::Storage(StorageError::ChallengeChanged)) => return Err(changed()),
            stored => stored?,
        };
        self.tell_challenge_news(&challenge).await;
        Ok(game_id)
    }

    /// `by`, the player challenged, declines challenge `id`, saying why.
    pub async fn decline_challenge(
        &self,
        id: &str,
        by: Seat,
        reason: Option<String>,
    ) -> Result<(), ApiError> {
        let reason = reason.unwrap_or_else(|| "no reason given".into());
        if reason.chars().count() > 200 {
            return Err(ApiError::BadRequest(
                "a reason is 200 characters at most".into(),
            ));
        }
        let challenge = self.challenge_to(id, &by).await?;
        self.close(&challenge, "declined", Some(reason)).await
    }

    /// Its challenger, `by`, withdraws challenge `id`.
    pub async fn withdraw_challenge(&self, id: &str, by: &Seat) -> Result<(), ApiError> {
        let challenge = self.storage.challenge(id).await?;
        let challenge = challenge.ok_or_else(|| ApiError::NotFound(format!("challenge '{id}'")))?;
        if name_key(challenge.from.name()) != name_key(by.name()) {
            return Err(ApiError::Forbidden(
                "only its challenger withdraws a challenge".into(),
            ));
        }
        self.close(&challenge, "withdrawn", None).await
    }

    /// Challenge `id`, if it is to `by` and still open.
    async fn challenge_to(&self, id: &str, by: &Seat) -> Result<ChallengeRow, ApiError> {
        let challenge = self.storage.challenge(id).await?;
        let challenge = challenge.ok_or_else(|| ApiError::NotFound(format!("challenge '{id}'")))?;
        if !challenge.to.is(by) {
            return Err(ApiError::Forbidden(
                "this challenge is to someone else".into(),
            ));
        }
        if challenge.status != "open" || challenge.expires_at <= now_ms() {
            return Err(changed());
        }
        Ok(challenge)
    }

    async fn close(
        &self,
        challenge: &ChallengeRow,
        status: &'static str,
        reason: Option<String>,
    ) -> Result<(), ApiError> {
        let close = Write::CloseChallenge {
            id: challenge.id.clone(),
            status,
            game_id: None,
            reason,
            at: now_ms(),
        };
        match self.storage.commit(vec![close]).await {
            Err(StorageError::ChallengeChanged) => return Err(changed()),
            stored => stored?,
        }
        self.tell_challenge_news(challenge).await;
        Ok(())
    }

    /// Tells the registered bots of `challenge`, wherever they are connected, to look at
    /// their challenges (`BotEvent::Challenges`), and its people's news sockets.
    async fn tell_challenge_news(&self, challenge: &ChallengeRow) {
        let challenged = match &challenge.to {
            Challenged::Account { id, .. } => Some(format!("account:{id}")),
            Challenged::Guest { session, .. } => Some(format!("session:{session}")),
            Challenged::Bot { .. } => None,
        };
        let people = [person_key(&challenge.from), challenged];
        let news = News {
            people: people.into_iter().flatten().collect(),
            tournament: None,
        };
        self.tell(news).await;
        let mut bots = Vec::new();
        if let Challenged::Bot { id, .. } = &challenge.to {
            bots.push(id.clone());
        }
        if let Seat::Bot { bot, .. } = &challenge.from {
            bots.push(bot.clone());
        }
        for bot in &bots {
            self.bots.tell_challenges(bot);
        }
        if let (Some(cluster), false) = (&self.cluster, bots.is_empty()) {
            let event = cluster::Event::Challenges {
                from: cluster.node.clone(),
                bots,
            };
            cluster.publish(&event).await;
        }
    }

    /// What bot `bot` has to be told of its challenges: those to it that are open, and its
    /// own answered or withdrawn since `since`.
    pub async fn bot_challenges(
        &self,
        bot: &crate::storage::BotRow,
        since: i64,
    ) -> Result<(Vec<ChallengeRow>, Vec<ChallengeRow>), ApiError> {
        let key = name_key(&bot.name);
        let now = now_ms();
        let incoming = self.storage.challenges_to(&key, now).await?;
        let outgoing = self.storage.challenges_from(&key, since).await?;
        Ok((incoming, outgoing))
    }
}

/// Challenge `c` as its players see it at `now`.
pub fn view(c: &ChallengeRow, now: i64) -> ChallengeView {
    let to = match &c.to {
        Challenged::Account { name, .. } | Challenged::Guest { name, .. } => PlayerView {
            kind: "person",
            name: name.clone(),
        },
        Challenged::Bot { name, .. } => PlayerView {
            kind: "bot",
            name: name.clone(),
        },
    };
    let status = match c.status.as_str() {
        "open" if c.expires_at <= now => "expired",
        "open" => "open",
        "accepted" => "accepted",
        "declined" => "declined",
        _ => "withdrawn",
    };
    ChallengeView {
        id: c.id.clone(),
        from: player_view(&c.from),
        to,
        game: c.spec.kind(),
        params: c.spec.params_view(),
        clock: c.clock,
        color: c.color,
        rated: c.rated,
        status,
        game_id: c.game_id.clone(),
        reason: c.reason.clone(),
        created_at: c.created_at,
        expires_at: c.expires_at,
    }
}

//! Moderation and self-protection. Every person may report a player or one of their chat
//! lines, block a player (no game, challenge, invitation or rematch between the two, and
//! the blocked player's chat lines unseen) and change their password. Accounts with a role
//! act on the site: moderators deal with reports, delete chat lines, take games off the
//! lists, cancel tournaments and ban players without a role; admins also give roles, reset
//! passwords, open and close sign-ups and ban anyone. The same acts ([`Act`]) run from
//! `toroid admin` on the database directly, as the operator.

mod acts;
mod queries;
pub mod routes;
pub mod wire;

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use acts::{perform, Act, By, Done, Role};

use crate::error::ApiError;
use crate::ids::{new_id, now_ms};
use crate::model::text::shows_as_typed;
use crate::model::{name_key, PlayerName, Seat};
use crate::storage::{AccountKey, BotKey, ReportRow, SessionRow, StorageError, Write};

use super::shared_limit::SharedLimit;
use super::{Hub, HOUR};
use wire::{AccountSummary, BlockView, ChatRecord, NewReport, ReportView};

/// Longest reason a report gives, in characters.
pub const MAX_REASON_CHARS: usize = 500;
/// Most players one person blocks.
pub const MAX_BLOCKS: usize = 1000;
/// Rows an administrative list returns.
const ADMIN_LIST: u32 = 100;
/// Reports one person makes in an hour at most.
const REPORTS_PER_HOUR: u32 = 20;

/// How often each node looks for accounts banned from the command line (`toroid admin`
/// reaches only the database): their sockets close and their bots go offline within it.
const BAN_WATCH: Duration = Duration::from_secs(2);
/// How far back each look reaches before the previous one: a ban stamped by a machine
/// whose clock is behind this node's is still found.
const BAN_CLOCK_SKEW_MS: i64 = 10_000;

/// What moderation keeps in memory: how many reports each person made lately (counted on
/// all the nodes together), and until when bans have been looked for.
pub struct ModerationState {
    pub(super) reports: SharedLimit<String>,
    bans_seen_until: AtomicI64,
}

impl ModerationState {
    pub(super) fn new() -> ModerationState {
        ModerationState {
            reports: SharedLimit::new("report", REPORTS_PER_HOUR, HOUR),
            bans_seen_until: AtomicI64::new(now_ms()),
        }
    }
}

/// Looks for new bans every [`BAN_WATCH`] until the hub stops.
pub(super) async fn watch_bans(hub: Arc<Hub>) {
    super::every(
        hub,
        BAN_WATCH,
        |hub| async move { hub.close_banned().await },
    )
    .await;
}

impl Hub {
    /// `session`'s person reports `request.player` (or the author of chat line
    /// `request.chat_line`), for `request.reason`.
    pub async fn report(
        &self,
        session: &SessionRow,
        request: NewReport,
    ) -> Result<String, ApiError> {
        let reason = request.reason.trim();
        let plain = reason.chars().all(shows_as_typed);
        if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS || !plain {
            return Err(ApiError::BadRequest(format!(
                "a report's reason has 1 to {MAX_REASON_CHARS} characters, one line of plain text"
            )));
        }
        let player = match &request.chat_line {
            Some(id) => {
                let line = (self.storage.chat_line(id).await?)
                    .ok_or_else(|| ApiError::NotFound(format!("chat line '{id}'")))?;
                line.author
            }
            None => request.player.clone().ok_or_else(|| {
                ApiError::BadRequest("a report names a player or a chat line".into())
            })?,
        };
        let key = name_key(&player);
        if key == name_key(&session.name) {
            return Err(ApiError::BadRequest("you cannot report yourself".into()));
        }
        if !self.storage.name_in_use(&key).await? {
            return Err(ApiError::NotFound(format!("player '{player}'")));
        }
        if !(self.moderation.reports)
            .allows(self.cluster.as_ref(), &session.owner_id().to_string())
            .await
        {
            return Err(ApiError::Limit(
                "that is many reports at once; a moderator reads them all".into(),
            ));
        }
        let report = ReportRow {
            id: new_id(),
            reporter: session.owner_id().to_string(),
            reporter_name: session.name.clone(),
            player,
            player_key: key,
            chat_id: request.chat_line,
            reason: reason.to_string(),
            at: now_ms(),
            resolved_at: None,
            resolved_by: None,
        };
        let id = report.id.clone();
        self.storage.commit(vec![Write::Report(report)]).await?;
        tracing::info!(target: "toroid::audit", reporter = %session.name, report = %id, "report");
        Ok(id)
    }

    /// The player `name` that `session`'s person would `act` on (block, follow): a valid
    /// name, not their own, and (when `in_use`) one that someone holds.
    pub(super) async fn other_player(
        &self,
        session: &SessionRow,
        name: &str,
        act: &str,
        in_use: bool,
    ) -> Result<PlayerName, ApiError> {
        let name = PlayerName::new(name).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        if name.key() == name_key(&session.name) {
            return Err(ApiError::BadRequest(format!("you cannot {act} yourself")));
        }
        if in_use && !self.storage.name_in_use(name.key()).await? {
            return Err(ApiError::NotFound(format!("player '{}'", name.as_str())));
        }
        Ok(name)
    }

    /// `session`'s person blocks the player called `name`, or unblocks them.
    pub async fn block(
        &self,
        session: &SessionRow,
        name: &str,
        block: bool,
    ) -> Result<(), ApiError> {
        let name = self.other_player(session, name, "block", block).await?;
        let blocker = session.owner_id().to_string();
        if block && self.storage.blocks(&blocker).await?.len() >= MAX_BLOCKS {
            return Err(ApiError::Limit(format!(
                "{MAX_BLOCKS} blocked players at most"
            )));
        }
        let write = Write::Block {
            blocker,
            name: name.as_str().to_string(),
            at: block.then(now_ms),
        };
        self.storage.commit(vec![write]).await?;
        Ok(())
    }

    /// The players `session`'s person blocks, newest first.
    pub async fn blocks(&self, session: &SessionRow) -> Result<Vec<BlockView>, ApiError> {
        Ok(self.storage.blocks(session.owner_id()).await?)
    }

    /// The name keys of the players that `session`'s person blocks (whose chat lines it
    /// does not see).
    pub async fn blocked_keys(&self, session: Option<&SessionRow>) -> HashSet<String> {
        let Some(session) = session else {
            return HashSet::new();
        };
        match self.storage.blocks(session.owner_id()).await {
            Ok(blocks) => blocks.into_iter().map(|b| name_key(&b.name)).collect(),
            Err(error) => {
                tracing::warn!(%error, "cannot read a person's blocks");
                HashSet::new()
            }
        }
    }

    /// Refuses a game between `a` and `b` when either blocks the other.
    pub(super) async fn check_not_blocked(&self, a: &Seat, b: &Seat) -> Result<(), ApiError> {
        let (Some(holder_a), Some(holder_b)) = (self.holder_of(a).await?, self.holder_of(b).await?)
        else {
            return Ok(());
        };
        let (key_a, key_b) = (name_key(a.name()), name_key(b.name()));
        if self.storage.blocked(&holder_a, &key_b).await? {
            return Err(ApiError::Blocked(format!("you block {}", b.name())));
        }
        if self.storage.blocked(&holder_b, &key_a).await? {
            return Err(ApiError::Blocked(format!(
                "{} does not take games from you",
                b.name()
            )));
        }
        Ok(())
    }

    /// Who keeps the blocks of a seat's player: its account or guest session, a bot's owner;
    /// none for a house bot.
    async fn holder_of(&self, seat: &Seat) -> Result<Option<String>, StorageError> {
        Ok(match seat {
            Seat::Person {
                account, session, ..
            } => Some(account.clone().unwrap_or_else(|| session.clone())),
            Seat::Bot { bot, .. } => self.storage.bot(BotKey::Id(bot)).await?.map(|b| b.owner),
            Seat::House { .. } => None,
        })
    }

    /// `session` (an account's) changes its password from `current` to `new`; its other
    /// sessions end.
    pub async fn change_password(
        &self,
        session: &SessionRow,
        current: &str,
        new: &str,
        address: IpAddr,
    ) -> Result<(), ApiError> {
        let account = session.account_id.as_deref().ok_or_else(|| {
            ApiError::BadRequest(
                "guests have no password: claim your name with POST /api/accounts".into(),
            )
        })?;
        super::accounts::check_password(new)?;
        let stored =
            (self.storage.account(AccountKey::Id(account)).await?).ok_or(ApiError::NoSession)?;
        if !self.password_matches(&stored, current, address).await? {
            return Err(ApiError::BadCredentials);
        }
        let password_hash = self.hash_new_password(new, address).await?;
        let ended = self.storage.sessions_of(account).await?;
        let write = Write::SetPassword {
            account: account.to_string(),
            password_hash,
            keep: Some(session.id.clone()),
        };
        self.storage.commit(vec![write]).await?;
        for id in ended.iter().filter(|id| **id != session.id) {
            self.end_session_everywhere(id).await;
        }
        tracing::info!(target: "toroid::audit", account = %account, client = %address,
            "password changed");
        Ok(())
    }

    /// Ends on this node what the bans made since the last look end: the sockets of the
    /// banned accounts' sessions and their bots' connections. (A ban through the API has
    /// done so on every node already; ending them again is harmless.)
    async fn close_banned(&self) {
        let until = now_ms();
        let since = self
            .moderation
            .bans_seen_until
            .swap(until, Ordering::Relaxed);
        let banned = match self.storage.banned_since(since - BAN_CLOCK_SKEW_MS).await {
            Ok(banned) => banned,
            Err(error) => {
                tracing::warn!(%error, "cannot look for new bans");
                return;
            }
        };
        for account in banned {
            self.session_ended(&format!("account:{account}"));
            for bot in self.storage.bots_of(&account).await.unwrap_or_default() {
                self.bots.revoke(&bot.id);
            }
        }
    }

    /// The role of `session`'s account (none for a guest).
    pub async fn role(&self, session: &SessionRow) -> Result<Role, ApiError> {
        let account = match &session.account_id {
            Some(id) => self.storage.account(AccountKey::Id(id)).await?,
            None => None,
        };
        Ok(Role::read(account.and_then(|a| a.role).as_deref()))
    }

    /// Who `session` acts as: refused unless its account is a moderator's or an admin's.
    async fn staff(&self, session: &SessionRow) -> Result<By, ApiError> {
        match self.role(session).await? {
            Role::None => Err(ApiError::Forbidden(
                "this is for moderators and admins".into(),
            )),
            role => Ok(By::Account {
                name: session.name.clone(),
                role,
            }),
        }
    }

    /// `session`, a moderator's or admin's, carries out `act`: the sessions it ends close
    /// their sockets and the bots it shuts out go offline at once, on every node.
    pub async fn staff_act(&self, session: &SessionRow, act: Act) -> Result<Done, ApiError> {
        let by = self.staff(session).await?;
        let done = perform(&self.storage, &by, act).await?;
        for id in &done.sessions_ended {
            self.end_session_everywhere(id).await;
        }
        for bot in &done.bots_shut_out {
            self.revoke_everywhere(bot).await;
        }
        Ok(done)
    }

    /// Reports, newest first: the open ones, or all.
    pub async fn reports(
        &self,
        session: &SessionRow,
        all: bool,
    ) -> Result<Vec<ReportView>, ApiError> {
        self.staff(session).await?;
        Ok(self.storage.reports(all, ADMIN_LIST).await?)
    }

    /// The accounts created last, newest first.
    pub async fn recent_accounts(
        &self,
        session: &SessionRow,
    ) -> Result<Vec<AccountSummary>, ApiError> {
        self.staff(session).await?;
        Ok(self.storage.recent_accounts(ADMIN_LIST).await?)
    }

    /// The latest lines said by the player called `name`, deleted ones too.
    pub async fn chat_by(
        &self,
        session: &SessionRow,
        name: &str,
    ) -> Result<Vec<ChatRecord>, ApiError> {
        self.staff(session).await?;
        let rows = self.storage.chat_by(&name_key(name), ADMIN_LIST).await?;
        Ok(rows.into_iter().map(ChatRecord::from).collect())
    }
}

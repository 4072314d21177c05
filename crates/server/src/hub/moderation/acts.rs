//! The acts of moderators and admins, on the database: the same code for the API routes and
//! for `toroid admin`, which runs them as the operator.

use crate::error::ApiError;
use crate::hub::accounts::{hash_password, SIGN_UPS};
use crate::hub::tournaments::{Stage, Tournament};
use crate::ids::{new_id, new_secret, now_ms};
use crate::model::{name_key, PlayerName, Status};
use crate::storage::{AccountKey, AccountRow, Storage, StorageError, Write};

/// An account's role.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Admin,
    Moderator,
    /// A player like any other.
    None,
}

impl Role {
    fn stored(self) -> Option<String> {
        match self {
            Role::Admin => Some("admin".into()),
            Role::Moderator => Some("moderator".into()),
            Role::None => None,
        }
    }

    /// The role stored as `stored` (an unknown word gives none).
    pub fn read(stored: Option<&str>) -> Role {
        match stored {
            Some("admin") => Role::Admin,
            Some("moderator") => Role::Moderator,
            _ => Role::None,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Role::Admin => "an admin",
            Role::Moderator => "a moderator",
            Role::None => "a player without a role",
        }
    }
}

/// Who acts: the operator (`toroid admin`, on the database) or an account with a role.
#[derive(Clone, Debug)]
pub enum By {
    Operator,
    Account { name: String, role: Role },
}

impl By {
    fn name(&self) -> &str {
        match self {
            By::Operator => "the operator",
            By::Account { name, .. } => name,
        }
    }

    /// Whether it may do what admins do (give roles, reset passwords, open sign-ups).
    fn is_admin(&self) -> bool {
        matches!(
            self,
            By::Operator
                | By::Account {
                    role: Role::Admin,
                    ..
                }
        )
    }
}

/// What a moderator, an admin or the operator does.
#[derive(Clone, Debug)]
pub enum Act {
    /// Creates an account with a random password (shown once) and the admin role: the first
    /// admin of a new site. The operator's alone.
    CreateAdmin { name: String },
    /// Gives the account called so a role (admins).
    Role { name: String, role: Role },
    /// Bans the account called so (its sessions end, its bots' tokens open nothing), or lifts
    /// its ban. Moderators ban players without a role; admins anyone but themselves.
    Ban { name: String, banned: bool },
    /// Gives the account called so a new random password, shown once; its sessions end
    /// (admins).
    ResetPassword { name: String },
    /// Opens or closes sign-ups (`POST /api/accounts`) (admins).
    SignUps { open: bool },
    /// Cancels a tournament: it ends, the games of its round under way are aborted (so no
    /// rating changes by them).
    CancelTournament { id: String },
    /// Deletes a chat line: nobody sees it any more.
    DeleteChat { id: String },
    /// Takes a finished game off the lists (its own page stays, for the record).
    HideGame { id: String },
    /// Marks a report dealt with.
    ResolveReport { id: String },
}

/// What an act did: in words, and what the servers must end at once.
#[derive(Clone, Debug, Default)]
pub struct Done {
    pub said: String,
    /// A password made by the act, shown this once.
    pub password: Option<String>,
    /// Sessions it ended, whose sockets close.
    pub sessions_ended: Vec<String>,
    /// Bots it shut out, whose connections close.
    pub bots_shut_out: Vec<String>,
}

impl Done {
    fn said(said: String) -> Done {
        Done {
            said,
            ..Done::default()
        }
    }
}

/// How often cancelling a tournament is tried when its director changes it meanwhile.
const TRIES: usize = 20;

/// Carries out `act` by `by` on `storage`; refused with `forbidden` when `by`'s role does
/// not allow it.
pub async fn perform(storage: &Storage, by: &By, act: Act) -> Result<Done, ApiError> {
    let admins_only = |what: &str| match by.is_admin() {
        true => Ok(()),
        false => Err(ApiError::Forbidden(format!("only admins {what}"))),
    };
    let done = match act {
        Act::CreateAdmin { name } => {
            if !matches!(by, By::Operator) {
                return Err(ApiError::Forbidden(
                    "admins are created with toroid admin; an admin gives roles".into(),
                ));
            }
            let name = PlayerName::new(&name).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            let password = new_password();
            let account = AccountRow {
                id: new_id(),
                name: name.as_str().to_string(),
                name_key: name.key().to_string(),
                password_hash: hash_password(&password)?,
                created_at: now_ms(),
                role: None,
                banned_at: None,
            };
            let role = Write::SetRole {
                account: account.id.clone(),
                role: Role::Admin.stored(),
            };
            let said = format!(
                "{} is an admin; their password (shown this once): {password}",
                account.name
            );
            (storage.commit(vec![Write::Account(account), role]).await).map_err(|_| {
                ApiError::Conflict(format!("the name '{}' is taken", name.as_str()))
            })?;
            Done {
                password: Some(password),
                ..Done::said(said)
            }
        }
        Act::Role { name, role } => {
            admins_only("give roles")?;
            let account = account(storage, &name).await?;
            storage
                .commit(vec![Write::SetRole {
                    account: account.id.clone(),
                    role: role.stored(),
                }])
                .await?;
            Done::said(format!("{} is now {}", account.name, role.words()))
        }
        Act::Ban { name, banned } => {
            let account = account(storage, &name).await?;
            if let By::Account { name: own, .. } = by {
                if name_key(own) == account.name_key {
                    return Err(ApiError::BadRequest("you cannot ban yourself".into()));
                }
            }
            if Role::read(account.role.as_deref()) != Role::None {
                admins_only("ban moderators and admins")?;
            }
            let (sessions_ended, bots_shut_out) = match banned {
                true => (
                    storage.sessions_of(&account.id).await?,
                    (storage.bots_of(&account.id).await?)
                        .into_iter()
                        .map(|b| b.id)
                        .collect(),
                ),
                false => (Vec::new(), Vec::new()),
            };
            storage
                .commit(vec![Write::Ban {
                    account: account.id.clone(),
                    at: banned.then(now_ms),
                }])
                .await?;
            let said = match banned {
                true => format!(
                    "{} is banned: signed out everywhere, bots shut out",
                    account.name
                ),
                false => format!("{} may sign in again", account.name),
            };
            Done {
                sessions_ended,
                bots_shut_out,
                ..Done::said(said)
            }
        }
        Act::ResetPassword { name } => {
            admins_only("reset passwords")?;
            let account = account(storage, &name).await?;
            let password = new_password();
            let sessions_ended = storage.sessions_of(&account.id).await?;
            storage
                .commit(vec![Write::SetPassword {
                    account: account.id.clone(),
                    password_hash: hash_password(&password)?,
                    keep: None,
                }])
                .await?;
            Done {
                password: Some(password.clone()),
                sessions_ended,
                ..Done::said(format!(
                    "{}'s new password (shown this once; their sessions ended): {password}",
                    account.name
                ))
            }
        }
        Act::SignUps { open } => {
            admins_only("open and close sign-ups")?;
            let value = if open { "open" } else { "closed" };
            storage
                .commit(vec![Write::Setting {
                    name: SIGN_UPS,
                    value: value.into(),
                }])
                .await?;
            Done::said(format!("sign-ups are {value}"))
        }
        Act::CancelTournament { id } => cancel_tournament(storage, &id).await?,
        Act::DeleteChat { id } => {
            let line = (storage.chat_line(&id).await?)
                .ok_or_else(|| ApiError::NotFound(format!("chat line '{id}'")))?;
            storage
                .commit(vec![Write::DeleteChat { id, at: now_ms() }])
                .await?;
            Done::said(format!("deleted {}'s line \"{}\"", line.author, line.body))
        }
        Act::HideGame { id } => {
            let game = (storage.game(&id).await?)
                .ok_or_else(|| ApiError::NotFound(format!("game '{id}'")))?;
            if game.status != Status::Finished {
                return Err(ApiError::Conflict(
                    "only a finished game is taken off the lists".into(),
                ));
            }
            storage
                .commit(vec![Write::HideGame {
                    game_id: id.clone(),
                    at: now_ms(),
                }])
                .await?;
            Done::said(format!("game {id} is off the lists"))
        }
        Act::ResolveReport { id } => {
            if !storage.report_exists(&id).await? {
                return Err(ApiError::NotFound(format!("report '{id}'")));
            }
            storage
                .commit(vec![Write::ResolveReport {
                    id: id.clone(),
                    by: by.name().to_string(),
                    at: now_ms(),
                }])
                .await?;
            Done::said(format!("report {id} is dealt with"))
        }
    };
    tracing::info!(target: "toroid::audit", by = %by.name(),
        act = %done.said.split(':').next().unwrap_or(""), "administration");
    Ok(done)
}

/// A random password for an account an act made or reset (shown once): 20 hex digits.
fn new_password() -> String {
    new_secret()[..20].to_string()
}

async fn account(storage: &Storage, name: &str) -> Result<AccountRow, ApiError> {
    (storage
        .account(AccountKey::NameKey(&name_key(name)))
        .await?)
        .ok_or_else(|| ApiError::NotFound(format!("account '{name}'")))
}

/// Cancels tournament `id`: an open one ends at once; a running one is `cancelling` until
/// its director has aborted the games of its round under way.
async fn cancel_tournament(storage: &Storage, id: &str) -> Result<Done, ApiError> {
    for _ in 0..TRIES {
        let (state, version) = (storage.tournament(id).await?)
            .ok_or_else(|| ApiError::NotFound(format!("tournament '{id}'")))?;
        let mut tournament = Tournament::read(&state)?;
        tournament.stage = match tournament.stage {
            Stage::Open => Stage::Cancelled,
            Stage::Running => Stage::Cancelling,
            Stage::Finished | Stage::Cancelling | Stage::Cancelled => {
                return Err(ApiError::Conflict(format!(
                    "the tournament is {}",
                    tournament.stage.as_str()
                )))
            }
        };
        match storage.commit(vec![tournament.write(Some(version))]).await {
            Ok(()) => {
                return Ok(Done::said(format!(
                    "tournament '{}' is cancelled",
                    tournament.name
                )))
            }
            Err(StorageError::TournamentChanged) => continue,
            Err(error) => return Err(error.into()),
        }
    }
    Err(ApiError::Conflict(
        "the tournament is changing too fast: try again".into(),
    ))
}

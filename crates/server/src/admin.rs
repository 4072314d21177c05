//! `toroid admin`: the operator's acts on a server's data, run on its database directly
//! (the SQLite file of a data folder, or PostgreSQL), while servers may be running on it.
//! What an act ends (a banned player's sessions, their bots' tokens) ends for the servers
//! too: a session's socket closes at its next message, a bot's at its next connection.

use std::fmt;
use std::path::Path;

use crate::hub::accounts::{hash_password, SIGN_UPS};
use crate::ids::{new_secret, now_ms};
use crate::model::name_key;
use crate::storage::{AccountRow, Storage, Write};
use crate::StartError;

/// An account's role.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
}

/// What `toroid admin` does.
#[derive(Clone, Debug)]
pub enum Act {
    /// Gives the account called so a role.
    Role { name: String, role: Role },
    /// Bans the account called so (its sessions end, its bots' tokens open nothing), or
    /// lifts its ban.
    Ban { name: String, banned: bool },
    /// Gives the account called so a new random password, shown once; its sessions end.
    ResetPassword { name: String },
    /// Opens or closes sign-ups (`POST /api/accounts`).
    SignUps { open: bool },
}

/// Why an act failed.
#[derive(Debug)]
pub enum AdminError {
    Start(StartError),
    NoAccount(String),
    Hash(String),
}

impl fmt::Display for AdminError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdminError::Start(error) => write!(f, "{error}"),
            AdminError::NoAccount(name) => write!(f, "no account is called '{name}'"),
            AdminError::Hash(why) => write!(f, "cannot hash the password: {why}"),
        }
    }
}

impl std::error::Error for AdminError {}

impl<E: Into<StartError>> From<E> for AdminError {
    fn from(error: E) -> AdminError {
        AdminError::Start(error.into())
    }
}

/// Carries out `act` on the database of `data` (or `database`, a PostgreSQL URL): what it
/// did, in words.
pub fn run(data: &Path, database: Option<&str>, act: Act) -> Result<String, AdminError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    runtime.block_on(async {
        let url = match database {
            Some(url) => url.to_string(),
            None => Storage::sqlite_url(data)?,
        };
        let storage = Storage::open(&url).await?;
        let account = |name: String| {
            let storage = &storage;
            async move {
                let found: Option<AccountRow> = storage.account(&name_key(&name)).await?;
                found.ok_or(AdminError::NoAccount(name))
            }
        };
        let (write, said) = match act {
            Act::Role { name, role } => {
                let account = account(name).await?;
                let said = format!("{} is now {}", account.name, role_words(role));
                let write = Write::SetRole {
                    account: account.id,
                    role: role.stored(),
                };
                (write, said)
            }
            Act::Ban { name, banned } => {
                let account = account(name).await?;
                let said = match banned {
                    true => format!("{} is banned: signed out everywhere, bots shut out", account.name),
                    false => format!("{} may sign in again", account.name),
                };
                let write = Write::Ban {
                    account: account.id,
                    at: banned.then(now_ms),
                };
                (write, said)
            }
            Act::ResetPassword { name } => {
                let account = account(name).await?;
                let password = new_secret()[..20].to_string();
                let password_hash =
                    hash_password(&password).map_err(|e| AdminError::Hash(e.to_string()))?;
                let said = format!(
                    "{}'s new password (shown this once; their sessions ended): {password}",
                    account.name
                );
                let write = Write::SetPassword {
                    account: account.id,
                    password_hash,
                };
                (write, said)
            }
            Act::SignUps { open } => {
                let value = if open { "open" } else { "closed" };
                let write = Write::Setting {
                    name: SIGN_UPS,
                    value: value.into(),
                };
                (write, format!("sign-ups are {value}"))
            }
        };
        storage.commit(vec![write]).await?;
        tracing::info!(target: "toroid::audit", act = %said.split(':').next().unwrap_or(""), "admin");
        Ok(said)
    })
}

fn role_words(role: Role) -> &'static str {
    match role {
        Role::Admin => "an admin",
        Role::Moderator => "a moderator",
        Role::None => "a player without a role",
    }
}

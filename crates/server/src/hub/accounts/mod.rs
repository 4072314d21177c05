//! Accounts: a person claims a name with a password and signs in with both. Passwords are
//! hashed with argon2id (on a blocking thread: a hash takes tens of milliseconds on
//! purpose), checked in constant time, never logged, and sign-in attempts are rate-limited
//! by address and by name. Names are unique whatever their case, and no guest may take an
//! account's name.

mod queries;
pub mod routes;
mod sessions;
pub mod wire;

use std::net::IpAddr;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::config::Limits;
use crate::error::ApiError;
use crate::ids::{hash_secret, new_id, new_secret, now_ms};
use crate::storage::{AccountRow, SessionRow, Write};

use super::shared_limit::SharedLimit;
use super::{Hub, HOUR, MINUTE};
use sessions::person_name;

/// What sessions and accounts keep in memory: their limits, each counted on all the nodes
/// together (`SharedLimit`).
pub struct AccountLimits {
    /// New guest sessions, by address and on the server.
    new_sessions_by_address: SharedLimit<IpAddr>,
    new_sessions: SharedLimit<&'static str>,
    /// Sign-in attempts, by address and by account name.
    sign_ins_by_address: SharedLimit<IpAddr>,
    sign_ins_by_name: SharedLimit<String>,
}

impl AccountLimits {
    pub(super) fn new(limits: &Limits) -> AccountLimits {
        AccountLimits {
            new_sessions_by_address: SharedLimit::new(
                "session",
                limits.sessions_per_address_per_hour,
                HOUR,
            ),
            new_sessions: SharedLimit::new("new-session", limits.sessions_per_minute, MINUTE),
            sign_ins_by_address: SharedLimit::new("sign-in", limits.sign_ins_per_minute, MINUTE),
            sign_ins_by_name: SharedLimit::new("sign-in-name", limits.sign_ins_per_minute, MINUTE),
        }
    }

    /// Forgets addresses and names not seen lately.
    pub(super) fn forget_idle(&self) {
        self.new_sessions_by_address.forget_idle();
        self.sign_ins_by_address.forget_idle();
        self.sign_ins_by_name.forget_idle();
    }
}

/// Shortest and longest password (the longest bounds the work of hashing one).
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// A name's key: names are unique whatever their case.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

fn check_password(password: &str) -> Result<(), ApiError> {
    match PASSWORD_CHARS.contains(&password.chars().count()) {
        true => Ok(()),
        false => Err(ApiError::BadRequest(format!(
            "a password has {} to {} characters",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        ))),
    }
}

/// The argon2id hash of `password` with a fresh salt, in the PHC string format.
async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
    })
    .await
    .ok()
    .and_then(Result::ok)
    .ok_or(ApiError::Busy("cannot hash the password now; try again"))
}

/// Whether `password` matches the PHC `hash` (argon2's comparison is constant-time).
async fn password_matches(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

/// A hash no password matches, checked for unknown names so that an answer takes as long
/// whether the name exists or not.
const NO_ACCOUNT: &str = "$argon2id$v=19$m=19456,t=2,p=1$bm8tYWNjb3VudC1zYWx0$\
    Yl0cWPbV3+3DmsbN9yC7JCJ9vZ0vVrYjY6x0y6E5Y8E";

impl Hub {
    /// Claims `name` with `password`: a new account, to which `guest` (the asker's guest
    /// session, if any) is signed in, its bots becoming the account's; else a new session.
    /// The session, and its cookie when it is new.
    pub async fn create_account(
        &self,
        guest: Option<SessionRow>,
        name: &str,
        password: &str,
        address: IpAddr,
    ) -> Result<(SessionRow, Option<String>), ApiError> {
        let name = person_name(name)?;
        check_password(password)?;
        let key = name_key(name);
        let taken = || ApiError::Conflict(format!("the name '{name}' is taken"));
        if self.storage.account(&key).await?.is_some() {
            return Err(taken());
        }
        let account = AccountRow {
            id: new_id(),
            name: name.to_string(),
            name_key: key,
            password_hash: hash_password(password.to_string()).await?,
            created_at: now_ms(),
        };
        let (session, token) = match guest {
            Some(mut session) if session.account_id.is_none() => {
                session.account_id = Some(account.id.clone());
                session.name = account.name.clone();
                (session, None)
            }
            _ => {
                let (session, token) = self.new_session(name, Some(&account.id), address).await?;
                (session, Some(token))
            }
        };
        let attach = match &token {
            Some(_) => Write::Session(session.clone()),
            None => Write::ClaimName {
                session: session.id.clone(),
                account: account.id.clone(),
                name: account.name.clone(),
            },
        };
        // Two claims racing for a name: the unique index refuses the second.
        let id = account.id.clone();
        (self.storage)
            .commit(vec![Write::Account(account), attach])
            .await
            .map_err(|_| taken())?;
        tracing::info!(target: "toroid::audit", account = %id, %name, client = %address,
            "account created");
        Ok((session, token))
    }

    /// Signs in to the account called `name` (whatever its case) with `password`: a new
    /// session and its cookie. A wrong name and a wrong password get the same answer.
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        address: IpAddr,
    ) -> Result<(SessionRow, String), ApiError> {
        let key = name_key(name.trim());
        let cluster = self.cluster.as_ref();
        let limits = &self.accounts;
        let too_many = !limits.sign_ins_by_address.allows(cluster, &address).await
            || !limits.sign_ins_by_name.allows(cluster, &key).await;
        // The name as given, cut short: the audit line names whom an attack aims at.
        let asked: String = name.chars().take(64).collect();
        let signed_in = |result| {
            tracing::info!(target: "toroid::audit", name = %asked, client = %address, result,
                "sign-in");
            metrics::counter!("toroid_sign_ins_total", "result" => result)
        };
        if too_many {
            signed_in("limited").increment(1);
            return Err(ApiError::Limit(
                "too many sign-in attempts; wait a minute".into(),
            ));
        }
        let account = self.storage.account(&key).await?;
        let hash = account
            .as_ref()
            .map_or(NO_ACCOUNT.to_string(), |a| a.password_hash.clone());
        let matches = password_matches(password.to_string(), hash).await;
        match account {
            Some(account) if matches => {
                let (session, token) = self
                    .new_session(&account.name, Some(&account.id), address)
                    .await?;
                (self.storage)
                    .commit(vec![Write::Session(session.clone())])
                    .await?;
                signed_in("ok").increment(1);
                Ok((session, token))
            }
            _ => {
                signed_in("failed").increment(1);
                Err(ApiError::BadCredentials)
            }
        }
    }

    /// A new session (not yet stored) for `name`, signed in to `account` if given, within the
    /// limits on new sessions; and its cookie.
    pub(super) async fn new_session(
        &self,
        name: &str,
        account: Option<&str>,
        address: IpAddr,
    ) -> Result<(SessionRow, String), ApiError> {
        let by_address = &self.accounts.new_sessions_by_address;
        if !by_address.allows(self.cluster.as_ref(), &address).await {
            return Err(ApiError::Limit(format!(
                "{} new sessions an hour from one address at most; use the one you have",
                self.limits.sessions_per_address_per_hour
            )));
        }
        if !(self
            .accounts
            .new_sessions
            .allows(self.cluster.as_ref(), &"server"))
        .await
        {
            return Err(ApiError::Busy(
                "too many new sessions at once; try again in a minute",
            ));
        }
        let token = new_secret();
        let now = now_ms();
        let session = SessionRow {
            id: new_id(),
            name: name.to_string(),
            token_hash: hash_secret(&token),
            created_at: now,
            last_seen_at: now,
            account_id: account.map(str::to_string),
        };
        Ok((session, token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn passwords_hash_with_argon2id_and_match_only_themselves() {
        let hash = hash_password("correct horse".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(password_matches("correct horse".into(), hash.clone()).await);
        assert!(!password_matches("correct horse ".into(), hash.clone()).await);
        assert!(!password_matches("correct horse".into(), NO_ACCOUNT.into()).await);
        assert!(
            PasswordHash::new(NO_ACCOUNT).is_ok(),
            "the stand-in hash parses"
        );
        let again = hash_password("correct horse".into()).await.unwrap();
        assert_ne!(hash, again, "every hash has its own salt");
    }
}

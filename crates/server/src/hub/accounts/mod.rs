//! Accounts: a person claims a name with a password and signs in with both. Passwords are
//! hashed with argon2id (on threads of their own, a few at once: a hash takes 19 MiB and
//! tens of milliseconds on purpose; `hashing`), after every cheaper check, checked in
//! constant time, never logged, and sign-in attempts are rate-limited by address and by
//! name. Names are unique whatever their case, and no guest may take an
//! account's name.

mod hashing;
mod queries;
pub mod routes;
mod sessions;
pub mod wire;

use std::net::IpAddr;

use crate::config::Limits;
use crate::error::ApiError;
use crate::ids::{hash_secret, new_id, new_secret, now_ms};
use crate::storage::{AccountKey, AccountRow, SessionRow, Write};

use super::shared_limit::SharedLimit;
use super::{Hub, HOUR, MINUTE};
use crate::model::{name_key, MAX_NAME};
use sessions::person_name;

/// What sessions and accounts keep in memory: their limits, each counted on all the nodes
/// together (`SharedLimit`), and the threads that hash passwords.
pub struct AccountState {
    hasher: hashing::Hasher,
    /// New guest sessions, by address and on the server.
    new_sessions_by_address: SharedLimit<IpAddr>,
    new_sessions: SharedLimit<&'static str>,
    /// Sign-in attempts, by address, by account name and address, and by account name
    /// (which only addresses the account signed in from before may pass).
    sign_ins_by_address: SharedLimit<IpAddr>,
    sign_ins_by_name_and_address: SharedLimit<String>,
    sign_ins_by_name: SharedLimit<String>,
    /// Sessions ended (signed out, expired), here or on another node: their sockets close.
    ended: tokio::sync::broadcast::Sender<String>,
}

impl AccountState {
    pub(super) fn new(limits: &Limits) -> AccountState {
        AccountState {
            hasher: hashing::Hasher::new(),
            new_sessions_by_address: SharedLimit::new(
                "session",
                limits.sessions_per_address_per_hour,
                HOUR,
            ),
            new_sessions: SharedLimit::new("new-session", limits.sessions_per_minute, MINUTE),
            sign_ins_by_address: SharedLimit::new("sign-in", limits.sign_ins_per_minute, MINUTE),
            sign_ins_by_name_and_address: SharedLimit::new(
                "sign-in-name-address",
                limits.sign_ins_per_minute / 2,
                MINUTE,
            ),
            sign_ins_by_name: SharedLimit::new("sign-in-name", limits.sign_ins_per_minute, MINUTE),
            ended: tokio::sync::broadcast::channel(ENDED_SESSIONS).0,
        }
    }

    /// Forgets addresses and names not seen lately.
    pub(super) fn forget_idle(&self) {
        self.new_sessions_by_address.forget_idle();
        self.sign_ins_by_address.forget_idle();
        self.sign_ins_by_name_and_address.forget_idle();
        self.sign_ins_by_name.forget_idle();
    }
}

/// `password`'s argon2id hash, made on this thread (for `toroid admin`, outside a server).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let mut memory = vec![argon2::Block::default(); argon2::Params::default().block_count()];
    hashing::hash_password(password, &mut memory)
}

/// How an address an account signed in from is stored (`account_addresses`): its SHA-256.
fn address_hash(address: IpAddr) -> String {
    hash_secret(&address.to_string())
}

/// The setting that opens and closes sign-ups (`open`, `closed`; `toroid admin sign-ups`).
pub const SIGN_UPS: &str = "sign-ups";

/// Ended sessions a socket may fall behind by before it asks the database about its own.
const ENDED_SESSIONS: usize = 256;

/// Shortest and longest password (the longest bounds the work of hashing one).
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

pub(super) fn check_password(password: &str) -> Result<(), ApiError> {
    match PASSWORD_CHARS.contains(&password.chars().count()) {
        true => Ok(()),
        false => Err(ApiError::BadRequest(format!(
            "a password has {} to {} characters",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        ))),
    }
}

impl Hub {
    /// Claims `name` with `password`: a new account, to which `guest` (the asker's guest
    /// session, if any) is signed in, its bots becoming the account's; else a new session.
    /// The session and its new cookie: a guest's claimed session gets a new one too, so a
    /// cookie planted in the guest's browser before the claim opens nothing.
    pub async fn create_account(
        &self,
        guest: Option<SessionRow>,
        name: &str,
        password: &str,
        address: IpAddr,
    ) -> Result<(SessionRow, String), ApiError> {
        // Every cheaper check first: the name, the password's length, the name taken, the
        // limits on new sessions; the hash last.
        let name = person_name(name)?;
        check_password(password)?;
        let taken = || {
            ApiError::Conflict(format!(
                "the name '{name}' is taken (or reads as one taken)"
            ))
        };
        if self.storage.setting(SIGN_UPS).await?.as_deref() == Some("closed") {
            return Err(ApiError::Closed(
                "sign-ups are closed on this server".into(),
            ));
        }
        if self.storage.name_holder(name.key()).await?.is_some() {
            return Err(taken());
        }
        let (key, name) = (name.key().to_string(), name.as_str());
        let admitted = self.accounts.hasher.admit(address)?;
        let id = new_id();
        let (session, token, claimed) = match guest {
            Some(mut session) if session.account_id.is_none() => {
                let token = new_secret();
                session.account_id = Some(id.clone());
                session.name = name.to_string();
                session.token_hash = hash_secret(&token);
                (session, token, true)
            }
            _ => {
                let (session, token) = self.new_session(name, Some(&id), address).await?;
                (session, token, false)
            }
        };
        let password = password.to_string();
        let password_hash = admitted
            .run(move |memory| hashing::hash_password(&password, memory))
            .await??;
        let account = AccountRow {
            id,
            name: name.to_string(),
            name_key: key,
            password_hash,
            created_at: now_ms(),
            role: None,
            banned_at: None,
        };
        let attach = match claimed {
            false => Write::Session(session.clone()),
            true => Write::ClaimName {
                session: session.id.clone(),
                account: account.id.clone(),
                name: account.name.clone(),
                token_hash: session.token_hash.clone(),
            },
        };
        // Two claims racing for a name: the unique index refuses the second.
        let id = account.id.clone();
        let seen = Write::SignedInFrom {
            account: id.clone(),
            address_hash: address_hash(address),
            at: account.created_at,
        };
        (self.storage)
            .commit(vec![Write::Account(account), attach, seen])
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
        let key = name_key(name);
        let cluster = self.cluster.as_ref();
        let limits = &self.accounts;
        let pair = format!("{address} {key}");
        let too_many = !limits.sign_ins_by_address.allows(cluster, &address).await
            || !limits
                .sign_ins_by_name_and_address
                .allows(cluster, &pair)
                .await;
        // Past the limit on the name, only an address the account used before gets through:
        // guesses from everywhere slow down, and do not lock the owner out.
        let name_busy = !too_many && !limits.sign_ins_by_name.allows(cluster, &key).await;
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
        // A name or password no account can have is refused without a hash; it is the
        // answer a wrong password gets.
        let possible = name.trim().chars().count() <= MAX_NAME
            && PASSWORD_CHARS.contains(&password.chars().count());
        let account = match possible {
            true => self.storage.account(AccountKey::NameKey(&key)).await?,
            false => None,
        };
        let address_hash = address_hash(address);
        if name_busy {
            let known = match &account {
                Some(account) => {
                    (self.storage)
                        .signed_in_from(&account.id, &address_hash)
                        .await?
                }
                None => false,
            };
            if !known {
                signed_in("limited").increment(1);
                return Err(ApiError::Limit(
                    "too many sign-in attempts at this name; wait a minute".into(),
                ));
            }
        }
        let hash = account
            .as_ref()
            .map_or(hashing::NO_ACCOUNT.to_string(), |a| a.password_hash.clone());
        let matches = possible && self.hash_matches(password, hash, address).await?;
        match account {
            Some(account) if matches && account.banned_at.is_some() => {
                signed_in("banned").increment(1);
                Err(ApiError::Closed("this account is banned".into()))
            }
            Some(account) if matches => {
                let (session, token) = self
                    .new_session(&account.name, Some(&account.id), address)
                    .await?;
                let seen = Write::SignedInFrom {
                    account: account.id.clone(),
                    address_hash,
                    at: now_ms(),
                };
                (self.storage)
                    .commit(vec![Write::Session(session.clone()), seen])
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

    /// Whether `password` is `account`'s, checked on the hashing threads, within the limit
    /// on sign-ins from `address` (a stolen cookie does not test passwords fast).
    pub(super) async fn password_matches(
        &self,
        account: &AccountRow,
        password: &str,
        address: IpAddr,
    ) -> Result<bool, ApiError> {
        let by_address = &self.accounts.sign_ins_by_address;
        if !by_address.allows(self.cluster.as_ref(), &address).await {
            return Err(ApiError::Limit(
                "too many password attempts; wait a minute".into(),
            ));
        }
        if !PASSWORD_CHARS.contains(&password.chars().count()) {
            return Ok(false);
        }
        (self.hash_matches(password, account.password_hash.clone(), address)).await
    }

    /// Whether `password` matches `hash`, checked on the hashing threads for `address`.
    async fn hash_matches(
        &self,
        password: &str,
        hash: String,
        address: IpAddr,
    ) -> Result<bool, ApiError> {
        let password = password.to_string();
        (self.accounts.hasher)
            .run(address, move |memory| {
                hashing::password_matches(&password, &hash, memory)
            })
            .await
    }

    /// `password`'s hash, made on the hashing threads.
    pub(super) async fn hash_new_password(
        &self,
        password: &str,
        address: IpAddr,
    ) -> Result<String, ApiError> {
        let password = password.to_string();
        (self.accounts.hasher)
            .run(address, move |memory| {
                hashing::hash_password(&password, memory)
            })
            .await?
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

//! Password hashing on a few threads of its own. An argon2id hash takes 19 MiB and tens of
//! milliseconds on purpose, so an attacker who asks for many at once could take the
//! server's memory (each of tokio's many blocking threads kept its allocator's memory once
//! it had hashed: 4 GB) and its cores. Here at most [`WORKERS`] hash at once, each in the
//! 19 MiB its thread allocated once and reuses, at most [`QUEUE`] wait, at most
//! [`PER_ADDRESS`] of them for one address, and any other is refused at once: `503 busy`
//! with `Retry-After`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::oneshot;

use crate::error::ApiError;
use crate::hub::lock;

/// Hashes computed at once (each on a thread of its own, which keeps its memory).
const WORKERS: usize = 2;
/// Hashes waiting for a worker, from every address together.
const QUEUE: usize = 64;
/// Hashes running or waiting for one address: the queue has room for a few dozen
/// addresses, so a person signing in is served while one address floods.
const PER_ADDRESS: usize = 2;

/// A hash to compute in a worker's memory.
type Job = Box<dyn FnOnce(&mut [Block]) + Send>;

/// A hash no password matches, checked for unknown names so that an answer takes as long
/// whether the name exists or not.
pub const NO_ACCOUNT: &str = "$argon2id$v=19$m=19456,t=2,p=1$bm8tYWNjb3VudC1zYWx0$\
    Yl0cWPbV3+3DmsbN9yC7JCJ9vZ0vVrYjY6x0y6E5Y8E";

/// The argon2id hash of `password` with a fresh salt, in the PHC string format, computed in
/// `memory` (argon2's default parameters, as `Argon2::default().hash_password` makes them).
pub fn hash_password(password: &str, memory: &mut [Block]) -> Result<String, ApiError> {
    let argon2 = Argon2::default();
    let salt = SaltString::generate(&mut OsRng);
    let hash = |output| {
        let phc = PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params: ParamsString::try_from(argon2.params())?,
            salt: Some(salt.as_salt()),
            hash: Some(output),
        };
        Ok::<_, argon2::password_hash::Error>(phc.to_string())
    };
    (output(&argon2, password, salt.as_salt(), memory).and_then(hash))
        .map_err(|_| ApiError::Busy("cannot hash the password now; try again"))
}

/// Whether `password` matches the PHC `hash`, computed in `memory` (or, for a hash made
/// with more memory than the default, in memory of its own). `Output`'s comparison is
/// constant-time.
pub fn password_matches(password: &str, hash: &str, memory: &mut [Block]) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let algorithm = Algorithm::try_from(parsed.algorithm);
    let version = parsed
        .version
        .map_or(Ok(Version::default()), Version::try_from);
    let (Ok(algorithm), Ok(version), Ok(params)) = (algorithm, version, Params::try_from(&parsed))
    else {
        return false;
    };
    let argon2 = Argon2::new(algorithm, version, params);
    let mut own = Vec::new();
    let memory = match argon2.params().block_count() <= memory.len() {
        true => memory,
        false => {
            own.resize(argon2.params().block_count(), Block::default());
            &mut own[..]
        }
    };
    output(&argon2, password, salt, memory).is_ok_and(|computed| computed == expected)
}

/// `password`'s argon2 output with `salt`, computed in `memory`.
fn output(
    argon2: &Argon2,
    password: &str,
    salt: Salt,
    memory: &mut [Block],
) -> argon2::password_hash::Result<Output> {
    let mut salt_bytes = [0u8; 64];
    let salt = salt.decode_b64(&mut salt_bytes)?;
    let length = argon2
        .params()
        .output_len()
        .unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    Output::init_with(length, |out| {
        (argon2.hash_password_into_with_memory(password.as_bytes(), salt, out, &mut *memory))
            .map_err(|_| argon2::password_hash::Error::Password)
    })
}

pub struct Hasher {
    jobs: SyncSender<Job>,
    /// Hashes running or waiting, by address.
    by_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

fn busy() -> ApiError {
    ApiError::Busy("too many passwords are being checked now; try again in a moment")
}

impl Hasher {
    pub fn new() -> Hasher {
        let (jobs, inbox) = sync_channel::<Job>(QUEUE);
        let inbox = Arc::new(Mutex::new(inbox));
        for n in 0..WORKERS {
            let inbox = inbox.clone();
            let started = std::thread::Builder::new()
                .name(format!("toroid-hash-{n}"))
                .spawn(move || work(&inbox));
            if let Err(error) = started {
                tracing::error!(%error, "cannot start a password-hashing thread");
            }
        }
        Hasher {
            jobs,
            by_address: Arc::default(),
        }
    }

    /// Runs `hash` for a request from `address` on a hashing thread, or refuses it at once
    /// when too many wait.
    pub async fn run<T: Send + 'static>(
        &self,
        address: IpAddr,
        hash: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        self.admit(address)?.run(hash).await
    }

    /// A place for one hash of `address`'s, or a refusal when it has its share already;
    /// taken before the checks that count against other limits, so that a hash refused
    /// here spends none of them.
    pub fn admit(&self, address: IpAddr) -> Result<Admitted<'_>, ApiError> {
        let mut by_address = lock(&self.by_address);
        let count = by_address.entry(address).or_default();
        if *count >= PER_ADDRESS {
            return Err(busy());
        }
        *count += 1;
        Ok(Admitted {
            hasher: self,
            slot: Slot {
                by_address: self.by_address.clone(),
                address,
            },
        })
    }
}

/// A place for one hash, held until the hash is done (or the request is gone).
pub struct Admitted<'a> {
    hasher: &'a Hasher,
    slot: Slot,
}

impl Admitted<'_> {
    /// Runs `hash` on a hashing thread, or refuses it at once when the queue is full.
    pub async fn run<T: Send + 'static>(
        self,
        hash: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let slot = self.slot;
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move |memory| {
            let hashed = hash(memory);
            // The place is free before the answer: whoever hears it may hash again at once.
            drop(slot);
            let _ = answer.send(hashed);
        });
        self.hasher.jobs.try_send(job).map_err(|_| busy())?;
        answered.await.map_err(|_| busy())
    }
}

/// A hashing thread: runs jobs, in memory it allocates once, until the hasher is dropped.
fn work(inbox: &Mutex<Receiver<Job>>) {
    let mut memory = vec![Block::default(); Params::default().block_count()];
    loop {
        let job = lock(inbox).recv();
        match job {
            Ok(job) => job(&mut memory),
            Err(_) => return,
        }
    }
}

/// One address's place among the hashes running or waiting.
struct Slot {
    by_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut by_address = lock(&self.by_address);
        if let Some(count) = by_address.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                by_address.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    use super::*;

    #[test]
    fn passwords_hash_with_argon2id_as_the_crate_does_and_match_only_themselves() {
        let mut memory = vec![Block::default(); Params::default().block_count()];
        let hash = hash_password("correct horse", &mut memory).unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(password_matches("correct horse", &hash, &mut memory));
        assert!(!password_matches("correct horse ", &hash, &mut memory));
        assert!(!password_matches("correct horse", NO_ACCOUNT, &mut memory));
        assert!(
            PasswordHash::new(NO_ACCOUNT).is_ok(),
            "the stand-in hash parses"
        );
        let again = hash_password("correct horse", &mut memory).unwrap();
        assert_ne!(hash, again, "every hash has its own salt");
        // The same as the crate's own hashing and checking, both ways (stored hashes stay
        // good), and a hash made with more memory is checked in memory of its own.
        let parsed = PasswordHash::new(&hash).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default()
            .hash_password(b"battery", &salt)
            .unwrap()
            .to_string();
        assert!(password_matches("battery", &theirs, &mut memory));
        let bigger = Argon2::from(Params::new(32_768, 2, 1, None).unwrap());
        let bigger = bigger.hash_password(b"staple", &salt).unwrap().to_string();
        assert!(password_matches("staple", &bigger, &mut memory));
        assert!(!password_matches("stapler", &bigger, &mut memory));
    }

    #[tokio::test]
    async fn an_address_gets_a_few_hashes_at_once_and_others_are_served() {
        let hasher = Arc::new(Hasher::new());
        let flood: IpAddr = [203, 0, 113, 1].into();
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let hold = Arc::new(Mutex::new(hold));
        // Two slow hashes for one address take its places; its third is refused at once.
        let mut slow = Vec::new();
        for _ in 0..PER_ADDRESS {
            let (hasher, hold) = (hasher.clone(), hold.clone());
            slow.push(tokio::spawn(async move {
                hasher.run(flood, move |_| lock(&hold).recv().is_ok()).await
            }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let refused = hasher.run(flood, |_| true).await;
        assert!(matches!(refused, Err(ApiError::Busy(_))), "{refused:?}");
        // Another address waits for a worker and is served.
        let other = tokio::spawn({
            let hasher = hasher.clone();
            async move { hasher.run([198, 51, 100, 7].into(), |_| 42).await }
        });
        for _ in 0..PER_ADDRESS {
            release.send(()).unwrap();
        }
        for done in slow {
            assert!(done.await.unwrap().unwrap());
        }
        assert_eq!(other.await.unwrap().unwrap(), 42);
        // Its places are free again.
        assert!(hasher.run(flood, |_| true).await.unwrap());
        assert!(lock(&hasher.by_address).is_empty());
    }
}

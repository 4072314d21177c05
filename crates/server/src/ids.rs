//! Random identifiers and secrets, and the hash under which secrets are stored.

use rand::Rng;
use sha2::{Digest, Sha256};

/// `bytes` random bytes as lower-case hex.
fn random_hex(bytes: usize) -> String {
    let mut rng = rand::rng();
    (0..bytes)
        .map(|_| format!("{:02x}", rng.random::<u8>()))
        .collect()
}

/// A public id for a game, a session or a bot (64 random bits).
pub fn new_id() -> String {
    random_hex(8)
}

/// A secret: a session cookie, a bot token, an invite code (256 random bits).
pub fn new_secret() -> String {
    random_hex(32)
}

/// How a secret is stored: its SHA-256 in hex, so a copy of the database gives no access.
pub fn hash_secret(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Milliseconds since the Unix epoch, the time stamps of the API and the database.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

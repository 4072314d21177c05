//! Go's rules against repetition: simple ko, positional and situational superko.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Which earlier positions a placement may not recreate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// The board as it stood before the opponent's last move.
    Simple,
    /// Any earlier board.
    Positional,
    /// Any earlier board with the same player to move.
    Situational,
}

impl KoRule {
    pub(crate) fn from_name(name: &str) -> Option<KoRule> {
        match name {
            "simple" => Some(KoRule::Simple),
            "positional" => Some(KoRule::Positional),
            "situational" => Some(KoRule::Situational),
            _ => None,
        }
    }
}

/// Zobrist keys are uniformly random already: hashing them again would only cost time.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The positions seen so far, by key (superko rules only).
pub(crate) type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

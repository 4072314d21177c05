//! Seeds: from the clock when none is given, and derived ones for the games of a match.

use std::time::{SystemTime, UNIX_EPOCH};

use toroid_rules::Color;

/// Nanoseconds of the clock: a fresh game each time when no seed is given.
pub fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// SplitMix64's finaliser: spreads nearby inputs over all 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a match seeded with `seed`: 53 bits, so that JSON readers
/// that hold numbers as doubles read it exactly.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    mix(mix(seed) ^ index as u64) >> 11
}

/// Each colour's bot gets its own stream, so that two bots of one level do not mirror each
/// other's random choices.
pub fn bot_seed(game_seed: u64, color: Color) -> u64 {
    mix(game_seed ^ (color.index() as u64 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_between_games_and_colours() {
        let seeds: Vec<u64> = (0..100).map(|i| game_seed(1, i)).collect();
        let mut unique = seeds.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seeds.len());
        assert!(seeds.iter().all(|&s| s < 1 << 53));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        let g = game_seed(1, 0);
        assert_ne!(bot_seed(g, Color::Black), bot_seed(g, Color::White));
    }
}

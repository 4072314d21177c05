//! Zobrist keys: one fixed random number per (cell, colour), so a board's hash is the XOR
//! of the keys of its stones and can be updated in O(1) per stone change.

use crate::cell::MAX_CELLS;
use crate::color::Color;

const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

static KEYS: [[u64; MAX_CELLS]; 2] = {
    let mut keys = [[0u64; MAX_CELLS]; 2];
    let mut i = 0;
    while i < MAX_CELLS {
        keys[0][i] = splitmix64(2 * i as u64 + 1);
        keys[1][i] = splitmix64(2 * i as u64 + 2);
        i += 1;
    }
    keys
};

/// The key of a `color` stone on the cell with index `cell`.
#[inline]
pub fn stone(cell: usize, color: Color) -> u64 {
    KEYS[color.index()][cell]
}

/// XORed in when white is to move (for "situational" repetition and search tables).
pub const WHITE_TO_MOVE: u64 = 0x5D58_8B65_6C07_8965;

/// The hash of a whole board, cell by cell (`None` for an empty cell).
pub fn board(stones: &[Option<Color>]) -> u64 {
    stones
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|color| stone(i, color)))
        .fold(0, |h, k| h ^ k)
}

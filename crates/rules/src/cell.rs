//! Cells and their notation.
//!
//! A cell is an index into a board's cell list; every board of toroid is a `width × height`
//! grid, so the index is `y * width + x`. Its notation is the SGF point: the letter of `x`
//! then the letter of `y`, `a`..`z` for 0..25 and `A`..`Z` for 26..51.

use std::fmt;

use thiserror::Error;

/// Largest board side that the notation can name.
pub const MAX_SIDE: usize = 52;

/// The most cells a board can have.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A cell of a board, as its index `y * width + x`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

impl Cell {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why a string is not a cell of a given board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PointError {
    #[error("'{0}' is not a point: a point is two letters, column then row, like 'ee'")]
    Malformed(String),
    #[error("'{point}' is off the board: x={x}, y={y} on a {width}×{height} board")]
    OffBoard {
        point: String,
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
}

/// The coordinate a notation letter stands for.
pub fn letter_value(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

/// The notation letter of a coordinate (`0..52`).
pub fn value_letter(v: usize) -> char {
    debug_assert!(v < MAX_SIDE);
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

/// Parses a two-letter point into display coordinates `(x, y)` on a `width × height` board.
pub fn parse_point(s: &str, width: usize, height: usize) -> Result<(usize, usize), PointError> {
    let mut chars = s.chars();
    let (Some(cx), Some(cy), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(PointError::Malformed(s.to_string()));
    };
    let (Some(x), Some(y)) = (letter_value(cx), letter_value(cy)) else {
        return Err(PointError::Malformed(s.to_string()));
    };
    if x >= width || y >= height {
        return Err(PointError::OffBoard {
            point: s.to_string(),
            x,
            y,
            width,
            height,
        });
    }
    Ok((x, y))
}

/// Writes display coordinates as a two-letter point.
pub struct PointName(pub usize, pub usize);

impl fmt::Display for PointName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", value_letter(self.0), value_letter(self.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_every_coordinate() {
        for x in 0..MAX_SIDE {
            for y in [0, 7, 51] {
                let name = PointName(x, y).to_string();
                assert_eq!(parse_point(&name, MAX_SIDE, MAX_SIDE), Ok((x, y)));
            }
        }
        assert_eq!(PointName(4, 4).to_string(), "ee");
        assert_eq!(PointName(26, 51).to_string(), "AZ");
    }

    #[test]
    fn bad_points_are_rejected() {
        assert!(matches!(
            parse_point("e", 9, 9),
            Err(PointError::Malformed(_))
        ));
        assert!(matches!(
            parse_point("eee", 9, 9),
            Err(PointError::Malformed(_))
        ));
        assert!(matches!(
            parse_point("e4", 9, 9),
            Err(PointError::Malformed(_))
        ));
        assert!(matches!(
            parse_point("jj", 9, 9),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_point("éa", 9, 9),
            Err(PointError::Malformed(_))
        ));
    }
}

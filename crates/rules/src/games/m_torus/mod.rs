//! `m-torus`: Mark Steere's M-Torus. Hexagonal cells with both seams glued in reverse, which
//! makes the board a projective plane; the first simple loop that crosses the seams an odd
//! number of times in all wins for whoever closes it (docs/rules.md, "m-torus").
//!
//! The projective plane's homology group is Z/2: a loop's class is the parity of its seam
//! crossings, odd exactly for the loops that do not shrink to a point. The parity of the
//! crossings is even around every triangle of cells (the `topology` tests check it), so it
//! is well defined on cycles, and a closed walk of odd parity splits into simple loops one
//! of which is odd: a group that holds an odd cycle holds a winning simple loop (see
//! `loops`).

use std::ops::{Add, Neg, Sub};

use crate::color::Color;
use crate::games::loops::{Homology, LoopGame, LoopRules};
use crate::games::GameKind;
use crate::outcome::Reason;
use crate::params::ParamError;
use crate::topology::{Seam, Surface};

mod config;
pub use config::MTorusConfig;

/// A game of Mark Steere's M-Torus.
pub type MTorus = LoopGame<MRules>;

/// The rules that make a `LoopGame` a game of Mark Steere's M-Torus.
#[derive(Copy, Clone, Debug)]
pub struct MRules;

/// The parity of a walk's seam crossings, both seams together.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Parity {
    pub odd: bool,
}

impl Add for Parity {
    type Output = Parity;
    fn add(self, o: Parity) -> Parity {
        Parity {
            odd: self.odd != o.odd,
        }
    }
}

impl Sub for Parity {
    type Output = Parity;
    fn sub(self, o: Parity) -> Parity {
        // In Z/2 subtracting is adding.
        Parity {
            odd: self.odd != o.odd,
        }
    }
}

impl Neg for Parity {
    type Output = Parity;
    fn neg(self) -> Parity {
        self
    }
}

impl Homology for Parity {
    /// Whether the group holds an odd cycle.
    type Span = bool;

    fn of_step(seam: Seam) -> Parity {
        Parity {
            odd: (seam.cx + seam.cy) % 2 != 0,
        }
    }

    fn extend(odd: bool, class: Parity) -> bool {
        odd || class.odd
    }

    fn join(a: bool, b: bool) -> bool {
        a || b
    }
}

impl LoopRules for MRules {
    type Class = Parity;
    const KIND: GameKind = GameKind::MTorus;

    const SURFACE: Surface = Surface::ProjectivePlane;

    fn check_board(_width: usize, height: usize) -> Result<(), ParamError> {
        if height.is_multiple_of(2) {
            return Err(ParamError::Invalid(format!(
                "height must be odd on m-torus, got {height}"
            )));
        }
        Ok(())
    }

    fn wins(_owner: Color, odd: bool) -> bool {
        odd
    }

    fn loop_reason(_owner: Color, class: Parity) -> Option<Reason> {
        class.odd.then_some(Reason::SeamLoop)
    }

    fn spanning_reason(_owner: Color) -> Reason {
        Reason::SeamLoop
    }
}

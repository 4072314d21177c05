//! `hex-torus`: Mark Steere's Torus. Hexagonal cells on a torus; black wins by closing a ring
//! or a right helix, white a bracelet or a left helix (docs/rules.md, "hex-torus").
//!
//! A loop is a closed chain of one player's stones, each next to the next; its kind is its
//! winding `(a, b)`, its class in the torus's homology group Z². Per group of stones the
//! engine tracks the lattice that the windings of the group's cycles span (see
//! `loops`):
//! - `{0}`: the group holds no loop around the torus;
//! - a line `Z·g`: `g` is the winding of a simple loop (the first one found is a tree path
//!   plus one edge), every loop of the group winds a multiple of `g`, and every simple one
//!   around the torus `±g` (a simple closed curve on the torus winds primitively), so the
//!   group wins exactly when `g` is of its owner's kind;
//! - the whole plane: two of the group's loops cross, so the cells it covers form a torus
//!   with holes, which holds loops of every winding that do not cross themselves: the group
//!   wins for its owner, whatever the kinds of its simple loops.
//!
//! The last case is where "loop" needs care. A group can span the plane without holding a
//! *simple* chain of its owner's kind: a ring and a right helix that cross at one stone,
//! where the crossing joins them only into a right helix of winding (1, 2), give white
//! simple chains of black's kinds only; white's bracelet passes the crossing stone twice,
//! touching itself there without crossing. Counting simple chains only would let a full
//! board hold no winner (`tests/hex_torus.rs` has one), against Steere's rule that draws
//! cannot occur; counting closed chains that do not cross themselves keeps it (on a full
//! board one colour's cells hold loops in two directions and the other's none, or both
//! hold loops of one winding only, the same winding for both).
//!
//! The outcome names the kind of the first winning simple loop that the last stone closed,
//! else (a group that now spans the plane) a ring for black and a bracelet for white.

use std::ops::{Add, Neg, Sub};

use crate::color::Color;
use crate::games::loops::{Homology, LoopGame, LoopRules};
use crate::games::GameKind;
use crate::outcome::Reason;
use crate::params::ParamError;
use crate::topology::{Seam, Surface};

mod config;
pub use config::HexTorusConfig;

/// A game of Mark Steere's Torus.
pub type HexTorus = LoopGame<HexRules>;

/// The rules that make a `LoopGame` a game of Mark Steere's Torus.
#[derive(Copy, Clone, Debug)]
pub struct HexRules;

/// The winding of a walk on the torus: `a` net left-to-right crossings of the left/right
/// seam, `b` net top-to-bottom crossings of the top/bottom seam.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Winding {
    pub a: i16,
    pub b: i16,
}

impl Winding {
    /// The cross product: zero exactly when the two windings are parallel.
    fn cross(self, other: Winding) -> i32 {
        self.a as i32 * other.b as i32 - self.b as i32 * other.a as i32
    }
}

impl Add for Winding {
    type Output = Winding;
    fn add(self, o: Winding) -> Winding {
        Winding {
            a: self.a + o.a,
            b: self.b + o.b,
        }
    }
}

impl Sub for Winding {
    type Output = Winding;
    fn sub(self, o: Winding) -> Winding {
        Winding {
            a: self.a - o.a,
            b: self.b - o.b,
        }
    }
}

impl Neg for Winding {
    type Output = Winding;
    fn neg(self) -> Winding {
        Winding {
            a: -self.a,
            b: -self.b,
        }
    }
}

/// The lattice that a group's cycle windings span.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum WindingSpan {
    /// Every cycle is contractible.
    #[default]
    Zero,
    /// Every winding is a multiple of this one, the winding of a simple loop.
    Line(Winding),
    /// Windings in two directions.
    Plane,
}

impl Homology for Winding {
    type Span = WindingSpan;

    fn of_step(seam: Seam) -> Winding {
        Winding {
            a: seam.cx as i16,
            b: seam.cy as i16,
        }
    }

    fn extend(span: WindingSpan, class: Winding) -> WindingSpan {
        match span {
            _ if class == Winding::default() => span,
            WindingSpan::Zero => WindingSpan::Line(class),
            WindingSpan::Line(g) if g.cross(class) == 0 => span,
            _ => WindingSpan::Plane,
        }
    }

    fn join(a: WindingSpan, b: WindingSpan) -> WindingSpan {
        match b {
            WindingSpan::Zero => a,
            WindingSpan::Line(g) => Winding::extend(a, g),
            WindingSpan::Plane => WindingSpan::Plane,
        }
    }
}

impl LoopRules for HexRules {
    type Class = Winding;
    const KIND: GameKind = GameKind::HexTorus;

    const SURFACE: Surface = Surface::Torus;

    fn check_board(_width: usize, height: usize) -> Result<(), ParamError> {
        if !height.is_multiple_of(2) {
            return Err(ParamError::Invalid(format!(
                "height must be even on hex-torus, got {height}"
            )));
        }
        Ok(())
    }

    fn wins(owner: Color, span: WindingSpan) -> bool {
        match span {
            WindingSpan::Zero => false,
            WindingSpan::Line(g) => HexRules::loop_reason(owner, g).is_some(),
            WindingSpan::Plane => true,
        }
    }

    fn loop_reason(owner: Color, w: Winding) -> Option<Reason> {
        let (reason, winner) = match (w.a, w.b) {
            (0, 0) => return None,
            (0, _) => (Reason::Ring, Color::Black),
            (_, 0) => (Reason::Bracelet, Color::White),
            (a, b) if (a > 0) == (b > 0) => (Reason::RightHelix, Color::Black),
            _ => (Reason::LeftHelix, Color::White),
        };
        (winner == owner).then_some(reason)
    }

    fn spanning_reason(owner: Color) -> Reason {
        match owner {
            Color::Black => Reason::Ring,
            Color::White => Reason::Bracelet,
        }
    }
}

//! Rules engines for toroid's board games on wrapped surfaces.
//!
//! One concept per module: [`cell`] (cells and their notation), [`topology`] (cell graphs with
//! seam labels), [`moves`], [`params`], [`outcome`], [`zobrist`], the [`Position`] trait that
//! every rule set implements, one module per rule set under [`games`], and the [`Bot`]
//! trait of every player program.
//!
//! A game is picked by name, played by typed moves, and refuses an illegal move with its
//! reason, changing nothing:
//!
//! ```
//! use toroid_rules::{GameKind, IllegalMove, Move, Position};
//!
//! let kind: GameKind = "go".parse().unwrap();
//! let mut game = kind.new_game(&["size=5", "topology=torus"]).unwrap();
//! let centre = Move::parse("cc", game.topology()).unwrap();
//! game.play(centre).unwrap();
//! assert_eq!(game.play(centre), Err(IllegalMove::Occupied));
//! assert_eq!(game.ply(), 1);
//! ```

pub mod bot;
pub mod cell;
pub mod color;
pub mod games;
pub mod moves;
pub mod outcome;
pub mod params;
pub mod position;
pub mod setup;
pub mod symmetry;
pub mod topology;
pub mod zobrist;

pub use bot::{Bot, TimeLeft};
pub use cell::{Cell, PointError};
pub use color::Color;
pub use games::{AnyGame, BoardSize, GameKind, NamedRules, RuleSet, UnknownGame, TOROID_SGF_GAME};
pub use moves::{IllegalMove, Move, ParseMoveError};
pub use outcome::{Fault, Outcome, Reason, UnknownReason};
pub use params::{ParamError, ParamSpec, ParamValue, Params};
pub use position::{random_playout, uniform_playout, EndPhase, Position};
pub use setup::{SetupChange, SetupError};
pub use symmetry::{symmetries, Symmetries};
pub use topology::{Gluing, Lattice, Neighbor, Seam, Surface, Topology};

//! Search and house bots for toroid's games.
//!
//! A [`Bot`] chooses moves for any rule set; [`Level`] names the house bots from weakest to
//! strongest and builds them.

pub mod bot;
pub mod level;
pub mod random;

pub use bot::{Bot, TimeLeft};
pub use level::{Level, UnknownLevel};
pub use random::RandomBot;

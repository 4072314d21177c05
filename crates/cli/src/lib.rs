//! The library behind the `toroid` command, split from `main.rs` so that its tests can use
//! it: starting a game from text and replaying moves onto it ([`setup`]), text boards that
//! show the wrap ([`render`]), players named on the command line ([`player`]), games between
//! bots and their records ([`arena`]), match statistics ([`elo`]) and seeds ([`seed`]).

pub mod arena;
pub mod elo;
pub mod player;
pub mod render;
pub mod seed;
pub mod setup;

/// The JSON views live in `toroid-protocol`, where the server shares them.
pub use toroid_protocol::view;

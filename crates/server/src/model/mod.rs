//! The server's model, at the bottom of its stack: what a game is ([`GameSpec`]), its clock
//! ([`TimeControl`]), who sits on a colour ([`Seat`]), where a game is in its life
//! ([`Status`]) and what a player may offer ([`Offer`]). Storage and the wire read and write
//! these types at their edges; nothing in between passes a rule set's name, its parameters or
//! a clock as text.

mod counting;
pub mod name;
mod seat;
mod spec;
mod status;
pub mod text;
mod time_control;

pub use counting::Counting;
pub use name::{name_key, NameError, PlayerName, MAX_NAME};
pub use seat::Seat;
pub use spec::GameSpec;
pub use status::{Offer, Status};
pub use time_control::{stored_millis, TimeControl};

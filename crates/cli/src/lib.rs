//! What the `toroid` command shows, in a form other front ends (the server) can reuse:
//! starting a game from text and replaying moves onto it ([`setup`]), the JSON shapes of the
//! inspection interface ([`view`]), and text boards that show the wrap ([`render`]).

pub mod render;
pub mod setup;
pub mod view;

//! The Go Text Protocol, version 2: an engine that speaks it for every rule set, and a
//! client that drives external engines.
//!
//! - [`Engine`] answers GTP commands for a game of any rule set (standard GTP for `go` and
//!   `capture-go`, the `toroid-*` extension for the others; `docs/protocol.md`).
//! - [`Client`] runs an external engine as a child process and talks to it, and
//!   [`RemotePlayer`] plays a game with it, every misstep a typed [`EngineFault`].
//!
//! The parts: [`command`] (lines into commands, responses into text), [`vertex`] (GTP
//! vertices and colours), [`clock`] (time settings), [`handicap`] (handicap points),
//! [`board`] (the text and JSON boards), the engine's state machine in [`engine`], and the
//! client in [`client`] and [`remote`].

pub mod board;
pub mod client;
pub mod clock;
pub mod command;
pub mod engine;
pub mod handicap;
pub mod remote;
pub mod vertex;

pub use client::{kill_all_engines, split_command_line, Client, ClientError};
pub use command::{Command, Response};
pub use engine::Engine;
pub use remote::{Answer, EngineFault, EngineLimits, RemotePlayer, Unplayable};

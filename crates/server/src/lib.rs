//! The toroid game server (`toroid serve`): guest sessions, games against house bots and
//! people, live play and spectating over WebSocket, records, an OpenAPI description, and the
//! web page, over storage in SQLite or PostgreSQL. docs/server.md describes it.
//!
//! Layers, each in its own module: [`storage`] (the database, group commit).

pub mod ids;
pub mod outcome;
pub mod seat;
pub mod storage;

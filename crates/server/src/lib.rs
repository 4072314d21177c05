//! The toroid game server (`toroid serve`): guest sessions, games against house bots and
//! people, live play and spectating over WebSocket, records, an OpenAPI description, and the
//! web page, over storage in SQLite or PostgreSQL. docs/server.md describes it.
//!
//! Layers, each in its own module: [`model`] (the types every layer shares: a game's spec,
//! its clock, its seats), [`storage`] (the database, group commit), [`game`] (one
//! game in memory and its changes), [`hub`] (the core every feature shares, and one folder
//! per feature: its operations, routes, JSON shapes and queries), [`referee`] (clocks and
//! house bots of one game), [`http`] (the router, connections, limits).

pub mod admin;
pub mod api;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod error;
pub mod game;
pub mod house;
pub mod http;
pub mod hub;
pub mod ids;
pub mod metrics;
pub mod model;
pub mod rating;
pub mod referee;
pub mod server;
pub mod storage;

pub use config::{Config, Limits, LogFormat};
pub use server::{backup, run, Server, StartError};

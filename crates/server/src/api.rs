//! The JSON shapes of the HTTP API and the WebSockets (docs/server.md, /api/openapi.json).
//! Each feature defines its own in its `wire.rs`; this module gathers them, for the OpenAPI
//! description and for code that speaks for several features.

pub use crate::hub::accounts::wire::*;
pub use crate::hub::bots::wire::*;
pub use crate::hub::challenges::wire::*;
pub use crate::hub::follows::wire::*;
pub use crate::hub::games::wire::*;
pub use crate::hub::lobby::wire::*;
pub use crate::hub::moderation::wire::*;
pub use crate::hub::news::wire::*;
pub use crate::hub::puzzles::wire::*;
pub use crate::hub::ratings::wire::*;
pub use crate::hub::reviews::wire::*;
pub use crate::hub::tournaments::wire::*;

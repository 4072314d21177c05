//! Protocols and records: SGF and JSON game records, and the GTP engine protocol.

pub mod gtp;
pub mod record;
pub mod sgf;

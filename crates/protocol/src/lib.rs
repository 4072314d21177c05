//! Protocols and records: SGF and JSON game records, the GTP engine protocol, and the JSON
//! views of games that the command line and the server show.

pub mod gtp;
pub mod help;
pub mod record;
pub mod sgf;
pub mod view;

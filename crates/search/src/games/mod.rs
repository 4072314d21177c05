//! What the bots know of each rule set, one module per rule set (the loop games share
//! one): its [`crate::knowledge::Knowledge`] and the tactics behind it.

mod ctor;
pub mod go;
mod loops;
pub mod torus;

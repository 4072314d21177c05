//! SGF `FF[4]` game trees: reading ([`parse`]), writing ([`write()`]) and the tree itself
//! ([`GameTree`]), independent of any rule set. [`crate::record`] gives them meaning.
//!
//! The tree is stored flat (an arena of nodes with child indices), so that neither parsing,
//! writing nor dropping recurses: a hostile file nested a million levels deep cannot
//! overflow the stack.

mod parse;
mod tree;
mod write;

pub use parse::{parse, parse_bytes, SgfError, SgfErrorKind};
pub use tree::{GameTree, Node, NodeId, Property};
pub use write::{escape, write};

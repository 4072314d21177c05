//! The SGF reader: the FF[4] game-tree grammar, with the leniencies real files need.
//!
//! ```text
//! Collection = GameTree { GameTree }      GameTree = "(" Sequence { GameTree } ")"
//! Sequence   = Node { Node }              Node     = ";" { Property }
//! Property   = PropIdent PropValue { PropValue }
//! ```
//! Whitespace may stand between any two tokens; anything before the first `(` is skipped
//! (mail headers, byte-order marks). Lower-case letters in identifiers (FF[1]-FF[3]
//! `AddBlack`) are dropped. In values `\` escapes the next character and `\` before a line
//! break removes it (a soft break). A repeated property in one node has its values merged.

use thiserror::Error;

use super::tree::{GameTree, Node, NodeId};

/// Why a text is not SGF, and where: `offset` is the byte the reader stopped at.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("SGF error at byte {offset}: {kind}")]
pub struct SgfError {
    pub offset: usize,
    pub kind: SgfErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SgfErrorKind {
    #[error("no game tree (an SGF file starts with '(;')")]
    NoGameTree,
    #[error("a game tree must start with a node (';')")]
    EmptyGameTree,
    #[error("a node cannot follow a variation inside the same game tree")]
    NodeAfterVariation,
    #[error("unexpected character {0:?}")]
    Unexpected(char),
    #[error("property identifier without an upper-case letter")]
    NoUpperCase,
    #[error("property {0} has no value")]
    MissingValue(String),
    #[error("value not closed by ']'")]
    UnterminatedValue,
    #[error("game tree not closed by ')'")]
    UnclosedGameTree,
}

/// Parses a collection of game trees.
pub fn parse(text: &str) -> Result<Vec<GameTree>, SgfError> {
    parse_bytes(text.as_bytes())
}

/// Parses a collection from bytes; values that are not UTF-8 are decoded lossily.
pub fn parse_bytes(input: &[u8]) -> Result<Vec<GameTree>, SgfError> {
    let start = input.iter().position(|&b| b == b'(').ok_or(SgfError {
        offset: input.len(),
        kind: SgfErrorKind::NoGameTree,
    })?;
    Parser {
        input,
        pos: start,
        trees: Vec::new(),
    }
    .collection()
}

/// One open `(`: the node its sequence hangs from, its last node so far, and whether a
/// variation has begun (after which no more nodes may follow).
struct Open {
    parent: Option<NodeId>,
    last: Option<NodeId>,
    branched: bool,
}

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    trees: Vec<GameTree>,
}

impl Parser<'_> {
    fn error(&self, kind: SgfErrorKind) -> SgfError {
        SgfError {
            offset: self.pos,
            kind,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn unexpected(&self) -> SgfError {
        let rest = &self.input[self.pos..];
        let c = String::from_utf8_lossy(&rest[..rest.len().min(4)])
            .chars()
            .next()
            .unwrap_or('\u{fffd}');
        self.error(SgfErrorKind::Unexpected(c))
    }

    fn collection(mut self) -> Result<Vec<GameTree>, SgfError> {
        let mut open: Vec<Open> = Vec::new();
        loop {
            self.skip_whitespace();
            let Some(byte) = self.peek() else {
                if !open.is_empty() {
                    return Err(self.error(SgfErrorKind::UnclosedGameTree));
                }
                return Ok(self.trees);
            };
            match (byte, open.last_mut()) {
                (b'(', None) => open.push(Open {
                    parent: None,
                    last: None,
                    branched: false,
                }),
                (b'(', Some(tree)) => {
                    let Some(last) = tree.last else {
                        return Err(self.error(SgfErrorKind::EmptyGameTree));
                    };
                    tree.branched = true;
                    open.push(Open {
                        parent: Some(last),
                        last: None,
                        branched: false,
                    });
                }
                (b';', Some(tree)) => {
                    if tree.branched {
                        return Err(self.error(SgfErrorKind::NodeAfterVariation));
                    }
                    self.pos += 1;
                    let node = self.node()?;
                    let id = match tree.last.or(tree.parent) {
                        Some(parent) => self.current().add_child(parent, node),
                        None => {
                            self.trees.push(GameTree::new(node));
                            GameTree::ROOT
                        }
                    };
                    tree.last = Some(id);
                    continue;
                }
                (b')', Some(tree)) => {
                    if tree.last.is_none() {
                        return Err(self.error(SgfErrorKind::EmptyGameTree));
                    }
                    open.pop();
                }
                _ => return Err(self.unexpected()),
            }
            self.pos += 1;
        }
    }

    fn current(&mut self) -> &mut GameTree {
        self.trees
            .last_mut()
            .expect("a node with a parent has a tree")
    }

    /// The properties of one node, after its `;`.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_whitespace();
            if !self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                return Ok(node);
            }
            let at = self.pos;
            let mut id = String::new();
            while let Some(b) = self.peek().filter(u8::is_ascii_alphabetic) {
                if b.is_ascii_uppercase() {
                    id.push(b as char);
                }
                self.pos += 1;
            }
            if id.is_empty() {
                self.pos = at;
                return Err(self.error(SgfErrorKind::NoUpperCase));
            }
            let mut values = Vec::new();
            loop {
                self.skip_whitespace();
                if self.peek() != Some(b'[') {
                    break;
                }
                values.push(self.value()?);
            }
            if values.is_empty() {
                self.pos = at;
                return Err(self.error(SgfErrorKind::MissingValue(id)));
            }
            node.push(&id, values);
        }
    }

    /// One `[...]` value, the reader on its `[`.
    fn value(&mut self) -> Result<String, SgfError> {
        let open = self.pos;
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                self.pos = open;
                return Err(self.error(SgfErrorKind::UnterminatedValue));
            };
            self.pos += 1;
            match b {
                b']' => return Ok(String::from_utf8_lossy(&bytes).into_owned()),
                b'\\' => match self.peek() {
                    // A soft line break: `\` + "\n", "\r", "\r\n" or "\n\r" vanishes.
                    Some(first @ (b'\n' | b'\r')) => {
                        self.pos += 1;
                        let second = if first == b'\n' { b'\r' } else { b'\n' };
                        if self.peek() == Some(second) {
                            self.pos += 1;
                        }
                    }
                    Some(escaped) => {
                        bytes.push(escaped);
                        self.pos += 1;
                    }
                    None => {}
                },
                _ => bytes.push(b),
            }
        }
    }
}

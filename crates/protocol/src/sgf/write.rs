//! The SGF writer: one node per line, variations in parentheses, values escaped.

use super::tree::{GameTree, NodeId};

/// Writes a collection. Reading the text back gives the same trees.
pub fn write(trees: &[GameTree]) -> String {
    let mut out = String::new();
    for tree in trees {
        write_tree(tree, &mut out);
        out.push('\n');
    }
    out
}

/// Escapes a value for `[...]`: `\` and `]` get a backslash.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

enum Task {
    /// `(`, the sequence from this node, `)`.
    Variation(NodeId),
    Close,
}

fn write_tree(tree: &GameTree, out: &mut String) {
    // An explicit stack instead of recursion: variations may nest arbitrarily deep.
    let mut tasks = vec![Task::Variation(GameTree::ROOT)];
    while let Some(task) = tasks.pop() {
        let mut id = match task {
            Task::Close => {
                out.push(')');
                continue;
            }
            Task::Variation(id) => id,
        };
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push('(');
        tasks.push(Task::Close);
        loop {
            write_node(tree, id, out);
            match tree.node(id).children() {
                [] => break,
                [only] => {
                    out.push('\n');
                    id = *only;
                }
                several => {
                    tasks.extend(several.iter().rev().map(|&c| Task::Variation(c)));
                    break;
                }
            }
        }
    }
}

fn write_node(tree: &GameTree, id: NodeId, out: &mut String) {
    out.push(';');
    // A property without values cannot be written (nor exist in a parsed file).
    for p in tree
        .node(id)
        .properties
        .iter()
        .filter(|p| !p.values.is_empty())
    {
        out.push_str(&p.id);
        for v in &p.values {
            out.push('[');
            out.push_str(&escape(v));
            out.push(']');
        }
    }
}

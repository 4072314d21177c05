//! The SGF game tree: nodes of properties, each node with its variations as children.

/// One property of a node: an identifier (upper-case letters) and one or more values, with
/// escapes resolved and soft line breaks removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub id: String,
    pub values: Vec<String>,
}

impl Property {
    pub fn new(id: impl Into<String>, values: Vec<String>) -> Property {
        Property {
            id: id.into(),
            values,
        }
    }

    /// A property with one value.
    pub fn single(id: impl Into<String>, value: impl Into<String>) -> Property {
        Property::new(id, vec![value.into()])
    }
}

/// The index of a node in its [`GameTree`].
pub type NodeId = usize;

/// A node: its properties in file order, and its children (the first continues the line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub properties: Vec<Property>,
    children: Vec<NodeId>,
}

impl Node {
    pub fn new(properties: Vec<Property>) -> Node {
        Node {
            properties,
            children: Vec::new(),
        }
    }

    /// The property `id`, if the node has it.
    pub fn get(&self, id: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.id == id)
    }

    /// The first value of property `id`.
    pub fn value(&self, id: &str) -> Option<&str> {
        self.get(id)
            .and_then(|p| p.values.first())
            .map(String::as_str)
    }

    /// Adds values to property `id`, creating it if needed (files that repeat a property in
    /// one node are read this way rather than refused).
    pub fn push(&mut self, id: &str, values: impl IntoIterator<Item = String>) {
        match self.properties.iter_mut().find(|p| p.id == id) {
            Some(p) => p.values.extend(values),
            None => self
                .properties
                .push(Property::new(id, values.into_iter().collect())),
        }
    }

    pub fn children(&self) -> &[NodeId] {
        &self.children
    }
}

/// One game tree of a collection; node 0 is the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree {
    nodes: Vec<Node>,
}

impl GameTree {
    pub const ROOT: NodeId = 0;

    pub fn new(root: Node) -> GameTree {
        GameTree { nodes: vec![root] }
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id]
    }

    pub fn root(&self) -> &Node {
        &self.nodes[Self::ROOT]
    }

    /// Adds `node` as the last child of `parent` and returns its id.
    pub fn add_child(&mut self, parent: NodeId, node: Node) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(node);
        self.nodes[parent].children.push(id);
        id
    }

    /// Copies the subtree of `other` rooted at `from` as the last child of `parent`.
    pub fn graft(&mut self, parent: NodeId, other: &GameTree, from: NodeId) {
        let mut pending = vec![(parent, from)];
        while let Some((to, source)) = pending.pop() {
            let copy = Node::new(other.nodes[source].properties.clone());
            let id = self.add_child(to, copy);
            // Reversed so that children are popped, hence added, in their original order.
            pending.extend(other.nodes[source].children.iter().rev().map(|&c| (id, c)));
        }
    }

    /// A new tree holding a copy of the subtree rooted at `id`.
    pub fn subtree(&self, id: NodeId) -> GameTree {
        let mut copy = GameTree::new(Node::new(self.nodes[id].properties.clone()));
        for &child in &self.nodes[id].children {
            copy.graft(Self::ROOT, self, child);
        }
        copy
    }

    /// How many nodes the tree holds (ids are `0..node_count()`).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The main line: the root, then always the first child.
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut line = vec![Self::ROOT];
        while let Some(&next) = self.nodes[*line.last().unwrap()].children.first() {
            line.push(next);
        }
        line
    }

    /// The number of leaves: how many distinct lines of play the tree holds.
    pub fn leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.children.is_empty()).count()
    }
}

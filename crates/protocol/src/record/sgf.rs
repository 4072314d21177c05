//! Records as SGF: `GM[1]` for the Go family on the plane, the private `GM[100]` for the
//! others and for Go off the plane (a reader that checks `GM` must not take a game on a
//! torus for plain Go);
//! `TG[game]` names the rule set and `TP[key=value]` carries every parameter that `SZ` and
//! `KM` do not (see `docs/records.md`).

use std::str::FromStr;

use toroid_rules::cell::parse_point;
use toroid_rules::{
    BoardSize, Cell, Color, GameKind, Move, NamedRules, ParamValue, Params, Reason, Surface,
    TOROID_SGF_GAME,
};

use super::{read_sgf_result, sgf_result, simple_text, Record, RecordError, RecordNode};
use crate::sgf::{self, GameTree, Node, Property};

/// Root properties that the record interprets and writes itself.
const ROOT_IDS: &[&str] = &["FF", "CA", "AP", "GM", "SZ", "TG", "TP"];
/// Game-info properties, read from the first main-line node that has them.
const INFO_IDS: &[&str] = &["PB", "PW", "RE", "TO", "KM", "RU"];

impl Record {
    /// Reads the first game of an SGF collection (further games are ignored).
    pub fn from_sgf(text: &str) -> Result<Record, RecordError> {
        let trees = sgf::parse(text)?;
        Record::from_sgf_tree(trees.first().ok_or(RecordError::NoGame)?)
    }

    /// Reads one SGF game tree: its main line is the record's, the rest is kept.
    pub fn from_sgf_tree(tree: &GameTree) -> Result<Record, RecordError> {
        let line = tree.main_line();
        let root = tree.root();
        // Game info may sit in any main-line node (FF[4] puts it where games diverge).
        let info = |id: &str| {
            line.iter()
                .enumerate()
                .find_map(|(i, &n)| Some((i, tree.node(n).value(id)?)))
        };
        let kind = match (root.value("TG"), root.value("GM").map(str::trim)) {
            (Some(name), _) => GameKind::from_str(name)?,
            (None, None | Some("1")) => GameKind::default(),
            (None, Some(other)) => return Err(RecordError::UnsupportedGame(other.into())),
        };
        let rule_set = kind.rule_set();
        let mut params = Params::defaults(rule_set.params);
        for (key, value) in size_params(rule_set.board, root)? {
            params.assign(key, value)?;
        }
        if let Some(komi) = rule_set.komi {
            params.assign_text(komi, info("KM").map_or("0", |(_, v)| v.trim()))?;
        }
        let named = info("RU").and_then(|(_, name)| rule_set.rules_named(name));
        for (key, value) in named.into_iter().flat_map(NamedRules::assignments) {
            params.assign(key, value)?;
        }
        // TP's assignments come last: they win over what SZ, KM and RU said.
        for value in root.get("TP").map_or(&[][..], |p| &p.values) {
            let (key, v) = value
                .split_once('=')
                .ok_or_else(|| bad(0, "TP", value, "not KEY=VALUE"))?;
            params.assign_text(key.trim(), v.trim())?;
        }
        let mut record = Record::new(kind, &params)?;
        let name = |id| info(id).map(|(_, v)| simple_text(v));
        record.black = name("PB");
        record.white = name("PW");
        record.result = info("RE").and_then(|(_, v)| read_sgf_result(v));
        // toroid's TO names the reason that RE cannot.
        if let (Some(result), Some((at, code))) = (&mut record.result, info("TO")) {
            result.reason =
                (code.trim().parse::<Reason>()).map_err(|e| bad(at, "TO", code, &e.to_string()))?;
        }
        // What the record holds in typed form is not kept a second time.
        let consumed = |i: usize, id: &str| {
            (i == 0 && ROOT_IDS.contains(&id))
                || (INFO_IDS.contains(&id)
                    && info(id).is_some_and(|(at, _)| at == i)
                    && match id {
                        "RE" | "TO" => record.result.is_some(),
                        "KM" => rule_set.komi.is_some(),
                        "RU" => named.is_some(),
                        _ => true,
                    })
        };
        let mut nodes = Vec::with_capacity(line.len());
        for (i, &id) in line.iter().enumerate() {
            let source = tree.node(id);
            let mut node = RecordNode::default();
            for p in &source.properties {
                match p.id.as_str() {
                    "B" | "W" => {
                        if node.play.is_some() || p.values.len() != 1 {
                            return Err(bad(
                                i,
                                &p.id,
                                &p.values.join("]["),
                                "a node holds one move",
                            ));
                        }
                        let color = if p.id == "B" {
                            Color::Black
                        } else {
                            Color::White
                        };
                        node.play = Some((color, record.parse_move(i, &p.id, &p.values[0])?));
                    }
                    "AB" | "AW" | "AE" => {
                        let color = match p.id.as_str() {
                            "AB" => Some(Color::Black),
                            "AW" => Some(Color::White),
                            _ => None,
                        };
                        for v in &p.values {
                            for cell in record.parse_points(i, &p.id, v)? {
                                node.setup.push((cell, color));
                            }
                        }
                    }
                    "C" => node.comment = Some(p.values.concat()),
                    other if consumed(i, other) => {}
                    _ => node.properties.push(p.clone()),
                }
            }
            node.variations = source
                .children()
                .iter()
                .skip(1)
                .map(|&c| tree.subtree(c))
                .collect();
            nodes.push(node);
        }
        record.nodes = nodes;
        Ok(record)
    }

    /// The record as an SGF game tree.
    pub fn to_sgf_tree(&self) -> GameTree {
        let kind = self.kind();
        let rule_set = kind.rule_set();
        let params = self.params();
        let mut root = vec![
            Property::single("FF", "4"),
            Property::single("CA", "UTF-8"),
            Property::single("AP", concat!("toroid:", env!("CARGO_PKG_VERSION"))),
        ];
        // Go on a wrapped board is not the Go that GM[1] promises: captures cross the
        // seams. It is written under toroid's own number, with TG and TP saying what it is.
        let game_number = match self.topology().surface() {
            Surface::Plane => rule_set.sgf_game,
            _ => TOROID_SGF_GAME,
        };
        root.push(Property::single("GM", game_number.to_string()));
        root.push(Property::single("TG", kind.name()));
        let (w, h) = (self.topology().width(), self.topology().height());
        root.push(Property::single(
            "SZ",
            if w == h {
                w.to_string()
            } else {
                format!("{w}:{h}")
            },
        ));
        if let Some(komi) = rule_set.komi.and_then(|key| params.float(key)) {
            root.push(Property::single("KM", komi.to_string()));
        }
        let named = rule_set.named_rules.iter().find(|named| {
            (named.params.iter()).all(|&(key, value)| params.choice(key) == Some(value))
        });
        let own_ru = self.nodes[0].properties.iter().any(|p| p.id == "RU");
        if let (Some(named), false) = (named, own_ru) {
            root.push(Property::single("RU", named.name));
        }
        // SZ and KM hold the size and komi; TP every other parameter.
        let in_sz_or_km = |name: &str| rule_set.board.sets(name) || rule_set.komi == Some(name);
        let rest: Vec<String> = params
            .iter()
            .filter(|(name, _)| !in_sz_or_km(name))
            .filter_map(|(name, value)| Some(format!("{name}={}", value?)))
            .collect();
        if !rest.is_empty() {
            root.push(Property::new("TP", rest));
        }
        for (id, name) in [("PB", &self.black), ("PW", &self.white)] {
            if let Some(name) = name {
                root.push(Property::single(id, name.as_str()));
            }
        }
        if let Some(result) = &self.result {
            root.push(Property::single("RE", sgf_result(result)));
            root.push(Property::single("TO", result.reason.code()));
        }
        let mut tree = GameTree::new(Node::new(root));
        self.write_node(&self.nodes[0], tree.node_mut(GameTree::ROOT));
        let mut id = GameTree::ROOT;
        for (i, node) in self.nodes.iter().enumerate() {
            // The main line continues in the first child; side variations follow it.
            let next = self.nodes.get(i + 1).map(|n| {
                let child = tree.add_child(id, Node::default());
                self.write_node(n, tree.node_mut(child));
                child
            });
            for variation in &node.variations {
                tree.graft(id, variation, GameTree::ROOT);
            }
            id = next.unwrap_or(id);
        }
        tree
    }

    /// The record as an SGF file.
    pub fn to_sgf(&self) -> String {
        sgf::write(&[self.to_sgf_tree()])
    }

    fn write_node(&self, node: &RecordNode, out: &mut Node) {
        if let Some((color, mv)) = node.play {
            let id = if color == Color::Black { "B" } else { "W" };
            let value = match mv {
                Move::Place(cell) => self.topology().point_name(cell).to_string(),
                Move::Pass => String::new(),
                Move::EndTurn => "end".into(),
                Move::Swap => "swap".into(),
            };
            out.push(id, [value]);
        }
        for (id, color) in [
            ("AB", Some(Color::Black)),
            ("AW", Some(Color::White)),
            ("AE", None),
        ] {
            let points = node.setup.iter().filter(|(_, c)| *c == color);
            let values: Vec<String> = points
                .map(|(cell, _)| self.topology().point_name(*cell).to_string())
                .collect();
            if !values.is_empty() {
                out.push(id, values);
            }
        }
        if let Some(comment) = &node.comment {
            out.push("C", [comment.clone()]);
        }
        for p in &node.properties {
            out.push(&p.id, p.values.iter().cloned());
        }
    }

    /// A `B`/`W` value: a point, `[]` for a pass (also `[tt]` on Go boards up to 19×19),
    /// `[end]` for the end of a CTOR turn, `[swap]` for the pie rule.
    fn parse_move(&self, node: usize, id: &str, value: &str) -> Result<Move, RecordError> {
        let topology = self.topology();
        let small_go =
            self.kind().rule_set().go_like && topology.width() <= 19 && topology.height() <= 19;
        match value {
            "" => Ok(Move::Pass),
            "tt" if small_go => Ok(Move::Pass),
            _ => Move::parse(value, topology).map_err(|e| bad(node, id, value, &e.to_string())),
        }
    }

    /// A point or a compressed rectangle `aa:cc` of points.
    fn parse_points(&self, node: usize, id: &str, value: &str) -> Result<Vec<Cell>, RecordError> {
        let topology = self.topology();
        let (w, h) = (topology.width(), topology.height());
        let point =
            |p: &str| parse_point(p, w, h).map_err(|e| bad(node, id, value, &e.to_string()));
        let ((x1, y1), (x2, y2)) = match value.split_once(':') {
            Some((a, b)) => (point(a)?, point(b)?),
            None => (point(value)?, point(value)?),
        };
        let mut cells = Vec::new();
        for y in y1.min(y2)..=y1.max(y2) {
            for x in x1.min(x2)..=x1.max(x2) {
                cells.extend(topology.cell_at(x, y));
            }
        }
        Ok(cells)
    }
}

/// The size parameters from `SZ` (`SZ[n]` or `SZ[w:h]`); Go's default side is 19.
fn size_params(
    board: BoardSize,
    root: &Node,
) -> Result<Vec<(&'static str, ParamValue)>, RecordError> {
    let value = match root.value("SZ") {
        Some(v) => v.trim(),
        None if root.value("TG").is_none() => "19",
        None => return Ok(Vec::new()),
    };
    let (w, h) = value.split_once(':').unwrap_or((value, value));
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| bad(0, "SZ", value, "not a board size"))
    };
    board
        .assignments(number(w)?, number(h)?)
        .ok_or_else(|| bad(0, "SZ", value, "this game's board is square"))
}

fn bad(node: usize, property: &str, value: &str, why: &str) -> RecordError {
    RecordError::BadProperty {
        node,
        property: property.into(),
        value: value.into(),
        why: why.into(),
    }
}

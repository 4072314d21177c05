//! The SGF reader and writer: the grammar's odd corners, errors with offsets, the shared
//! real-world files, deep nesting, and fuzzing.

use proptest::prelude::*;
use toroid_protocol::sgf::{parse, parse_bytes, write, GameTree, SgfErrorKind};

fn shared(name: &str) -> String {
    let path = format!(
        "{}/../../../shared/data/sgf/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn one(text: &str) -> GameTree {
    let mut trees = parse(text).unwrap();
    assert_eq!(trees.len(), 1);
    trees.pop().unwrap()
}

fn values<'a>(tree: &'a GameTree, node: usize, id: &str) -> &'a [String] {
    &tree.node(node).get(id).unwrap().values
}

#[test]
fn escapes_and_soft_line_breaks() {
    let tree = one("(;C[a\\]b\\\\c\\:d]N[o\\\nk o\\\r\nk o\\\rk o\\\n\rk]GN[x\ny])");
    assert_eq!(values(&tree, 0, "C"), ["a]b\\c:d"]);
    assert_eq!(values(&tree, 0, "N"), ["ok ok ok ok"]);
    assert_eq!(values(&tree, 0, "GN"), ["x\ny"], "hard line breaks stay");
}

#[test]
fn whitespace_between_every_token() {
    let tree = one(" \n( \t; B [aa] \n [bb] ; W\n[cc]\r\n( ;B[dd] ) (;B[ee])\n)\n ");
    assert_eq!(values(&tree, 0, "B"), ["aa", "bb"]);
    assert_eq!(tree.main_line().len(), 3);
    assert_eq!(tree.node(1).children().len(), 2);
    assert_eq!(tree.leaves(), 2);
}

#[test]
fn lowercase_in_identifiers_is_dropped() {
    let tree = one("(;AddBlack[aa][bb]CoPyright[me]GaMe[1])");
    assert_eq!(values(&tree, 0, "AB"), ["aa", "bb"]);
    assert_eq!(values(&tree, 0, "CP"), ["me"]);
    assert_eq!(values(&tree, 0, "GM"), ["1"]);
}

#[test]
fn repeated_properties_in_a_node_merge() {
    let tree = one("(;AB[aa]AB[bb])");
    assert_eq!(values(&tree, 0, "AB"), ["aa", "bb"]);
}

#[test]
fn text_before_the_first_tree_is_skipped_and_collections_hold_several_trees() {
    let trees = parse("\u{feff}From: someone\n(;GM[1])(;GM[1];B[aa])").unwrap();
    assert_eq!(trees.len(), 2);
    assert_eq!(trees[1].node_count(), 2);
}

#[test]
fn malformed_input_gives_the_offset() {
    let cases: &[(&str, usize, SgfErrorKind)] = &[
        ("", 0, SgfErrorKind::NoGameTree),
        ("no tree here", 12, SgfErrorKind::NoGameTree),
        ("()", 1, SgfErrorKind::EmptyGameTree),
        ("(;B[aa]", 7, SgfErrorKind::UnclosedGameTree),
        ("(;B[aa)", 3, SgfErrorKind::UnterminatedValue),
        ("(;C[x\\", 3, SgfErrorKind::UnterminatedValue),
        ("(;B;W[aa])", 2, SgfErrorKind::MissingValue("B".into())),
        ("(;add[aa])", 2, SgfErrorKind::NoUpperCase),
        (
            "(;B[aa](;W[bb]);B[cc])",
            15,
            SgfErrorKind::NodeAfterVariation,
        ),
        ("(;B[aa]((;W[bb])))", 8, SgfErrorKind::EmptyGameTree),
        ("(;B[aa])x", 8, SgfErrorKind::Unexpected('x')),
        ("(;B[aa]1)", 7, SgfErrorKind::Unexpected('1')),
        (")", 1, SgfErrorKind::NoGameTree),
    ];
    for (text, offset, kind) in cases {
        let err = parse(text).unwrap_err();
        assert_eq!((err.offset, &err.kind), (*offset, kind), "{text:?}");
    }
    assert!(parse("(;B[aa]")
        .unwrap_err()
        .to_string()
        .starts_with("SGF error at byte 7"));
}

#[test]
fn the_ff4_example_loads() {
    let trees = parse(&shared("ff4-example.sgf")).unwrap();
    assert_eq!(trees.len(), 2);
    let first = &trees[0];
    assert_eq!(
        first.root().children().len(),
        5,
        "five variations from the root"
    );
    // Root + the 13 nodes of "Moves, comments, annotations".
    assert_eq!(first.main_line().len(), 14);
    assert_eq!(first.node_count(), 54);
    // Moves, setup, markup, nine style variations, time limits.
    assert_eq!(first.leaves(), 13);
    assert_eq!(trees[1].node_count(), 8);
    assert_eq!(trees[1].leaves(), 4);
    let line = first.main_line();
    assert_eq!(first.node(line[12]).value("W"), Some(""));
    assert_eq!(first.node(line[13]).value("B"), Some("tt"));
    // The compressed point lists of the setup variation, unexpanded at this level.
    let setup = first.root().children()[1];
    assert_eq!(values(first, setup, "AB")[4], "do:gq");
    let comment = first.node(first.root().children()[3]).value("C").unwrap();
    assert!(
        comment.contains(">ok<. Hard line breaks"),
        "soft break removed: {comment}"
    );
    assert!(comment.contains("linebreak 4 \"\\r\": >ok<"), "{comment}");
}

#[test]
fn the_blood_vomiting_game_loads() {
    let tree = one(&shared("blood-vomiting-game.sgf"));
    assert_eq!(tree.leaves(), 1);
    assert_eq!(tree.main_line().len(), 1 + 246);
    // The file has a carriage return inside the name; values are kept as they are.
    assert_eq!(tree.root().value("PW"), Some("Honinbo\r Jowa"));
    assert_eq!(tree.root().value("RE"), Some("W+Resign"));
}

#[test]
fn writing_then_reading_gives_the_same_trees() {
    for name in ["ff4-example.sgf", "blood-vomiting-game.sgf"] {
        let trees = parse(&shared(name)).unwrap();
        let text = write(&trees);
        assert_eq!(parse(&text).unwrap(), trees, "{name}");
    }
    let tricky = parse("(;C[a\\\\b\\]c:]LB[aa:x\\]y](;B[aa])(;B[bb](;W[cc])(;W[dd])))").unwrap();
    assert_eq!(parse(&write(&tricky)).unwrap(), tricky);
}

#[test]
fn deep_nesting_neither_recurses_nor_overflows() {
    let depth = 200_000;
    let text = format!(
        "(;B[aa]{}{}",
        "(;W[bb]".repeat(depth),
        ")".repeat(depth + 1)
    );
    let trees = parse(&text).unwrap();
    assert_eq!(trees[0].main_line().len(), depth + 1);
    let written = write(&trees);
    assert_eq!(parse(&written).unwrap(), trees);
    // Variations at every level, each with a side branch.
    let branching = format!(
        "(;B[aa]{}{}",
        "(;B[cc])(;W[bb]".repeat(depth),
        ")".repeat(depth + 1)
    );
    let trees = parse(&branching).unwrap();
    assert_eq!(trees[0].leaves(), depth + 1);
    assert_eq!(parse(&write(&trees)).unwrap(), trees);
}

/// A random edit of a valid file: insert, delete or replace bytes.
fn mutate(source: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = source.to_vec();
    for &(at, op, byte) in edits {
        let at = at % (bytes.len() + 1);
        match op % 3 {
            0 => bytes.insert(at, byte),
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ if at < bytes.len() => bytes[at] = byte,
            _ => bytes.push(byte),
        }
    }
    bytes
}

fn round_trips_if_valid(bytes: &[u8]) {
    if let Ok(trees) = parse_bytes(bytes) {
        assert_eq!(parse(&write(&trees)).unwrap(), trees);
    }
}

proptest! {
    #![proptest_config(toroid_testkit::cases(300))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC*") {
        round_trips_if_valid(text.as_bytes());
    }

    #[test]
    fn sgf_like_text_never_panics(text in "[();\\[\\]\\\\A-Za-z: \n]{0,80}") {
        round_trips_if_valid(text.as_bytes());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        round_trips_if_valid(&bytes);
    }

    #[test]
    fn mutated_real_files_never_panic(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(b"()[];\\:aB \n".to_vec())), 1..8),
        which in 0..2usize,
    ) {
        let source = shared(["ff4-example.sgf", "blood-vomiting-game.sgf"][which]);
        round_trips_if_valid(&mutate(source.as_bytes(), &edits));
    }
}

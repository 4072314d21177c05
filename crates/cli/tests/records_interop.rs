//! toroid's records and GTP engine against third-party libraries that scripts/test installs
//! under target/: sgfmill (PyPI) replays every Go and capture-go record on the plane to the
//! position toroid reaches, and no record of a wrapped board says `GM[1]`, so a reader that
//! checks `GM` does not take it for plain Go; @sabaki/sgf (npm) parses every record of every
//! rule set to toroid's move list; @sabaki/gtp's `Controller` drives `toroid gtp` through a
//! game.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const TOROID: &str = env!("CARGO_BIN_EXE_toroid");
const REPLAY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/interop/sgfmill_replay.py"
);
const SABAKI: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/interop/sabaki.mjs");

/// The node_modules with @sabaki/sgf and @sabaki/gtp that scripts/test installs.
fn node_modules() -> String {
    std::env::var("TOROID_TEST_NODE_MODULES").expect(
        "TOROID_TEST_NODE_MODULES is not set: it names a node_modules with @sabaki/sgf and \
         @sabaki/gtp; scripts/test installs them into target/interop-node",
    )
}

/// Runs the Sabaki script in `mode` with `args`; its JSON lines.
fn sabaki(mode: &str, args: &[&std::ffi::OsStr]) -> Vec<Value> {
    let mut node = Command::new("node");
    node.arg(SABAKI).arg(mode).args(args);
    json_lines(node.env("NODE_PATH", node_modules()))
}

/// Runs `command`, which must succeed; what it printed.
fn run(command: &mut Command) -> Vec<u8> {
    let out = command.output().expect("the program runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `command`, which must succeed; the JSON object of each line it prints.
fn json_lines(command: &mut Command) -> Vec<Value> {
    String::from_utf8(run(command))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The Python with sgfmill that scripts/test prepares.
fn python() -> String {
    std::env::var("TOROID_TEST_PYTHON").expect(
        "TOROID_TEST_PYTHON is not set: it names a Python with sgfmill installed; scripts/test \
         makes one in target/interop-venv",
    )
}

/// Plays `games` random games of `game` with `params` and saves them in `dir`; their files.
fn records(dir: &Path, game: &str, params: &[&str], games: usize, seed: u32) -> Vec<PathBuf> {
    let dir = dir.join(format!("{game}-{}-{seed}", params.join("-")));
    let mut command = Command::new(TOROID);
    command.args(["match", game]);
    for param in params {
        command.args(["-p", param]);
    }
    run(command
        .args(["--black", "random", "--white", "random", "--json"])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .arg("--records")
        .arg(&dir));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), games);
    files
}

/// A record as toroid replays it (`toroid replay --json`).
fn toroid_view(record: &Path) -> Value {
    let replay = run(Command::new(TOROID)
        .args(["replay", "--json", "--record"])
        .arg(record));
    serde_json::from_slice(&replay).unwrap()
}

/// The final board of a record as toroid replays it.
fn toroid_board(record: &Path) -> Value {
    toroid_view(record)["board"].clone()
}

/// sgfmill's answer for each record, by file.
fn sgfmill(records: &[PathBuf]) -> Vec<Value> {
    json_lines(Command::new(python()).arg(REPLAY).args(records))
}

#[test]
fn sgfmill_replays_plane_go_and_capture_go_records_to_toroids_positions() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (size, seed) in [("size=5", 1), ("size=7", 2), ("size=9", 3), ("size=13", 4)] {
        files.extend(records(dir.path(), "go", &[size], 4, seed));
        files.extend(records(
            dir.path(),
            "capture-go",
            &[size, "target=8"],
            4,
            seed,
        ));
    }
    let answers = sgfmill(&files);
    assert_eq!(answers.len(), files.len());
    for (file, answer) in files.iter().zip(&answers) {
        assert_eq!(answer["gm"], 1, "{answer}");
        assert_eq!(
            answer["board"],
            toroid_board(file),
            "{}: {answer}",
            file.display()
        );
    }
}

#[test]
fn no_record_of_a_wrapped_board_claims_to_be_plain_go() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for topology in ["cylinder", "mobius", "torus", "klein", "projective"] {
        let surface = format!("topology={topology}");
        files.extend(records(dir.path(), "go", &["size=7", &surface], 2, 5));
        files.extend(records(
            dir.path(),
            "capture-go",
            &["size=7", &surface],
            2,
            6,
        ));
    }
    for other in ["torus", "hex-torus", "m-torus", "ctor"] {
        files.extend(records(dir.path(), other, &[], 1, 7));
    }
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(!text.contains("GM[1]"), "{}: {text}", file.display());
        assert!(text.contains("GM[100]TG["), "{}: {text}", file.display());
    }
    // A reader that checks GM sees 100. sgfmill ignores GM and replays the Go records as
    // plain Go: captures across the seams do not happen, so many end elsewhere or fail,
    // which is why GM[1] would be a lie.
    let answers = sgfmill(&files);
    let mut misread = 0;
    for (file, answer) in files.iter().zip(&answers) {
        assert_eq!(answer["gm"], 100, "{answer}");
        let go = file.to_string_lossy().contains("go-");
        if go && answer["board"] != toroid_board(file) {
            misread += 1;
        }
    }
    assert!(misread > 0, "plain Go rules read wrapped games differently");
}

#[test]
fn sabaki_sgf_parses_every_record_of_every_rule_set_to_toroids_moves() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (game, params) in [
        ("torus", vec!["size=7"]),
        ("hex-torus", vec!["width=6", "height=8"]),
        ("m-torus", vec![]),
        ("ctor", vec!["size=6"]),
        ("capture-go", vec!["size=9", "topology=klein"]),
        ("go", vec!["size=9"]),
        ("go", vec!["size=7", "topology=torus"]),
    ] {
        files.extend(records(dir.path(), game, &params, 2, 8));
    }
    let args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    let parsed = sabaki("parse", &args);
    assert_eq!(parsed.len(), files.len());
    for (file, parsed) in files.iter().zip(&parsed) {
        let view = toroid_view(file);
        // SGF writes a pass as an empty value.
        let moves: Vec<Value> = (view["moves"].as_array().unwrap().iter())
            .map(|m| match m.as_str() {
                Some("pass") => Value::from(""),
                _ => m.clone(),
            })
            .collect();
        assert_eq!(
            parsed["moves"],
            Value::from(moves),
            "{}: {parsed}",
            file.display()
        );
        let plane = view["surface"] == "plane";
        let go = ["go", "capture-go"].contains(&view["game"].as_str().unwrap());
        let gm = if go && plane { "1" } else { "100" };
        assert_eq!(parsed["gm"], gm, "{}", file.display());
    }
}

#[test]
fn sabaki_gtp_drives_toroid_gtp_through_a_game() {
    let report = sabaki("gtp", &[std::ffi::OsStr::new(TOROID)]);
    let report = &report[0];
    assert_eq!(report["name"], "toroid");
    assert!(report["moves"].as_u64().unwrap() >= 10, "{report}");
    assert!(
        report["board"].as_str().unwrap().contains("A B C D E F G"),
        "{report}"
    );
    assert!(!report["score"].as_str().unwrap().is_empty(), "{report}");
}

//! toroid's records read by a third-party Go library, sgfmill (from PyPI, installed by
//! scripts/test into a virtual environment under target/): every Go and capture-go record
//! on the plane replays to the position toroid reaches, and no record of a wrapped board
//! says `GM[1]`, so a reader that checks `GM` does not take it for plain Go.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const TOROID: &str = env!("CARGO_BIN_EXE_toroid");
const REPLAY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/interop/sgfmill_replay.py"
);

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
    let out = command
        .args(["--black", "random", "--white", "random", "--json"])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .arg("--records")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), games);
    files
}

/// The final board of a record as toroid replays it.
fn toroid_board(record: &Path) -> Value {
    let out = Command::new(TOROID)
        .args(["replay", "--json", "--record"])
        .arg(record)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let view: Value = serde_json::from_slice(&out.stdout).unwrap();
    view["board"].clone()
}

/// sgfmill's answer for each record, by file.
fn sgfmill(records: &[PathBuf]) -> Vec<Value> {
    let out = Command::new(python())
        .arg(REPLAY)
        .args(records)
        .output()
        .expect("the test's Python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
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

//! External GTP engines in `toroid match`, through the real binary: real games between
//! `toroid gtp` and GNU Go, and engines that crash, hang, lie or talk garbage, each losing
//! its games with the reason recorded while the match goes on and no process is left.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const TOROID: &str = env!("CARGO_BIN_EXE_toroid");

/// Debian installs GNU Go in /usr/games, which is often not on PATH.
fn path_with_games() -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    format!("{path}:/usr/games")
}

/// Runs `toroid match ... --json` and returns its report.
fn match_report(args: &[&str]) -> Value {
    let out = Command::new(TOROID)
        .arg("match")
        .args(args)
        .arg("--json")
        .env("PATH", path_with_games())
        .output()
        .expect("the toroid binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "toroid match {args:?} failed: {stderr}"
    );
    serde_json::from_slice(&out.stdout).expect("one JSON report")
}

/// How long the tests give an engine that hangs: the scripts sleep far longer, so it is
/// always reached, and no answer that does come is late even on a loaded machine (every
/// other engine gets the default minute).
const HANG_TIMEOUT: &str = "3";

/// Two games of 5×5 go between `engine` and `random`; `timeout` is `--engine-timeout`.
fn against_random(engine: &str, timeout: Option<&str>) -> Value {
    let mut args = vec![
        "go", "-p", "size=5", "--black", engine, "--white", "random", "--games", "2",
    ];
    if let Some(seconds) = timeout {
        args.extend(["--engine-timeout", seconds]);
    }
    match_report(&args)
}

fn faulty(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/faulty.sh");
    format!("sh {} {mode}", script.display())
}

/// The games of a report as (A's colour, winner, reason, detail).
fn games(report: &Value) -> Vec<(String, String, String, String)> {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let a_colour = if g["black"] == "A" { "black" } else { "white" };
            let text = |key: &str| g[key].as_str().unwrap().to_string();
            (
                a_colour.to_string(),
                text("winner"),
                text("reason"),
                text("detail"),
            )
        })
        .collect()
}

/// Processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<PathBuf> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| {
            let dir = entry.ok()?.path();
            let cmdline = std::fs::read(dir.join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(marker)
                .then_some(dir)
        })
        .collect()
}

#[test]
fn faulty_engines_lose_every_game_with_the_reason() {
    let cases = [
        ("crash", "crash", "the engine stopped (exit status: 3)"),
        ("hang", "timeout", "no answer to 'genmove"),
        ("illegal", "illegal-move", "played the illegal move 'ae'"),
        ("garbage", "malformed-answer", "\"I am not speaking GTP\""),
        ("not-a-move", "malformed-answer", "'Z99'"),
        ("wrong-colour", "wrong-colour", "but answered '"),
        ("refuse", "refused-command", "the engine refused 'play"),
        ("resign", "resignation", "resigned"),
    ];
    for (mode, code, words) in cases {
        let engine = faulty(mode);
        let timeout = (mode == "hang").then_some(HANG_TIMEOUT);
        let report = against_random(&engine, timeout);
        for (a_colour, winner, reason, detail) in games(&report) {
            assert_ne!(winner, a_colour, "{mode}: the engine must lose: {detail}");
            assert_ne!(winner, "draw", "{mode}: {detail}");
            assert_eq!(reason, code, "{mode}: {detail}");
            assert!(detail.contains(words), "{mode}: {detail}");
        }
        assert_eq!(report["summary"]["losses"], 2, "{mode}");
    }
}

#[test]
fn an_engine_and_everything_it_started_are_gone_after_a_timeout() {
    let marker = format!("toroid-engine-test-marker-{}", std::process::id());
    let engine = format!("{} {marker}", faulty("fork"));
    let report = against_random(&engine, Some(HANG_TIMEOUT));
    for (_, _, reason, detail) in games(&report) {
        assert_eq!(reason, "timeout", "{detail}");
    }
    assert_eq!(processes_with(&marker), Vec::<PathBuf>::new());
}

/// Runs a two-game match of `game` between `engine` and `random` that must be refused
/// before it starts, and returns its one line of standard error.
fn refused_match(game: &str, engine: &str) -> String {
    let out = Command::new(TOROID)
        .args(["match", game, "--black", engine, "--white", "random"])
        .args(["--games", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn an_engine_that_does_not_start_is_refused_before_any_game() {
    let stderr = refused_match("go", "no-such-engine --gtp");
    assert!(
        stderr.starts_with("toroid: 'no-such-engine --gtp' is not a house-bot level"),
        "{stderr}"
    );
}

#[test]
fn a_go_engine_cannot_be_given_another_rule_set() {
    let stderr = refused_match("hex-torus", &faulty("pass"));
    assert!(stderr.contains("does not list toroid-game"), "{stderr}");
}

#[test]
fn toroid_gtp_plays_gnu_go_to_the_end() {
    let ours = format!("{TOROID} gtp --level beginner --seed 5");
    let report = match_report(&[
        "go",
        "-p",
        "size=7",
        "--black",
        &ours,
        "--white",
        "gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead",
        "--games",
        "2",
    ]);
    for (_, winner, reason, detail) in games(&report) {
        assert!(
            ["two-passes", "max-moves"].contains(&reason.as_str()),
            "a real game ends by the rules: {detail}"
        );
        assert_ne!(winner, "", "{detail}");
    }
    assert_eq!(report["summary"]["games"], 2);
}

/// GNU Go without `--capture-all-dead` passes with dead stones on the board, which toroid's
/// count keeps; GNU Go as the referee counts those games as the players meant.
#[test]
fn a_referee_counts_go_games_with_its_final_score() {
    let referee = "gnugo --mode gtp --chinese-rules";
    let report = match_report(&[
        "go",
        "-p",
        "size=7",
        "--black",
        "beginner",
        "--white",
        "gnugo --mode gtp --level 1 --chinese-rules",
        "--games",
        "2",
        "--referee",
        referee,
    ]);
    for (_, winner, reason, detail) in games(&report) {
        assert_eq!(reason, "score", "{detail}");
        let counted = format!("(counted by '{referee}' with final_score; toroid's own count: ");
        assert!(detail.contains(&counted), "{detail}");
        assert!(
            detail.starts_with(&format!("{winner} wins by ")),
            "{detail}"
        );
    }
    // Only Go is counted, and only by an engine that runs.
    for (game, engine, message) in [
        ("hex-torus", referee, "--referee counts games of go"),
        (
            "go",
            "no-such-referee",
            "the referee 'no-such-referee' cannot count",
        ),
    ] {
        let out = Command::new(TOROID)
            .args(["match", game, "--black", "random", "--white", "random"])
            .args(["--games", "2", "--referee", engine])
            .env("PATH", path_with_games())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
}

#[test]
fn toroid_gtp_plays_every_rule_set_through_the_extension() {
    let ours = format!("{TOROID} gtp --level greedy --seed 2");
    for game in ["torus", "hex-torus", "m-torus", "ctor", "capture-go", "go"] {
        let report = match_report(&[game, "--black", &ours, "--white", "random", "--games", "2"]);
        for (_, _, reason, detail) in games(&report) {
            let faults = [
                "crash",
                "timeout",
                "illegal-move",
                "malformed-answer",
                "refused-command",
                "wrong-colour",
            ];
            assert!(!faults.contains(&reason.as_str()), "{game}: {detail}");
        }
    }
}

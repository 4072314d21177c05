//! `toroid match` through the real binary: totals, alternating colours, JSON, records that
//! replay to the same result, reproducibility, and refusals.

use std::process::{Command, Output};

use serde_json::Value;

fn toroid(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(args)
        .output()
        .expect("the toroid binary runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = toroid(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "toroid {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

fn match_json(game: &[&str], extra: &[&str]) -> Value {
    let mut args = vec!["match"];
    args.extend(game);
    args.extend(["--black", "random", "--white", "greedy", "--games", "6"]);
    args.extend(extra);
    args.push("--json");
    let text = stdout_of(&args);
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).expect("valid JSON")
}

fn n(value: &Value) -> u64 {
    value.as_u64().expect("a count")
}

const HEX: [&str; 1] = ["hex-torus"];
const GO5: [&str; 3] = ["go", "-p", "size=5"];

#[test]
fn every_game_is_counted_and_colours_alternate() {
    for game in [&HEX[..], &GO5[..]] {
        let report = match_json(game, &["--parallel", "2"]);
        let summary = &report["summary"];
        assert_eq!(n(&summary["games"]), 6);
        assert_eq!(
            n(&summary["wins"]) + n(&summary["losses"]) + n(&summary["draws"]),
            6,
            "{summary}"
        );
        assert_eq!(
            n(&summary["black_wins"]) + n(&summary["white_wins"]) + n(&summary["draws"]),
            6
        );
        assert_eq!(report["players"]["A"], "random");
        assert_eq!(report["players"]["B"], "greedy");
        let games = report["games"].as_array().unwrap();
        assert_eq!(games.len(), 6);
        let mut a_wins = 0;
        for (i, g) in games.iter().enumerate() {
            assert_eq!(n(&g["index"]), i as u64);
            let (black, white) = if i % 2 == 0 { ("A", "B") } else { ("B", "A") };
            assert_eq!(
                (g["black"].as_str(), g["white"].as_str()),
                (Some(black), Some(white))
            );
            assert!(n(&g["plies"]) > 0);
            match g["winner"].as_str().unwrap() {
                "black" if black == "A" => a_wins += 1,
                "white" if white == "A" => a_wins += 1,
                _ => {}
            }
        }
        assert_eq!(a_wins, n(&summary["wins"]));
        let score = summary["score"].as_f64().unwrap();
        let expected = (n(&summary["wins"]) as f64 + n(&summary["draws"]) as f64 / 2.0) / 6.0;
        assert!((score - expected).abs() < 1e-9);
    }
}

#[test]
fn the_same_seed_gives_the_same_games_whatever_the_parallelism() {
    let one = match_json(&GO5, &["--seed", "42", "--parallel", "1"]);
    let two = match_json(&GO5, &["--seed", "42", "--parallel", "2"]);
    assert_eq!(one, two);
    let other = match_json(&GO5, &["--seed", "43", "--parallel", "2"]);
    assert_ne!(one["games"], other["games"]);
}

#[test]
fn records_hold_each_game_and_replay_to_its_result() {
    for (game, name, format) in [
        (&HEX[..], "records-hex", "sgf"),
        (&GO5[..], "records-go", "json"),
    ] {
        let temp = tempfile::tempdir().unwrap();
        // A folder that does not exist yet: `--records` creates it.
        let dir = temp.path().join(name);
        let dir_text = dir.to_str().unwrap();
        let report = match_json(game, &["--records", dir_text, "--record-format", format]);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        let expected: Vec<String> = (1..=6).map(|i| format!("game-{i}.{format}")).collect();
        assert_eq!(files, expected);
        for (file, summary) in files.iter().zip(report["games"].as_array().unwrap()) {
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            let (black, white) = if summary["black"] == "A" {
                ("random", "greedy")
            } else {
                ("greedy", "random")
            };
            if format == "sgf" {
                assert!(text.contains(&format!("PB[{black}]PW[{white}]")), "{text}");
            } else {
                let record: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(record["black"], black, "{file}");
                assert_eq!(record["white"], white, "{file}");
                assert_eq!(record["result"]["winner"], summary["winner"], "{file}");
            }
            let view: Value = serde_json::from_str(&stdout_of(&[
                "replay",
                "--record",
                path.to_str().unwrap(),
                "--json",
            ]))
            .unwrap();
            assert_eq!(view["game"], game[0], "{file}");
            assert_eq!(view["over"], true, "{file}");
            assert_eq!(view["winner"], summary["winner"], "{file}");
            assert_eq!(view["reason"], summary["reason"], "{file}");
            assert_eq!(
                view["moves"].as_array().unwrap().len() as u64,
                n(&summary["plies"])
            );
        }
    }
}

#[test]
fn the_table_shows_both_sides_and_the_colour_results() {
    let table = stdout_of(&[
        "match", "go", "-p", "size=5", "--black", "random", "--white", "random", "--games", "4",
        "--seed", "7",
    ]);
    assert!(
        table.starts_with("go (size=5, topology=plane, komi=7.5, scoring=area, ko=simple, max_moves=75, scoring_phase=none): 4 games,"),
        "{table}"
    );
    assert!(
        table.contains("     wins  losses  draws   score\nA "),
        "{table}"
    );
    assert!(table.contains("\nB "), "{table}");
    assert!(table.contains("\nblack won "), "{table}");
}

#[test]
fn bad_input_is_refused_with_one_line() {
    let base = ["--black", "random", "--white", "random", "--games", "2"];
    // hex-torus's house network, offered for a board of another lattice.
    let hex_network = format!(
        "zero:{}/../search/data/networks/hex-torus.safetensors",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: [(&[&str], &str); 9] = [
        (
            &["match", "torus", "--black", &hex_network],
            "it was trained on another lattice",
        ),
        (
            &[
                "match",
                "go",
                "--black",
                "no-such-engine",
                "--white",
                "random",
                "--games",
                "2",
            ],
            "'no-such-engine' is not a house-bot level",
        ),
        (
            &[
                "match", "go", "--black", "random", "--white", "Max", "--games", "2",
            ],
            "'Max' is not a house-bot level (random, greedy, beginner, casual, strong, max, zero)",
        ),
        (&["match", "chess"], "unknown game 'chess'"),
        (
            &["match", "go", "-p", "size=99"],
            "bad value '99' for parameter 'size'",
        ),
        (
            &["match", "go", "--games", "0"],
            "--games must be at least 1",
        ),
        (
            &["match", "go", "--parallel", "0"],
            "--parallel must be at least 1",
        ),
        (
            &["match", "go", "--move-time", "0"],
            "--move-time must be a positive number of seconds",
        ),
        (
            &["match", "go", "--record-format", "pdf"],
            "invalid value 'pdf' for '--record-format",
        ),
    ];
    for (args, message) in cases {
        let mut args = args.to_vec();
        for flag in base.chunks(2) {
            if !args.contains(&flag[0]) {
                args.extend(flag);
            }
        }
        let out = toroid(&args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("toroid: "), "{stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Checks the standings' ratings of a `toroid tournament --json` report against its games:
/// each player's rating starts at the default and moves after each of its games, in order.
fn assert_ratings(report: &Value) {
    use toroid_server::rating::Rating;
    let mut ratings: std::collections::HashMap<&str, Rating> = Default::default();
    for game in (report["rounds"].as_array().unwrap().iter())
        .flat_map(|round| round["games"].as_array().unwrap())
    {
        let (white, black) = (
            game["white"].as_str().unwrap(),
            game["black"].as_str().unwrap(),
        );
        let white_score = match game["winner"].as_str().unwrap() {
            "white" => 1.0,
            "black" => 0.0,
            _ => 0.5,
        };
        let (w, b) = (
            *ratings.entry(white).or_default(),
            *ratings.entry(black).or_default(),
        );
        ratings.insert(white, w.after(&[(b, white_score)]));
        ratings.insert(black, b.after(&[(w, 1.0 - white_score)]));
    }
    for standing in report["standings"].as_array().unwrap() {
        let rating = ratings[standing["name"].as_str().unwrap()];
        let tenth = |x: f64| (x * 10.0).round() / 10.0;
        assert_eq!(
            (standing["rating"].as_f64(), standing["deviation"].as_f64()),
            (Some(tenth(rating.rating)), Some(tenth(rating.deviation))),
            "{standing}"
        );
    }
}

/// `toroid tournament` shares the match runner: a round robin of four house bots plays
/// every pair once, and a Swiss of eight plays three rounds in which everyone plays each
/// round and nobody meets twice; standings are sorted by score and carry ratings; a Swiss
/// with more rounds than it can pair is refused.
#[test]
fn tournaments_round_robin_and_swiss() {
    let json = |args: &[&str]| -> Value {
        let mut all = vec!["tournament", "torus", "-p", "size=5"];
        all.extend(args);
        all.push("--json");
        serde_json::from_str(&stdout_of(&all)).expect("valid JSON")
    };
    let round_robin = json(&[
        "--players",
        "random,greedy,beginner,casual",
        "--format",
        "round-robin",
    ]);
    let rounds = round_robin["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    let mut pairs: Vec<(String, String)> = rounds
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .map(|g| {
            let mut pair = [
                g["white"].as_str().unwrap().to_string(),
                g["black"].as_str().unwrap().to_string(),
            ];
            pair.sort();
            (pair[0].clone(), pair[1].clone())
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "every pair once: {pairs:?}");
    let standings = round_robin["standings"].as_array().unwrap();
    let scores: Vec<f64> = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores.iter().sum::<f64>(), 6.0);
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_ratings(&round_robin);

    let players = "random,greedy,beginner,casual,random,greedy,beginner,casual";
    let swiss = json(&["--players", players, "--format", "swiss", "--rounds", "3"]);
    assert_eq!(swiss["rounds"].as_array().unwrap().len(), 3);
    assert_ratings(&swiss);
    let mut met = std::collections::HashSet::new();
    for round in swiss["rounds"].as_array().unwrap() {
        let games = round["games"].as_array().unwrap();
        assert_eq!(games.len(), 4);
        let mut seen = std::collections::HashSet::new();
        for game in games {
            let (white, black) = (
                game["white"].as_str().unwrap(),
                game["black"].as_str().unwrap(),
            );
            assert!(
                seen.insert(white) && seen.insert(black),
                "one game each a round"
            );
            let mut pair = [white, black];
            pair.sort();
            assert!(met.insert(pair), "{pair:?} met twice");
        }
    }
    let refused = toroid(&[
        "tournament",
        "torus",
        "--players",
        "random,greedy,casual,max",
        "--format",
        "swiss",
        "--rounds",
        "3",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("at most 2 rounds"));
    // The text form: a crosstable with a line per player.
    let table = stdout_of(&[
        "tournament",
        "torus",
        "-p",
        "size=5",
        "--players",
        "random,greedy",
        "--format",
        "round-robin",
    ]);
    assert!(table.lines().next().unwrap().contains("R1"), "{table}");
    assert_eq!(table.lines().count(), 3, "{table}");
}

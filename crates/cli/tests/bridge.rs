//! `toroid bridge` against a real server: GNU Go and both example bots (Python and Rust)
//! play whole games as registered bots through it, a challenge its configuration does not
//! allow is declined with the reason, and no engine process is left afterwards.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{register, Client, Store};
use serde_json::{json, Value};
use toroid_server::Limits;

#[path = "../../server/tests/common/mod.rs"]
mod common;

const TOROID: &str = env!("CARGO_BIN_EXE_toroid");
const PYTHON_BOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/python/toroid_bot.py"
);
/// How long the bridges have for their games.
const GAMES_WAIT: Duration = Duration::from_secs(300);

/// The Rust example bot, which `cargo test` builds beside the test binaries.
fn rust_bot(seed: u32) -> String {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("examples")
        .join(format!("rust_bot{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: `cargo test` builds it",
        path.display()
    );
    format!("'{}' --seed {seed}", path.display())
}

fn python_bot() -> String {
    format!("python3 '{PYTHON_BOT}' --toroid '{TOROID}' --seed 3")
}

/// `toroid bridge` for bot `token` with `engine` and more arguments (`--quit-after` among
/// them, or it runs for ever), run to its end; every process it starts carries `marker` in
/// its environment.
fn bridge(
    base: &str,
    token: &str,
    engine: &str,
    extra: &[&str],
    marker: &str,
) -> tokio::task::JoinHandle<Output> {
    let mut command = Command::new(TOROID);
    command
        .args(["bridge", "--server", base, "--engine", engine])
        .args(extra)
        .env("TOROID_BOT_TOKEN", token)
        // Debian installs GNU Go in /usr/games.
        .env(
            "PATH",
            format!("{}:/usr/games", std::env::var("PATH").unwrap_or_default()),
        )
        .env("TOROID_BRIDGE_TEST", marker)
        .stdin(Stdio::null());
    tokio::task::spawn_blocking(move || command.output().expect("toroid runs"))
}

/// The processes still running whose environment holds `marker`.
fn left_behind(marker: &str) -> Vec<String> {
    let needle = format!("TOROID_BRIDGE_TEST={marker}");
    let mut left = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let found = environ.split(|b| *b == 0).any(|v| v == needle.as_bytes());
        if found {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            left.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    left
}

/// Waits for the bridges, which must all end cleanly after their games.
async fn all_end(bridges: Vec<tokio::task::JoinHandle<Output>>) {
    let outputs = tokio::time::timeout(GAMES_WAIT, futures_util::future::join_all(bridges))
        .await
        .expect("the bridges end within the time");
    for output in outputs {
        let output = output.unwrap();
        assert!(
            output.status.success(),
            "the bridge failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The finished games of bot `name`, newest first.
async fn finished_games(base: &str, name: &str) -> Vec<Value> {
    let path = format!("/api/games?player={name}&status=finished");
    let games = Client::anonymous(base).get(&path).await.body;
    games.as_array().cloned().unwrap_or_default()
}

/// The one finished game of bot `name`.
async fn finished_game(base: &str, name: &str) -> Value {
    let games = finished_games(base, name).await;
    assert_eq!(games.len(), 1, "{games:?}");
    games[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gnu_go_plays_the_rust_example_through_two_bridges() {
    let (_server, base, _dir) = common::server_with(Store::Sqlite, Limits::default()).await;
    let owner = Client::person(&base, "owner").await;
    let gnugo = register(&owner, "gnugo").await;
    let rusty = register(&owner, "rusty").await;
    let marker = "gnugo-and-rust";
    let engine = "gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead";
    let go_bridge = bridge(
        &base,
        &gnugo,
        engine,
        &["--seek", "go", "--max-side", "9", "--quit-after", "1"],
        marker,
    );

    // A challenge the bridge's configuration does not allow is declined, with the reason.
    let declined = loop {
        let challenge = json!({"game": "hex-torus", "opponent": {"kind": "bot", "name": "gnugo"}});
        let answer = owner.post("/api/games", challenge).await;
        if answer.status != 404 {
            break answer;
        }
        // Not connected yet.
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(declined.status, 409);
    let body = declined.body;
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("plain board"),
        "{body}"
    );

    let rust_bridge = bridge(
        &base,
        &rusty,
        &rust_bot(5),
        &["--seek", "go", "--quit-after", "1"],
        marker,
    );
    all_end(vec![go_bridge, rust_bridge]).await;
    let game = finished_game(&base, "gnugo").await;
    assert_eq!(game["game"], "go");
    assert!(game["plies"].as_i64().unwrap() > 2, "{game}");
    let reason = game["result"]["reason"].as_str().unwrap();
    assert!(
        ["two-passes", "move-limit", "resignation"].contains(&reason),
        "{game}"
    );
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

/// A bridge's seek keeps to its clock filters: with `--clocked-only --min-initial 60s
/// --max-initial 5m` it asks for a clock of one to five minutes, so a seek without a clock
/// does not pair with it and one of two minutes does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bridges_seek_keeps_to_its_clock_filters() {
    let (_server, base, _dir) = common::server_with(Store::Sqlite, Limits::default()).await;
    let owner = Client::person(&base, "owner").await;
    let snake = register(&owner, "snake").await;
    let marker = "clock-filters";
    let filters = [
        "--seek",
        "torus",
        "--clocked-only",
        "--min-initial",
        "60s",
        "--max-initial",
        "5m",
        "--quit-after",
        "1",
    ];
    let bridged = bridge(&base, &snake, &python_bot(), &filters, marker);
    let seek = common::eventually("the bridge seeks", || async {
        let seeks = owner.get("/api/bots/seeks").await.success();
        seeks.as_array().unwrap().first().cloned()
    })
    .await;
    assert_eq!(
        seek["clock"],
        json!({"min_initial_s": 60.0, "max_initial_s": 300.0}),
        "{seek}"
    );
    let other = register(&owner, "other").await;
    let mut other = common::Bot::connect(&base, &other, "other").await;
    other
        .send(json!({"type": "seek", "game": "torus", "clock": null}))
        .await;
    other.expect("seeking").await;
    let seeks = owner.get("/api/bots/seeks").await.success();
    assert_eq!(
        seeks.as_array().unwrap().len(),
        2,
        "paired without a clock: {seeks}"
    );
    other
        .send(json!({"type": "seek", "game": "torus", "clock": {"initial_s": 120}}))
        .await;
    other.expect("seeking").await;
    let start = other.next_of("start").await;
    assert_eq!(start["clock"]["initial_s"], 120.0, "{start}");
    let game_id = start["game_id"].clone();
    other
        .send(json!({"type": "resign", "game_id": game_id}))
        .await;
    other.next_of("game-over").await;
    all_end(vec![bridged]).await;
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_and_rust_examples_play_hex_torus_through_two_bridges() {
    let (_server, base, _dir) = common::server_with(Store::Sqlite, Limits::default()).await;
    let owner = Client::person(&base, "owner").await;
    let snake = register(&owner, "snake").await;
    let crab = register(&owner, "crab").await;
    let marker = "python-and-rust";
    let seek = ["--seek", "hex-torus", "--quit-after", "1"];
    let python = bridge(&base, &snake, &python_bot(), &seek, marker);
    let rust = bridge(&base, &crab, &rust_bot(7), &seek, marker);
    all_end(vec![python, rust]).await;
    let game = finished_game(&base, "snake").await;
    assert_eq!(game["game"], "hex-torus");
    let reason = game["result"]["reason"].as_str().unwrap();
    let rules = ["ring", "bracelet", "right-helix", "left-helix"];
    assert!(rules.contains(&reason), "a game ended by the rules: {game}");
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

/// The end-to-end tournament: eight players (five house levels, the Python and Rust example
/// bots through `toroid bridge`, and an account) play a three-round Swiss on the server to
/// the end; the rounds, the crosstable's results and the standings are checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_players_play_a_swiss_tournament_through_bridges() {
    let (_server, base, _dir) = common::server_with(
        Store::Sqlite,
        Limits {
            house_move: Duration::from_millis(30),
            ..Limits::default()
        },
    )
    .await;
    let alice = Client::account(&base, "Alice").await;
    let request = json!({"name": "Bridged Swiss", "game": "hex-torus", "format": "swiss",
        "rounds": 3, "clock": {"initial_s": 300},
        "house": ["random", "greedy", "beginner", "casual", "strong"]});
    let created = alice.post("/api/tournaments", request).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        alice
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await
            .status,
        200
    );
    let marker = "tournament";
    let mut bridges = Vec::new();
    for (name, engine) in [("snake", python_bot()), ("crab", rust_bot(9))] {
        let token = register(&alice, name).await;
        let extra = ["--tournament", id.as_str(), "--quit-after", "3"];
        bridges.push(bridge(&base, &token, &engine, &extra, marker));
    }
    // Started once all eight are in.
    let deadline = tokio::time::Instant::now() + GAMES_WAIT;
    while alice.get(&format!("/api/tournaments/{id}")).await.body["players"]
        .as_array()
        .unwrap()
        .len()
        < 8
    {
        assert!(tokio::time::Instant::now() < deadline, "both bridges join");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let started = alice
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(started.body["stage"], "running", "{:?}", started.body);
    // Alice plays the first legal move in each of her games.
    let view = alice.play_tournament(&id, GAMES_WAIT).await;
    all_end(bridges).await;
    let rounds = view["played"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    let mut met = std::collections::HashSet::new();
    let mut points: std::collections::HashMap<String, f64> = Default::default();
    for round in rounds {
        assert_eq!(
            round["games"].as_array().unwrap().len(),
            4,
            "eight players, four games, no bye"
        );
        for game in round["games"].as_array().unwrap() {
            let (white, black) = (
                game["white"].as_str().unwrap(),
                game["black"].as_str().unwrap(),
            );
            let mut pair = [white, black];
            pair.sort();
            assert!(met.insert(pair), "{pair:?} met twice");
            let (w, b) = match game["result"].as_str().unwrap() {
                "white" => (1.0, 0.0),
                "black" => (0.0, 1.0),
                _ => (0.5, 0.5),
            };
            *points.entry(white.to_string()).or_default() += w;
            *points.entry(black.to_string()).or_default() += b;
        }
    }
    // The standings are the crosstable's points, best first.
    let standings = view["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 8);
    for standing in standings {
        let name = standing["player"]["name"].as_str().unwrap();
        assert_eq!(
            standing["score"].as_f64(),
            points.get(name).copied(),
            "{name}"
        );
    }
    let scores: Vec<f64> = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

/// The example bots take part in the arena through `toroid bridge --arena`: they are paired
/// with each other, then (never twice in a row) each with a house bot, and every game is
/// rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_bots_play_in_the_arena_through_bridges() {
    let (_server, base, _dir) = common::server_with(
        Store::Sqlite,
        Limits {
            arena_house_after: Duration::from_millis(500),
            house_move: Duration::from_millis(30),
            ..Limits::default()
        },
    )
    .await;
    let owner = Client::person(&base, "owner").await;
    let marker = "arena";
    let mut bridges = Vec::new();
    for (name, engine) in [("snake", python_bot()), ("crab", rust_bot(3))] {
        let token = register(&owner, name).await;
        let extra = ["--arena", "hex-torus", "--quit-after", "2"];
        bridges.push(bridge(&base, &token, &engine, &extra, marker));
    }
    all_end(bridges).await;
    for name in ["snake", "crab"] {
        let games = finished_games(&base, name).await;
        assert!(games.len() >= 2, "{name}: {games:?}");
        assert!(games.iter().all(|g| g["rated"] == true), "{games:?}");
        let kinds: Vec<&Value> = games
            .iter()
            .flat_map(|g| {
                [
                    &g["players"]["black"]["kind"],
                    &g["players"]["white"]["kind"],
                ]
            })
            .collect();
        assert!(
            kinds.contains(&&json!("house")),
            "{name} met a house bot: {games:?}"
        );
    }
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

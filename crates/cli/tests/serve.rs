//! `toroid serve` as a process: it starts on an empty data directory, and after SIGKILL and a
//! restart on the same directory every acknowledged move is there and every game goes on.
//! The web page in a real browser: crates/server/tests/browser/run.mjs drives Debian's
//! chromium with playwright-core (both installed by `scripts/test`) through the page of a
//! fresh server, saving a screenshot of every rule set's board in a temporary folder (each
//! checked to be written by this run).

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod process;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{challenge_accepted, invite_code, register, to_move, Bot, Client, WAIT};
use process::Serve;
use serde_json::{json, Value};

fn moves_of(state: &Value) -> Vec<String> {
    serde_json::from_value(state["position"]["moves"].clone()).unwrap()
}

fn first_legal(state: &Value) -> String {
    state["position"]["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn bad_flags_are_refused_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["serve", "--port", "http"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["serve", "--port", "0", "--database", "mysql://nowhere"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unsupported database URL"), "{stderr}");
    // A node of a cluster needs PostgreSQL: not the SQLite file, given or by default.
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite://{}/x.sqlite3?mode=rwc", dir.path().display());
    for args in [
        vec!["--redis", "redis://127.0.0.1:1"],
        vec!["--database", &sqlite, "--redis", "redis://127.0.0.1:1"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_toroid"))
            .args(["serve", "--port", "0"])
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--database") && stderr.lines().count() <= 4,
            "{args:?}: {stderr}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_move_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let serve = Serve::start(&data);
    let alice = Client::person(&serve.base, "alice").await;
    let bob = Client::person(&serve.base, "bob").await;

    // A game against a house bot, played over the WebSocket.
    let request = json!({"game": "go", "params": {"size": 7}, "opponent":
        {"kind": "house", "level": "random"}, "color": "black",
        "clock": {"initial_s": 300, "increment_s": 2}});
    let house = alice.create(request).await;
    let house_id = house["id"].as_str().unwrap().to_string();
    let (mut socket, mut state) = alice.watch(&house_id).await;
    let mut answered = None;
    while moves_of(&state).len() < 6 {
        let ply = state["position"]["ply"].as_u64().unwrap();
        if to_move(&state, "black") && answered != Some(ply) {
            answered = Some(ply);
            socket
                .send(json!({"type": "move", "move": first_legal(&state), "ply": ply}))
                .await;
        }
        state = socket.state().await;
    }
    // Every state is sent after its change is stored.
    let house_seen = moves_of(&state);

    // An invite game in which moves are still flowing when the server dies.
    let created = alice
        .create(
            json!({"game": "go", "params": {"size": 19}, "opponent": {"kind": "invite"},
                       "color": "black"}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let code = invite_code(&created);
    bob.post("/api/join", json!({"code": code})).await.success();
    // The player reports every acknowledged move list; it stops when the server is gone and
    // fails on any answer other than a move, or a pause asked for by the rate limit.
    let (acknowledged, mut seen) = tokio::sync::watch::channel(Vec::<String>::new());
    let player = {
        let (alice, bob, id) = (alice.clone(), bob.clone(), id.clone());
        tokio::spawn(async move {
            let mut state = alice.get(&format!("/api/games/{id}")).await.success();
            loop {
                let mover = if to_move(&state, "black") {
                    &alice
                } else {
                    &bob
                };
                let ply = state["position"]["ply"].as_u64().unwrap();
                let Some(answer) = mover
                    .try_post(
                        &format!("/api/games/{id}/moves"),
                        json!({"move": first_legal(&state), "ply": ply}),
                    )
                    .await
                else {
                    return Ok(()); // killed
                };
                match answer.status {
                    200 => {
                        state = answer.body;
                        acknowledged.send_replace(moves_of(&state));
                    }
                    // The server's default rate limit paces this loop after its burst.
                    429 => tokio::time::sleep(Duration::from_millis(20)).await,
                    status => return Err(format!("move at ply {ply}: {status} {:?}", answer.body)),
                }
            }
        })
    };
    let five = tokio::time::timeout(WAIT, seen.wait_for(|moves| moves.len() >= 5))
        .await
        .expect("five moves are acknowledged in time")
        .is_ok();
    if !five {
        panic!("the player stopped before five moves: {:?}", player.await);
    }
    serve.kill();
    tokio::time::timeout(WAIT, player)
        .await
        .expect("the player stops once the server is gone")
        .expect("the player does not panic")
        .expect("every answer before the kill is a move or a pause");
    let acknowledged = seen.borrow().clone();
    assert!(
        acknowledged.len() >= 5,
        "moves were played: {acknowledged:?}"
    );

    let serve = Serve::start(&data);
    let alice = alice.at(&serve.base);
    let bob = bob.at(&serve.base);
    let after = alice.get(&format!("/api/games/{id}")).await.success();
    let stored = moves_of(&after);
    // Every acknowledged move is there; at most the one in flight was stored unacknowledged.
    assert_eq!(stored[..acknowledged.len()], acknowledged[..]);
    assert!(
        stored.len() <= acknowledged.len() + 1,
        "{stored:?} {acknowledged:?}"
    );
    eprintln!(
        "{} moves acknowledged before SIGKILL, {} stored",
        acknowledged.len(),
        stored.len()
    );
    let mover = if to_move(&after, "black") {
        &alice
    } else {
        &bob
    };
    let next = mover
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": first_legal(&after), "ply": stored.len()}),
        )
        .await;
    assert_eq!(next.status, 200, "{:?}", next.body);

    // The house game: its moves are there, its clocks resumed, and the bot answers again.
    let (mut socket, state) = alice.watch(&house_id).await;
    assert_eq!(moves_of(&state)[..house_seen.len()], house_seen[..]);
    assert_eq!(state["status"], "live");
    assert!(state["clocks"]["black_ms"].as_i64().unwrap() > 290_000);
    let mut state = state;
    while !to_move(&state, "black") {
        state = socket.state().await;
    }
    let ply = state["position"]["ply"].as_u64().unwrap();
    socket
        .send(json!({"type": "move", "move": first_legal(&state), "ply": ply}))
        .await;
    let answered = socket
        .state_until(|s| s["position"]["ply"].as_u64() >= Some(ply + 2))
        .await;
    assert_eq!(answered["status"], "live");
    serve.kill();
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn browser_tests() -> PathBuf {
    workspace().join("crates/server/tests/browser")
}

/// Fails with what to do when the browser or the npm packages are missing: `scripts/test`
/// installs them, a bare `cargo test` does not.
fn require_tools() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&chromium).exists(),
        "no chromium at {chromium}: run scripts/test, which installs Debian's chromium"
    );
    assert!(
        browser_tests().join("node_modules/playwright-core").exists(),
        "playwright-core is not installed: run scripts/test (npm ci in crates/server/tests/browser)"
    );
}

/// One browser at a time: two chromium tours side by side on a small CI machine have
/// crashed a renderer ("Target crashed") for want of memory.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn node(args: &[&str]) {
    let _one = ONE_BROWSER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let status = Command::new("node")
        .args(args)
        .current_dir(workspace())
        .status()
        .expect("node runs (scripts/test installs it)");
    assert!(status.success(), "node {} failed: {status}", args.join(" "));
}

/// The screenshots run.mjs must write on every run.
const SCREENSHOTS: [&str; 50] = [
    "board-torus.png",
    "board-hex-torus.png",
    "board-m-torus.png",
    "board-ctor.png",
    "board-capture-go.png",
    "board-go.png",
    "board-go-mobius.png",
    "board-go-klein.png",
    "board-go-projective.png",
    "analysis-hex-torus.png",
    "finished-go.png",
    "finished-hex-torus.png",
    "finished-m-torus.png",
    "swap-hex-torus.png",
    "finished-go-territory.png",
    "finished-capture-go.png",
    "game-people-takeback.png",
    "game-dead-stones.png",
    "lobby-challenge.png",
    "narrow-hex-torus.png",
    "sign-up.png",
    "leaderboard-capture-go.png",
    "player-page.png",
    "tournament-finished.png",
    "analysis-review.png",
    "puzzle-solved.png",
    "game-torus-dark.png",
    "game-hex-torus-dark.png",
    "game-m-torus-dark.png",
    "game-ctor-dark.png",
    "game-capture-go-dark.png",
    "game-go-dark.png",
    "rules-torus.png",
    "rules-hex-torus.png",
    "rules-m-torus.png",
    "rules-ctor.png",
    "rules-capture-go.png",
    "rules-go.png",
    "phone-torus.png",
    "phone-torus-dark.png",
    "phone-hex-torus.png",
    "phone-hex-torus-dark.png",
    "phone-m-torus.png",
    "phone-m-torus-dark.png",
    "phone-ctor.png",
    "phone-ctor-dark.png",
    "phone-capture-go.png",
    "phone-capture-go-dark.png",
    "phone-go.png",
    "phone-go-dark.png",
];

#[test]
fn the_page_plays_spectates_replays_and_shows_every_board_in_chromium() {
    require_tools();
    let dir = tempfile::tempdir().unwrap();
    // Short pings and grace: the tour claims a game whose opponent closed their page.
    let serve = Serve::start_with(
        &dir.path().join("data"),
        &["--ping-interval", "2s", "--leave-grace", "5s"],
    );
    let out = dir.path().join("screenshots");
    let started = std::time::SystemTime::now();
    // The moderator of the tour's moderation steps, made as docs/operations.md says.
    let made = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["admin", "--data"])
        .arg(dir.path().join("data"))
        .args(["create-admin", "mona"])
        .output()
        .expect("toroid admin runs");
    let said = String::from_utf8_lossy(&made.stdout);
    assert!(made.status.success(), "create-admin: {said}");
    let moderator = format!("mona:{}", said.trim().rsplit(' ').next().unwrap());
    node(&[
        "crates/server/tests/browser/run.mjs",
        "--base",
        &serve.base,
        "--out",
        out.to_str().unwrap(),
        "--moderator",
        &moderator,
    ]);
    for name in SCREENSHOTS {
        let shot = out.join(name);
        let bytes = std::fs::read(&shot).unwrap_or_else(|_| panic!("no screenshot {name}"));
        assert!(bytes.starts_with(b"\x89PNG"), "{name} is not a PNG");
        let written = std::fs::metadata(&shot).unwrap().modified().unwrap();
        assert!(written >= started, "{name} is older than this run");
    }
}

/// `TOROID_TLS=1 scripts/cluster 3 0` (PostgreSQL, Redis, three nodes and nginx in front,
/// running deploy/nginx/toroid.conf over HTTPS with a self-signed certificate): in chromium,
/// through nginx, a person signs in (the session cookie is Secure) and plays Go against a
/// house bot to its end over the WebSocket while a spectator watches, each request going to
/// whichever node nginx picks; each node's access log shows that it served some of the
/// browser's requests.
#[test]
fn the_page_plays_through_nginx_in_front_of_three_nodes() {
    use std::io::{BufRead, BufReader};
    require_tools();
    // Port 0: the script picks the balancer's port itself, below the ephemeral range, where
    // other tests' connections cannot take it between the choice and nginx's bind.
    let mut cluster = Command::new(workspace().join("scripts/cluster"))
        .args(["3", "0"])
        .env("TOROID_BIN", env!("CARGO_BIN_EXE_toroid"))
        .env("TOROID_TLS", "1")
        .current_dir(workspace())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("scripts/cluster starts");
    // Stopped (and its data removed) however the test ends.
    struct Stop(std::process::Child);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = Command::new("kill")
                .args(["-TERM", &self.0.id().to_string()])
                .status();
            let _ = self.0.wait();
        }
    }
    let stdout = cluster.stdout.take().unwrap();
    let cluster = Stop(cluster);
    // "cluster: ready on https://127.0.0.1:PORT/ (3 nodes, ..., logs in DIR)"
    let ready = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.starts_with("cluster: ready on "))
        .expect("scripts/cluster did not get ready");
    let base = ready["cluster: ready on ".len()..]
        .split('/')
        .take(3)
        .collect::<Vec<_>>()
        .join("/");
    assert!(
        base.starts_with("https://"),
        "the cluster serves HTTPS: {ready}"
    );
    let logs = PathBuf::from(
        ready
            .rsplit("logs in ")
            .next()
            .unwrap()
            .trim_end_matches(')'),
    );
    let dir = tempfile::tempdir().unwrap();
    node(&[
        "crates/server/tests/browser/run.mjs",
        "--scenario",
        "cluster",
        "--base",
        &base,
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    // Requests besides the script's own probes of /api/rules (read before the script
    // stops, which removes its folder).
    let served: Vec<usize> = (1..=3)
        .map(|i| {
            let log = std::fs::read_to_string(logs.join(format!("node-{i}.log"))).unwrap();
            (log.lines())
                .filter(|l| l.contains("toroid::access") && !l.contains("route=/api/rules"))
                .count()
        })
        .collect();
    drop(cluster);
    assert!(
        served.iter().all(|&n| n > 0),
        "requests served by each node: {served:?}"
    );
}

/// A bot told of a game's end is not told of it again after the server is killed and
/// restarted (a bridge that counts games would count it twice): the next thing it hears is
/// what is new.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_is_not_told_again_of_a_game_that_ended_before_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let serve = Serve::start(&data);
    let alice = Client::person(&serve.base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&serve.base, &token, "Hexer").await;
    let (_, created) = challenge_accepted(&alice, &mut bot, "Hexer").await;
    let id = created.success()["id"].as_str().unwrap().to_string();
    bot.expect("start").await;
    alice
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .success();
    assert_eq!(bot.next_of("game-over").await["game_id"], id.as_str());
    // One more exchange: the connection has handled everything before it.
    bot.send(json!({"type": "resign", "game_id": "no-such-game"}))
        .await;
    bot.expect("error").await;
    serve.kill();

    let serve = Serve::start(&data);
    let alice = alice.at(&serve.base);
    let mut bot = Bot::connect(&serve.base, &token, "Hexer").await;
    let challenging = tokio::spawn(async move {
        let request = json!({"game": "go", "opponent": {"kind": "bot", "name": "Hexer"}});
        alice.post("/api/games", request).await
    });
    let first = bot.next().await;
    assert_eq!(
        first["type"], "challenge",
        "first after the restart: {first}"
    );
    challenging.abort();
}

/// A running tournament outlives its server: killed mid-round and started again, the server
/// records the round once its games end, and the tournament finishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_goes_on_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let serve = Serve::start(&data);
    let alice = Client::account(&serve.base, "Alice").await;
    let request = json!({"name": "Restart", "game": "capture-go", "format": "round-robin",
        "rounds": 1, "clock": {"initial_s": 600}, "house": ["random"]});
    let created = alice.post("/api/tournaments", request).await.success();
    let id = created["id"].as_str().unwrap().to_string();
    alice
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await
        .success();
    let game = alice.start_tournament(&id).await;
    serve.kill();

    let serve = Serve::start(&data);
    let alice = alice.at(&serve.base);
    alice
        .post(&format!("/api/games/{game}/resign"), json!({}))
        .await
        .success();
    let view = common::eventually("the tournament finishes", || async {
        let view = alice.get(&format!("/api/tournaments/{id}")).await.success();
        (view["stage"] == "finished").then_some(view)
    })
    .await;
    assert!(
        view["played"][0]["games"][0]["result"].is_string(),
        "{view}"
    );
    assert_eq!(view["standings"][0]["player"]["name"], "random", "{view}");
}

/// `toroid serve --check-config`, as an operator would run it: its output and exit status.
fn check_config(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["serve", "--check-config"])
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).to_string();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A setting comes from a flag, else a `TOROID_…` variable, else the config file, else its
/// default; a secret comes from its file and is shown masked.
#[test]
fn settings_come_from_flags_then_the_environment_then_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("database-url");
    std::fs::write(&secret, "postgres://toroid:hunter2@db.example/toroid\n").unwrap();
    let file = dir.path().join("toroid.toml");
    std::fs::write(
        &file,
        format!(
            "port = 9100\nmax-connections = 77\nping-interval = \"20s\"\n\
             trusted-proxy = [\"10.0.0.1\", \"10.0.0.2\"]\nno-chat = true\n\
             database-file = {:?}\n",
            secret.display().to_string()
        ),
    )
    .unwrap();
    let file_arg = file.display().to_string();
    let (status, out, err) = check_config(
        &["--config", &file_arg, "--max-connections", "55"],
        &[("TOROID_PORT", "9200"), ("TOROID_MAX_CONNECTIONS", "66")],
    );
    assert_eq!(status, Some(0), "{err}");
    for line in [
        "port = 9200",                                  // the environment over the file
        "max-connections = 55",                         // the flag over both
        "ping-interval = \"20s\"",                      // the file over the default
        "header-timeout = \"10s\"",                     // the default
        "trusted-proxy = [\"10.0.0.1\", \"10.0.0.2\"]", // a list
        "no-chat = true",                               // a switch
        "database = \"postgres://toroid:***@db.example/toroid\"", // the secret, masked
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} in:\n{out}");
    }
    assert!(
        !out.contains("hunter2") && !err.contains("hunter2"),
        "{out}"
    );
    // The same settings from the environment alone, a list with commas.
    let (status, out, err) = check_config(
        &[],
        &[
            ("TOROID_CONFIG", &file_arg),
            ("TOROID_TRUSTED_PROXY", "10.0.0.3,10.0.0.4"),
            ("TOROID_NO_CHAT", "false"),
        ],
    );
    assert_eq!(status, Some(0), "{err}");
    assert!(out.contains("port = 9100\n"), "{out}");
    assert!(
        out.contains("trusted-proxy = [\"10.0.0.3\", \"10.0.0.4\"]"),
        "{out}"
    );
    assert!(out.contains("no-chat = false"), "{out}");
    // A key that is no setting, a value of the wrong kind, a secret file that is missing.
    for (text, expected) in [
        ("prot = 9100\n", "unknown setting 'prot'"),
        ("port = \"many\"\n", "invalid value 'many'"),
        ("port = 1.5\n", "'port' takes a string, a number or true"),
        (
            "redis-file = \"/nonexistent/redis-url\"\n",
            "cannot read /nonexistent/redis-url",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let (status, _, err) = check_config(&["--config", &file_arg], &[]);
        assert_eq!(status, Some(2), "{text}: {err}");
        assert!(err.contains(expected), "{text}: {err}");
    }
}

/// A server started from a config file alone serves with its settings: here its port, its
/// data folder, and its database URL read from a secret file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_runs_from_its_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("elsewhere.sqlite3");
    let secret = dir.path().join("database-url");
    std::fs::write(
        &secret,
        format!("sqlite://{}?mode=rwc\n", database.display()),
    )
    .unwrap();
    let file = dir.path().join("toroid.toml");
    std::fs::write(
        &file,
        format!(
            "port = 0\ndata = {:?}\ndatabase-file = {:?}\n",
            dir.path().join("data").display().to_string(),
            secret.display().to_string()
        ),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["serve", "--config"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let base = (line.split_whitespace())
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    let alice = Client::person(&base, "alice").await;
    assert_eq!(alice.get("/api/session").await.success()["name"], "alice");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(database.exists(), "the database of the secret file is used");
}

/// A free loopback port (bound and let go).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One instant query to the Prometheus API at `prometheus`: each series' labels and value.
async fn query(prometheus: &str, promql: &str) -> Vec<(Value, f64)> {
    let url = format!("{prometheus}/api/v1/query");
    let Ok(answer) = reqwest::Client::new()
        .get(url)
        .query(&[("query", promql)])
        .send()
        .await
    else {
        return Vec::new();
    };
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    (body["data"]["result"]
        .as_array()
        .cloned()
        .unwrap_or_default())
    .into_iter()
    .map(|series| {
        let value = series["value"][1].as_str().and_then(|v| v.parse().ok());
        (series["metric"].clone(), value.unwrap_or(f64::NAN))
    })
    .collect()
}

/// A real Prometheus (Debian's, installed by scripts/test) scrapes `/metrics` on the address
/// of `--metrics` while a game is played, and its API then has the series of requests by
/// route, of games held by rule set, and of moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prometheus_scrapes_the_metrics() {
    let prometheus_bin = which("prometheus").expect("prometheus (scripts/test installs it)");
    let dir = tempfile::tempdir().unwrap();
    let metrics_at = format!("127.0.0.1:{}", free_port());
    let serve = Serve::start_with(&dir.path().join("data"), &["--metrics", &metrics_at]);
    // The API itself serves no metrics.
    let alice = Client::person(&serve.base, "alice").await;
    assert_eq!(alice.get("/metrics").await.status, 404);

    let request = json!({"game": "go", "params": {"size": 5}, "opponent":
        {"kind": "house", "level": "random"}, "color": "black"});
    let id = alice.create(request).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut played = 0;
    while played < 2 {
        let state = alice.get(&format!("/api/games/{id}")).await.success();
        if to_move(&state, "black") {
            let ply = state["position"]["ply"].as_u64().unwrap();
            let mv = json!({"move": first_legal(&state), "ply": ply});
            alice
                .post(&format!("/api/games/{id}/moves"), mv)
                .await
                .success();
            played += 1;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    let config = dir.path().join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: toroid\n    \
             static_configs:\n      - targets: ['{metrics_at}']\n"
        ),
    )
    .unwrap();
    let web = format!("127.0.0.1:{}", free_port());
    let mut prometheus = Command::new(prometheus_bin)
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.path().join("tsdb").display()
        ))
        .arg(format!("--web.listen-address={web}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let prometheus_url = format!("http://{web}");
    let series = |promql: &'static str| {
        let url = prometheus_url.clone();
        move || {
            let url = url.clone();
            async move { Some(query(&url, promql).await).filter(|s| !s.is_empty()) }
        }
    };
    let moves = common::eventually("moves scraped", series("toroid_moves_total")).await;
    assert_eq!(moves[0].0["game"], "go", "{moves:?}");
    assert!(
        moves[0].1 >= 3.0,
        "alice's 2 moves and the bot's: {moves:?}"
    );
    let held = common::eventually("games scraped", series("toroid_games_held > 0")).await;
    assert_eq!(
        (held[0].0["game"].clone(), held[0].1),
        (json!("go"), 1.0),
        "{held:?}"
    );
    let requests = common::eventually(
        "requests scraped",
        series(r#"toroid_http_requests_total{route="/api/games/{id}/moves",status="200"}"#),
    )
    .await;
    assert_eq!(requests[0].1, 2.0, "{requests:?}");
    let latency = common::eventually(
        "latencies scraped",
        series("toroid_http_request_duration_seconds_count"),
    )
    .await;
    assert!(!latency.is_empty());
    prometheus.kill().unwrap();
    prometheus.wait().unwrap();
}

/// Where `program` is on PATH.
fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|path| path.is_file())
    })
}

/// With `--log-format json` every line of the log is a JSON object; each request has an
/// access line with the client's address as a trusted proxy gave it and the route's pattern;
/// sign-ins have audit lines; and no secret of the run is in the log: the database password
/// (from a secret file), account passwords, invite codes, bot tokens and session cookies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_are_json_lines_with_access_and_audit_lines_and_no_secrets() {
    const DATABASE_PASSWORD: &str = "db-pass-7f3a91";
    const PASSWORD: &str = "correct horse battery staple";
    let dir = tempfile::tempdir().unwrap();
    let database = common::fresh_postgres_database().await;
    let database = database.replacen("postgres@", &format!("postgres:{DATABASE_PASSWORD}@"), 1);
    let secret = dir.path().join("database-url");
    std::fs::write(&secret, &database).unwrap();
    let log = dir.path().join("log.jsonl");
    let secret_arg = secret.display().to_string();
    let options = [
        "--log-format",
        "json",
        "--trusted-proxy",
        "127.0.0.1",
        "--database-file",
        &secret_arg,
    ];
    let serve = Serve::start_logged_with(&dir.path().join("data"), &options, &log);

    let signed_up = Client::anonymous(&serve.base)
        .new_session(
            "/api/accounts",
            json!({"name": "Ada", "password": PASSWORD}),
        )
        .await
        .expect("an account");
    let signed_in = Client::anonymous(&serve.base)
        .new_session("/api/session", json!({"name": "ada", "password": PASSWORD}))
        .await
        .expect("a sign-in");
    let refused = Client::anonymous(&serve.base)
        .new_session(
            "/api/session",
            json!({"name": "ada", "password": "wrong guess"}),
        )
        .await;
    assert_eq!(refused.map(|_| ()).unwrap_err().status, 401);
    let created = signed_in
        .create(json!({"game": "go", "opponent": {"kind": "invite"}, "color": "black"}))
        .await;
    let code = invite_code(&created);
    signed_up
        .get(&format!("/api/invites/{code}"))
        .await
        .success();
    let token = register(&signed_in, "Logbot").await;
    // A request through the proxy, for a client it names.
    let proxied = reqwest::Client::new()
        .get(format!("{}/api/rules", serve.base))
        .header("X-Forwarded-For", "203.0.113.7")
        .send()
        .await
        .unwrap();
    assert_eq!(proxied.status(), 200);
    serve.stop();

    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = (text.lines())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let access = |route: &str| {
        lines
            .iter()
            .find(|l| l["target"] == "toroid::access" && l["route"] == route)
            .cloned()
    };
    let rules = access("/api/rules").expect("an access line for /api/rules");
    assert_eq!(rules["client"], "203.0.113.7", "{rules}");
    assert_eq!(
        (rules["level"].clone(), rules["status"].clone()),
        (json!("INFO"), json!(200))
    );
    assert!(
        access("/api/invites/{code}").is_some(),
        "the pattern, not the code"
    );
    let audit: Vec<&Value> = lines
        .iter()
        .filter(|l| l["target"] == "toroid::audit")
        .collect();
    for result in ["ok", "failed"] {
        assert!(
            audit
                .iter()
                .any(|l| l["result"] == result && l["name"] == "ada"),
            "a sign-in {result}: {audit:?}"
        );
    }
    assert!(
        audit.iter().any(|l| l["message"] == "account created"),
        "{audit:?}"
    );
    // The session cookie, `toroid_session=TOKEN`.
    let cookie = signed_in.cookie.clone().expect("a cookie");
    let cookie = cookie.split_once('=').expect("name=value").1;
    for secret in [
        DATABASE_PASSWORD,
        PASSWORD,
        "wrong guess",
        &code,
        &token,
        cookie,
    ] {
        assert!(!text.contains(secret), "a secret in the log: {secret}");
    }
}

/// deploy/toroid.service, with this build's binary in its `ExecStart`: `systemd-analyze
/// verify` finds nothing wrong, and `systemd-analyze security` rates its exposure low (the
/// hardening is in force, not only written).
#[test]
fn the_systemd_unit_verifies_and_is_hardened() {
    let analyze =
        which("systemd-analyze").expect("systemd-analyze (scripts/test installs systemd)");
    let dir = tempfile::tempdir().unwrap();
    let unit = std::fs::read_to_string(workspace().join("deploy/toroid.service")).unwrap();
    assert!(
        unit.contains("ExecStart=/usr/local/bin/toroid serve"),
        "{unit}"
    );
    let unit = unit.replace("/usr/local/bin/toroid", env!("CARGO_BIN_EXE_toroid"));
    let path = dir.path().join("toroid.service");
    std::fs::write(&path, unit).unwrap();
    let verify = Command::new(&analyze)
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verify.stderr);
    assert!(
        verify.status.success() && said.trim().is_empty(),
        "systemd-analyze verify: {said}"
    );
    let security = Command::new(&analyze)
        .args(["security", "--offline=yes", "--no-pager"])
        .arg(&path)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&security.stdout);
    let exposure: f64 = (report.lines())
        .find_map(|l| l.split("Overall exposure level for toroid.service:").nth(1))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no exposure level in {report}"));
    assert!(
        exposure <= 2.0,
        "exposure {exposure} (2.0 at most):\n{report}"
    );
}

/// The session cookie is `Secure` (and named with the `__Host-` prefix) when a trusted proxy
/// says the client came over HTTPS, and only then: not over plain HTTP, and not when an untrusted client says so itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_session_cookie_is_secure_behind_an_https_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let behind = Serve::start_with(&dir.path().join("a"), &["--trusted-proxy", "127.0.0.1"]);
    let alone = Serve::start(&dir.path().join("b"));
    let cookie = |base: &str, proto: Option<&str>| {
        let mut request = reqwest::Client::new()
            .post(format!("{base}/api/session"))
            .json(&json!({"name": "ines"}));
        if let Some(proto) = proto {
            request = request.header("X-Forwarded-Proto", proto);
        }
        async move {
            let answer = request.send().await.unwrap();
            assert_eq!(answer.status(), 201);
            let cookies: Vec<String> = (answer.headers().get_all("set-cookie").iter())
                .map(|v| v.to_str().unwrap().to_string())
                .collect();
            let session = (cookies.iter()).find(|c| {
                c.starts_with("toroid_session=") || c.starts_with("__Host-toroid_session=")
            });
            session.expect("a session cookie").clone()
        }
    };
    let secure = cookie(&behind.base, Some("https")).await;
    assert!(
        secure.starts_with("__Host-") && secure.contains("; Secure"),
        "{secure}"
    );
    assert!(!cookie(&behind.base, Some("http")).await.contains("Secure"));
    assert!(!cookie(&behind.base, None).await.contains("Secure"));
    assert!(
        !cookie(&alone.base, Some("https")).await.contains("Secure"),
        "an untrusted claim"
    );
}

//! `toroid serve` as several nodes of one cluster (docs/scaling.md): nodes on one PostgreSQL
//! database with Redis between them. The PostgreSQL server is the one `TOROID_TEST_POSTGRES`
//! names (each test makes its own database) and Redis the one `TOROID_TEST_REDIS` names;
//! `scripts/test` starts throwaway ones. Without them these tests fail and say so.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod process;

use std::time::{Duration, Instant};

use common::{register, Bot, Client};
use process::Serve;
use serde_json::{json, Value};
use toroid_server::cluster::{LEASE, RENEW};
use toroid_server::ids::now_ms;

/// Nodes of one new cluster, and the private folder of their data and logs (`node-N.log`),
/// which are printed when the test fails.
struct Nodes {
    nodes: Vec<Option<Serve>>,
    database: String,
    /// The test's own connections to the database.
    db: sqlx::AnyPool,
    redis: String,
    dir: tempfile::TempDir,
}

impl Nodes {
    /// `n` nodes on a fresh database, started one after the other.
    async fn start(n: usize) -> Nodes {
        let mut nodes = Nodes::none(test_redis()).await;
        for _ in 0..n {
            nodes.add();
        }
        nodes
    }

    /// `n` nodes on a fresh database and Redis at `redis`, all started at the same moment.
    async fn start_together(n: usize, redis: String) -> Nodes {
        let mut nodes = Nodes::none(redis).await;
        let options = ["--database", &nodes.database, "--redis", &nodes.redis];
        let starting: Vec<_> = (0..n)
            .map(|node| (nodes.data(node), nodes.log(node)))
            .collect();
        let started: Vec<Serve> = std::thread::scope(|scope| {
            let threads: Vec<_> = (starting.iter())
                .map(|(data, log)| scope.spawn(|| Serve::start_logged_with(data, &options, log)))
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        nodes.nodes.extend(started.into_iter().map(Some));
        nodes
    }

    /// No nodes yet, on a fresh database and Redis at `redis`.
    async fn none(redis: String) -> Nodes {
        let database = common::fresh_postgres_database().await;
        Nodes {
            nodes: Vec::new(),
            db: sqlx::AnyPool::connect(&database).await.unwrap(),
            database,
            redis,
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn data(&self, node: usize) -> std::path::PathBuf {
        self.dir.path().join(format!("node-{node}"))
    }

    fn log(&self, node: usize) -> std::path::PathBuf {
        self.dir.path().join(format!("node-{node}.log"))
    }

    /// Starts one more node.
    fn add(&mut self) {
        let n = self.nodes.len();
        let options = ["--database", &self.database, "--redis", &self.redis];
        let node = Serve::start_logged_with(&self.data(n), &options, &self.log(n));
        self.nodes.push(Some(node));
    }

    fn base(&self, node: usize) -> &str {
        &self.nodes[node].as_ref().expect("the node runs").base
    }

    /// SIGKILL to node `node`.
    fn kill(&mut self, node: usize) {
        self.nodes[node].take().expect("the node runs").kill();
    }

    /// SIGTERM to node `node`, and its exit.
    fn stop(&mut self, node: usize) {
        self.nodes[node].take().expect("the node runs").stop();
    }

    /// The node (its name, new at each start) that holds the lease to referee game `id`,
    /// and until when (ms since the epoch, the nodes' clock); waits for one to take it.
    async fn referee(&self, id: &str) -> (String, i64) {
        use sqlx::Row;
        let db = &self.db;
        common::eventually(&format!("a node referees game {id}"), move || async move {
            let lease = sqlx::query("SELECT node, until_ms FROM referees WHERE game_id = $1")
                .bind(id)
                .fetch_optional(db)
                .await
                .unwrap();
            lease.map(|lease| (lease.get("node"), lease.get("until_ms")))
        })
        .await
    }
}

/// nginx in front of the nodes (round robin, as scripts/cluster sets it up), stopped when
/// dropped.
struct Balancer {
    nginx: std::process::Child,
    base: String,
}

impl Nodes {
    /// Starts nginx in front of the nodes running now.
    async fn balancer(&self) -> Balancer {
        let dir = self.dir.path().join("nginx");
        std::fs::create_dir_all(&dir).unwrap();
        let port = free_port();
        let upstream: String = (self.nodes.iter().flatten())
            .map(|node| format!("server {};\n", node.base.trim_start_matches("http://")))
            .collect();
        let d = dir.display();
        let conf = format!(
            "worker_processes 1; pid {d}/nginx.pid; error_log {d}/error.log;
            events {{ worker_connections 1024; }}
            http {{
                access_log off;
                client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;
                fastcgi_temp_path {d}/fastcgi; uwsgi_temp_path {d}/uwsgi;
                scgi_temp_path {d}/scgi;
                map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}
                upstream toroid {{ {upstream} }}
                server {{
                    listen 127.0.0.1:{port};
                    location / {{
                        proxy_pass http://toroid;
                        proxy_http_version 1.1;
                        proxy_set_header Host $http_host;
                        proxy_set_header Upgrade $http_upgrade;
                        proxy_set_header Connection $connection_upgrade;
                        proxy_next_upstream error timeout;
                        proxy_connect_timeout 1s;
                    }}
                }}
            }}"
        );
        std::fs::write(dir.join("nginx.conf"), conf).unwrap();
        let nginx = std::process::Command::new(
            which_nginx().expect("nginx (scripts/test installs Debian's nginx)"),
        )
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .args(["-g", "daemon off;"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("nginx starts");
        let base = format!("http://127.0.0.1:{port}");
        let balancer = Balancer { nginx, base };
        listening("nginx", port).await;
        balancer
    }

    /// The node that directs tournament `id` (once one does).
    async fn director(&self, id: &str) -> String {
        use sqlx::Row;
        let db = &self.db;
        common::eventually(
            &format!("a node directs tournament {id}"),
            move || async move {
                let row = sqlx::query("SELECT director FROM tournaments WHERE id = $1")
                    .bind(id)
                    .fetch_one(db)
                    .await
                    .unwrap();
                row.get::<Option<String>, _>("director")
            },
        )
        .await
    }

    /// The index of the running node named `name` in its log.
    fn node_named(&self, name: &str) -> usize {
        (0..self.nodes.len())
            .find(|&n| {
                self.nodes[n].is_some()
                    && std::fs::read_to_string(self.log(n))
                        .unwrap_or_default()
                        .contains(name)
            })
            .unwrap_or_else(|| panic!("no running node is {name}"))
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.nginx.kill();
        let _ = self.nginx.wait();
    }
}

/// nginx, where Debian puts it.
fn which_nginx() -> Option<std::path::PathBuf> {
    ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .map(std::path::PathBuf::from)
        .find(|p| p.exists())
}

/// A free port on loopback below the ephemeral range (where outgoing connections could take
/// it before nginx binds it).
/// Each call starts after the ports given before, which this process's other tests may not
/// have bound yet.
fn free_port() -> u16 {
    static NEXT: std::sync::atomic::AtomicU16 = std::sync::atomic::AtomicU16::new(0);
    loop {
        let offset = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 1_000;
        let port = 29_000 + (std::process::id() % 2_000) as u16 + offset;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

impl Drop for Nodes {
    fn drop(&mut self) {
        if std::thread::panicking() {
            for node in 0..self.nodes.len() {
                let log = std::fs::read_to_string(self.log(node)).unwrap_or_default();
                eprintln!("--- the log of node {node}:\n{log}");
            }
        }
    }
}

/// The Redis server of `TOROID_TEST_REDIS`.
fn test_redis() -> String {
    std::env::var("TOROID_TEST_REDIS").expect(
        "TOROID_TEST_REDIS is not set: the cluster tests need a Redis server \
         (redis://HOST:PORT); scripts/test installs Debian's redis-server and starts a \
         throwaway one",
    )
}

/// The state of game `id` as seen through `client`.
async fn state(client: &Client, id: &str) -> Value {
    let answer = client.get(&format!("/api/games/{id}")).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    answer.body
}

/// The first legal move of `state` that is not a pass.
fn a_move(state: &Value) -> Value {
    let moves = state["position"]["legal_moves"]
        .as_array()
        .expect("legal moves");
    moves
        .iter()
        .find(|m| *m != "pass")
        .or(moves.first())
        .cloned()
        .expect("a legal move")
}

/// A game created through node A is played by two people on nodes A and B and watched by a
/// spectator on node C: every move reaches everyone, and every node has the same record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_on_two_nodes_and_a_spectator_on_a_third() {
    let nodes = Nodes::start(3).await;
    let alice = Client::person(nodes.base(0), "alice").await;
    let bob = Client::person(nodes.base(1), "bob").await;
    let carol = Client::anonymous(nodes.base(2));
    let created = alice
        .create(
            json!({"game": "go", "params": {"size": 9}, "color": "black",
            "opponent": {"kind": "invite"}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let joined = bob
        .post("/api/join", json!({"code": common::invite_code(&created)}))
        .await;
    assert_eq!(
        joined.status, 200,
        "bob joins on another node: {:?}",
        joined.body
    );
    let (mut alice_ws, _) = alice.watch(&id).await;
    let (mut bob_ws, _) = bob.watch(&id).await;
    let (mut carol_ws, _) = carol.watch(&id).await;
    // Chat crosses nodes: Alice's line, said on node 0, reaches Bob on node 1.
    for socket in [&mut alice_ws, &mut bob_ws, &mut carol_ws] {
        socket.chat().await; // the room's latest lines
    }
    alice_ws
        .send(json!({"type": "chat", "text": "hello from node 0"}))
        .await;
    assert_eq!(bob_ws.chat().await["lines"][0]["text"], "hello from node 0");
    for ply in 0..12u64 {
        let (mover, node) = if ply % 2 == 0 { (&alice, 0) } else { (&bob, 1) };
        let before = state(mover, &id).await;
        assert_eq!(before["position"]["ply"], ply, "node {node} is up to date");
        let played = mover
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": a_move(&before), "ply": ply}),
            )
            .await;
        assert_eq!(
            played.status, 200,
            "ply {ply} on node {node}: {:?}",
            played.body
        );
        for (who, socket) in [
            ("alice", &mut alice_ws),
            ("bob", &mut bob_ws),
            ("carol", &mut carol_ws),
        ] {
            let seen = socket
                .state_until(|s| s["position"]["ply"].as_u64() >= Some(ply + 1))
                .await;
            assert_eq!(
                seen["position"]["ply"],
                ply + 1,
                "{who} sees ply {}",
                ply + 1
            );
        }
    }
    let resigned = bob
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{:?}", resigned.body);
    let seen = carol_ws.state_until(|s| s["status"] == "finished").await;
    assert_eq!(seen["result"]["reason"], "resignation");
    // A rematch offered on node 1 and accepted on node 0 reaches both players' pages.
    let offered = bob
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await;
    assert_eq!(offered.status, 200, "{:?}", offered.body);
    alice_ws
        .state_until(|s| s["rematch_offer"] == "white")
        .await;
    let accepted = alice
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await;
    assert_eq!(accepted.status, 200, "{:?}", accepted.body);
    let next = accepted.body["rematch"].clone();
    assert!(next.is_string(), "{:?}", accepted.body);
    bob_ws.state_until(|s| s["rematch"] == next).await;
    let rematch = state(&bob, next.as_str().unwrap()).await;
    assert_eq!(
        (rematch["status"].as_str(), rematch["you"].as_str()),
        (Some("live"), Some("black"))
    );
    let records: Vec<String> = futures_util::future::join_all((0..3).map(|node| {
        let client = Client::anonymous(nodes.base(node));
        let id = id.clone();
        async move { client.get_text(&format!("/api/games/{id}/sgf")).await.2 }
    }))
    .await;
    assert!(records[0].contains("RE[B+R]"), "{}", records[0]);
    assert_eq!(records[0], records[1]);
    assert_eq!(records[0], records[2]);
    let listed = carol.get("/api/games?status=finished").await.success();
    assert_eq!(listed[0]["id"], id, "every node lists the game");
}

/// 100 races of two moves for the same ply, sent to two nodes at once: the database takes
/// exactly one of each pair, the other is `stale-ply`, and both nodes show the same game
/// with no ply missing or twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_for_one_ply_on_two_nodes_one_wins() {
    let nodes = Nodes::start(2).await;
    // Each client from its own address, so that no rate limit slows the races.
    let from =
        |node: usize, last: u8| Client::anonymous_from(nodes.base(node), [127, 0, 0, last].into());
    let alice = from(0, 21).sign_in("alice").await.unwrap();
    let alice_b = from(1, 22).with_session_of(&alice);
    let bob = from(1, 23).sign_in("bob").await.unwrap();
    let created = alice
        .create(json!({"game": "go", "params": {"size": 19},
            "color": "black", "opponent": {"kind": "invite"}}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let joined = bob
        .post("/api/join", json!({"code": common::invite_code(&created)}))
        .await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    let path = format!("/api/games/{id}/moves");
    let mut now = joined.body;
    let mut ply = 0u64;
    for race in 0..100 {
        assert_eq!(now["status"], "live", "the game ended after {race} races");
        let legal = now["position"]["legal_moves"].as_array().unwrap().clone();
        let first = legal[race % legal.len()].clone();
        let second = legal[(race + 1) % legal.len()].clone();
        let (a, b) = tokio::join!(
            alice.post(&path, json!({"move": first, "ply": ply})),
            alice_b.post(&path, json!({"move": second, "ply": ply})),
        );
        let mut codes = [a.status, b.status];
        codes.sort();
        assert_eq!(
            codes,
            [200, 409],
            "race {race}: {:?} / {:?}",
            a.body,
            b.body
        );
        let (won, lost) = if a.status == 200 { (a, b) } else { (b, a) };
        assert_eq!(lost.code(), "stale-ply", "race {race}");
        ply += 1;
        if won.body["status"] != "live" {
            break;
        }
        // Bob answers on node B.
        let answered = bob
            .post(&path, json!({"move": a_move(&won.body), "ply": ply}))
            .await;
        assert_eq!(answered.status, 200, "{:?}", answered.body);
        ply += 1;
        now = answered.body;
        if now["status"] != "live" {
            break;
        }
    }
    assert!(ply >= 100, "only {ply} plies were played");
    // Node A learns of bob's last move, made on node B, through Redis a moment later (one CI
    // run read its history a ply short): wait a little for it.
    let history = |node: usize| {
        let path = format!("/api/games/{id}/history");
        let client = Client::anonymous(nodes.base(node));
        async move { client.get(&path).await.success() }
    };
    let mut on_a = history(0).await;
    for _ in 0..50 {
        if on_a["boards"].as_array().unwrap().len() as u64 == ply + 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        on_a = history(0).await;
    }
    let on_b = history(1).await;
    assert_eq!(on_a["boards"].as_array().unwrap().len() as u64, ply + 1);
    assert_eq!(on_a, on_b, "both nodes show the same game");
}

/// A clocked game of alice against a house bot, made through node A, which referees it; alice
/// (through node B from now on), the game's id and her WebSocket on node B.
async fn game_refereed_by_node_a(nodes: &Nodes) -> (Client, String, common::Socket) {
    let alice = Client::person(nodes.base(0), "alice").await;
    let created = alice
        .create(
            json!({"game": "go", "params": {"size": 5}, "color": "black",
            "clock": {"initial_s": 120, "increment_s": 0},
            "opponent": {"kind": "house", "level": "random"}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let alice = alice.at(nodes.base(1));
    let (socket, _) = alice.watch(&id).await;
    (alice, id, socket)
}

/// The node that referees a clocked game against a house bot is killed: another node takes
/// the game over once the dead node's lease has run out, and within a lease and a renewal
/// of the kill (1 s margin for the takeover's commit and the state's way); its bot moves,
/// the clocks are right, and the game finishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_dies_and_another_referees_its_game() {
    let mut nodes = Nodes::start(2).await;
    let (alice, id, mut socket) = game_refereed_by_node_a(&nodes).await;
    let first = state(&alice, &id).await;
    let played = alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": a_move(&first), "ply": 0}),
        )
        .await;
    assert_eq!(played.status, 200, "{:?}", played.body);
    socket.state_until(|s| s["position"]["ply"] == 2).await;
    // Node A dies; alice moves on node B, and the bot's answer must come from B.
    let (referee, until_ms) = nodes.referee(&id).await;
    nodes.kill(0);
    let killed = Instant::now();
    let now = state(&alice, &id).await;
    let played = alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": a_move(&now), "ply": 2}),
        )
        .await;
    assert_eq!(played.status, 200, "{:?}", played.body);
    let answered = socket
        .state_until(|s| s["position"]["ply"].as_u64() >= Some(4) || s["status"] != "live")
        .await;
    let (answered_ms, took) = (now_ms(), killed.elapsed());
    assert_ne!(
        nodes.referee(&id).await.0,
        referee,
        "the node killed was the referee"
    );
    assert!(
        answered_ms > until_ms,
        "the bot answered {} ms before the dead node's lease ran out",
        until_ms - answered_ms
    );
    assert!(
        took < LEASE + RENEW + Duration::from_secs(1),
        "the bot answered {took:?} after its node died"
    );
    assert_eq!(answered["status"], "live");
    // As after a restart, the time between alice's move and the takeover is charged to
    // no one: the bot's clock lost only its thinking.
    let clocks = &answered["clocks"];
    let (black, white) = (
        clocks["black_ms"].as_i64().unwrap(),
        clocks["white_ms"].as_i64().unwrap(),
    );
    assert!((110_000..=120_000).contains(&black), "{clocks}");
    assert!((119_000..=120_000).contains(&white), "{clocks}");
    // The game goes on to its end on node B.
    play_to_the_end(&alice, &id, &mut socket, answered).await;
}

/// Alice (black) plays game `id` against its house bot from `state_now` to the end (passing
/// after ply 40, then accepting the dead stones the house proposes), watching it on
/// `socket`.
async fn play_to_the_end(alice: &Client, id: &str, socket: &mut common::Socket, state: Value) {
    let mut state_now = state;
    while state_now["status"] == "live" {
        if state_now["counting"].is_object() {
            let dead = state_now["counting"]["dead"].clone();
            let path = format!("/api/games/{id}/accept-dead");
            let accepted = alice.post(&path, json!({ "dead": dead })).await;
            assert_eq!(accepted.status, 200, "{:?}", accepted.body);
            state_now = socket.state_until(|s| s["status"] != "live").await;
            continue;
        }
        let ply = state_now["position"]["ply"].as_u64().unwrap();
        if state_now["position"]["to_move"] == "black" {
            let mv = match ply > 40 {
                true => json!("pass"),
                false => a_move(&state_now),
            };
            let played = alice
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({"move": mv, "ply": ply}),
                )
                .await;
            assert_eq!(played.status, 200, "{:?}", played.body);
        }
        state_now = socket
            .state_until(|s| s["position"]["ply"].as_u64() > Some(ply) || s["status"] != "live")
            .await;
    }
    assert_eq!(state_now["status"], "finished");
}

/// Bots "one", connected to node A, and "two", to node B, each of its own owner; the
/// owner of "one" (on node A).
async fn bots_on_two_nodes(nodes: &Nodes) -> (Client, Bot, Bot) {
    // Two owners: the arena pairs no two bots of one owner.
    let owner = Client::person(nodes.base(0), "owner").await;
    let other = Client::person(nodes.base(1), "other").await;
    let (one, two) = (register(&owner, "one").await, register(&other, "two").await);
    let one = Bot::connect(nodes.base(0), &one, "one").await;
    let two = Bot::connect(nodes.base(1), &two, "two").await;
    (owner, one, two)
}

/// Two bots seeking through nodes A and B (one taking any parameters and any clock in a
/// range) are paired, every node lists the open seek, and they play the game to the end; a
/// person on node A challenges a bot connected to node B, which accepts, and they play.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_on_different_nodes_meet() {
    let nodes = Nodes::start(2).await;
    let (owner, mut one, mut two) = bots_on_two_nodes(&nodes).await;
    let online = Client::anonymous(nodes.base(0))
        .get("/api/bots")
        .await
        .success();
    assert_eq!(
        online["online"],
        json!(["one", "two"]),
        "every node lists every bot"
    );

    let open = json!({"type": "seek", "game": "go", "params": "any",
                      "clock": {"min_initial_s": 60, "max_initial_s": 600}});
    one.send(open).await;
    one.expect("seeking").await;
    let listed = Client::anonymous(nodes.base(1))
        .get("/api/bots/seeks")
        .await
        .success();
    assert_eq!(listed[0]["bot"], "one", "{listed}");
    let seek = json!({"type": "seek", "game": "go", "params": {"size": 5},
                      "clock": {"initial_s": 120, "increment_s": 1}});
    two.send(seek).await;
    let (first, second) = tokio::join!(one.play_out(), two.play_out());
    assert_eq!(first["game_id"], second["game_id"], "one game for both");
    assert_eq!(first["result"], second["result"]);
    assert!(first["result"]["reason"].is_string(), "{first}");

    // A person on node A challenges bot two, on node B.
    let (challenge, created) = common::challenge_accepted(&owner, &mut two, "two").await;
    assert_eq!(challenge["from"]["name"], "owner");
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.body["players"]["white"]["name"], "two");
    let id = created.body["id"].as_str().unwrap().to_string();
    let start = two.expect("start").await;
    assert_eq!(start["game_id"], id);
    let resigned = owner
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{:?}", resigned.body);
    let over = two.expect("game-over").await;
    assert_eq!(over["result"]["winner"], "white");
}

/// A node that stops cleanly (SIGTERM) hands its games over at once: the bot of the game it
/// refereed answers from the other node before the stopped node's lease has run out, which
/// only its release allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_node_hands_its_games_over_at_once() {
    let mut nodes = Nodes::start(2).await;
    let (alice, id, mut socket) = game_refereed_by_node_a(&nodes).await;
    // The lease runs at least until `until_ms`: renewals only push it later.
    let (referee, until_ms) = nodes.referee(&id).await;
    nodes.stop(0);
    let now = state(&alice, &id).await;
    let played = alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": a_move(&now), "ply": 0}),
        )
        .await;
    assert_eq!(played.status, 200, "{:?}", played.body);
    socket.state_until(|s| s["position"]["ply"] == 2).await;
    let answered_ms = now_ms();
    assert_ne!(
        nodes.referee(&id).await.0,
        referee,
        "the node stopped was the referee"
    );
    assert!(
        answered_ms < until_ms,
        "the bot answered {} ms after the stopped node's lease ran out: an expiry, not a \
         handover",
        answered_ms - until_ms
    );
}

/// A session's limit on unfinished games holds over the whole cluster, not per node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sessions_game_limit_holds_across_nodes() {
    let nodes = Nodes::start(2).await;
    let on_a = Client::person(nodes.base(0), "dora").await;
    let on_b = on_a.at(nodes.base(1));
    let request = json!({"game": "go", "params": {"size": 5}, "color": "black",
        "opponent": {"kind": "invite"}});
    for n in 0..20 {
        let client = if n % 2 == 0 { &on_a } else { &on_b };
        let made = client.post("/api/games", request.clone()).await;
        assert_eq!(made.status, 201, "game {n}: {:?}", made.body);
    }
    for client in [&on_a, &on_b] {
        let refused = client.post("/api/games", request.clone()).await;
        assert_eq!((refused.status, refused.code()), (429, "limit"));
    }
}

/// The limit on unfinished games from one address (`Limits::games_per_address`, 40) counts
/// the games of every node: three people at one address, each within their own limit, get
/// 40 games over two nodes, and the 41st is refused on either node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_addresss_game_limit_holds_across_nodes() {
    const PER_ADDRESS: usize = 40;
    let nodes = Nodes::start(2).await;
    let here = [127, 0, 0, 33].into();
    let mut people = Vec::new();
    for (n, name) in ["erin", "fay", "gus"].into_iter().enumerate() {
        let anonymous = Client::anonymous_from(nodes.base(n % 2), here);
        people.push(anonymous.sign_in(name).await.expect("a session"));
    }
    let request = json!({"game": "go", "params": {"size": 5}, "color": "black",
        "opponent": {"kind": "invite"}});
    // Erin's 20 games on node A, Fay's 20 on node B: each node holds 20 of the address's.
    for n in 0..PER_ADDRESS {
        let made = people[n % 2].post("/api/games", request.clone()).await;
        assert_eq!(made.status, 201, "game {n}: {:?}", made.body);
    }
    for node in 0..2 {
        let refused = people[2]
            .at(nodes.base(node))
            .post("/api/games", request.clone())
            .await;
        assert_eq!(
            (refused.status, refused.code()),
            (429, "limit"),
            "node {node}"
        );
        let message = refused.body["error"]["message"]
            .as_str()
            .unwrap_or_default();
        assert!(message.contains("from one address"), "{message}");
    }
}

/// Three nodes started at the same moment on an empty database all come up and serve: they
/// migrate the schema one at a time (docs/scaling.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_started_together_on_an_empty_database_all_serve() {
    let nodes = Nodes::start_together(3, test_redis()).await;
    for node in 0..3 {
        let person = Client::person(nodes.base(node), &format!("p{node}")).await;
        let rules = person.get("/api/rules").await;
        assert_eq!(rules.status, 200, "node {node}: {:?}", rules.body);
    }
}

/// A Redis password never reaches a log or an error: not while the node runs, not when
/// Redis goes away under it, and not when a node cannot reach Redis at its start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_password_is_never_logged() {
    const SECRET: &str = "hunter2-in-the-url";
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut redis = own_redis(dir.path(), port, &["--requirepass", SECRET]).await;
    let url = format!("redis://:{SECRET}@127.0.0.1:{port}");
    let mut nodes = Nodes::start_together(1, url).await;
    let alice = Client::person(nodes.base(0), "alice").await;
    alice
        .create(common::house("go", json!({"size": 5}), "random", "black"))
        .await;
    // Redis goes away: the node says so in its log, and names Redis's address.
    redis.kill().unwrap();
    redis.wait().unwrap();
    let log = nodes.log(0);
    common::eventually("the node logs that Redis went away", || async {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        text.contains("Redis").then_some(())
    })
    .await;
    nodes.stop(0);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains(SECRET), "the password in the log:\n{text}");
    assert!(
        text.contains(":***@127.0.0.1"),
        "Redis's address, masked:\n{text}"
    );

    // A node that cannot reach Redis at its start says why, without the password.
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["serve", "--port", "0", "--data"])
        .arg(dir.path().join("refused"))
        .args(["--database", &nodes.database, "--redis"])
        .arg(format!("redis://:{SECRET}@127.0.0.1:{port}"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "started without Redis: {said}");
    assert!(!said.contains(SECRET), "the password in the error: {said}");
    assert!(said.contains("Redis"), "the error names Redis: {said}");
}

/// A bot's token replaced through one node ends the bot's connection on another at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_replaced_on_one_node_ends_the_bots_socket_on_another() {
    let nodes = Nodes::start(2).await;
    let owner = Client::person(nodes.base(0), "owner").await;
    let token = register(&owner, "Hexer").await;
    let mut bot = Bot::connect(nodes.base(1), &token, "Hexer").await;
    owner
        .post("/api/bots/Hexer/token", json!({}))
        .await
        .success();
    assert_eq!(bot.close_frame().await, Some((4401, "bad-token".into())));
    // And deleted through one node: the new token's connection on the other ends too.
    let token = owner
        .post("/api/bots/Hexer/token", json!({}))
        .await
        .success();
    let token = token["token"].as_str().unwrap();
    let mut bot = Bot::connect(nodes.base(1), token, "Hexer").await;
    let deleted = owner.delete("/api/bots/Hexer").await;
    assert_eq!(deleted.status, 204, "{:?}", deleted.body);
    assert_eq!(bot.close_frame().await, Some((4401, "bad-token".into())));
}

/// Signing out through one node closes the session's game socket on another at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_on_one_node_closes_the_sessions_socket_on_another() {
    let nodes = Nodes::start(2).await;
    let alice = Client::person(nodes.base(0), "alice").await;
    let game = alice
        .create(json!({"game": "go", "params": {"size": 9}, "opponent": {"kind": "invite"}}))
        .await;
    let id = game["id"].as_str().unwrap();
    let (mut socket, _) = alice.at(nodes.base(1)).watch(id).await;
    assert_eq!(alice.delete("/api/session").await.status, 204);
    assert_eq!(
        socket.close_frame().await,
        Some((4401, "no-session".into()))
    );
}

/// The sign-in limit counts attempts on every node together: guesses at a password spread
/// over two nodes are refused after the same number as on one node (5 a minute for one name
/// from one address).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sign_in_limit_holds_across_nodes() {
    const PER_MINUTE: usize = 5; // half `Limits::sign_ins_per_minute`: one name, one address
    let nodes = Nodes::start(2).await;
    Client::account(nodes.base(0), "Alice").await;
    let started = Instant::now();
    let mut answered = 0;
    for attempt in 0..3 * PER_MINUTE {
        let guess = json!({"name": "Alice", "password": format!("guess {attempt}")});
        let node = Client::anonymous(nodes.base(attempt % 2));
        match node.new_session("/api/session", guess).await {
            Err(refused) if refused.status == 429 => break,
            Err(refused) => assert_eq!(refused.status, 401, "{:?}", refused.body),
            Ok(_) => panic!("a wrong password was taken"),
        }
        answered += 1;
    }
    // One attempt more comes back every 12 s.
    let refilled = started.elapsed().as_secs() as usize / 12;
    assert!(
        (PER_MINUTE..=PER_MINUTE + refilled).contains(&answered),
        "{answered} guesses answered over two nodes before a refusal"
    );
}

/// How a tournament's director leaves.
#[derive(Clone, Copy, Debug)]
enum Leaving {
    Killed,
    Stopped,
}

/// A tournament created on node A, joined by six players through nginx and started on node
/// B: its director is killed (or stopped) while the first round is played, another node
/// takes over within 5 s of the round's end, and the tournament finishes with every result
/// and standing.
async fn a_tournament_outlives_its_director(leaving: Leaving) {
    let mut nodes = Nodes::start(3).await;
    let balancer = nodes.balancer().await;
    let alice = Client::account(nodes.base(0), "Alice").await;
    let request = json!({"name": "Relay", "game": "capture-go", "format": "swiss",
        "rounds": 2, "clock": {"initial_s": 600}});
    let created = alice.post("/api/tournaments", request).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let mut players = std::collections::HashMap::new();
    for n in 0..6 {
        let name = format!("Player{n}");
        let player = Client::account(&balancer.base, &name).await;
        let joined = player
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(joined.status, 200, "{name} joins: {:?}", joined.body);
        players.insert(name, player);
    }
    let started = alice
        .at(nodes.base(1))
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(started.status, 200, "{:?}", started.body);

    let director = nodes.director(&id).await;
    let node = nodes.node_named(&director);
    match leaving {
        Leaving::Killed => nodes.kill(node),
        Leaving::Stopped => nodes.stop(node),
    }
    let watcher = Client::anonymous(&balancer.base);
    let view = |watcher: &Client| {
        let path = format!("/api/tournaments/{id}");
        let watcher = watcher.clone();
        async move { watcher.get(&path).await.success() }
    };
    // Black resigns each game of each round; the next round must come within 5 s.
    for round in 0..2 {
        let now = view(&watcher).await;
        let games = now["played"][round]["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), 3, "{now}");
        for game in &games {
            let black = &players[game["black"].as_str().unwrap()];
            let game_id = game["game_id"].as_str().unwrap();
            black
                .post(&format!("/api/games/{game_id}/resign"), json!({}))
                .await
                .success();
        }
        // Looked at ten times a second: all the test's requests come from one address,
        // whose rate (20 a second after a burst of 100) the nodes count together.
        let over = Instant::now();
        let next = loop {
            let now = view(&watcher).await;
            let moved = match round {
                0 => now["played"].as_array().unwrap().len() == 2,
                _ => now["stage"] == "finished",
            };
            if moved || over.elapsed() > Duration::from_secs(10) {
                break now;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert!(
            over.elapsed() < Duration::from_secs(5),
            "round {round} recorded {:?} after its end ({leaving:?} director): {next}",
            over.elapsed()
        );
    }
    let view = view(&watcher).await;
    assert_eq!(view["stage"], "finished");
    for round in view["played"].as_array().unwrap() {
        for game in round["games"].as_array().unwrap() {
            assert_eq!(game["result"], "white", "{view}");
        }
    }
    let standings = view["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 6, "{view}");
    let total: f64 = standings.iter().map(|s| s["score"].as_f64().unwrap()).sum();
    assert_eq!(total, 6.0, "two rounds of three games: {view}");
    assert_ne!(
        nodes.director(&id).await,
        director,
        "another node took over"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_finishes_after_its_director_is_killed() {
    a_tournament_outlives_its_director(Leaving::Killed).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_finishes_after_its_director_stops() {
    a_tournament_outlives_its_director(Leaving::Stopped).await;
}

/// Two arena bots connected to different nodes are paired with each other, at once: the
/// arena is one pool across the nodes (before, each node paired its own bots and gave each
/// a house bot after `Limits::arena_house_after`, 10 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arena_bots_on_different_nodes_are_paired_with_each_other() {
    let nodes = Nodes::start(2).await;
    let (_owner, mut one, mut two) = bots_on_two_nodes(&nodes).await;
    let arena = json!({"type": "arena", "game": "capture-go",
        "clock": {"initial_s": 60, "increment_s": 0}});
    let joined = Instant::now();
    for bot in [&mut one, &mut two] {
        bot.send(arena.clone()).await;
        bot.expect("arena-joined").await;
    }
    let (first, second) = tokio::join!(one.next_of("start"), two.next_of("start"));
    assert_eq!(first["game_id"], second["game_id"], "{first}\n{second}");
    assert_eq!(first["opponent"]["name"], "two", "{first}");
    assert_eq!(second["opponent"]["name"], "one", "{second}");
    assert!(
        joined.elapsed() < Duration::from_secs(5),
        "paired after {:?}",
        joined.elapsed()
    );
}

/// A copy of a cluster's database (`pg_dump` restored into another database, as for staging)
/// never joins that cluster: a node on it refuses to start, and says why and what to do;
/// with `--new-cluster` it starts as a cluster of its own, which does not see the original's
/// bots, and later starts need no flag.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copied_database_never_joins_the_original_cluster() {
    use std::io::Write;
    let nodes = Nodes::start(1).await;
    let owner = Client::person(nodes.base(0), "owner").await;
    let token = register(&owner, "Production").await;
    let _bot = Bot::connect(nodes.base(0), &token, "Production").await;
    let pg_bin = std::fs::read_dir("/usr/lib/postgresql")
        .expect("Debian's postgresql (scripts/test installs it)")
        .map(|entry| entry.unwrap().path().join("bin"))
        .max()
        .unwrap();
    let dump = std::process::Command::new(pg_bin.join("pg_dump"))
        .args(["--no-owner", "--dbname", &nodes.database])
        .output()
        .unwrap();
    assert!(
        dump.status.success(),
        "{}",
        String::from_utf8_lossy(&dump.stderr)
    );
    let copy = common::fresh_postgres_database().await;
    let mut psql = std::process::Command::new(pg_bin.join("psql"))
        .args(["--quiet", "-v", "ON_ERROR_STOP=1", "--dbname", &copy])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    psql.stdin.take().unwrap().write_all(&dump.stdout).unwrap();
    assert!(psql.wait().unwrap().success(), "the dump is restored");

    let data = nodes.dir.path().join("staging");
    let options = ["--database", &copy, "--redis", &nodes.redis];
    let (status, said, _) = Serve::refused_with(&data, &options);
    assert!(!status.success(), "a node started on the copy: {said}");
    assert!(
        said.contains("is a copy of the database") && said.contains("--new-cluster"),
        "{said}"
    );
    let renamed = [&options[..], &["--new-cluster"]].concat();
    let staging = Serve::start_logged_with(&data, &renamed, &nodes.log(9));
    let listed = Client::anonymous(&staging.base)
        .get("/api/bots")
        .await
        .success();
    assert_eq!(listed["online"], json!([]), "the original's bots: {listed}");
    let original = Client::anonymous(nodes.base(0))
        .get("/api/bots")
        .await
        .success();
    assert_eq!(original["online"], json!(["Production"]), "{original}");
    staging.stop();
    let staging = Serve::start_logged_with(&data, &options, &nodes.log(9));
    let listed = Client::anonymous(&staging.base)
        .get("/api/bots")
        .await
        .success();
    assert_eq!(listed["online"], json!([]), "{listed}");
}

/// A Redis server of the test's own on `port`, with more `options`, once it listens.
async fn own_redis(dir: &std::path::Path, port: u16, options: &[&str]) -> std::process::Child {
    let redis = std::process::Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ])
        .args(["--appendonly", "no"])
        .args(options)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("redis-server runs (scripts/test installs Debian's redis-server)");
    listening("the test's Redis", port).await;
    redis
}

/// Waits for `what` to listen on loopback port `port`.
async fn listening(what: &str, port: u16) {
    common::eventually(&format!("{what} listens"), || async {
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .ok()
    })
    .await;
}

/// Redis stops for 10 s while alice, on node B, plays a house bot refereed by node A: her
/// moves are answered within a second, the bot's answers reach her (the nodes read the
/// database meanwhile), and no clock is charged for the outage. Node A, stopped then, is
/// gone within 3 s, and once Redis is back the game goes on to its end on node B.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_while_redis_is_away() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut redis = own_redis(dir.path(), port, &[]).await;
    let mut nodes = Nodes::start_together(2, format!("redis://127.0.0.1:{port}")).await;
    let (alice, id, mut socket) = game_refereed_by_node_a(&nodes).await;
    redis.kill().unwrap();
    redis.wait().unwrap();
    let away = Instant::now();
    let mut state_now = state(&alice, &id).await;
    let mut thinking = Duration::ZERO;
    // Eight moves of alice's at most, so the 5×5 game cannot fill up and end in the outage.
    let mut moves = 0;
    while away.elapsed() < Duration::from_secs(10) && moves < 8 {
        moves += 1;
        let ply = state_now["position"]["ply"].as_u64().unwrap();
        let sent = Instant::now();
        let played = alice
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": a_move(&state_now), "ply": ply}),
            )
            .await;
        assert_eq!(played.status, 200, "{:?}", played.body);
        assert!(
            sent.elapsed() < Duration::from_secs(1),
            "a move answered in {:?} with Redis away",
            sent.elapsed()
        );
        let answered = socket
            .state_until(|s| {
                s["position"]["ply"].as_u64() >= Some(ply + 2) || s["status"] != "live"
            })
            .await;
        thinking += sent.elapsed();
        state_now = answered;
    }
    assert_eq!(state_now["status"], "live", "{state_now}");
    tokio::time::sleep(Duration::from_secs(10).saturating_sub(away.elapsed())).await;
    // The bot's clock lost its thinking and the delay of its news, not the outage.
    let white = state_now["clocks"]["white_ms"].as_i64().unwrap();
    let charged = Duration::from_millis((120_000 - white) as u64);
    assert!(
        charged <= thinking,
        "the bot was charged {charged:?}, more than the {thinking:?} alice waited for it"
    );
    let stopping = Instant::now();
    nodes.stop(0);
    assert!(
        stopping.elapsed() <= Duration::from_secs(3),
        "SIGTERM took {:?} with Redis away",
        stopping.elapsed()
    );
    let mut redis = own_redis(dir.path(), port, &[]).await;
    play_to_the_end(&alice, &id, &mut socket, state_now).await;
    redis.kill().unwrap();
    redis.wait().unwrap();
}

/// The API's request rate per address counts over the nodes together: quick requests from
/// one address spread over two nodes get the burst of one server (100) and its refill (20 a
/// second), not twice that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_rate_holds_across_nodes() {
    const BURST: usize = 100; // `Limits::request_burst`
    const PER_SECOND: f64 = 20.0; // `Limits::requests_per_second`
    let nodes = Nodes::start(2).await;
    let from = |node: usize| Client::anonymous_from(nodes.base(node), [127, 0, 0, 31].into());
    let clients = [from(0), from(1)];
    let started = Instant::now();
    let mut answered = 0;
    for n in 0..3 * BURST {
        match clients[n % 2].get("/api/rules").await.status {
            200 => answered += 1,
            429 => {}
            other => panic!("request {n}: {other}"),
        }
    }
    let refilled = (started.elapsed().as_secs_f64() * PER_SECOND).ceil() as usize;
    assert!(
        (BURST..=BURST + refilled).contains(&answered),
        "{answered} of {} quick requests over two nodes answered (one server: {BURST} + {refilled})",
        3 * BURST
    );
}

/// A PostgreSQL server of the test's own, which the test stops and starts again.
struct OwnPostgres {
    bin: std::path::PathBuf,
    dir: std::path::PathBuf,
    port: u16,
}

impl OwnPostgres {
    /// A new one in `dir` on loopback port `port`, started.
    fn start(dir: &std::path::Path, port: u16) -> OwnPostgres {
        let bin = (std::fs::read_dir("/usr/lib/postgresql")
            .expect("scripts/test installs PostgreSQL"))
        .filter_map(|e| Some(e.ok()?.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .max()
        .expect("PostgreSQL's initdb");
        let dir = dir.join("postgres");
        std::fs::create_dir_all(&dir).unwrap();
        let postgres = OwnPostgres { bin, dir, port };
        // As root, the server runs as the postgres user (PostgreSQL refuses root).
        if postgres.as_root() {
            use std::os::unix::fs::PermissionsExt;
            let parent = postgres.dir.parent().unwrap();
            std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o755)).unwrap();
            let chown = std::process::Command::new("chown")
                .args(["postgres:", &postgres.dir.display().to_string()])
                .status()
                .unwrap();
            assert!(chown.success(), "the folder is given to postgres");
        }
        let data = postgres.dir.join("data").display().to_string();
        postgres.run(
            "initdb",
            &["-D", &data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
        );
        postgres.up();
        postgres
    }

    fn as_root(&self) -> bool {
        let id = std::process::Command::new("id").arg("-u").output().unwrap();
        String::from_utf8_lossy(&id.stdout).trim() == "0"
    }

    /// Runs PostgreSQL's program `name` (as postgres, when the test runs as root).
    fn run(&self, name: &str, args: &[&str]) {
        let program = self.bin.join(name);
        let mut command = match self.as_root() {
            true => {
                let mut c = std::process::Command::new("runuser");
                c.args(["-u", "postgres", "--"]).arg(&program);
                c
            }
            false => std::process::Command::new(&program),
        };
        let status = command
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{name} {args:?}");
    }

    fn pg_ctl(&self, args: &[&str]) {
        let data = self.dir.join("data").display().to_string();
        self.run(
            "pg_ctl",
            &[&["-D", data.as_str(), "-w", "-t", "60"], args].concat(),
        );
    }

    fn up(&self) {
        let log = self.dir.join("server.log").display().to_string();
        let options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {}",
            self.port,
            self.dir.display()
        );
        self.pg_ctl(&["-l", &log, "-o", &options, "start"]);
    }

    fn down(&self) {
        self.pg_ctl(&["-m", "fast", "stop"]);
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let data = self.dir.join("data").display().to_string();
        let _ = std::process::Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join("pg_ctl"))
            .args(["-D", &data, "-m", "immediate", "stop"])
            .output();
        let _ = std::process::Command::new(self.bin.join("pg_ctl"))
            .args(["-D", &data, "-m", "immediate", "stop"])
            .output();
    }
}

/// `/readyz` of a node as a balancer sees it: its status and the checks that failed.
async fn readiness(client: &Client) -> (u16, Vec<String>) {
    let answer = client.get("/readyz").await;
    let failed = (answer.body["checks"]
        .as_array()
        .cloned()
        .unwrap_or_default())
    .into_iter()
    .filter(|c| c["status"] != "ok")
    .map(|c| format!("{}: {}", c["name"], c["status"]))
    .collect();
    (answer.status, failed)
}

/// A node is ready (`/readyz` 200) while PostgreSQL and Redis answer, and says which is
/// away (503) while one is stopped, and ready again once it is back; `/healthz` says it
/// lives throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_database_and_redis() {
    let dir = tempfile::tempdir().unwrap();
    let postgres = OwnPostgres::start(dir.path(), free_port());
    let redis_port = free_port();
    let mut redis = own_redis(dir.path(), redis_port, &[]).await;
    let redis_url = format!("redis://127.0.0.1:{redis_port}");
    let node = Serve::start_logged_with(
        &dir.path().join("node"),
        &["--database", &postgres.url(), "--redis", &redis_url],
        &dir.path().join("node.log"),
    );
    let client = Client::anonymous(&node.base);
    let ready = || async { Some(readiness(&client).await).filter(|(status, _)| *status == 200) };
    let unready = |away: &'static str| {
        let client = &client;
        move || async move {
            let (status, failed) = readiness(client).await;
            (status == 503 && failed.iter().any(|f| f.contains(away))).then_some(failed)
        }
    };
    assert_eq!(readiness(&client).await, (200, vec![]));

    postgres.down();
    let failed = common::eventually("unready without PostgreSQL", unready("database")).await;
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(client.get("/healthz").await.status, 200, "it lives");
    postgres.up();
    common::eventually("ready with PostgreSQL back", ready).await;

    redis.kill().unwrap();
    redis.wait().unwrap();
    common::eventually("unready without Redis", unready("redis")).await;
    assert_eq!(client.get("/healthz").await.status, 200, "it lives");
    let mut redis = own_redis(dir.path(), redis_port, &[]).await;
    common::eventually("ready with Redis back", ready).await;
    node.stop();
    redis.kill().unwrap();
}

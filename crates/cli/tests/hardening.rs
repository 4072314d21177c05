//! `toroid serve` against hostile clients, one test per point of docs/server.md, "Security
//! and limits": each attack is bounded in count and time, and each test checks the refusal
//! and that nothing changed.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod process;

use common::{on_both_stores, register, Answer, Bot, Client, Site, Store};
use process::Serve;
use reqwest::header::{HOST, ORIGIN};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

impl Site {
    /// A server on this site, started with `options` besides its port and store.
    fn serve(&self, options: &[&str]) -> Serve {
        let database = self
            .database
            .iter()
            .flat_map(|url| ["--database", url.as_str()]);
        let options: Vec<&str> = database.chain(options.iter().copied()).collect();
        Serve::start_with(&self.data(), &options)
    }
}

/// A server on a fresh site of `store` (kept while the server runs).
async fn serve(store: Store, options: &[&str]) -> (Serve, Site) {
    let site = Site::new(store).await;
    (site.serve(options), site)
}

on_both_stores!(
    websocket_messages_refuse_unknown_fields,
    sessions_sign_out_and_expire_and_names_are_checked,
    analysis_is_a_teaching_aid_against_house_bots_and_open_to_all_after_the_end,
    a_clocked_game_nobody_started_is_aborted_without_a_result,
    sessions_and_unfinished_games_are_bounded_and_idle_games_abandoned,
    a_kill_around_a_rated_end_leaves_both_ratings_or_neither,
);

/// Every message type of both WebSockets refuses a field it does not know, and the refused
/// message changes nothing.
async fn websocket_messages_refuse_unknown_fields(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let alice = Client::person(&serve.base, "alice").await;
    let game = alice
        .create(common::house("go", json!({"size": 5}), "random", "black"))
        .await;
    let id = game["id"].as_str().unwrap();
    let (mut socket, state) = alice.watch(id).await;
    assert_eq!(state["position"]["ply"], 0);
    for message in [
        json!({"type": "resign", "x": 1}),
        json!({"type": "move", "move": "cc", "ply": 0, "x": 1}),
    ] {
        socket.send(message.clone()).await;
        assert_eq!(socket.error().await, "bad-json", "{message}");
    }
    let now = alice.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(
        (now["status"].as_str(), now["position"]["ply"].as_u64()),
        (Some("live"), Some(0)),
        "the refused messages changed nothing"
    );
    // An opponent of the invite kind with a stray field is refused too.
    let stray = alice
        .post(
            "/api/games",
            json!({"game": "go", "opponent": {"kind": "invite", "x": 1}}),
        )
        .await;
    assert_eq!((stray.status, stray.code()), (400, "bad-json"));

    let token = register(&alice, "Strict").await;
    let mut bot = Bot::open(&serve.base, &token).await.unwrap();
    bot.send(json!({"type": "hello", "protocol": 1, "x": 1}))
        .await;
    assert_eq!(bot.expect("error").await["code"], "bad-request");
    let mut bot = Bot::connect(&serve.base, &token, "Strict").await;
    for message in [
        json!({"type": "hello", "protocol": 1, "x": 1}),
        json!({"type": "accept", "challenge": "c", "x": 1}),
        json!({"type": "decline", "challenge": "c", "x": 1}),
        json!({"type": "seek", "game": "go", "x": 1}),
        json!({"type": "cancel-seek", "x": 1}),
        json!({"type": "move", "game_id": id, "move": "cc", "ply": 0, "x": 1}),
        json!({"type": "resign", "game_id": id, "x": 1}),
        json!({"type": "draw", "game_id": id, "x": 1}),
        json!({"type": "abort", "game_id": id, "x": 1}),
        json!({"type": "challenge", "game": "go", "opponent": {"kind": "invite"}, "x": 1}),
        json!({"type": "arena", "game": "go", "clock": {"initial_s": 60}, "x": 1}),
        json!({"type": "leave-arena", "x": 1}),
        json!({"type": "join-tournament", "tournament": "t", "x": 1}),
    ] {
        bot.send(message.clone()).await;
        let error = bot.expect("error").await;
        assert_eq!(error["code"], "bad-json", "{message}: {error}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("unknown field `x`"),
            "{message}: {error}"
        );
    }
    // None of them was taken: no seek is open, and the game is untouched.
    let now = alice.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(now["position"]["ply"], 0);
}

/// A page of another origin cannot act with a player's cookie (no WebSocket, no POST), the
/// server's own page and `--allowed-origin` can, and every response carries the security
/// headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_origin_requests_are_refused_and_security_headers_are_set() {
    let (serve, _site) = serve(
        Store::Sqlite,
        &["--allowed-origin", "https://play.example.org"],
    )
    .await;
    let base = &serve.base;
    let host = base.strip_prefix("http://").unwrap();
    let alice = Client::person(base, "alice").await;
    let cookie = alice.cookie.clone().unwrap();
    let game = alice
        .create(json!({"game": "go", "params": {"size": 5}, "opponent": {"kind": "invite"}}))
        .await;
    let id = game["id"].as_str().unwrap();
    let ws_url = format!("{}/api/games/{id}/ws", base.replacen("http", "ws", 1));

    let upgrade = |origin: Option<&str>| {
        let mut request = ws_url.as_str().into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Cookie", cookie.parse().unwrap());
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("Origin", origin.parse().unwrap());
        }
        request
    };
    let status = |result: Result<_, tokio_tungstenite::tungstenite::Error>| match result {
        Ok(_) => 101,
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("{e}"),
    };
    let own = format!("http://{host}");
    let sibling = format!("http://127.0.0.1:{}", serve_port(base) + 1);
    for (origin, expected) in [
        (None, 101),
        (Some(own.as_str()), 101),
        (Some("https://play.example.org"), 101),
        (Some(sibling.as_str()), 403),
        (Some("http://evil.example"), 403),
        (Some("null"), 403),
    ] {
        let result = tokio_tungstenite::connect_async(upgrade(origin)).await;
        assert_eq!(status(result.map(|_| ())), expected, "{origin:?}");
    }

    let http = reqwest::Client::new();
    let post = |origin: &str| {
        http.post(format!("{base}/api/games/{id}/resign"))
            .header("Cookie", &cookie)
            .header(ORIGIN, origin)
            .header(HOST, host)
            .json(&json!({}))
            .send()
    };
    let refused = post("http://evil.example").await.unwrap();
    assert_eq!(refused.status(), 403);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "cross-origin");
    let now = alice.get(&format!("/api/games/{id}")).await.success();
    assert_ne!(
        now["status"], "over",
        "the refused resignation changed nothing"
    );

    for path in [
        "/",
        "/api/rules",
        "/api/no-such-route",
        "/assets/app.js",
        "/nowhere",
    ] {
        let response = http.get(format!("{base}{path}")).send().await.unwrap();
        let headers = response.headers();
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        assert!(
            header("content-security-policy").is_some_and(|v| v.contains("frame-ancestors 'none'")),
            "{path}: {headers:?}"
        );
        assert_eq!(header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(header("referrer-policy"), Some("no-referrer"), "{path}");
    }
}

/// The port of a `http://127.0.0.1:PORT` address.
fn serve_port(base: &str) -> u16 {
    base.rsplit(':').next().unwrap().parse().unwrap()
}

/// Names that hide or reorder text, or pass for a house bot, are refused; a session signs out
/// with `DELETE /api/session`, and one idle for more than 30 days has expired.
async fn sessions_sign_out_and_expire_and_names_are_checked(store: Store) {
    use toroid_server::hub::SESSION_IDLE_MS;
    use toroid_server::ids::{hash_secret, now_ms};
    use toroid_server::storage::{SessionRow, Storage, Write};

    // Two sessions stored before the server starts: one idle for just over 30 days, one
    // used two hours ago.
    let site = Site::new(store).await;
    std::fs::create_dir_all(site.data()).unwrap();
    {
        let storage = Storage::open(&site.url()).await.unwrap();
        let now = now_ms();
        let row = |name: &str, idle: i64| SessionRow {
            id: format!("id-{name}"),
            name: name.into(),
            token_hash: hash_secret(&format!("token-{name}")),
            created_at: now - idle,
            last_seen_at: now - idle,
            account_id: None,
        };
        let writes = vec![
            Write::Session(row("old", SESSION_IDLE_MS + 60_000)),
            Write::Session(row("recent", 2 * 3_600_000)),
        ];
        storage.commit(writes).await.unwrap();
    }
    let serve = site.serve(&[]);
    let base = &serve.base;
    let with_cookie = |name: &str| {
        let mut client = Client::anonymous(base);
        client.cookie = Some(format!("toroid_session=token-{name}"));
        client
    };
    let expired = with_cookie("old").get("/api/session").await;
    assert_eq!((expired.status, expired.code()), (401, "no-session"));
    let recent = with_cookie("recent").get("/api/session").await;
    assert_eq!(
        (recent.status, recent.body["name"].as_str()),
        (200, Some("recent"))
    );

    // Signing out ends the session at once.
    let alice = Client::person(base, "alice").await;
    assert_eq!(alice.get("/api/session").await.status, 200);
    let http = reqwest::Client::new();
    let sign_out = || {
        http.delete(format!("{base}/api/session"))
            .header("Cookie", alice.cookie.as_deref().unwrap())
            .send()
    };
    let out = sign_out().await.unwrap();
    assert_eq!(out.status(), 204);
    let cleared = out.headers()["set-cookie"].to_str().unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    let after = alice.get("/api/session").await;
    assert_eq!((after.status, after.code()), (401, "no-session"));
    assert_eq!(sign_out().await.unwrap().status(), 401);

    // Names.
    let nobody = Client::anonymous(base);
    for name in [
        "max (house bot)",
        "Max-HouseBot",
        "casual (House Bot)",
        "\u{202E}xam",
        "ali\u{200B}ce",
        "bob\u{2066}",
        "tab\there",
        "Émilie 🦀", // a pictograph is no letter of a name
    ] {
        let answer = nobody.post("/api/session", json!({ "name": name })).await;
        assert_eq!(
            (answer.status, answer.code()),
            (400, "bad-request"),
            "{name:?}"
        );
    }
    let ok = nobody.post("/api/session", json!({"name": "Émilie"})).await;
    assert_eq!(ok.status, 201);
    let bob = Client::person(base, "bob").await;
    let bot = bob.post("/api/bots", json!({"name": "max-housebot"})).await;
    assert_eq!((bot.status, bot.code()), (400, "bad-request"));
}

/// A TCP connection to the server from the loopback address `127.0.0.{last}`.
async fn connect_from(last: u8, port: u16) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(std::net::SocketAddr::from(([127, 0, 0, last], 0)))?;
    socket
        .connect(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
        .await
}

/// Waits until the server closes `stream`; how long that took, or `None` after `limit`.
async fn closed_within(stream: &mut tokio::net::TcpStream, limit: Duration) -> Option<Duration> {
    use tokio::io::AsyncReadExt;
    let started = Instant::now();
    let mut buffer = [0u8; 4096];
    tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return started.elapsed(),
                Ok(_) => {}
            }
        }
    })
    .await
    .ok()
}

/// A fresh client's `GET /api/rules`: its status and how long it took.
async fn fresh_get(base: &str) -> (u16, Duration) {
    let started = Instant::now();
    let status = reqwest::Client::new()
        .get(format!("{base}/api/rules"))
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .map_or(0, |r| r.status().as_u16());
    (status, started.elapsed())
}

/// Point 1: a connection that sends half a request head, or sends nothing after a
/// response, is closed after the header timeout, and a body that stalls is refused; a WebSocket peer that stops answering
/// pings is dropped while one that answers stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_idle_and_silent_connections_are_closed() {
    use tokio::io::AsyncWriteExt;
    let (serve, _site) = serve(
        Store::Sqlite,
        &["--header-timeout", "1s", "--ping-interval", "200ms"],
    )
    .await;
    let port = serve_port(&serve.base);

    let mut half = connect_from(1, port).await.unwrap();
    half.write_all(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let mut silent = connect_from(1, port).await.unwrap();
    let mut kept_alive = connect_from(1, port).await.unwrap();
    kept_alive
        .write_all(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut trickle = connect_from(1, port).await.unwrap();
    trickle
        .write_all(
            b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n\
              Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"na",
        )
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(3), async {
        use tokio::io::AsyncReadExt;
        let mut head = vec![0u8; 12];
        trickle.read_exact(&mut head).await.map(|_| head)
    })
    .await;
    let answer = answer.expect("a stalled body is cut off").unwrap();
    assert!(
        answer.starts_with(b"HTTP/1.1 4"),
        "a stalled body is refused: {}",
        String::from_utf8_lossy(&answer)
    );
    for (what, stream) in [
        ("half a request head", &mut half),
        ("nothing", &mut silent),
        ("nothing after a response", &mut kept_alive),
    ] {
        let closed = closed_within(stream, Duration::from_secs(5)).await;
        assert!(
            closed.is_some_and(|after| after < Duration::from_secs(3)),
            "a connection that sent {what} was closed after {closed:?}"
        );
    }

    // Two game watchers: one reads (and so answers pings), one never reads.
    let alice = Client::person(&serve.base, "alice").await;
    let game = alice
        .create(common::house("go", json!({"size": 5}), "random", "black"))
        .await;
    let url = format!(
        "{}/api/games/{}/ws",
        serve.base.replace("http", "ws"),
        game["id"].as_str().unwrap()
    );
    let (mut answering, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let (mut deaf, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let mut pings = 0;
    let listening = Instant::now();
    while listening.elapsed() < Duration::from_millis(1500) {
        let message = tokio::time::timeout(Duration::from_millis(300), answering.next()).await;
        match message {
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(_))) | Err(_) => {}
            Ok(other) => panic!("the answering watcher was dropped: {other:?}"),
        }
    }
    assert!(pings >= 4, "{pings} pings in 1.5 s at one per 200 ms");
    // The deaf one has been silent for 1.5 s, more than three ping intervals: its queue
    // holds the state and the pings, then the connection ends without a pong asked back.
    let ended = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(Ok(_)) = deaf.next().await {}
    })
    .await;
    assert!(ended.is_ok(), "the deaf watcher was not dropped");
}

/// Point 1: attackers from many addresses hold every connection the server allows, waiting
/// and reconnecting; a fresh client is still served at once, each time, because a newcomer
/// takes the place of the connection that has waited longest. An address over its share
/// is closed at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_attackers_cannot_lock_out_a_fresh_client() {
    let (serve, _site) = serve(
        Store::Sqlite,
        &[
            "--max-connections",
            "64",
            "--max-connections-per-ip",
            "16",
            "--header-timeout",
            "60s",
        ],
    )
    .await;
    let port = serve_port(&serve.base);

    // One address over its share: the 17th connection is closed at once.
    let mut own = Vec::new();
    for _ in 0..16 {
        own.push(connect_from(20, port).await.unwrap());
    }
    let mut extra = connect_from(20, port).await.unwrap();
    let closed = closed_within(&mut extra, Duration::from_secs(2)).await;
    assert!(
        closed.is_some(),
        "the 17th connection of one address was kept"
    );
    drop(own);

    // Five addresses, 16 connections each: 80 for 64 places. Each attacker reconnects as
    // soon as it is closed, until the deadline.
    let deadline = Instant::now() + Duration::from_secs(4);
    let closes = Arc::new(AtomicUsize::new(0));
    let mut attackers = tokio::task::JoinSet::new();
    for last in 2..7 {
        for _ in 0..16 {
            let closes = closes.clone();
            attackers.spawn(async move {
                while Instant::now() < deadline {
                    let Ok(mut stream) = connect_from(last, port).await else {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    };
                    let left = deadline.saturating_duration_since(Instant::now());
                    if closed_within(&mut stream, left).await.is_some() {
                        closes.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    }
    // The server closes a connection to make room only once every place is taken.
    common::eventually("the attackers fill the server", || {
        std::future::ready((closes.load(Ordering::Relaxed) > 0).then_some(()))
    })
    .await;
    for attempt in 0..3 {
        let (status, took) = fresh_get(&serve.base).await;
        assert_eq!(status, 200, "attempt {attempt}");
        assert!(
            took < Duration::from_secs(1),
            "attempt {attempt} took {took:?}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert!(
        Instant::now() < deadline,
        "the attempts ended after the attackers had stopped"
    );
    while let Some(done) = attackers.join_next().await {
        done.unwrap();
    }
    let closes = closes.load(Ordering::Relaxed);
    assert!(
        closes >= 16,
        "{closes} attacker connections were closed to make room"
    );
}

/// Point 4: during a live game, analysis is given only to a person playing a house bot;
/// spectators, clients with no session, and players of a game between people get
/// `403 no-analysis`; after the end everyone gets it. Each game's state says which.
async fn analysis_is_a_teaching_aid_against_house_bots_and_open_to_all_after_the_end(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let alice = Client::person(&serve.base, "alice").await;
    let bob = Client::person(&serve.base, "bob").await;
    let nobody = Client::anonymous(&serve.base);
    let analysis = |id: &str| format!("/api/games/{id}/analysis?ms=50");

    let taught = alice
        .create(common::house("go", json!({"size": 5}), "random", "black"))
        .await;
    let taught = taught["id"].as_str().unwrap();
    let answer = alice.get(&analysis(taught)).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    assert!(answer.body["simulations"].as_u64().unwrap() > 0);
    assert_eq!(
        alice.get(&format!("/api/games/{taught}")).await.success()["analysis"],
        true
    );
    for (who, client) in [("a spectator", &bob), ("no session", &nobody)] {
        let refused = client.get(&analysis(taught)).await;
        assert_eq!(
            (refused.status, refused.code()),
            (403, "no-analysis"),
            "{who}"
        );
        let state = client.get(&format!("/api/games/{taught}")).await.success();
        assert_eq!(state["analysis"], false, "{who}");
    }

    let created = alice
        .create(
            json!({"game": "go", "params": {"size": 5}, "color": "black",
            "opponent": {"kind": "invite"}}),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    let joined = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"code": common::invite_code(&created)}),
        )
        .await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "cc", "ply": 0}),
        )
        .await
        .success();
    for (who, client) in [("black", &alice), ("white", &bob), ("no session", &nobody)] {
        let refused = client.get(&analysis(id)).await;
        assert_eq!(
            (refused.status, refused.code()),
            (403, "no-analysis"),
            "{who}"
        );
    }
    let state = alice.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(
        (state["status"].as_str(), state["position"]["ply"].as_u64()),
        (Some("live"), Some(1)),
        "the refusals changed nothing"
    );

    let resigned = bob
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(resigned.status, 200);
    for (who, client) in [("black", &alice), ("white", &bob), ("no session", &nobody)] {
        let answer = client.get(&analysis(id)).await;
        assert_eq!(answer.status, 200, "{who} after the end: {:?}", answer.body);
    }
}

/// Point 11: a clocked game in which a side has not made its first move in time is aborted
/// without a result, not lost on time, whether black never starts or white never answers.
async fn a_clocked_game_nobody_started_is_aborted_without_a_result(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let alice = Client::person(&serve.base, "alice").await;
    let bob = Client::person(&serve.base, "bob").await;
    let clocked = |opponent: Value| {
        json!({"game": "go", "params": {"size": 5}, "color": "black",
            "clock": {"initial_s": 1, "increment_s": 0}, "opponent": opponent})
    };
    // Black never moves against a house bot.
    let unstarted = alice
        .create(clocked(json!({"kind": "house", "level": "random"})))
        .await;
    // White (a person) never answers black's first move.
    let created = alice.create(clocked(json!({"kind": "invite"}))).await;
    let unanswered = created["id"].as_str().unwrap();
    let join = json!({"code": common::invite_code(&created)});
    bob.post(&format!("/api/games/{unanswered}/join"), join)
        .await
        .success();
    let moved = alice
        .post(
            &format!("/api/games/{unanswered}/moves"),
            json!({"move": "cc", "ply": 0}),
        )
        .await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);

    for id in [unstarted["id"].as_str().unwrap(), unanswered] {
        let (mut socket, first) = alice.watch(id).await;
        let over = match first["status"] == "finished" {
            true => first,
            false => socket.state_until(|s| s["status"] == "finished").await,
        };
        assert_eq!(
            (&over["result"]["winner"], &over["result"]["reason"]),
            (&json!("draw"), &json!("abort")),
            "{over}"
        );
        let (_, _, sgf) = alice.get_text(&format!("/api/games/{id}/sgf")).await;
        assert!(sgf.contains("RE[Void]"), "{sgf}");
    }
}

/// Point 8: invite codes are stored only as hashes. The creator's link lives in the memory
/// of the server that made it; after a restart the old code still opens the game, and the
/// creator can replace it with a new link, which shuts the old one out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invite_codes_are_stored_hashed_and_can_be_replaced() {
    use toroid_server::ids::hash_secret;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let serve = Serve::start(&data);
    let alice = Client::person(&serve.base, "alice").await;
    let invite = json!({"game": "go", "params": {"size": 5}, "opponent": {"kind": "invite"}});
    let kept = alice.create(invite.clone()).await;
    let renewed = alice.create(invite).await;
    let codes = [&kept, &renewed].map(common::invite_code);
    let ids = [&kept, &renewed].map(|g| g["id"].as_str().unwrap().to_string());
    let bob = Client::person(&serve.base, "bob").await;
    serve.kill();

    let mut stored = Vec::new();
    for entry in std::fs::read_dir(&data).unwrap() {
        stored.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    let holds = |text: &str| stored.windows(text.len()).any(|w| w == text.as_bytes());
    for code in &codes {
        assert!(!holds(code), "the database holds an invite code");
        assert!(
            holds(&hash_secret(code)),
            "the database lacks a code's hash"
        );
    }

    let serve = Serve::start(&data);
    let (alice, bob) = (alice.at(&serve.base), bob.at(&serve.base));
    let state = alice.get(&format!("/api/games/{}", ids[0])).await.success();
    assert_eq!(
        state["invite"],
        Value::Null,
        "the link is gone after a restart"
    );
    let joined = bob.post("/api/join", json!({"code": codes[0]})).await;
    assert_eq!(joined.status, 200, "the old code still opens its game");

    let renew = format!("/api/games/{}/invite", ids[1]);
    let refused = bob.post(&renew, json!({})).await;
    assert_eq!((refused.status, refused.code()), (403, "not-a-player"));
    let started = alice
        .post(&format!("/api/games/{}/invite", ids[0]), json!({}))
        .await;
    assert_eq!((started.status, started.code()), (409, "conflict"));
    let fresh = alice.post(&renew, json!({})).await;
    assert_eq!(fresh.status, 200, "{:?}", fresh.body);
    let fresh_code = common::invite_code(&fresh.body);
    assert_ne!(fresh_code, codes[1]);
    let old = bob.post("/api/join", json!({"code": codes[1]})).await;
    assert_eq!((old.status, old.code()), (404, "not-found"));
    let joined = bob.post("/api/join", json!({"code": fresh_code})).await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    assert_eq!(joined.body["status"], "live");
}

/// Runs `sql` on the SQLite database in `data` (while a server may hold it).
async fn run_sql(data: &std::path::Path, sql: &[&str]) {
    use sqlx::Connection;
    let url = format!("sqlite://{}", data.join("toroid.sqlite3").display());
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    for statement in sql {
        sqlx::query(statement).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
}

/// Point 9, damaged files: a header of garbage, an empty file, and a truncated file are each
/// refused within seconds, with an error that names the file and the cause.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_database_file_is_refused_at_once_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let make = |name: &str, bytes: &[u8]| {
        let data = dir.path().join(name);
        std::fs::create_dir_all(&data).unwrap();
        std::fs::write(data.join("toroid.sqlite3"), bytes).unwrap();
        data
    };
    let garbage = make("garbage", &b"this is no database; ".repeat(400));
    let empty = make("empty", b"");

    // A real database with many games, written out of its log, then cut in half.
    let truncated = dir.path().join("truncated");
    {
        let serve = Serve::start(&truncated);
        let alice = Client::person(&serve.base, "alice").await;
        for _ in 0..20 {
            alice
                .create(
                    json!({"game": "go", "params": {"size": 19}, "opponent": {"kind": "invite"},
                    "color": "black"}),
                )
                .await;
        }
        serve.kill();
    }
    run_sql(&truncated, &["PRAGMA wal_checkpoint(TRUNCATE)"]).await;
    let file = truncated.join("toroid.sqlite3");
    let length = std::fs::metadata(&file).unwrap().len();
    assert!(length >= 4 * 4096, "{length} bytes: too small to cut");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(length / 2)
        .unwrap();

    for (data, cause) in [
        (&garbage, "not a database"),
        (&empty, "empty"),
        (&truncated, "malformed"),
    ] {
        let (status, stderr, took) = Serve::refused(data);
        assert!(!status.success(), "{data:?} was served");
        assert!(
            took < Duration::from_secs(10),
            "{data:?}: refused after {took:?}"
        );
        let path = data.canonicalize().unwrap().join("toroid.sqlite3");
        assert!(
            stderr.contains(&path.display().to_string()) && stderr.contains(cause),
            "{data:?}: the error names neither the file nor '{cause}': {stderr}"
        );
    }
}

/// Point 9, damaged rows: a live game with corrupt parameters, a finished game with a corrupt
/// seat, and a live game with a missing move are set aside (logged with their ids, answered
/// `503 unavailable`), while every other game goes on and lists still work. A commit that
/// keeps failing is retried with a growing wait, not in a loop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damaged_games_are_set_aside_and_failing_commits_back_off() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let serve = Serve::start(&data);
    let alice = Client::person(&serve.base, "alice").await;
    let bob = Client::person(&serve.base, "bob").await;
    // Four games between alice and bob, with `plies` moves each.
    let mut ids = Vec::new();
    for plies in [2, 1, 1, 3] {
        let created = alice
            .create(
                json!({"game": "go", "params": {"size": 5}, "color": "black",
                "opponent": {"kind": "invite"}}),
            )
            .await;
        let id = created["id"].as_str().unwrap().to_string();
        let join = json!({"code": common::invite_code(&created)});
        bob.post(&format!("/api/games/{id}/join"), join)
            .await
            .success();
        for (ply, mv) in ["aa", "bb", "cc"].iter().enumerate().take(plies) {
            let player = if ply.is_multiple_of(2) { &alice } else { &bob };
            let answer = player
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({"move": mv, "ply": ply}),
                )
                .await;
            assert_eq!(answer.status, 200, "{:?}", answer.body);
        }
        ids.push(id);
    }
    let [good, bad_params, bad_seat, gap] = [0, 1, 2, 3].map(|i| ids[i].clone());
    alice
        .post(&format!("/api/games/{bad_seat}/resign"), json!({}))
        .await
        .success();
    serve.kill();
    run_sql(
        &data,
        &[
            &format!("UPDATE games SET params = '{{\"size\": ' WHERE id = '{bad_params}'"),
            &format!("UPDATE games SET white = '{{\"kind\": 7}}' WHERE id = '{bad_seat}'"),
            &format!("DELETE FROM moves WHERE game_id = '{gap}' AND ply = 1"),
        ],
    )
    .await;

    let log = dir.path().join("serve.log");
    let serve = Serve::start_logged(&data, &log);
    let (alice, bob) = (alice.at(&serve.base), bob.at(&serve.base));
    let listed = alice.get("/api/games?limit=50").await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    let listed: Vec<&str> = listed
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(
        listed.contains(&good.as_str()) && !listed.contains(&bad_seat.as_str()),
        "{listed:?}"
    );
    for id in [&bad_params, &bad_seat, &gap] {
        let answer = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!((answer.status, answer.code()), (503, "unavailable"), "{id}");
        assert!(answer.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains(id.as_str()));
    }
    let moved = alice
        .post(
            &format!("/api/games/{good}/moves"),
            json!({"move": "cc", "ply": 2}),
        )
        .await;
    assert_eq!(
        moved.status, 200,
        "the undamaged game goes on: {:?}",
        moved.body
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    for id in [&bad_params, &bad_seat, &gap] {
        assert!(
            logged
                .lines()
                .any(|l| l.contains("set aside") && l.contains(id.as_str())),
            "no log line sets {id} aside: {logged}"
        );
    }
    assert!(logged.contains("move 1 is missing"), "{logged}");

    // Every move write fails: the house bot's move is retried with a growing wait.
    run_sql(
        &data,
        &["CREATE TRIGGER injected_fault BEFORE INSERT ON moves
           BEGIN SELECT RAISE(ABORT, 'injected fault'); END"],
    )
    .await;
    let created = bob
        .create(
            json!({"game": "go", "params": {"size": 5}, "color": "white",
            "opponent": {"kind": "house", "level": "random"}}),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    let failures = std::fs::read_to_string(&log)
        .unwrap()
        .matches("injected fault")
        .count();
    assert!(
        (1..=8).contains(&failures),
        "{failures} failed commits in 4 s: retries must back off"
    );
    run_sql(&data, &["DROP TRIGGER injected_fault"]).await;
    let (mut socket, first) = bob.watch(id).await;
    if first["position"]["ply"] == 0 {
        let moved = socket.state_until(|s| s["position"]["ply"] == 1).await;
        assert_eq!(moved["status"], "live");
    }
}

/// Point 10: a clean stop (SIGTERM) leaves everything in the database file itself, so that
/// a copy of that one file holds every game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clean_stop_leaves_a_whole_database_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let serve = Serve::start(&data);
    let (alice, bob) = (
        Client::person(&serve.base, "alice").await,
        Client::person(&serve.base, "bob").await,
    );
    let id = play_a_little(&alice, &bob, 4).await;
    serve.stop();
    let wal = data.join("toroid.sqlite3-wal");
    assert_eq!(
        std::fs::metadata(&wal).map_or(0, |m| m.len()),
        0,
        "the log is not empty"
    );

    let copy = dir.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(data.join("toroid.sqlite3"), copy.join("toroid.sqlite3")).unwrap();
    let serve = Serve::start(&copy);
    let state = alice.at(&serve.base).get(&format!("/api/games/{id}")).await;
    assert_eq!(state.status, 200, "{:?}", state.body);
    assert_eq!(state.body["position"]["ply"], 4);
}

/// Creates a game between `alice` (black) and `bob` and plays `plies` moves; its id.
async fn play_a_little(alice: &Client, bob: &Client, plies: usize) -> String {
    let created = alice
        .create(
            json!({"game": "go", "params": {"size": 19}, "color": "black",
            "opponent": {"kind": "invite"}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let join = json!({"code": common::invite_code(&created)});
    let mut state = bob
        .post(&format!("/api/games/{id}/join"), join)
        .await
        .success();
    for ply in 0..plies {
        state = play_one(if ply.is_multiple_of(2) { alice } else { bob }, &state).await;
    }
    id
}

/// The player to move in `state` plays its first legal move that is not a pass; the state
/// the server acknowledged.
async fn play_one(player: &Client, state: &Value) -> Value {
    let id = state["id"].as_str().unwrap();
    let position = &state["position"];
    let mv = position["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| *m != "pass")
        .unwrap();
    let answer = player
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "ply": position["ply"]}),
        )
        .await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    answer.body
}

/// Point 10: `toroid backup` taken while four games are being played holds every move that
/// was acknowledged before it began, and a server restored from it serves them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_load_holds_everything_acknowledged_before_it() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let serve = Serve::start(&data);
    let (alice, bob) = (
        Client::person(&serve.base, "alice").await,
        Client::person(&serve.base, "bob").await,
    );
    let running = Arc::new(AtomicBool::new(true));
    let mut games = Vec::new();
    for _ in 0..4 {
        let id = play_a_little(&alice, &bob, 0).await;
        let acknowledged = Arc::new(AtomicUsize::new(0));
        let (alice, bob, running, counter) = (
            alice.at(&serve.base),
            bob.at(&serve.base),
            running.clone(),
            acknowledged.clone(),
        );
        let task = tokio::spawn({
            let id = id.clone();
            async move {
                let mut state = alice.get(&format!("/api/games/{id}")).await.success();
                while running.load(Ordering::SeqCst) {
                    // Four games at four moves a second stay under the per-address rate.
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    let ply = state["position"]["ply"].as_u64().unwrap() as usize;
                    state =
                        play_one(if ply.is_multiple_of(2) { &alice } else { &bob }, &state).await;
                    counter.store(ply + 1, Ordering::SeqCst);
                }
            }
        });
        games.push((id, acknowledged, task));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let before: Vec<usize> = games.iter().map(|g| g.1.load(Ordering::SeqCst)).collect();
    let backup = dir.path().join("backup.sqlite3");
    let output = tokio::task::spawn_blocking({
        let (data, backup) = (data.clone(), backup.clone());
        move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_toroid"))
                .args(["backup", "--data"])
                .arg(&data)
                .arg(&backup)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    running.store(false, Ordering::SeqCst);
    let mut after = Vec::new();
    for (_, acknowledged, task) in games.iter_mut() {
        task.await.unwrap();
        after.push(acknowledged.load(Ordering::SeqCst));
    }
    assert!(
        before.iter().zip(&after).all(|(b, a)| a > b && *b > 0),
        "the load ran before and after the backup: {before:?} then {after:?}"
    );
    // A second backup to the same file is refused.
    let again = std::process::Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["backup", "--data"])
        .arg(&data)
        .arg(&backup)
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists"));
    serve.kill();

    let restored = dir.path().join("restored");
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(&backup, restored.join("toroid.sqlite3")).unwrap();
    let serve = Serve::start(&restored);
    let alice = alice.at(&serve.base);
    for ((id, _, _), acknowledged) in games.iter().zip(&before) {
        let state = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(state.status, 200, "{:?}", state.body);
        let plies = state.body["position"]["ply"].as_u64().unwrap() as usize;
        assert!(
            plies >= *acknowledged,
            "game {id}: {plies} moves restored, {acknowledged} acknowledged before the backup"
        );
    }
}

/// Point 5: new sessions are limited per address, unfinished games per address and on the
/// whole server, and a game without a clock that nobody touches is abandoned without a
/// result, which makes room again. Other addresses are still served.
async fn sessions_and_unfinished_games_are_bounded_and_idle_games_abandoned(store: Store) {
    let (serve, _site) = serve(
        store,
        &["--max-unfinished-games", "45", "--abandon-after", "6s"],
    )
    .await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let game = json!({"game": "go", "params": {"size": 5}, "opponent": {"kind": "invite"}});

    // 30 new sessions an hour from one address; the 31st is refused, another address is not.
    for n in 0..30 {
        from(2).sign_in(&format!("guest {n}")).await.unwrap();
    }
    let refused = from(2).sign_in("one too many").await.unwrap_err();
    assert_eq!((refused.status, refused.code()), (429, "limit"));
    from(3).sign_in("elsewhere").await.unwrap();

    // 40 unfinished games from one address, however many sessions make them.
    let mut made = Vec::new();
    for n in 0..2 {
        let player = from(4).sign_in(&format!("maker {n}")).await.unwrap();
        for _ in 0..20 {
            made.push(player.create(game.clone()).await);
        }
    }
    let third = from(4).sign_in("maker 3").await.unwrap();
    let refused = third.post("/api/games", game.clone()).await;
    assert_eq!((refused.status, refused.code()), (429, "limit"));

    // 45 on the whole server: five more from another address, then it is full.
    let other = from(5).sign_in("other").await.unwrap();
    for _ in 0..5 {
        made.push(other.create(game.clone()).await);
    }
    let full = other.post("/api/games", game.clone()).await;
    assert_eq!((full.status, full.code()), (503, "busy"), "{:?}", full.body);

    // Untouched for 6 s, every game is abandoned: no winner, and room again.
    let first = made[0]["id"].as_str().unwrap();
    let (mut socket, state) = other.watch(first).await;
    let over = match state["status"] == "finished" {
        true => state,
        false => socket.state_until(|s| s["status"] == "finished").await,
    };
    assert_eq!(
        (&over["result"]["winner"], &over["result"]["reason"]),
        (&json!("draw"), &json!("abort"))
    );
    // A game leaves the server's count before its end is announced: room at once.
    let again = other.post("/api/games", game.clone()).await;
    assert_eq!(again.status, 201, "{:?}", again.body);
}

/// Point 3: analyses whose clients hang up stop at once: the server's processor time stays
/// still afterwards, and a fresh analysis is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_stops_when_its_client_hangs_up() {
    use tokio::io::AsyncWriteExt;
    let (serve, _site) = serve(Store::Sqlite, &[]).await;
    let alice = Client::person(&serve.base, "alice").await;
    let created = alice
        .create(
            json!({"game": "hex-torus", "params": {"width": 52, "height": 52},
            "color": "black", "opponent": {"kind": "house", "level": "max"}}),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    let port = serve_port(&serve.base);
    let request = format!(
        "GET /api/games/{id}/analysis?ms=2000 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {}\r\n\r\n",
        alice.cookie.as_deref().unwrap()
    );
    let before = serve.cpu_time();
    for _ in 0..30 {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(stream);
    }
    // The last hang-up reaches the server and its search stops within a slice.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after_hang_ups = serve.cpu_time();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = serve.cpu_time() - after_hang_ups;
    let searching = after_hang_ups - before;
    // The analyses ran while their clients waited: 1.5 s in all, most of it on a core.
    assert!(
        searching >= Duration::from_millis(500),
        "the server used only {searching:?} of processor while the clients waited"
    );
    // Searches that ran on would use two cores for 2 s each: 2 s of processor a second.
    assert!(
        idle < Duration::from_millis(300),
        "the server used {idle:?} of processor in the second after every client hung up \
         ({searching:?} during the hang-ups)"
    );
    let fresh = alice.get(&format!("/api/games/{id}/analysis?ms=100")).await;
    assert_eq!(fresh.status, 200, "{:?}", fresh.body);
    let state = alice.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(state["position"]["ply"], 0, "nothing changed");
}

/// Behind a reverse proxy named with `--trusted-proxy`, each client is limited by the
/// address the proxy puts last in `X-Forwarded-For`, not by the proxy's own; the header is
/// ignored from anyone else, so a client cannot pick its address to escape its limits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_names_its_clients() {
    let (serve, _site) = serve(Store::Sqlite, &["--trusted-proxy", "127.0.0.9"]).await;
    let url = format!("{}/api/rules", serve.base);
    let from = |last: u8| {
        reqwest::Client::builder()
            .local_address(std::net::IpAddr::from([127, 0, 0, last]))
            .build()
            .unwrap()
    };
    // GETs through the proxy for one client until it is limited: after its burst of 100,
    // and the 20 a second that came back meanwhile.
    let proxy = from(9);
    let started = Instant::now();
    let mut served = 0;
    while served <= 150 {
        let answer = (proxy.get(&url))
            .header("X-Forwarded-For", "203.0.113.7, 198.51.100.1")
            .send()
            .await
            .unwrap();
        if answer.status() == 429 {
            break;
        }
        assert_eq!(answer.status(), 200);
        served += 1;
    }
    let refilled = (20.0 * started.elapsed().as_secs_f64()).ceil() as usize;
    assert!(
        (100..=100 + refilled).contains(&served),
        "the proxied client was served {served} times before it was limited"
    );
    // Another client through the same proxy is served; so is the proxy's own address.
    let other = (proxy.get(&url))
        .header("X-Forwarded-For", "198.51.100.2")
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);
    // An untrusted client cannot take another address with the header: its own is limited.
    let liar = from(10);
    let mut statuses = Vec::new();
    for n in 0..150 {
        let answer = (liar.get(&url))
            .header("X-Forwarded-For", format!("192.0.2.{n}"))
            .send()
            .await
            .unwrap();
        statuses.push(answer.status().as_u16());
    }
    assert!(
        statuses[..100].iter().all(|&s| s == 200) && statuses.contains(&429),
        "the untrusted client is served its burst of 100, then limited: {statuses:?}"
    );
}

/// A rated game's end and both ratings are one transaction: a server killed with SIGKILL at
/// moments around a resignation leaves, after its restart, either the game finished and
/// rated for both players, or the game live and rated for neither; never one without the
/// other. The moments close in on the commit, so that kills land on both sides of it.
async fn a_kill_around_a_rated_end_leaves_both_ratings_or_neither(store: Store) {
    let site = Site::new(store).await;
    let account = json!({"name": "Alice", "password": "correct horse"});
    let (mut finished, mut live) = (0, 0);
    // The kill's delay after the resignation is sent: doubled from 1 ms until a kill comes
    // after the commit, then halfway between the latest kill before and the latest after.
    let (mut before, mut after) = (Duration::ZERO, None::<Duration>);
    let mut delay = Duration::ZERO;
    for round in 0..12 {
        if round >= 6 && finished > 0 && live > 0 {
            break;
        }
        let serve = site.serve(&[]);
        let anyone = Client::anonymous(&serve.base);
        let path = if round == 0 {
            "/api/accounts"
        } else {
            "/api/session"
        };
        let alice = anyone.new_session(path, account.clone()).await.unwrap();
        let game = alice
            .create(json!({"game": "go", "rated": true, "color": "black",
                "clock": {"initial_s": 600}, "opponent": {"kind": "house", "level": "random"}}))
            .await;
        let id = game["id"].as_str().unwrap().to_string();
        // Two moves each: a game resigned sooner changes no rating.
        common::play_until(&[&alice], &id, 4).await;
        let resign = {
            let (alice, id) = (alice.clone(), id.clone());
            tokio::spawn(async move {
                alice
                    .try_post(&format!("/api/games/{id}/resign"), json!({}))
                    .await
            })
        };
        tokio::time::sleep(delay).await;
        serve.kill();
        // Answered or cut off by the kill; an answer must be the resignation.
        let answered = resign.await.unwrap().map(Answer::success).is_some();

        let serve = site.serve(&[]);
        let anyone = Client::anonymous(&serve.base);
        let status = anyone.get(&format!("/api/games/{id}")).await.success()["status"].clone();
        let rated_for = |page: Value| {
            (page["ratings"].as_array().into_iter().flatten())
                .flat_map(|pool| pool["history"].as_array().unwrap().clone())
                .any(|point| point["game_id"] == id.as_str())
        };
        let alice_rated = rated_for(anyone.get("/api/players/alice").await.success());
        let house_rated = rated_for(anyone.get("/api/players/random").await.success());
        match status.as_str() {
            Some("finished") => {
                finished += 1;
                after = Some(delay);
                assert!(
                    alice_rated && house_rated,
                    "round {round}: finished but not rated for both"
                );
            }
            Some("live") => {
                live += 1;
                before = delay;
                assert!(
                    !alice_rated && !house_rated && !answered,
                    "round {round}: live but rated ({alice_rated}, {house_rated}) or resigned \
                     ({answered})"
                );
            }
            other => panic!("round {round}: {other:?}"),
        }
        serve.stop();
        delay = match after {
            None => (delay * 2).max(Duration::from_millis(1)),
            Some(after) => (before + after) / 2,
        };
    }
    eprintln!("after the kills: {finished} finished and rated, {live} live and unrated");
    assert!(
        finished > 0 && live > 0,
        "the kills all landed on one side of the commit: {finished} finished, {live} live"
    );
}

/// The resident memory of process `pid`, in bytes.
fn resident_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = (status.lines())
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS in /proc/PID/status");
    kib * 1024
}

/// Ten sign-ins from each of 30 addresses at once (each within its address's limit, each
/// for a name of its own, so each costs an argon2 hash of 19 MiB): the server's memory stays
/// under 150 MB throughout (it went to 4.1 GB when every hash had a blocking thread of its
/// own), the hashes it cannot take now are refused at once with 503 and Retry-After, and a
/// person signing in from another address meanwhile is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_sign_ins_keeps_memory_bounded_and_serves_a_newcomer() {
    // The issue asks for 300 MB; 150 MB catches a regression (59 MB measured, 230 MB with
    // the bounded threads but without their own reused memory).
    const LIMIT: u64 = 150 * 1024 * 1024;
    let dir = tempfile::tempdir().unwrap();
    let serve = Serve::start(&dir.path().join("data"));
    Client::account(&serve.base, "Newcomer").await;
    let pid = serve.pid();
    eprintln!("resident memory before: {} MB", resident_bytes(pid) >> 20);
    let peak = Arc::new(std::sync::atomic::AtomicU64::new(resident_bytes(pid)));
    let watching = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = std::thread::spawn({
        let (peak, watching) = (peak.clone(), watching.clone());
        move || {
            while watching.load(Ordering::Relaxed) {
                peak.fetch_max(resident_bytes(pid), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    });
    let mut attack = tokio::task::JoinSet::new();
    for a in 0..30u8 {
        let ip = std::net::IpAddr::from([127, 0, 1, a + 1]);
        let client = reqwest::Client::builder()
            .local_address(ip)
            .build()
            .unwrap();
        for n in 0..10 {
            let (client, url) = (client.clone(), format!("{}/api/session", serve.base));
            attack.spawn(async move {
                let guess = json!({"name": format!("victim{a}x{n}"), "password": "123456789"});
                let answer = client.post(url).json(&guess).send().await.unwrap();
                let retry_after = answer.headers().get("retry-after").is_some();
                (answer.status().as_u16(), retry_after)
            });
        }
    }
    let newcomer = Client::anonymous_from(&serve.base, [127, 0, 2, 1].into());
    let welcomed = newcomer
        .new_session(
            "/api/session",
            json!({"name": "newcomer", "password": "correct horse"}),
        )
        .await;
    assert!(
        welcomed.is_ok(),
        "the newcomer is served: {:?}",
        welcomed.err()
    );
    let mut answers = std::collections::BTreeMap::new();
    while let Some(status) = attack.join_next().await {
        *answers.entry(status.unwrap()).or_insert(0) += 1;
    }
    watching.store(false, Ordering::Relaxed);
    watcher.join().unwrap();
    let peak = peak.load(Ordering::Relaxed);
    eprintln!(
        "resident memory peaked at {} MB; answers {answers:?}",
        peak >> 20
    );
    assert!(peak < LIMIT, "resident memory peaked at {} MB", peak >> 20);
    // Wrong guesses, or refused at once saying when to ask again.
    let expected = [(401, false), (503, true)];
    assert!(answers.keys().all(|a| expected.contains(a)), "{answers:?}");
    assert!(
        answers.contains_key(&(503, true)),
        "some were refused: {answers:?}"
    );
}

//! How long an event takes to cross nodes (not a test; docs/scaling.md): two people play Go
//! on a cluster, alice through node A and bob through node B. For each move it measures how
//! long from the mover sending it to its node until the opponent's WebSocket on the other
//! node shows it (the move checked and committed, the event over Redis, the other node's
//! reload from PostgreSQL, the WebSocket message), and how much of that came after the
//! mover's node acknowledged the move. Prints medians and 99th percentiles.
//!
//! ```sh
//! scripts/cluster 2 8090    # prints each node's address
//! cargo run --release -p toroid-server --example crossing -- \
//!     --a http://127.0.0.1:8091 --b http://127.0.0.1:8092 --moves 300
//! ```

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rand::seq::IndexedRandom;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Failure = Box<dyn std::error::Error + Send + Sync>;
type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn option(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = option(&args, "--a").ok_or("--a URL of node A")?;
    let b = option(&args, "--b").ok_or("--b URL of node B")?;
    let moves: usize = option(&args, "--moves").map_or(Ok(300), |n| n.parse())?;
    tokio::runtime::Runtime::new()?.block_on(run(a, b, moves))
}

/// A person with a session on the node at `base`: an HTTP client and the cookie.
struct Person {
    http: reqwest::Client,
    base: String,
    cookie: String,
}

impl Person {
    async fn sign_in(base: &str, name: &str, last: u8) -> Result<Person, Failure> {
        let address = std::net::IpAddr::from([127, 0, 2, last]);
        let http = reqwest::Client::builder().local_address(address).build()?;
        let answer = (http.post(format!("{base}/api/session")))
            .json(&json!({ "name": name }))
            .send()
            .await?;
        let cookie = answer.headers()["set-cookie"].to_str()?;
        let cookie = cookie.split(';').next().unwrap_or_default().to_string();
        Ok(Person {
            http,
            base: base.trim_end_matches('/').to_string(),
            cookie,
        })
    }

    async fn post(&self, path: &str, body: Value) -> Result<Value, Failure> {
        let answer = (self.http.post(format!("{}{path}", self.base)))
            .header("Cookie", &self.cookie)
            .json(&body)
            .send()
            .await?;
        let status = answer.status();
        let body: Value = answer.json().await?;
        match status.is_success() {
            true => Ok(body),
            false => Err(format!("{path}: {status} {body}").into()),
        }
    }

    async fn watch(&self, id: &str) -> Result<Socket, Failure> {
        let url = format!("{}/api/games/{id}/ws", self.base.replacen("http", "ws", 1));
        let mut request = url.into_client_request()?;
        request.headers_mut().insert("Cookie", self.cookie.parse()?);
        Ok(tokio_tungstenite::connect_async(request).await?.0)
    }
}

/// The next game state on `socket` that shows at least `ply` moves.
async fn state_at(socket: &mut Socket, ply: u64) -> Result<Value, Failure> {
    loop {
        let next = tokio::time::timeout(Duration::from_secs(10), socket.next()).await?;
        let Some(Ok(Message::Text(text))) = next else {
            if matches!(next, Some(Ok(_))) {
                continue;
            }
            return Err("the WebSocket closed".into());
        };
        let message: Value = serde_json::from_str(&text)?;
        let state = if message["type"] == "state" {
            &message["game"]
        } else {
            &message
        };
        if state["position"]["ply"].as_u64() >= Some(ply) {
            return Ok(state.clone());
        }
    }
}

async fn run(a: String, b: String, moves: usize) -> Result<(), Failure> {
    let alice = Person::sign_in(&a, "alice", 1).await?;
    let bob = Person::sign_in(&b, "bob", 2).await?;
    let created = alice
        .post(
            "/api/games",
            json!({"game": "go", "params": {"size": 19}, "color": "black",
                "opponent": {"kind": "invite"}}),
        )
        .await?;
    let id = created["id"].as_str().ok_or("no game")?.to_string();
    let code = created["invite"].as_str().ok_or("no invite")?;
    let code = code.rsplit('/').next().unwrap_or_default();
    let mut state = bob.post("/api/join", json!({ "code": code })).await?;
    let mut sockets = [alice.watch(&id).await?, bob.watch(&id).await?];
    let players = [&alice, &bob];
    let (mut delays, mut after_ack) = (Vec::new(), Vec::new());
    for ply in 0..moves as u64 {
        if state["status"] != "live" {
            break;
        }
        let mover = (ply % 2) as usize;
        let legal = state["position"]["legal_moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let placements: Vec<Value> = legal.into_iter().filter(|m| m != "pass").collect();
        let mv = placements
            .choose(&mut rand::rng())
            .cloned()
            .unwrap_or(json!("pass"));
        let path = format!("/api/games/{id}/moves");
        let sent = Instant::now();
        players[mover]
            .post(&path, json!({"move": mv, "ply": ply}))
            .await?;
        let acknowledged = Instant::now();
        state = state_at(&mut sockets[1 - mover], ply + 1).await?;
        delays.push(sent.elapsed());
        after_ack.push(acknowledged.elapsed());
        // The mover's own socket catches up too, so that it holds no old states.
        state_at(&mut sockets[mover], ply + 1).await?;
        // Within the limits on requests per address (20 a second).
        tokio::time::sleep(Duration::from_millis(110)).await;
    }
    delays.sort();
    after_ack.sort();
    let quantile = |times: &[Duration], q: f64| {
        let i = ((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1));
        times.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "crossing: {} moves from node A to B and back; from sending a move to the other node's \
         WebSocket showing it: median {:.1} ms, p99 {:.1} ms; of which after the mover's \
         acknowledgement: median {:.1} ms, p99 {:.1} ms",
        delays.len(),
        quantile(&delays, 0.5),
        quantile(&delays, 0.99),
        quantile(&after_ack, 0.5),
        quantile(&after_ack, 0.99)
    );
    Ok(())
}

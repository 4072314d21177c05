//! Load benchmark (not a test): a server in this process, on a fresh data directory with
//! durable commits, and many bot-vs-bot games over the bot WebSocket on loopback. Prints
//! moves per second and the move latency: from a bot sending its move to its opponent
//! being told it is its turn (the move parsed, checked, committed, announced).
//!
//! ```sh
//! cargo run --release -p toroid-server --example load -- --pairs 100 --seconds 10
//! ```
//!
//! Options: `--pairs N` (bot pairs, each playing one game at a time; default 50),
//! `--seconds S` (default 10), `--game NAME` and `--size N` (default go, 9),
//! `--database URL` (PostgreSQL instead of SQLite), `--base URL` (no server of its own: the
//! one at URL, such as the nginx of `scripts/cluster`; its clients then come from many
//! loopback addresses, 40 bots each, to stay within the limits per address), `--plies N`
//! (each game is resigned once it has N moves, to measure moves at a given game length).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use toroid_server::{Config, Limits, Server};

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// When each move was sent, by (game, the ply after it); the latencies measured so far.
#[derive(Default)]
struct Timings {
    sent: HashMap<(String, u64), Instant>,
    latencies: Vec<Duration>,
    games: u32,
}

fn option(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pairs: usize = option(&args, "--pairs").map_or(Ok(50), |n| n.parse())?;
    let seconds: u64 = option(&args, "--seconds").map_or(Ok(10), |n| n.parse())?;
    let game = option(&args, "--game").unwrap_or_else(|| "go".into());
    let size: u64 = option(&args, "--size").map_or(Ok(9), |n| n.parse())?;
    let database = option(&args, "--database");
    let base = option(&args, "--base");
    let plies: Option<u64> = option(&args, "--plies").map(|n| n.parse()).transpose()?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(run(Run {
        pairs,
        duration: Duration::from_secs(seconds),
        game,
        size,
        database,
        given: base,
        plies,
    }))
}

/// What to run: the options.
struct Run {
    pairs: usize,
    duration: Duration,
    game: String,
    size: u64,
    database: Option<String>,
    /// A server to load instead of one of this process's own.
    given: Option<String>,
    /// Games are resigned at this many moves.
    plies: Option<u64>,
}

/// An HTTP client whose connections come from the loopback address of bot `i`.
fn client_of(i: usize) -> Result<reqwest::Client, Failure> {
    let address = std::net::IpAddr::from([127, 0, 1, (1 + i / 40) as u8]);
    Ok(reqwest::Client::builder().local_address(address).build()?)
}

async fn run(options: Run) -> Result<(), Failure> {
    let Run {
        pairs,
        duration,
        game,
        size,
        database,
        given,
        plies,
    } = options;
    let dir = std::env::temp_dir().join(format!("toroid-load-{}", std::process::id()));
    let backend = match (&given, &database) {
        (Some(base), _) => format!("the server at {base}"),
        (None, Some(_)) => "PostgreSQL".into(),
        (None, None) => "SQLite".into(),
    };
    let bots = 2 * pairs;
    let config = Config {
        port: 0,
        data: dir.clone(),
        database,
        limits: Limits {
            connections_per_ip: bots + 16,
            requests_per_second: 100_000,
            request_burst: 100_000,
            ..Limits::default()
        },
        ..Config::default()
    };
    let server = match given {
        Some(_) => None,
        None => Some(Server::start(config).await?),
    };
    let base = match (&given, &server) {
        (Some(base), _) => base.trim_end_matches('/').to_string(),
        (None, Some(server)) => format!("http://{}", server.addr),
        (None, None) => unreachable!("a server was started"),
    };
    let http = client_of(0)?;
    let session = http
        .post(format!("{base}/api/session"))
        .json(&json!({"name": "load"}))
        .send()
        .await?;
    let cookie = session.headers()["set-cookie"].to_str()?.to_string();
    let cookie = cookie.split(';').next().unwrap_or_default().to_string();
    let timings: Arc<Mutex<Timings>> = Arc::default();
    let params = if game.contains("torus") && game != "torus" {
        json!({"width": size, "height": size})
    } else {
        json!({"size": size})
    };
    let seek = json!({"type": "seek", "game": game, "params": params});
    let mut tasks = Vec::new();
    // Names of their own, so that the benchmark runs again on the same database.
    let run_id = std::process::id();
    for i in 0..bots {
        let created: Value = client_of(i)?
            .post(format!("{base}/api/bots"))
            .header("Cookie", &cookie)
            .json(&json!({"name": format!("load-{run_id}-{i}")}))
            .send()
            .await?
            .json()
            .await?;
        let token = created["token"].as_str().ok_or("no token")?.to_string();
        let url = format!("{}/api/bot/ws", base.replacen("http", "ws", 1));
        let from = std::net::SocketAddr::from(([127, 0, 1, (1 + i / 40) as u8], 0));
        tasks.push(tokio::spawn(bot(
            url,
            token,
            from,
            (seek.clone(), plies),
            timings.clone(),
        )));
    }
    println!(
        "load: {pairs} bot pairs playing {game} {params} for {} s, {backend}, durable commits",
        duration.as_secs()
    );
    // Let the games start, then measure a window of steady play.
    tokio::time::sleep(Duration::from_secs(1)).await;
    timings.lock().unwrap().latencies.clear();
    timings.lock().unwrap().games = 0;
    let start = Instant::now();
    tokio::time::sleep(duration).await;
    let elapsed = start.elapsed().as_secs_f64();
    let (mut latencies, games) = {
        let t = timings.lock().unwrap();
        (t.latencies.clone(), t.games)
    };
    tasks.iter().for_each(|t| t.abort());
    if let Some(server) = server {
        server.stop().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
    latencies.sort();
    let quantile = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "moves: {} in {elapsed:.1} s = {:.0} moves/s; games finished: {}",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        games / 2 // both players count each end
    );
    println!(
        "move latency (sent -> opponent's your-turn): median {:.1} ms, p99 {:.1} ms",
        quantile(0.5),
        quantile(0.99)
    );
    Ok(())
}

/// One bot: seeks, plays random legal moves (or resigns once the game has `plies` moves),
/// seeks again after each game.
async fn bot(
    url: String,
    token: String,
    from: std::net::SocketAddr,
    (seek, plies): (Value, Option<u64>),
    timings: Arc<Mutex<Timings>>,
) -> Result<(), Failure> {
    let mut request = url.into_client_request()?;
    request
        .headers_mut()
        .insert("Authorization", format!("Bearer {token}").parse()?);
    let host = request.uri().authority().ok_or("no host")?.to_string();
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(from)?;
    let stream = socket
        .connect(
            tokio::net::lookup_host(&host)
                .await?
                .next()
                .ok_or("no address")?,
        )
        .await?;
    let (mut socket, _) = tokio_tungstenite::client_async(request, stream).await?;
    let hello = json!({"type": "hello", "protocol": 1});
    socket.send(Message::Text(hello.to_string().into())).await?;
    while let Some(message) = socket.next().await {
        let Message::Text(text) = message? else {
            continue;
        };
        let message: Value = serde_json::from_str(&text)?;
        let reply = match message["type"].as_str() {
            Some("welcome") => Some(seek.clone()),
            Some("your-turn") => {
                let game = message["game_id"].as_str().unwrap_or_default().to_string();
                let ply = message["ply"].as_u64().unwrap_or_default();
                if plies.is_some_and(|plies| ply >= plies) {
                    let resign = json!({"type": "resign", "game_id": game});
                    socket
                        .send(Message::Text(resign.to_string().into()))
                        .await?;
                    continue;
                }
                let now = Instant::now();
                let mut t = timings.lock().unwrap();
                if let Some(sent) = t.sent.remove(&(game.clone(), ply)) {
                    t.latencies.push(now - sent);
                }
                let legal = message["position"]["legal_moves"].as_array().cloned();
                let mv = legal.unwrap_or_default().choose(&mut rand::rng()).cloned();
                mv.map(|mv| {
                    t.sent.insert((game.clone(), ply + 1), Instant::now());
                    json!({"type": "move", "game_id": game, "move": mv, "ply": ply})
                })
            }
            Some("game-over") => {
                timings.lock().unwrap().games += 1;
                Some(seek.clone())
            }
            Some("error") => return Err(format!("refused: {message}").into()),
            _ => None,
        };
        if let Some(reply) = reply {
            socket.send(Message::Text(reply.to_string().into())).await?;
        }
    }
    Ok(())
}

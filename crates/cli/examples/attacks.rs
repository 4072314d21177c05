//! Attack benchmark (not a test) for docs/server.md, "Security and limits": a real
//! `toroid serve` process on loopback, each attack of issue 13 run against it in turn, and
//! during each the latency of a plain `GET /api/rules` from a fresh client (a new
//! connection every time, 20 a second): median and p99. Then a soak: a steady load of games
//! against house bots, with the server's resident memory (RSS) sampled every 10 seconds.
//!
//! ```sh
//! cargo build --release -p toroid
//! cargo run --release -p toroid --example attacks -- --seconds 10 --soak 600
//! ```
//!
//! Options: `--toroid PATH` (default target/release/toroid), `--seconds S` per attack
//! (default 10), `--soak S` (default 600; 0 skips it), `--sign-ins-only` (the sign-in
//! flood alone). Linux only (RSS from /proc).

use std::net::{IpAddr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinSet;

type Failure = Box<dyn std::error::Error + Send + Sync>;

fn option(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let toroid = option(&args, "--toroid").unwrap_or_else(|| "target/release/toroid".into());
    let seconds: u64 = option(&args, "--seconds").map_or(Ok(10), |n| n.parse())?;
    let soak: u64 = option(&args, "--soak").map_or(Ok(600), |n| n.parse())?;
    let runtime = tokio::runtime::Runtime::new()?;
    if args.iter().any(|a| a == "--sign-ins-only") {
        return runtime.block_on(sign_in_flood(&toroid, Duration::from_secs(seconds)));
    }
    runtime.block_on(run(
        toroid,
        Duration::from_secs(seconds),
        Duration::from_secs(soak),
    ))
}

/// `toroid serve` as a child process.
struct Server {
    child: Child,
    base: String,
    port: u16,
    _data: tempfile::TempDir,
}

impl Server {
    fn start(toroid: &str) -> Result<Server, Failure> {
        use std::io::BufRead;
        let data = tempfile::tempdir()?;
        let mut child = Command::new(toroid)
            .args(["serve", "--port", "0", "--data"])
            .arg(data.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line)?;
        let base = (line.split_whitespace())
            .find(|w| w.starts_with("http://"))
            .ok_or("no address")?
            .trim_end_matches('/')
            .to_string();
        let port = base.rsplit(':').next().ok_or("no port")?.parse()?;
        Ok(Server {
            child,
            base,
            port,
            _data: data,
        })
    }

    /// Resident memory in MiB.
    fn rss_mib(&self) -> f64 {
        rss_mib(self.child.id())
    }
}

/// The resident memory of process `pid`, in MiB.
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: f64 = (status.lines())
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn connect_from(last: u8, port: u16) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from(([127, 0, 0, last], 0)))?;
    socket
        .connect(SocketAddr::from(([127, 0, 0, 1], port)))
        .await
}

/// A person's session: a client whose requests carry its cookie, from `ip`.
async fn person(base: &str, name: &str, ip: IpAddr) -> Result<reqwest::Client, Failure> {
    use reqwest::header::{HeaderMap, COOKIE, SET_COOKIE};
    let plain = reqwest::Client::builder().local_address(ip).build()?;
    let answer = plain
        .post(format!("{base}/api/session"))
        .json(&json!({ "name": name }))
        .send()
        .await?;
    let cookie = (answer.headers().get(SET_COOKIE))
        .ok_or("no session (refused)")?
        .to_str()?;
    let mut headers = HeaderMap::new();
    headers.insert(
        COOKIE,
        cookie.split(';').next().unwrap_or_default().parse()?,
    );
    Ok(reqwest::Client::builder()
        .local_address(ip)
        .default_headers(headers)
        .build()?)
}

/// `GET /api/rules` from a fresh client, 20 a second for `duration`: median and p99 in
/// milliseconds, and how many failed.
async fn probe(base: &str, duration: Duration) -> (f64, f64, usize) {
    let mut latencies = Vec::new();
    let mut failed = 0;
    let end = Instant::now() + duration;
    while Instant::now() < end {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .timeout(Duration::from_secs(10))
            .build()
            .expect("a client");
        let started = Instant::now();
        let answer = client.get(format!("{base}/api/rules")).send().await;
        let ok = match answer {
            Ok(r) => r.status() == 200 && r.bytes().await.is_ok(),
            Err(_) => false,
        };
        match ok {
            true => latencies.push(started.elapsed().as_secs_f64() * 1000.0),
            false => failed += 1,
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    latencies.sort_by(f64::total_cmp);
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    (at(0.5), at(0.99), failed)
}

/// Runs `attack` (which must stop when `running` turns false) while probing; one table row.
async fn measure<F>(name: &str, server: &Server, duration: Duration, attack: F)
where
    F: FnOnce(Arc<AtomicBool>) -> JoinSet<()>,
{
    let running = Arc::new(AtomicBool::new(true));
    let mut tasks = attack(running.clone());
    // Let the attack build up first.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (median, p99, failed) = probe(&server.base, duration).await;
    running.store(false, Ordering::SeqCst);
    tasks.abort_all();
    while tasks.join_next().await.is_some() {}
    println!(
        "| {name} | {median:.1} | {p99:.1} | {failed} | {:.0} |",
        server.rss_mib()
    );
}

/// Connections from 17 addresses, 250 each, that connect and then send `opening` (nothing,
/// or half a request head trickled a byte a second), reconnecting when closed.
fn hold_connections(port: u16, opening: &'static [u8], running: Arc<AtomicBool>) -> JoinSet<()> {
    let mut tasks = JoinSet::new();
    for last in 2..19u8 {
        for _ in 0..250 {
            let running = running.clone();
            tasks.spawn(async move {
                while running.load(Ordering::SeqCst) {
                    let Ok(mut stream) = connect_from(last, port).await else {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    };
                    let mut buffer = [0u8; 512];
                    for byte in opening {
                        if stream.write_all(&[*byte]).await.is_err() {
                            break;
                        }
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                    while let Ok(n) = stream.read(&mut buffer).await {
                        if n == 0 {
                            break;
                        }
                    }
                }
            });
        }
    }
    tasks
}

async fn run(toroid: String, duration: Duration, soak: Duration) -> Result<(), Failure> {
    let server = Server::start(&toroid)?;
    let (base, port) = (server.base.clone(), server.port);
    println!("| attack | GET median (ms) | GET p99 (ms) | failed GETs | RSS after (MiB) |");
    println!("| --- | --- | --- | --- | --- |");
    measure("none", &server, duration, |_| JoinSet::new()).await;
    measure(
        "4 250 idle connections from 17 addresses",
        &server,
        duration,
        |running| hold_connections(port, b"", running),
    )
    .await;
    measure(
        "4 250 half request heads, a byte a second",
        &server,
        duration,
        |running| hold_connections(port, b"GET /api/rules HTTP/1.1\r\nHost: x\r\n", running),
    )
    .await;

    // A live game against a house bot, for the WebSocket and analysis attacks.
    let attacker = person(&base, "attacker", [127, 0, 0, 30].into()).await?;
    let game: Value = attacker
        .post(format!("{base}/api/games"))
        .json(
            &json!({"game": "go", "params": {"size": 19}, "color": "black",
            "opponent": {"kind": "house", "level": "random"}}),
        )
        .send()
        .await?
        .json()
        .await?;
    let id = game["id"].as_str().ok_or("no game")?.to_string();
    let ws_url = format!("{}/api/games/{id}/ws", base.replacen("http", "ws", 1));
    measure(
        "1 000 WebSockets that never read, from 4 addresses",
        &server,
        duration,
        |running| {
            let mut tasks = JoinSet::new();
            for n in 0..1000u32 {
                let (url, running) = (ws_url.clone(), running.clone());
                tasks.spawn(async move {
                    while running.load(Ordering::SeqCst) {
                        let Ok(stream) = connect_from(20 + (n % 4) as u8, port).await else {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            continue;
                        };
                        // Held, never read (so pings go unanswered), then opened again.
                        let socket = tokio_tungstenite::client_async(&url, stream).await;
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        drop(socket);
                    }
                });
            }
            tasks
        },
    )
    .await;
    measure(
        "analyses hung up after 50 ms, 30 a second",
        &server,
        duration,
        |running| {
            let mut tasks = JoinSet::new();
            let (attacker, base, id) = (attacker.clone(), base.clone(), id.clone());
            tasks.spawn(async move {
                let mut pending = JoinSet::new();
                while running.load(Ordering::SeqCst) {
                    let request = attacker.get(format!("{base}/api/games/{id}/analysis?ms=2000"));
                    pending.spawn(tokio::time::timeout(
                        Duration::from_millis(50),
                        request.send(),
                    ));
                    tokio::time::sleep(Duration::from_millis(33)).await;
                    while pending.try_join_next().is_some() {}
                }
            });
            tasks
        },
    )
    .await;
    measure(
        "game-creation flood from 8 addresses",
        &server,
        duration,
        |running| {
            let mut tasks = JoinSet::new();
            for last in 40..48u8 {
                let (base, running) = (base.clone(), running.clone());
                tasks.spawn(async move {
                    let mut n = 0;
                    while running.load(Ordering::SeqCst) {
                        n += 1;
                        let Ok(flooder) =
                            person(&base, &format!("flood {n}"), [127, 0, 0, last].into()).await
                        else {
                            continue;
                        };
                        for _ in 0..25 {
                            let _ = flooder
                                .post(format!("{base}/api/games"))
                                .json(&json!({"game": "go", "opponent": {"kind": "invite"}}))
                                .send()
                                .await;
                        }
                    }
                });
            }
            tasks
        },
    )
    .await;
    // Four people play `max` on the largest hex-torus board, moving at once whenever it is
    // their turn, while a fifth plays `casual` on 9×9 Go: how long its bot takes to answer.
    let running = Arc::new(AtomicBool::new(true));
    let mut big = JoinSet::new();
    for n in 0..4u8 {
        let (base, running) = (base.clone(), running.clone());
        big.spawn(async move {
            let ip = [127, 0, 0, 50 + n].into();
            if let Ok(player) = person(&base, &format!("big {n}"), ip).await {
                let game = json!({"game": "hex-torus", "params": {"width": 52, "height": 52},
                    "color": "white", "opponent": {"kind": "house", "level": "max"}});
                while running.load(Ordering::SeqCst) {
                    let _ = play_one_game(&player, &base, &game, &running).await;
                }
            }
        });
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let ((median, p99, failed), replies) =
        tokio::join!(probe(&server.base, duration), bot_replies(&base, duration));
    running.store(false, Ordering::SeqCst);
    big.abort_all();
    println!(
        "| 4 games against `max` on hex-torus 52×52 | {median:.1} | {p99:.1} | {failed} | {:.0} |",
        server.rss_mib()
    );
    println!();
    println!("`casual` on 9×9 Go meanwhile answered in (ms, median / max): {replies}");
    drop(server);

    sign_in_flood(&toroid, duration).await?;

    if soak.is_zero() {
        return Ok(());
    }
    // A fresh server, and 20 games of 9×9 Go against `casual` played without pause, a new
    // one for each that ends.
    let server = Server::start(&toroid)?;
    let base = server.base.clone();
    let mut players = JoinSet::new();
    for n in 0..20u8 {
        let base = base.clone();
        players.spawn(async move {
            let Ok(player) = person(&base, &format!("soak {n}"), [127, 0, 0, 60 + n].into()).await
            else {
                return;
            };
            let game = json!({"game": "go", "params": {"size": 9}, "color": "black",
                "opponent": {"kind": "house", "level": "casual"}});
            let running = AtomicBool::new(true);
            loop {
                let _ = play_one_game(&player, &base, &game, &running).await;
            }
        });
    }
    println!();
    println!("| minute | RSS (MiB) |");
    println!("| --- | --- |");
    let started = Instant::now();
    while started.elapsed() < soak {
        tokio::time::sleep(Duration::from_secs(10)).await;
        println!(
            "| {:.1} | {:.0} |",
            started.elapsed().as_secs_f64() / 60.0,
            server.rss_mib()
        );
    }
    players.abort_all();
    Ok(())
}

/// Plays one game of `request` against its house bot, the person's first legal move as
/// soon as it is their turn, until it ends or `running` turns false.
async fn play_one_game(
    player: &reqwest::Client,
    base: &str,
    request: &Value,
    running: &AtomicBool,
) -> Result<(), Failure> {
    let created: Value = (player.post(format!("{base}/api/games")).json(request))
        .send()
        .await?
        .json()
        .await?;
    let id = created["id"].as_str().ok_or("no game")?.to_string();
    let me = created["you"].clone();
    while running.load(Ordering::SeqCst) {
        let state: Value = (player.get(format!("{base}/api/games/{id}")))
            .send()
            .await?
            .json()
            .await?;
        if state["status"] != "live" {
            return Ok(());
        }
        let position = &state["position"];
        if position["to_move"] != me {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let mv = (position["legal_moves"].as_array())
            .and_then(|m| m.iter().find(|m| *m != "pass").or(m.first()))
            .cloned()
            .ok_or("no move")?;
        (player.post(format!("{base}/api/games/{id}/moves")))
            .json(&json!({"move": mv, "ply": position["ply"]}))
            .send()
            .await?;
    }
    Ok(())
}

/// Plays `casual` on 9×9 Go for `duration`: how long its bot took to answer each move, as
/// "median / max" in milliseconds.
async fn bot_replies(base: &str, duration: Duration) -> String {
    let Ok(player) = person(base, "victim", [127, 0, 0, 70].into()).await else {
        return "no session".into();
    };
    let mut replies = Vec::new();
    let end = Instant::now() + duration;
    while Instant::now() < end {
        let request = json!({"game": "go", "params": {"size": 9}, "color": "black",
            "opponent": {"kind": "house", "level": "casual"}});
        match game_replies(&player, base, &request, end).await {
            Ok(mut times) => replies.append(&mut times),
            Err(_) => break,
        }
    }
    replies.sort_unstable();
    match (replies.get(replies.len() / 2), replies.last()) {
        (Some(median), Some(max)) => format!("{median} / {max} over {} moves", replies.len()),
        _ => "no move answered".into(),
    }
}

/// One game of `request` until it ends or `end`: the bot's reply time after each move.
async fn game_replies(
    player: &reqwest::Client,
    base: &str,
    request: &Value,
    end: Instant,
) -> Result<Vec<u128>, Failure> {
    let answer = player
        .post(format!("{base}/api/games"))
        .json(request)
        .send();
    let mut state: Value = answer.await?.json().await?;
    let id = state["id"].as_str().ok_or("no game")?.to_string();
    let mut replies = Vec::new();
    while Instant::now() < end && state["status"] == "live" {
        let position = &state["position"];
        let mv = (position["legal_moves"].as_array())
            .and_then(|m| m.iter().find(|m| *m != "pass").or(m.first()))
            .cloned()
            .ok_or("no move")?;
        let reply_ply = position["ply"].as_u64().ok_or("no ply")? + 2;
        (player.post(format!("{base}/api/games/{id}/moves")))
            .json(&json!({"move": mv, "ply": position["ply"]}))
            .send()
            .await?;
        let sent = Instant::now();
        loop {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let now: Value = (player.get(format!("{base}/api/games/{id}")))
                .send()
                .await?
                .json()
                .await?;
            if now["status"] != "live" || now["position"]["ply"].as_u64() >= Some(reply_ply) {
                replies.push(sent.elapsed().as_millis());
                state = now;
                break;
            }
        }
    }
    Ok(replies)
}

/// Issue 60's first point: 30 addresses each sending 10 sign-ins at once, again and again
/// (each for a name of its own, so each would cost an argon2 hash of 19 MiB), while the
/// owner of an account signs in from her own address every 2 seconds (the limits allow 5
/// in 10 s): the server's peak resident memory, and her sign-ins' median and worst time.
async fn sign_in_flood(toroid: &str, duration: Duration) -> Result<(), Failure> {
    let server = Server::start(toroid)?;
    let base = server.base.clone();
    let account = json!({"name": "newcomer", "password": "correct horse"});
    let owner = reqwest::Client::builder()
        .local_address(IpAddr::from([127, 0, 2, 1]))
        .build()?;
    let made = owner
        .post(format!("{base}/api/accounts"))
        .json(&account)
        .send();
    if made.await?.status() != 201 {
        return Err("the newcomer's account was not made".into());
    }
    let running = Arc::new(AtomicBool::new(true));
    let mut attack = JoinSet::new();
    for a in 0..30u8 {
        let client = reqwest::Client::builder()
            .local_address(IpAddr::from([127, 0, 1, a + 1]))
            .build()?;
        for n in 0..10 {
            let (client, url, running) = (
                client.clone(),
                format!("{base}/api/session"),
                running.clone(),
            );
            attack.spawn(async move {
                let mut round = 0;
                while running.load(Ordering::SeqCst) {
                    let guess =
                        json!({"name": format!("victim{a}x{n}r{round}"), "password": "123456789"});
                    let _ = client.post(&url).json(&guess).send().await;
                    round += 1;
                }
            });
        }
    }
    // The peak, sampled every 10 ms.
    let pid = server.child.id();
    let sampler = std::thread::spawn({
        let running = running.clone();
        move || {
            let mut peak = 0.0f64;
            while running.load(Ordering::SeqCst) {
                peak = peak.max(rss_mib(pid));
                std::thread::sleep(Duration::from_millis(10));
            }
            peak
        }
    });
    let mut times = Vec::new();
    let end = Instant::now() + duration;
    while Instant::now() < end {
        let started = Instant::now();
        let answer = owner
            .post(format!("{base}/api/session"))
            .json(&account)
            .send()
            .await;
        if answer.is_ok_and(|a| a.status() == 201) {
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    running.store(false, Ordering::SeqCst);
    attack.abort_all();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    let worst = times.last().copied().unwrap_or(f64::NAN);
    let peak = sampler.join().map_err(|_| "the sampler failed")?;
    println!();
    println!("| sign-in flood: 30 addresses × 10 at once | peak RSS (MiB) | owner's sign-ins | median (ms) | worst (ms) |");
    println!("| --- | --- | --- | --- | --- |");
    println!(
        "| {toroid} | {peak:.0} | {} | {median:.0} | {worst:.0} |",
        times.len()
    );
    Ok(())
}

//! The chaos test of issue 13: eight games at once (people over HTTP and over the game
//! WebSocket, people against house bots with clocks, two registered bots over the bot
//! WebSocket), the server killed with SIGKILL at 20 random moments and restarted on the same
//! data each time. Every move a client saw acknowledged is found after every restart, every
//! game goes on after every restart, and no client gets an answer it should not.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod process;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{invite_code, register, Client, WAIT};
use futures_util::{SinkExt, StreamExt};
use process::Serve;
use rand::Rng;
use serde_json::{json, Value};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const KILLS: usize = 20;
/// Each player's pause before a move: games last through every kill (19×19 Go ends after
/// 1 083 moves), and no address goes over its request rate.
const PAUSE: Duration = Duration::from_millis(60);

/// The moves of each game as last acknowledged to a client, by game id.
type Acknowledged = Arc<Mutex<HashMap<String, Vec<String>>>>;

/// A player's end: `Ok` once the server is gone (or its game over), `Err` on an answer that
/// no server should give, which would otherwise only show as a game that stops moving.
type Played = Result<(), String>;

/// Records `state`'s moves for its game if they are more than already recorded (answers may
/// arrive out of order across the two players' connections).
fn acknowledge(acked: &Acknowledged, id: &str, position: &Value) {
    let moves: Vec<String> = (position["moves"].as_array())
        .map(|m| m.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    let mut acked = acked.lock().unwrap();
    let known = acked.entry(id.to_string()).or_default();
    if moves.len() > known.len() {
        *known = moves;
    }
}

/// The first legal move of `position` that is not a pass (random-looking enough, and games
/// do not end by passing).
fn first_move(position: &Value) -> Option<Value> {
    (position["legal_moves"].as_array()?.iter())
        .find(|m| *m != "pass" && *m != "end")
        .cloned()
}

fn loopback(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

/// The people and bots, each at its own loopback address so that rate limits per address
/// do not slow the load.
struct Cast {
    people: Vec<(Client, Client)>,
    bots: [String; 2],
}

/// The kinds of game.
#[derive(Clone, Debug)]
enum Kind {
    Http,
    Socket,
    House,
    Bots,
}

/// Plays the first move of `position` in game `id` for `mover`: the new state, `None` if
/// the server is gone, or the refusal (every player keeps under its address's request rate
/// and moves only in its turn, so none is expected).
async fn play_first(mover: &Client, id: &str, position: &Value) -> Result<Option<Value>, String> {
    let Some(mv) = first_move(position) else {
        return Err(format!("game {id}: no move to play in {position}"));
    };
    let body = json!({"move": mv, "ply": position["ply"]});
    match mover
        .try_post(&format!("/api/games/{id}/moves"), body)
        .await
    {
        Some(answer) if answer.status == 200 => Ok(Some(answer.body)),
        Some(answer) => Err(format!(
            "game {id}: move {mv}: {} {}",
            answer.status, answer.body
        )),
        None => Ok(None),
    }
}

/// Plays a game between two people over HTTP until the server goes away.
async fn play_http(black: Client, white: Client, id: String, acked: Acknowledged) -> Played {
    let Some(state) = black.try_get(&format!("/api/games/{id}")).await else {
        return Ok(());
    };
    let mut state = state.success();
    while state["status"] == "live" {
        tokio::time::sleep(PAUSE).await;
        let position = &state["position"];
        let mover = if position["to_move"] == "black" {
            &black
        } else {
            &white
        };
        let Some(next) = play_first(mover, &id, position).await? else {
            return Ok(());
        };
        acknowledge(&acked, &id, &next["position"]);
        state = next;
    }
    Ok(())
}

/// Plays a game between two people over the game WebSocket until the server goes away.
async fn play_socket(black: Client, white: Client, id: String, acked: Acknowledged) -> Played {
    let open = |client: &Client| tokio_tungstenite::connect_async(client.ws_request(&id));
    let (Ok((mut black_ws, _)), Ok((mut white_ws, _))) = (open(&black).await, open(&white).await)
    else {
        return Ok(());
    };
    // The states are read on black's socket, and each ply is answered once (a state may come
    // again, when a player connects); an error on either socket fails the player.
    let mut answered = None;
    loop {
        let (from_black, message) = tokio::select! {
            message = black_ws.next() => (true, message),
            message = white_ws.next() => (false, message),
        };
        let Some(Ok(message)) = message else {
            return Ok(());
        };
        let Message::Text(text) = message else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).unwrap();
        if message["type"] == "error" {
            return Err(format!("game {id}: {message}"));
        }
        if message["type"] != "state" || !from_black {
            continue;
        }
        let state = &message["game"];
        acknowledge(&acked, &id, &state["position"]);
        let position = &state["position"];
        if state["status"] != "live" || answered == position["ply"].as_u64() {
            continue;
        }
        answered = position["ply"].as_u64();
        let Some(mv) = first_move(position) else {
            return Err(format!("game {id}: no move to play in {position}"));
        };
        tokio::time::sleep(PAUSE).await;
        let move_message = json!({"type": "move", "move": mv, "ply": position["ply"]});
        let socket = if position["to_move"] == "black" {
            &mut black_ws
        } else {
            &mut white_ws
        };
        if socket
            .send(Message::Text(move_message.to_string().into()))
            .await
            .is_err()
        {
            return Ok(());
        }
    }
}

/// Plays black against a house bot over HTTP, looking at the game between moves (one
/// request a pause, under the address's rate).
async fn play_house(person: Client, id: String, acked: Acknowledged) -> Played {
    loop {
        tokio::time::sleep(PAUSE).await;
        let Some(state) = person.try_get(&format!("/api/games/{id}")).await else {
            return Ok(());
        };
        let state = state.success();
        acknowledge(&acked, &id, &state["position"]);
        if state["status"] != "live" {
            return Ok(());
        }
        if state["position"]["to_move"] != "black" {
            continue;
        }
        tokio::time::sleep(PAUSE).await;
        match play_first(&person, &id, &state["position"]).await? {
            Some(next) => acknowledge(&acked, &id, &next["position"]),
            None => return Ok(()),
        }
    }
}

/// A registered bot that connects (and sends `seek` if given), then answers every
/// `your-turn` of its games with the first legal move, until the server goes away.
async fn play_bot(base: String, token: String, seek: Option<Value>, acked: Acknowledged) -> Played {
    let url = format!("{}/api/bot/ws", base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    let bearer = format!("Bearer {token}").parse().unwrap();
    request.headers_mut().insert("Authorization", bearer);
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async(request).await else {
        return Ok(());
    };
    let hello = json!({"type": "hello", "protocol": 1});
    for message in std::iter::once(hello).chain(seek) {
        if socket
            .send(Message::Text(message.to_string().into()))
            .await
            .is_err()
        {
            return Ok(());
        }
    }
    while let Some(Ok(message)) = socket.next().await {
        let Message::Text(text) = message else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).unwrap();
        let id = message["game_id"].as_str().unwrap_or_default().to_string();
        match message["type"].as_str() {
            Some("your-turn") => {
                acknowledge(&acked, &id, &message["position"]);
                let Some(mv) = first_move(&message["position"]) else {
                    return Err(format!("game {id}: no move to play in {message}"));
                };
                tokio::time::sleep(PAUSE).await;
                let reply =
                    json!({"type": "move", "game_id": id, "move": mv, "ply": message["ply"]});
                if socket
                    .send(Message::Text(reply.to_string().into()))
                    .await
                    .is_err()
                {
                    return Ok(());
                }
            }
            Some("game-over") => acknowledge(&acked, &id, &message["position"]),
            Some("error") => return Err(format!("bot: {message}")),
            _ => {}
        }
    }
    Ok(())
}

/// Starts every game's players against the server at `base`.
fn start_players(
    base: &str,
    cast: &Cast,
    games: &[(Kind, String)],
    seek: Option<&Value>,
    acked: &Acknowledged,
) -> JoinSet<Played> {
    let mut players = JoinSet::new();
    for (n, (kind, id)) in games.iter().enumerate() {
        let (black, white) = &cast.people[n];
        let (black, white) = (black.at(base), white.at(base));
        let (id, acked) = (id.clone(), acked.clone());
        match kind {
            Kind::Http => players.spawn(play_http(black, white, id, acked)),
            Kind::Socket => players.spawn(play_socket(black, white, id, acked)),
            Kind::House => players.spawn(play_house(black, id, acked)),
            Kind::Bots => continue,
        };
    }
    for token in &cast.bots {
        let seek = seek.cloned();
        players.spawn(play_bot(
            base.to_string(),
            token.clone(),
            seek,
            acked.clone(),
        ));
    }
    players
}

/// Fails with the first player that panicked or met an answer it did not expect.
fn check(ended: Result<Played, tokio::task::JoinError>, when: &str) {
    match ended {
        Ok(Ok(())) => {}
        Ok(Err(error)) => panic!("{when}: {error}"),
        Err(error) => std::panic::resume_unwind(error.into_panic()),
    }
}

/// Waits for every player to stop, the server being gone, and checks how each ended.
async fn stopped(mut players: JoinSet<Played>, when: &str) {
    let all = async {
        while let Some(ended) = players.join_next().await {
            check(ended, when);
        }
    };
    tokio::time::timeout(WAIT, all)
        .await
        .unwrap_or_else(|_| panic!("{when}: a player still runs after the server died"));
}

/// Waits until each of the eight games has more acknowledged moves than in `before` (a game
/// that stalls after a restart, or never starts, fails the test), checking the players
/// that stop meanwhile.
async fn every_game_moves_on(
    acked: &Acknowledged,
    before: &HashMap<String, Vec<String>>,
    games: &[(Kind, String)],
    players: &mut JoinSet<Played>,
    when: &str,
) {
    let counts: Vec<String> = (before.iter())
        .map(|(id, moves)| {
            let kind = games.iter().find(|(_, game)| game == id);
            let kind = kind.map_or(Kind::Bots, |(kind, _)| kind.clone());
            format!("{kind:?} {id}: {}", moves.len())
        })
        .collect();
    let what = format!("{when}: each of the eight games has a move more than {counts:?}");
    common::eventually(&what, || {
        while let Some(ended) = players.try_join_next() {
            check(ended, when);
        }
        let acked = acked.lock().unwrap();
        let moved = acked.len() == 8
            && (acked.iter()).all(|(id, moves)| moves.len() > before.get(id).map_or(0, Vec::len));
        std::future::ready(moved.then_some(()))
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_move_survives_twenty_kills() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut serve = Serve::start(&data);
    let kinds = [
        Kind::Http,
        Kind::Http,
        Kind::Http,
        Kind::Socket,
        Kind::Socket,
        Kind::House,
        Kind::House,
        Kind::Bots,
    ];
    let mut people = Vec::new();
    for n in 0..kinds.len() as u8 {
        let from = |last| Client::anonymous_from(&serve.base, loopback(last));
        let black = from(10 + 2 * n)
            .sign_in(&format!("black {n}"))
            .await
            .unwrap();
        let white = from(11 + 2 * n)
            .sign_in(&format!("white {n}"))
            .await
            .unwrap();
        people.push((black, white));
    }
    let owner = &people[7].0;
    let cast = Cast {
        bots: [
            register(owner, "Chaos1").await,
            register(owner, "Chaos2").await,
        ],
        people,
    };
    let acked: Acknowledged = Arc::default();
    let mut games = Vec::new();
    for (n, kind) in kinds.iter().enumerate() {
        let (black, white) = &cast.people[n];
        let mut request = json!({"game": "go", "params": {"size": 19}, "color": "black"});
        let id = match kind {
            Kind::House => {
                request["opponent"] = json!({"kind": "house", "level": "greedy"});
                request["clock"] = json!({"initial_s": 600, "increment_s": 5});
                black.create(request).await["id"]
                    .as_str()
                    .unwrap()
                    .to_string()
            }
            Kind::Bots => continue,
            _ => {
                request["opponent"] = json!({"kind": "invite"});
                if matches!(kind, Kind::Socket) {
                    request["clock"] = json!({"initial_s": 600, "increment_s": 5});
                }
                let created = black.create(request).await;
                let id = created["id"].as_str().unwrap().to_string();
                let join = json!({"code": invite_code(&created)});
                let joined = white.post(&format!("/api/games/{id}/join"), join).await;
                assert_eq!(joined.status, 200, "{:?}", joined.body);
                id
            }
        };
        games.push((kind.clone(), id));
    }
    // The bots' game: both seek the same, and the server pairs them.
    let seek = json!({"type": "seek", "game": "go", "params": {"size": 19},
                      "clock": {"initial_s": 600, "increment_s": 5}});
    let mut players = start_players(&serve.base, &cast, &games, Some(&seek), &acked);
    every_game_moves_on(
        &acked,
        &HashMap::new(),
        &games,
        &mut players,
        "at the start",
    )
    .await;

    let mut rng = rand::rng();
    for kill in 0..KILLS {
        let when = format!("kill {kill}");
        tokio::time::sleep(Duration::from_millis(rng.random_range(200..700))).await;
        serve.kill();
        stopped(players, &when).await;
        let before = acked.lock().unwrap().clone();
        serve = Serve::start(&data);
        let viewer = cast.people[0].0.at(&serve.base);
        for (id, moves) in &before {
            let state = viewer.get(&format!("/api/games/{id}")).await;
            assert_eq!(state.status, 200, "{when}: game {id}: {:?}", state.body);
            let stored: Vec<&str> = (state.body["position"]["moves"].as_array().unwrap())
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert!(
                stored.len() >= moves.len() && stored[..moves.len()] == moves[..],
                "{when}: game {id} lost acknowledged moves: {} stored, {} acknowledged",
                stored.len(),
                moves.len()
            );
        }
        players = start_players(&serve.base, &cast, &games, None, &acked);
        // Every game goes on after every restart, before the next kill.
        every_game_moves_on(&acked, &before, &games, &mut players, &when).await;
    }
    serve.kill();
    stopped(players, "at the end").await;
    eprintln!(
        "{KILLS} kills; acknowledged moves by game: {:?}",
        acked
            .lock()
            .unwrap()
            .values()
            .map(Vec::len)
            .collect::<Vec<_>>()
    );
}

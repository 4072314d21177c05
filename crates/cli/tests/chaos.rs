//! The chaos test of issue 13: eight games at once (people over HTTP and over the game
//! WebSocket, people against house bots with clocks, two registered bots over the bot
//! WebSocket), the server killed with SIGKILL at 20 random moments and restarted on the same
//! data each time. Every move a client saw acknowledged is found after every restart.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod process;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{invite_code, register, Client};
use futures_util::{SinkExt, StreamExt};
use process::Serve;
use rand::Rng;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const KILLS: usize = 20;
/// Each player's pause before a move: games last through every kill (19×19 Go ends after
/// 1 083 moves), and no address goes over its request rate.
const PAUSE: Duration = Duration::from_millis(60);

/// The moves of each game as last acknowledged to a client, by game id.
type Acknowledged = Arc<Mutex<HashMap<String, Vec<String>>>>;

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

/// The games: (kind, id).
#[derive(Clone)]
enum Kind {
    Http,
    Socket,
    House,
    Bots,
}

/// Plays a game between two people over HTTP until the server goes away.
async fn play_http(black: Client, white: Client, id: String, acked: Acknowledged) {
    let Some(mut state) = black.try_get(&format!("/api/games/{id}")).await else {
        return;
    };
    while state.body["status"] == "live" {
        tokio::time::sleep(PAUSE).await;
        let position = &state.body["position"];
        let mover = if position["to_move"] == "black" {
            &black
        } else {
            &white
        };
        let Some(mv) = first_move(position) else {
            return;
        };
        let body = json!({"move": mv, "ply": position["ply"]});
        let Some(answer) = mover
            .try_post(&format!("/api/games/{id}/moves"), body)
            .await
        else {
            return;
        };
        match answer.status {
            200 => {
                acknowledge(&acked, &id, &answer.body["position"]);
                state = answer;
            }
            _ => match black.try_get(&format!("/api/games/{id}")).await {
                Some(now) => state = now,
                None => return,
            },
        }
    }
}

/// Plays a game between two people over the game WebSocket until the server goes away.
async fn play_socket(black: Client, white: Client, id: String, acked: Acknowledged) {
    let open = |client: &Client| tokio_tungstenite::connect_async(client.ws_request(&id));
    let (Ok((mut black_ws, _)), Ok((mut white_ws, _))) = (open(&black).await, open(&white).await)
    else {
        return;
    };
    // Black's socket is read for the states; white's is only written to.
    while let Some(Ok(message)) = black_ws.next().await {
        let Message::Text(text) = message else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).unwrap();
        if message["type"] != "state" {
            continue;
        }
        let state = &message["game"];
        acknowledge(&acked, &id, &state["position"]);
        if state["status"] != "live" {
            return;
        }
        let position = &state["position"];
        let Some(mv) = first_move(position) else {
            return;
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
            return;
        }
    }
}

/// Plays black against a house bot over HTTP, looking at the game between moves.
async fn play_house(person: Client, id: String, acked: Acknowledged) {
    loop {
        let Some(state) = person.try_get(&format!("/api/games/{id}")).await else {
            return;
        };
        acknowledge(&acked, &id, &state.body["position"]);
        if state.body["status"] != "live" {
            return;
        }
        let position = &state.body["position"];
        tokio::time::sleep(PAUSE).await;
        if position["to_move"] != "black" {
            continue;
        }
        let Some(mv) = first_move(position) else {
            return;
        };
        let body = json!({"move": mv, "ply": position["ply"]});
        match person
            .try_post(&format!("/api/games/{id}/moves"), body)
            .await
        {
            Some(answer) if answer.status == 200 => {
                acknowledge(&acked, &id, &answer.body["position"])
            }
            Some(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            None => return,
        }
    }
}

/// A registered bot that connects (and sends `seek` if given), then answers every
/// `your-turn` of its games with the first legal move, until the server goes away.
async fn play_bot(base: String, token: String, seek: Option<Value>, acked: Acknowledged) {
    let url = format!("{}/api/bot/ws", base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    let bearer = format!("Bearer {token}").parse().unwrap();
    request.headers_mut().insert("Authorization", bearer);
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async(request).await else {
        return;
    };
    let hello = json!({"type": "hello", "protocol": 1});
    for message in std::iter::once(hello).chain(seek) {
        if socket
            .send(Message::Text(message.to_string().into()))
            .await
            .is_err()
        {
            return;
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
                    continue;
                };
                tokio::time::sleep(PAUSE).await;
                let reply =
                    json!({"type": "move", "game_id": id, "move": mv, "ply": message["ply"]});
                if socket
                    .send(Message::Text(reply.to_string().into()))
                    .await
                    .is_err()
                {
                    return;
                }
            }
            Some("game-over") => acknowledge(&acked, &id, &message["position"]),
            _ => {}
        }
    }
}

/// Starts every game's players against the server at `base`.
fn start_players(
    base: &str,
    cast: &Cast,
    games: &[(Kind, String)],
    seek: Option<&Value>,
    acked: &Acknowledged,
) -> tokio::task::JoinSet<()> {
    let mut players = tokio::task::JoinSet::new();
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
    let all_started = async {
        while acked.lock().unwrap().len() < 8 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(20), all_started)
        .await
        .expect("every game, the bots' too, has a move");

    let mut rng = rand::rng();
    for kill in 0..KILLS {
        tokio::time::sleep(Duration::from_millis(rng.random_range(200..700))).await;
        serve.kill();
        players.shutdown().await;
        let before = acked.lock().unwrap().clone();
        serve = Serve::start(&data);
        let viewer = cast.people[0].0.at(&serve.base);
        for (id, moves) in &before {
            let state = viewer.get(&format!("/api/games/{id}")).await;
            assert_eq!(
                state.status, 200,
                "kill {kill}: game {id}: {:?}",
                state.body
            );
            let stored: Vec<&str> = (state.body["position"]["moves"].as_array().unwrap())
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert!(
                stored.len() >= moves.len() && stored[..moves.len()] == moves[..],
                "kill {kill}: game {id} lost acknowledged moves: {} stored, {} acknowledged",
                stored.len(),
                moves.len()
            );
        }
        players = start_players(&serve.base, &cast, &games, None, &acked);
    }
    players.shutdown().await;
    let acked = acked.lock().unwrap();
    let total: usize = acked.values().map(Vec::len).sum();
    eprintln!(
        "{KILLS} kills; acknowledged moves by game: {:?}",
        acked.values().map(Vec::len).collect::<Vec<_>>()
    );
    assert_eq!(
        acked.len(),
        8,
        "eight games were played: {:?}",
        acked.keys()
    );
    assert!(
        total >= 8 * 20,
        "only {total} moves were acknowledged in all"
    );
}

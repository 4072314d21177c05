//! A bot for `toroid serve`'s bot WebSocket (docs/protocol.md, "Bots on the server"): it
//! accepts every challenge, optionally seeks games against other bots, and plays a random
//! legal move whenever it is its turn.
//!
//! ```sh
//! curl -c jar -H 'Content-Type: application/json' -d '{"name":"me"}' localhost:8080/api/session
//! curl -b jar -H 'Content-Type: application/json' -d '{"name":"Rando"}' localhost:8080/api/bots
//! TOROID_BOT_TOKEN=<token> cargo run -p toroid-server --example bot_client -- --seek go
//! ```
//!
//! Options: `--url http://HOST:PORT` (default `http://127.0.0.1:8080`), `--seek GAME` (seek
//! games of that rule set at its defaults, one after another), `--games N` (stop after N).

use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Failure = Box<dyn std::error::Error>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let url = option("--url").unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let seek = option("--seek");
    let games: Option<u32> = option("--games").map(|n| n.parse()).transpose()?;
    let token = std::env::var("TOROID_BOT_TOKEN").map_err(|_| "set TOROID_BOT_TOKEN")?;

    let mut request =
        format!("{}/api/bot/ws", url.replacen("http", "ws", 1)).into_client_request()?;
    request
        .headers_mut()
        .insert("Authorization", format!("Bearer {token}").parse()?);
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await?;
    let hello = json!({"type": "hello", "protocol": 1});
    socket.send(Message::Text(hello.to_string().into())).await?;
    let seek_message = seek.map(|game| json!({"type": "seek", "game": game}));
    let mut finished = 0;
    while let Some(message) = socket.next().await {
        let Message::Text(text) = message? else {
            continue;
        };
        let message: Value = serde_json::from_str(&text)?;
        let reply = match message["type"].as_str() {
            Some("welcome") => {
                eprintln!("connected as {}", message["bot"]["name"]);
                seek_message.clone()
            }
            Some("challenge") => Some(json!({"type": "accept", "challenge": message["challenge"]})),
            Some("your-turn") => {
                let legal = message["position"]["legal_moves"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                legal.choose(&mut rand::rng()).map(|mv| {
                    json!({"type": "move", "game_id": message["game_id"], "move": mv,
                           "ply": message["ply"]})
                })
            }
            Some("game-over") => {
                eprintln!("game {}: {}", message["game_id"], message["result"]["text"]);
                finished += 1;
                if games.is_some_and(|n| finished >= n) {
                    return Ok(());
                }
                seek_message.clone()
            }
            Some("error") => {
                eprintln!("refused: {} ({})", message["message"], message["code"]);
                None
            }
            _ => None, // start, seeking, seek-cancelled
        };
        if let Some(reply) = reply {
            socket.send(Message::Text(reply.to_string().into())).await?;
        }
    }
    Ok(())
}

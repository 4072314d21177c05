//! A server on loopback for tests, and a small client for its HTTP API and WebSockets.
//! (`crates/cli/tests/serve.rs` includes this file to drive the `toroid serve` binary.)
#![allow(dead_code)] // Each test binary uses its own part of it.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::header::{CONTENT_TYPE, COOKIE, SET_COOKIE};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The URL of a fresh database on the PostgreSQL server of `TOROID_TEST_POSTGRES`; without
/// that variable, a failure that says what is missing (never a silent skip).
pub async fn fresh_postgres_database() -> String {
    use sqlx::Connection;
    let server = std::env::var("TOROID_TEST_POSTGRES").expect(
        "TOROID_TEST_POSTGRES is not set: this test needs a PostgreSQL server \
         (postgres://USER@HOST:PORT, a user who may create databases); scripts/test installs \
         Debian's postgresql and starts a throwaway one",
    );
    sqlx::any::install_default_drivers();
    let server = server.trim_end_matches('/');
    let name = format!("toroid_test_{}", toroid_server::ids::new_id());
    let mut admin = sqlx::AnyConnection::connect(&format!("{server}/postgres"))
        .await
        .unwrap_or_else(|e| panic!("TOROID_TEST_POSTGRES={server} is not reachable: {e}"));
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    format!("{server}/{name}")
}

/// Where a test server keeps its state: the SQLite file in its data folder, or a fresh
/// database on the PostgreSQL server of `TOROID_TEST_POSTGRES`. The platform's tests run
/// once on each ([`on_both_stores!`]), since each store has errors of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    Sqlite,
    Postgres,
}

impl Store {
    /// `Config::database` for a fresh, empty database of this kind (`None`: the SQLite file
    /// in the server's data folder).
    pub async fn fresh_database(self) -> Option<String> {
        match self {
            Store::Sqlite => None,
            Store::Postgres => Some(fresh_postgres_database().await),
        }
    }
}

/// Runs each test `async fn NAME(store: Store)` once per store, as `sqlite::NAME` and
/// `postgres::NAME`.
#[allow(unused_macros)] // The tests of the binary drive one store at a time.
macro_rules! on_both_stores {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                super::$test($crate::common::Store::Sqlite).await
            })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                super::$test($crate::common::Store::Postgres).await
            })*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both_stores;

/// Where a test's servers keep their state: a fresh temporary data folder and, on
/// PostgreSQL, a fresh database. Servers started again on the same site find what the ones
/// before stored; the folder lives as long as the site.
pub struct Site {
    dir: tempfile::TempDir,
    /// `Config::database`: `None` for the SQLite file in the data folder.
    pub database: Option<String>,
}

impl Site {
    pub async fn new(store: Store) -> Site {
        Site {
            dir: tempfile::tempdir().unwrap(),
            database: store.fresh_database().await,
        }
    }

    /// The data folder.
    pub fn data(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }

    /// The database's URL, to open it beside (or without) a server.
    pub fn url(&self) -> String {
        match &self.database {
            Some(url) => url.clone(),
            None => toroid_server::storage::Storage::sqlite_url(&self.data()).unwrap(),
        }
    }

    /// The configuration of a test server on this site, on a free loopback port, under
    /// `limits`.
    pub fn config(&self, limits: toroid_server::Limits) -> toroid_server::Config {
        toroid_server::Config {
            port: 0,
            data: self.data(),
            database: self.database.clone(),
            limits,
            ..toroid_server::Config::default()
        }
    }
}

/// A server on a free loopback port on a fresh site of `store`, under `limits` with the
/// request limits lifted (tests send requests fast): the server, its base URL, and the site.
pub async fn server_with(
    store: Store,
    limits: toroid_server::Limits,
) -> (toroid_server::Server, String, Site) {
    let site = Site::new(store).await;
    let limits = toroid_server::Limits {
        requests_per_second: 10_000,
        request_burst: 10_000,
        ..limits
    };
    let server = toroid_server::Server::start(site.config(limits))
        .await
        .unwrap();
    let base = format!("http://{}", server.addr);
    (server, base, site)
}

/// The request for a game of `game` with `params` against house bot `level`, the person
/// playing `color`, without a clock.
pub fn house(game: &str, params: Value, level: &str, color: &str) -> Value {
    json!({"game": game, "params": params, "clock": null,
           "opponent": {"kind": "house", "level": level}, "color": color})
}

/// How long a test waits for a message before it fails.
pub const WAIT: Duration = Duration::from_secs(20);

/// Checks `condition` every 20 ms until it holds, and returns what it gave; panics with
/// `what` after [`WAIT`]. For waiting on the server, in place of a sleep that guesses.
pub async fn eventually<T, F, Fut>(what: &str, mut condition: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        if let Some(value) = condition().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not within {WAIT:?}: {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A client of the API, with or without a session.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    pub base: String,
    pub cookie: Option<String>,
}

/// An HTTP answer: status and JSON body (`Value::Null` if it is not JSON). A test that
/// ignores one would pass whatever the server answered, so an unused answer is a warning
/// (and CI fails on warnings): check it, or call [`Answer::success`].
#[derive(Debug)]
#[must_use = "check the answer's status, or call .success()"]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Answer {
    /// The error code of an error answer.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }

    /// The body of a successful (2xx) answer; panics with the answer otherwise.
    #[track_caller]
    pub fn success(self) -> Value {
        assert!(
            (200..300).contains(&self.status),
            "expected success, got {} {}",
            self.status,
            self.body
        );
        self.body
    }
}

impl Client {
    /// A client without a session of the server at `base` (`http://127.0.0.1:PORT`).
    pub fn anonymous(base: &str) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: base.to_string(),
            cookie: None,
        }
    }

    /// A client without a session whose connections come from `ip` (a loopback address
    /// such as 127.0.0.2), as if from another machine.
    pub fn anonymous_from(base: &str, ip: std::net::IpAddr) -> Client {
        Client {
            http: reqwest::Client::builder()
                .local_address(ip)
                .build()
                .unwrap(),
            ..Client::anonymous(base)
        }
    }

    /// A client with a new guest session called `name`.
    pub async fn person(base: &str, name: &str) -> Client {
        let signed_in = Client::anonymous(base).sign_in(name).await;
        signed_in.unwrap_or_else(|refused| panic!("not signed in: {refused:?}"))
    }

    /// A client signed in to a new account `name` (password "correct horse"). Asked again
    /// after a `503 busy`, as a client that honours `Retry-After` does: the server hashes
    /// only two passwords at once for one address, so tests that make many accounts at once
    /// from loopback wait their turn.
    pub async fn account(base: &str, name: &str) -> Client {
        Client::anonymous(base).new_account(name).await
    }

    /// This client (from its address) signed in to a new account `name`, as
    /// [`Client::account`] makes one.
    pub async fn new_account(&self, name: &str) -> Client {
        let body = json!({"name": name, "password": "correct horse"});
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let signed_up = self.new_session("/api/accounts", body.clone()).await;
            match signed_up {
                Err(busy) if busy.status == 503 && tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                signed_up => {
                    return signed_up.unwrap_or_else(|refused| panic!("no account: {refused:?}"))
                }
            }
        }
    }

    /// Starts tournament `id` (its creator's client): the id of its first round's first game.
    pub async fn start_tournament(&self, id: &str) -> String {
        let path = format!("/api/tournaments/{id}/start");
        let started = self.post(&path, json!({})).await.success();
        let game = &started["played"][0]["games"][0]["game_id"];
        game.as_str().expect("a first game").to_string()
    }

    /// Plays the first legal move in each of this person's games of tournament `id` until
    /// it is over (within `wait`); its final view.
    pub async fn play_tournament(&self, id: &str, wait: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let view = self.get(&format!("/api/tournaments/{id}")).await.body;
            if view["stage"] == "finished" {
                return view;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the tournament ends: {view}"
            );
            let current = view["played"].as_array().and_then(|r| r.last().cloned());
            let games = current
                .map(|round| round["games"].clone())
                .unwrap_or_default();
            for game in games.as_array().into_iter().flatten() {
                let game_id = game["game_id"].as_str().unwrap();
                let state = self.get(&format!("/api/games/{game_id}")).await.body;
                let mine = state["you"].as_str();
                let to_move = state["position"]["to_move"].as_str();
                if state["status"] == "live" && mine.is_some() && to_move == mine {
                    let (mv, ply) = (
                        &state["position"]["legal_moves"][0],
                        &state["position"]["ply"],
                    );
                    let path = format!("/api/games/{game_id}/moves");
                    let answer = self.post(&path, json!({"move": mv, "ply": ply})).await;
                    // Refused only if the game moved on meanwhile (ended on time, say).
                    if answer.status != 200 {
                        let now = self.get(&format!("/api/games/{game_id}")).await.body;
                        assert!(
                            now["status"] != "live" || now["position"]["ply"] != *ply,
                            "a move in a live game refused: {answer:?}"
                        );
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// This client with a new guest session called `name`, or the server's refusal.
    pub async fn sign_in(&self, name: &str) -> Result<Client, Answer> {
        self.new_session("/api/session", json!({ "name": name }))
            .await
    }

    /// This client with the new session that posting `body` to `path` makes (a guest
    /// session, a sign-in, an account), or the server's refusal.
    /// (A client with a session sends its cookie: a guest claiming its name.)
    pub async fn new_session(&self, path: &str, body: Value) -> Result<Client, Answer> {
        let request = (self.http).post(format!("{}{path}", self.base)).json(&body);
        let response = self.with_cookie(request).send().await.unwrap();
        if response.status() != 201 {
            let status = response.status().as_u16();
            let body = response.json().await.unwrap_or(Value::Null);
            return Err(Answer { status, body });
        }
        let cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_string();
        assert!(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
            "{cookie}"
        );
        Ok(Client {
            cookie: Some(cookie.split(';').next().unwrap().to_string()),
            ..self.clone()
        })
    }

    /// This client (its server and its address) with `other`'s session.
    pub fn with_session_of(&self, other: &Client) -> Client {
        Client {
            cookie: other.cookie.clone(),
            ..self.clone()
        }
    }

    /// The same session at another address (the server restarted on another port).
    pub fn at(&self, base: &str) -> Client {
        Client {
            base: base.to_string(),
            ..self.clone()
        }
    }

    fn with_cookie(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.cookie {
            Some(cookie) => request.header(COOKIE, cookie),
            None => request,
        }
    }

    async fn answer(request: reqwest::RequestBuilder) -> Answer {
        Client::try_answer(request)
            .await
            .expect("the server answers")
    }

    /// The answer, or `None` if the connection failed (the server died).
    async fn try_answer(request: reqwest::RequestBuilder) -> Option<Answer> {
        let response = request.send().await.ok()?;
        let status = response.status().as_u16();
        let text = response.text().await.ok()?;
        Some(Answer {
            status,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
        })
    }

    /// A GET that may find the server gone.
    pub async fn try_get(&self, path: &str) -> Option<Answer> {
        Client::try_answer(self.with_cookie(self.http.get(format!("{}{path}", self.base)))).await
    }

    /// The request to open the WebSocket of game `id` with this client's session.
    pub fn ws_request(
        &self,
        id: &str,
    ) -> tokio_tungstenite::tungstenite::handshake::client::Request {
        self.ws_request_to(&format!("/api/games/{id}/ws"))
    }

    /// A WebSocket request to `path`, with this client's cookie.
    pub fn ws_request_to(
        &self,
        path: &str,
    ) -> tokio_tungstenite::tungstenite::handshake::client::Request {
        let url = format!("{}{path}", self.base.replacen("http", "ws", 1));
        let mut request = url.into_client_request().unwrap();
        if let Some(cookie) = &self.cookie {
            request
                .headers_mut()
                .insert("Cookie", cookie.parse().unwrap());
        }
        request
    }

    pub async fn get(&self, path: &str) -> Answer {
        Client::answer(self.with_cookie(self.http.get(format!("{}{path}", self.base)))).await
    }

    pub async fn put(&self, path: &str, body: Value) -> Answer {
        let request = self.http.put(format!("{}{path}", self.base)).json(&body);
        Client::answer(self.with_cookie(request)).await
    }

    pub async fn delete(&self, path: &str) -> Answer {
        Client::answer(self.with_cookie(self.http.delete(format!("{}{path}", self.base)))).await
    }

    /// The body of a GET as text, with its status and content type.
    pub async fn get_text(&self, path: &str) -> (u16, String, String) {
        let response = self
            .with_cookie(self.http.get(format!("{}{path}", self.base)))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let kind = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        (status, kind, response.text().await.unwrap())
    }

    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.try_post(path, body).await.expect("the server answers")
    }

    /// A POST that may find the server gone.
    pub async fn try_post(&self, path: &str, body: Value) -> Option<Answer> {
        let request = self.http.post(format!("{}{path}", self.base)).json(&body);
        Client::try_answer(self.with_cookie(request)).await
    }

    /// A POST with a body as it is, and a content type.
    pub async fn post_raw(&self, path: &str, body: impl Into<String>, kind: &str) -> Answer {
        let request = self
            .http
            .post(format!("{}{path}", self.base))
            .header(CONTENT_TYPE, kind)
            .body(body.into());
        Client::answer(self.with_cookie(request)).await
    }

    /// Creates a game; panics unless it is created.
    pub async fn create(&self, request: Value) -> Value {
        let answer = self.post("/api/games", request).await;
        assert_eq!(answer.status, 201, "{:?}", answer.body);
        answer.body
    }

    /// Opens the person's news socket (`/api/me/ws`), once it has looked (`ready`; what it
    /// told before, of the state it found, is skipped).
    pub async fn news(&self) -> Socket {
        let mut socket = self.news_from_the_start().await;
        socket.next_of_type("ready").await;
        socket
    }

    /// Opens the person's news socket, every message to be read.
    pub async fn news_from_the_start(&self) -> Socket {
        let request = self.ws_request_to("/api/me/ws");
        let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        Socket::new(stream)
    }

    /// Opens the WebSocket of game `id` and returns it with the first state.
    pub async fn watch(&self, id: &str) -> (Socket, Value) {
        let request = self.ws_request(id);
        let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        let mut socket = Socket::new(stream);
        let state = socket.state().await;
        (socket, state)
    }
}

/// A WebSocket of a game.
pub struct Socket(
    WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Messages kept aside while others were awaited: chat on a game's socket, the
    /// opponent's presence on a bot's.
    std::collections::VecDeque<Value>,
);

impl Socket {
    /// Reads to the end of the connection: the close frame's code and reason, or `None` if
    /// the connection ended without one (an abnormal closure, 1006).
    pub async fn close_frame(&mut self) -> Option<(u16, String)> {
        let end = tokio::time::timeout(WAIT, async {
            loop {
                match self.0.next().await {
                    Some(Ok(Message::Close(frame))) => {
                        return frame.map(|f| (u16::from(f.code), f.reason.to_string()))
                    }
                    None | Some(Err(_)) => return None,
                    Some(Ok(_)) => {}
                }
            }
        });
        end.await.expect("the connection ends in time")
    }

    /// Sends a close frame (1000, normal closure) and returns the server's answering one
    /// (`None`: it hung up without one, which a client reports as 1006).
    pub async fn close_handshake(&mut self) -> Option<(u16, String)> {
        use tokio_tungstenite::tungstenite::protocol::{frame::coding::CloseCode, CloseFrame};
        let frame = CloseFrame {
            code: CloseCode::Normal,
            reason: "done".into(),
        };
        self.0.send(Message::Close(Some(frame))).await.unwrap();
        self.close_frame().await
    }

    pub fn new(stream: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Socket {
        Socket(stream, Default::default())
    }

    /// The next chat message (`{"type":"chat","room","lines"}`), kept or awaited.
    pub async fn chat(&mut self) -> Value {
        if let Some(message) = self.1.pop_front() {
            return message;
        }
        loop {
            let message = self.message().await;
            if message["type"] == "chat" {
                return message;
            }
        }
    }

    pub async fn send(&mut self, message: Value) {
        self.0
            .send(Message::Text(message.to_string().into()))
            .await
            .unwrap();
    }

    /// The next text message but chat (kept for [`Socket::chat`]) and presence (skipped:
    /// [`Socket::presence`] awaits it); panics after [`WAIT`] without one (the server's
    /// pings do not count).
    pub async fn next(&mut self) -> Value {
        loop {
            let message = self.message().await;
            match message["type"].as_str() {
                Some("chat") => self.1.push_back(message),
                Some("presence") => {}
                _ => return message,
            }
        }
    }

    /// The next message of type `kind` (others are skipped).
    pub async fn next_of_type(&mut self, kind: &str) -> Value {
        loop {
            let message = self.message().await;
            if message["type"] == kind {
                return message;
            }
        }
    }

    /// The `claim_in_ms` of the next presence message to a player (other messages but chat
    /// are skipped).
    pub async fn presence(&mut self) -> Value {
        loop {
            let message = self.message().await;
            match message["type"].as_str() {
                Some("chat") => self.1.push_back(message),
                Some("presence") => return message["claim_in_ms"].clone(),
                _ => {}
            }
        }
    }

    /// The next text message.
    async fn message(&mut self) -> Value {
        let text = tokio::time::timeout(WAIT, async {
            loop {
                let message = self.0.next().await.expect("the socket is open").unwrap();
                if let Message::Text(text) = message {
                    return text;
                }
            }
        });
        serde_json::from_str(&text.await.expect("a message in time")).unwrap()
    }

    /// The game of the next state message (an error message fails the test).
    pub async fn state(&mut self) -> Value {
        let message = self.next().await;
        assert_eq!(message["type"], "state", "{message}");
        message["game"].clone()
    }

    /// Reads states until one satisfies `done`.
    pub async fn state_until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let state = self.state().await;
            if done(&state) {
                return state;
            }
        }
    }

    /// The code of the next error message (states before it are skipped).
    pub async fn error(&mut self) -> String {
        loop {
            let message = self.next().await;
            if message["type"] == "error" {
                return message["code"].as_str().unwrap().to_string();
            }
            assert_eq!(message["type"], "state", "{message}");
        }
    }
}

/// The code of an invite game's link (`/join/CODE`) in the answer that created it.
pub fn invite_code(created: &Value) -> String {
    let link = created["invite"].as_str().expect("an invite game");
    link.strip_prefix("/join/")
        .expect("a /join/ link")
        .to_string()
}

/// Whether it is `color`'s turn in `state`.
pub fn to_move(state: &Value, color: &str) -> bool {
    state["status"] == "live" && state["position"]["to_move"] == color
}

/// `players` play the first legal move that is not a pass in game `id`, each on its turn
/// (a house bot on another seat answers by itself), until the game has `plies` moves; the
/// state then.
pub async fn play_until(players: &[&Client], id: &str, plies: u64) -> Value {
    let path = format!("/api/games/{id}");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let mut moved = false;
        for player in players {
            let state = player.get(&path).await.success();
            let position = &state["position"];
            if position["ply"].as_u64() >= Some(plies) {
                return state;
            }
            if !to_move(&state, state["you"].as_str().unwrap_or("")) {
                continue;
            }
            let mv = (position["legal_moves"].as_array().unwrap().iter())
                .find(|m| *m != "pass")
                .unwrap();
            let body = json!({"move": mv, "ply": position["ply"]});
            player.post(&format!("{path}/moves"), body).await.success();
            moved = true;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not within {WAIT:?}: {plies} moves in game {id}"
        );
        // Waiting for a house bot: asked again at a pace the limit on requests allows.
        if !moved {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// Registers a bot for `owner`; its token.
pub async fn register(owner: &Client, name: &str) -> String {
    let answer = owner.post("/api/bots", json!({ "name": name })).await;
    assert_eq!(answer.status, 201, "{:?}", answer.body);
    assert_eq!(answer.body["name"], name);
    answer.body["token"].as_str().unwrap().to_string()
}

/// `person` challenges the connected bot `name`, whose socket is `bot`, to 5×5 Go (the
/// person black), and the bot accepts: the challenge as the bot saw it, and the answer to
/// the person's request.
pub async fn challenge_accepted(person: &Client, bot: &mut Bot, name: &str) -> (Value, Answer) {
    let request = json!({"game": "go", "params": {"size": 5}, "color": "black",
        "opponent": {"kind": "bot", "name": name}});
    challenge_accepted_with(person, bot, request).await
}

/// `person` asks for the game `request` (`POST /api/games`, a challenge to the bot of
/// socket `bot`), and the bot accepts: the challenge, and the answer to the request.
pub async fn challenge_accepted_with(
    person: &Client,
    bot: &mut Bot,
    request: Value,
) -> (Value, Answer) {
    let challenger = tokio::spawn({
        let person = person.clone();
        async move { person.post("/api/games", request).await }
    });
    let challenge = bot.expect("challenge").await;
    bot.send(json!({"type": "accept", "challenge": challenge["challenge"]}))
        .await;
    (challenge, challenger.await.unwrap())
}

/// A registered bot's WebSocket.
pub struct Bot(Socket);

impl Bot {
    /// Opens the bot WebSocket with `token` (no hello yet).
    pub async fn open(base: &str, token: &str) -> Result<Bot, u16> {
        let url = format!("{}/api/bot/ws", base.replacen("http", "ws", 1));
        let mut request = url.into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Authorization", format!("Bearer {token}").parse().unwrap());
        match tokio_tungstenite::connect_async(request).await {
            Ok((stream, _)) => Ok(Bot(Socket::new(stream))),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                Err(response.status().as_u16())
            }
            Err(e) => panic!("{e}"),
        }
    }

    /// Connects and says hello; checks the welcome.
    pub async fn connect(base: &str, token: &str, name: &str) -> Bot {
        let mut bot = Bot::open(base, token).await.unwrap();
        bot.send(json!({"type": "hello", "protocol": 1})).await;
        let welcome = bot.next().await;
        assert_eq!(
            (welcome["type"].as_str(), welcome["protocol"].as_u64()),
            (Some("welcome"), Some(1))
        );
        assert_eq!(welcome["bot"]["name"], name);
        bot
    }

    pub async fn send(&mut self, message: Value) {
        self.0.send(message).await;
    }

    /// The next text message but the opponent's presence (`opponent-gone`, `opponent-back`,
    /// kept for [`Bot::next_of`], which asks for them: a person who plays over HTTP is gone
    /// between requests, whenever a slow machine makes them far apart); panics after
    /// [`WAIT`] without one (the server's pings do not count); `Value::Null` once the server
    /// closed the connection.
    pub async fn next(&mut self) -> Value {
        loop {
            let message = self.message().await;
            match message["type"].as_str() {
                Some("opponent-gone" | "opponent-back") => self.0 .1.push_back(message),
                _ => return message,
            }
        }
    }

    async fn message(&mut self) -> Value {
        let next = tokio::time::timeout(WAIT, async {
            loop {
                match self.0 .0.next().await {
                    Some(Ok(Message::Text(text))) => return serde_json::from_str(&text).unwrap(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Value::Null,
                    Some(Ok(_)) => {}
                }
            }
        });
        next.await.expect("a message in time")
    }

    /// Reads to the end of the connection: the close frame's code and reason, or `None` if
    /// the connection ended without one (an abnormal closure, 1006).
    pub async fn close_frame(&mut self) -> Option<(u16, String)> {
        self.0.close_frame().await
    }

    /// Closes the connection as a client should: the server must answer with its own close
    /// frame, which this returns (`None`: it hung up without one).
    pub async fn close_handshake(&mut self) -> Option<(u16, String)> {
        self.0.close_handshake().await
    }

    /// The next message, which must be of type `kind`.
    pub async fn expect(&mut self, kind: &str) -> Value {
        let message = self.next().await;
        assert_eq!(message["type"], kind, "{message}");
        message
    }

    /// The next message of type `kind`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        let presence = matches!(kind, "opponent-gone" | "opponent-back");
        if let Some(at) = self.0 .1.iter().position(|m| m["type"] == kind) {
            return self.0 .1.remove(at).expect("kept");
        }
        loop {
            let message = match presence {
                true => self.message().await,
                false => self.next().await,
            };
            assert_ne!(message, Value::Null, "closed while waiting for {kind}");
            if message["type"] == kind {
                return message;
            }
        }
    }

    /// Plays the first legal move at each of its next `turns` turns.
    pub async fn play_turns(&mut self, turns: usize) {
        for _ in 0..turns {
            let turn = self.next_of("your-turn").await;
            let mv = turn["position"]["legal_moves"][0].clone();
            let (id, ply) = (turn["game_id"].clone(), turn["ply"].clone());
            self.send(json!({"type": "move", "game_id": id, "move": mv, "ply": ply}))
                .await;
        }
    }

    /// Plays the first legal move at every `your-turn` until its game is over; the result.
    pub async fn play_out(&mut self) -> Value {
        loop {
            let message = self.next().await;
            match message["type"].as_str() {
                Some("your-turn") => {
                    let mv = message["position"]["legal_moves"][0].clone();
                    let (id, ply) = (message["game_id"].clone(), message["ply"].clone());
                    self.send(json!({"type": "move", "game_id": id, "move": mv, "ply": ply}))
                        .await;
                }
                Some("game-over") => return message,
                Some("start" | "moved" | "draw-offer" | "seeking") => {}
                _ => panic!("unexpected {message}"),
            }
        }
    }
}

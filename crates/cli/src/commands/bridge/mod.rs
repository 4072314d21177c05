//! `toroid bridge`: any GTP engine plays on a toroid server as a registered bot, as gtp2ogs
//! does for OGS and lichess-bot for lichess. The bridge holds the bot WebSocket
//! (docs/protocol.md), accepts the challenges its configuration allows, runs one engine
//! process per game (started at the game's start, quit at its end), feeds the engine every
//! move and the server's clocks (`time_settings`, `time_left`), and sends the engine's moves
//! back. It reconnects after a lost connection and resumes its games where they are.

mod filters;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{mpsc as std_mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use toroid_protocol::gtp::{Answer, EngineLimits, RemotePlayer};
use toroid_protocol::view::ParamsView;
use toroid_rules::{AnyGame, Color, GameKind, Move, Position};

use super::Failure;
use filters::GameFilter;

/// The keys of a config file that are no flag: the `[[game]]` tables.
pub const FILE_TABLES: &[&str] = &["game"];

/// Connect a GTP engine to a toroid server as a registered bot.
#[derive(clap::Args)]
pub struct Args {
    /// A TOML file of settings: each key a flag's name without its dashes (engine = "gnugo
    /// --mode gtp", max-games = 2), and `[[game]]` tables of the rule sets to play, each
    /// with `name`, `seek` and the parameter values it takes (docs/protocol.md, "Bridging a
    /// GTP engine"). Flags override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The server, as `http://HOST:PORT` (or `https://`).
    #[arg(long, value_name = "URL")]
    server: String,
    /// The bot's token (`POST /api/bots` shows it once); or set TOROID_BOT_TOKEN.
    #[arg(long, env = "TOROID_BOT_TOKEN", hide_env_values = true)]
    token: String,
    /// The engine's command line: a GTP engine that speaks toroid's extension (every rule
    /// set) or standard Go (go and capture-go on a plain board only).
    #[arg(long, value_name = "COMMAND")]
    engine: String,
    /// A rule set to accept (repeat for several); every one the engine can play by default.
    #[arg(long = "game", value_name = "NAME")]
    games: Vec<GameKind>,
    /// The largest board side (width or height) to accept.
    #[arg(long, value_name = "N", default_value_t = 25)]
    max_side: usize,
    /// The shortest initial clock time to accept (e.g. 30s).
    #[arg(long, value_name = "DURATION")]
    min_initial: Option<humantime::Duration>,
    /// The longest initial clock time to accept (e.g. 1h).
    #[arg(long, value_name = "DURATION")]
    max_initial: Option<humantime::Duration>,
    /// Decline games without a clock.
    #[arg(long)]
    clocked_only: bool,
    /// Which games to accept by rating: rated and casual (`any`), rated `only`, or `never`
    /// rated; `only` also makes `--seek` ask for rated games.
    #[arg(long, value_enum, default_value_t = RatedGames::Any)]
    rated: RatedGames,
    /// Games played at once, each by its own engine process.
    #[arg(long, value_name = "N", default_value_t = 1)]
    max_games: usize,
    /// Seek a game of this rule set (its default parameters) against other bots whenever
    /// fewer than the maximum are played; with several (here and in the config file's
    /// `[[game]]` tables with `seek = true`), each in turn.
    #[arg(long, value_name = "NAME")]
    seek: Vec<GameKind>,
    /// Challenge the house bot of this level (`GET /api/levels`) whenever fewer than the
    /// maximum are played, to the games it seeks in turn (else the first it plays, else go).
    #[arg(long, value_name = "LEVEL")]
    challenge_house: Option<String>,
    /// Keep each engine process from one game to the next (set up anew for each game)
    /// instead of starting one per game.
    #[arg(long)]
    keep_engine: bool,
    /// Join the rated arena of this rule set on connecting: the server pairs the bot game
    /// after game (docs/protocol.md, "The arena").
    #[arg(long, value_name = "NAME")]
    arena: Option<GameKind>,
    /// The arena's clock: initial time and increment, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 180.0)]
    arena_initial: f64,
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    arena_increment: f64,
    /// Join this open tournament (its id) on connecting; its games are played like any
    /// other.
    #[arg(long, value_name = "ID")]
    tournament: Option<String>,
    /// Stop after this many games have ended (for tests and one-off matches).
    #[arg(long, value_name = "N")]
    quit_after: Option<usize>,
    /// How long the engine may take to start and to answer any command but `genmove`.
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    engine_timeout: humantime::Duration,
    /// How long the engine may think on a move in a game without a clock (with a clock:
    /// its time left).
    #[arg(long, value_name = "DURATION", default_value = "60s")]
    move_timeout: humantime::Duration,
}

/// Which games the bridge accepts by rating.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum RatedGames {
    Any,
    Only,
    Never,
}

/// The protocol version the bridge speaks.
const PROTOCOL: u64 = 1;
/// Waits between reconnection attempts, doubling up to this.
const MOST_BACKOFF: Duration = Duration::from_secs(30);

pub fn run(args: Args) -> Result<(), Failure> {
    super::kill_engines_on_interrupt();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::usage)?;
    runtime.block_on(Bridge::new(args)?.run())
}

/// What the engine thread of one game is told.
enum ToEngine {
    /// Move `index` of the game (0-based) was `notation`, by `color`.
    Moved {
        index: usize,
        color: Color,
        notation: String,
    },
    /// The bot is to move at `ply`; the clocks (milliseconds) when the turn was given;
    /// whether play goes on after two passes to capture dead stones (`position.cleanup`).
    Turn {
        ply: u64,
        clocks: Option<[i64; 2]>,
        cleanup: bool,
    },
    /// The players agree on dead stones after two passes: these are marked. The engine
    /// accepts them if they are the ones it judges dead, and disputes them otherwise (play
    /// then goes on as cleanup).
    Counting { dead: Vec<String> },
}

/// A game being played: its engine thread.
struct Running {
    engine: std_mpsc::Sender<ToEngine>,
    thread: JoinHandle<()>,
    /// The colour the bot plays.
    own: Color,
}

struct Bridge {
    args: Args,
    /// The rule sets and parameters it accepts (`--game`, `[[game]]`): any where empty.
    plays: Vec<GameFilter>,
    /// The games it seeks (`--seek`, `[[game]]` with `seek = true`), each in turn.
    seeks: Vec<GameFilter>,
    next_seek: usize,
    /// Engines kept from one game to the next (`--keep-engine`).
    kept: Arc<Mutex<Vec<RemotePlayer>>>,
    /// Whether the engine speaks toroid's GTP extension (learnt once, at the start).
    extension: bool,
    games: HashMap<String, Running>,
    ended: usize,
    /// Messages to the server, from the engine threads.
    outgoing: mpsc::UnboundedSender<Value>,
    from_engines: mpsc::UnboundedReceiver<Value>,
}

/// How a connection ended.
enum Ended {
    /// Lost: try again.
    Lost(String),
    /// The server refused the bot for good (a replaced token, another connection).
    Refused(String),
    /// `--quit-after` games have ended.
    Done,
}

impl Bridge {
    fn new(args: Args) -> Result<Bridge, Failure> {
        let limits = EngineLimits {
            setup: args.engine_timeout.into(),
            genmove: args.move_timeout.into(),
            move_time: None,
        };
        let extension = RemotePlayer::speaks_extension(&args.engine, limits)
            .map_err(|e| Failure::usage(format!("the engine: {e}")))?;
        let (outgoing, from_engines) = mpsc::unbounded_channel();
        let from_file = match &args.config {
            Some(path) => filters::read(path).map_err(Failure::usage)?,
            None => Vec::new(),
        };
        let plays = (args.games.iter().map(|&kind| GameFilter::any(kind, false)))
            .chain(from_file.iter().cloned())
            .collect();
        let seeks = (args.seek.iter().map(|&kind| GameFilter::any(kind, true)))
            .chain(from_file.into_iter().filter(|f| f.seek))
            .collect();
        Ok(Bridge {
            plays,
            seeks,
            next_seek: 0,
            kept: Arc::default(),
            args,
            extension,
            games: HashMap::new(),
            ended: 0,
            outgoing,
            from_engines,
        })
    }

    async fn run(mut self) -> Result<(), Failure> {
        let mut backoff = Duration::from_secs(1);
        let outcome = loop {
            match self.connection().await {
                Ended::Done => break Ok(()),
                Ended::Refused(why) => break Err(Failure::usage(why)),
                Ended::Lost(why) => {
                    eprintln!("bridge: connection lost ({why}); again in {backoff:?}");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MOST_BACKOFF);
                }
            }
        };
        // Every engine quits with its game; the threads of games still running end when
        // their channel closes.
        let games: Vec<Running> = self.games.drain().map(|(_, g)| g).collect();
        for game in games {
            drop(game.engine);
            let _ = game.thread.join();
        }
        for engine in lock(&self.kept).drain(..) {
            engine.finish();
        }
        outcome
    }

    /// One connection to the server, until it ends.
    async fn connection(&mut self) -> Ended {
        let url = format!(
            "{}/api/bot/ws",
            self.args
                .server
                .trim_end_matches('/')
                .replacen("http", "ws", 1)
        );
        let mut request = match url.as_str().into_client_request() {
            Ok(request) => request,
            Err(e) => return Ended::Refused(format!("--server {}: {e}", self.args.server)),
        };
        let bearer = format!("Bearer {}", self.args.token.trim());
        match bearer.parse() {
            Ok(value) => request.headers_mut().insert("Authorization", value),
            Err(_) => return Ended::Refused("the token is not a header value".into()),
        };
        let (mut socket, _) = match tokio_tungstenite::connect_async(request).await {
            Ok(connected) => connected,
            Err(WsError::Http(response)) if response.status() == 401 => {
                return Ended::Refused("the server refuses the token (401 bad-token)".into())
            }
            Err(e) => return Ended::Lost(e.to_string()),
        };
        let hello = json!({"type": "hello", "protocol": PROTOCOL}).to_string();
        if let Err(e) = socket.send(Message::text(hello)).await {
            return Ended::Lost(e.to_string());
        }
        if let Some(id) = &self.args.tournament {
            self.send(json!({"type": "join-tournament", "tournament": id}));
        }
        if let Some(kind) = self.args.arena {
            let clock = json!({"initial_s": self.args.arena_initial,
                "increment_s": self.args.arena_increment});
            self.send(json!({"type": "arena", "game": kind.name(), "clock": clock}));
        }
        self.seek_if_free();
        loop {
            tokio::select! {
                incoming = socket.next() => {
                    let message = match incoming {
                        Some(Ok(Message::Text(text))) => text,
                        Some(Ok(Message::Close(Some(frame)))) => {
                            let reason = format!("{} ({})", frame.reason, u16::from(frame.code));
                            return match frame.code {
                                // A replaced token or another connection of this bot: going
                                // back would only kick that one off in turn.
                                CloseCode::Library(4401 | 4409) => Ended::Refused(format!(
                                    "the server closed the connection: {reason}"
                                )),
                                _ => Ended::Lost(reason),
                            };
                        }
                        Some(Ok(_)) => continue,
                        Some(Err(e)) => return Ended::Lost(e.to_string()),
                        None => return Ended::Lost("closed".into()),
                    };
                    let Ok(message) = serde_json::from_str::<Value>(&message) else {
                        eprintln!("bridge: not JSON from the server: {message}");
                        continue;
                    };
                    if self.handle(&message) {
                        let _ = socket.close(None).await;
                        return Ended::Done;
                    }
                }
                Some(reply) = self.from_engines.recv() => {
                    if let Err(e) = socket.send(Message::text(reply.to_string())).await {
                        return Ended::Lost(e.to_string());
                    }
                }
            }
        }
    }

    fn send(&self, message: Value) {
        let _ = self.outgoing.send(message);
    }

    /// Seeks the next game of its seeks, and challenges the house bot to it, while a game
    /// slot is free.
    fn seek_if_free(&mut self) {
        if self.games.len() >= self.args.max_games {
            return;
        }
        let next = match self.seeks.is_empty() {
            true => None,
            false => Some(self.seeks[self.next_seek % self.seeks.len()].clone()),
        };
        self.next_seek += 1;
        let rated = self.args.rated == RatedGames::Only;
        if let Some(seek) = &next {
            let clock = self.seek_clock(rated);
            self.send(
                json!({"type": "seek", "game": seek.kind.name(), "rated": rated,
                "clock": clock, "params": seek.seek_params()}),
            );
        }
        if let Some(level) = &self.args.challenge_house {
            let seek = (next.or_else(|| self.plays.first().cloned()))
                .unwrap_or_else(|| GameFilter::any(GameKind::Go, true));
            // The shortest clock the filters allow; none where they allow that.
            let initial =
                (self.args.min_initial.map(|d| d.as_secs_f64()))
                    .or((self.args.clocked_only || rated).then_some(300.0));
            let clock = initial.map(|s| json!({"initial_s": s, "increment_s": 0}));
            self.send(json!({"type": "challenge", "game": seek.kind.name(),
                "params": seek.seek_params(), "clock": clock, "rated": rated,
                "opponent": {"kind": "house", "level": level}}));
        }
    }

    /// The clock its seeks ask for, as its clock filters allow: a range of initial times
    /// between `--min-initial` and `--max-initial` when either is given or `--clocked-only`
    /// is; for a rated game, which has a clock, three to ten minutes where they say nothing
    /// (two such seeks meet at three); else none.
    fn seek_clock(&self, rated: bool) -> Value {
        let seconds = |d: Option<humantime::Duration>| d.map(|d| d.as_secs_f64());
        let (min, max) = (
            seconds(self.args.min_initial),
            seconds(self.args.max_initial),
        );
        let (min, max) = match rated {
            true => (min.unwrap_or(180.0), max.unwrap_or(600.0)),
            false if self.args.clocked_only || min.is_some() || max.is_some() => {
                (min.unwrap_or(1.0), max.unwrap_or(86_400.0))
            }
            false => return Value::Null,
        };
        json!({"min_initial_s": min, "max_initial_s": max})
    }

    /// Acts on one message from the server; whether the bridge is done.
    fn handle(&mut self, message: &Value) -> bool {
        let game_id = message["game_id"].as_str().unwrap_or_default().to_string();
        match message["type"].as_str().unwrap_or_default() {
            "welcome" => eprintln!("bridge: connected as {}", message["bot"]["name"]),
            "challenge" => {
                let id = &message["challenge"];
                match self.refusal(message) {
                    None => self.send(json!({"type": "accept", "challenge": id})),
                    Some(reason) => {
                        self.send(json!({"type": "decline", "challenge": id, "reason": reason}))
                    }
                }
            }
            "start" => self.start(&game_id, message),
            "moved" => {
                let (Some(ply), Some(color), Some(notation)) = (
                    message["ply"].as_u64(),
                    color(&message["color"]),
                    message["move"].as_str(),
                ) else {
                    return false;
                };
                self.tell(
                    &game_id,
                    ToEngine::Moved {
                        index: ply as usize - 1,
                        color,
                        notation: notation.to_string(),
                    },
                );
            }
            "your-turn" => {
                let clocks = &message["clocks"];
                let clocks = clocks["black_ms"]
                    .as_i64()
                    .zip(clocks["white_ms"].as_i64())
                    .map(|(b, w)| [b, w]);
                let ply = message["ply"].as_u64().unwrap_or_default();
                let cleanup = message["position"]["cleanup"] == true;
                self.tell(
                    &game_id,
                    ToEngine::Turn {
                        ply,
                        clocks,
                        cleanup,
                    },
                );
            }
            "counting" => {
                let counting = &message["counting"];
                let own = self.games.get(&game_id).map(|g| g.own);
                if own.is_some_and(|own| counting["accepted"][own.name()] == true) {
                    return false;
                }
                let dead = (counting["dead"].as_array().into_iter().flatten())
                    .filter_map(|point| point.as_str().map(String::from))
                    .collect();
                self.tell(&game_id, ToEngine::Counting { dead });
            }
            "game-over" => {
                eprintln!("bridge: game {game_id} over: {}", message["result"]["text"]);
                if let Some(game) = self.games.remove(&game_id) {
                    // Closing the channel makes the engine quit.
                    drop(game.engine);
                    let _ = game.thread.join();
                }
                self.ended += 1;
                if self.args.quit_after.is_some_and(|n| self.ended >= n) {
                    return true;
                }
                self.seek_if_free();
            }
            "error" => {
                eprintln!(
                    "bridge: the server says {}: {}",
                    message["code"], message["message"]
                );
                // A move the server refuses leaves the engine's board wrong: give up the game.
                if message["code"] == "illegal-move" && !game_id.is_empty() {
                    self.send(json!({"type": "resign", "game_id": game_id}));
                }
            }
            // Seeks, draw offers (declined by moving on) and the rest need no answer.
            _ => {}
        }
        false
    }

    /// Why a challenge is declined, or `None` to accept it.
    fn refusal(&self, challenge: &Value) -> Option<String> {
        if self.games.len() >= self.args.max_games {
            return Some(format!("playing {} games already", self.games.len()));
        }
        let start = match read_game(challenge) {
            Ok(start) => start,
            Err(e) => return Some(e),
        };
        let kind = start.kind();
        if !self.plays.is_empty() {
            let of_kind: Vec<&GameFilter> = self.plays.iter().filter(|f| f.kind == kind).collect();
            if of_kind.is_empty() {
                return Some(format!("{} is not played here", kind.name()));
            }
            if of_kind.iter().all(|f| f.refusal(&start).is_some()) {
                return of_kind[0].refusal(&start);
            }
        }
        if !self.extension && !RemotePlayer::standard_go_plays(&start) {
            return Some(format!(
                "this engine plays only go and capture-go on a plain board, not this {}",
                kind.name()
            ));
        }
        let topology = start.topology();
        if topology.width().max(topology.height()) > self.args.max_side {
            return Some(format!("boards up to {0}×{0} only", self.args.max_side));
        }
        let initial = challenge["clock"]["initial_s"]
            .as_f64()
            .map(Duration::from_secs_f64);
        match initial {
            None if self.args.clocked_only => Some("games with a clock only".into()),
            Some(t) if self.args.min_initial.is_some_and(|m| t < *m) => {
                Some("the clock is too short".into())
            }
            Some(t) if self.args.max_initial.is_some_and(|m| t > *m) => {
                Some("the clock is too long".into())
            }
            _ => None,
        }
    }

    /// A game starts, or goes on after a reconnection: its engine is started once, and told
    /// every move it does not know yet.
    fn start(&mut self, game_id: &str, message: &Value) {
        if message["position"]["over"] == true {
            return;
        }
        if !self.games.contains_key(game_id) {
            let (Ok(start), Some(own)) = (read_game(message), color(&message["color"])) else {
                eprintln!("bridge: cannot read the start of game {game_id}");
                return;
            };
            let (engine, orders) = std_mpsc::channel();
            let game = GameThread {
                game_id: game_id.to_string(),
                own,
                start,
                clock: message["clock"]["initial_s"].as_f64().map(|initial| {
                    match message["clock"]["days_per_move"].as_f64() {
                        // Days per move: GTP's nearest is a byo-yomi of one stone.
                        Some(days) => (0.0, days * 86_400.0),
                        None => (
                            initial,
                            message["clock"]["increment_s"].as_f64().unwrap_or(0.0),
                        ),
                    }
                }),
                limits: EngineLimits {
                    setup: self.args.engine_timeout.into(),
                    genmove: self.args.move_timeout.into(),
                    move_time: None,
                },
                command: self.args.engine.clone(),
                server: self.outgoing.clone(),
                kept: self.args.keep_engine.then(|| Arc::clone(&self.kept)),
            };
            let thread = std::thread::spawn(move || game.play(orders));
            let running = Running {
                engine,
                thread,
                own,
            };
            self.games.insert(game_id.to_string(), running);
        }
        let moves = message["position"]["moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let movers = message["position"]["movers"].as_str().unwrap_or_default();
        for (index, (mv, mover)) in moves.iter().zip(movers.chars()).enumerate() {
            let color = if mover == 'b' {
                Color::Black
            } else {
                Color::White
            };
            let notation = mv.as_str().unwrap_or_default().to_string();
            self.tell(
                game_id,
                ToEngine::Moved {
                    index,
                    color,
                    notation,
                },
            );
        }
    }

    fn tell(&self, game_id: &str, order: ToEngine) {
        if let Some(game) = self.games.get(game_id) {
            let _ = game.engine.send(order);
        }
    }
}

/// `black` or `white`.
fn color(value: &Value) -> Option<Color> {
    Color::BOTH
        .into_iter()
        .find(|c| value.as_str() == Some(c.name()))
}

/// The start of the game a `challenge` or `start` message describes.
fn read_game(message: &Value) -> Result<AnyGame, String> {
    let name = message["game"].as_str().unwrap_or_default();
    let kind: GameKind = name.parse().map_err(|e| format!("{e}"))?;
    let json = message["params"]
        .as_object()
        .cloned()
        .unwrap_or_else(Map::new);
    let params = ParamsView::read(kind, &json).map_err(|e| format!("{kind}: {e}"))?;
    kind.start(&params).map_err(|e| format!("{kind}: {e}"))
}

/// One game's engine, run on a thread of its own (GTP is blocking).
struct GameThread {
    game_id: String,
    own: Color,
    start: AnyGame,
    /// The clock's initial time and increment, in seconds; a correspondence clock is no
    /// initial time and its days per move as the increment.
    clock: Option<(f64, f64)>,
    limits: EngineLimits,
    command: String,
    server: mpsc::UnboundedSender<Value>,
    /// Where engines are kept from one game to the next (`--keep-engine`).
    kept: Option<Arc<Mutex<Vec<RemotePlayer>>>>,
}

impl GameThread {
    /// Runs the engine until the game's channel closes; the engine then quits.
    fn play(self, orders: std_mpsc::Receiver<ToEngine>) {
        let resign = || {
            let _ = (self.server).send(json!({"type": "resign", "game_id": self.game_id}));
        };
        let mut engine = match self.engine() {
            Ok(engine) => engine,
            Err(e) => {
                eprintln!("bridge: game {}: the engine cannot play: {e}", self.game_id);
                return resign();
            }
        };
        if let Some((initial, increment)) = self.clock {
            engine.time_settings(initial, increment);
        }
        let topology = self.start.topology().clone();
        // Moves the engine knows: those told, and its own answers to `genmove`.
        let mut known = 0;
        for order in orders {
            let outcome = match order {
                ToEngine::Moved {
                    index,
                    color,
                    notation,
                } if index == known => {
                    known += 1;
                    match Move::parse(&notation, &topology) {
                        Ok(mv) => engine.tell(&topology, color, mv).map_err(|e| e.to_string()),
                        Err(e) => Err(format!("the server's move '{notation}': {e:?}")),
                    }
                }
                // Known already (the engine's own move, or told before a reconnection).
                ToEngine::Moved { .. } => Ok(()),
                ToEngine::Counting { dead } => {
                    let judged = engine.dead_stones(&topology).map_err(|e| e.to_string());
                    judged.map(|judged| {
                        let mut judged: Vec<String> = (judged.iter())
                            .map(|mv| mv.notation(&topology).to_string())
                            .collect();
                        let mut marked = dead.clone();
                        judged.sort();
                        marked.sort();
                        let answer = match judged == marked {
                            true => json!({"type": "accept-dead", "game_id": self.game_id, "dead": dead}),
                            false => json!({"type": "resume-play", "game_id": self.game_id}),
                        };
                        let _ = self.server.send(answer);
                    })
                }
                ToEngine::Turn {
                    ply,
                    clocks,
                    cleanup,
                } => {
                    if let Some(clocks) = clocks {
                        for color in Color::BOTH {
                            engine.time_left(color, clocks[color.index()] as f64 / 1000.0);
                        }
                        let left = clocks[self.own.index()].max(0) as u64;
                        // Past the flag the server has ended the game anyway; days per
                        // move are no reason to think for days.
                        let think = match self.clock {
                            Some((0.0, _)) => left.min(self.limits.genmove.as_millis() as u64),
                            _ => left,
                        };
                        engine.set_genmove_timeout(Duration::from_millis(think + 2000));
                    }
                    match engine.genmove(&topology, self.own, cleanup) {
                        Ok(Answer::Play(mv)) => {
                            known += 1;
                            let notation = mv.notation(&topology).to_string();
                            let _ = self.server.send(json!({"type": "move",
                                "game_id": self.game_id, "move": notation, "ply": ply}));
                            Ok(())
                        }
                        Ok(Answer::Resign) => {
                            resign();
                            Ok(())
                        }
                        Err(e) => Err(e.to_string()),
                    }
                }
            };
            if let Err(why) = outcome {
                eprintln!("bridge: game {}: the engine failed: {why}", self.game_id);
                resign();
                break;
            }
        }
        match &self.kept {
            Some(kept) => lock(kept).push(engine),
            None => engine.finish(),
        }
    }

    /// An engine set up for this game: a kept one where there is one that takes the game,
    /// else a new process.
    fn engine(&self) -> Result<RemotePlayer, toroid_protocol::gtp::Unplayable> {
        if let Some(kept) = &self.kept {
            while let Some(mut engine) = lock(kept).pop() {
                match engine.new_game(&self.command, &self.start) {
                    Ok(()) => return Ok(engine),
                    // A kept engine that fails is quit; the next one, or a new one, plays.
                    Err(_) => engine.finish(),
                }
            }
        }
        RemotePlayer::start(&self.command, &self.start, self.limits)
    }
}

/// The kept engines, even if a game's thread panicked holding them.
fn lock(kept: &Mutex<Vec<RemotePlayer>>) -> std::sync::MutexGuard<'_, Vec<RemotePlayer>> {
    kept.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

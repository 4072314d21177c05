//! How a server is started: where it listens, where it keeps its data, and its limits.

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct Config {
    pub host: IpAddr,
    /// 0 picks a free port (the server says which).
    pub port: u16,
    /// Holds `toroid.sqlite3` unless `database` names another database.
    pub data: PathBuf,
    /// `postgres://...` or `sqlite://PATH`; `None` for the SQLite file in `data`.
    pub database: Option<String>,
    /// `redis://HOST:PORT`: this server is one node of a cluster on `database`, which must
    /// be PostgreSQL (docs/scaling.md).
    pub redis: Option<String>,
    /// Gives the cluster of `database` a new name (and so new Redis channels): for a copy
    /// of another cluster's database, which is otherwise refused
    /// (`StorageError::CopiedDatabase`).
    pub new_cluster: bool,
    /// Origins besides the server's own (`http://HOST:PORT` as the browser sees it) whose
    /// pages may act here: for a deployment whose proxy rewrites `Host`.
    pub allowed_origins: Vec<String>,
    /// The origins the site is served at (`https://play.example.org`): a request's `Host`
    /// must name one, and pages of them may act. With none, only an IP address or
    /// `localhost` is taken as `Host`, which keeps DNS rebinding out.
    pub public_origins: Vec<String>,
    /// Reverse proxies in front of the server: for their connections the client is the
    /// address they add last to `X-Forwarded-For`, and they have no limit per address.
    pub trusted_proxies: Vec<IpAddr>,
    /// Where `/metrics` is served, in Prometheus's text format: an address of its own, so
    /// that only the monitoring network reaches it; `None` for no metrics.
    pub metrics: Option<std::net::SocketAddr>,
    /// How log lines are written on standard error.
    pub log_format: LogFormat,
    pub limits: Limits,
}

/// How log lines are written: for people, or one JSON object a line for a log collector.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            data: PathBuf::from("toroid-data"),
            database: None,
            redis: None,
            new_cluster: false,
            allowed_origins: Vec::new(),
            public_origins: Vec::new(),
            trusted_proxies: Vec::new(),
            metrics: None,
            log_format: LogFormat::Text,
            limits: Limits::default(),
        }
    }
}

/// What one client may use (docs/server.md lists the defaults and why).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open TCP connections in all. When all are taken, a newcomer takes the place of a
    /// connection waiting for a request, of the address holding the most places, the one
    /// that has waited longest; when all are busy, it is closed.
    pub connections: usize,
    /// Open TCP connections from one IP address; more are closed at once.
    pub connections_per_ip: usize,
    /// Longest wait for a complete request head, after connecting or after the previous
    /// response on a kept-alive connection (then the connection is closed), and longest
    /// pause inside a request body.
    pub header_timeout: Duration,
    /// How often the server pings a WebSocket peer; one silent for three times as long (no
    /// pong, no message) is dropped.
    pub ping_interval: Duration,
    /// HTTP requests per second from one IP address, sustained…
    pub requests_per_second: u32,
    /// …and in a burst.
    pub request_burst: u32,
    /// WebSocket messages per second on one connection, sustained and in a burst.
    pub messages_per_second: u32,
    pub message_burst: u32,
    /// The same on a bot's connection, which carries all of its games.
    pub bot_messages_per_second: u32,
    pub bot_message_burst: u32,
    /// Largest request body or WebSocket message, in bytes.
    pub body_bytes: usize,
    /// Unfinished games one session may have created.
    pub games_per_session: usize,
    /// Unfinished games created from one IP address, whatever the sessions.
    pub games_per_address: usize,
    /// Unfinished games on the server in all (waiting and live).
    pub unfinished_games: usize,
    /// New sessions from one IP address per hour, and on the whole server per minute.
    pub sessions_per_address_per_hour: u32,
    pub sessions_per_minute: u32,
    /// Sign-in attempts per minute from one address, and for one account name.
    pub sign_ins_per_minute: u32,
    /// A game without a clock that has seen no move (or join) for this long is abandoned:
    /// aborted without a result.
    pub abandon_after: Duration,
    /// A live game with no move (or other change) for this long leaves the lobby's list of
    /// live games: most likely left open by its players. It stays live, and listed among
    /// its players' games; its clock or `abandon_after` ends it.
    pub quiet_after: Duration,
    /// How long a bot waits alone in an arena pool before it is paired with a house bot.
    pub arena_house_after: Duration,
    /// How long a registered bot must have been disconnected before its opponent may claim
    /// the win (`claim-victory`).
    pub leave_grace: Duration,
    /// Longest search of `GET /api/games/{id}/analysis`.
    pub analysis: Duration,
    /// Longest search of a house bot for one move.
    pub house_move: Duration,
    /// Whether players and spectators may chat in games (`toroid serve --no-chat` turns it
    /// off; stored lines stay stored).
    pub chat: bool,
    /// Searches running at once, house bots' and analyses' together, each on one thread
    /// and taking turns (`crate::house`); also the analyses waiting or running at once.
    pub search_threads: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 4096,
            connections_per_ip: 256,
            header_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(15),
            requests_per_second: 20,
            request_burst: 100,
            messages_per_second: 20,
            message_burst: 40,
            bot_messages_per_second: 200,
            bot_message_burst: 400,
            body_bytes: 16 * 1024,
            games_per_session: 20,
            games_per_address: 40,
            unfinished_games: 10_000,
            sessions_per_address_per_hour: 30,
            sessions_per_minute: 600,
            sign_ins_per_minute: 10,
            abandon_after: Duration::from_secs(24 * 3600),
            leave_grace: Duration::from_secs(60),
            quiet_after: Duration::from_secs(600),
            arena_house_after: Duration::from_secs(10),
            analysis: Duration::from_secs(2),
            house_move: Duration::from_secs(2),
            search_threads: toroid_search::all_cores(),
            chat: true,
        }
    }
}

/// `url` with its password, if it has one, replaced by `***`: the form of a database or Redis
/// URL that messages and logs show.
pub fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            if parsed.password().is_some() {
                // Only URLs that cannot hold a password refuse one, and this one holds one.
                let _ = parsed.set_password(Some("***"));
            }
            parsed.to_string()
        }
        Err(_) => "(a URL that cannot be read)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn passwords_are_masked_and_the_rest_is_kept() {
        assert_eq!(
            redacted("redis://:hunter2@cache:6379/0"),
            "redis://:***@cache:6379/0"
        );
        assert_eq!(
            redacted("postgres://toroid:s3cret@db/toroid"),
            "postgres://toroid:***@db/toroid"
        );
        assert_eq!(redacted("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
        assert!(!redacted("postgres://u:p%40ss@db/x").contains("p%40ss"));
        assert!(!redacted("not a url with hunter2").contains("hunter2"));
    }
}

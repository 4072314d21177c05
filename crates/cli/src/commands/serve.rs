//! `toroid serve`: the game server and its web page (docs/server.md).

use std::net::IpAddr;
use std::path::PathBuf;

use toroid_server::http::security::parse_origin;
use toroid_server::{Config, Limits};

use super::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// The TCP port (0: any free port; the first line printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; 0.0.0.0 opens the server to other machines.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The data directory: the SQLite database lives in DIR/toroid.sqlite3.
    #[arg(long, value_name = "DIR", default_value = "toroid-data")]
    data: PathBuf,
    /// A database instead of the SQLite file: postgres://USER:PASSWORD@HOST/DB.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Run as one node of a cluster: Redis at redis://HOST:PORT carries events between the
    /// nodes, which share the PostgreSQL database of --database (docs/scaling.md).
    #[arg(long, value_name = "URL", requires = "database")]
    redis: Option<String>,
    /// Give the cluster on --database a name of its own: for a database copied from another
    /// cluster's (staging, a restored backup), which a node otherwise refuses to start on.
    #[arg(long, requires = "redis")]
    new_cluster: bool,
    /// An origin besides the server's own whose pages may play here (https://HOST[:PORT]),
    /// for a reverse proxy that rewrites Host; may be given more than once.
    #[arg(long = "allowed-origin", value_name = "ORIGIN", value_parser = parse_origin)]
    allowed_origins: Vec<String>,
    /// The address of a reverse proxy in front of the server: its connections' client is the
    /// last address of X-Forwarded-For, and it has no limit per address; may be repeated.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<IpAddr>,
    /// Open connections in all; when all are taken, a newcomer replaces a connection waiting
    /// for a request, of the address holding the most, the longest waiting.
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections)]
    max_connections: usize,
    /// Open connections from one IP address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections_per_ip)]
    max_connections_per_ip: usize,
    /// Longest wait for a request head, after connecting or after the previous response,
    /// and longest pause inside a request body (500ms, 10s, 1m).
    #[arg(long, value_name = "DURATION", default_value_t = Limits::default().header_timeout.into())]
    header_timeout: humantime::Duration,
    /// How often WebSocket peers are pinged; one silent for three intervals is dropped.
    #[arg(long, value_name = "DURATION", default_value_t = Limits::default().ping_interval.into())]
    ping_interval: humantime::Duration,
    /// Unfinished games (waiting and live) the server holds at most.
    #[arg(long, value_name = "N", default_value_t = Limits::default().unfinished_games)]
    max_unfinished_games: usize,
    /// A game without a clock that sees no move for this long is aborted without a result.
    #[arg(long, value_name = "DURATION", default_value_t = Limits::default().abandon_after.into())]
    abandon_after: humantime::Duration,
    /// How long a registered bot must be disconnected before its opponent may claim the win.
    #[arg(long, value_name = "DURATION", default_value_t = Limits::default().leave_grace.into())]
    leave_grace: humantime::Duration,
    /// How long a bot waits alone in an arena pool before it is paired with a house bot.
    #[arg(long, value_name = "DURATION", default_value_t = Limits::default().arena_house_after.into())]
    arena_house_after: humantime::Duration,
    /// Turns the games' chat off (the players' and spectators' rooms); stored lines stay.
    #[arg(long)]
    no_chat: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let config = Config {
        host: args.host,
        port: args.port,
        data: args.data,
        database: args.database,
        redis: args.redis,
        new_cluster: args.new_cluster,
        allowed_origins: args.allowed_origins,
        trusted_proxies: args.trusted_proxies,
        limits: Limits {
            connections: args.max_connections,
            connections_per_ip: args.max_connections_per_ip,
            header_timeout: args.header_timeout.into(),
            ping_interval: args.ping_interval.into(),
            unfinished_games: args.max_unfinished_games,
            abandon_after: args.abandon_after.into(),
            leave_grace: args.leave_grace.into(),
            arena_house_after: args.arena_house_after.into(),
            chat: !args.no_chat,
            ..Limits::default()
        },
    };
    toroid_server::run(config).map_err(Failure::usage)
}

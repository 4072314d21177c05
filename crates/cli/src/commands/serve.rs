//! `toroid serve`: the game server and its web page (docs/server.md).

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use toroid_server::http::security::parse_origin;
use toroid_server::{Config, Limits, LogFormat};

use super::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// A TOML file of settings: each key is a flag's name without its dashes (port = 8080,
    /// max-connections = 4096, trusted-proxy = ["10.0.0.1"]). Flags and TOROID_… variables
    /// override it (deploy/toroid.toml is a commented sample).
    #[arg(long, env = "TOROID_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,
    /// Print the settings the server would run with, secrets masked, and exit.
    #[arg(long)]
    check_config: bool,
    /// The TCP port (0: any free port; the first line printed says which).
    #[arg(long, env = "TOROID_PORT", default_value_t = 8080)]
    port: u16,
    /// The address to listen on; 0.0.0.0 opens the server to other machines.
    #[arg(long, env = "TOROID_HOST", default_value = "127.0.0.1")]
    host: IpAddr,
    #[command(flatten)]
    store: Store,
    /// Run as one node of a cluster: Redis at redis://HOST:PORT carries events between the
    /// nodes, which share the PostgreSQL database of --database (docs/scaling.md).
    #[arg(long, env = "TOROID_REDIS", value_name = "URL")]
    redis: Option<String>,
    /// A file holding the --redis URL.
    #[arg(
        long,
        env = "TOROID_REDIS_FILE",
        value_name = "FILE",
        conflicts_with = "redis"
    )]
    redis_file: Option<PathBuf>,
    /// Give the cluster on --database a name of its own: for a database copied from another
    /// cluster's (staging, a restored backup), which a node otherwise refuses to start on.
    #[arg(long, env = "TOROID_NEW_CLUSTER")]
    new_cluster: bool,
    /// An origin besides the server's own whose pages may play here (https://HOST[:PORT]),
    /// for a reverse proxy that rewrites Host; may be given more than once.
    #[arg(env = "TOROID_ALLOWED_ORIGIN", long = "allowed-origin", value_name = "ORIGIN", value_parser = parse_origin, value_delimiter = ',')]
    allowed_origins: Vec<String>,
    /// An origin the site is served at (https://play.example.org): a request's Host must
    /// name one, which keeps DNS rebinding out; without any, only an IP address or localhost
    /// is taken as Host; may be given more than once.
    #[arg(env = "TOROID_PUBLIC_ORIGIN", long = "public-origin", value_name = "ORIGIN", value_parser = parse_origin, value_delimiter = ',')]
    public_origins: Vec<String>,
    /// The address of a reverse proxy in front of the server: its connections' client is the
    /// last address of X-Forwarded-For, and it has no limit per address; may be repeated.
    #[arg(
        env = "TOROID_TRUSTED_PROXY",
        long = "trusted-proxy",
        value_name = "IP",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<IpAddr>,
    /// Open connections in all; when all are taken, a newcomer replaces a connection waiting
    /// for a request, of the address holding the most, the longest waiting.
    #[arg(long, env = "TOROID_MAX_CONNECTIONS", value_name = "N", default_value_t = Limits::default().connections)]
    max_connections: usize,
    /// Open connections from one IP address.
    #[arg(long, env = "TOROID_MAX_CONNECTIONS_PER_IP", value_name = "N", default_value_t = Limits::default().connections_per_ip)]
    max_connections_per_ip: usize,
    /// Longest wait for a request head, after connecting or after the previous response,
    /// and longest pause inside a request body (500ms, 10s, 1m).
    #[arg(long, env = "TOROID_HEADER_TIMEOUT", value_name = "DURATION", default_value_t = Limits::default().header_timeout.into())]
    header_timeout: humantime::Duration,
    /// How often WebSocket peers are pinged; one silent for three intervals is dropped.
    #[arg(long, env = "TOROID_PING_INTERVAL", value_name = "DURATION", default_value_t = Limits::default().ping_interval.into())]
    ping_interval: humantime::Duration,
    /// Unfinished games (waiting and live) the server holds at most.
    #[arg(long, env = "TOROID_MAX_UNFINISHED_GAMES", value_name = "N", default_value_t = Limits::default().unfinished_games)]
    max_unfinished_games: usize,
    /// A game without a clock that sees no move for this long is aborted without a result.
    #[arg(long, env = "TOROID_ABANDON_AFTER", value_name = "DURATION", default_value_t = Limits::default().abandon_after.into())]
    abandon_after: humantime::Duration,
    /// How long a registered bot must be disconnected before its opponent may claim the win.
    #[arg(long, env = "TOROID_LEAVE_GRACE", value_name = "DURATION", default_value_t = Limits::default().leave_grace.into())]
    leave_grace: humantime::Duration,
    /// How long a bot waits alone in an arena pool before it is paired with a house bot.
    #[arg(long, env = "TOROID_ARENA_HOUSE_AFTER", value_name = "DURATION", default_value_t = Limits::default().arena_house_after.into())]
    arena_house_after: humantime::Duration,
    /// Serve Prometheus's /metrics on this address (127.0.0.1:9090): one of its own, for the
    /// monitoring network only (docs/operations.md).
    #[arg(long, env = "TOROID_METRICS", value_name = "ADDR:PORT")]
    metrics: Option<std::net::SocketAddr>,
    /// How log lines are written on standard error: text for people, json for a collector
    /// (one object a line).
    #[arg(long, env = "TOROID_LOG_FORMAT", value_enum, default_value_t = LogFormatArg::Text)]
    log_format: LogFormatArg,
    /// Turns the games' chat off (the players' and spectators' rooms); stored lines stay.
    #[arg(long, env = "TOROID_NO_CHAT")]
    no_chat: bool,
}

/// Where a server's data lives: the flags `toroid serve` and `toroid admin` share.
#[derive(clap::Args)]
pub struct Store {
    /// The data directory: the SQLite database lives in DIR/toroid.sqlite3.
    #[arg(
        long,
        env = "TOROID_DATA",
        value_name = "DIR",
        default_value = "toroid-data"
    )]
    data: PathBuf,
    /// A database instead of the SQLite file: postgres://USER:PASSWORD@HOST/DB.
    #[arg(long, env = "TOROID_DATABASE", value_name = "URL")]
    database: Option<String>,
    /// A file holding the --database URL (a secret kept off the command line).
    #[arg(
        long,
        env = "TOROID_DATABASE_FILE",
        value_name = "FILE",
        conflicts_with = "database"
    )]
    database_file: Option<PathBuf>,
}

impl Store {
    /// The database URL, from --database or read from --database-file; `None` for SQLite.
    pub fn database_url(&self) -> Result<Option<String>, Failure> {
        secret(self.database.clone(), self.database_file.as_deref())
    }

    pub fn data(&self) -> &Path {
        &self.data
    }
}

/// `--log-format`.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum LogFormatArg {
    Text,
    Json,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let database = args.store.database_url()?;
    let redis = secret(args.redis.clone(), args.redis_file.as_deref())?;
    if redis.is_some() && database.is_none() {
        return Err(Failure::usage(
            "a cluster node (--redis) needs the shared PostgreSQL database (--database)",
        ));
    }
    if args.new_cluster && redis.is_none() {
        return Err(Failure::usage(
            "--new-cluster is for a cluster node (--redis)",
        ));
    }
    let config = Config {
        host: args.host,
        port: args.port,
        data: args.store.data.clone(),
        database,
        redis,
        new_cluster: args.new_cluster,
        allowed_origins: args.allowed_origins.clone(),
        public_origins: args.public_origins.clone(),
        trusted_proxies: args.trusted_proxies.clone(),
        metrics: args.metrics,
        log_format: match args.log_format {
            LogFormatArg::Text => LogFormat::Text,
            LogFormatArg::Json => LogFormat::Json,
        },
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
    if args.check_config {
        print!("{}", describe(&args, &config));
        return Ok(());
    }
    toroid_server::run(config).map_err(Failure::usage)
}

/// The settings as a config file would give them (`--check-config`), passwords masked: every
/// setting is named, so the compiler finds this list when one is added.
fn describe(args: &Args, config: &Config) -> String {
    let Args {
        config: file,
        check_config: _,
        port,
        host,
        store:
            Store {
                data,
                database: _,
                database_file: _,
            },
        redis: _,
        redis_file: _,
        new_cluster,
        allowed_origins,
        public_origins,
        trusted_proxies,
        max_connections,
        max_connections_per_ip,
        header_timeout,
        ping_interval,
        max_unfinished_games,
        abandon_after,
        leave_grace,
        arena_house_after,
        metrics,
        log_format,
        no_chat,
    } = args;
    let text = |s: String| toml::Value::String(s).to_string();
    let list = |items: Vec<String>| {
        toml::Value::Array(items.into_iter().map(toml::Value::String).collect()).to_string()
    };
    let url = |key: &str, url: &Option<String>| match url {
        Some(url) => format!("{key} = {}", text(toroid_server::config::redacted(url))),
        None => format!("# {key}: not set"),
    };
    let mut lines = vec![
        format!(
            "# toroid serve would run with these settings (config file: {})",
            file.as_ref()
                .map_or("none".into(), |f| f.display().to_string())
        ),
        format!("port = {port}"),
        format!("host = {}", text(host.to_string())),
        format!("data = {}", text(data.display().to_string())),
        url("database", &config.database),
        url("redis", &config.redis),
        format!("new-cluster = {new_cluster}"),
        format!("allowed-origin = {}", list(allowed_origins.clone())),
        format!("public-origin = {}", list(public_origins.clone())),
        format!(
            "trusted-proxy = {}",
            list(trusted_proxies.iter().map(IpAddr::to_string).collect())
        ),
        format!("max-connections = {max_connections}"),
        format!("max-connections-per-ip = {max_connections_per_ip}"),
        format!("header-timeout = {}", text(header_timeout.to_string())),
        format!("ping-interval = {}", text(ping_interval.to_string())),
        format!("max-unfinished-games = {max_unfinished_games}"),
        format!("abandon-after = {}", text(abandon_after.to_string())),
        format!("leave-grace = {}", text(leave_grace.to_string())),
        format!(
            "arena-house-after = {}",
            text(arena_house_after.to_string())
        ),
        match metrics {
            Some(at) => format!("metrics = {}", text(at.to_string())),
            None => "# metrics: not served".to_string(),
        },
        format!(
            "log-format = {}",
            text(
                log_format
                    .to_possible_value()
                    .map_or(String::new(), |v| v.get_name().into())
            )
        ),
        format!("no-chat = {no_chat}"),
    ];
    lines.push(String::new());
    lines.join("\n")
}

/// A secret given as it is, or read from a file (its first line).
fn secret(given: Option<String>, file: Option<&Path>) -> Result<Option<String>, Failure> {
    match file {
        None => Ok(given),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
            let line = text.lines().next().unwrap_or_default().trim();
            if line.is_empty() {
                return Err(Failure::usage(format!("{} is empty", path.display())));
            }
            Ok(Some(line.to_string()))
        }
    }
}

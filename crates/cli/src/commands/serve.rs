//! `toroid serve`: the game server and its web page (docs/server.md).

use std::net::IpAddr;
use std::path::PathBuf;

use toroid_server::http::security::parse_origin;
use toroid_server::Config;

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
    /// An origin besides the server's own whose pages may play here (https://HOST[:PORT]),
    /// for a reverse proxy that rewrites Host; may be given more than once.
    #[arg(long = "allowed-origin", value_name = "ORIGIN", value_parser = parse_origin)]
    allowed_origins: Vec<String>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let config = Config {
        host: args.host,
        port: args.port,
        data: args.data,
        database: args.database,
        allowed_origins: args.allowed_origins,
        ..Config::default()
    };
    toroid_server::run(config).map_err(Failure::usage)
}

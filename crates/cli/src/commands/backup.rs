//! `toroid backup DEST`: a consistent copy of a server's SQLite database, taken while the
//! server runs (docs/server.md, "Backups").

use std::path::PathBuf;

use super::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// The server's data directory (its database is DIR/toroid.sqlite3).
    #[arg(long, value_name = "DIR", default_value = "toroid-data")]
    data: PathBuf,
    /// The new file to write; it must not exist.
    dest: PathBuf,
}

pub fn run(args: Args) -> Result<(), Failure> {
    toroid_server::backup(&args.data, &args.dest).map_err(Failure::usage)?;
    println!("toroid: backed up to {}", args.dest.display());
    Ok(())
}

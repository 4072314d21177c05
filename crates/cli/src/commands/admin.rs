//! `toroid admin ACT`: the operator's acts on a server's data (docs/operations.md,
//! "Moderation"), on its SQLite file or its PostgreSQL database, while servers run on it.

use std::path::PathBuf;

use toroid_server::admin::{Act, Command, Role};

use super::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// The server's data directory (its database is DIR/toroid.sqlite3).
    #[arg(
        long,
        env = "TOROID_DATA",
        value_name = "DIR",
        default_value = "toroid-data"
    )]
    data: PathBuf,
    /// The server's PostgreSQL database instead: postgres://USER:PASSWORD@HOST/DB.
    #[arg(long, env = "TOROID_DATABASE", value_name = "URL")]
    database: Option<String>,
    /// A file holding the --database URL.
    #[arg(
        long,
        env = "TOROID_DATABASE_FILE",
        value_name = "FILE",
        conflicts_with = "database"
    )]
    database_file: Option<PathBuf>,
    #[command(subcommand)]
    act: AdminAct,
}

#[derive(clap::Subcommand)]
enum AdminAct {
    /// Give an account a role: admin, moderator, or none.
    Role {
        name: String,
        #[arg(value_parser = ["admin", "moderator", "none"])]
        role: String,
    },
    /// Ban an account: it is signed out everywhere, may not sign in, and its bots' tokens
    /// open nothing.
    Ban { name: String },
    /// Lift an account's ban.
    Unban { name: String },
    /// Give an account a new random password, shown once; its sessions end.
    ResetPassword { name: String },
    /// Open or close sign-ups (new accounts).
    SignUps {
        #[arg(value_parser = ["open", "closed"])]
        state: String,
    },
    /// Create an account with the admin role and a random password, shown once.
    CreateAdmin { name: String },
    /// Cancel a tournament: the games of its round under way are aborted, unrated.
    CancelTournament { id: String },
    /// Delete a chat line (its id, as the reports show it).
    DeleteChat { id: String },
    /// Take a finished game off the lists.
    DeleteGame { id: String },
    /// Show the reports not dealt with, newest first.
    Reports {
        /// Also those dealt with.
        #[arg(long)]
        all: bool,
    },
    /// Mark a report dealt with.
    ResolveReport { id: String },
}

pub fn run(args: Args) -> Result<(), Failure> {
    let database = super::serve::secret(args.database, args.database_file.as_deref())?;
    let act = match args.act {
        AdminAct::Role { name, role } => Act::Role {
            name,
            role: Role::read(Some(&role)),
        },
        AdminAct::Ban { name } => Act::Ban { name, banned: true },
        AdminAct::Unban { name } => Act::Ban {
            name,
            banned: false,
        },
        AdminAct::ResetPassword { name } => Act::ResetPassword { name },
        AdminAct::SignUps { state } => Act::SignUps {
            open: state == "open",
        },
        AdminAct::CreateAdmin { name } => Act::CreateAdmin { name },
        AdminAct::CancelTournament { id } => Act::CancelTournament { id },
        AdminAct::DeleteChat { id } => Act::DeleteChat { id },
        AdminAct::DeleteGame { id } => Act::HideGame { id },
        AdminAct::ResolveReport { id } => Act::ResolveReport { id },
        AdminAct::Reports { all } => {
            let said = toroid_server::admin::run(
                &args.data,
                database.as_deref(),
                Command::Reports { all },
            )
            .map_err(Failure::usage)?;
            println!("{said}");
            return Ok(());
        }
    };
    let said = toroid_server::admin::run(&args.data, database.as_deref(), Command::Act(act))
        .map_err(Failure::usage)?;
    println!("toroid: {said}");
    Ok(())
}

//! `toroid admin ACT`: the operator's acts on a server's data (docs/operations.md,
//! "Moderation"), on its SQLite file or its PostgreSQL database, while servers run on it.

use toroid_server::admin::{Act, Command, Role};

use super::serve::Store;
use super::Failure;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    store: Store,
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
    let database = args.store.database_url()?;
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
                args.store.data(),
                database.as_deref(),
                Command::Reports { all },
            )
            .map_err(Failure::usage)?;
            println!("{said}");
            return Ok(());
        }
    };
    let said = toroid_server::admin::run(args.store.data(), database.as_deref(), Command::Act(act))
        .map_err(Failure::usage)?;
    println!("toroid: {said}");
    Ok(())
}

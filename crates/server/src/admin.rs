//! `toroid admin`: the operator's acts on a server's data, run on its database directly
//! (the SQLite file of a data folder, or PostgreSQL), while servers may be running on it.
//! The acts are those of the admin API ([`crate::hub::moderation`]), done as the operator.
//! What an act ends ends for the servers too: a banned player's sockets and bot connections
//! close within 2 seconds, when each node looks for new bans (the admin API's acts close
//! them at once); a session ended by a reset password closes its sockets at their next
//! message or within a minute.

use std::fmt;
use std::path::Path;

use crate::error::ApiError;
use crate::hub::moderation::{perform, By};
pub use crate::hub::moderation::{Act, Role};
use crate::storage::Storage;
use crate::StartError;

/// What `toroid admin` is asked.
#[derive(Clone, Debug)]
pub enum Command {
    Act(Act),
    /// Lists the reports not dealt with (or all), newest first.
    Reports {
        all: bool,
    },
}

/// Why a command failed.
#[derive(Debug)]
pub enum AdminError {
    Start(StartError),
    Refused(ApiError),
}

impl fmt::Display for AdminError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdminError::Start(error) => write!(f, "{error}"),
            AdminError::Refused(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for AdminError {}

impl<E: Into<StartError>> From<E> for AdminError {
    fn from(error: E) -> AdminError {
        AdminError::Start(error.into())
    }
}

/// Carries out `command` on the database of `data` (or `database`, a PostgreSQL URL): what
/// it did or found, in words.
pub fn run(data: &Path, database: Option<&str>, command: Command) -> Result<String, AdminError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    runtime.block_on(async {
        let url = match database {
            Some(url) => url.to_string(),
            None => Storage::sqlite_url(data)?,
        };
        let storage = Storage::open(&url).await?;
        match command {
            Command::Act(act) => {
                let done = perform(&storage, &By::Operator, act).await;
                Ok(done.map_err(AdminError::Refused)?.said)
            }
            Command::Reports { all } => {
                let reports = (storage.reports(all, 100).await).map_err(ApiError::from);
                let lines: Vec<String> = (reports.map_err(AdminError::Refused)?.iter())
                    .map(|r| {
                        let line = (r.chat_line.as_ref())
                            .map(|l| format!(" about \"{}\" (line {})", l.text, l.id))
                            .unwrap_or_default();
                        let state = match &r.resolved_by {
                            Some(by) => format!("dealt with by {by}"),
                            None => "open".into(),
                        };
                        format!(
                            "{}  {} reports {}{line}: {} [{state}]",
                            r.id, r.reporter, r.player, r.reason
                        )
                    })
                    .collect();
                Ok(match lines.is_empty() {
                    true => "no reports".into(),
                    false => lines.join("\n"),
                })
            }
        }
    })
}

//! The storage layer: one API over SQLite (a file under the data directory, WAL, every commit
//! synced) and PostgreSQL. Writes go through one group-commit writer (`writer`) and return
//! once durable; reads use a pool of connections.

mod rows;
mod schema;
mod writer;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Once;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyConnection, AnyPool, Connection, Row};
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};
use toroid_rules::GameKind;

use crate::model::{Counting, GameSpec, Offer, Status, TimeControl};

pub use rows::{
    AccountRow, ArenaMember, BotRow, ChallengeRow, Challenged, ChatRow, GameRow, MoveRow,
    PuzzleRow, RatingRow, ReportRow, SessionRow, Write,
};

/// Why the database refused or failed.
#[derive(Debug, Error)]
pub enum StorageError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("the database schema is version {found}, newer than this program knows ({known})")]
    TooNew { found: i64, known: i64 },
    #[error("a stored value is corrupt: {0}")]
    Corrupt(String),
    #[error("the database file {path} is damaged: {cause}")]
    DamagedFile { path: String, cause: String },
    #[error("no such game")]
    NoSuchGame,
    /// A conditional write found the game changed: another move for the same ply came
    /// first, the seat was taken, the game ended (on this server or another).
    #[error("the game changed meanwhile")]
    Outdated,
    /// A rating changed between its reading and its update: work it out again.
    #[error("a rating changed meanwhile")]
    RatingChanged,
    /// A challenge was answered, withdrawn or expired before this answer.
    #[error("the challenge was answered, withdrawn or expired meanwhile")]
    ChallengeChanged,
    /// A tournament changed between its reading and its update: read it again.
    #[error("the tournament changed meanwhile")]
    TournamentChanged,
    /// An arena bot was paired, left or joined another pool meanwhile.
    #[error("the arena changed meanwhile")]
    ArenaChanged,
    /// A review of a game is being made by another task, or is made.
    #[error("the review is being made or is made")]
    ReviewTaken,
    /// An account tried a puzzle it had tried before: the first try is the rated one.
    #[error("the puzzle was tried before")]
    PuzzleTried,
    /// The database's cluster name was made on another database: this is a copy.
    #[error(
        "this database is a copy of the database {origin} (it is {here}): its nodes would join \
         that database's cluster, sharing its Redis channels, bots and challenges. If it is \
         meant to be a cluster of its own (staging, a restored backup), start once with \
         --new-cluster to give it its own name"
    )]
    CopiedDatabase { origin: String, here: String },
    #[error("unsupported database URL '{0}': use sqlite://PATH or postgres://...")]
    UnsupportedUrl(String),
    #[error("cannot create the data directory '{path}': {error}")]
    DataDir { path: String, error: std::io::Error },
    #[error("the storage writer has stopped")]
    Closed,
    #[error("cannot back up {database}: {cause}")]
    Backup { database: String, cause: String },
}

/// Queued jobs before writers wait for the group-commit task.
const QUEUE: usize = 8192;
/// Connections for reads.
const READERS: u32 = 8;
/// Longest wait for a database connection before a request fails with `storage`.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// A handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Storage {
    pub(crate) readers: AnyPool,
    jobs: mpsc::Sender<writer::Job>,
    sqlite: bool,
}

impl Storage {
    /// The URL of the SQLite file in `data`, which is created if missing.
    pub fn sqlite_url(data: &Path) -> Result<String, StorageError> {
        let fail = |error| StorageError::DataDir {
            path: data.display().to_string(),
            error,
        };
        std::fs::create_dir_all(data).map_err(fail)?;
        let dir = data.canonicalize().map_err(fail)?;
        let path = dir.join("toroid.sqlite3").display().to_string();
        // The URL's path is percent-decoded: keep '%', '?' and '#' in file names.
        let path = path
            .replace('%', "%25")
            .replace('?', "%3F")
            .replace('#', "%23");
        Ok(format!("sqlite://{path}?mode=rwc"))
    }

    /// Opens the database at `url` (`sqlite://PATH` or `postgres://...`), creates or migrates
    /// its schema, and starts the writer.
    pub async fn open(url: &str) -> Result<Storage, StorageError> {
        install_drivers();
        let sqlite = url.starts_with("sqlite:");
        if !sqlite && !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
            return Err(StorageError::UnsupportedUrl(crate::config::redacted(url)));
        }
        let options = AnyConnectOptions::from_str(url)?;
        if sqlite {
            check_sqlite_file(url, &options).await?;
        }
        let pool = |size: u32| {
            AnyPoolOptions::new()
                .max_connections(size)
                .acquire_timeout(ACQUIRE_TIMEOUT)
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        if sqlite {
                            // Per connection: commits reach the disk before they return.
                            sqlx::query("PRAGMA synchronous = FULL")
                                .execute(&mut *conn)
                                .await?;
                        }
                        Ok(())
                    })
                })
                .connect_with(options.clone())
        };
        let writes = pool(1).await?;
        if sqlite {
            // Kept in the file: readers do not block the writer, nor it them.
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&writes)
                .await?;
        }
        schema::migrate(&writes, !sqlite).await?;
        let readers = pool(READERS).await?;
        let (jobs, queue) = mpsc::channel(QUEUE);
        tokio::spawn(writer::run(writes, queue));
        Ok(Storage {
            readers,
            jobs,
            sqlite,
        })
    }

    /// Copies SQLite's write-ahead log into the database file and empties it, so that the
    /// file alone holds everything (a clean stop does this). Nothing to do on PostgreSQL.
    pub async fn checkpoint(&self) -> Result<(), StorageError> {
        if self.sqlite {
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&self.readers)
                .await?;
        }
        Ok(())
    }

    /// Writes a consistent copy of the SQLite database in `data` to the new file `dest`
    /// while a server may be using it (`VACUUM INTO` reads one snapshot). PostgreSQL has its
    /// own tools (docs/server.md).
    pub async fn backup(data: &Path, dest: &Path) -> Result<(), StorageError> {
        let source = data.join("toroid.sqlite3");
        let fail = |cause: String| StorageError::Backup {
            database: source.display().to_string(),
            cause,
        };
        if !source.is_file() {
            return Err(fail("there is no database there".into()));
        }
        if dest.exists() {
            return Err(fail(format!("{} exists: give a new file", dest.display())));
        }
        install_drivers();
        let url = Storage::sqlite_url(data)?.replace("mode=rwc", "mode=ro");
        check_sqlite_file(&url, &AnyConnectOptions::from_str(&url)?).await?;
        let mut conn = AnyConnection::connect(&url).await?;
        sqlx::query("VACUUM INTO $1")
            .bind(dest.display().to_string())
            .execute(&mut conn)
            .await
            .map_err(|e| fail(e.to_string()))?;
        let _ = conn.close().await;
        Ok(())
    }

    /// Commits `writes` together; returns once they are durable.
    pub async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        let (done, answer) = oneshot::channel();
        self.jobs
            .send(writer::Job { writes, done })
            .await
            .map_err(|_| StorageError::Closed)?;
        answer.await.map_err(|_| StorageError::Closed)?
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StorageError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        row.as_ref().map(game_row).transpose()
    }

    /// Every game that is not finished, oldest first: what a restart brings back. A row that
    /// cannot be read is returned as damaged, so that one bad row stops only its own game.
    pub async fn unfinished_games(
        &self,
    ) -> Result<Vec<Result<GameRow, DamagedGame>>, StorageError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status <> 'finished' ORDER BY created_at, id"
        );
        let rows = sqlx::query(&sql).fetch_all(&self.readers).await?;
        Ok(rows
            .iter()
            .map(|r| game_row(r).map_err(|e| damaged(r, e)))
            .collect())
    }

    /// Games newest first; only those of `status` and of a player named `player` if given,
    /// and none a moderator took off the lists. Damaged rows are returned as such.
    pub async fn games(
        &self,
        status: Option<Status>,
        player: Option<&str>,
        limit: u32,
    ) -> Result<Vec<Result<GameRow, DamagedGame>>, StorageError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE ($1 = '' OR status = $1)
                AND ($3 = '' OR black_name = $3 OR white_name = $3) AND hidden_at IS NULL
             ORDER BY created_at DESC, id DESC LIMIT $2"
        );
        let rows = sqlx::query(&sql)
            .bind(status.map_or("", Status::as_str))
            .bind(i64::from(limit))
            .bind(player.unwrap_or_default())
            .fetch_all(&self.readers)
            .await?;
        Ok(rows
            .iter()
            .map(|r| game_row(r).map_err(|e| damaged(r, e)))
            .collect())
    }

    /// The name of the cluster of servers on this database, made by the first to ask (or
    /// made anew, when `new_name`). A database copied from another cluster's (a `pg_dump`
    /// restored for staging, say) keeps that cluster's name, and would share its Redis
    /// channels, bots and challenges: the name is refused there with
    /// [`StorageError::CopiedDatabase`] until it is made anew.
    pub async fn cluster_name(&self, new_name: bool) -> Result<String, StorageError> {
        // This database's identity: its name in its PostgreSQL installation, which a copy
        // differs from in one or the other.
        let here: String = sqlx::query(
            "SELECT current_database() || '@' || CAST(system_identifier AS TEXT) AS here
             FROM pg_control_system()",
        )
        .fetch_one(&self.readers)
        .await?
        .try_get("here")?;
        // Made here unless it exists; a cluster named before its origin was kept counts as
        // named here.
        let sql = match new_name {
            true => {
                "INSERT INTO cluster (one, name, origin) VALUES (1, $1, $2)
                 ON CONFLICT (one) DO UPDATE SET name = excluded.name, origin = excluded.origin"
            }
            false => {
                "INSERT INTO cluster (one, name, origin) VALUES (1, $1, $2)
                 ON CONFLICT (one) DO UPDATE SET origin = COALESCE(cluster.origin, excluded.origin)"
            }
        };
        sqlx::query(sql)
            .bind(crate::ids::new_id())
            .bind(&here)
            .execute(&self.readers)
            .await?;
        let row = sqlx::query("SELECT name, origin FROM cluster WHERE one = 1")
            .fetch_one(&self.readers)
            .await?;
        let origin: String = row.try_get("origin")?;
        if origin != here {
            return Err(StorageError::CopiedDatabase { origin, here });
        }
        Ok(row.try_get("name")?)
    }

    /// How many unfinished games a session, or the people of an address, created.
    pub async fn unfinished_created(&self, by: CreatedBy<'_>) -> Result<i64, StorageError> {
        // The column comes from a closed set, never from input.
        let (column, value) = match by {
            CreatedBy::Session(id) => ("creator", id.to_string()),
            CreatedBy::Address(address) => ("creator_address", address.to_string()),
        };
        let sql =
            format!("SELECT COUNT(*) AS n FROM games WHERE {column} = $1 AND status <> 'finished'");
        let row = sqlx::query(&sql)
            .bind(value)
            .fetch_one(&self.readers)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Whether the database answers a query.
    pub async fn ping(&self) -> Result<(), StorageError> {
        sqlx::query("SELECT 1").execute(&self.readers).await?;
        Ok(())
    }

    /// The open games waiting with quick-pairing key `seek`, oldest first (at most
    /// `limit`): each one's id and creator.
    pub async fn open_games(
        &self,
        seek: &str,
        limit: u32,
    ) -> Result<Vec<(String, Option<String>)>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, creator FROM games WHERE seek = $1 AND status = 'waiting'
             ORDER BY created_at, id LIMIT $2",
        )
        .bind(seek)
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("creator")?)))
            .collect()
    }

    /// The waiting game whose invite code hashes to `invite_hash`.
    pub async fn game_by_invite(&self, invite_hash: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT id FROM games WHERE invite = $1 AND status = 'waiting'")
            .bind(invite_hash)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row.map(|r| r.try_get("id")).transpose()?)
    }

    /// Takes or renews, for `node`, the lease to referee game `game_id` until `until_ms`,
    /// unless another node holds one that has not expired at `now_ms`; whether it did.
    pub async fn claim_referee(
        &self,
        game_id: &str,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StorageError> {
        let done = sqlx::query(
            "INSERT INTO referees (game_id, node, until_ms) VALUES ($1, $2, $3)
             ON CONFLICT (game_id) DO UPDATE SET node = excluded.node, until_ms = excluded.until_ms
             WHERE referees.node = excluded.node OR referees.until_ms < $4",
        )
        .bind(game_id)
        .bind(node)
        .bind(until_ms)
        .bind(now_ms)
        .execute(&self.readers)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Renews every lease of `node` until `until_ms`, forgetting those of finished games;
    /// the games it still referees.
    pub async fn renew_referees(
        &self,
        node: &str,
        until_ms: i64,
    ) -> Result<Vec<String>, StorageError> {
        sqlx::query(
            "DELETE FROM referees WHERE node = $1
             AND game_id IN (SELECT id FROM games WHERE status = 'finished')",
        )
        .bind(node)
        .execute(&self.readers)
        .await?;
        let rows =
            sqlx::query("UPDATE referees SET until_ms = $1 WHERE node = $2 RETURNING game_id")
                .bind(until_ms)
                .bind(node)
                .fetch_all(&self.readers)
                .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, _>>()?)
    }

    /// Live games that no node referees at `now_ms`: none ever did, or its lease expired.
    pub async fn orphaned_games(&self, now_ms: i64) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g LEFT JOIN referees r ON r.game_id = g.id
             WHERE g.status = 'live' AND (r.game_id IS NULL OR r.until_ms < $1)
             ORDER BY g.created_at LIMIT 1000",
        )
        .bind(now_ms)
        .fetch_all(&self.readers)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?)
    }

    /// Gives up every lease of `node` (it stops).
    pub async fn release_referees(&self, node: &str) -> Result<(), StorageError> {
        sqlx::query("DELETE FROM referees WHERE node = $1")
            .bind(node)
            .execute(&self.readers)
            .await?;
        Ok(())
    }

    /// The moves of `game` in order, as many as its row counts: moves stored after the row
    /// was read belong to a later state of the game. A gap in their plies is corruption, not a
    /// shorter game.
    pub async fn moves(&self, game: &GameRow) -> Result<Vec<MoveRow>, StorageError> {
        let game_id = &game.id;
        let rows = sqlx::query(
            "SELECT game_id, ply, mv, black_ms, white_ms, at FROM moves
             WHERE game_id = $1 AND ply < $2 ORDER BY ply",
        )
        .bind(game_id)
        .bind(game.plies)
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRow {
                    game_id: r.try_get("game_id")?,
                    ply: r.try_get("ply")?,
                    notation: r.try_get("mv")?,
                    clocks: pair(r.try_get("black_ms")?, r.try_get("white_ms")?),
                    at: r.try_get("at")?,
                })
            })
            .enumerate()
            .map(|(ply, row): (usize, Result<MoveRow, StorageError>)| {
                let row = row?;
                match row.ply == ply as i64 {
                    true => Ok(row),
                    false => Err(StorageError::Corrupt(format!(
                        "game {game_id}: move {ply} is missing (the next stored is {})",
                        row.ply
                    ))),
                }
            })
            .collect()
    }
}

/// A game whose row cannot be read: set aside, every other game goes on.
#[derive(Debug)]
pub struct DamagedGame {
    pub id: String,
    pub error: StorageError,
}

fn damaged(row: &AnyRow, error: StorageError) -> DamagedGame {
    DamagedGame {
        id: row.try_get("id").unwrap_or_else(|_| "(no id)".into()),
        error,
    }
}

/// A `LIKE` pattern for the stored seat of bot `id`: the seat's JSON names the bot by id
/// (`crate::model::Seat`), and ids are hex digits, so nothing in it needs escaping.
pub(crate) fn bot_seat(id: &str) -> String {
    format!("%\"bot\":\"{id}\"%")
}

/// sqlx's `Any` driver learns its databases once per process.
fn install_drivers() {
    static DRIVERS: Once = Once::new();
    DRIVERS.call_once(sqlx::any::install_default_drivers);
}

/// The file of a `sqlite://PATH?...` URL (as [`Storage::sqlite_url`] writes it).
fn sqlite_file(url: &str) -> PathBuf {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let path = path.split('?').next().unwrap_or_default();
    PathBuf::from(
        path.replace("%23", "#")
            .replace("%3F", "?")
            .replace("%25", "%"),
    )
}

/// Refuses, at once and naming the file, a SQLite file that cannot be toroid's database: an
/// empty file with no write-ahead log (a failed copy), a damaged header, a truncated or
/// otherwise corrupt file (`PRAGMA quick_check`, which reads every page once).
async fn check_sqlite_file(url: &str, options: &AnyConnectOptions) -> Result<(), StorageError> {
    let path = sqlite_file(url);
    let damaged = |cause: String| StorageError::DamagedFile {
        path: path.display().to_string(),
        cause,
    };
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).ok();
    let mut wal = path.clone().into_os_string();
    wal.push("-wal");
    if size(&path) == Some(0) && size(Path::new(&wal)).unwrap_or(0) == 0 {
        return Err(damaged(
            "it is empty (0 bytes) and has no write-ahead log, so it holds no games; move it \
             away to start an empty database, or restore a backup"
                .into(),
        ));
    }
    let mut conn = AnyConnection::connect_with(options)
        .await
        .map_err(|e| damaged(e.to_string()))?;
    let verdict: Vec<String> = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_all(&mut conn)
        .await
        .map_err(|e| damaged(e.to_string()))?;
    let _ = conn.close().await;
    match verdict.as_slice() {
        [ok] if ok == "ok" => Ok(()),
        problems => Err(damaged(format!(
            "{} (restore a backup; `sqlite3 FILE .recover` may save the rest)",
            problems.join("; ")
        ))),
    }
}

/// Who created games, for the limits on unfinished games.
#[derive(Copy, Clone, Debug)]
pub enum CreatedBy<'a> {
    Session(&'a str),
    Address(std::net::IpAddr),
}

/// How to find an account.
#[derive(Copy, Clone, Debug)]
pub enum AccountKey<'a> {
    /// Its name's key (`model::name_key`).
    NameKey(&'a str),
    Id(&'a str),
}

/// How to find a session.
#[derive(Copy, Clone, Debug)]
pub enum SessionKey<'a> {
    Id(&'a str),
    TokenHash(&'a str),
}

/// How to find a bot.
#[derive(Copy, Clone, Debug)]
pub enum BotKey<'a> {
    Id(&'a str),
    TokenHash(&'a str),
    Name(&'a str),
}

const GAME_COLUMNS: &str = "id, game, params, clock_initial_ms, clock_increment_ms, black, \
    white, creator, creator_address, invite, status, result, black_ms, white_ms, plies, created_at, started_at, \
    resumed_at, finished_at, draw_offer, takeback_offer, rematch_offer, rematch_id, rated, \
    tournament_id, counting, seek";

fn pair(a: Option<i64>, b: Option<i64>) -> Option<[i64; 2]> {
    Some([a?, b?])
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    text: Option<String>,
) -> Result<Option<T>, StorageError> {
    text.map(|t| serde_json::from_str(&t).map_err(|e| StorageError::Corrupt(format!("{e}: {t}"))))
        .transpose()
}

/// The rule set named in `column`.
pub(crate) fn game_kind(r: &AnyRow, column: &str) -> Result<GameKind, StorageError> {
    let name: String = r.try_get(column)?;
    name.parse()
        .map_err(|e| StorageError::Corrupt(format!("{column}: {e}")))
}

pub(crate) fn time_control(
    initial_ms: i64,
    increment_ms: i64,
) -> Result<TimeControl, StorageError> {
    TimeControl::new(initial_ms, increment_ms)
        .map_err(|e| StorageError::Corrupt(format!("{initial_ms} + {increment_ms} ms: {e}")))
}

pub(crate) fn bot_row(r: &AnyRow) -> Result<BotRow, StorageError> {
    Ok(BotRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        owner: r.try_get("owner")?,
        token_hash: r.try_get("token_hash")?,
        created_at: r.try_get("created_at")?,
    })
}

fn game_row(r: &AnyRow) -> Result<GameRow, StorageError> {
    let status: String = r.try_get("status")?;
    Ok(GameRow {
        id: r.try_get("id")?,
        spec: GameSpec::from_stored(
            &r.try_get::<String, _>("game")?,
            &r.try_get::<String, _>("params")?,
        )
        .map_err(StorageError::Corrupt)?,
        clock: stored_clock(r)?,
        seats: [
            from_json(r.try_get("black")?)?,
            from_json(r.try_get("white")?)?,
        ],
        creator: r.try_get("creator")?,
        creator_address: (r.try_get::<Option<String>, _>("creator_address")?)
            .map(|text| {
                (text.parse()).map_err(|_| StorageError::Corrupt(format!("an address: {text}")))
            })
            .transpose()?,
        invite_hash: r.try_get("invite")?,
        status: Status::parse(&status)
            .ok_or_else(|| StorageError::Corrupt(format!("game status '{status}'")))?,
        result: from_json(r.try_get("result")?)?,
        final_clocks: pair(r.try_get("black_ms")?, r.try_get("white_ms")?),
        plies: r.try_get("plies")?,
        created_at: r.try_get("created_at")?,
        started_at: r.try_get("started_at")?,
        resumed_at: r.try_get("resumed_at")?,
        finished_at: r.try_get("finished_at")?,
        draw_offer: offer(r, Offer::Draw)?,
        takeback_offer: offer(r, Offer::Takeback)?,
        rematch_offer: offer(r, Offer::Rematch)?,
        rematch_id: r.try_get("rematch_id")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        tournament: r.try_get("tournament_id")?,
        counting: (r.try_get::<Option<String>, _>("counting")?)
            .map(|text| Counting::from_stored(&text).map_err(StorageError::Corrupt))
            .transpose()?,
        seek: r.try_get("seek")?,
    })
}

/// The colour whose `offer` stands in a game's row.
fn offer(r: &AnyRow, offer: Offer) -> Result<Option<toroid_rules::Color>, StorageError> {
    stored_color(r, offer.column())
}

/// The colour named in `column`, if any.
pub(crate) fn stored_color(
    r: &AnyRow,
    column: &str,
) -> Result<Option<toroid_rules::Color>, StorageError> {
    let name: Option<String> = r.try_get(column)?;
    name.map(|name| {
        toroid_rules::Color::BOTH
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| StorageError::Corrupt(format!("{column} '{name}'")))
    })
    .transpose()
}

/// The clock of columns `clock_initial_ms` and `clock_increment_ms`, if any.
pub(crate) fn stored_clock(r: &AnyRow) -> Result<Option<TimeControl>, StorageError> {
    let clock = pair(
        r.try_get("clock_initial_ms")?,
        r.try_get("clock_increment_ms")?,
    );
    clock
        .map(|[initial, increment]| time_control(initial, increment))
        .transpose()
}

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

use crate::model::{GameSpec, Offer, Status, TimeControl};

pub use rows::{
    AccountRow, ArenaMember, BotRow, ChatRow, GameRow, MoveRow, RatingRow, SessionRow, Write,
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
    /// A tournament changed between its reading and its update: read it again.
    #[error("the tournament changed meanwhile")]
    TournamentChanged,
    /// An arena bot was paired, left or joined another pool meanwhile.
    #[error("the arena changed meanwhile")]
    ArenaChanged,
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
    readers: AnyPool,
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

    pub async fn session(&self, token_hash: &str) -> Result<Option<SessionRow>, StorageError> {
        let row = sqlx::query(
            "SELECT id, name, token_hash, created_at, last_seen_at, account_id FROM sessions
             WHERE token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.readers)
        .await?;
        row.map(|r| {
            Ok(SessionRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                token_hash: r.try_get("token_hash")?,
                created_at: r.try_get("created_at")?,
                last_seen_at: r.try_get("last_seen_at")?,
                account_id: r.try_get("account_id")?,
            })
        })
        .transpose()
    }

    /// The bot with this token hash, or with this name.
    pub async fn bot(&self, by: BotKey<'_>) -> Result<Option<BotRow>, StorageError> {
        let (sql, value) = match by {
            BotKey::TokenHash(h) => (
                "SELECT id, name, owner, token_hash, created_at FROM bots WHERE token_hash = $1",
                h,
            ),
            BotKey::Name(n) => (
                "SELECT id, name, owner, token_hash, created_at FROM bots WHERE name = $1",
                n,
            ),
        };
        let row = sqlx::query(sql)
            .bind(value)
            .fetch_optional(&self.readers)
            .await?;
        row.as_ref().map(bot_row).transpose()
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

    /// Games newest first; only those of `status` and of a player named `player` if given.
    /// Damaged rows are returned as such.
    pub async fn games(
        &self,
        status: Option<Status>,
        player: Option<&str>,
        limit: u32,
    ) -> Result<Vec<Result<GameRow, DamagedGame>>, StorageError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE ($1 = '' OR status = $1)
                AND ($3 = '' OR black_name = $3 OR white_name = $3)
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

    /// The games bot `id` played that ended after its last connection did, newest first:
    /// those it has not been told of. None for a bot that never disconnected.
    pub async fn ended_while_away(
        &self,
        bot: &BotRow,
        limit: u32,
    ) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g JOIN bots b ON b.id = $1
             WHERE b.seen_until IS NOT NULL AND g.status = 'finished'
                AND g.finished_at >= b.seen_until
                AND ((g.black_name = $2 AND g.black LIKE $4) OR (g.white_name = $2 AND g.white LIKE $4))
             ORDER BY g.finished_at DESC LIMIT $3",
        )
        .bind(&bot.id)
        .bind(&bot.name)
        .bind(i64::from(limit))
        .bind(bot_seat(&bot.id))
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// How many games bot `black` has had black against bot `white` (ids).
    pub async fn games_as_black(&self, black: &str, white: &str) -> Result<i64, StorageError> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM games WHERE black LIKE $1 AND white LIKE $2")
                .bind(bot_seat(black))
                .bind(bot_seat(white))
                .fetch_one(&self.readers)
                .await?;
        Ok(row.try_get("n")?)
    }

    /// `player`'s rating in `pool`, if it has played a rated game there.
    pub async fn rating(
        &self,
        player: &str,
        pool: GameKind,
    ) -> Result<Option<RatingRow>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 AND pool = $2"
        ))
        .bind(player)
        .bind(pool.name())
        .fetch_optional(&self.readers)
        .await?;
        row.as_ref().map(rating_row).transpose()
    }

    /// The players of `pool`, highest rating first.
    pub async fn leaderboard(
        &self,
        pool: GameKind,
        limit: u32,
    ) -> Result<Vec<RatingRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE pool = $1 ORDER BY rank DESC, player LIMIT $2"
        ))
        .bind(pool.name())
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(rating_row).collect()
    }

    /// `player`'s ratings in every pool it has played.
    pub async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 ORDER BY pool"
        ))
        .bind(player)
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(rating_row).collect()
    }

    /// `player`'s rating after each of its rated games in `pool`, oldest first: (game, when,
    /// the rating after it).
    pub async fn rating_history(
        &self,
        player: &str,
        pool: GameKind,
    ) -> Result<Vec<(String, i64, crate::rating::Rating)>, StorageError> {
        let rows = sqlx::query(
            "SELECT game_id, at, after FROM rating_history WHERE player = $1 AND pool = $2
             ORDER BY at, game_id",
        )
        .bind(player)
        .bind(pool.name())
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| {
                let after = from_json(Some(r.try_get::<String, _>("after")?))?
                    .ok_or_else(|| StorageError::Corrupt("a rating".into()))?;
                Ok((r.try_get("game_id")?, r.try_get("at")?, after))
            })
            .collect()
    }

    /// Tournament `id`'s stored state (JSON) and its version.
    pub async fn tournament(&self, id: &str) -> Result<Option<(String, i64)>, StorageError> {
        let row = sqlx::query("SELECT state, version FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("state")?, r.try_get("version")?)))
            .transpose()?)
    }

    /// The states of the latest `limit` tournaments (JSON), newest first.
    pub async fn recent_tournaments(&self, limit: u32) -> Result<Vec<String>, StorageError> {
        let rows =
            sqlx::query("SELECT state FROM tournaments ORDER BY created_at DESC, id LIMIT $1")
                .bind(i64::from(limit))
                .fetch_all(&self.readers)
                .await?;
        rows.iter().map(|r| Ok(r.try_get("state")?)).collect()
    }

    /// The running tournaments, oldest first.
    pub async fn running_tournaments(&self) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT id FROM tournaments WHERE status = 'running' ORDER BY created_at, id",
        )
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Makes `node` the director of every running tournament that has none at `now_ms`
    /// (none ever had, or its lease expired), and renews its own leases until `until_ms`:
    /// the tournaments it directs.
    pub async fn direct_tournaments(
        &self,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "UPDATE tournaments SET director = $1, director_until = $2
             WHERE status = 'running'
               AND (director IS NULL OR director = $1 OR director_until < $3)
             RETURNING id",
        )
        .bind(node)
        .bind(until_ms)
        .bind(now_ms)
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Gives up the tournaments that `node` directs (it stops), for another node to take.
    pub async fn release_tournaments(&self, node: &str) -> Result<(), StorageError> {
        sqlx::query("UPDATE tournaments SET director = NULL WHERE director = $1")
            .bind(node)
            .execute(&self.readers)
            .await?;
        Ok(())
    }

    /// The arena's bots waiting for a game at `now_ms`: not playing (or their game over),
    /// and their node still holding their connection.
    pub async fn arena_waiting(&self, now_ms: i64) -> Result<Vec<ArenaMember>, StorageError> {
        let rows = sqlx::query(
            "SELECT a.bot_id, b.name, a.game, a.initial_ms, a.increment_ms, a.playing,
                a.last_opponent, COALESCE(g.finished_at, a.waiting_since) AS since
             FROM arena a JOIN bots b ON b.id = a.bot_id LEFT JOIN games g ON g.id = a.playing
             WHERE a.until_ms >= $1
                AND (a.playing IS NULL OR g.status = 'finished' OR g.id IS NULL)
             ORDER BY a.bot_id",
        )
        .bind(now_ms)
        .fetch_all(&self.readers)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ArenaMember {
                    bot_id: r.try_get("bot_id")?,
                    name: r.try_get("name")?,
                    game: game_kind(r, "game")?,
                    clock: time_control(r.try_get("initial_ms")?, r.try_get("increment_ms")?)?,
                    playing: r.try_get("playing")?,
                    last_opponent: r.try_get("last_opponent")?,
                    waiting_since: r.try_get("since")?,
                })
            })
            .collect()
    }

    /// The account whose name, in lowercase, is `name_key`.
    pub async fn account(&self, name_key: &str) -> Result<Option<AccountRow>, StorageError> {
        let row = sqlx::query(
            "SELECT id, name, name_key, password_hash, created_at FROM accounts
             WHERE name_key = $1",
        )
        .bind(name_key)
        .fetch_optional(&self.readers)
        .await?;
        row.map(|r| {
            Ok(AccountRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                name_key: r.try_get("name_key")?,
                password_hash: r.try_get("password_hash")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .transpose()
    }

    /// When bot `id`'s last connection ended; `None` if it never did.
    pub async fn bot_seen_until(&self, id: &str) -> Result<Option<i64>, StorageError> {
        let row = sqlx::query("SELECT seen_until FROM bots WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.readers)
            .await?;
        Ok(row.map(|r| r.try_get("seen_until")).transpose()?.flatten())
    }

    /// The bots that session `owner` registered, oldest first.
    pub async fn bots_of(&self, owner: &str) -> Result<Vec<BotRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, name, owner, token_hash, created_at FROM bots WHERE owner = $1
             ORDER BY created_at, name",
        )
        .bind(owner)
        .fetch_all(&self.readers)
        .await?;
        rows.iter().map(bot_row).collect()
    }

    /// How many unfinished games session `session` created.
    pub async fn unfinished_created_by(&self, session: &str) -> Result<i64, StorageError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE creator = $1 AND status <> 'finished'",
        )
        .bind(session)
        .fetch_one(&self.readers)
        .await?;
        Ok(row.try_get("n")?)
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

    /// The latest `limit` lines of game `game_id`'s chat in `room`, oldest first.
    pub async fn chat(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
    ) -> Result<Vec<ChatRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, game_id, room, author, body, at FROM chat
             WHERE game_id = $1 AND room = $2 ORDER BY at DESC, id DESC LIMIT $3",
        )
        .bind(game_id)
        .bind(room)
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await?;
        let mut lines = rows
            .iter()
            .map(|r| {
                Ok(ChatRow {
                    id: r.try_get("id")?,
                    game_id: r.try_get("game_id")?,
                    room: r.try_get("room")?,
                    author: r.try_get("author")?,
                    body: r.try_get("body")?,
                    at: r.try_get("at")?,
                })
            })
            .collect::<Result<Vec<_>, StorageError>>()?;
        lines.reverse();
        Ok(lines)
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
fn bot_seat(id: &str) -> String {
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

/// How to find a bot.
#[derive(Copy, Clone, Debug)]
pub enum BotKey<'a> {
    TokenHash(&'a str),
    Name(&'a str),
}

const RATING_COLUMNS: &str = "player, pool, name, rating, games, updated_at";

const GAME_COLUMNS: &str = "id, game, params, clock_initial_ms, clock_increment_ms, black, \
    white, creator, invite, status, result, black_ms, white_ms, plies, created_at, started_at, \
    resumed_at, finished_at, draw_offer, takeback_offer, rematch_offer, rematch_id, rated";

fn pair(a: Option<i64>, b: Option<i64>) -> Option<[i64; 2]> {
    Some([a?, b?])
}

fn from_json<T: serde::de::DeserializeOwned>(
    text: Option<String>,
) -> Result<Option<T>, StorageError> {
    text.map(|t| serde_json::from_str(&t).map_err(|e| StorageError::Corrupt(format!("{e}: {t}"))))
        .transpose()
}

/// The rule set named in `column`.
fn game_kind(r: &AnyRow, column: &str) -> Result<GameKind, StorageError> {
    let name: String = r.try_get(column)?;
    name.parse()
        .map_err(|e| StorageError::Corrupt(format!("{column}: {e}")))
}

fn time_control(initial_ms: i64, increment_ms: i64) -> Result<TimeControl, StorageError> {
    TimeControl::new(initial_ms, increment_ms)
        .map_err(|e| StorageError::Corrupt(format!("{initial_ms} + {increment_ms} ms: {e}")))
}

fn bot_row(r: &AnyRow) -> Result<BotRow, StorageError> {
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
    let clock = pair(
        r.try_get("clock_initial_ms")?,
        r.try_get("clock_increment_ms")?,
    );
    Ok(GameRow {
        id: r.try_get("id")?,
        spec: GameSpec::from_stored(
            &r.try_get::<String, _>("game")?,
            &r.try_get::<String, _>("params")?,
        )
        .map_err(StorageError::Corrupt)?,
        clock: clock
            .map(|[initial, increment]| time_control(initial, increment))
            .transpose()?,
        seats: [
            from_json(r.try_get("black")?)?,
            from_json(r.try_get("white")?)?,
        ],
        creator: r.try_get("creator")?,
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
    })
}

/// The colour whose `offer` stands in a game's row.
fn offer(r: &AnyRow, offer: Offer) -> Result<Option<toroid_rules::Color>, StorageError> {
    let by: Option<String> = r.try_get(offer.column())?;
    by.map(|name| {
        toroid_rules::Color::BOTH
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| StorageError::Corrupt(format!("{} '{name}'", offer.column())))
    })
    .transpose()
}

fn rating_row(r: &AnyRow) -> Result<RatingRow, StorageError> {
    Ok(RatingRow {
        player: r.try_get("player")?,
        pool: game_kind(r, "pool")?,
        name: r.try_get("name")?,
        rating: from_json(Some(r.try_get::<String, _>("rating")?))?
            .ok_or_else(|| StorageError::Corrupt("a rating".into()))?,
        games: r.try_get("games")?,
        updated_at: r.try_get("updated_at")?,
    })
}

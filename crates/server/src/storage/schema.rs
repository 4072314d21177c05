//! The database schema and its migrations. The same SQL runs on SQLite and PostgreSQL: text
//! and 64-bit integers only, ids made by the server, times in milliseconds since the epoch.

use sqlx::{Any, AnyPool, Row, Transaction};

use super::StorageError;
use crate::ids::hash_secret;
use crate::model::{name_key, Seat};

/// One step of a migration: SQL, or a change SQL cannot make on both databases.
enum Step {
    Sql(&'static str),
    /// Replaces each stored invite code by its hash.
    HashInviteCodes,
    /// Copies each seat's player name out of its JSON into `black_name`/`white_name`.
    SeatNames,
    /// Gives every account, bot and session its name's key (`model::name_key`).
    NameKeys,
    /// Gives every chat line its author's name key.
    ChatAuthorKeys,
}

use Step::Sql;

/// Each entry brings the schema from the previous version to the next; entry `i` makes
/// version `i + 1`. Never edit an entry that has shipped: append a new one.
const MIGRATIONS: &[&[Step]] = &[
    &[
        Sql("CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL)"),
        Sql("CREATE TABLE bots (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        owner TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL)"),
        // Seats are JSON (`crate::model::Seat`), NULL while open; `result` is JSON
        // (`toroid_rules::Outcome` as JSON); `black_ms`/`white_ms` are the clocks when it ended.
        Sql("CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        params TEXT NOT NULL,
        clock_initial_ms BIGINT,
        clock_increment_ms BIGINT,
        black TEXT,
        white TEXT,
        creator TEXT,
        invite TEXT UNIQUE,
        status TEXT NOT NULL,
        result TEXT,
        black_ms BIGINT,
        white_ms BIGINT,
        created_at BIGINT NOT NULL,
        finished_at BIGINT)"),
        Sql("CREATE INDEX games_by_status ON games (status, created_at)"),
        // The clocks after the move (NULL without a clock), so a restart resumes them.
        Sql("CREATE TABLE moves (
        game_id TEXT NOT NULL,
        ply BIGINT NOT NULL,
        mv TEXT NOT NULL,
        black_ms BIGINT,
        white_ms BIGINT,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply))"),
    ],
    // Sessions expire when idle: when each was last used.
    &[
        Sql("ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT"),
        Sql("UPDATE sessions SET last_seen_at = created_at"),
    ],
    // Invite codes are stored hashed, as session and bot tokens are.
    &[Step::HashInviteCodes],
    // Several servers on one database: each game counts its moves, which every move must
    // match (the database picks one of two moves for the same ply); when a game started and
    // when a server last took it over, for its clock on the other servers; and which server
    // referees each live game until when (a lease).
    &[
        Sql("ALTER TABLE games ADD COLUMN plies BIGINT NOT NULL DEFAULT 0"),
        Sql("UPDATE games SET plies = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)"),
        Sql("ALTER TABLE games ADD COLUMN started_at BIGINT"),
        Sql("UPDATE games SET started_at = created_at WHERE status <> 'waiting'"),
        Sql("ALTER TABLE games ADD COLUMN resumed_at BIGINT"),
        Sql("CREATE TABLE referees (
        game_id TEXT PRIMARY KEY,
        node TEXT NOT NULL,
        until_ms BIGINT NOT NULL)"),
        // The cluster's name, made by its first node: the nodes of one database talk on
        // channels of that name, so clusters can share a Redis.
        Sql("CREATE TABLE cluster (
        one BIGINT PRIMARY KEY CHECK (one = 1),
        name TEXT NOT NULL)"),
    ],
    // The bot API: games are found by their players' names; a live game's standing draw
    // offer (the colour that made it); until when a bot has been told of its games' ends
    // (its last connection's catch-up or end), so that it is told on its return of the
    // games that ended meanwhile, and its opponents may claim victory once it has been gone
    // long enough.
    &[
        Sql("ALTER TABLE games ADD COLUMN black_name TEXT"),
        Sql("ALTER TABLE games ADD COLUMN white_name TEXT"),
        Step::SeatNames,
        Sql("CREATE INDEX games_by_black_name ON games (black_name, created_at)"),
        Sql("CREATE INDEX games_by_white_name ON games (white_name, created_at)"),
        Sql("ALTER TABLE games ADD COLUMN draw_offer TEXT"),
        Sql("ALTER TABLE bots ADD COLUMN seen_until BIGINT"),
    ],
    // Accounts: a name claimed with a password (hashed with argon2id), unique whatever its
    // case (`name_key` is its lowercase); a session signed in to one.
    &[
        Sql("CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL)"),
        Sql("ALTER TABLE sessions ADD COLUMN account_id TEXT"),
    ],
    // Ratings: rated games; each player's Glicko-2 rating per pool (a rule set), as JSON
    // (`crate::rating::Rating`) with its value rounded in `rank` for ordering; and every
    // change, by game.
    &[
        Sql("ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0"),
        Sql("CREATE TABLE ratings (
        player TEXT NOT NULL,
        pool TEXT NOT NULL,
        name TEXT NOT NULL,
        rating TEXT NOT NULL,
        rank BIGINT NOT NULL,
        games BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (player, pool))"),
        Sql("CREATE INDEX ratings_by_pool ON ratings (pool, rank)"),
        Sql("CREATE TABLE rating_history (
        player TEXT NOT NULL,
        pool TEXT NOT NULL,
        game_id TEXT NOT NULL,
        at BIGINT NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL,
        PRIMARY KEY (player, pool, game_id))"),
    ],
    // Tournaments: each one's whole state as JSON (`crate::hub::tournaments::Tournament`).
    &[Sql("CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at BIGINT NOT NULL)")],
    // The tournament list reads the newest first.
    &[Sql(
        "CREATE INDEX tournaments_by_created ON tournaments (created_at)",
    )],
    // Around the game: a live game's standing takeback request (the colour that asked); a
    // finished game's standing rematch offer and the game the rematch opened; and each
    // game's chat, one row a line (`room` is `players` or `spectators`).
    &[
        Sql("ALTER TABLE games ADD COLUMN takeback_offer TEXT"),
        Sql("ALTER TABLE games ADD COLUMN rematch_offer TEXT"),
        Sql("ALTER TABLE games ADD COLUMN rematch_id TEXT"),
        Sql("CREATE TABLE chat (
        id TEXT PRIMARY KEY,
        game_id TEXT NOT NULL,
        room TEXT NOT NULL,
        author TEXT NOT NULL,
        body TEXT NOT NULL,
        at BIGINT NOT NULL)"),
        Sql("CREATE INDEX chat_by_game ON chat (game_id, room, at)"),
    ],
    // A tournament changes only from the version it was read at (`version`), and one node
    // directs a running tournament under a lease (`director` until `director_until`), as a
    // referee runs a game.
    &[
        Sql("ALTER TABLE tournaments ADD COLUMN version BIGINT NOT NULL DEFAULT 0"),
        Sql("ALTER TABLE tournaments ADD COLUMN director TEXT"),
        Sql("ALTER TABLE tournaments ADD COLUMN director_until BIGINT"),
    ],
    // The arena: each bot in a pool, the node that holds its connection (until `until_ms`,
    // renewed while it does), the arena game it plays and whom it met last.
    &[Sql("CREATE TABLE arena (
        bot_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        initial_ms BIGINT NOT NULL,
        increment_ms BIGINT NOT NULL,
        node TEXT NOT NULL,
        until_ms BIGINT NOT NULL,
        waiting_since BIGINT NOT NULL,
        playing TEXT,
        last_opponent TEXT)")],
    // The database the cluster's name was made on (`Storage::cluster_name`): a copy of the
    // database elsewhere is told from the original.
    &[Sql("ALTER TABLE cluster ADD COLUMN origin TEXT")],
    // The address a person created an unfinished game from, for the limit on unfinished
    // games per address on every node; cleared when the game ends.
    &[
        Sql("ALTER TABLE games ADD COLUMN creator_address TEXT"),
        Sql("CREATE INDEX games_by_creator_address ON games (creator_address)"),
    ],
    // The addresses each account signed in from (each as its SHA-256) and when last: guesses
    // at a name from elsewhere do not lock its owner out of an address they used before.
    &[Sql("CREATE TABLE account_addresses (
        account_id TEXT NOT NULL,
        address_hash TEXT NOT NULL,
        last_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, address_hash))")],
    // One key per name for accounts, bots and guests (`model::name`): `names` holds the key
    // of each account's and bot's name and who holds it (`account:ID`, `bot:ID`; a deleted
    // bot's stays, so that its name never passes to another player with its history), and
    // each session its name's key. The accounts' keys are made again.
    &[
        Sql("CREATE TABLE names (
        name_key TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        created_at BIGINT NOT NULL)"),
        Sql("ALTER TABLE sessions ADD COLUMN name_key TEXT"),
        Step::NameKeys,
        Sql("CREATE INDEX sessions_by_name_key ON sessions (name_key)"),
    ],
    // The tournament a game belongs to: a tournament game is not aborted, and a player who
    // never makes a first move loses it.
    &[Sql("ALTER TABLE games ADD COLUMN tournament_id TEXT")],
    // Administration (`toroid admin`): an account's role (`admin`, `moderator`, none) and
    // when it was banned; the site's settings (`sign-ups`: `open` or `closed`).
    &[
        Sql("ALTER TABLE accounts ADD COLUMN role TEXT"),
        Sql("ALTER TABLE accounts ADD COLUMN banned_at BIGINT"),
        Sql("CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL)"),
    ],
    // Moderation and self-protection: each chat line's author's name key (a moderator reads
    // one player's lines; a blocked player's lines are not shown) and when a moderator
    // deleted it; when a moderator took a game off the lists; the players' reports (who
    // made it: an account or a guest session; whom it is about; a chat line it points at);
    // whom each person blocks (by name key); and bans found by their time.
    &[
        Sql("ALTER TABLE chat ADD COLUMN author_key TEXT"),
        Sql("ALTER TABLE chat ADD COLUMN deleted_at BIGINT"),
        Step::ChatAuthorKeys,
        Sql("CREATE INDEX chat_by_author ON chat (author_key, at)"),
        Sql("ALTER TABLE games ADD COLUMN hidden_at BIGINT"),
        Sql("CREATE TABLE reports (
        id TEXT PRIMARY KEY,
        reporter TEXT NOT NULL,
        reporter_name TEXT NOT NULL,
        player TEXT NOT NULL,
        player_key TEXT NOT NULL,
        chat_id TEXT,
        reason TEXT NOT NULL,
        at BIGINT NOT NULL,
        resolved_at BIGINT,
        resolved_by TEXT)"),
        Sql("CREATE INDEX reports_by_time ON reports (at)"),
        // Each node looks for the accounts banned lately (`toroid admin` reaches only the
        // database).
        Sql("CREATE INDEX accounts_by_banned_at ON accounts (banned_at)"),
        Sql("CREATE TABLE blocks (
        blocker TEXT NOT NULL,
        blocked_key TEXT NOT NULL,
        blocked_name TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (blocker, blocked_key))"),
    ],
    // Go's scoring phase: the dead stones the players of a game agree on after two passes,
    // and who accepts them (`model::Counting` as JSON); kept once the game is over.
    // Challenges to a player by name, kept until answered or expired: the challenger's
    // seat (JSON) and name key; the account or bot challenged; the game, its clock and the
    // colour of the player challenged; `open`, `accepted`, `declined` or `withdrawn`, when,
    // the game it opened and a reason.
    &[
        Sql("ALTER TABLE games ADD COLUMN counting TEXT"),
        Sql("CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        challenger TEXT NOT NULL,
        challenger_key TEXT NOT NULL,
        challenged_account TEXT,
        challenged_bot TEXT,
        challenged_name TEXT NOT NULL,
        challenged_key TEXT NOT NULL,
        game TEXT NOT NULL,
        params TEXT NOT NULL,
        clock_initial_ms BIGINT,
        clock_increment_ms BIGINT,
        color TEXT NOT NULL,
        rated INTEGER NOT NULL,
        status TEXT NOT NULL,
        game_id TEXT,
        reason TEXT,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        answered_at BIGINT)"),
        Sql("CREATE INDEX challenges_to ON challenges (challenged_key, status)"),
        Sql("CREATE INDEX challenges_from ON challenges (challenger_key, status)"),
    ],
    // Open games: a waiting game anyone may join from its page, and whose quick-pairing key
    // (its rule set, parameters, clock and rating) quick pairing finds the oldest of.
    // Reviews of finished games by the house engine: one row a game, its positions' points
    // as a JSON array, written by the task that owns it (`owner`) as it goes.
    &[
        Sql("ALTER TABLE games ADD COLUMN seek TEXT"),
        Sql("CREATE INDEX games_by_seek ON games (seek, status, created_at)"),
        // Who follows whom (by name key, as blocks), and when a session's page was last open.
        Sql("CREATE TABLE follows (
        follower TEXT NOT NULL,
        followed_key TEXT NOT NULL,
        followed_name TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (follower, followed_key))"),
        Sql("ALTER TABLE sessions ADD COLUMN online_at BIGINT"),
        Sql("CREATE TABLE reviews (
        game_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        owner TEXT NOT NULL,
        total BIGINT NOT NULL,
        points TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL)"),
        // Puzzles mined from finished games (`mined_at` set once a game's positions were
        // searched): the game they come from (its spec as JSON, its moves to the puzzle as
        // a JSON array, and the position's hash, one puzzle a position), the goal and the
        // answer, the puzzle's Glicko-2 rating (JSON, and rounded in `rank` to find puzzles
        // near a player's), attempts and solves. A player's puzzle rating per rule set, and
        // each puzzle a player tried, once.
        Sql("ALTER TABLE games ADD COLUMN mined_at BIGINT"),
        // A challenge to a guest, by session (the guest's page was open).
        Sql("ALTER TABLE challenges ADD COLUMN challenged_session TEXT"),
        Sql("CREATE INDEX games_to_mine ON games (status, mined_at, finished_at)"),
        Sql("CREATE TABLE puzzles (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        spec TEXT NOT NULL,
        moves TEXT NOT NULL,
        position TEXT NOT NULL,
        goal TEXT NOT NULL,
        answer TEXT NOT NULL,
        plies BIGINT NOT NULL,
        game_id TEXT NOT NULL,
        ply BIGINT NOT NULL,
        rating TEXT NOT NULL,
        rank BIGINT NOT NULL,
        attempts BIGINT NOT NULL,
        solved BIGINT NOT NULL,
        created_at BIGINT NOT NULL)"),
        Sql("CREATE UNIQUE INDEX puzzles_by_position ON puzzles (spec, position)"),
        Sql("CREATE INDEX puzzles_by_rank ON puzzles (game, rank)"),
        Sql("CREATE INDEX puzzles_by_game_id ON puzzles (game_id)"),
        Sql("CREATE TABLE puzzle_ratings (
        account_id TEXT NOT NULL,
        pool TEXT NOT NULL,
        rating TEXT NOT NULL,
        attempts BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, pool))"),
        Sql("CREATE TABLE puzzle_attempts (
        account_id TEXT NOT NULL,
        puzzle_id TEXT NOT NULL,
        solved INTEGER NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (account_id, puzzle_id))"),
    ],
];

/// The PostgreSQL advisory lock that migrations take, so that nodes started together on one
/// database migrate it one at a time (any number that no other lock of this database uses).
const MIGRATION_LOCK: i64 = 0x746f_726f_6964; // "toroid"

/// Creates the schema or brings it up to date, in one transaction. On PostgreSQL the
/// transaction first takes [`MIGRATION_LOCK`]: without it, two nodes creating the same
/// tables at once fail on PostgreSQL's catalogue (`pg_type_typname_nsp_index`); with it,
/// the second waits and then finds the schema current. (SQLite's writer lock does the same.)
pub async fn migrate(pool: &AnyPool, postgres: bool) -> Result<(), StorageError> {
    let mut tx = pool.begin().await?;
    if postgres {
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(MIGRATION_LOCK)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(&mut *tx)
        .await?;
    let current: i64 = sqlx::query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
        .fetch_one(&mut *tx)
        .await?
        .try_get("v")?;
    let known = MIGRATIONS.len() as i64;
    if current > known {
        return Err(StorageError::TooNew {
            found: current,
            known,
        });
    }
    for (i, steps) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        for step in *steps {
            match step {
                Sql(sql) => {
                    sqlx::query(sql).execute(&mut *tx).await?;
                }
                Step::HashInviteCodes => hash_invite_codes(&mut tx).await?,
                Step::SeatNames => seat_names(&mut tx).await?,
                Step::NameKeys => name_keys(&mut tx).await?,
                Step::ChatAuthorKeys => chat_author_keys(&mut tx).await?,
            }
        }
        sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
            .bind(i as i64 + 1)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn hash_invite_codes(tx: &mut Transaction<'_, Any>) -> Result<(), StorageError> {
    let rows = sqlx::query("SELECT id, invite FROM games WHERE invite IS NOT NULL")
        .fetch_all(&mut **tx)
        .await?;
    for row in rows {
        let (id, code): (String, String) = (row.try_get("id")?, row.try_get("invite")?);
        sqlx::query("UPDATE games SET invite = $1 WHERE id = $2")
            .bind(hash_secret(&code))
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

async fn seat_names(tx: &mut Transaction<'_, Any>) -> Result<(), StorageError> {
    let rows = sqlx::query("SELECT id, black, white FROM games")
        .fetch_all(&mut **tx)
        .await?;
    for row in rows {
        let id: String = row.try_get("id")?;
        let name = |column: &str| -> Result<Option<String>, StorageError> {
            let seat: Option<String> = row.try_get(column)?;
            // A seat that cannot be read is left for the game's own load to report.
            Ok(seat
                .and_then(|json| serde_json::from_str::<Seat>(&json).ok())
                .map(|seat| seat.name().to_string()))
        };
        sqlx::query("UPDATE games SET black_name = $1, white_name = $2 WHERE id = $3")
            .bind(name("black")?)
            .bind(name("white")?)
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Gives the accounts, oldest first, then the bots their names' keys in `names`, and each
/// session its name's key. Of two existing names with one key the older keeps it; the
/// younger account keeps its old key (its lower-case name), so it still signs in.
async fn name_keys(tx: &mut Transaction<'_, Any>) -> Result<(), StorageError> {
    let accounts = sqlx::query("SELECT id, name, created_at FROM accounts ORDER BY created_at, id")
        .fetch_all(&mut **tx)
        .await?;
    // Out of the way first: a new key may be another account's old one.
    sqlx::query("UPDATE accounts SET name_key = '#' || id")
        .execute(&mut **tx)
        .await?;
    let mut taken = std::collections::HashSet::new();
    for row in accounts {
        let (id, name, at): (String, String, i64) = (
            row.try_get("id")?,
            row.try_get("name")?,
            row.try_get("created_at")?,
        );
        let mut key = name_key(&name);
        if !taken.insert(key.clone()) {
            key = name.to_lowercase();
            if !taken.insert(key.clone()) {
                key = format!("#{id}");
            }
        }
        sqlx::query("UPDATE accounts SET name_key = $1 WHERE id = $2")
            .bind(&key)
            .bind(&id)
            .execute(&mut **tx)
            .await?;
        sqlx::query("INSERT INTO names (name_key, holder, created_at) VALUES ($1, $2, $3)")
            .bind(&key)
            .bind(format!("account:{id}"))
            .bind(at)
            .execute(&mut **tx)
            .await?;
    }
    let bots = sqlx::query("SELECT id, name, created_at FROM bots ORDER BY created_at, id")
        .fetch_all(&mut **tx)
        .await?;
    for row in bots {
        let (id, name, at): (String, String, i64) = (
            row.try_get("id")?,
            row.try_get("name")?,
            row.try_get("created_at")?,
        );
        if taken.insert(name_key(&name)) {
            sqlx::query("INSERT INTO names (name_key, holder, created_at) VALUES ($1, $2, $3)")
                .bind(name_key(&name))
                .bind(format!("bot:{id}"))
                .bind(at)
                .execute(&mut **tx)
                .await?;
        }
    }
    let sessions = sqlx::query("SELECT id, name FROM sessions")
        .fetch_all(&mut **tx)
        .await?;
    for row in sessions {
        let (id, name): (String, String) = (row.try_get("id")?, row.try_get("name")?);
        sqlx::query("UPDATE sessions SET name_key = $1 WHERE id = $2")
            .bind(name_key(&name))
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

async fn chat_author_keys(tx: &mut Transaction<'_, Any>) -> Result<(), StorageError> {
    let lines = sqlx::query("SELECT id, author FROM chat")
        .fetch_all(&mut **tx)
        .await?;
    for row in lines {
        let (id, author): (String, String) = (row.try_get("id")?, row.try_get("author")?);
        sqlx::query("UPDATE chat SET author_key = $1 WHERE id = $2")
            .bind(name_key(&author))
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

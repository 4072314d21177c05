//! The storage layer against SQLite and against the PostgreSQL server that
//! `TOROID_TEST_POSTGRES` names (`postgres://USER@HOST:PORT`; each test creates a database
//! of its own there). `scripts/test` starts a throwaway server and sets the variable;
//! without it the PostgreSQL tests fail and say so, rather than pass untested.

mod common;

use common::{on_both_stores, Site, Store};

use std::time::Instant;

use toroid_rules::{Color, Outcome};
use toroid_search::Level;
use toroid_server::model::{GameSpec, Seat, Status, TimeControl};
use toroid_server::storage::{
    AccountKey, BotKey, BotRow, GameRow, MoveRow, SessionKey, SessionRow, Storage, Write,
};

/// The storage of `db`'s database.
async fn open(db: &Site) -> Storage {
    Storage::open(&db.url()).await.expect("the database opens")
}

on_both_stores!(
    sessions_and_bots_are_found_by_their_hashes,
    a_game_lives_and_ends,
    a_failed_batch_stores_nothing_and_spares_the_others,
    concurrent_writes_are_all_committed,
    data_survives_reopening,
    invite_codes_stored_in_plain_are_hashed_by_the_migration,
    the_migration_gives_stored_names_their_keys,
);

fn session(n: u32) -> SessionRow {
    SessionRow {
        id: format!("s{n}"),
        name: format!("player {n}"),
        token_hash: format!("hash-{n}"),
        created_at: 1_000 + i64::from(n),
        last_seen_at: 2_000 + i64::from(n),
        account_id: None,
    }
}

fn game(id: &str, created_at: i64) -> GameRow {
    GameRow {
        id: id.into(),
        spec: GameSpec::from_stored("go", r#"{"size":9}"#).unwrap(),
        clock: Some(TimeControl::new(60_000, 2_000).unwrap()),
        seats: [
            Some(Seat::Person {
                session: "s1".into(),
                name: "player 1".into(),
                account: None,
            }),
            None,
        ],
        creator: Some("s1".into()),
        creator_address: Some([127, 0, 0, 1].into()),
        invite_hash: Some(format!("hash-{id}")),
        status: Status::Waiting,
        result: None,
        final_clocks: None,
        plies: 0,
        created_at,
        started_at: None,
        resumed_at: None,
        finished_at: None,
        draw_offer: None,
        takeback_offer: None,
        rematch_offer: None,
        rematch_id: None,
        rated: false,
        tournament: None,
        counting: None,
        seek: None,
    }
}

/// A game both of whose seats are taken: moves can be stored.
fn live(id: &str, created_at: i64) -> GameRow {
    let mut row = game(id, created_at);
    row.seats[1] = Some(Seat::House {
        level: Level::Random,
    });
    row.status = Status::Live;
    row.started_at = Some(created_at);
    row
}

/// The stored moves of game `id`.
async fn stored_moves(
    storage: &Storage,
    id: &str,
) -> Result<Vec<MoveRow>, toroid_server::storage::StorageError> {
    let row = storage.game(id).await?.expect("the game is stored");
    storage.moves(&row).await
}

fn mv(game: &str, ply: i64, notation: &str) -> Write {
    Write::Move(MoveRow {
        game_id: game.into(),
        ply,
        notation: notation.into(),
        clocks: Some([60_000 - ply, 59_000 + ply]),
        at: 5_000 + ply,
    })
}

async fn sessions_and_bots_are_found_by_their_hashes(store: Store) {
    let db = Site::new(store).await;
    let storage = open(&db).await;
    storage
        .commit(vec![Write::Session(session(1)), Write::Session(session(2))])
        .await
        .unwrap();
    // Marking a bot gone (deleted) as seen is no failure: nothing to mark.
    let gone = Write::BotSeen {
        id: "gone".into(),
        at: 5,
    };
    storage.commit(vec![gone]).await.unwrap();
    assert_eq!(
        storage
            .session(SessionKey::TokenHash("hash-2"))
            .await
            .unwrap(),
        Some(session(2))
    );
    assert_eq!(
        storage
            .session(SessionKey::TokenHash("nope"))
            .await
            .unwrap(),
        None
    );

    let bot = BotRow {
        id: "b1".into(),
        name: "Hexer".into(),
        owner: "s1".into(),
        token_hash: "bot-hash".into(),
        created_at: 7,
    };
    storage.commit(vec![Write::Bot(bot.clone())]).await.unwrap();
    assert_eq!(
        storage.bot(BotKey::Name("Hexer")).await.unwrap(),
        Some(bot.clone())
    );
    assert_eq!(
        storage.bot(BotKey::TokenHash("bot-hash")).await.unwrap(),
        Some(bot.clone())
    );
    assert_eq!(storage.bot(BotKey::Name("hexer")).await.unwrap(), None);
    // Names are unique.
    let twin = BotRow {
        id: "b2".into(),
        token_hash: "other".into(),
        ..bot
    };
    assert!(storage.commit(vec![Write::Bot(twin)]).await.is_err());
}

async fn a_game_lives_and_ends(store: Store) {
    let db = Site::new(store).await;
    let storage = open(&db).await;
    storage
        .commit(vec![
            Write::Game(Box::new(game("g1", 10))),
            Write::Game(Box::new(game("g2", 20))),
        ])
        .await
        .unwrap();
    let joined = Seat::House {
        level: Level::Casual,
    };
    storage
        .commit(vec![Write::Seat {
            game_id: "g1".into(),
            color: Color::White,
            seat: joined.clone(),
            at: 30,
        }])
        .await
        .unwrap();
    storage
        .commit(vec![mv("g1", 0, "ee"), mv("g1", 1, "cc")])
        .await
        .unwrap();
    storage.commit(vec![mv("g1", 2, "pass")]).await.unwrap();

    let g1 = storage.game("g1").await.unwrap().unwrap();
    assert_eq!(g1.status, Status::Live);
    assert_eq!(g1.seats[1], Some(joined));
    assert_eq!(g1.clock, game("g1", 10).clock);
    let moves = stored_moves(&storage, "g1").await.unwrap();
    let notation: Vec<&str> = moves.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notation, ["ee", "cc", "pass"]);
    assert_eq!(moves[2].clocks, Some([59_998, 59_002]));
    assert_eq!(stored_moves(&storage, "g2").await.unwrap(), []);
    let unfinished: Vec<String> = storage
        .unfinished_games()
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.unwrap().id)
        .collect();
    assert_eq!(unfinished, ["g1", "g2"]);

    let end = Outcome::resignation(Color::Black);
    storage
        .commit(vec![Write::Finish {
            game_id: "g1".into(),
            result: end,
            clocks: Some([1, 2]),
            at: 99,
        }])
        .await
        .unwrap();
    let g1 = storage.game("g1").await.unwrap().unwrap();
    assert_eq!(
        (g1.status, g1.result, g1.final_clocks, g1.finished_at),
        (Status::Finished, Some(end), Some([1, 2]), Some(99))
    );
    assert_eq!(storage.unfinished_games().await.unwrap().len(), 1);

    let all: Vec<GameRow> = (storage.games(None, None, 10).await.unwrap())
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let listed: Vec<(&str, i64)> = all.iter().map(|g| (g.id.as_str(), g.plies)).collect();
    assert_eq!(listed, [("g2", 0), ("g1", 3)], "newest first, with plies");
    let finished = storage
        .games(Some(Status::Finished), None, 10)
        .await
        .unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!(storage.games(None, None, 1).await.unwrap().len(), 1);
    // Finishing a game that does not exist is an error, not a silent no-op.
    let missing = Write::Finish {
        game_id: "nope".into(),
        result: Outcome::time(Color::White),
        clocks: None,
        at: 1,
    };
    assert!(storage.commit(vec![missing]).await.is_err());
}

async fn a_failed_batch_stores_nothing_and_spares_the_others(store: Store) {
    let db = Site::new(store).await;
    let storage = open(&db).await;
    storage
        .commit(vec![Write::Game(Box::new(live("g", 1)))])
        .await
        .unwrap();
    storage.commit(vec![mv("g", 0, "aa")]).await.unwrap();
    // A batch whose second write repeats a ply: neither of its writes is kept.
    let bad = {
        let storage = storage.clone();
        tokio::spawn(async move {
            storage
                .commit(vec![mv("g", 1, "bb"), mv("g", 0, "cc")])
                .await
        })
    };
    // Meanwhile other jobs, perhaps in the same transaction, still commit.
    let good: Vec<_> = (0..20)
        .map(|i| {
            let storage = storage.clone();
            tokio::spawn(
                async move { storage.commit(vec![Write::Session(session(100 + i))]).await },
            )
        })
        .collect();
    assert!(bad.await.unwrap().is_err());
    for job in good {
        job.await.unwrap().unwrap();
    }
    let moves = stored_moves(&storage, "g").await.unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].notation, "aa");
    assert!(storage
        .session(SessionKey::TokenHash("hash-119"))
        .await
        .unwrap()
        .is_some());
}

async fn concurrent_writes_are_all_committed(store: Store) {
    let db = Site::new(store).await;
    let storage = open(&db).await;
    const GAMES: usize = 40;
    const MOVES: i64 = 25;
    let games: Vec<Write> = (0..GAMES)
        .map(|g| Write::Game(Box::new(live(&format!("g{g}"), g as i64))))
        .collect();
    storage.commit(games).await.unwrap();
    let start = Instant::now();
    let tasks: Vec<_> = (0..GAMES)
        .map(|g| {
            let storage = storage.clone();
            tokio::spawn(async move {
                for ply in 0..MOVES {
                    storage
                        .commit(vec![mv(&format!("g{g}"), ply, "aa")])
                        .await
                        .unwrap();
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let total = GAMES as f64 * MOVES as f64;
    eprintln!(
        "{total} durable moves from {GAMES} games at once: {:.0} moves/s",
        total / start.elapsed().as_secs_f64()
    );
    for g in 0..GAMES {
        assert_eq!(
            stored_moves(&storage, &format!("g{g}"))
                .await
                .unwrap()
                .len(),
            MOVES as usize
        );
    }
}

/// Nodes of a cluster started together on an empty PostgreSQL database each migrate it:
/// one creates the schema while the others wait, then find it current. (An SQLite file
/// serves one node, so this is PostgreSQL's alone.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_opening_an_empty_database_together_all_migrate_it() {
    let db = Site::new(Store::Postgres).await;
    let url = db.url();
    let opened = futures_util::future::join_all((0..3).map(|_| Storage::open(&url))).await;
    for (n, storage) in (1..).zip(opened) {
        let storage = storage.expect("every node opens the database");
        storage
            .commit(vec![Write::Session(session(n))])
            .await
            .unwrap();
    }
    let storage = open(&db).await;
    for n in 1..=3 {
        assert!(storage
            .session(SessionKey::TokenHash(&format!("hash-{n}")))
            .await
            .unwrap()
            .is_some());
    }
}

async fn data_survives_reopening(store: Store) {
    let db = Site::new(store).await;
    {
        let storage = open(&db).await;
        storage
            .commit(vec![Write::Game(Box::new(live("kept", 5)))])
            .await
            .unwrap();
        storage.commit(vec![mv("kept", 0, "ee")]).await.unwrap();
    }
    // Opening again finds the schema current and the data there.
    let storage = open(&db).await;
    let kept = GameRow {
        plies: 1,
        ..live("kept", 5)
    };
    assert_eq!(storage.game("kept").await.unwrap(), Some(kept));
    assert_eq!(stored_moves(&storage, "kept").await.unwrap().len(), 1);

    // A session's last use is kept, and an ended session is gone.
    let kept = session(7);
    storage
        .commit(vec![Write::Session(kept.clone())])
        .await
        .unwrap();
    let id = kept.id.clone();
    let seen = Write::SessionSeen { id, at: 9_999 };
    storage.commit(vec![seen]).await.unwrap();
    let found = storage
        .session(SessionKey::TokenHash(&kept.token_hash))
        .await
        .unwrap();
    assert_eq!(found.map(|s| s.last_seen_at), Some(9_999));
    let id = kept.id.clone();
    storage
        .commit(vec![Write::EndSession { id }])
        .await
        .unwrap();
    assert_eq!(
        storage
            .session(SessionKey::TokenHash(&kept.token_hash))
            .await
            .unwrap(),
        None
    );
}

/// What the migrations since the moderation step added, newest first: the start of every
/// downgrade below (a new migration adds its undoing at the top).
const UNDO_LATEST: &[&str] = &[
    "ALTER TABLE challenges DROP COLUMN challenged_session",
    "DROP TABLE puzzle_attempts",
    "DROP TABLE puzzle_ratings",
    "DROP TABLE puzzles",
    "DROP INDEX games_to_mine",
    "ALTER TABLE games DROP COLUMN mined_at",
    "DROP TABLE reviews",
    "DROP TABLE follows",
    "ALTER TABLE sessions DROP COLUMN online_at",
    "DROP INDEX games_by_seek",
    "ALTER TABLE games DROP COLUMN seek",
    "ALTER TABLE games DROP COLUMN counting",
    "DROP TABLE challenges",
    "DROP TABLE blocks",
    "DROP TABLE reports",
    "DROP INDEX accounts_by_banned_at",
    "ALTER TABLE games DROP COLUMN hidden_at",
];

/// A database of schema version 2 kept invite codes in plain; version 3 hashes them, and
/// a replaced code's hash is stored.
async fn invite_codes_stored_in_plain_are_hashed_by_the_migration(store: Store) {
    let db = Site::new(store).await;
    use sqlx::Connection;
    use toroid_server::ids::hash_secret;
    {
        let storage = open(&db).await;
        storage
            .commit(vec![Write::Game(Box::new(game("old", 5)))])
            .await
            .unwrap();
    }
    {
        // Back to version 2, with the code in plain as version 2 stored it (and without
        // what the later versions added).
        let mut conn = sqlx::AnyConnection::connect(&db.url()).await.unwrap();
        let undo = ["UPDATE games SET invite = 'plain-code' WHERE id = 'old'"].into_iter();
        for sql in undo.chain(UNDO_LATEST.iter().copied()).chain([
            "DROP TABLE settings",
            "ALTER TABLE accounts DROP COLUMN role",
            "ALTER TABLE accounts DROP COLUMN banned_at",
            "ALTER TABLE games DROP COLUMN tournament_id",
            "DROP INDEX sessions_by_name_key",
            "ALTER TABLE sessions DROP COLUMN name_key",
            "DROP TABLE names",
            "DROP TABLE account_addresses",
            "DROP INDEX games_by_creator_address",
            "ALTER TABLE games DROP COLUMN creator_address",
            "DROP TABLE arena",
            "DROP INDEX chat_by_game",
            "DROP TABLE chat",
            "ALTER TABLE games DROP COLUMN takeback_offer",
            "ALTER TABLE games DROP COLUMN rematch_offer",
            "ALTER TABLE games DROP COLUMN rematch_id",
            "DROP INDEX games_by_black_name",
            "DROP INDEX games_by_white_name",
            "ALTER TABLE games DROP COLUMN black_name",
            "ALTER TABLE games DROP COLUMN white_name",
            "ALTER TABLE games DROP COLUMN draw_offer",
            "ALTER TABLE bots DROP COLUMN seen_until",
            "DROP TABLE accounts",
            "ALTER TABLE sessions DROP COLUMN account_id",
            "DROP TABLE rating_history",
            "DROP INDEX ratings_by_pool",
            "DROP TABLE ratings",
            "ALTER TABLE games DROP COLUMN rated",
            "DROP TABLE tournaments",
            "DROP TABLE referees",
            "DROP TABLE cluster",
            "ALTER TABLE games DROP COLUMN plies",
            "ALTER TABLE games DROP COLUMN started_at",
            "ALTER TABLE games DROP COLUMN resumed_at",
            "DELETE FROM schema_version WHERE version >= 3",
        ]) {
            sqlx::query(sql).execute(&mut conn).await.unwrap();
        }
    }
    let storage = open(&db).await;
    let row = storage.game("old").await.unwrap().unwrap();
    assert_eq!(row.invite_hash, Some(hash_secret("plain-code")));
    // Version 5 copied the players' names out of the seats, to find games by player.
    let by_player = storage.games(None, Some("player 1"), 10).await.unwrap();
    assert_eq!(by_player.len(), 1);
    assert!(storage
        .games(None, Some("player 2"), 10)
        .await
        .unwrap()
        .is_empty());
    let write = Write::NewInvite {
        game_id: "old".into(),
        invite_hash: hash_secret("new-code"),
    };
    storage.commit(vec![write]).await.unwrap();
    let row = storage.game("old").await.unwrap().unwrap();
    assert_eq!(row.invite_hash, Some(hash_secret("new-code")));
}

/// The migration to name keys: each stored account gets its name's key (of two names that
/// read alike, the younger keeps its old key and still signs in), `names` holds the
/// accounts' and bots' keys, and each session its name's key.
async fn the_migration_gives_stored_names_their_keys(store: Store) {
    use sqlx::Connection;
    use toroid_server::model::name_key;
    let db = Site::new(store).await;
    drop(open(&db).await);
    {
        // Back to before the keys (and the five migrations after them), with names stored
        // as that version stored them: the older Alice, a younger one whose first letter is
        // Cyrillic, a bot, a guest, and a line Alice said.
        let mut conn = sqlx::AnyConnection::connect(&db.url()).await.unwrap();
        for sql in UNDO_LATEST.iter().copied().chain([
            "DROP INDEX chat_by_author",
            "ALTER TABLE chat DROP COLUMN deleted_at",
            "ALTER TABLE chat DROP COLUMN author_key",
            "DROP TABLE settings",
            "ALTER TABLE accounts DROP COLUMN role",
            "ALTER TABLE accounts DROP COLUMN banned_at",
            "ALTER TABLE games DROP COLUMN tournament_id",
            "DROP INDEX sessions_by_name_key",
            "ALTER TABLE sessions DROP COLUMN name_key",
            "DROP TABLE names",
            "DELETE FROM schema_version WHERE version >= (SELECT MAX(version) - 5 FROM schema_version)",
            "INSERT INTO chat (id, game_id, room, author, body, at)
             VALUES ('c1', 'g1', 'spectators', 'Alice', 'hi', 5)",
            "INSERT INTO accounts (id, name, name_key, password_hash, created_at)
             VALUES ('a1', 'Alice', 'alice', 'h', 1), ('a2', 'аlice', 'аlice', 'h', 2)",
            "INSERT INTO bots (id, name, owner, token_hash, created_at)
             VALUES ('b1', 'Hexer', 'a1', 't', 3)",
            "INSERT INTO sessions (id, name, token_hash, created_at, last_seen_at)
             VALUES ('s1', 'hexer', 'th', 4, 4)",
        ]) {
            sqlx::query(sql).execute(&mut conn).await.unwrap();
        }
    }
    let storage = open(&db).await;
    let holder = |key: String| {
        let storage = &storage;
        async move { storage.name_holder(&key).await.unwrap() }
    };
    assert_eq!(
        holder(name_key("ALICE")).await.as_deref(),
        Some("account:a1")
    );
    assert_eq!(holder(name_key("hexer")).await.as_deref(), Some("bot:b1"));
    assert_eq!(holder("аlice".into()).await.as_deref(), Some("account:a2"));
    let alice = storage
        .account(AccountKey::NameKey(&name_key("Alice")))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(alice.id, "a1");
    let younger = storage
        .account(AccountKey::NameKey("аlice"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(younger.id, "a2");
    // The line's author's key, for a moderator's look at one player's lines.
    let lines = storage.chat_by(&name_key("ALICE"), 10).await.unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!((lines[0].id.as_str(), lines[0].deleted_at), ("c1", None));
}

#[tokio::test]
async fn a_newer_schema_and_unknown_urls_are_refused() {
    use sqlx::Connection;
    let db = Site::new(Store::Sqlite).await;
    drop(open(&db).await);
    let mut conn = sqlx::AnyConnection::connect(&db.url()).await.unwrap();
    sqlx::query("INSERT INTO schema_version (version) VALUES (999)")
        .execute(&mut conn)
        .await
        .unwrap();
    let error = Storage::open(&db.url()).await.err().expect("refused");
    assert!(error.to_string().contains("version 999"), "{error}");
    let error = Storage::open("mysql://x").await.err().expect("refused");
    assert!(
        error.to_string().contains("unsupported database URL"),
        "{error}"
    );
}

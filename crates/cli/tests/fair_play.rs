//! Fair play, identity and moderation against `toroid serve` on loopback: ratings that only
//! games that count can move, one name per person, sessions that end when they are ended
//! (one test per rule of docs/server.md, "Security and limits"; each checks the refusal and
//! that nothing changed); and the acts of people (report, block, change one's password),
//! moderators, admins and the operator (docs/operations.md, "Moderate").

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod process;

use common::{on_both_stores, play_until, Bot, Client, Site, Store};
use process::Serve;
use serde_json::{json, Value};

on_both_stores!(
    ratings_move_only_through_games_that_count,
    house_bots_enter_a_pool_at_their_ladder_rating_and_own_bots_are_unrated,
    signing_out_or_expiring_closes_the_sessions_sockets,
    guessing_a_password_locks_out_the_guessers_not_the_owner,
    names_that_read_alike_are_one_name,
    a_token_replaced_or_deleted_before_hello_opens_nothing,
    tournaments_are_bounded_and_their_games_count,
    an_operator_bans_resets_passwords_and_closes_sign_ups,
    moderators_and_admins_act_through_the_api,
    people_report_block_and_change_their_password,
);

/// Point 10 (no storage involved: one store).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_origins_and_cookies_follow_the_public_origin() {
    hosts_origins_and_cookies(Store::Sqlite).await;
}

/// A server on a fresh site of `store`.
async fn serve(store: Store, options: &[&str]) -> (Serve, Site) {
    let site = Site::new(store).await;
    let database = (site.database.iter()).flat_map(|url| ["--database", url.as_str()]);
    let options: Vec<&str> = database.chain(options.iter().copied()).collect();
    (Serve::start_with(&site.data(), &options), site)
}

const RATED_GO: &str = r#"{"game": "go", "rated": true, "color": "black",
    "clock": {"initial_s": 600, "increment_s": 0}, "opponent": {"kind": "invite"}}"#;

/// A rated Go game of `black` against `white`, who joined it; its id.
async fn rated_game(black: &Client, white: &Client) -> String {
    joined_game(black, white, serde_json::from_str(RATED_GO).unwrap()).await
}

/// The game `request` (an invite) of `black`, who made it, and `white`, who joined it;
/// its id.
async fn joined_game(black: &Client, white: &Client, request: Value) -> String {
    let created = black.create(request).await;
    let id = created["id"].as_str().unwrap().to_string();
    let join = json!({"code": common::invite_code(&created)});
    (white.post(&format!("/api/games/{id}/join"), join).await).success();
    id
}

/// `name`'s rated games and rating in the Go pool (0 and `None` if it has none).
async fn go_rating(anyone: &Client, name: &str) -> (u64, Option<f64>) {
    let page = anyone.get(&format!("/api/players/{name}")).await.success();
    let go = (page["ratings"].as_array().unwrap().iter()).find(|pool| pool["pool"] == "go");
    match go {
        Some(rating) => (rating["games"].as_u64().unwrap(), rating["rating"].as_f64()),
        None => (0, None),
    }
}

/// Runs `sql` on the site's database (the SQLite file, or PostgreSQL) while a server uses it.
async fn run_sql(site: &Site, sql: &str) {
    use sqlx::Connection;
    match &site.database {
        Some(url) => {
            let mut db = sqlx::PgConnection::connect(url).await.unwrap();
            sqlx::query(sql).execute(&mut db).await.unwrap();
        }
        None => {
            let url = format!("sqlite://{}", site.data().join("toroid.sqlite3").display());
            let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
            sqlx::query(sql).execute(&mut db).await.unwrap();
        }
    }
}

/// A live game of 9×9 Go between `black`, who made it, and `white`, who joined it; its id.
async fn live_game(black: &Client, white: &Client) -> String {
    let request = json!({"game": "go", "params": {"size": 9}, "color": "black",
        "opponent": {"kind": "invite"}});
    joined_game(black, white, request).await
}

fn resign(id: &str) -> String {
    format!("/api/games/{id}/resign")
}

/// Point 2: a game resigned before each side made two moves changes no rating; after two
/// moves each it does; and the same two people count at most five rated games a day.
async fn ratings_move_only_through_games_that_count(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let alice = from(2).new_account("alice").await;
    let bob = from(3).new_account("bob").await;

    // Resigned at once, and after one move each: the game ends, no rating moves.
    for plies in [0, 2, 3] {
        let id = rated_game(&alice, &bob).await;
        play_until(&[&alice, &bob], &id, plies).await;
        let over = bob.post(&resign(&id), json!({})).await.success();
        assert_eq!(over["result"]["reason"], "resignation");
        assert_eq!(go_rating(&alice, "alice").await, (0, None), "after {plies}");
        assert_eq!(go_rating(&alice, "bob").await, (0, None), "after {plies}");
    }
    let board = alice.get("/api/leaderboard/go").await.success();
    assert_eq!(board, json!([]));

    // Two moves each: it counts, five times in a day; the sixth game changes nothing.
    let mut last = (0, None);
    for n in 1..=6 {
        let id = rated_game(&alice, &bob).await;
        play_until(&[&alice, &bob], &id, 4).await;
        bob.post(&resign(&id), json!({})).await.success();
        let now = go_rating(&alice, "alice").await;
        match n {
            ..=5 => assert_eq!(now.0, n, "game {n} counts"),
            _ => assert_eq!(now, last, "game {n} is one too many in a day"),
        }
        last = now;
    }
    assert!(last.1.unwrap() > 1500.0, "{last:?}");
    assert_eq!(go_rating(&alice, "bob").await.0, 5);
}

/// Point 2: a house bot enters a pool at the rating the ladder measured for it, not 1500,
/// and no resignation at the first move lifts it; an account cannot play its own bot rated.
async fn house_bots_enter_a_pool_at_their_ladder_rating_and_own_bots_are_unrated(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let carol = Client::account(&serve.base, "carol").await;
    let against_random = json!({"game": "go", "rated": true, "color": "black",
        "clock": {"initial_s": 600}, "opponent": {"kind": "house", "level": "random"}});

    // Ten resignations at the first move: `random` stays out of the pool.
    for _ in 0..10 {
        let id = carol.create(against_random.clone()).await["id"]
            .as_str()
            .unwrap()
            .to_string();
        carol.post(&resign(&id), json!({})).await.success();
    }
    assert_eq!(go_rating(&carol, "random").await, (0, None));

    // A game that counts: `random` enters near 600, and its win moves it only a little.
    let id = carol.create(against_random.clone()).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    play_until(&[&carol], &id, 4).await;
    carol.post(&resign(&id), json!({})).await.success();
    let (games, rating) = go_rating(&carol, "random").await;
    let rating = rating.unwrap();
    assert_eq!(games, 1);
    assert!((600.0..650.0).contains(&rating), "random at {rating}");

    // Carol's own bot: a rated challenge is refused and opens no game; unrated, it plays.
    let token = common::register(&carol, "carols-bot").await;
    let mut bot = Bot::connect(&serve.base, &token, "carols-bot").await;
    let rated = json!({"game": "go", "rated": true, "color": "black",
        "clock": {"initial_s": 600}, "opponent": {"kind": "bot", "name": "carols-bot"}});
    let refused = carol.post("/api/games", rated).await;
    assert_eq!((refused.status, refused.code()), (400, "bad-request"));
    assert!(refused.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("own bot"));
    let mine = carol.get("/api/games?player=carols-bot").await.success();
    assert_eq!(mine, json!([]));
    let casual =
        json!({"game": "go", "color": "black", "opponent": {"kind": "bot", "name": "carols-bot"}});
    let (_, answer) = common::challenge_accepted_with(&carol, &mut bot, casual).await;
    assert_eq!(answer.status, 201, "{:?}", answer.body);
}

/// Point 6: signing out closes the session's game sockets at once (4401 `no-session`) and
/// its cookie acts no more, while the opponent's socket stays open; a session that expired
/// while its socket was open closes the socket at its next message, which changes nothing,
/// or, if it says nothing, at its next check of the session.
async fn signing_out_or_expiring_closes_the_sessions_sockets(store: Store) {
    // Pings every 300 ms: a socket asks whether its session is open every 4 pings.
    let (serve, site) = serve(store, &["--ping-interval", "300ms"]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let alice = from(2).new_account("alice").await;
    let bob = from(3).sign_in("bob").await.unwrap();
    let id = &live_game(&alice, &bob).await;
    let (mut alice_socket, _) = alice.watch(id).await;
    let (mut bob_socket, _) = bob.watch(id).await;

    assert_eq!(alice.delete("/api/session").await.status, 204);
    assert_eq!(
        alice_socket.close_frame().await,
        Some((4401, "no-session".into()))
    );
    let moved = alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "ee", "ply": 0}),
        )
        .await;
    assert_eq!((moved.status, moved.code()), (401, "no-session"));
    // Bob's socket is his own: it still speaks.
    bob_socket
        .send(json!({"type": "chat", "text": "still here"}))
        .await;
    let history = bob_socket.chat().await; // the room's lines as the socket opened
    assert_eq!(history["lines"], json!([]));
    assert_eq!(bob_socket.chat().await["lines"][0]["text"], "still here");

    // Bob's session expires (idle for longer than 30 days) while his socket is open: his
    // next message is refused, the socket closes, and the game is as it was.
    run_sql(
        &site,
        "UPDATE sessions SET last_seen_at = 0 WHERE name = 'bob'",
    )
    .await;
    bob_socket.send(json!({"type": "resign"})).await;
    assert_eq!(bob_socket.error().await, "no-session");
    assert_eq!(
        bob_socket.close_frame().await,
        Some((4401, "no-session".into()))
    );
    // Carol, watching, says nothing: her socket closes all the same once her session has
    // expired, at its next check.
    let carol = from(4).sign_in("carol").await.unwrap();
    let (mut carol_socket, _) = carol.watch(id).await;
    run_sql(
        &site,
        "UPDATE sessions SET last_seen_at = 0 WHERE name = 'carol'",
    )
    .await;
    assert_eq!(
        carol_socket.close_frame().await,
        Some((4401, "no-session".into()))
    );
    let game = Client::anonymous(&serve.base)
        .get(&format!("/api/games/{id}"))
        .await
        .success();
    assert_eq!(
        (&game["status"], &game["position"]["ply"]),
        (&json!("live"), &json!(0))
    );
}

/// Point 9: guesses at a password are limited per address and per name and address; guesses
/// at one name from many addresses slow down; through it all the owner signs in from an
/// address she signed in from before.
async fn guessing_a_password_locks_out_the_guessers_not_the_owner(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    from(2).new_account("alice").await;
    let sign_in = |last: u8, password: &str| {
        let body = json!({"name": "alice", "password": password});
        let client = from(last);
        async move { client.new_session("/api/session", body).await }
    };
    let guess = |last: u8| {
        let attempt = sign_in(last, "wrong password");
        async move {
            let refused = attempt.await.unwrap_err();
            (refused.status, refused.code().to_string())
        }
    };
    let wrong = (401, "bad-credentials".to_string());
    let limited = (429, "limit".to_string());

    // One address: five guesses at one name a minute, then it waits.
    for _ in 0..5 {
        assert_eq!(guess(9).await, wrong);
    }
    assert_eq!(guess(9).await, limited);
    // Many addresses: past ten guesses at the name a minute, a new address waits too.
    let mut answers = Vec::new();
    for last in 10..20 {
        answers.push(guess(last).await);
    }
    assert_eq!(answers[..5], vec![wrong.clone(); 5], "{answers:?}");
    assert_eq!(answers[5..], vec![limited.clone(); 5], "{answers:?}");
    // Alice, from her own address, signs in all the same.
    let alice = sign_in(2, "correct horse").await.unwrap();
    assert_eq!(alice.get("/api/session").await.success()["name"], "alice");
}

/// Point 8: one name key for accounts, bots and guests (NFKC, case, UTS #39 skeleton):
/// look-alike, invisible and reserved names are refused, a bot cannot take an account's
/// name nor a guest either's, and a guest who showed a name before its account was made is
/// marked as a guest.
async fn names_that_read_alike_are_one_name(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let alice = from(2).new_account("alice").await;
    common::register(&alice, "hexer").await;
    let carol = from(3).sign_in("carol").await.unwrap();

    let as_guest = |name: &str| {
        let client = from(4);
        let body = json!({ "name": name });
        async move {
            let refused = client.new_session("/api/session", body).await.unwrap_err();
            (refused.status, refused.code().to_string())
        }
    };
    let bad = (400, "bad-request".to_string());
    let taken = (409, "conflict".to_string());
    // Cyrillic а, a Greek ο, fullwidth and mathematical letters, invisible characters.
    for name in [
        "аlice",
        "max (hοuse bot)",
        "ａｌｉｃｅ",
        "𝐚𝐥𝐢𝐜𝐞",
        "al\u{AD}ice",
        "al\u{34F}ice",
        "\u{3164}",
        "al\u{2800}ice",
        "al\u{FE0F}ice",
        "al\u{E0041}ice",
        "al\u{2028}ice",
    ] {
        assert_eq!(as_guest(name).await, bad, "{name:?}");
    }
    // The house levels and the site's own names, in any case or spelling.
    for name in [
        "max",
        "Casual",
        "RANDOM",
        "admin",
        "moderator",
        "toroid",
        "Max-HouseBot",
    ] {
        assert_eq!(as_guest(name).await, bad, "{name}");
        let account = json!({"name": name, "password": "correct horse"});
        let refused = from(5)
            .new_session("/api/accounts", account)
            .await
            .unwrap_err();
        assert_eq!(
            (refused.status, refused.code()),
            (400, "bad-request"),
            "{name}"
        );
    }
    for name in ["random", "greedy"] {
        let refused = alice.post("/api/bots", json!({ "name": name })).await;
        assert_eq!(
            (refused.status, refused.code()),
            (400, "bad-request"),
            "{name}"
        );
    }
    // One key across accounts, bots and guests.
    for name in ["ALICE", "Alice", "HEXER"] {
        assert_eq!(as_guest(name).await, taken, "{name}");
    }
    let refused = alice.post("/api/bots", json!({"name": "Alice"})).await;
    assert_eq!((refused.status, refused.code()), (409, "conflict"));
    let account = json!({"name": "Hexer", "password": "correct horse"});
    let refused = from(5)
        .new_session("/api/accounts", account)
        .await
        .unwrap_err();
    assert_eq!((refused.status, refused.code()), (409, "conflict"));

    // Carol the guest, when someone else makes the account "Carol": she shows as a guest.
    from(6).new_account("Carol").await;
    let shown = carol.get("/api/session").await.success();
    assert_eq!(shown["name"], "carol (guest)");
}

/// Point 5: a socket opened with a bot's token that is replaced, or whose bot is deleted,
/// before it says hello is refused at its hello (4401 `bad-token`) and never goes online.
async fn a_token_replaced_or_deleted_before_hello_opens_nothing(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let owner = Client::account(&serve.base, "owner").await;
    let first = common::register(&owner, "sleeper").await;
    let hello = json!({"type": "hello", "protocol": 1});
    // A socket opened (no hello yet) with `token`.
    let open = |token: String| {
        let base = serve.base.clone();
        async move { Bot::open(&base, &token).await.unwrap() }
    };
    let mut early = open(first).await;
    let replaced = owner
        .post("/api/bots/sleeper/token", json!({}))
        .await
        .success();
    early.send(hello.clone()).await;
    assert_eq!(early.next().await["code"], "bad-token");
    assert_eq!(early.close_frame().await, Some((4401, "bad-token".into())));
    let mine = owner.get("/api/bots/mine").await.success();
    assert_eq!(mine["bots"][0]["online"], false);

    let mut early = open(replaced["token"].as_str().unwrap().into()).await;
    assert_eq!(owner.delete("/api/bots/sleeper").await.status, 204);
    early.send(hello).await;
    assert_eq!(early.next().await["code"], "bad-token");
    assert_eq!(early.close_frame().await, Some((4401, "bad-token".into())));
}

/// Point 10: a `Host` the server is not served at is refused (`421 unknown-host`, DNS
/// rebinding's shape) and changes nothing, probes aside; the `Origin` of a request that acts
/// is compared by scheme, host and port; over HTTPS (a trusted proxy says so) the session
/// cookie is `__Host-toroid_session`, `Secure`, and a plain-named cookie opens nothing.
async fn hosts_origins_and_cookies(store: Store) {
    let (server, _site) = serve(store, &["--trusted-proxy", "127.0.0.1"]).await;
    let base = &server.base;
    let host = base.strip_prefix("http://").unwrap().to_string();
    let http = reqwest::Client::new();
    let sign_in = |host: &str, origin: Option<&str>, proto: &str| {
        let mut request = http
            .post(format!("{base}/api/session"))
            .header("Host", host)
            .header("X-Forwarded-Proto", proto)
            .json(&json!({"name": "ines"}));
        if let Some(origin) = origin {
            request = request.header("Origin", origin);
        }
        request.send()
    };
    // A name that resolves here, but is not this server's.
    let rebound = sign_in("rebind.example:8080", None, "http").await.unwrap();
    assert_eq!(rebound.status(), 421);
    let body: Value = rebound.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unknown-host");
    let probe = http
        .get(format!("{base}/healthz"))
        .header("Host", "lb.internal");
    assert_eq!(probe.send().await.unwrap().status(), 200);
    for localhost in [host.clone(), host.replace("127.0.0.1", "localhost")] {
        assert_eq!(
            sign_in(&localhost, None, "http").await.unwrap().status(),
            201
        );
    }
    // The Origin's scheme counts: an https page may not act over http, nor an http page
    // over https.
    let http_page = format!("http://{host}");
    let https_page = format!("https://{host}");
    for (origin, proto, expected) in [
        (&http_page, "http", 201),
        (&https_page, "http", 403),
        (&https_page, "https", 201),
        (&http_page, "https", 403),
    ] {
        let answer = sign_in(&host, Some(origin), proto).await.unwrap();
        assert_eq!(answer.status(), expected, "{origin} over {proto}");
    }
    // Over HTTPS the cookie has the __Host- prefix; only that name opens the session.
    let answer = sign_in(&host, None, "https").await.unwrap();
    let set = answer.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        set.starts_with("__Host-toroid_session=") && set.contains("; Secure"),
        "{set}"
    );
    let token = set
        .split(';')
        .next()
        .unwrap()
        .split_once('=')
        .unwrap()
        .1
        .to_string();
    let session_with = |cookie: String| {
        http.get(format!("{base}/api/session"))
            .header("X-Forwarded-Proto", "https")
            .header("Cookie", cookie)
            .send()
    };
    let own = session_with(format!("__Host-toroid_session={token}"))
        .await
        .unwrap();
    assert_eq!(own.status(), 200);
    let planted = session_with(format!("toroid_session={token}"))
        .await
        .unwrap();
    assert_eq!(planted.status(), 401);

    // With a public origin, only its host is served.
    let (public, _site) = serve(Store::Sqlite, &["--public-origin", "https://play.example"]).await;
    let status = |host: &'static str| {
        http.get(format!("{}/api/rules", public.base))
            .header("Host", host)
            .send()
    };
    assert_eq!(status("play.example").await.unwrap().status(), 200);
    assert_eq!(status("127.0.0.1").await.unwrap().status(), 421);
}

/// Point 4: unfinished tournaments are limited per account; a tournament's games count
/// against its creator's address's limit on unfinished games, a tournament of house bots
/// alone too; and a tournament's game cannot be aborted (a player who never moves loses it
/// instead: `game::tests`).
async fn tournaments_are_bounded_and_their_games_count(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let alice = from(2).new_account("alice").await;
    let tournament = |house: Value| {
        json!({"name": "Winter Swiss", "game": "go", "format": "round-robin", "rounds": 1,
            "clock": {"initial_s": 300}, "house": house})
    };
    let mut ids = Vec::new();
    for house in [
        json!(["random", "greedy"]),
        json!(["random"]),
        json!(["greedy"]),
    ] {
        let created = alice.post("/api/tournaments", tournament(house)).await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        ids.push(created.body["id"].as_str().unwrap().to_string());
    }
    let fourth = alice.post("/api/tournaments", tournament(json!([]))).await;
    assert_eq!((fourth.status, fourth.code()), (429, "limit"));
    let start = |id: &str| {
        let path = format!("/api/tournaments/{id}/start");
        let alice = alice.clone();
        async move { alice.post(&path, json!({})).await }
    };

    // Alice plays in her second: its game cannot be aborted.
    alice
        .post(&format!("/api/tournaments/{}/join", ids[1]), json!({}))
        .await
        .success();
    let game = alice.start_tournament(&ids[1]).await;
    let refused = alice
        .post(&format!("/api/games/{game}/abort"), json!({}))
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (409, "conflict"),
        "{:?}",
        refused.body
    );
    let state = alice.get(&format!("/api/games/{game}")).await.success();
    assert_eq!(state["status"], "live");

    // That game and 39 more from her address (hers and a guest's there) fill its 40: the
    // first, of house bots alone, does not start.
    let invite = json!({"game": "go", "params": {"size": 9}, "opponent": {"kind": "invite"}});
    let guest = from(2).sign_in("guest").await.unwrap();
    let mut made = Vec::new();
    for (maker, n) in [(&alice, 20), (&guest, 19)] {
        for _ in 0..n {
            made.push((maker, maker.create(invite.clone()).await));
        }
    }
    let refused = start(&ids[0]).await;
    assert_eq!(
        (refused.status, refused.code()),
        (429, "limit"),
        "{:?}",
        refused.body
    );
    assert_eq!(
        alice.get("/api/games?player=greedy").await.success(),
        json!([])
    );

    // Bob joins one of those games, which is then aborted: room for one. The tournament
    // starts, and its game takes that room.
    let bob = from(3).sign_in("bob").await.unwrap();
    let (maker, created) = &made[0];
    let id = created["id"].as_str().unwrap();
    let join = json!({"code": common::invite_code(created)});
    bob.post(&format!("/api/games/{id}/join"), join)
        .await
        .success();
    maker
        .post(&format!("/api/games/{id}/abort"), json!({}))
        .await
        .success();
    start(&ids[0]).await.success();
    let full = guest.post("/api/games", invite).await;
    assert_eq!(
        (full.status, full.code()),
        (429, "limit"),
        "{:?}",
        full.body
    );
}

/// `toroid admin ARGS` on `site`'s database: its exit status and what it printed.
fn admin(site: &Site, args: &[&str]) -> (bool, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_toroid"));
    command.arg("admin").arg("--data").arg(site.data());
    if let Some(url) = &site.database {
        command.args(["--database", url]);
    }
    let out = command.args(args).output().expect("toroid admin runs");
    let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.success(), said.into_owned())
}

/// Issue 61's acts of `toroid admin`, on a running server's database: a ban signs the
/// player out (their open game socket and their bot's connection close within the
/// server's look for new bans) and refuses their sign-in until it is lifted; a reset password replaces the
/// old one; closed sign-ups refuse new accounts; a role is given to an account only.
async fn an_operator_bans_resets_passwords_and_closes_sign_ups(store: Store) {
    let (serve, site) = serve(store, &[]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let alice = from(2).new_account("alice").await;
    let bob = from(3).sign_in("bob").await.unwrap();
    let id = &live_game(&alice, &bob).await;
    let (mut socket, _) = alice.watch(id).await;
    let sign_in = |password: &str| {
        let body = json!({"name": "alice", "password": password});
        let client = from(2);
        async move { client.new_session("/api/session", body).await }
    };

    let token = common::register(&alice, "alicebot").await;
    let mut bot = Bot::connect(&serve.base, &token, "alicebot").await;
    let (ok, said) = admin(&site, &["ban", "alice"]);
    assert!(ok && said.contains("banned"), "{said}");
    // The server finds the ban in the database (within 2 s): her game socket and her bot's
    // connection close without a word from either.
    assert_eq!(
        socket.close_frame().await,
        Some((4401, "no-session".into()))
    );
    assert_eq!(bot.close_frame().await, Some((4401, "bad-token".into())));
    let game = bob.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(game["status"], "live");
    let refused = sign_in("correct horse").await.unwrap_err();
    assert_eq!((refused.status, refused.code()), (403, "closed"));
    let (ok, said) = admin(&site, &["unban", "alice"]);
    assert!(ok, "{said}");
    sign_in("correct horse").await.unwrap();

    // A new password, shown once, replaces the old.
    let (ok, said) = admin(&site, &["reset-password", "ALICE"]);
    assert!(ok, "{said}");
    let password = said.trim().rsplit(' ').next().unwrap().to_string();
    let refused = sign_in("correct horse").await.unwrap_err();
    assert_eq!(refused.status, 401);
    sign_in(&password).await.unwrap();

    // Sign-ups closed, then open again.
    assert!(admin(&site, &["sign-ups", "closed"]).0);
    let account = json!({"name": "carol", "password": "correct horse"});
    let refused = from(4)
        .new_session("/api/accounts", account.clone())
        .await
        .unwrap_err();
    assert_eq!((refused.status, refused.code()), (403, "closed"));
    assert!(admin(&site, &["sign-ups", "open"]).0);
    from(4).new_session("/api/accounts", account).await.unwrap();

    // Roles go to accounts that exist.
    let (ok, said) = admin(&site, &["role", "alice", "moderator"]);
    assert!(ok && said.contains("moderator"), "{said}");
    let (ok, said) = admin(&site, &["role", "nobody", "admin"]);
    assert!(!ok && said.contains("account 'nobody' not found"), "{said}");

    // The first admin of a site, whose password works once shown.
    let root = first_admin(&site, &from(5)).await;
    assert_eq!(root.get("/api/session").await.success()["role"], "admin");
    let (ok, said) = admin(&site, &["create-admin", "Root"]);
    assert!(!ok && said.contains("taken"), "{said}");

    // Reports are read and dealt with; a chat line deleted; an open tournament cancelled.
    let (mut chat, _) = bob.watch(id).await;
    say(&mut chat, "you will lose").await;
    let line = chat.chat().await["lines"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let report = json!({"chat_line": line, "reason": "taunting"});
    let alice = sign_in(&password).await.unwrap();
    let report = alice.post("/api/reports", report).await.success()["id"].clone();
    let (ok, said) = admin(&site, &["reports"]);
    assert!(
        ok && said.contains("alice reports bob about \"you will lose\""),
        "{said}"
    );
    let (ok, said) = admin(&site, &["delete-chat", &line]);
    assert!(ok && said.contains("deleted bob's line"), "{said}");
    let (mut again, _) = alice.watch(id).await;
    assert_eq!(again.chat().await["lines"], json!([]));
    let (ok, said) = admin(&site, &["resolve-report", report.as_str().unwrap()]);
    assert!(ok, "{said}");
    assert_eq!(admin(&site, &["reports"]).1.trim(), "no reports");
    let tournament = json!({"name": "Spring", "game": "go", "format": "swiss", "rounds": 1,
        "clock": {"initial_s": 300}});
    let tournament = alice.post("/api/tournaments", tournament).await.success();
    let tournament = tournament["id"].as_str().unwrap();
    let (ok, said) = admin(&site, &["cancel-tournament", tournament]);
    assert!(ok && said.contains("cancelled"), "{said}");
    let view = alice.get(&format!("/api/tournaments/{tournament}")).await;
    assert_eq!(view.success()["stage"], "cancelled");
    let (ok, said) = admin(&site, &["cancel-tournament", tournament]);
    assert!(!ok && said.contains("is cancelled"), "{said}");
}

/// The admin `root` that `toroid admin create-admin` makes on `site`, signed in from
/// `client` with the password it printed.
async fn first_admin(site: &Site, client: &Client) -> Client {
    let (ok, said) = admin(site, &["create-admin", "root"]);
    assert!(ok && said.contains("root is an admin"), "{said}");
    let password = said.trim().rsplit(' ').next().unwrap();
    let body = json!({"name": "root", "password": password});
    client.new_session("/api/session", body).await.unwrap()
}

/// `socket`'s person reads their room's history and says `text` there.
async fn say(socket: &mut common::Socket, text: &str) {
    let history = socket.chat().await;
    assert!(history["lines"].is_array(), "{history}");
    socket.send(json!({"type": "chat", "text": text})).await;
}

/// Issue 61's admin API: a moderator deals with reports, deletes a chat line, takes a game
/// off the lists, cancels a running tournament (its game aborted, no rating changed) and
/// bans a player (their game and bot sockets close at once; no sign-in); only admins give
/// roles, reset passwords and close sign-ups, and ban moderators; players reach none of it.
async fn moderators_and_admins_act_through_the_api(store: Store) {
    let (serve, site) = serve(store, &[]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let root = first_admin(&site, &from(2)).await;
    let moderator = from(3).new_account("mod").await;
    let alice = from(4).new_account("alice").await;
    let bob = from(5).new_account("bob").await;
    let carol = from(6).new_account("carol").await;
    let dave = from(7).new_account("dave").await;

    // Players reach none of it; a moderator does not give roles.
    for (path, body) in [
        ("/api/admin/reports", None),
        ("/api/admin/accounts", None),
        ("/api/admin/players/bob/chat", None),
        ("/api/admin/accounts/bob/ban", Some(json!({}))),
    ] {
        let answer = match body {
            None => carol.get(path).await,
            Some(body) => carol.put(path, body).await,
        };
        assert_eq!((answer.status, answer.code()), (403, "forbidden"), "{path}");
    }
    let role = |role: &str| json!({ "role": role });
    (root
        .put("/api/admin/accounts/mod/role", role("moderator"))
        .await)
        .success();
    assert_eq!(
        moderator.get("/api/session").await.success()["role"],
        "moderator"
    );
    for (path, body) in [
        ("/api/admin/accounts/carol/role", role("admin")),
        ("/api/admin/accounts/mod/role", role("admin")),
        ("/api/admin/sign-ups", json!({"open": false})),
    ] {
        let answer = moderator.put(path, body).await;
        assert_eq!((answer.status, answer.code()), (403, "forbidden"), "{path}");
    }
    let refused = moderator
        .post("/api/admin/accounts/bob/password", json!({}))
        .await;
    assert_eq!(refused.status, 403);
    let refused = moderator
        .put("/api/admin/accounts/root/ban", json!({}))
        .await;
    assert_eq!((refused.status, refused.code()), (403, "forbidden"));
    assert_eq!(carol.get("/api/session").await.success()["role"], "none");

    // A report of a chat line; the moderator reads it, deletes the line and closes it.
    let id = &live_game(&alice, &bob).await;
    let (mut bobs, _) = bob.watch(id).await;
    say(&mut bobs, "you will lose").await;
    let line = bobs.chat().await["lines"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let report = json!({"chat_line": line, "reason": "taunting"});
    (alice.post("/api/reports", report).await).success();
    let reports = moderator.get("/api/admin/reports").await.success();
    assert_eq!(reports.as_array().unwrap().len(), 1, "{reports}");
    let report = &reports[0];
    assert_eq!(
        (
            &report["reporter"],
            &report["player"],
            &report["chat_line"]["text"]
        ),
        (&json!("alice"), &json!("bob"), &json!("you will lose"))
    );
    let deleted = moderator.delete(&format!("/api/admin/chat/{line}")).await;
    assert!(deleted.success()["message"]
        .as_str()
        .unwrap()
        .contains("deleted"));
    for person in [&alice, &bob, &carol] {
        let (mut socket, _) = person.watch(id).await;
        let lines = socket.chat().await["lines"].clone();
        assert!(!lines.to_string().contains("you will lose"), "{lines}");
    }
    let lines = moderator.get("/api/admin/players/bob/chat").await.success();
    assert_eq!(
        (&lines[0]["id"], &lines[0]["deleted"]),
        (&json!(line), &json!(true))
    );
    let path = format!(
        "/api/admin/reports/{}/resolve",
        report["id"].as_str().unwrap()
    );
    moderator.post(&path, json!({})).await.success();
    assert_eq!(
        moderator.get("/api/admin/reports").await.success(),
        json!([])
    );
    let all = moderator.get("/api/admin/reports?all=true").await.success();
    assert_eq!(all[0]["resolved_by"], "mod");
    let signups = moderator.get("/api/admin/accounts").await.success();
    assert_eq!(signups[0]["name"], "dave");

    // A running rated tournament cancelled: its game is aborted, no rating changes.
    let tournament = json!({"name": "Spring", "game": "go", "format": "round-robin",
        "rounds": 1, "rated": true, "clock": {"initial_s": 300}});
    let tournament = carol.post("/api/tournaments", tournament).await.success();
    let tournament = tournament["id"].as_str().unwrap().to_string();
    for player in [&carol, &dave] {
        let path = format!("/api/tournaments/{tournament}/join");
        player.post(&path, json!({})).await.success();
    }
    let game = carol.start_tournament(&tournament).await;
    play_until(&[&carol, &dave], &game, 6).await;
    let path = format!("/api/admin/tournaments/{tournament}/cancel");
    moderator.post(&path, json!({})).await.success();
    common::eventually("the tournament is cancelled", || async {
        let view = carol.get(&format!("/api/tournaments/{tournament}")).await;
        (view.success()["stage"] == "cancelled").then_some(())
    })
    .await;
    let over = carol.get(&format!("/api/games/{game}")).await.success();
    assert_eq!(
        (&over["status"], &over["result"]["reason"]),
        (&json!("finished"), &json!("abort")),
        "{over}"
    );
    assert_eq!(go_rating(&carol, "carol").await, (0, None));
    assert_eq!(go_rating(&carol, "dave").await, (0, None));
    let again = moderator.post(&path, json!({})).await;
    assert_eq!((again.status, again.code()), (409, "conflict"));

    // The finished game off the lists, its page kept.
    let listed = |games: Value| games.to_string().contains(&game);
    assert!(listed(carol.get("/api/games?player=carol").await.success()));
    let hidden = moderator.delete(&format!("/api/admin/games/{game}")).await;
    hidden.success();
    assert!(!listed(
        carol.get("/api/games?player=carol").await.success()
    ));
    carol.get(&format!("/api/games/{game}")).await.success();
    let live = moderator.delete(&format!("/api/admin/games/{id}")).await;
    assert_eq!((live.status, live.code()), (409, "conflict"));

    // A ban closes alice's game socket and her bot's connection at once, without a word
    // from either, and she signs in no more.
    let token = common::register(&alice, "alicebot").await;
    let mut bot = Bot::connect(&serve.base, &token, "alicebot").await;
    let (mut socket, _) = alice.watch(id).await;
    let banned = moderator
        .put("/api/admin/accounts/alice/ban", json!({}))
        .await;
    assert!(banned.success()["message"]
        .as_str()
        .unwrap()
        .contains("banned"));
    assert_eq!(
        socket.close_frame().await,
        Some((4401, "no-session".into()))
    );
    assert_eq!(bot.close_frame().await, Some((4401, "bad-token".into())));
    assert_eq!(alice.get("/api/session").await.status, 401);
    let sign_in = |name: &str, password: &str| {
        let body = json!({"name": name, "password": password});
        let client = from(4);
        async move { client.new_session("/api/session", body).await }
    };
    let refused = sign_in("alice", "correct horse").await.unwrap_err();
    assert_eq!((refused.status, refused.code()), (403, "closed"));
    moderator
        .delete("/api/admin/accounts/alice/ban")
        .await
        .success();
    sign_in("alice", "correct horse").await.unwrap();

    // An admin resets a password (the new one works, the old no more), bans a moderator
    // and closes sign-ups.
    let reset = root
        .post("/api/admin/accounts/bob/password", json!({}))
        .await;
    let password = reset.success()["password"].as_str().unwrap().to_string();
    assert_eq!(bob.get("/api/session").await.status, 401);
    assert_eq!(
        sign_in("bob", "correct horse").await.unwrap_err().status,
        401
    );
    sign_in("bob", &password).await.unwrap();
    root.put("/api/admin/accounts/mod/ban", json!({}))
        .await
        .success();
    assert_eq!(moderator.get("/api/admin/reports").await.status, 401);
    (root
        .put("/api/admin/sign-ups", json!({"open": false}))
        .await)
        .success();
    let account = json!({"name": "erin", "password": "correct horse"});
    let refused = from(8)
        .new_session("/api/accounts", account)
        .await
        .unwrap_err();
    assert_eq!((refused.status, refused.code()), (403, "closed"));
}

/// Issue 61's protections for everyone: a report names a player who exists (or a chat line)
/// with a reason; a block stops games, challenges and rematches between the two either way
/// and hides the blocked player's chat lines from the blocker; a password change needs the
/// current password and ends one's other sessions.
async fn people_report_block_and_change_their_password(store: Store) {
    let (serve, _site) = serve(store, &[]).await;
    let from = |last: u8| Client::anonymous_from(&serve.base, [127, 0, 0, last].into());
    let alice = from(2).new_account("alice").await;
    let bob = from(3).new_account("bob").await;
    let carol = from(4).sign_in("carol").await.unwrap();

    // Reports.
    for (report, status) in [
        (json!({"player": "bob", "reason": ""}), 400),
        (json!({"player": "bob", "reason": "x".repeat(501)}), 400),
        (json!({"player": "alice", "reason": "me"}), 400),
        (json!({"player": "nobody", "reason": "who"}), 404),
        (json!({"chat_line": "nothing", "reason": "what"}), 404),
        (json!({"reason": "whom"}), 400),
        (json!({"player": "BOB", "reason": "sandbagging"}), 201),
    ] {
        let answer = alice.post("/api/reports", report.clone()).await;
        assert_eq!(answer.status, status, "{report}: {:?}", answer.body);
    }

    // A block: no game between the two, whoever invites; unblocked, they play.
    let invite = json!({"game": "go", "params": {"size": 9}, "opponent": {"kind": "invite"}});
    let hers = alice.create(invite.clone()).await;
    let his = bob.create(invite.clone()).await;
    assert_eq!(alice.put("/api/blocks/Bob", json!({})).await.status, 204);
    assert_eq!(alice.put("/api/blocks/bob", json!({})).await.status, 204);
    let blocks = alice.get("/api/blocks").await.success();
    assert_eq!(
        (blocks.as_array().unwrap().len(), &blocks[0]["name"]),
        (1, &json!("Bob"))
    );
    for (who, game, why) in [
        (&bob, &hers, "does not take games"),
        (&alice, &his, "you block"),
    ] {
        let id = game["id"].as_str().unwrap();
        let join = json!({"code": common::invite_code(game)});
        let refused = who.post(&format!("/api/games/{id}/join"), join).await;
        assert_eq!((refused.status, refused.code()), (403, "blocked"));
        assert!(refused.body.to_string().contains(why), "{:?}", refused.body);
        let state = who.get(&format!("/api/games/{id}")).await.success();
        assert_eq!(state["status"], "waiting");
    }
    for name in ["alice", "nobody", "random"] {
        let refused = alice.put(&format!("/api/blocks/{name}"), json!({})).await;
        assert!(
            matches!(refused.status, 400 | 404),
            "{name}: {:?}",
            refused.body
        );
    }

    // The blocked player's lines are not shown to the blocker; others see them. (All three
    // watch a game of two others, in its spectators' room.)
    let erin = from(6).sign_in("erin").await.unwrap();
    let dave = from(5).sign_in("dave").await.unwrap();
    let watched = &live_game(&carol, &erin).await;
    let (mut alices, _) = alice.watch(watched).await;
    let (mut bobs, _) = bob.watch(watched).await;
    let (mut daves, _) = dave.watch(watched).await;
    assert_eq!(alices.chat().await["lines"], json!([]));
    assert_eq!(daves.chat().await["lines"], json!([]));
    say(&mut bobs, "spam").await;
    assert_eq!(daves.chat().await["lines"][0]["text"], "spam");
    daves.send(json!({"type": "chat", "text": "hello"})).await;
    assert_eq!(alices.chat().await["lines"][0]["text"], "hello");
    let shown_to = |person: &Client| {
        let person = person.clone();
        async move {
            let (mut socket, _) = person.watch(watched).await;
            let lines = socket.chat().await["lines"].clone();
            (lines.as_array().unwrap().iter())
                .map(|line| line["text"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(shown_to(&alice).await, ["hello"]);
    assert_eq!(shown_to(&dave).await, ["spam", "hello"]);

    // Unblocked: the lines show, and the two play.
    assert_eq!(alice.delete("/api/blocks/bob").await.status, 204);
    assert_eq!(alice.get("/api/blocks").await.success(), json!([]));
    assert_eq!(shown_to(&alice).await, ["spam", "hello"]);
    let id = hers["id"].as_str().unwrap();
    let join = json!({"code": common::invite_code(&hers)});
    bob.post(&format!("/api/games/{id}/join"), join)
        .await
        .success();
    // Over, and blocked again: no rematch, whoever offers it.
    bob.post(&resign(id), json!({})).await.success();
    assert_eq!(alice.put("/api/blocks/bob", json!({})).await.status, 204);
    for who in [&bob, &alice] {
        let refused = who
            .post(&format!("/api/games/{id}/rematch"), json!({}))
            .await;
        assert_eq!((refused.status, refused.code()), (403, "blocked"));
    }
    let over = alice.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(over["rematch_offer"], Value::Null, "{over}");

    // A new password: the current one is asked; the other sessions end, this one stays.
    let elsewhere = from(7)
        .new_session(
            "/api/session",
            json!({"name": "alice", "password": "correct horse"}),
        )
        .await
        .unwrap();
    let change = |current: &str, new: &str| json!({"current": current, "new": new});
    for (who, body, status) in [
        (&alice, change("wrong horse", "battery staple"), 401),
        (&alice, change("correct horse", "short"), 400),
        (&carol, change("correct horse", "battery staple"), 400),
    ] {
        let refused = who.put("/api/account/password", body.clone()).await;
        assert_eq!(refused.status, status, "{body}: {:?}", refused.body);
    }
    elsewhere.get("/api/session").await.success();
    let changed = alice
        .put(
            "/api/account/password",
            change("correct horse", "battery staple"),
        )
        .await;
    assert_eq!(changed.status, 204, "{:?}", changed.body);
    alice.get("/api/session").await.success();
    assert_eq!(elsewhere.get("/api/session").await.status, 401);
    let sign_in = |password: &str| {
        let body = json!({"name": "alice", "password": password});
        let client = from(7);
        async move { client.new_session("/api/session", body).await }
    };
    assert_eq!(sign_in("correct horse").await.unwrap_err().status, 401);
    sign_in("battery staple").await.unwrap();
}

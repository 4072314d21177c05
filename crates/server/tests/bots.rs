//! Registered bots over their WebSocket: registration, the handshake, challenges from people,
//! games between two seeking bots, errors, clocks and reconnection.

mod common;

use common::{challenge_accepted, on_both_stores, register, to_move, Bot, Client, Store, WAIT};
use serde_json::{json, Value};
use toroid_server::{Limits, Server};

on_both_stores!(
    registration_and_the_handshake,
    a_person_challenges_a_bot_and_they_play_to_the_end,
    two_seeking_bots_are_matched_and_clocks_are_enforced,
    a_bot_that_reconnects_is_told_its_games_again,
    two_example_clients_seek_and_play_a_game_to_the_end,
    tokens_are_rotated_and_bots_deleted_by_their_owner,
    a_bot_gets_the_full_game_on_start_on_reconnect_and_after_every_move,
    a_game_lost_on_time_while_away_is_reported_on_reconnect,
    draws_aborts_and_claims_of_victory,
    bots_challenge_house_bots_bots_and_people,
    range_seeks_pair_with_what_they_accept_and_are_listed,
    refusals_close_with_a_code_and_a_reason,
    a_silent_bot_is_dropped_by_the_ping_timeout,
    victory_is_claimed_over_a_person_only_once_her_socket_is_gone,
    rated_seeks_make_rated_games_between_bots,
    the_arena_pairs_bots_continuously,
    a_swiss_tournament_plays_itself_out,
    joins_and_starts_at_once_are_each_applied_once,
    sockets_answer_a_close_and_say_going_away_when_the_server_stops,
    a_message_refused_for_its_rate_names_its_game,
    bots_read_and_write_the_players_chat,
    bots_create_and_start_tournaments_for_their_owners,
    challenges_by_name_wait_for_offline_bots_and_reach_accounts,
);

/// A person challenges a registered bot by name while it is offline: the bot is told when
/// it connects, accepts, and the game starts. The bot challenges an account by name, which
/// accepts in its list; another account declines, and the bot is told why. Nobody else
/// answers a challenge, nobody answers one twice, and only its challenger withdraws one.
async fn challenges_by_name_wait_for_offline_bots_and_reach_accounts(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::account(&base, "alice").await;
    let bob = Client::account(&base, "bob").await;
    let carol = Client::account(&base, "carol").await;
    let token = register(&bob, "Robo").await;

    // To a bot that is not connected: stored, and told when it connects.
    // With a correspondence clock: days per move, which bots get as such.
    let request = json!({"to": "robo", "game": "go", "params": {"size": 5}, "color": "black",
        "wait_s": 600, "clock": {"days_per_move": 3}});
    let created = alice.post("/api/challenges", request).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let created = created.body;
    assert_eq!(
        (
            created["status"].as_str(),
            created["to"]["kind"].as_str(),
            created["color"].as_str()
        ),
        (Some("open"), Some("bot"), Some("white"))
    );
    let id = created["id"].as_str().unwrap().to_string();
    for (who, body, code) in [
        (&alice, json!({"to": "nobody", "game": "go"}), "not-found"),
        (&alice, json!({"to": "Alice", "game": "go"}), "bad-request"),
        (&alice, json!({"to": "bob", "game": "chess"}), "bad-json"),
    ] {
        assert_eq!(who.post("/api/challenges", body).await.code(), code);
    }
    let mut robo = Bot::connect(&base, &token, "Robo").await;
    let told = robo.next_of("challenge").await;
    assert_eq!(told["challenge"], id.as_str(), "{told}");
    assert_eq!(told["expires_at"], created["expires_at"]);
    assert_eq!(told["clock"]["days_per_move"], 3, "{told}");
    let stranger = carol
        .post(&format!("/api/challenges/{id}/accept"), json!({}))
        .await;
    assert_eq!(stranger.code(), "forbidden");
    robo.send(json!({"type": "accept", "challenge": id})).await;
    let start = robo.next_of("start").await;
    assert_eq!(
        (
            start["color"].as_str(),
            start["params"]["scoring_phase"].as_str()
        ),
        (Some("white"), Some("cleanup"))
    );
    let mine = alice.get("/api/challenges").await.success();
    let outgoing = &mine["outgoing"][0];
    assert_eq!(
        (outgoing["status"].as_str(), &outgoing["game_id"]),
        (Some("accepted"), &start["game_id"])
    );
    robo.send(json!({"type": "accept", "challenge": id})).await;
    assert_eq!(robo.next_of("error").await["code"], "conflict");

    // From the bot to an account by name: the account accepts it in its list.
    robo.send(json!({"type": "challenge-player", "to": "Alice", "game": "torus"}))
        .await;
    let made = robo.next_of("challenge-created").await;
    let to_alice = made["challenge"]["id"].as_str().unwrap().to_string();
    let listed = alice.get("/api/challenges").await.success();
    assert_eq!(listed["incoming"][0]["id"], to_alice.as_str(), "{listed}");
    assert_eq!(
        listed["incoming"][0]["from"],
        json!({"kind": "bot", "name": "Robo"})
    );
    let accepted = alice
        .post(&format!("/api/challenges/{to_alice}/accept"), json!({}))
        .await;
    let game_id = accepted.success()["game_id"].clone();
    let start = robo.next_of("start").await;
    assert_eq!(start["game_id"], game_id);
    assert_eq!(start["game"], "torus");

    // Declined with a reason; withdrawn by its challenger only.
    robo.send(json!({"type": "challenge-player", "to": "carol", "game": "torus"}))
        .await;
    let to_carol = robo.next_of("challenge-created").await["challenge"]["id"].clone();
    let to_carol = to_carol.as_str().unwrap();
    let reason = json!({"reason": "not now"});
    let declined = carol
        .post(&format!("/api/challenges/{to_carol}/decline"), reason)
        .await;
    assert_eq!(declined.status, 204, "{:?}", declined.body);
    let told = robo.next_of("challenge-declined").await;
    assert_eq!(
        (told["opponent"].as_str(), told["reason"].as_str()),
        (Some("carol"), Some("not now"))
    );
    let again = alice
        .post("/api/challenges", json!({"to": "Robo", "game": "torus"}))
        .await;
    let again = again.success()["id"].as_str().unwrap().to_string();
    assert_eq!(robo.next_of("challenge").await["challenge"], again.as_str());
    assert_eq!(
        bob.delete(&format!("/api/challenges/{again}")).await.code(),
        "forbidden"
    );
    assert_eq!(
        alice
            .delete(&format!("/api/challenges/{again}"))
            .await
            .status,
        204
    );
    assert_eq!(
        robo.next_of("challenge-cancelled").await["challenge"],
        again.as_str()
    );
    robo.send(json!({"type": "accept", "challenge": again}))
        .await;
    assert_eq!(robo.next_of("error").await["code"], "conflict");
}

/// A bot creates a tournament for its owner (an account; a guest's bot may not), playing in
/// it (`join`), and starts it; a bot of another owner may not start it.
async fn bots_create_and_start_tournaments_for_their_owners(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::account(&base, "alice").await;
    let guest = Client::person(&base, "guest").await;
    let mut organizer =
        Bot::connect(&base, &register(&alice, "Organizer").await, "Organizer").await;
    let mut stranger = Bot::connect(&base, &register(&guest, "Stranger").await, "Stranger").await;
    let request = json!({"type": "create-tournament", "name": "Bot Cup", "game": "torus",
        "format": "round-robin", "rounds": 1, "clock": {"initial_s": 60}, "house": ["random"],
        "join": true});
    stranger.send(request.clone()).await;
    let refused = stranger.expect("error").await;
    assert_eq!(refused["code"], "bad-request", "{refused}");
    organizer.send(request).await;
    let id = organizer.expect("tournament-created").await["tournament"].clone();
    let view = alice
        .get(&format!("/api/tournaments/{}", id.as_str().unwrap()))
        .await
        .success();
    assert_eq!(
        (&view["creator"], &view["stage"]),
        (&json!("Organizer"), &json!("open"))
    );
    let players: Vec<&Value> = view["players"].as_array().unwrap().iter().collect();
    assert_eq!(
        players.iter().map(|p| &p["name"]).collect::<Vec<_>>(),
        [&json!("Organizer"), &json!("random")],
        "{view}"
    );
    organizer
        .send(json!({"type": "join-tournament", "tournament": id}))
        .await;
    assert_eq!(organizer.expect("error").await["code"], "conflict");
    stranger
        .send(json!({"type": "start-tournament", "tournament": id}))
        .await;
    assert_eq!(stranger.expect("error").await["code"], "not-a-player");
    organizer
        .send(json!({"type": "start-tournament", "tournament": id}))
        .await;
    let news = organizer.next_of("tournament").await;
    assert_eq!(news["tournament"]["stage"], "running", "{news}");
    organizer.next_of("start").await;
}

/// A bot reads its game's players' room (its own lines too) and writes to it under its name,
/// with people's limits; the spectators' room and other games are not its to read or write.
async fn bots_read_and_write_the_players_chat(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let (_, created) = challenge_accepted(&alice, &mut bot, "Hexer").await;
    let id = created.success()["id"].as_str().unwrap().to_string();
    bot.expect("start").await;
    let (mut hers, _) = alice.watch(&id).await;
    assert_eq!(hers.chat().await["lines"], json!([]));
    let carol = Client::person(&base, "carol").await;
    let (mut spectator, _) = carol.watch(&id).await;
    let _ = spectator.chat().await;
    spectator
        .send(json!({"type": "chat", "text": "spectating"}))
        .await;
    hers.send(json!({"type": "chat", "text": "good luck"}))
        .await;
    assert_eq!(hers.chat().await["lines"][0]["text"], "good luck");
    let heard = bot.next_of("chat").await;
    assert_eq!(
        (&heard["game_id"], &heard["author"], &heard["text"]),
        (&json!(id), &json!("alice"), &json!("good luck")),
        "{heard}"
    );
    bot.send(json!({"type": "chat", "game_id": id, "text": "you too"}))
        .await;
    let line = hers.chat().await;
    assert_eq!(
        (&line["lines"][0]["author"], &line["lines"][0]["text"]),
        (&json!("Hexer"), &json!("you too"))
    );
    assert_eq!(bot.next_of("chat").await["text"], "you too");
    for (game, text, code) in [
        ("no-such-game", "hi", "not-found"),
        (id.as_str(), "", "bad-request"),
        (id.as_str(), &"x".repeat(281), "bad-request"),
    ] {
        bot.send(json!({"type": "chat", "game_id": game, "text": text}))
            .await;
        let refused = bot.expect("error").await;
        assert_eq!(
            (&refused["code"], &refused["game_id"]),
            (&json!(code), &json!(game))
        );
    }
    // A game the bot does not play: not its chat.
    let other = alice
        .create(json!({"game": "go", "params": {"size": 5}, "opponent": {"kind": "house", "level": "random"}}))
        .await;
    let other = other["id"].as_str().unwrap();
    bot.send(json!({"type": "chat", "game_id": other, "text": "hi"}))
        .await;
    assert_eq!(bot.expect("error").await["code"], "not-a-player");
}

/// A bot past its message rate is told which game's message was dropped (`game_id`), so it
/// can send that move again rather than wait for an answer that never comes.
async fn a_message_refused_for_its_rate_names_its_game(store: Store) {
    let limits = Limits {
        bot_messages_per_second: 1,
        bot_message_burst: 2,
        ..Limits::default()
    };
    let (_server, base, _dir) = common::server_with(store, limits).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let mv = json!({"type": "move", "game_id": "g1", "move": "aa", "ply": 0});
    for _ in 0..3 {
        bot.send(mv.clone()).await;
    }
    let mut codes = Vec::new();
    for _ in 0..3 {
        let refused = bot.expect("error").await;
        assert_eq!(refused["game_id"], "g1", "{refused}");
        codes.push(refused["code"].as_str().unwrap().to_string());
    }
    assert!(codes.iter().any(|c| c == "rate-limited"), "{codes:?}");
}

async fn start(store: Store) -> (Server, String, common::Site) {
    common::server_with(store, Limits::default()).await
}

async fn registration_and_the_handshake(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let nobody = Client::anonymous(&base);
    let alice = Client::person(&base, "alice").await;
    let no_session = nobody.post("/api/bots", json!({"name": "Hexer"})).await;
    assert_eq!((no_session.status, no_session.code()), (401, "no-session"));
    for name in ["", "has space", "ünïcode", &"x".repeat(33)] {
        let answer = alice.post("/api/bots", json!({ "name": name })).await;
        assert_eq!(
            (answer.status, answer.code()),
            (400, "bad-request"),
            "{name}"
        );
    }
    let token = register(&alice, "Hexer").await;
    assert_eq!(token.len(), 64);
    let taken = alice.post("/api/bots", json!({"name": "Hexer"})).await;
    assert_eq!((taken.status, taken.code()), (409, "conflict"));

    assert_eq!(Bot::open(&base, "wrong").await.err(), Some(401));
    let plain = nobody.get("/api/bot/ws").await;
    assert_eq!((plain.status, plain.code()), (401, "bad-token"));
    // The first message must be hello in this protocol's version.
    let mut bot = Bot::open(&base, &token).await.unwrap();
    bot.send(json!({"type": "seek", "game": "go"})).await;
    assert_eq!(bot.expect("error").await["code"], "bad-request");
    assert_eq!(bot.next().await, Value::Null, "closed");
    let mut bot = Bot::open(&base, &token).await.unwrap();
    bot.send(json!({"type": "hello", "protocol": 7})).await;
    assert!(bot.expect("error").await["message"]
        .as_str()
        .unwrap()
        .contains("protocol 7"));

    assert_eq!(nobody.get("/api/bots").await.body, json!({"online": []}));
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    assert_eq!(
        nobody.get("/api/bots").await.body,
        json!({"online": ["Hexer"]})
    );
    bot.send(json!({"type": "dance"})).await;
    assert_eq!(bot.expect("error").await["code"], "bad-json");
    bot.send(json!({"type": "accept", "challenge": "none"}))
        .await;
    assert_eq!(bot.expect("error").await["code"], "not-found");
    bot.send(json!({"type": "move", "game_id": "nope", "move": "aa", "ply": 0}))
        .await;
    let error = bot.expect("error").await;
    assert_eq!(
        (error["code"].as_str(), error["game_id"].as_str()),
        (Some("not-found"), Some("nope"))
    );
    bot.send(json!({"type": "seek", "game": "go", "params": {"size": 1}}))
        .await;
    assert_eq!(bot.expect("error").await["code"], "bad-request");
    // A second connection takes over; the first is told and closed.
    let _second = Bot::connect(&base, &token, "Hexer").await;
    assert_eq!(bot.expect("error").await["code"], "conflict");
    assert_eq!(bot.next().await, Value::Null);
}

async fn a_person_challenges_a_bot_and_they_play_to_the_end(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let request = |name: &str| {
        json!({"game": "hex-torus", "params": {"width": 4, "height": 4},
               "opponent": {"kind": "bot", "name": name}, "color": "white"})
    };
    let offline = alice.post("/api/games", request("Hexer")).await;
    assert_eq!((offline.status, offline.code()), (404, "not-found"));

    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    // Declined, with the bot's reason.
    let waiting = {
        let alice = alice.clone();
        tokio::spawn(async move { alice.post("/api/games", request("Hexer")).await })
    };
    let challenge = bot.expect("challenge").await;
    assert_eq!(
        challenge["from"],
        json!({"kind": "person", "name": "alice"})
    );
    assert_eq!(
        (challenge["game"].as_str(), challenge["color"].as_str()),
        (Some("hex-torus"), Some("black"))
    );
    assert_eq!(
        challenge["params"],
        json!({"width": 4, "height": 4, "swap": "false"})
    );
    let id = challenge["challenge"].clone();
    bot.send(json!({"type": "decline", "challenge": id, "reason": "busy"}))
        .await;
    let declined = waiting.await.unwrap();
    assert_eq!((declined.status, declined.code()), (409, "declined"));
    assert!(declined.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("busy"));

    // Accepted: the game is live at once and the bot (black) is asked to move.
    let waiting = {
        let alice = alice.clone();
        tokio::spawn(async move { alice.post("/api/games", request("Hexer")).await })
    };
    let challenge = bot.expect("challenge").await;
    bot.send(json!({"type": "accept", "challenge": challenge["challenge"]}))
        .await;
    let created = waiting.await.unwrap();
    assert_eq!(created.status, 201, "{:?}", created.body);
    let state = created.body;
    assert_eq!(state["status"], "live");
    assert_eq!(
        state["players"]["black"],
        json!({"kind": "bot", "name": "Hexer"})
    );
    let game_id = state["id"].as_str().unwrap().to_string();
    let start = bot.expect("start").await;
    assert_eq!(
        (start["game_id"].as_str(), start["color"].as_str()),
        (Some(game_id.as_str()), Some("black"))
    );
    assert_eq!(
        start["opponent"],
        json!({"kind": "person", "name": "alice"})
    );
    let turn = bot.expect("your-turn").await;
    assert_eq!(turn["ply"], 0);
    // Refusals name the game and change nothing.
    let send =
        |mv: &str, ply: u64| json!({"type": "move", "game_id": game_id, "move": mv, "ply": ply});
    bot.send(send("aa", 3)).await;
    assert_eq!(bot.expect("error").await["code"], "stale-ply");
    bot.send(send("zz", 0)).await;
    assert_eq!(bot.expect("error").await["code"], "illegal-move");

    // Alice plays on the game's WebSocket, the bot on its own.
    let (mut socket, mut seen) = alice.watch(&game_id).await;
    bot.send(send(
        turn["position"]["legal_moves"][0].as_str().unwrap(),
        0,
    ))
    .await;
    let player = tokio::spawn(async move {
        let mut answered = None;
        while seen["status"] != "finished" {
            let ply = seen["position"]["ply"].as_u64();
            if to_move(&seen, "white") && answered != ply {
                answered = ply;
                let mv = seen["position"]["legal_moves"][0].clone();
                socket
                    .send(json!({"type": "move", "move": mv, "ply": ply}))
                    .await;
            }
            seen = socket.state().await;
        }
        seen
    });
    let over = bot.play_out().await;
    let seen = player.await.unwrap();
    assert_eq!(over["game_id"], game_id.as_str());
    assert_eq!(over["result"], seen["result"]);
    assert_eq!(over["position"]["moves"], seen["position"]["moves"]);
    let sgf = alice.get_text(&format!("/api/games/{game_id}/sgf")).await.2;
    assert!(
        sgf.contains("PB[Hexer]") && sgf.contains("PW[alice]"),
        "{sgf}"
    );
}

async fn two_seeking_bots_are_matched_and_clocks_are_enforced(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let owner = Client::person(&base, "owner").await;
    let (one, two, three) = (
        register(&owner, "one").await,
        register(&owner, "two").await,
        register(&owner, "three").await,
    );
    let mut one = Bot::connect(&base, &one, "one").await;
    let mut two = Bot::connect(&base, &two, "two").await;
    let seek = json!({"type": "seek", "game": "ctor", "params": {"size": 4}});
    one.send(seek.clone()).await;
    one.expect("seeking").await;
    // Another game's seek does not match.
    let mut three = Bot::connect(&base, &three, "three").await;
    three
        .send(json!({"type": "seek", "game": "ctor", "params": {"size": 5}}))
        .await;
    three.expect("seeking").await;
    three.send(json!({"type": "cancel-seek"})).await;
    three.expect("seek-cancelled").await;
    two.send(seek).await;
    let (over_one, over_two) = tokio::join!(one.play_out(), two.play_out());
    assert_eq!(over_one["result"], over_two["result"]);
    let id = over_one["game_id"].as_str().unwrap();
    let listed = owner.get("/api/games?status=finished").await.body;
    assert_eq!(listed[0]["id"], id);
    let kinds = [
        &listed[0]["players"]["black"]["kind"],
        &listed[0]["players"]["white"]["kind"],
    ];
    assert_eq!(kinds, [&json!("bot"), &json!("bot")]);

    // With a clock, a game whose first move never comes is aborted without a result (the
    // flag falls before the first-move wait ends).
    let seek = json!({"type": "seek", "game": "go", "params": {"size": 5},
                      "clock": {"initial_s": 1, "increment_s": 0}});
    one.send(seek.clone()).await;
    one.expect("seeking").await;
    two.send(seek.clone()).await;
    let start = one.expect("start").await;
    assert_eq!(
        start["clock"],
        json!({"initial_s": 1.0, "increment_s": 0.0})
    );
    two.next_of("start").await;
    let over = one.next_of("game-over").await;
    assert_eq!(
        (&over["result"]["reason"], &over["result"]["winner"]),
        (&json!("abort"), &json!("draw"))
    );
    two.next_of("game-over").await;

    // Once both have moved, a bot that does not move loses on time.
    one.send(seek.clone()).await;
    one.expect("seeking").await;
    two.send(seek).await;
    let start = one.expect("start").await;
    two.next_of("start").await;
    let (black, white) = match start["color"].as_str() {
        Some("black") => (&mut one, &mut two),
        _ => (&mut two, &mut one),
    };
    for (bot, mv) in [(&mut *black, "aa"), (&mut *white, "bb")] {
        let turn = bot.next_of("your-turn").await;
        let (id, ply) = (&turn["game_id"], &turn["ply"]);
        bot.send(json!({"type": "move", "game_id": id, "move": mv, "ply": ply}))
            .await;
    }
    let over = black.next_of("game-over").await;
    assert_eq!(
        (&over["result"]["reason"], &over["result"]["winner"]),
        (&json!("time"), &json!("white"))
    );
}

async fn a_bot_that_reconnects_is_told_its_games_again(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let waiting = {
        let alice = alice.clone();
        tokio::spawn(async move {
            let request = json!({"game": "go", "params": {"size": 5}, "color": "black",
                                 "opponent": {"kind": "bot", "name": "Hexer"}});
            alice.post("/api/games", request).await
        })
    };
    let challenge = bot.expect("challenge").await;
    bot.send(json!({"type": "accept", "challenge": challenge["challenge"]}))
        .await;
    let game_id = waiting.await.unwrap().body["id"]
        .as_str()
        .unwrap()
        .to_string();
    bot.expect("start").await;
    drop(bot);
    let moved = alice
        .post(
            &format!("/api/games/{game_id}/moves"),
            json!({"move": "cc", "ply": 0}),
        )
        .await;
    assert_eq!(moved.status, 200);
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let start = bot.expect("start").await;
    assert_eq!(start["game_id"], game_id.as_str());
    let turn = bot.expect("your-turn").await;
    assert_eq!(
        (turn["ply"].as_u64(), turn["position"]["moves"][0].as_str()),
        (Some(1), Some("cc"))
    );
    // A move in someone else's game is refused.
    let other = alice
        .create(json!({"game": "go", "opponent": {"kind": "invite"}}))
        .await;
    let stranger = json!({"type": "move", "game_id": other["id"], "move": "aa", "ply": 0});
    bot.send(stranger).await;
    assert_eq!(bot.expect("error").await["code"], "not-a-player");
    bot.send(json!({"type": "resign", "game_id": game_id}))
        .await;
    let over = bot.expect("game-over").await;
    assert_eq!(over["result"]["reason"], "resignation");
    assert_eq!(over["result"]["winner"], "black");
}

/// The example client of the server crate, built by `cargo test` beside this test:
/// target/<profile>/deps/bots-HASH -> target/<profile>/examples/bot_client.
fn example_client() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let client = exe
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples")
        .join(format!("bot_client{}", std::env::consts::EXE_SUFFIX));
    assert!(
        client.exists(),
        "{} is missing: build it with `cargo build -p toroid-server --example bot_client`",
        client.display()
    );
    client
}

async fn two_example_clients_seek_and_play_a_game_to_the_end(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let owner = Client::person(&base, "owner").await;
    let mut clients = Vec::new();
    for name in ["example-one", "example-two"] {
        let token = register(&owner, name).await;
        let base = base.clone();
        clients.push(tokio::task::spawn_blocking(move || {
            std::process::Command::new(example_client())
                .args(["--url", &base, "--seek", "hex-torus", "--games", "1"])
                .env("TOROID_BOT_TOKEN", token)
                .output()
        }));
    }
    let outputs = tokio::time::timeout(WAIT * 4, futures_util::future::join_all(clients))
        .await
        .expect("both example clients finish their game");
    for output in outputs {
        let output = output.unwrap().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let finished = Client::anonymous(&base)
        .get("/api/games?status=finished")
        .await;
    let games = finished.body.as_array().unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    let players = &games[0]["players"];
    let mut names = [
        players["black"]["name"].clone(),
        players["white"]["name"].clone(),
    ];
    names.sort_by_key(|n| n.to_string());
    assert_eq!(names, [json!("example-one"), json!("example-two")]);
}

/// An owner lists its bots, rotates a token (the old one stops working at once, and the bot
/// connected with it is told and closed) and deletes a bot once it has no unfinished game;
/// its name stays retired, so nobody else takes it with its history; nobody else can do
/// either.
async fn tokens_are_rotated_and_bots_deleted_by_their_owner(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let bob = Client::person(&base, "bob").await;
    let first = register(&alice, "Rota").await;
    let mut bot = Bot::connect(&base, &first, "Rota").await;
    let mine = alice.get("/api/bots/mine").await;
    assert_eq!(mine.status, 200);
    assert_eq!(mine.body["bots"][0]["name"], "Rota");
    assert_eq!(mine.body["bots"][0]["online"], true);
    assert_eq!(bob.get("/api/bots/mine").await.body["bots"], json!([]));
    for refused in [
        bob.post("/api/bots/Rota/token", json!({})).await,
        bob.delete("/api/bots/Rota").await,
    ] {
        assert_eq!((refused.status, refused.code()), (404, "not-found"));
    }
    let named_mine = alice.post("/api/bots", json!({"name": "mine"})).await;
    assert_eq!(named_mine.status, 400);

    let rotated = alice.post("/api/bots/Rota/token", json!({})).await;
    assert_eq!(rotated.status, 200, "{:?}", rotated.body);
    let second = rotated.body["token"].as_str().unwrap().to_string();
    assert_ne!(second, first);
    let told = bot.next().await;
    assert_eq!(
        (told["type"].as_str(), told["code"].as_str()),
        (Some("error"), Some("bad-token"))
    );
    assert_eq!(
        bot.next().await,
        Value::Null,
        "the old connection is closed"
    );
    assert_eq!(Bot::open(&base, &first).await.err(), Some(401));
    let mut bot = Bot::connect(&base, &second, "Rota").await;

    // A bot with a game in play cannot be deleted.
    let (_, game) = challenge_accepted(&alice, &mut bot, "Rota").await;
    assert_eq!(game.status, 201, "{:?}", game.body);
    let busy = alice.delete("/api/bots/Rota").await;
    assert_eq!((busy.status, busy.code()), (409, "conflict"));
    let id = game.body["id"].as_str().unwrap();
    let resigned = alice
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(resigned.status, 200);
    let deleted = alice.delete("/api/bots/Rota").await;
    assert_eq!(deleted.status, 204, "{:?}", deleted.body);
    assert_eq!(alice.get("/api/bots/mine").await.body["bots"], json!([]));
    assert_eq!(Bot::open(&base, &second).await.err(), Some(401));
    for name in ["Rota", "rota"] {
        let retired = bob.post("/api/bots", json!({ "name": name })).await;
        assert_eq!(
            (retired.status, retired.code()),
            (409, "conflict"),
            "{name}"
        );
    }
}

/// How long after a player leaves the short-grace server allows a claim of victory (it
/// must be longer than two ping intervals).
const GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// The server with claims of victory allowed [`GRACE`] after a player leaves.
async fn start_with_short_grace(store: Store) -> (Server, String, common::Site) {
    common::server_with(
        store,
        Limits {
            leave_grace: GRACE,
            ping_interval: std::time::Duration::from_millis(200),
            ..Limits::default()
        },
    )
    .await
}

/// A bot is told everything about a game when it starts and again when it reconnects, and
/// every move of either side as it is made; it lists its live games, and anyone lists a
/// player's games.
async fn a_bot_gets_the_full_game_on_start_on_reconnect_and_after_every_move(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let (_, created) = challenge_accepted(&alice, &mut bot, "Hexer").await;
    let id = created.body["id"].as_str().unwrap().to_string();
    let start = bot.expect("start").await;
    assert_eq!(
        start["players"],
        json!({"black": {"kind": "person", "name": "alice"},
               "white": {"kind": "bot", "name": "Hexer"}})
    );
    assert_eq!(
        (start["ply"].as_u64(), start["color"].as_str()),
        (Some(0), Some("white"))
    );
    assert_eq!(start["position"]["moves"], json!([]));
    assert_eq!(
        (&start["clocks"], &start["draw_offer"]),
        (&Value::Null, &Value::Null)
    );

    let alice_moves = |mv: &'static str, ply: u64| {
        let (alice, id) = (alice.clone(), id.clone());
        async move {
            let path = format!("/api/games/{id}/moves");
            let answer = alice.post(&path, json!({"move": mv, "ply": ply})).await;
            assert_eq!(answer.status, 200, "{:?}", answer.body);
        }
    };
    alice_moves("cc", 0).await;
    let moved = bot.expect("moved").await;
    assert_eq!(
        (
            moved["ply"].as_u64(),
            moved["move"].as_str(),
            moved["color"].as_str()
        ),
        (Some(1), Some("cc"), Some("black"))
    );
    assert_eq!(bot.expect("your-turn").await["ply"], 1);
    bot.send(json!({"type": "move", "game_id": id, "move": "aa", "ply": 1}))
        .await;
    // Its own move is told too, as lichess's gameState does.
    let moved = bot.expect("moved").await;
    assert_eq!(
        (moved["ply"].as_u64(), moved["move"].as_str()),
        (Some(2), Some("aa"))
    );

    // Away while it is to move: the whole game on return, then the turn.
    drop(bot);
    alice_moves("ee", 2).await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let start = bot.expect("start").await;
    assert_eq!(start["ply"], 3);
    assert_eq!(start["position"]["moves"], json!(["cc", "aa", "ee"]));
    assert_eq!(bot.expect("your-turn").await["ply"], 3);
    bot.send(json!({"type": "move", "game_id": id, "move": "ab", "ply": 3}))
        .await;
    bot.expect("moved").await;

    // Away while the opponent is to move: the whole position, and no turn.
    drop(bot);
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let start = bot.expect("start").await;
    assert_eq!(start["ply"], 4);
    assert_eq!(start["position"]["to_move"], "black");
    let board = start["position"]["board"].as_array().unwrap();
    let white_stones = board
        .iter()
        .map(|row| row.as_str().unwrap().matches('w').count());
    assert_eq!(white_stones.sum::<usize>(), 2);

    // Its live games, in full, with its token only.
    let nobody = Client::anonymous(&base);
    assert_eq!(nobody.get("/api/bot/games").await.code(), "bad-token");
    let listed = reqwest::Client::new()
        .get(format!("{base}/api/bot/games"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), 200);
    let listed: Value = listed.json().await.unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(
        (
            listed[0]["id"].as_str(),
            listed[0]["position"]["ply"].as_u64()
        ),
        (Some(id.as_str()), Some(4))
    );
    // Anyone's games by player name.
    let by_player = nobody.get("/api/games?player=Hexer").await.body;
    assert_eq!(by_player.as_array().unwrap().len(), 1);
    assert_eq!(by_player[0]["id"], id.as_str());
    assert_eq!(
        nobody
            .get("/api/games?player=alice&status=finished")
            .await
            .body,
        json!([])
    );
    assert_eq!(nobody.get("/api/games?player=nobody").await.body, json!([]));
    drop(bot);
}

/// A game a bot loses on time while it is disconnected is reported when it comes back, with
/// the whole game first.
async fn a_game_lost_on_time_while_away_is_reported_on_reconnect(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let request = json!({"game": "go", "params": {"size": 5}, "color": "black",
        "clock": {"initial_s": 2, "increment_s": 0},
        "opponent": {"kind": "bot", "name": "Hexer"}});
    let (_, created) = common::challenge_accepted_with(&alice, &mut bot, request).await;
    let id = created.body["id"].as_str().unwrap().to_string();
    let moves = format!("/api/games/{id}/moves");
    assert_eq!(
        alice
            .post(&moves, json!({"move": "cc", "ply": 0}))
            .await
            .status,
        200
    );
    let turn = bot.next_of("your-turn").await;
    bot.send(json!({"type": "move", "game_id": id, "move": "aa", "ply": turn["ply"]}))
        .await;
    bot.next_of("moved").await;
    drop(bot);
    // Alice moves; the bot, gone, runs out of its two seconds.
    let alice_move = alice.post(&moves, json!({"move": "ee", "ply": 2})).await;
    assert_eq!(alice_move.status, 200, "{:?}", alice_move.body);
    let deadline = tokio::time::Instant::now() + WAIT;
    while alice.get(&format!("/api/games/{id}")).await.body["status"] != "finished" {
        assert!(tokio::time::Instant::now() < deadline, "the flag falls");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let start = bot.expect("start").await;
    assert_eq!(
        (start["game_id"].as_str(), start["ply"].as_u64()),
        (Some(id.as_str()), Some(3))
    );
    let over = bot.expect("game-over").await;
    assert_eq!(
        (
            over["result"]["winner"].as_str(),
            over["result"]["reason"].as_str()
        ),
        (Some("black"), Some("time"))
    );
    // Told once: the next return brings nothing.
    drop(bot);
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let nothing = tokio::time::timeout(std::time::Duration::from_millis(500), bot.next()).await;
    assert!(nothing.is_err(), "{nothing:?}");
}

/// Draw offers (declined by a word or by a move, accepted by offering back), aborts before
/// both sides have moved, and a claim of victory over a bot gone past the grace time.
async fn draws_aborts_and_claims_of_victory(store: Store) {
    let (_server, base, _dir) = start_with_short_grace(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let act = |id: &str, action: &str| format!("/api/games/{id}/{action}");

    // The bot aborts before anyone moved.
    let (_, created) = challenge_accepted(&alice, &mut bot, "Hexer").await;
    let id = created.body["id"].as_str().unwrap().to_string();
    bot.expect("start").await;
    bot.send(json!({"type": "abort", "game_id": id})).await;
    let over = bot.expect("game-over").await;
    assert_eq!(
        (
            over["result"]["reason"].as_str(),
            over["result"]["winner"].as_str()
        ),
        (Some("abort"), Some("draw"))
    );

    // Once both have moved it is too late; an unknown action is not found.
    let (_, created) = challenge_accepted(&alice, &mut bot, "Hexer").await;
    let id = created.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        alice
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": "cc", "ply": 0})
            )
            .await
            .status,
        200
    );
    bot.next_of("your-turn").await;
    bot.send(json!({"type": "move", "game_id": id, "move": "aa", "ply": 1}))
        .await;
    bot.next_of("moved").await;
    let late = alice.post(&act(&id, "abort"), json!({})).await;
    assert_eq!((late.status, late.code()), (409, "conflict"));
    let unknown = alice.post(&act(&id, "dance"), json!({})).await;
    assert_eq!((unknown.status, unknown.code()), (404, "not-found"));
    let nothing = alice.post(&act(&id, "decline-draw"), json!({})).await;
    assert_eq!((nothing.status, nothing.code()), (409, "conflict"));

    // Alice offers; the bot declines by a word.
    let offered = alice.post(&act(&id, "draw"), json!({})).await;
    assert_eq!(offered.body["draw_offer"], "black");
    assert_eq!(bot.expect("draw-offer").await["by"], "black");
    bot.send(json!({"type": "decline-draw", "game_id": id}))
        .await;
    assert_eq!(bot.expect("draw-offer").await["by"], Value::Null);
    assert_eq!(
        alice.get(&format!("/api/games/{id}")).await.body["draw_offer"],
        Value::Null
    );
    // Alice offers with her move; the bot's move declines it.
    alice.post(&act(&id, "draw"), json!({})).await.success();
    assert_eq!(
        alice
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": "ee", "ply": 2})
            )
            .await
            .status,
        200
    );
    bot.next_of("your-turn").await;
    bot.send(json!({"type": "move", "game_id": id, "move": "ab", "ply": 3}))
        .await;
    bot.next_of("moved").await;
    assert_eq!(bot.expect("draw-offer").await["by"], Value::Null);
    // The bot offers; Alice accepts by offering back.
    bot.send(json!({"type": "draw", "game_id": id})).await;
    assert_eq!(bot.expect("draw-offer").await["by"], "white");
    let drawn = alice.post(&act(&id, "draw"), json!({})).await;
    assert_eq!(
        (
            drawn.body["result"]["winner"].as_str(),
            drawn.body["result"]["reason"].as_str()
        ),
        (Some("draw"), Some("agreement"))
    );
    assert_eq!(
        bot.expect("game-over").await["result"]["reason"],
        "agreement"
    );
    let sgf = alice.get_text(&format!("/api/games/{id}/sgf")).await.2;
    assert!(
        sgf.contains("RE[0]") && sgf.contains("TO[agreement]"),
        "{sgf}"
    );

    // The bot leaves: Alice may claim the win once the grace time has passed.
    let (_, created) = challenge_accepted(&alice, &mut bot, "Hexer").await;
    let id = created.body["id"].as_str().unwrap().to_string();
    bot.expect("start").await;
    // Alice's page is told when the bot leaves, and when she may claim.
    let (mut page, _) = alice.watch(&id).await;
    // Alice has just made the game: she is not gone, so the bot cannot claim.
    bot.send(json!({"type": "claim-victory", "game_id": id}))
        .await;
    assert_eq!(bot.expect("error").await["code"], "conflict");
    let left = std::time::Instant::now();
    drop(bot);
    let nobody = Client::anonymous(&base);
    common::eventually("the bot is offline once its socket is closed", || async {
        let online = nobody.get("/api/bots").await.body;
        (online["online"] == json!([])).then_some(())
    })
    .await;
    let claim_in = page.presence().await;
    assert!(
        claim_in
            .as_i64()
            .is_some_and(|ms| (0..=GRACE.as_millis() as i64).contains(&ms)),
        "{claim_in}"
    );
    let early = alice.post(&act(&id, "claim-victory"), json!({})).await;
    assert_eq!((early.status, early.code()), (409, "conflict"));
    // The claim is refused until the grace time has passed, then allowed.
    let claimed = common::eventually("the claim is allowed after the grace time", || async {
        let answer = alice.post(&act(&id, "claim-victory"), json!({})).await;
        match answer.status {
            409 => None,
            _ => Some(answer),
        }
    })
    .await;
    let waited = left.elapsed();
    assert!(
        waited >= GRACE && waited < GRACE + std::time::Duration::from_secs(1),
        "claimed after {waited:?}, the grace being {GRACE:?}"
    );
    assert_eq!(claimed.status, 200, "{:?}", claimed.body);
    assert_eq!(
        (
            claimed.body["result"]["winner"].as_str(),
            claimed.body["result"]["reason"].as_str()
        ),
        (Some("black"), Some("left"))
    );
}

/// The answer to a bot's challenge and its game's start, which may come in either order
/// (they travel separately; the game's first messages may come between): checks they name
/// the same game.
async fn created_and_started(bot: &mut Bot) -> (Value, Value) {
    let (mut created, mut start) = (Value::Null, Value::Null);
    while created.is_null() || start.is_null() {
        let message = bot.next().await;
        match message["type"].as_str() {
            Some("game-created") => created = message,
            Some("start") => start = message,
            Some("your-turn" | "moved") => {}
            _ => panic!("unexpected {message}"),
        }
    }
    assert_eq!(created["game_id"], start["game_id"]);
    (created, start)
}

/// A bot challenges a house bot (the game starts at once), another bot (which declines,
/// then accepts), and a person (through an invite link); a person's challenge that is
/// withdrawn is announced to the bot; a seek is acknowledged even when it pairs at once.
async fn bots_challenge_house_bots_bots_and_people(store: Store) {
    let (_server, base, _dir) = start(store).await;
    // Two owners: the games of two bots of one owner change no rating.
    let owner = Client::person(&base, "owner").await;
    let other = Client::person(&base, "other").await;
    let (one, two) = (register(&owner, "one").await, register(&other, "two").await);
    let mut one = Bot::connect(&base, &one, "one").await;
    let mut two = Bot::connect(&base, &two, "two").await;
    let challenge = |opponent: Value| {
        json!({"type": "challenge", "game": "go", "params": {"size": 5}, "color": "black",
               "opponent": opponent})
    };

    // A house bot: the game is created and starts; the bot plays it out.
    one.send(challenge(json!({"kind": "house", "level": "random"})))
        .await;
    let (created, start) = created_and_started(&mut one).await;
    assert!(created.get("invite").is_none(), "{created}");
    assert_eq!(start["game_id"], created["game_id"]);
    assert_eq!(
        (start["color"].as_str(), &start["opponent"]),
        (Some("black"), &json!({"kind": "house", "name": "random"}))
    );
    one.send(json!({"type": "resign", "game_id": created["game_id"]}))
        .await;
    assert_eq!(
        one.next_of("game-over").await["game_id"],
        created["game_id"]
    );

    // Another bot, which declines, then accepts.
    one.send(challenge(json!({"kind": "bot", "name": "two"})))
        .await;
    let put = two.next_of("challenge").await;
    assert_eq!(
        (&put["from"], put["color"].as_str()),
        (&json!({"kind": "bot", "name": "one"}), Some("white"))
    );
    two.send(json!({"type": "decline", "challenge": put["challenge"], "reason": "resting"}))
        .await;
    let declined = one.next_of("challenge-declined").await;
    assert_eq!(declined["opponent"], "two");
    assert!(
        declined["reason"].as_str().unwrap().contains("resting"),
        "{declined}"
    );
    one.send(challenge(json!({"kind": "bot", "name": "two"})))
        .await;
    let put = two.next_of("challenge").await;
    two.send(json!({"type": "accept", "challenge": put["challenge"]}))
        .await;
    let (created, _) = created_and_started(&mut one).await;
    assert_eq!(two.next_of("start").await["game_id"], created["game_id"]);
    two.send(json!({"type": "resign", "game_id": created["game_id"]}))
        .await;
    let over = one.next_of("game-over").await;
    assert_eq!(over["result"], two.next_of("game-over").await["result"]);
    // Not itself, nor an unknown bot.
    one.send(challenge(json!({"kind": "bot", "name": "one"})))
        .await;
    assert_eq!(one.next_of("error").await["code"], "bad-request");
    one.send(challenge(json!({"kind": "bot", "name": "nobody"})))
        .await;
    assert_eq!(one.next_of("error").await["code"], "not-found");

    // A person, through the invite link the bot is given: the game starts when she joins.
    one.send(challenge(json!({"kind": "invite"}))).await;
    let created = one.next_of("game-created").await;
    let link = created["invite"].as_str().unwrap();
    let code = link.strip_prefix("/join/").unwrap();
    let alice = Client::person(&base, "alice").await;
    let joined = alice.post("/api/join", json!({ "code": code })).await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    let start = one.next_of("start").await;
    assert_eq!(start["game_id"], created["game_id"]);
    assert_eq!(
        start["opponent"],
        json!({"kind": "person", "name": "alice"})
    );
    one.send(json!({"type": "resign", "game_id": created["game_id"]}))
        .await;
    one.next_of("game-over").await;

    // A person's challenge whose request is given up is withdrawn from the bot.
    let request = json!({"game": "go", "opponent": {"kind": "bot", "name": "two"}});
    let waiting = {
        let alice = alice.clone();
        tokio::spawn(async move { alice.post("/api/games", request).await })
    };
    let put = two.next_of("challenge").await;
    waiting.abort();
    let cancelled = two.next_of("challenge-cancelled").await;
    assert_eq!(cancelled["challenge"], put["challenge"]);
    two.send(json!({"type": "accept", "challenge": put["challenge"]}))
        .await;
    assert_eq!(two.next_of("error").await["code"], "not-found");
}

/// Seeks with ranges: any parameters, any clock in bounds, or anything, pair with a seek
/// they accept, and the game takes the terms both accept; open seeks are listed.
async fn range_seeks_pair_with_what_they_accept_and_are_listed(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let owner = Client::person(&base, "owner").await;
    let anyone = Client::anonymous(&base);
    let mut bots = Vec::new();
    for name in ["one", "two", "three"] {
        let token = register(&owner, name).await;
        bots.push(Bot::connect(&base, &token, name).await);
    }
    let [one, two, three] = &mut bots[..] else {
        unreachable!()
    };

    // One takes any parameters and any clock from one to five minutes.
    let open = json!({"type": "seek", "game": "go", "params": "any",
                      "clock": {"min_initial_s": 60, "max_initial_s": 300}});
    one.send(open).await;
    one.expect("seeking").await;
    assert_eq!(
        anyone.get("/api/bots/seeks").await.body,
        json!([{"bot": "one", "game": "go", "params": "any",
                "clock": {"min_initial_s": 60.0, "max_initial_s": 300.0}, "rated": false}])
    );
    // Two's ten-minute clock is out of range, and a game without a clock too: both queue.
    let slow = json!({"type": "seek", "game": "go", "params": {"size": 7},
                      "clock": {"initial_s": 600, "increment_s": 5}});
    two.send(slow).await;
    two.expect("seeking").await;
    three
        .send(json!({"type": "seek", "game": "go", "params": {"size": 7}}))
        .await;
    three.expect("seeking").await;
    assert_eq!(
        anyone
            .get("/api/bots/seeks")
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // Three now asks for 7×7 with three minutes: it pairs with one, on three's terms.
    three
        .send(json!({"type": "seek", "game": "go", "params": {"size": 7},
                     "clock": {"initial_s": 180, "increment_s": 2}}))
        .await;
    three.expect("seeking").await;
    let start = one.next_of("start").await;
    assert_eq!(start["params"]["size"], 7);
    assert_eq!(
        start["clock"],
        json!({"initial_s": 180.0, "increment_s": 2.0})
    );
    assert_eq!(three.next_of("start").await["game_id"], start["game_id"]);
    let listed = anyone.get("/api/bots/seeks").await.body;
    assert_eq!(listed.as_array().map(|l| l.len()), Some(1), "{listed}");
    assert_eq!(listed[0]["bot"], "two");
    // "any" clock takes two's clock, and bad ranges are refused.
    one.send(json!({"type": "seek", "game": "go", "params": "any", "clock": "any"}))
        .await;
    one.next_of("seeking").await;
    let start = one.next_of("start").await;
    assert_eq!(
        start["clock"],
        json!({"initial_s": 600.0, "increment_s": 5.0})
    );
    for clock in [
        json!({"min_initial_s": 300, "max_initial_s": 60}),
        json!("some"),
    ] {
        one.send(json!({"type": "seek", "game": "go", "clock": clock}))
            .await;
        let error = one.next_of("error").await;
        assert!(
            ["bad-request", "bad-json"].contains(&error["code"].as_str().unwrap()),
            "{error}"
        );
    }
    assert_eq!(anyone.get("/api/bots/seeks").await.body, json!([]));
}

/// Every refusal ends the connection with a close frame naming it: 4400 for a bad hello,
/// 4409 for a connection another one replaced, 4401 for a token that was replaced.
async fn refusals_close_with_a_code_and_a_reason(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bad_hello = Bot::open(&base, &token).await.unwrap();
    bad_hello
        .send(json!({"type": "hello", "protocol": 9}))
        .await;
    assert_eq!(
        bad_hello.close_frame().await,
        Some((4400, "bad-request".into()))
    );

    let mut first = Bot::connect(&base, &token, "Hexer").await;
    let mut second = Bot::connect(&base, &token, "Hexer").await;
    assert_eq!(first.close_frame().await, Some((4409, "conflict".into())));
    let rotated = alice.post("/api/bots/Hexer/token", json!({})).await;
    assert_eq!(rotated.status, 200, "{:?}", rotated.body);
    assert_eq!(second.close_frame().await, Some((4401, "bad-token".into())));
}

/// A bot that stops answering the server's pings is dropped after three intervals, and is
/// offline from then on.
async fn a_silent_bot_is_dropped_by_the_ping_timeout(store: Store) {
    const PING: std::time::Duration = std::time::Duration::from_millis(200);
    let (_server, base, _dir) = common::server_with(
        store,
        Limits {
            ping_interval: PING,
            ..Limits::default()
        },
    )
    .await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    // Connected, then deaf: it reads nothing, so it answers no ping.
    let connected = std::time::Instant::now();
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let nobody = Client::anonymous(&base);
    assert_eq!(
        nobody.get("/api/bots").await.body,
        json!({"online": ["Hexer"]})
    );
    // Silent since before `connected`: dropped after three intervals and a tick at most.
    common::eventually("the silent bot is dropped", || async {
        let online = nobody.get("/api/bots").await.body;
        (online == json!({"online": []})).then_some(())
    })
    .await;
    let silent = connected.elapsed();
    assert!(
        silent >= 3 * PING && silent < 5 * PING + std::time::Duration::from_millis(500),
        "dropped after {silent:?} of silence, pinging every {PING:?}"
    );
    // What it reads now ends with the end of the connection.
    assert_eq!(bot.close_frame().await, None, "dropped, not refused");
}

/// Reads `bot`'s socket for `ms` milliseconds (answering pings); whether nothing came.
async fn idle(bot: &mut Bot, ms: u64) -> bool {
    let wait = std::time::Duration::from_millis(ms);
    tokio::time::timeout(wait, bot.next()).await.is_err()
}

/// A person whose game WebSocket is open stays present (renewed at every ping), so the bot
/// cannot claim victory; the bot is told when she leaves (with the seconds before it may
/// claim) and when she comes back; once her socket has been closed for the grace time, it
/// claims.
async fn victory_is_claimed_over_a_person_only_once_her_socket_is_gone(store: Store) {
    let (_server, base, _dir) = common::server_with(
        store,
        Limits {
            ping_interval: std::time::Duration::from_millis(100),
            leave_grace: std::time::Duration::from_millis(600),
            ..Limits::default()
        },
    )
    .await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let (_, created) = challenge_accepted(&alice, &mut bot, "Hexer").await;
    let id = created.body["id"].as_str().unwrap().to_string();
    bot.expect("start").await;
    // Alice's page: a socket that reads, and so answers the pings.
    let (mut socket, _) = alice.watch(&id).await;
    let page = tokio::spawn(async move {
        loop {
            socket.next().await;
        }
    });
    // The bot reads meanwhile, and so answers the pings too.
    assert!(idle(&mut bot, 1200).await, "no message meanwhile");
    let claim = json!({"type": "claim-victory", "game_id": id});
    bot.send(claim.clone()).await;
    let refused = bot.next_of("error").await;
    assert_eq!(refused["code"], "conflict", "{refused}");
    // She closes the page: the bot is told she is gone, and when it may claim.
    page.abort();
    let _ = page.await;
    let gone = bot.next_of("opponent-gone").await;
    assert_eq!(gone["game_id"], id.as_str());
    assert!(gone["claim_in_s"].as_u64() <= Some(1), "{gone}");
    // She opens it again: back. She closes it for good; after the grace the bot may claim.
    let (mut socket, _) = alice.watch(&id).await;
    let page = tokio::spawn(async move {
        loop {
            socket.next().await;
        }
    });
    assert_eq!(bot.next_of("opponent-back").await["game_id"], id.as_str());
    page.abort();
    let _ = page.await;
    bot.next_of("opponent-gone").await;
    assert!(idle(&mut bot, 1000).await, "no message meanwhile");
    bot.send(claim).await;
    let over = bot.next_of("game-over").await;
    assert_eq!(
        (
            over["result"]["winner"].as_str(),
            over["result"]["reason"].as_str()
        ),
        (Some("white"), Some("left"))
    );
}

/// Rated seeks pair only with rated seeks, in a rated game with a clock, whose end rates
/// both bots; a rated seek without a clock is refused.
async fn rated_seeks_make_rated_games_between_bots(store: Store) {
    let (_server, base, _dir) = start(store).await;
    // Two owners: the games of two bots of one owner change no rating.
    let owner = Client::person(&base, "owner").await;
    let other = Client::person(&base, "other").await;
    let (one, two) = (register(&owner, "one").await, register(&other, "two").await);
    let mut one = Bot::connect(&base, &one, "one").await;
    let mut two = Bot::connect(&base, &two, "two").await;
    one.send(json!({"type": "seek", "game": "torus", "rated": true}))
        .await;
    assert_eq!(one.expect("error").await["code"], "bad-request");
    let rated = json!({"type": "seek", "game": "torus", "rated": true,
                       "clock": {"min_initial_s": 60, "max_initial_s": 300}});
    one.send(rated.clone()).await;
    one.expect("seeking").await;
    // A casual seek does not pair with it.
    two.send(json!({"type": "seek", "game": "torus", "clock": {"initial_s": 120}}))
        .await;
    two.expect("seeking").await;
    two.send(rated).await;
    two.expect("seeking").await;
    let start = one.next_of("start").await;
    assert_eq!(start["clock"]["initial_s"], 60.0);
    // The context: rated, both new players at 1500, no tournament.
    assert_eq!(
        (&start["rated"], &start["ratings"], &start["tournament"]),
        (
            &json!(true),
            &json!({"black": 1500.0, "white": 1500.0}),
            &Value::Null
        ),
        "{start}"
    );
    let id = start["game_id"].clone();
    assert_eq!(two.next_of("start").await["game_id"], id);
    // Two moves each (a game resigned sooner changes no rating); then `one` resigns on its
    // turn, once its moves are stored.
    let twos = if start["color"] == "black" { 2 } else { 3 };
    tokio::join!(one.play_turns(2), two.play_turns(twos));
    one.next_of("your-turn").await;
    one.send(json!({"type": "resign", "game_id": id})).await;
    // The end says what it did to both ratings: the loser's down, the winner's up.
    let over = one.next_of("game-over").await;
    let (mine, theirs) = match start["color"].as_str() {
        Some("black") => ("black", "white"),
        _ => ("white", "black"),
    };
    let change = |color: &str| &over["rating_changes"][color];
    assert_eq!(change(mine)["before"], 1500.0, "{over}");
    assert!(change(mine)["after"].as_f64() < Some(1500.0), "{over}");
    assert!(change(theirs)["after"].as_f64() > Some(1500.0), "{over}");
    let board = owner.get("/api/leaderboard/torus").await.body;
    let names: Vec<&str> = (board.as_array().unwrap().iter())
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["two", "one"], "{board}");
    assert_eq!(board[0]["kind"], "bot");
}

/// Plays for `bot` in the arena until `until`, then leaves and finishes its game: the
/// number of games it saw end.
async fn arena_player(mut bot: Bot, until: tokio::time::Instant) -> usize {
    let (mut ended, mut left) = (0, false);
    loop {
        if !left && tokio::time::Instant::now() >= until {
            bot.send(json!({"type": "leave-arena"})).await;
            left = true;
        }
        let wait = std::time::Duration::from_millis(200);
        let Ok(message) = tokio::time::timeout(wait, bot.next()).await else {
            if left {
                return ended;
            }
            continue;
        };
        match message["type"].as_str() {
            Some("your-turn") => {
                let (id, ply) = (&message["game_id"], &message["ply"]);
                let mv = message["position"]["legal_moves"][0].clone();
                bot.send(json!({"type": "move", "game_id": id, "move": mv, "ply": ply}))
                    .await;
            }
            Some("game-over") => ended += 1,
            _ => {}
        }
    }
}

/// Three bots in one arena pool for a few seconds are paired continuously: every game is
/// rated, no bot meets the same opponent twice in a row, and every rating moves the way its
/// game went; a bot alone in a pool gets a house bot.
async fn the_arena_pairs_bots_continuously(store: Store) {
    let (_server, base, _dir) = common::server_with(
        store,
        Limits {
            arena_house_after: std::time::Duration::from_secs(1),
            ..Limits::default()
        },
    )
    .await;
    let owner = Client::person(&base, "owner").await;
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(6);
    let mut players = Vec::new();
    for name in ["ant", "bee", "cat"] {
        // Each of its own owner: the arena pairs no two bots of one owner.
        let token = register(&Client::person(&base, name).await, name).await;
        let mut bot = Bot::connect(&base, &token, name).await;
        bot.send(json!({"type": "arena", "game": "capture-go",
                        "clock": {"initial_s": 60, "increment_s": 0}}))
            .await;
        let joined = bot.expect("arena-joined").await;
        assert_eq!(joined["game"], "capture-go");
        players.push(tokio::spawn(arena_player(bot, until)));
    }
    for player in players {
        assert!(player.await.unwrap() >= 2, "each bot plays game after game");
    }
    for name in ["ant", "bee", "cat"] {
        let mut games = owner
            .get(&format!("/api/games?player={name}&status=finished"))
            .await
            .body
            .as_array()
            .unwrap()
            .clone();
        games.sort_by_key(|g| g["created_at"].as_i64());
        let opponent = |game: &Value| {
            let players = &game["players"];
            let (black, white) = (&players["black"]["name"], &players["white"]["name"]);
            if black == name {
                white.clone()
            } else {
                black.clone()
            }
        };
        for pair in games.windows(2) {
            assert_ne!(
                opponent(&pair[0]),
                opponent(&pair[1]),
                "{name} met the same twice in a row"
            );
        }
        // Every game rated, and the rating moving with each result.
        let page = owner.get(&format!("/api/players/{name}")).await.body;
        let history = page["ratings"][0]["history"].as_array().unwrap();
        assert_eq!(history.len(), games.len(), "{name}: every game is rated");
        let mut before = 1500.0;
        for point in history {
            let game = games.iter().find(|g| g["id"] == point["game_id"]).unwrap();
            assert_eq!(game["rated"], true);
            let after = point["rating"].as_f64().unwrap();
            let colour = if game["players"]["black"]["name"] == name {
                "black"
            } else {
                "white"
            };
            match game["result"]["winner"].as_str() {
                Some(winner) if winner == colour => {
                    assert!(after > before, "{name} won: {before} → {after}")
                }
                Some("draw") => {}
                _ => assert!(after < before, "{name} lost: {before} → {after}"),
            }
            before = after;
        }
    }
    // Colours are balanced between the same two bots: neither has had black more than once
    // more often than the other.
    let mut games = std::collections::HashMap::new();
    for name in ["ant", "bee", "cat"] {
        let finished = owner
            .get(&format!("/api/games?player={name}&status=finished"))
            .await
            .success();
        for game in finished.as_array().unwrap() {
            games.insert(game["id"].to_string(), game["players"].clone());
        }
    }
    let mut black = std::collections::HashMap::<(String, String), i32>::new();
    for players in games.values() {
        let (b, w) = (&players["black"], &players["white"]);
        if b["kind"] == "bot" && w["kind"] == "bot" {
            let (b, w) = (b["name"].to_string(), w["name"].to_string());
            *black.entry((b, w)).or_default() += 1;
        }
    }
    for ((b, w), times) in &black {
        let back = black.get(&(w.clone(), b.clone())).copied().unwrap_or(0);
        assert!(
            (times - back).abs() <= 1,
            "{b} had black {times} times against {w}, {w} {back} times against {b}"
        );
    }
    // Alone in its pool, a bot is paired with a house bot after the wait.
    let token = register(&owner, "dog").await;
    let mut dog = Bot::connect(&base, &token, "dog").await;
    dog.send(json!({"type": "arena", "game": "go", "clock": {"initial_s": 60}}))
        .await;
    dog.expect("arena-joined").await;
    let start = dog.next_of("start").await;
    assert_eq!(start["opponent"]["kind"], "house", "{start}");
    dog.send(json!({"type": "leave-arena"})).await;
    dog.send(json!({"type": "resign", "game_id": start["game_id"]}))
        .await;
    dog.next_of("game-over").await;
}

/// Plays the first legal move for `bot` at every turn, forever.
/// Plays the first legal move whenever `bot` is to move; each game's `start` must name
/// tournament `tournament`, whose news (`tournament` messages) go to `news`.
async fn first_moves(
    mut bot: Bot,
    tournament: Value,
    news: tokio::sync::mpsc::UnboundedSender<Value>,
) {
    loop {
        let message = bot.next().await;
        if message["type"] == "start" {
            assert_eq!(message["tournament"], tournament, "{message}");
        }
        if message["type"] == "tournament" {
            let _ = news.send(message["tournament"].clone());
        }
        if message["type"] == "your-turn" {
            let (id, ply) = (&message["game_id"], &message["ply"]);
            let mv = message["position"]["legal_moves"][0].clone();
            bot.send(json!({"type": "move", "game_id": id, "move": mv, "ply": ply}))
                .await;
        }
    }
}

/// A Swiss tournament of four house bots, a registered bot and an account plays its three
/// rounds to the end by itself: each round starts when the previous is over, nobody meets
/// twice, the standings add up, and the rated games rate everyone.
async fn a_swiss_tournament_plays_itself_out(store: Store) {
    let (_server, base, _dir) = common::server_with(
        store,
        Limits {
            house_move: std::time::Duration::from_millis(30),
            ..Limits::default()
        },
    )
    .await;
    let alice = Client::account(&base, "Alice").await;
    let guest = Client::person(&base, "guest").await;
    let request = json!({"name": "Autumn Swiss", "game": "capture-go", "format": "swiss",
        "rounds": 3, "clock": {"initial_s": 120}, "house": ["random", "greedy", "beginner", "casual"]});
    let refused = guest.post("/api/tournaments", request.clone()).await;
    assert_eq!(refused.status, 400, "only accounts create tournaments");
    // A name with a right-to-left override, which could make it read as another, is not one.
    let mut reversed = request.clone();
    reversed["name"] = json!("Autumn \u{202E}ssiwS");
    let refused = alice.post("/api/tournaments", reversed).await;
    assert_eq!((refused.status, refused.code()), (400, "bad-request"));
    let created = alice.post("/api/tournaments", request).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    assert_eq!(created.body["stage"], "open");
    assert_eq!(created.body["creator"], "Alice");
    let listed = guest.get("/api/tournaments?limit=5").await.body;
    assert_eq!(listed[0]["id"], id.as_str(), "{listed}");
    assert_eq!(listed[0]["players"], 4, "the house bots are in: {listed}");
    assert_eq!(guest.get("/api/tournaments?limit=x").await.status, 400);
    // Alice joins, and so does a bot over its WebSocket.
    let joined = alice
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    let token = register(&alice, "ant").await;
    let mut ant = Bot::connect(&base, &token, "ant").await;
    ant.send(json!({"type": "join-tournament", "tournament": id}))
        .await;
    assert_eq!(
        ant.expect("tournament-joined").await["tournament"],
        id.as_str()
    );
    let (news, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let ant = tokio::spawn(first_moves(ant, json!(id), news));
    let not_creator = guest
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(not_creator.status, 403);
    let started = alice
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(started.body["stage"], "running", "{:?}", started.body);
    // A bot that comes late is told the tournament has started (not that it is missing).
    let late_token = register(&guest, "Latecomer").await;
    let mut late = Bot::connect(&base, &late_token, "Latecomer").await;
    late.send(json!({"type": "join-tournament", "tournament": id}))
        .await;
    let refused = late.expect("error").await;
    assert_eq!(refused["code"], "conflict", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("has started"),
        "{refused}"
    );

    // Alice plays her games with the first legal move, until the tournament is over.
    let view = alice
        .play_tournament(&id, std::time::Duration::from_secs(90))
        .await;
    assert!(!ant.is_finished(), "the bot stopped: {:?}", ant.await);
    // The bot was told of each round as it began, and of the end with the standings.
    let mut rounds_begun = 0;
    let finished = loop {
        let view = tokio::time::timeout(WAIT, heard.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(view["id"], id.as_str(), "{view}");
        if view["stage"] == "finished" {
            break view;
        }
        assert_eq!(view["stage"], "running", "{view}");
        rounds_begun += 1;
        assert_eq!(
            view["played"].as_array().unwrap().len(),
            rounds_begun,
            "{view}"
        );
    };
    assert_eq!(rounds_begun, 3);
    assert_eq!(
        finished["standings"].as_array().unwrap().len(),
        6,
        "{finished}"
    );
    ant.abort();
    let rounds = view["played"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    let mut met = std::collections::HashSet::new();
    for round in rounds {
        let games = round["games"].as_array().unwrap();
        assert_eq!(games.len(), 3, "six players, three games a round");
        for game in games {
            assert!(game["result"].is_string(), "{game}");
            let mut pair = [
                game["white"].as_str().unwrap(),
                game["black"].as_str().unwrap(),
            ];
            pair.sort();
            assert!(met.insert(pair), "{pair:?} met twice");
        }
    }
    let standings = view["standings"].as_array().unwrap();
    let scores: Vec<f64> = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores.iter().sum::<f64>(), 9.0, "{standings:?}");
    let listed = guest.get("/api/tournaments").await.body;
    assert_eq!(listed[0]["stage"], "finished", "{listed}");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    let board = alice.get("/api/leaderboard/capture-go").await.body;
    assert_eq!(
        board.as_array().unwrap().len(),
        6,
        "every player is rated: {board}"
    );
}

/// Ten players joining one tournament at once are all in it, and five starts at once make
/// one first round: each change is stored only over the state it read, so none is lost and
/// none is applied twice.
async fn joins_and_starts_at_once_are_each_applied_once(store: Store) {
    let (_server, base, _dir) = start(store).await;
    let alice = Client::account(&base, "Alice").await;
    let request = json!({"name": "Rush", "game": "capture-go", "format": "round-robin",
        "rounds": 1, "clock": {"initial_s": 600}});
    let created = alice.post("/api/tournaments", request).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..10).map(|i| format!("Player{i}")).collect();
    let players =
        futures_util::future::join_all(names.iter().map(|name| Client::account(&base, name))).await;
    let join = format!("/api/tournaments/{id}/join");
    let joins =
        futures_util::future::join_all(players.iter().map(|p| p.post(&join, json!({})))).await;
    for joined in &joins {
        assert_eq!(joined.status, 200, "{:?}", joined.body);
    }
    let again = players[3].post(&join, json!({})).await;
    assert_eq!(again.status, 409, "already in: {:?}", again.body);
    let view = alice.get(&format!("/api/tournaments/{id}")).await.body;
    assert_eq!(view["players"].as_array().unwrap().len(), 10, "{view}");

    let start = format!("/api/tournaments/{id}/start");
    let starts =
        futures_util::future::join_all((0..5).map(|_| alice.post(&start, json!({})))).await;
    let statuses: Vec<u16> = starts.iter().map(|s| s.status).collect();
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 409).count(),
        4,
        "{statuses:?}"
    );
    let view = alice.get(&format!("/api/tournaments/{id}")).await.body;
    let played = view["played"].as_array().unwrap();
    assert_eq!(played.len(), 1, "one round: {view}");
    assert_eq!(played[0]["games"].as_array().unwrap().len(), 5, "{view}");
    let live = alice.get("/api/games?status=live&limit=50").await.body;
    assert_eq!(
        live.as_array().unwrap().len(),
        5,
        "one round's games: {live}"
    );
    let late = Client::account(&base, "Late").await;
    assert_eq!(late.post(&join, json!({})).await.status, 409);
}

/// Both WebSockets end as RFC 6455 asks: a client's close frame is answered with the
/// server's, and a stopping server closes every socket with 1001, going away, so clients
/// see neither an abnormal closure (1006) nor a bare TCP close.
async fn sockets_answer_a_close_and_say_going_away_when_the_server_stops(store: Store) {
    let (server, base, _dir) = start(store).await;
    let alice = Client::person(&base, "alice").await;
    let token = register(&alice, "Hexer").await;
    let game = alice
        .create(common::house("go", json!({"size": 5}), "random", "black"))
        .await;
    let id = game["id"].as_str().unwrap();
    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    assert!(
        bot.close_handshake().await.is_some(),
        "the bot's close answered"
    );
    let (mut page, _) = alice.watch(id).await;
    assert!(
        page.close_handshake().await.is_some(),
        "the page's close answered"
    );

    let mut bot = Bot::connect(&base, &token, "Hexer").await;
    let (mut page, _) = alice.watch(id).await;
    let stopping = tokio::spawn(server.stop());
    let going_away = Some((1001, "the server is stopping".to_string()));
    assert_eq!(bot.close_frame().await, going_away);
    assert_eq!(page.close_frame().await, going_away);
    stopping.await.unwrap();
}

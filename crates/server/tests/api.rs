//! The HTTP API and the WebSockets against a real server on loopback: every route, every
//! kind of bad input, games against a house bot and between two people with a spectator,
//! records, clocks, restarts and limits.

mod common;

use std::time::{Duration, Instant};

use common::{house, invite_code, on_both_stores, to_move, Client, Site, Store};
use serde_json::{json, Value};
use toroid_protocol::record::Record;
use toroid_rules::Position;
use toroid_server::{Config, Limits, Server};

struct Running {
    server: Server,
    base: String,
    config: Config,
    _site: Site,
}

impl Running {
    /// Stops the server and starts another on the same site (its port a new one).
    async fn restart(self) -> Running {
        let Running {
            server,
            config,
            _site,
            ..
        } = self;
        server.stop().await;
        let config = Config { port: 0, ..config };
        let server = Server::start(config.clone()).await.unwrap();
        Running {
            base: format!("http://{}", server.addr),
            server,
            config,
            _site,
        }
    }
}

/// Limits loose enough for tests that make many requests.
fn loose() -> Limits {
    Limits {
        requests_per_second: 10_000,
        request_burst: 10_000,
        messages_per_second: 10_000,
        message_burst: 10_000,
        ..Limits::default()
    }
}

async fn start(store: Store, limits: Limits) -> Running {
    let site = Site::new(store).await;
    let config = site.config(limits);
    let server = Server::start(config.clone()).await.unwrap();
    Running {
        base: format!("http://{}", server.addr),
        server,
        config,
        _site: site,
    }
}

fn invite(game: &str, params: Value) -> Value {
    json!({"game": game, "params": params, "opponent": {"kind": "invite"}, "color": "black"})
}

/// The first legal move that is not a pass (or a pass when there is none).
fn some_move(state: &Value) -> String {
    let legal = state["position"]["legal_moves"].as_array().unwrap();
    legal
        .iter()
        .map(|m| m.as_str().unwrap())
        .find(|m| *m != "pass")
        .unwrap_or("pass")
        .to_string()
}

on_both_stores!(
    sessions_and_bad_bodies,
    reference_routes_errors_and_the_openapi_description,
    the_page_and_its_files_are_served,
    creating_games_checks_everything,
    a_whole_game_against_a_house_bot_over_the_websocket,
    an_invite_game_between_two_people_with_a_spectator,
    the_server_ends_a_game_on_time,
    games_continue_after_a_restart,
    request_and_message_rates_and_connections_are_limited,
    unfinished_games_per_session_are_limited,
    the_history_gives_every_board_as_the_rules_made_it,
    accounts_claim_names_and_sign_in,
    rated_games_change_ratings_and_casual_ones_do_not,
    my_games_are_mine_alone,
    takebacks_go_back_a_turn_when_the_opponent_agrees,
    people_agree_on_dead_stones_and_a_dispute_goes_on_as_cleanup,
    a_correspondence_clock_is_full_again_after_each_move,
    chat_has_a_room_for_players_and_one_for_spectators,
    a_rematch_between_people_opens_when_both_agree,
    quiet_games_leave_the_list_of_live_games,
    white_may_take_over_the_first_stone_with_the_pie_rule,
    a_correspondence_game_outlives_the_quiet_that_ends_others,
    a_person_hears_of_challenges_games_their_move_and_tournaments,
    a_finished_game_is_reviewed_once_and_its_blunder_marked,
    a_person_follows_players_and_sees_them_online_and_their_games,
    a_correspondence_move_running_out_of_time_is_reminded,
    quick_pairing_pairs_people_who_ask_for_the_same_game,
    an_open_game_is_withdrawn_when_its_creator_leaves_it,
    puzzles_are_mined_from_finished_games_and_rated_once_a_player,
    a_guest_is_challenged_by_name_while_its_page_is_open,
    the_zero_house_bot_plays_with_its_network,
);

/// The `zero` level plays with the house network of the game's rule set (hex-torus's here).
async fn the_zero_house_bot_plays_with_its_network(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::person(&run.base, "alice").await;
    let game = alice
        .create(house(
            "hex-torus",
            json!({"width": 6, "height": 6}),
            "zero",
            "white",
        ))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    common::eventually("zero's first move", || {
        let (alice, id) = (alice.clone(), id.clone());
        async move {
            let state = alice.get(&format!("/api/games/{id}")).await.body;
            (ply(&state) >= 1).then_some(())
        }
    })
    .await;
}

fn ply(state: &Value) -> u64 {
    state["position"]["ply"].as_u64().unwrap()
}

async fn sessions_and_bad_bodies(store: Store) {
    let run = start(store, loose()).await;
    let nobody = Client::anonymous(&run.base);
    let alice = Client::person(&run.base, "  alice ").await;
    let me = alice.get("/api/session").await;
    assert_eq!((me.status, me.body["name"].as_str()), (200, Some("alice")));
    assert!(me.body["id"].as_str().is_some_and(|id| !id.is_empty()));
    let none = nobody.get("/api/session").await;
    assert_eq!((none.status, none.code()), (401, "no-session"));
    let mut forged = nobody.clone();
    forged.cookie = Some("toroid_session=0123".into());
    assert_eq!(forged.get("/api/session").await.code(), "no-session");

    for (body, status, code) in [
        (json!({"name": ""}), 400, "bad-request"),
        (json!({"name": "x".repeat(33)}), 400, "bad-request"),
        (json!({"name": "a\nb"}), 400, "bad-request"),
        (json!({"name": 5}), 400, "bad-json"),
        (json!({"nom": "alice"}), 400, "bad-json"),
    ] {
        let answer = nobody.post("/api/session", body.clone()).await;
        assert_eq!((answer.status, answer.code()), (status, code), "{body}");
        assert!(answer.body["error"]["message"].as_str().unwrap().len() > 3);
    }
    let broken = nobody
        .post_raw("/api/session", "{\"name\":", "application/json")
        .await;
    assert_eq!((broken.status, broken.code()), (400, "bad-json"));
    let text = nobody
        .post_raw("/api/session", "{\"name\":\"a\"}", "text/plain")
        .await;
    assert_eq!((text.status, text.code()), (415, "not-json"));
    let huge = format!("{{\"name\":\"{}\"}}", "x".repeat(20_000));
    let large = nobody
        .post_raw("/api/session", huge, "application/json")
        .await;
    assert_eq!((large.status, large.code()), (413, "too-large"));
}

async fn reference_routes_errors_and_the_openapi_description(store: Store) {
    let run = start(store, loose()).await;
    let client = Client::anonymous(&run.base);
    let rules = client.get("/api/rules").await.body;
    let names: Vec<&str> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["torus", "hex-torus", "m-torus", "ctor", "capture-go", "go"]
    );
    assert!(rules[5]["params"].as_array().unwrap().len() >= 5);
    let levels = client.get("/api/levels").await.body;
    assert_eq!(
        levels,
        json!(["random", "greedy", "beginner", "casual", "strong", "max", "zero"])
    );
    // Every level plays every rule set: each has a house network for `zero`.
    for name in names {
        let playing = client.get(&format!("/api/levels/{name}")).await.body;
        assert_eq!(playing, levels, "{name}");
    }
    let chess = client.get("/api/levels/chess").await;
    assert_eq!((chess.status, chess.code()), (404, "not-found"));

    let missing = client.get("/api/nothing").await;
    assert_eq!((missing.status, missing.code()), (404, "not-found"));
    let game = client.get("/api/games/0000").await;
    assert_eq!((game.status, game.code()), (404, "not-found"));
    for path in ["/sgf", "/topology", "/history", "/analysis", "/ws"] {
        let answer = client.get(&format!("/api/games/0000{path}")).await;
        assert_eq!(answer.code(), "not-found", "{path}");
    }
    let plain = client.get(&format!("/api/games/{}/ws", "x")).await;
    assert_eq!(plain.code(), "not-found");
    let wrong = client.post("/api/rules", json!({})).await;
    assert_eq!((wrong.status, wrong.code()), (405, "method-not-allowed"));
    let list = client.get("/api/games?status=sleeping").await;
    assert_eq!((list.status, list.code()), (400, "bad-request"));
    let list = client.get("/api/games?limit=many").await;
    assert_eq!((list.status, list.code()), (400, "bad-request"));

    let api = client.get("/api/openapi.json").await.body;
    assert!(api["openapi"].as_str().unwrap().starts_with("3."));
    let paths = api["paths"].as_object().unwrap();
    for path in [
        "/api/session",
        "/api/rules",
        "/api/levels",
        "/api/games",
        "/api/games/{id}",
        "/api/games/{id}/join",
        "/api/join",
        "/api/games/{id}/topology",
        "/api/games/{id}/moves",
        "/api/games/{id}/{action}",
        "/api/games/{id}/sgf",
        "/api/games/{id}/analysis",
        "/api/games/{id}/ws",
        "/api/bots",
        "/api/bot/ws",
        "/api/bot/games",
        "/api/openapi.json",
    ] {
        assert!(paths.contains_key(path), "{path} is described");
    }
    assert!(api["components"]["schemas"]["GameState"].is_object());
    // The one clock type is described in its wire form, in seconds.
    let clock = &api["components"]["schemas"]["TimeControl"]["properties"];
    assert!(
        clock["initial_s"].is_object() && clock["increment_s"].is_object(),
        "{clock}"
    );
    // The bot WebSocket's messages, both ways, with every type.
    let schemas = &api["components"]["schemas"];
    let from_bot = schemas["FromBot"].to_string();
    for kind in [
        "hello",
        "seek",
        "move",
        "draw",
        "decline-draw",
        "abort",
        "claim-victory",
    ] {
        assert!(
            from_bot.contains(&format!("\"{kind}\"")),
            "FromBot lacks {kind}"
        );
    }
    let to_bot = schemas["ToBot"].to_string();
    for kind in [
        "welcome",
        "start",
        "moved",
        "draw-offer",
        "your-turn",
        "game-over",
    ] {
        assert!(
            to_bot.contains(&format!("\"{kind}\"")),
            "ToBot lacks {kind}"
        );
    }
    assert_eq!(
        api["components"]["securitySchemes"]["bot_token"]["scheme"],
        "bearer"
    );
}

async fn the_page_and_its_files_are_served(store: Store) {
    let run = start(store, loose()).await;
    let client = Client::anonymous(&run.base);
    let (status, kind, text) = client.get_text("/assets/README.md").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/markdown"), "{kind}");
    assert!(text.contains("embedded"));
    let (status, _, _) = client.get_text("/assets/no-such-file.js").await;
    assert_eq!(status, 404);
    // The page itself (web/index.html) answers every page route.
    let (root, kind, body) = client.get_text("/").await;
    assert_eq!(root, 200);
    assert!(kind.starts_with("text/html"), "{kind}");
    assert!(
        body.contains("<title>toroid</title>") && body.contains("/assets/app.js"),
        "{body}"
    );
    for path in [
        "/game/abc",
        "/join/xyz",
        "/signin",
        "/signup",
        "/leaderboard/go",
        "/player/alice",
        "/tournaments",
        "/tournament/abc",
    ] {
        let (status, _, text) = client.get_text(path).await;
        assert_eq!((status, &text), (root, &body), "{path}");
    }
}

async fn creating_games_checks_everything(store: Store) {
    let run = start(store, loose()).await;
    let nobody = Client::anonymous(&run.base);
    let alice = Client::person(&run.base, "alice").await;
    let request = house("go", json!({"size": 9}), "random", "black");
    let answer = nobody.post("/api/games", request.clone()).await;
    assert_eq!((answer.status, answer.code()), (401, "no-session"));
    for (body, code) in [
        // Rule sets and clocks are checked as the body is read, each with its reason.
        (house("chess", json!({}), "random", "black"), "bad-json"),
        (
            house("go", json!({"size": 99}), "random", "black"),
            "bad-request",
        ),
        (
            house("go", json!({"colour": 1}), "random", "black"),
            "bad-request",
        ),
        (
            house("go", json!({"size": [9]}), "random", "black"),
            "bad-request",
        ),
        (
            house("go", json!({}), "grandmaster", "black"),
            "bad-request",
        ),
        (house("go", json!({}), "random", "purple"), "bad-json"),
        (
            json!({"game": "go", "opponent": {"kind": "ghost"}}),
            "bad-json",
        ),
        (json!({"game": "go"}), "bad-json"),
        (
            json!({"game": "go", "clock": {"initial_s": 0}, "opponent": {"kind": "invite"}}),
            "bad-json",
        ),
        (
            json!({"game": "go", "clock": {"initial_s": 60, "increment_s": -1},
                   "opponent": {"kind": "invite"}}),
            "bad-json",
        ),
    ] {
        let answer = alice.post("/api/games", body.clone()).await;
        assert_eq!((answer.status, answer.code()), (400, code), "{body}");
        let message = answer.body["error"]["message"].as_str().unwrap_or_default();
        if body["game"] == "chess" {
            assert!(message.contains("unknown game 'chess'"), "{message}");
        }
        if body["clock"].is_object() {
            assert!(
                message.contains("a clock has initial_s from 1"),
                "{message}"
            );
        }
    }
    assert_eq!(
        alice.get("/api/games").await.body,
        json!([]),
        "nothing was created"
    );

    let state = alice.create(request).await;
    assert_eq!(state["status"], "live");
    assert_eq!(state["you"], "black");
    assert_eq!(
        state["players"]["white"],
        json!({"kind": "house", "name": "random"})
    );
    assert_eq!(
        state["players"]["black"],
        json!({"kind": "person", "name": "alice"})
    );
    assert_eq!(state["params"]["size"], 9);
    assert_eq!(state["params"]["komi"], 7.5);
    assert_eq!(state["position"]["game"], "go");
    assert_eq!(state["clock"], Value::Null);
    assert!(state.get("invite").is_none());
    let random = alice
        .create(house("ctor", json!({}), "greedy", "random"))
        .await;
    assert!(random["you"] == "black" || random["you"] == "white");

    let id = state["id"].as_str().unwrap();
    let topology = alice.get(&format!("/api/games/{id}/topology")).await.body;
    assert_eq!(topology["cells"].as_array().unwrap().len(), 81);
    assert_eq!(topology["edges"].as_array().unwrap().len(), 2 * 2 * 9 * 8);
    let analysis = alice
        .get(&format!("/api/games/{id}/analysis?ms=100"))
        .await
        .body;
    assert!(analysis["simulations"].as_u64().unwrap() > 0);
    assert_eq!(analysis["visit_map"].as_array().unwrap().len(), 81);
    let best = &analysis["moves"][0];
    assert!(best["move"].is_string() && best["visits"].as_u64().unwrap() > 0);
    assert_eq!(best["pv"][0], best["move"]);
    let bad = alice.get(&format!("/api/games/{id}/analysis?ms=x")).await;
    assert_eq!(bad.code(), "bad-request");
    let not_upgraded = alice.get(&format!("/api/games/{id}/ws")).await;
    assert_eq!(
        (not_upgraded.status, not_upgraded.code()),
        (400, "bad-request")
    );
}

async fn a_whole_game_against_a_house_bot_over_the_websocket(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::person(&run.base, "alice").await;
    let created = alice
        .create(house("go", json!({"size": 5}), "random", "white"))
        .await;
    let id = created["id"].as_str().unwrap();
    let (mut socket, mut state) = alice.watch(id).await;
    assert_eq!(state["you"], "white");
    // A change may be announced twice (it raced the socket's first state): answer once.
    let (mut answered, mut accepting) = (None, false);
    while state["status"] == "live" {
        // Two passes between a person and a house bot: the person accepts the dead stones
        // the house proposes (once: a state sent before the acceptance was taken says it is
        // not yet), and the house bot its own judgement.
        let counting = &state["counting"];
        if counting.is_object() {
            if counting["accepted"]["white"] == false && !accepting {
                accepting = true;
                let dead = counting["dead"].clone();
                socket
                    .send(json!({"type": "accept-dead", "dead": dead}))
                    .await;
            }
        } else if to_move(&state, "white") && answered != Some(ply(&state)) {
            answered = Some(ply(&state));
            let mv = some_move(&state);
            socket
                .send(json!({"type": "move", "move": mv, "ply": ply(&state)}))
                .await;
        }
        state = socket.state().await;
    }
    assert_eq!(state["status"], "finished");
    assert!(state["finished_at"].as_i64().unwrap() >= state["created_at"].as_i64().unwrap());
    let result = &state["result"];
    assert!(["black", "white", "draw"].contains(&result["winner"].as_str().unwrap()));
    assert!(!result["text"].as_str().unwrap().is_empty());
    let moves = state["position"]["moves"].clone();
    assert!(moves.as_array().unwrap().len() >= 2);

    // The record parses back to the same moves and result.
    let (status, kind, sgf) = alice.get_text(&format!("/api/games/{id}/sgf")).await;
    assert_eq!((status, kind.as_str()), (200, "application/x-go-sgf"));
    let record = Record::read(&sgf).unwrap();
    assert_eq!(json!(record.move_notation()), moves);
    assert_eq!(record.black.as_deref(), Some("random"));
    assert_eq!(record.white.as_deref(), Some("alice"));
    let winner = record
        .result
        .as_ref()
        .unwrap()
        .winner
        .map_or("draw", |c| c.name());
    assert_eq!(winner, result["winner"]);
    assert_eq!(
        record.replay().unwrap().ply(),
        moves.as_array().unwrap().len()
    );

    // Finished, it is listed as such, and still readable by anyone.
    let finished = alice.get("/api/games?status=finished").await.body;
    assert_eq!(finished[0]["id"], id);
    assert_eq!(finished[0]["plies"], moves.as_array().unwrap().len());
    assert_eq!(finished[0]["result"], *result);
    let again = Client::anonymous(&run.base)
        .get(&format!("/api/games/{id}"))
        .await;
    assert_eq!(again.body["position"]["moves"], moves);
    assert_eq!(again.body["you"], Value::Null);
}

/// Alice (black) invites Bob; Carol watches without a session.
async fn an_invite_game_between_two_people_with_a_spectator(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::person(&run.base, "alice").await;
    let bob = Client::person(&run.base, "bob").await;
    let carol = Client::anonymous(&run.base);
    let created = alice
        .create(invite("hex-torus", json!({"width": 4, "height": 4})))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["status"], "waiting");
    let link = created["invite"].as_str().unwrap();
    let code = link.strip_prefix("/join/").unwrap();
    // Anyone with the link sees the game it opens before joining, and no more.
    let nobody = Client::anonymous(&run.base);
    let seen = nobody.get(&format!("/api/invites/{code}")).await;
    assert_eq!(seen.status, 200, "{:?}", seen.body);
    assert_eq!(
        (seen.body["status"].as_str(), seen.body["game"].as_str()),
        (Some("waiting"), Some("hex-torus"))
    );
    assert!(seen.body["you"].is_null() && seen.body.get("invite").is_none());
    assert_eq!(nobody.get("/api/invites/not-a-code").await.status, 404);
    assert!(bob
        .get(&format!("/api/games/{id}"))
        .await
        .body
        .get("invite")
        .is_none());
    let waiting = alice.get("/api/games?status=waiting").await.body;
    assert_eq!(waiting[0]["id"], id.as_str());

    let (mut alice_ws, _) = alice.watch(&id).await;
    let (mut carol_ws, _) = carol.watch(&id).await;
    let early = alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "aa", "ply": 0}),
        )
        .await;
    assert_eq!((early.status, early.code()), (409, "not-started"));

    let path = format!("/api/games/{id}/join");
    let wrong = bob.post(&path, json!({"code": "nope"})).await;
    assert_eq!((wrong.status, wrong.code()), (404, "not-found"));
    let own = alice.post(&path, json!({"code": code})).await;
    assert_eq!((own.status, own.code()), (409, "conflict"));
    let anonymous = carol.post(&path, json!({"code": code})).await;
    assert_eq!(anonymous.code(), "no-session");
    let joined = bob.post(&path, json!({"code": code})).await;
    assert_eq!(
        (joined.status, joined.body["you"].as_str()),
        (200, Some("white"))
    );
    assert_eq!(joined.body["status"], "live");
    let late = Client::person(&run.base, "dave").await;
    let taken = late.post("/api/join", json!({"code": code})).await;
    assert_eq!(taken.body["error"]["message"], "invite not found");
    assert_eq!(taken.code(), "not-found", "the invite is used up");
    let state = alice_ws.state().await;
    assert_eq!(
        (state["status"].as_str(), state["you"].as_str()),
        (Some("live"), Some("black"))
    );
    assert_eq!(state["players"]["white"]["name"], "bob");
    carol_ws.state().await;

    // Bob's WebSocket; moves alternate between HTTP and WebSocket.
    let (mut bob_ws, _) = bob.watch(&id).await;
    let moves_path = format!("/api/games/{id}/moves");
    let played = alice
        .post(&moves_path, json!({"move": "aa", "ply": 0}))
        .await;
    assert_eq!(played.status, 200, "{:?}", played.body);
    assert_eq!(played.body["position"]["moves"], json!(["aa"]));
    for socket in [&mut alice_ws, &mut bob_ws, &mut carol_ws] {
        assert_eq!(socket.state().await["position"]["ply"], 1);
    }
    // Refusals change nothing and say why.
    let replay = alice
        .post(&moves_path, json!({"move": "ba", "ply": 0}))
        .await;
    assert_eq!((replay.status, replay.code()), (409, "stale-ply"));
    let out_of_turn = alice
        .post(&moves_path, json!({"move": "ba", "ply": 1}))
        .await;
    assert_eq!(
        (out_of_turn.status, out_of_turn.code()),
        (409, "not-your-turn")
    );
    let occupied = bob.post(&moves_path, json!({"move": "aa", "ply": 1})).await;
    assert_eq!((occupied.status, occupied.code()), (422, "illegal-move"));
    let nonsense = bob
        .post(&moves_path, json!({"move": "hello", "ply": 1}))
        .await;
    assert_eq!((nonsense.status, nonsense.code()), (400, "bad-request"));
    let stranger = late
        .post(&moves_path, json!({"move": "ba", "ply": 1}))
        .await;
    assert_eq!((stranger.status, stranger.code()), (403, "not-a-player"));
    let untyped = bob
        .post(&moves_path, json!({"move": "ba", "ply": "one"}))
        .await;
    assert_eq!((untyped.status, untyped.code()), (400, "bad-json"));
    carol_ws
        .send(json!({"type": "move", "move": "ba", "ply": 1}))
        .await;
    assert_eq!(carol_ws.error().await, "not-a-player");
    bob_ws
        .send(json!({"type": "move", "move": "aa", "ply": 1}))
        .await;
    assert_eq!(bob_ws.error().await, "illegal-move");
    bob_ws.send(json!({"type": "dance"})).await;
    assert_eq!(bob_ws.error().await, "bad-json");
    bob_ws
        .send(json!({"type": "move", "move": "ba", "ply": 0}))
        .await;
    assert_eq!(bob_ws.error().await, "stale-ply");
    let unchanged = carol.get(&format!("/api/games/{id}")).await.body;
    assert_eq!(unchanged["position"]["moves"], json!(["aa"]));

    bob_ws
        .send(json!({"type": "move", "move": "ba", "ply": 1}))
        .await;
    let seen = carol_ws.state().await;
    assert_eq!(seen["position"]["moves"], json!(["aa", "ba"]));
    assert_eq!(seen["you"], Value::Null);
    alice_ws.state().await;
    bob_ws.state().await;

    // Bob resigns on his socket though it is Alice's turn.
    bob_ws.send(json!({"type": "resign"})).await;
    let over = carol_ws.state().await;
    assert_eq!(over["status"], "finished");
    assert_eq!(
        over["result"],
        json!({"winner": "black", "reason": "resignation", "text": "black wins: white resigned"})
    );
    let after = alice
        .post(&moves_path, json!({"move": "ca", "ply": 2}))
        .await;
    assert_eq!((after.status, after.code()), (409, "game-over"));
    let resign = alice
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(resign.code(), "game-over");
    let sgf = alice.get_text(&format!("/api/games/{id}/sgf")).await.2;
    let record = Record::read(&sgf).unwrap();
    assert_eq!(
        toroid_protocol::record::sgf_result(&record.result.unwrap()),
        "B+R"
    );
    assert_eq!(
        (record.black.as_deref(), record.white.as_deref()),
        (Some("alice"), Some("bob"))
    );
}

async fn the_server_ends_a_game_on_time(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::person(&run.base, "alice").await;
    let mut request = house("torus", json!({"size": 5}), "random", "black");
    request["clock"] = json!({"initial_s": 1, "increment_s": 0});
    let created = alice.create(request).await;
    assert_eq!(
        created["clock"],
        json!({"initial_s": 1.0, "increment_s": 0.0})
    );
    let clocks = &created["clocks"];
    assert_eq!(clocks["running"], "black");
    assert!(clocks["black_ms"].as_i64().unwrap() <= 1_000);
    let id = created["id"].as_str().unwrap();
    let (mut socket, _) = alice.watch(id).await;
    // Alice makes her first move (a game nobody started would be aborted), then no more.
    let moves = format!("/api/games/{id}/moves");
    let first = alice.post(&moves, json!({"move": "aa", "ply": 0})).await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    let over = socket.state_until(|s| s["status"] == "finished").await;
    assert_eq!(over["position"]["ply"], 2, "the bot answered");
    assert_eq!(over["result"]["reason"], "time");
    assert_eq!(over["result"]["winner"], "white");
    assert_eq!(over["clocks"]["black_ms"], 0);
    assert_eq!(over["clocks"]["running"], Value::Null);
    let late = alice.post(&moves, json!({"move": "bb", "ply": 2})).await;
    assert_eq!(late.code(), "game-over");
    let sgf = alice.get_text(&format!("/api/games/{id}/sgf")).await.2;
    assert!(sgf.contains("RE[W+T]"), "{sgf}");
}

async fn games_continue_after_a_restart(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::person(&run.base, "alice").await;
    let bob = Client::person(&run.base, "bob").await;
    let mut request = invite("go", json!({"size": 5}));
    request["clock"] = json!({"initial_s": 600, "increment_s": 1});
    let created = alice.create(request).await;
    let id = created["id"].as_str().unwrap().to_string();
    let code = invite_code(&created);
    let waiting = alice.create(invite("ctor", json!({"size": 5}))).await;
    bob.post(&format!("/api/games/{id}/join"), json!({"code": code}))
        .await
        .success();
    let moves = format!("/api/games/{id}/moves");
    alice
        .post(&moves, json!({"move": "cc", "ply": 0}))
        .await
        .success();
    let before = bob.post(&moves, json!({"move": "bb", "ply": 1})).await.body;
    let run = run.restart().await;
    let alice = alice.at(&run.base);
    let bob = bob.at(&run.base);
    let after = alice.get(&format!("/api/games/{id}")).await.body;
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["you"], "black");
    // The clocks resume where the last move left them.
    assert_eq!(after["clocks"]["white_ms"], before["clocks"]["white_ms"]);
    assert_eq!(after["clocks"]["running"], "black");
    assert!(after["clocks"]["black_ms"].as_i64().unwrap() > 590_000);
    let next = alice.post(&moves, json!({"move": "dd", "ply": 2})).await;
    assert_eq!(next.status, 200, "{:?}", next.body);
    assert_eq!(next.body["position"]["moves"], json!(["cc", "bb", "dd"]));
    // The waiting game waits still, and its invite works (here with the code for the id, as
    // a page at /join/CODE may send it).
    let waiting_id = waiting["id"].as_str().unwrap();
    let code = invite_code(&waiting);
    let joined = bob
        .post(&format!("/api/games/{code}/join"), json!({"code": code}))
        .await;
    assert_eq!(
        (joined.status, joined.body["id"].as_str()),
        (200, Some(waiting_id))
    );
    run.server.stop().await;
}

async fn request_and_message_rates_and_connections_are_limited(store: Store) {
    let run = start(
        store,
        Limits {
            requests_per_second: 1,
            request_burst: 5,
            messages_per_second: 1,
            message_burst: 3,
            connections_per_ip: 3,
            ..Limits::default()
        },
    )
    .await;
    let alice = Client::person(&run.base, "alice").await;
    let created = alice
        .create(house("go", json!({"size": 5}), "random", "white"))
        .await;
    let id = created["id"].as_str().unwrap();
    let (mut socket, _) = alice.watch(id).await;

    // The limits refill at one a second, so what may get through is counted from how long
    // each part took: the burst, plus one for every second begun. A loaded machine only
    // lets more through, and each part goes on until the refusal it must show.
    let allowance =
        |burst: usize, started: Instant| burst + started.elapsed().as_secs() as usize + 1;

    // Requests from a fresh address: served until the burst is spent, then refused.
    let fresh = Client::anonymous_from(&run.base, [127, 0, 0, 7].into());
    let started = Instant::now();
    let mut served = 0;
    loop {
        let answer = fresh.get("/api/levels").await;
        if answer.status == 429 {
            assert_eq!(answer.code(), "rate-limited");
            break;
        }
        assert_eq!(answer.status, 200, "{:?}", answer.body);
        served += 1;
        assert!(
            served <= allowance(5, started),
            "{served} requests served, none refused"
        );
    }
    assert!(
        served >= 5,
        "refused after {served} requests, the burst being 5"
    );

    // Messages on one socket: each move is refused (its ply is stale), first for being
    // stale and, once the burst of three is spent, for the rate.
    let started = Instant::now();
    let mut stale = 0;
    loop {
        socket
            .send(json!({"type": "move", "move": "aa", "ply": 99}))
            .await;
        let code = socket.error().await;
        if code == "rate-limited" {
            break;
        }
        stale += 1;
        assert!(
            stale <= allowance(3, started),
            "{stale} messages answered, none refused ({code})"
        );
    }
    assert!(
        stale >= 3,
        "refused after {stale} messages, the burst being 3"
    );

    // Connections: the WebSocket and the client's pooled connection are open; of three more
    // raw connections at least the last goes over the limit of three and is closed.
    let mut extra = Vec::new();
    for _ in 0..3 {
        extra.push(
            tokio::net::TcpStream::connect(run.server.addr)
                .await
                .unwrap(),
        );
    }
    let closed_by_server = |mut stream: tokio::net::TcpStream| async move {
        use tokio::io::AsyncReadExt;
        let mut buf = [0u8; 1];
        matches!(stream.read(&mut buf).await, Ok(0) | Err(_))
    };
    // A connection within the limit stays open, so the first one closed answers.
    let closed = tokio::time::timeout(
        common::WAIT,
        futures_util::future::select_ok(extra.into_iter().map(|stream| {
            Box::pin(async move {
                if closed_by_server(stream).await {
                    Ok(())
                } else {
                    Err(())
                }
            })
        })),
    )
    .await;
    assert!(
        matches!(closed, Ok(Ok(_))),
        "no connection over the limit is closed"
    );
    drop(socket);
}

/// A second session's games do not count against the first's limit; the first's do.
async fn unfinished_games_per_session_are_limited(store: Store) {
    let run = start(
        store,
        Limits {
            games_per_session: 2,
            ..loose()
        },
    )
    .await;
    let alice = Client::person(&run.base, "alice").await;
    alice.create(invite("go", json!({}))).await;
    alice.create(invite("go", json!({}))).await;
    let third = alice.post("/api/games", invite("go", json!({}))).await;
    assert_eq!((third.status, third.code()), (429, "limit"));
    let bob = Client::person(&run.base, "bob").await;
    bob.create(invite("go", json!({}))).await;
}

/// The page steps through a game with the server's boards: every ply's board as the rules
/// made it, here with a capture across the reversed seam of a Klein bottle, and who made
/// each move in the state.
async fn the_history_gives_every_board_as_the_rules_made_it(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::person(&run.base, "alice").await;
    let bob = Client::person(&run.base, "bob").await;
    let created = alice
        .create(invite("go", json!({"size": 5, "topology": "klein"})))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let code = invite_code(&created);
    bob.post(&format!("/api/games/{id}/join"), json!({"code": code}))
        .await
        .success();
    // White's ba is captured by black's de across the top/bottom seam.
    let moves = ["aa", "ba", "ca", "cc", "bb", "dc", "de"];
    let mut state = Value::Null;
    for (ply, mv) in moves.iter().enumerate() {
        let player = if ply % 2 == 0 { &alice } else { &bob };
        let answer = player
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "ply": ply}),
            )
            .await;
        assert_eq!(answer.status, 200, "{mv}: {:?}", answer.body);
        state = answer.body;
    }
    assert_eq!(state["position"]["movers"], "bwbwbwb");
    let history = alice.get(&format!("/api/games/{id}/history")).await.body;
    let boards = history["boards"].as_array().unwrap();
    assert_eq!(boards.len(), moves.len() + 1);
    assert_eq!(
        boards[0],
        json!([".....", ".....", ".....", ".....", "....."])
    );
    assert_eq!(boards[6][0], "bwb..", "before the capture");
    assert_eq!(boards[7][0], "b.b..", "ba is taken across the seam");
    assert_eq!(boards[7][4], "...b.");
    assert_eq!(boards[moves.len()], state["position"]["board"]);
    // The captures and the score follow each ply; a game without a clock has no clocks.
    assert_eq!(history["captures"][6], json!({"black": 0, "white": 0}));
    assert_eq!(history["captures"][7], json!({"black": 1, "white": 0}));
    assert_eq!(history["scores"][7], state["position"]["score"]);
    assert_eq!(history["scores"].as_array().unwrap().len(), boards.len());
    assert!(history["clocks"].is_null());
    // With a clock: full clocks at the start, then the clocks stored with each move.
    let clocked = alice
        .create(json!({"game": "go", "params": {"size": 5}, "clock": {"initial_s": 60, "increment_s": 2},
            "opponent": {"kind": "house", "level": "random"}, "color": "black"}))
        .await;
    let clocked_id = clocked["id"].as_str().unwrap();
    // Before its first move, black is told how long it has before the game is aborted.
    let wait = clocked["first_move_ms"].as_i64().unwrap();
    assert!((25_000..=30_000).contains(&wait), "{wait}");
    assert!(state["first_move_ms"].is_null(), "no clock, no wait");
    alice
        .post(
            &format!("/api/games/{clocked_id}/moves"),
            json!({"move": "cc", "ply": 0}),
        )
        .await
        .success();
    let timed = alice
        .get(&format!("/api/games/{clocked_id}/history"))
        .await
        .body;
    let clocks = timed["clocks"].as_array().unwrap();
    assert_eq!(clocks.len(), timed["boards"].as_array().unwrap().len());
    assert_eq!(clocks[0], json!({"black": 60_000, "white": 60_000}));
    assert!(clocks[1]["black"].as_i64().unwrap() <= 62_000);
    // The topology says how to draw it: the seams' gluing and every grid step.
    let topology = alice.get(&format!("/api/games/{id}/topology")).await.body;
    assert_eq!(
        topology["gluing"],
        json!({"left_right": "straight", "top_bottom": "reversed"})
    );
    let up_from_ba = topology["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s[0] == 1 && s[2] == 0 && s[3] == -1)
        .cloned();
    assert_eq!(
        up_from_ba,
        Some(json!([1, 23, 0, -1])),
        "ba's step up reaches de"
    );
}

/// A guest claims its name with a password (its bots become the account's), signs in with
/// it from elsewhere whatever the name's case; names are unique whatever their case, guests
/// cannot take them, bad passwords and wrong credentials are refused alike, and sign-in
/// attempts are limited.
async fn accounts_claim_names_and_sign_in(store: Store) {
    let (_server, base, _dir) = common::server_with(store, Limits::default()).await;
    let guest = Client::person(&base, "alice").await;
    let token = common::register(&guest, "alices-bot").await;
    assert!(!token.is_empty());
    let short = guest
        .post(
            "/api/accounts",
            json!({"name": "Alice", "password": "short"}),
        )
        .await;
    assert_eq!((short.status, short.code()), (400, "bad-request"));
    let claimed = guest
        .new_session(
            "/api/accounts",
            json!({"name": "Alice", "password": "correct horse"}),
        )
        .await
        .expect("the name claimed");
    // The guest's session is now the account's, under a new cookie: the guest's old one
    // (which someone may have planted) opens nothing.
    let me = claimed.get("/api/session").await.body;
    assert_eq!(
        (&me["name"], &me["account"]),
        (&json!("Alice"), &json!(true))
    );
    assert_eq!(
        guest.get("/api/session").await.status,
        401,
        "the old cookie"
    );

    // Taken whatever the case, by an account or by a guest.
    let anyone = Client::anonymous(&base);
    let taken = anyone
        .post(
            "/api/accounts",
            json!({"name": "ALICE", "password": "another one"}),
        )
        .await;
    assert_eq!((taken.status, taken.code()), (409, "conflict"));
    let as_guest = anyone.sign_in("aLiCe").await.unwrap_err();
    assert_eq!((as_guest.status, as_guest.code()), (409, "conflict"));

    // Wrong password and unknown name: the same answer.
    for (name, password) in [("alice", "wrong password"), ("nobody", "correct horse")] {
        let body = json!({"name": name, "password": password});
        let refused = anyone.new_session("/api/session", body).await.unwrap_err();
        assert_eq!((refused.status, refused.code()), (401, "bad-credentials"));
        assert_eq!(
            refused.body["error"]["message"],
            "no account has this name and password"
        );
    }
    // The right one, in another case, from elsewhere: the account's session, with its bot.
    let body = json!({"name": "ALICE", "password": "correct horse"});
    let elsewhere = anyone.new_session("/api/session", body).await.unwrap();
    let me = elsewhere.get("/api/session").await.body;
    assert_eq!(
        (&me["name"], &me["account"]),
        (&json!("Alice"), &json!(true))
    );
    let bots = elsewhere.get("/api/bots/mine").await.body;
    assert_eq!(bots["bots"][0]["name"], "alices-bot", "{bots}");

    // A new account without a session gets one.
    let bob = anyone
        .new_session(
            "/api/accounts",
            json!({"name": "bob", "password": "bobs password"}),
        )
        .await
        .unwrap();
    assert_eq!(bob.get("/api/session").await.body["account"], true);

    // Sign-in attempts are limited (10 a minute by address, 5 by name and address).
    let mut limited = None;
    for attempt in 0..12 {
        let body = json!({"name": "bob", "password": format!("guess {attempt}")});
        let refused = anyone.new_session("/api/session", body).await.unwrap_err();
        if refused.status == 429 {
            limited = Some(attempt);
            break;
        }
        assert_eq!(refused.code(), "bad-credentials");
    }
    assert!(limited.is_some(), "sign-in attempts are limited");
}

/// A rated game changes both players' Glicko-2 ratings (in the same commit as its end); a
/// casual game and an aborted rated game change neither; only accounts (and bots) play
/// rated games, with a clock, at the default parameters; leaderboards and player pages
/// show the ratings and their history.
async fn rated_games_change_ratings_and_casual_ones_do_not(store: Store) {
    let (_server, base, _dir) = common::server_with(store, Limits::default()).await;
    let alice = Client::account(&base, "Alice").await;
    let game = |rated: bool, params: Value, clock: Value| {
        json!({"game": "go", "params": params, "clock": clock, "rated": rated, "color": "black",
               "opponent": {"kind": "house", "level": "random"}})
    };
    let clock = json!({"initial_s": 600, "increment_s": 0});
    for (refused, why) in [
        (game(true, json!({}), Value::Null), "a clock"),
        (
            game(true, json!({"size": 5}), clock.clone()),
            "default parameters",
        ),
    ] {
        let answer = alice.post("/api/games", refused).await;
        assert_eq!(answer.status, 400, "{why}: {:?}", answer.body);
        assert!(answer.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains(why));
    }
    let guest = Client::person(&base, "guest").await;
    let answer = guest
        .post("/api/games", game(true, json!({}), clock.clone()))
        .await;
    assert_eq!(answer.status, 400);
    assert!(answer.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("accounts"));

    let resign = |id: String| {
        let alice = alice.clone();
        async move {
            let over = alice
                .post(&format!("/api/games/{id}/resign"), json!({}))
                .await;
            assert_eq!(over.status, 200, "{:?}", over.body);
            over.body
        }
    };
    // Rated: Alice resigns after two moves each. She is new (1500, deviation 350); `random`
    // enters the pool at its ladder rating (600, deviation 60), so its win over a player
    // rated far above it lifts it a little and costs her much.
    let rated = alice.create(game(true, json!({}), clock.clone())).await;
    assert_eq!(rated["rated"], true);
    let rated_id = rated["id"].as_str().unwrap();
    // Beside the names while it is played: the ratings as they stand, no change yet.
    let ratings = alice
        .get(&format!("/api/games/{rated_id}/ratings"))
        .await
        .body;
    assert_eq!(
        ratings,
        json!({"ratings": {"black": 1500.0, "white": 600.0},
            "changes": {"black": null, "white": null}})
    );
    common::play_until(&[&alice], rated_id, 4).await;
    resign(rated_id.into()).await;
    // Once it is over: what it did to them.
    let ratings = alice
        .get(&format!("/api/games/{rated_id}/ratings"))
        .await
        .body;
    assert_eq!(
        ratings["changes"],
        json!({"black": {"before": 1500.0, "after": 827.0},
            "white": {"before": 600.0, "after": 613.8}}),
        "{ratings}"
    );
    let board = alice.get("/api/leaderboard/go").await.body;
    let entry = |i: usize| {
        (
            board[i]["name"].clone(),
            board[i]["rating"].clone(),
            board[i]["games"].clone(),
        )
    };
    assert_eq!(
        entry(0),
        (json!("Alice"), json!(827.0), json!(1)),
        "{board}"
    );
    assert_eq!(
        entry(1),
        (json!("random"), json!(613.8), json!(1)),
        "{board}"
    );
    assert_eq!(
        (&board[0]["kind"], &board[0]["provisional"]),
        (&json!("person"), &json!(true))
    );
    assert_eq!(
        (&board[0]["deviation"], &board[1]["deviation"]),
        (&json!(346.1), &json!(60.8))
    );

    // Casual, and a rated game aborted before anyone moved: no change.
    let casual = alice.create(game(false, json!({}), clock.clone())).await;
    resign(casual["id"].as_str().unwrap().into()).await;
    let none = json!({"ratings": {"black": null, "white": null},
        "changes": {"black": null, "white": null}});
    let path = format!("/api/games/{}/ratings", casual["id"].as_str().unwrap());
    assert_eq!(alice.get(&path).await.body, none);
    let aborted = alice.create(game(true, json!({}), clock.clone())).await;
    let id = aborted["id"].as_str().unwrap();
    let over = alice
        .post(&format!("/api/games/{id}/abort"), json!({}))
        .await;
    assert_eq!(over.body["result"]["reason"], "abort");
    assert_eq!(alice.get("/api/leaderboard/go").await.body, board);

    // The player pages.
    let page = alice.get("/api/players/alice").await.body;
    assert_eq!(
        (&page["name"], &page["kind"]),
        (&json!("Alice"), &json!("person"))
    );
    assert_eq!(page["ratings"][0]["pool"], "go");
    assert_eq!(page["ratings"][0]["history"].as_array().unwrap().len(), 1);
    assert_eq!(page["ratings"][0]["history"][0]["game_id"], rated["id"]);
    assert_eq!(page["games"].as_array().unwrap().len(), 3, "{page}");
    let house = alice.get("/api/players/random").await.body;
    assert_eq!(
        (&house["kind"], &house["ratings"][0]["rating"]),
        (&json!("house"), &json!(613.8))
    );
    assert_eq!(alice.get("/api/players/nobody").await.status, 404);
    assert_eq!(alice.get("/api/leaderboard/chess").await.status, 404);
}

/// `GET /api/games?mine=true` lists the asker's own games: not those of another guest of the
/// same name, and an account's from any of its sessions. It needs a session.
async fn my_games_are_mine_alone(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::person(&run.base, "alice").await;
    let other_alice = Client::person(&run.base, "alice").await;
    let bob = Client::account(&run.base, "bob").await;
    let own = alice
        .create(house("go", json!({"size": 5}), "random", "black"))
        .await;
    other_alice
        .create(house("go", json!({"size": 5}), "random", "black"))
        .await;
    let bobs = bob
        .create(house("go", json!({"size": 5}), "random", "black"))
        .await;
    let mine = alice.get("/api/games?mine=true").await.body;
    let ids: Vec<&str> = mine
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [own["id"].as_str().unwrap()], "{mine}");
    // Bob signs in again, from a new session: his game is still his.
    let again = Client::anonymous(&run.base)
        .new_session(
            "/api/session",
            json!({"name": "BOB", "password": "correct horse"}),
        )
        .await
        .unwrap();
    let mine = again.get("/api/games?mine=true&status=live").await.body;
    assert_eq!(mine[0]["id"], bobs["id"], "{mine}");
    let nobody = Client::anonymous(&run.base);
    let refused = nobody.get("/api/games?mine=true").await;
    assert_eq!((refused.status, refused.code()), (401, "no-session"));
    let both = alice.get("/api/games?mine=true&player=bob").await;
    assert_eq!(both.status, 400);
}

/// Alice (black) and Bob (white) in a live game of `game` made by invitation, with `clock`.
async fn people_game(base: &str, game: Value, clock: Value) -> (Client, Client, String) {
    let alice = Client::person(base, "alice").await;
    let bob = Client::person(base, "bob").await;
    let id = game_between(&alice, &bob, game, clock).await;
    (alice, bob, id)
}

/// A game by invitation between `alice` (black) and `bob`: its id.
async fn game_between(alice: &Client, bob: &Client, game: Value, clock: Value) -> String {
    let mut request = invite(game["game"].as_str().unwrap(), game["params"].clone());
    request["clock"] = clock;
    let created = alice.create(request).await;
    let id = created["id"].as_str().unwrap().to_string();
    let joined = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"code": invite_code(&created)}),
        )
        .await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    id
}

/// A correspondence clock: days per move, no 30 seconds' wait for a first move, and each
/// clock full again after its player's move.
async fn a_correspondence_clock_is_full_again_after_each_move(store: Store) {
    let run = start(store, loose()).await;
    let clock = json!({"days_per_move": 1});
    let go = json!({"game": "go", "params": {"size": 5}});
    let (alice, bob, id) = people_game(&run.base, go, clock).await;
    let state = alice.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(state["clock"]["days_per_move"], 1, "{state}");
    assert_eq!(
        state["first_move_ms"],
        Value::Null,
        "no first-move wait: {state}"
    );
    let day = 86_400_000_i64;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let state = play_in_turn([&alice, &bob], &id, 0, "cc dd").await;
    let clocks = &state["clocks"];
    for color in ["black", "white"] {
        let left = clocks[format!("{color}_ms")].as_i64().unwrap();
        assert!(left <= day && left > day - 2_000, "{color}: {clocks}");
    }
    // White moved last: full again, though the first move used some of it.
    assert_eq!(
        clocks["white_ms"], day,
        "white's clock is not full: {clocks}"
    );
    let refused = alice
        .post(
            "/api/games",
            json!({"game": "go", "clock": {"days_per_move": 30}, "opponent": {"kind": "invite"}}),
        )
        .await;
    assert_eq!(refused.code(), "bad-json", "{:?}", refused.body);
}

/// A correspondence game is not abandoned for quiet (the server's `abandon_after`, a day by
/// default, shortened here) as a game without a clock is; My games says whose move it is.
async fn a_correspondence_game_outlives_the_quiet_that_ends_others(store: Store) {
    let quiet = Duration::from_millis(300);
    let run = start(
        store,
        Limits {
            abandon_after: quiet,
            ..loose()
        },
    )
    .await;
    let go = json!({"game": "go", "params": {"size": 5}});
    let (alice, bob, id) = people_game(&run.base, go.clone(), json!({"days_per_move": 2})).await;
    play_in_turn([&alice, &bob], &id, 0, "cc").await;
    let mut request = invite("go", json!({"size": 5}));
    request["color"] = json!("black");
    let unclocked = alice.create(request).await;
    let other = unclocked["id"].as_str().unwrap();
    let joined = bob
        .post(
            &format!("/api/games/{other}/join"),
            json!({"code": invite_code(&unclocked)}),
        )
        .await;
    assert_eq!(joined.status, 200);
    let abandoned = common::eventually("the game without a clock is abandoned", || async {
        let state = alice.get(&format!("/api/games/{other}")).await.body;
        (state["status"] == "finished").then_some(state)
    })
    .await;
    assert_eq!(abandoned["result"]["reason"], "abort");
    tokio::time::sleep(quiet * 3).await;
    let state = alice.get(&format!("/api/games/{id}")).await.body;
    assert_eq!(state["status"], "live", "{state}");
    // White (Bob) is to move: his My games says so, Alice's does not.
    let turn = |list: Value| {
        let game = list
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id.as_str())
            .cloned();
        game.map(|g| g["your_turn"].clone())
    };
    assert_eq!(
        turn(bob.get("/api/games?mine=true").await.body),
        Some(json!(true))
    );
    assert_eq!(
        turn(alice.get("/api/games?mine=true").await.body),
        Some(json!(false))
    );
    let finished = alice.get("/api/games?mine=true&status=finished").await.body;
    assert_eq!(finished[0]["your_turn"], Value::Null, "{finished}");
}

/// Plays `moves` in turn, black (`players[0]`) first, from ply `from`; the last state.
async fn play_in_turn(players: [&Client; 2], id: &str, from: u64, moves: &str) -> Value {
    let mut state = Value::Null;
    for (i, mv) in moves.split_whitespace().enumerate() {
        let ply = from + i as u64;
        let player = players[(ply % 2) as usize];
        let played = (player.post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "ply": ply}),
        ))
        .await;
        assert_eq!(played.status, 200, "{mv}: {:?}", played.body);
        state = played.body;
    }
    state
}

/// Black's column, white's wall, and a black stone in white's corner (at `ee`), then two
/// passes: white to move.
const DEAD_IN_THE_CORNER: &str = "ba ca bb cb bc cc bd cd be ce ee pass pass";

async fn people_agree_on_dead_stones_and_a_dispute_goes_on_as_cleanup(store: Store) {
    let run = start(store, loose()).await;
    let clock = json!({"initial_s": 600, "increment_s": 0});
    let go = json!({"game": "go", "params": {"size": 5}});
    let (alice, bob, id) = people_game(&run.base, go.clone(), clock.clone()).await;
    let path = |action: &str| format!("/api/games/{id}/{action}");
    let counting = play_in_turn([&alice, &bob], &id, 0, DEAD_IN_THE_CORNER).await;
    // Between people the phase is agreement: the house bots' judgement is proposed, and no
    // clock runs.
    assert_eq!(counting["params"]["scoring_phase"], "agreement");
    assert_eq!(counting["counting"]["dead"], json!(["ee"]));
    assert_eq!(counting["counting"]["result"]["winner"], "white");
    assert_eq!(counting["clocks"]["running"], Value::Null);
    let (mut alice_ws, _) = alice.watch(&id).await;
    let refused = bob
        .post(&path("moves"), json!({"move": "de", "ply": 13}))
        .await;
    assert_eq!(refused.code(), "conflict", "{:?}", refused.body);

    // Marks change for both and withdraw acceptances; an acceptance of other marks fails.
    let accepted = alice
        .post(&path("accept-dead"), json!({"dead": ["ee"]}))
        .await
        .success();
    assert_eq!(
        accepted["counting"]["accepted"],
        json!({"black": true, "white": false})
    );
    let toggled = bob
        .post(&path("toggle-dead"), json!({"point": "cc"}))
        .await
        .success();
    assert_eq!(
        toggled["counting"]["dead"].as_array().unwrap().len(),
        6,
        "the whole wall and ee: {toggled}"
    );
    assert_eq!(
        toggled["counting"]["accepted"],
        json!({"black": false, "white": false})
    );
    assert_eq!(toggled["counting"]["result"]["winner"], "black");
    alice_ws
        .state_until(|s| {
            s["counting"]["dead"]
                .as_array()
                .is_some_and(|d| d.len() == 6)
        })
        .await;
    let stale = alice
        .post(&path("accept-dead"), json!({"dead": ["ee"]}))
        .await;
    assert_eq!(stale.code(), "conflict", "{:?}", stale.body);
    let empty = bob.post(&path("toggle-dead"), json!({"point": "dd"})).await;
    assert_eq!(empty.status, 400, "{:?}", empty.body);
    let spectator = Client::person(&run.base, "carol").await;
    let not_a_player = spectator
        .post(&path("toggle-dead"), json!({"point": "ee"}))
        .await;
    assert_eq!(not_a_player.status, 403);
    bob.post(&path("toggle-dead"), json!({"point": "ca"}))
        .await
        .success();

    // Both accept: the game ends, scored with the stone taken off, and stays so.
    alice
        .post(&path("accept-dead"), json!({"dead": ["ee"]}))
        .await
        .success();
    let over = bob
        .post(&path("accept-dead"), json!({"dead": ["ee"]}))
        .await
        .success();
    assert_eq!(over["status"], "finished");
    assert_eq!(over["result"], over["counting"]["result"]);
    assert_eq!(
        (
            over["result"]["winner"].as_str(),
            over["result"]["margin"].as_f64()
        ),
        (Some("white"), Some(12.5))
    );
    let stored = alice.get(&format!("/api/games/{id}")).await.success();
    assert_eq!(stored["result"], over["result"]);
    assert_eq!(stored["counting"]["dead"], json!(["ee"]));

    // A dispute: play goes on as cleanup, and the stone captured then counts as dead.
    let (alice, bob, id) = people_game(&run.base, go, clock).await;
    let path = |action: &str| format!("/api/games/{id}/{action}");
    play_in_turn([&alice, &bob], &id, 0, DEAD_IN_THE_CORNER).await;
    let resumed = alice.post(&path("resume-play"), json!({})).await.success();
    assert_eq!(resumed["counting"], Value::Null);
    assert_eq!(resumed["position"]["cleanup"], true);
    assert_eq!(resumed["clocks"]["running"], "white");
    let over = play_in_turn([&alice, &bob], &id, 13, "de pass ed pass pass").await;
    assert_eq!(over["status"], "finished");
    assert_eq!(over["position"]["captures"]["white"], 1);
    assert_eq!(
        (
            over["result"]["winner"].as_str(),
            over["result"]["margin"].as_f64()
        ),
        (Some("white"), Some(12.5))
    );
}

async fn takebacks_go_back_a_turn_when_the_opponent_agrees(store: Store) {
    let run = start(store, loose()).await;
    let clock = json!({"initial_s": 600, "increment_s": 0});
    let go = json!({"game": "go", "params": {"size": 5}});
    let (alice, bob, id) = people_game(&run.base, go, clock.clone()).await;
    let path = |action: &str| format!("/api/games/{id}/{action}");
    let moves = path("moves");
    // Nothing to take back before one's first move.
    assert_eq!(
        alice.post(&path("takeback"), json!({})).await.code(),
        "conflict"
    );
    alice
        .post(&moves, json!({"move": "cc", "ply": 0}))
        .await
        .success();
    let (mut bob_ws, _) = bob.watch(&id).await;
    bob.post(&moves, json!({"move": "dd", "ply": 1}))
        .await
        .success();

    // Alice asks; Bob sees the request, declines it, and the game is as it was.
    let asked = alice.post(&path("takeback"), json!({})).await;
    assert_eq!(asked.status, 200, "{:?}", asked.body);
    assert_eq!(asked.body["takeback_offer"], "black");
    assert_eq!(asked.body["position"]["ply"], 2);
    bob_ws.state_until(|s| s["takeback_offer"] == "black").await;
    let declined = bob.post(&path("decline-takeback"), json!({})).await;
    assert_eq!(declined.body["takeback_offer"], Value::Null);
    let nothing = bob.post(&path("decline-takeback"), json!({})).await;
    assert_eq!(nothing.code(), "conflict");

    // A move withdraws a request: the position it was about is gone.
    alice
        .post(&moves, json!({"move": "bb", "ply": 2}))
        .await
        .success();
    bob.post(&path("takeback"), json!({})).await.success();
    let moved = alice.post(&moves, json!({"move": "pass", "ply": 3})).await;
    assert_eq!(moved.status, 409, "{:?}", moved.body); // not Alice's turn
    assert_eq!(
        alice.get(&format!("/api/games/{id}")).await.body["takeback_offer"],
        "white"
    );
    let bob_moved = bob.post(&moves, json!({"move": "ee", "ply": 3})).await;
    assert_eq!(bob_moved.body["takeback_offer"], Value::Null);

    // Asked and accepted: Alice's last turn (bb) and Bob's reply (ee) are taken back. A
    // takeback gives back no time: each clock shows what it did, Alice's running, and the
    // stored clocks of the last move kept say the same.
    alice.post(&path("takeback"), json!({})).await.success();
    let before = bob.get(&format!("/api/games/{id}/history")).await.body["clocks"][4].clone();
    let accepted = bob.post(&path("takeback"), json!({})).await;
    assert_eq!(accepted.status, 200, "{:?}", accepted.body);
    let state = &accepted.body;
    assert_eq!(state["position"]["moves"], json!(["cc", "dd"]));
    assert_eq!(state["position"]["to_move"], "black");
    assert_eq!(state["takeback_offer"], Value::Null);
    assert_eq!(state["clocks"]["running"], "black");
    assert_eq!(state["clocks"]["white_ms"], before["white"]);
    assert!(state["clocks"]["black_ms"].as_i64() <= before["black"].as_i64());
    let kept = bob.get(&format!("/api/games/{id}/history")).await.body;
    assert_eq!(kept["clocks"][2]["white"], before["white"]);
    let seen = bob_ws.state_until(|s| s["position"]["ply"] == 2).await;
    assert_eq!(seen["position"]["board"], state["position"]["board"]);

    // The game goes on from there, and its record and history agree.
    let next = alice.post(&moves, json!({"move": "ee", "ply": 2})).await;
    assert_eq!(next.status, 200, "{:?}", next.body);
    let history = alice.get(&format!("/api/games/{id}/history")).await.body;
    assert_eq!(history["boards"].as_array().unwrap().len(), 4);
    let (_, _, sgf) = alice.get_text(&format!("/api/games/{id}/sgf")).await;
    assert!(sgf.contains("B[ee]") && !sgf.contains("[bb]"), "{sgf}");

    // A house bot accepts at once: the person's move and the bot's reply go, and the time
    // Carol spent on them stays spent.
    let carol = Client::person(&run.base, "carol").await;
    let mut request = house("go", json!({"size": 5}), "random", "black");
    request["clock"] = clock;
    let game = carol.create(request).await;
    let house = game["id"].as_str().unwrap();
    let (mut ws, _) = carol.watch(house).await;
    carol
        .post(
            &format!("/api/games/{house}/moves"),
            json!({"move": "cc", "ply": 0}),
        )
        .await
        .success();
    ws.state_until(|s| s["position"]["ply"] == 2).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let back = carol
        .post(&format!("/api/games/{house}/takeback"), json!({}))
        .await;
    assert_eq!(back.status, 200, "{:?}", back.body);
    assert_eq!(back.body["position"]["ply"], 0);
    assert_eq!(back.body["takebacks"], true);
    let black_ms = back.body["clocks"]["black_ms"].as_i64().unwrap();
    assert!(black_ms <= 600_000 - 1000, "{black_ms} ms: time given back");
    // What a reload reads: the clocks as they stood, not full ones. (A restart charges
    // nobody for the time the server was down, so the clock may read a few milliseconds
    // more than the answer above, which came a moment after the takeback was stored.)
    let run = run.restart().await;
    let carol = carol.at(&run.base);
    let reloaded = carol.get(&format!("/api/games/{house}")).await.body;
    let reloaded_ms = reloaded["clocks"]["black_ms"].as_i64().unwrap();
    assert!(
        reloaded_ms <= 600_000 - 1000,
        "{reloaded_ms} ms: time given back"
    );
    run.server.stop().await;
}

async fn chat_has_a_room_for_players_and_one_for_spectators(store: Store) {
    let run = start(store, loose()).await;
    let go = json!({"game": "go", "params": {"size": 5}});
    let (alice, bob, id) = people_game(&run.base, go, Value::Null).await;
    let carol = Client::person(&run.base, "carol").await;
    let (mut alice_ws, _) = alice.watch(&id).await;
    let (mut carol_ws, _) = carol.watch(&id).await;
    let (mut nobody_ws, _) = Client::anonymous(&run.base).watch(&id).await;
    let empty = |room: &str| json!({"type": "chat", "room": room, "lines": []});
    assert_eq!(alice_ws.chat().await, empty("players"));
    assert_eq!(carol_ws.chat().await, empty("spectators"));
    assert_eq!(nobody_ws.chat().await, empty("spectators"));

    alice_ws
        .send(json!({"type": "chat", "text": "  good luck  "}))
        .await;
    let heard = alice_ws.chat().await;
    assert_eq!(heard["room"], "players");
    assert_eq!(heard["lines"][0]["author"], "alice");
    assert_eq!(heard["lines"][0]["text"], "good luck");
    carol_ws
        .send(json!({"type": "chat", "text": "nice opening"}))
        .await;
    // Carol hears her own line and not Alice's: the rooms are apart.
    let spectators = carol_ws.chat().await;
    assert_eq!(spectators["lines"][0]["text"], "nice opening");
    assert_eq!(nobody_ws.chat().await["lines"][0]["text"], "nice opening");

    // Refused lines: too long, empty, several lines, and from a visitor without a name.
    for text in ["x".repeat(281), "   ".into(), "a\nb".into()] {
        alice_ws.send(json!({"type": "chat", "text": text})).await;
        assert_eq!(alice_ws.error().await, "bad-request");
    }
    nobody_ws.send(json!({"type": "chat", "text": "hi"})).await;
    assert_eq!(nobody_ws.error().await, "not-a-player");

    // Stored with the game: Bob, arriving later, reads the players' room.
    let (mut bob_ws, _) = bob.watch(&id).await;
    let history = bob_ws.chat().await;
    assert_eq!(history["room"], "players");
    assert_eq!(history["lines"].as_array().unwrap().len(), 1);
    assert_eq!(history["lines"][0]["text"], "good luck");

    // Five lines at once, then one every two seconds.
    let dave = Client::person(&run.base, "dave").await;
    let (mut dave_ws, _) = dave.watch(&id).await;
    dave_ws.chat().await; // the room's latest lines
    for n in 0..5 {
        dave_ws
            .send(json!({"type": "chat", "text": format!("line {n}")}))
            .await;
        assert_eq!(
            dave_ws.chat().await["lines"][0]["text"],
            format!("line {n}")
        );
    }
    dave_ws
        .send(json!({"type": "chat", "text": "one too many"}))
        .await;
    assert_eq!(dave_ws.error().await, "rate-limited");

    // After the game the players still talk, in the same room.
    alice
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .success();
    bob_ws.send(json!({"type": "chat", "text": "gg"})).await;
    let after = alice_ws.chat().await;
    assert_eq!(after["lines"][0]["text"], "gg");
    run.server.stop().await;

    // A server without chat sends none and refuses lines.
    let run = start(
        store,
        Limits {
            chat: false,
            ..loose()
        },
    )
    .await;
    let go = json!({"game": "go", "params": {"size": 5}});
    let (alice, _, id) = people_game(&run.base, go, Value::Null).await;
    let (mut ws, _) = alice.watch(&id).await;
    ws.send(json!({"type": "chat", "text": "hello"})).await;
    assert_eq!(ws.error().await, "conflict");
    run.server.stop().await;
}

async fn a_rematch_between_people_opens_when_both_agree(store: Store) {
    let run = start(store, loose()).await;
    let clock = json!({"initial_s": 300, "increment_s": 2});
    let hex = json!({"game": "hex-torus", "params": {"width": 6, "height": 6}});
    let (alice, bob, id) = people_game(&run.base, hex, clock).await;
    let path = |action: &str| format!("/api/games/{id}/{action}");
    assert_eq!(
        alice.post(&path("rematch"), json!({})).await.code(),
        "conflict"
    );
    bob.post(&path("resign"), json!({})).await.success();
    let (mut alice_ws, _) = alice.watch(&id).await;

    // Bob offers, declines nothing, withdraws, offers again; Alice sees and accepts.
    let offered = bob.post(&path("rematch"), json!({})).await;
    assert_eq!(offered.status, 200, "{:?}", offered.body);
    assert_eq!(offered.body["rematch_offer"], "white");
    alice_ws
        .state_until(|s| s["rematch_offer"] == "white")
        .await;
    bob.post(&path("decline-rematch"), json!({}))
        .await
        .success();
    alice_ws.state_until(|s| s["rematch_offer"].is_null()).await;
    bob.post(&path("rematch"), json!({})).await.success();
    let accepted = alice.post(&path("rematch"), json!({})).await;
    assert_eq!(accepted.status, 200, "{:?}", accepted.body);
    let next = accepted.body["rematch"].as_str().unwrap().to_string();
    alice_ws
        .state_until(|s| s["rematch"] == next.as_str())
        .await;
    // Both players' pages, opened on the old game, learn of it.
    let old = bob.get(&format!("/api/games/{id}")).await.body;
    assert_eq!(old["rematch"], next.as_str());

    // The new game: the same rule set, parameters and clock, the colours swapped, live.
    let rematch = alice.get(&format!("/api/games/{next}")).await.body;
    assert_eq!(rematch["status"], "live");
    assert_eq!(rematch["you"], "white");
    assert_eq!(rematch["players"]["black"]["name"], "bob");
    assert_eq!(
        rematch["params"],
        json!({"width": 6, "height": 6, "swap": "false"})
    );
    assert_eq!(
        rematch["clock"],
        json!({"initial_s": 300.0, "increment_s": 2.0})
    );
    // One rematch per game.
    assert_eq!(
        bob.post(&path("rematch"), json!({})).await.code(),
        "conflict"
    );

    // Against a house bot the page opens a new game itself: no offer to make.
    let game = alice
        .create(house("go", json!({"size": 5}), "random", "black"))
        .await;
    let house = game["id"].as_str().unwrap();
    alice
        .post(&format!("/api/games/{house}/resign"), json!({}))
        .await
        .success();
    let refused = alice
        .post(&format!("/api/games/{house}/rematch"), json!({}))
        .await;
    assert_eq!(refused.code(), "conflict");
    run.server.stop().await;
}

async fn quiet_games_leave_the_list_of_live_games(store: Store) {
    const QUIET: Duration = Duration::from_millis(800);
    let run = start(
        store,
        Limits {
            quiet_after: QUIET,
            ..loose()
        },
    )
    .await;
    let alice = Client::person(&run.base, "alice").await;
    let created = Instant::now();
    let game = alice
        .create(house("go", json!({"size": 5}), "random", "white"))
        .await;
    let id = game["id"].as_str().unwrap();
    let (mut ws, first) = alice.watch(id).await;
    if first["position"]["ply"] != 1 {
        ws.state_until(|s| s["position"]["ply"] == 1).await;
    }
    let moved = Instant::now();
    let listed = |list: &Value| list.as_array().unwrap().iter().any(|g| g["id"] == id);
    assert!(listed(&alice.get("/api/games?status=live").await.body));
    common::eventually("the quiet game leaves the list", || async {
        (!listed(&alice.get("/api/games?status=live").await.body)).then_some(())
    })
    .await;
    // Not before it has been quiet for `quiet_after` (its last move came after `created`),
    // and not long after (the bot's move came before `moved`).
    let (since_created, since_moved) = (created.elapsed(), moved.elapsed());
    assert!(
        since_created >= QUIET && since_moved < QUIET + Duration::from_secs(2),
        "left the list {since_moved:?} after the last move, quiet being {QUIET:?}"
    );
    // Still live, and among its player's games; a move brings it back.
    assert!(listed(
        &alice.get("/api/games?mine=true&status=live").await.body
    ));
    let state = alice.get(&format!("/api/games/{id}")).await.body;
    let mv = some_move(&state);
    let moved = alice
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "ply": 1}),
        )
        .await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    assert!(listed(&alice.get("/api/games?status=live").await.body));
    run.server.stop().await;
}

/// The pie rule over the API: white's `swap` at move 2 turns black's stone white, is refused
/// later, and is kept in the record.
async fn white_may_take_over_the_first_stone_with_the_pie_rule(store: Store) {
    let run = start(store, loose()).await;
    let game = json!({"game": "m-torus", "params": {"width": 5, "height": 5, "swap": "true"}});
    let (alice, bob, id) = people_game(&run.base, game, Value::Null).await;
    let moves = format!("/api/games/{id}/moves");
    let first = alice.post(&moves, json!({"move": "cc", "ply": 0})).await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    assert!(first.body["position"]["legal_moves"]
        .as_array()
        .unwrap()
        .contains(&json!("swap")));
    let swapped = bob.post(&moves, json!({"move": "swap", "ply": 1})).await;
    assert_eq!(swapped.status, 200, "{:?}", swapped.body);
    let position = &swapped.body["position"];
    assert_eq!(position["moves"], json!(["cc", "swap"]));
    assert_eq!(position["board"][2], "..w..", "{position}");
    assert_eq!(position["to_move"], "black");
    let late = alice.post(&moves, json!({"move": "swap", "ply": 2})).await;
    assert_eq!((late.status, late.code()), (422, "illegal-move"));
    let (_, _, sgf) = alice.get_text(&format!("/api/games/{id}/sgf")).await;
    assert!(
        sgf.contains("TP[swap=true]") && sgf.contains(";W[swap]"),
        "{sgf}"
    );
    assert_eq!(Record::read(&sgf).unwrap().move_notation(), ["cc", "swap"]);
}

/// Quick pairing: the first to ask waits in an open game (the same one for a second click),
/// the next to ask for the same rule set and clock joins it, another clock waits apart;
/// people asking at the same moment land in one game; an open game is joined from its page
/// without a code, withdrawn by its creator only, and a rated one is for accounts.
async fn quick_pairing_pairs_people_who_ask_for_the_same_game(store: Store) {
    let run = start(store, loose()).await;
    let blitz = json!({"game": "torus", "clock": {"initial_s": 180, "increment_s": 2}});
    let rapid = json!({"game": "torus", "clock": {"initial_s": 600, "increment_s": 5}});
    let alice = Client::person(&run.base, "alice").await;
    let waiting = alice.post("/api/pool", blitz.clone()).await;
    assert_eq!(waiting.status, 201, "{:?}", waiting.body);
    let id = waiting.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        (&waiting.body["status"], &waiting.body["open"]),
        (&json!("waiting"), &json!(true))
    );
    assert_eq!(
        waiting.body["invite"],
        Value::Null,
        "an open game has no invite"
    );
    let again = alice.post("/api/pool", blitz.clone()).await;
    assert_eq!(
        (again.status, again.body["id"].as_str()),
        (201, Some(id.as_str()))
    );
    let bob = Client::person(&run.base, "bob").await;
    let apart = bob.post("/api/pool", rapid.clone()).await;
    assert_eq!(apart.status, 201);
    assert_ne!(apart.body["id"].as_str(), Some(id.as_str()));
    let carol = Client::person(&run.base, "carol").await;
    let paired = carol.post("/api/pool", blitz.clone()).await;
    assert_eq!(
        (paired.status, paired.body["id"].as_str()),
        (200, Some(id.as_str()))
    );
    assert_eq!(paired.body["status"], "live");
    let seen = alice.get(&format!("/api/games/{id}")).await.body;
    assert_eq!(
        (&seen["status"], &seen["open"]),
        (&json!("live"), &json!(false))
    );
    let names = [
        &seen["players"]["black"]["name"],
        &seen["players"]["white"]["name"],
    ];
    assert!(
        names.contains(&&json!("alice")) && names.contains(&&json!("carol")),
        "{seen}"
    );

    // Only its creator withdraws a waiting game; then it is over, without a result.
    let bobs = apart.body["id"].as_str().unwrap();
    let stranger = carol
        .post(&format!("/api/games/{bobs}/withdraw"), json!({}))
        .await;
    assert_eq!((stranger.status, stranger.code()), (403, "not-a-player"));
    let withdrawn = bob
        .post(&format!("/api/games/{bobs}/withdraw"), json!({}))
        .await;
    assert_eq!(
        (
            &withdrawn.body["status"],
            &withdrawn.body["result"]["reason"]
        ),
        (&json!("finished"), &json!("abort"))
    );
    let late = carol
        .post(&format!("/api/games/{bobs}/join"), json!({}))
        .await;
    assert_eq!(late.status, 409, "{:?}", late.body);

    // Two at once, five times over: each pair plays one game together.
    for round in 0..5 {
        let one = Client::person(&run.base, &format!("one{round}")).await;
        let two = Client::person(&run.base, &format!("two{round}")).await;
        let ask = json!({"game": "capture-go", "clock": {"initial_s": 180, "increment_s": 2}});
        let (a, b) = tokio::join!(
            one.post("/api/pool", ask.clone()),
            two.post("/api/pool", ask)
        );
        assert_eq!(
            a.body["id"], b.body["id"],
            "round {round}: {:?} and {:?}",
            a.body, b.body
        );
        // One joined (200); the other waited (201), or was joined while it looked (200).
        let statuses = [a.status, b.status];
        assert!(
            statuses.contains(&200) && statuses.iter().all(|s| [200, 201].contains(s)),
            "round {round}: {statuses:?}"
        );
        let game = one
            .get(&format!("/api/games/{}", a.body["id"].as_str().unwrap()))
            .await;
        assert_eq!(game.body["status"], "live", "round {round}");
    }

    // An open game made from the form is joined from its page, without a code.
    let open = alice
        .create(json!({"game": "go", "params": {"size": 9}, "opponent": {"kind": "open"}}))
        .await;
    let open_id = open["id"].as_str().unwrap();
    let dave = Client::person(&run.base, "dave").await;
    let joined = dave
        .post(&format!("/api/games/{open_id}/join"), json!({}))
        .await;
    assert_eq!(
        (joined.status, &joined.body["status"]),
        (200, &json!("live"))
    );
    // An invite game is not open: without its code, nobody joins.
    let invited = alice.create(invite("go", json!({"size": 9}))).await;
    let refused = dave
        .post(
            &format!("/api/games/{}/join", invited["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!((refused.status, refused.code()), (404, "not-found"));

    // Rated quick pairing is for accounts, with a clock.
    let rated =
        json!({"game": "torus", "clock": {"initial_s": 180, "increment_s": 2}, "rated": true});
    let guest = dave.post("/api/pool", rated.clone()).await;
    assert_eq!(guest.status, 400, "{:?}", guest.body);
    let unclocked = json!({"game": "torus", "rated": true});
    let erin = Client::account(&run.base, "erin").await;
    assert_eq!(erin.post("/api/pool", unclocked).await.status, 400);
    let ranked = erin.post("/api/pool", rated).await;
    assert_eq!((ranked.status, &ranked.body["rated"]), (201, &json!(true)));
    // Nothing of a bad request is stored.
    let bad = erin
        .post(
            "/api/pool",
            json!({"game": "torus", "params": {"width": 1}}),
        )
        .await;
    assert_eq!(bad.status, 400);
}

/// An open game whose creator has no page on it for two pings is withdrawn; one whose
/// creator's page is open waits on.
async fn an_open_game_is_withdrawn_when_its_creator_leaves_it(store: Store) {
    let limits = Limits {
        ping_interval: Duration::from_millis(100),
        ..loose()
    };
    let run = start(store, limits).await;
    let ask = json!({"game": "hex-torus", "clock": {"days_per_move": 1}});
    let alice = Client::person(&run.base, "alice").await;
    let stays = alice.post("/api/pool", ask.clone()).await.body;
    let id = stays["id"].as_str().unwrap().to_string();
    let (mut page, _) = alice.watch(&id).await;
    let reader = tokio::spawn(async move {
        loop {
            page.next().await;
        }
    });
    let bob = Client::person(&run.base, "bob").await;
    let ask = json!({"game": "hex-torus", "clock": {"days_per_move": 2}});
    let leaves = bob.post("/api/pool", ask).await.body;
    let gone = leaves["id"].as_str().unwrap().to_string();
    let withdrawn = common::eventually("the deserted open game is withdrawn", || async {
        let state = bob.get(&format!("/api/games/{gone}")).await.body;
        (state["status"] == "finished").then_some(state)
    })
    .await;
    assert_eq!(withdrawn["result"]["reason"], "abort");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let state = alice.get(&format!("/api/games/{id}")).await.body;
    assert_eq!(state["status"], "waiting", "{state}");
    reader.abort();
}

/// A person's news socket tells of a challenge to them, the game it starts, their move in a
/// correspondence game, and their tournament's round; nothing of other people's.
async fn a_person_hears_of_challenges_games_their_move_and_tournaments(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::account(&run.base, "alice").await;
    let bob = Client::account(&run.base, "bob").await;
    let carol = Client::account(&run.base, "carol").await;
    let mut bobs = bob.news().await;
    let mut carols = carol.news().await;
    let sent = alice
        .post(
            "/api/challenges",
            json!({"to": "bob", "game": "go", "params": {"size": 9},
                "clock": {"days_per_move": 1}, "color": "white"}),
        )
        .await;
    assert_eq!(sent.status, 201, "{:?}", sent.body);
    let heard = bobs.next_of_type("challenge").await;
    assert_eq!(heard["challenge"]["from"]["name"], "alice", "{heard}");
    let id = heard["challenge"]["id"].as_str().unwrap().to_string();
    let accepted = bob
        .post(&format!("/api/challenges/{id}/accept"), json!({}))
        .await;
    assert_eq!(accepted.status, 200, "{:?}", accepted.body);
    let started = bobs.next_of_type("game-started").await;
    let game = started["game"]["id"].as_str().unwrap().to_string();
    // Black moves first: if Bob, he is told at once; if Alice, once she has moved.
    let state = bob.get(&format!("/api/games/{game}")).await.body;
    let bob_first = state["you"] == "black";
    let first = if bob_first { &bob } else { &alice };
    let played = first
        .post(
            &format!("/api/games/{game}/moves"),
            json!({"move": some_move(&state), "ply": 0}),
        )
        .await;
    assert_eq!(played.status, 200, "{:?}", played.body);
    let turn = bobs.next_of_type("your-turn").await;
    assert_eq!(turn["game"]["id"], game.as_str(), "{turn}");
    // Alice's tournament, in which she plays the house: her round is news to her.
    let mut alices = alice.news().await;
    let created = alice
        .post(
            "/api/tournaments",
            json!({"name": "Cup", "game": "torus", "format": "round-robin", "rounds": 1,
                "clock": {"initial_s": 60}, "house": ["random"], "join": true}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let cup = created.body["id"].as_str().unwrap().to_string();
    alice
        .post(&format!("/api/tournaments/{cup}/start"), json!({}))
        .await
        .success();
    let news = alices.next_of_type("tournament").await;
    assert_eq!(
        (&news["id"], &news["stage"], &news["round"]),
        (&json!(cup), &json!("running"), &json!(1)),
        "{news}"
    );
    alices.next_of_type("game-started").await;
    // Carol heard none of it.
    let quiet = tokio::time::timeout(Duration::from_millis(1500), carols.next()).await;
    assert!(quiet.is_err(), "carol was told {:?}", quiet.ok());
}

/// A finished game's review: not before it is over; asked for once, made in the background
/// with its progress stored, a second ask changing nothing; the move that left a stone to be
/// captured (first capture wins) is marked a blunder, and the last position is white's.
async fn a_finished_game_is_reviewed_once_and_its_blunder_marked(store: Store) {
    let run = start(store, loose()).await;
    let game = json!({"game": "capture-go", "params": {"size": 5, "target": 1}});
    let (alice, bob, id) = people_game(&run.base, game, Value::Null).await;
    let path = format!("/api/games/{id}/review");
    let early = alice.post(&path, json!({})).await;
    assert_eq!((early.status, early.code()), (409, "conflict"));
    // Black plays aa into a corner whose other point white holds: one liberty (ab), which
    // white takes, capturing.
    let over = play_in_turn([&alice, &bob], &id, 0, "cc ba aa ab").await;
    assert_eq!(over["result"]["winner"], "white", "{over}");
    let nobody = Client::anonymous(&run.base);
    assert_eq!(nobody.get(&path).await.body["status"], "none");
    assert_eq!(nobody.post(&path, json!({})).await.status, 401);
    let asked = alice.post(&path, json!({})).await;
    assert_eq!(asked.status, 200, "{:?}", asked.body);
    assert_eq!(
        (&asked.body["total"], &asked.body["status"]),
        (&json!(5), &json!("running"))
    );
    let again = bob.post(&path, json!({})).await.body;
    assert_eq!(
        again["status"], "running",
        "a second ask restarted it: {again}"
    );
    let review = common::eventually("the review is made", || async {
        let review = nobody.get(&path).await.body;
        (review["status"] == "done").then_some(review)
    })
    .await;
    assert_eq!(review["positions"].as_array().unwrap().len(), 5, "{review}");
    assert_eq!(review["positions"][4]["black"], 0.0);
    let blunder = &review["moves"][2];
    assert_eq!(
        (&blunder["move"], &blunder["color"], &blunder["judgement"]),
        (&json!("aa"), &json!("black"), &json!("blunder")),
        "{review}"
    );
    // The engine would have played elsewhere, and saw white's capture.
    assert_ne!(review["positions"][2]["best"], "aa");
    assert_eq!(review["positions"][3]["best"], "ab");
}

/// Puzzles: a finished game is mined in the background; its position where one move wins
/// at once becomes a puzzle that shows the position, not the answer. A move that is not
/// legal is refused and changes nothing; a signed-in player's first attempt changes its
/// puzzle rating and the puzzle's (down and up for a miss), a second changes nothing, two
/// at once count once; a guest's changes nothing; the next puzzle is one not tried.
async fn puzzles_are_mined_from_finished_games_and_rated_once_a_player(store: Store) {
    let run = start(store, loose()).await;
    let game = json!({"game": "capture-go", "params": {"size": 5, "target": 1}});
    let (alice, bob, id) = people_game(&run.base, game, Value::Null).await;
    play_in_turn([&alice, &bob], &id, 0, "cc ba aa ab").await;
    let nobody = Client::anonymous(&run.base);
    let mined = common::eventually("the game is mined", || async {
        let found = nobody
            .get(&format!("/api/games/{id}/puzzles"))
            .await
            .success();
        (!found.as_array().unwrap().is_empty()).then_some(found)
    })
    .await;
    let summary = (mined.as_array().unwrap().iter())
        .find(|p| p["ply"] == 3)
        .unwrap_or_else(|| panic!("no puzzle at the capture: {mined}"));
    assert_eq!(
        (&summary["goal"], &summary["rating"]),
        (&json!("win"), &json!(1300.0))
    );
    let path = format!("/api/puzzles/{}", summary["id"].as_str().unwrap());
    let shown = nobody.get(&path).await.success();
    assert_eq!(
        shown["prompt"], "White to play: find the quickest win.",
        "{shown}"
    );
    assert_eq!(shown["position"]["moves"], json!(["cc", "ba", "aa"]));
    assert!(shown.get("answer").is_none(), "the answer shows: {shown}");
    let attempt = format!("{path}/attempt");

    let carol = Client::account(&run.base, "carol").await;
    let occupied = carol.post(&attempt, json!({"move": "cc"})).await;
    assert_eq!((occupied.status, occupied.code()), (400, "bad-request"));
    assert_eq!(
        carol.post(&attempt, json!({"move": "zz"})).await.status,
        400
    );
    assert_eq!(nobody.get(&path).await.body["attempts"], 0);

    // Carol misses: her rating falls, the puzzle's rises.
    let missed = carol.post(&attempt, json!({"move": "ee"})).await.success();
    assert_eq!(
        (&missed["solved"], &missed["answer"]),
        (&json!(false), &json!("ab"))
    );
    assert!(
        missed["explanation"]
            .as_str()
            .unwrap()
            .contains("A4 wins at once"),
        "{missed}"
    );
    let change = &missed["rating"];
    assert!(
        change["after"].as_f64() < change["before"].as_f64(),
        "{missed}"
    );
    assert!(
        missed["puzzle_rating"].as_f64().unwrap() > 1300.0,
        "{missed}"
    );
    assert_eq!(
        (&missed["game_id"], &missed["ply"]),
        (&json!(id), &json!(3))
    );
    // Her second try solves it, and changes nothing.
    let again = carol.post(&attempt, json!({"move": "ab"})).await.success();
    assert_eq!(
        (&again["solved"], &again["rating"]),
        (&json!(true), &Value::Null)
    );
    assert_eq!(carol.get(&path).await.body["tried"], false);
    let pools = carol.get("/api/puzzles").await.success();
    let pool = (pools.as_array().unwrap().iter())
        .find(|p| p["game"] == "capture-go")
        .unwrap();
    assert_eq!(pool["attempts"], 1, "{pools}");
    assert!(pool["rating"].as_f64().unwrap() < 1500.0, "{pools}");

    // Dave solves it twice at once: one attempt is rated.
    let dave = Client::account(&run.base, "dave").await;
    let body = json!({"move": "ab"});
    let (one, two) = tokio::join!(dave.post(&attempt, body.clone()), dave.post(&attempt, body));
    let rated = [&one, &two]
        .iter()
        .filter(|a| !a.body["rating"].is_null())
        .count();
    assert_eq!(rated, 1, "{:?} {:?}", one.body, two.body);
    let solved = [&one, &two]
        .into_iter()
        .find(|a| !a.body["rating"].is_null())
        .unwrap();
    assert!(solved.body["rating"]["after"].as_f64() > solved.body["rating"]["before"].as_f64());
    let stored = nobody.get(&path).await.success();
    assert_eq!(
        (&stored["attempts"], &stored["solved"]),
        (&json!(2), &json!(1))
    );

    // A guest's attempt is judged and changes nothing.
    let guest = alice.post(&attempt, json!({"move": "ab"})).await.success();
    assert_eq!(
        (&guest["solved"], &guest["rating"]),
        (&json!(true), &Value::Null)
    );
    assert_eq!(nobody.get(&path).await.body["attempts"], 2);

    // The next capture-go puzzle for Carol is not one she tried; for Erin, this one may be.
    let next = carol.get("/api/puzzles/next?game=capture-go").await;
    assert!(
        next.status == 404 || next.body["id"] != summary["id"],
        "{:?}",
        next.body
    );
    let erin = Client::account(&run.base, "erin").await;
    let first = erin
        .get("/api/puzzles/next?game=capture-go")
        .await
        .success();
    assert_eq!(first["game"], "capture-go");
    assert_eq!(erin.get("/api/puzzles/next?game=chess").await.status, 404);
    // A puzzle rated far from Erin's 1500 is still found when nothing nearer is left.
    {
        use sqlx::Connection;
        let mut db = sqlx::AnyConnection::connect(&run._site.url())
            .await
            .unwrap();
        sqlx::query("UPDATE puzzles SET rank = 2600")
            .execute(&mut db)
            .await
            .unwrap();
    }
    let far = erin.get("/api/puzzles/next?game=capture-go").await;
    assert_eq!(far.success()["game"], "capture-go");
}

/// A guest is challenged by name while a page of theirs is open (its news socket), as that
/// guest's session: another guest of the same name neither sees nor answers it, and while
/// two guests of the name are online a challenge to it is refused.
async fn a_guest_is_challenged_by_name_while_its_page_is_open(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::account(&run.base, "alice").await;
    let bob = Client::person(&run.base, "bob").await;
    let challenge = json!({"to": "bob", "game": "torus"});
    let offline = alice.post("/api/challenges", challenge.clone()).await;
    assert_eq!((offline.status, offline.code()), (404, "not-found"));
    let mut bobs = bob.news().await;
    let sent = alice.post("/api/challenges", challenge.clone()).await;
    assert_eq!(sent.status, 201, "{:?}", sent.body);
    let heard = bobs.next_of_type("challenge").await;
    let id = heard["challenge"]["id"].as_str().unwrap().to_string();
    assert_eq!(heard["challenge"]["to"]["name"], "bob", "{heard}");
    // Another guest called Bob: not his challenge, and now the name is ambiguous.
    let other = Client::person(&run.base, "Bob").await;
    let _others = other.news().await;
    let theirs = other.get("/api/challenges").await.success();
    assert_eq!(theirs["incoming"], json!([]), "{theirs}");
    let answer = other
        .post(&format!("/api/challenges/{id}/accept"), json!({}))
        .await;
    assert_eq!(answer.status, 403, "{:?}", answer.body);
    let ambiguous = alice.post("/api/challenges", challenge).await;
    assert_eq!((ambiguous.status, ambiguous.code()), (409, "conflict"));
    let mine = bob.get("/api/challenges").await.success();
    assert_eq!(mine["incoming"][0]["id"], id.as_str(), "{mine}");
    let accepted = bob
        .post(&format!("/api/challenges/{id}/accept"), json!({}))
        .await
        .success();
    let game = bob
        .get(&format!(
            "/api/games/{}",
            accepted["game_id"].as_str().unwrap()
        ))
        .await
        .success();
    assert!(game["players"].to_string().contains("bob"), "{game}");
}

/// Following: a player by name (not oneself, not a name nobody has), listed with whether a
/// page of theirs is open and their live games; unfollowing; a guest follows too.
async fn a_person_follows_players_and_sees_them_online_and_their_games(store: Store) {
    let run = start(store, loose()).await;
    let alice = Client::account(&run.base, "alice").await;
    let bob = Client::account(&run.base, "bob").await;
    assert_eq!(alice.put("/api/follows/alice", json!({})).await.status, 400);
    assert_eq!(
        alice.put("/api/follows/nobody", json!({})).await.status,
        404
    );
    assert_eq!(alice.put("/api/follows/Bob", json!({})).await.status, 204);
    assert_eq!(
        alice.put("/api/follows/bob", json!({})).await.status,
        204,
        "twice is once"
    );
    let list = alice.get("/api/follows").await.body;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    // The name as its account writes it.
    assert_eq!(
        (&list[0]["name"], &list[0]["online"]),
        (&json!("bob"), &json!(false))
    );
    // Bob opens a page (its news socket marks him online) and starts a game.
    let _page = bob.news().await;
    let game = bob
        .create(json!({"game": "torus", "opponent": {"kind": "house", "level": "random"}}))
        .await;
    let seen = common::eventually("Bob shows online with his game", || async {
        let list = alice.get("/api/follows").await.body;
        let ready = list[0]["online"] == true && list[0]["games"][0]["id"] == game["id"];
        ready.then_some(list)
    })
    .await;
    assert_eq!(seen[0]["games"].as_array().unwrap().len(), 1);
    assert_eq!(alice.delete("/api/follows/bob").await.status, 204);
    assert_eq!(alice.get("/api/follows").await.body, json!([]));
    let guest = Client::person(&run.base, "carol").await;
    assert_eq!(guest.put("/api/follows/alice", json!({})).await.status, 204);
    let nobody = Client::anonymous(&run.base);
    assert_eq!(nobody.get("/api/follows").await.status, 401);
}

/// A correspondence game whose mover has less than a quarter of a move's time left (here a
/// stored clock set back, read again by a restarted server) is reminded on the mover's news
/// socket when it opens, once for the ply; the opponent is not.
async fn a_correspondence_move_running_out_of_time_is_reminded(store: Store) {
    use sqlx::Connection;
    let run = start(store, loose()).await;
    let go = json!({"game": "go", "params": {"size": 5}});
    let (alice, bob) = (
        Client::account(&run.base, "alice").await,
        Client::account(&run.base, "bob").await,
    );
    let id = game_between(&alice, &bob, go, json!({"days_per_move": 1})).await;
    play_in_turn([&alice, &bob], &id, 0, "cc").await;
    // White (Bob) has an hour left, as the stored clocks now say.
    let mut db = sqlx::AnyConnection::connect(&run._site.url())
        .await
        .unwrap();
    sqlx::query("UPDATE moves SET white_ms = 3600000 WHERE game_id = $1 AND ply = 0")
        .bind(&id)
        .execute(&mut db)
        .await
        .unwrap();
    drop(db);
    let run = run.restart().await;
    let (alice, bob) = (alice.at(&run.base), bob.at(&run.base));
    let mut bobs = bob.news_from_the_start().await;
    let reminder = bobs.next_of_type("reminder").await;
    assert_eq!(reminder["game"]["id"], id.as_str(), "{reminder}");
    let left = reminder["left_ms"].as_i64().unwrap();
    assert!(left <= 3_600_000 && left > 3_000_000, "{reminder}");
    let mut alices = alice.news_from_the_start().await;
    let told = alices.next().await;
    assert_eq!(told["type"], "ready", "the opponent was told {told}");
    // A reminder comes once a ply: news that makes Bob's socket look again (a challenge)
    // brings no second one.
    let sent = alice
        .post("/api/challenges", json!({"to": "bob", "game": "torus"}))
        .await;
    assert_eq!(sent.status, 201, "{:?}", sent.body);
    loop {
        let told = bobs.next().await;
        assert_ne!(told["type"], "reminder", "a second reminder: {told}");
        if told["type"] == "challenge" {
            break;
        }
    }
    let quiet = tokio::time::timeout(Duration::from_millis(1500), bobs.next()).await;
    assert!(quiet.is_err(), "bob was told {:?}", quiet.ok());
}

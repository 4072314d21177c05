//! The GTP client against real processes: GNU Go, an engine that hangs, one that dies.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use support::Random;
use toroid_protocol::gtp::{Client, ClientError, Engine};
use toroid_rules::Position;

/// GNU Go on PATH or in /usr/games (where Debian installs it); the test fails without it.
fn gnugo() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("gnugo"))
        .find(|p| p.is_file())
        .expect("GNU Go is needed for this test: install it (apt-get install gnugo)")
}

fn process_exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn gnugo_plays_a_short_game_against_our_engine() {
    let command = format!("{} --mode gtp --level 1", gnugo().display());
    let mut gnugo = Client::spawn(&command, Duration::from_secs(30)).unwrap();
    assert_eq!(gnugo.send("protocol_version").unwrap(), "2");
    assert_eq!(gnugo.send("name").unwrap(), "GNU Go");
    assert!(gnugo
        .send("list_commands")
        .unwrap()
        .lines()
        .any(|l| l == "genmove"));
    assert!(matches!(
        gnugo.send("frobnicate"),
        Err(ClientError::Refused { message, .. }) if message == "unknown command"
    ));
    gnugo.send("boardsize 9").unwrap();
    gnugo.send("clear_board").unwrap();
    gnugo.send("komi 7.5").unwrap();

    let mut ours = Engine::new(Random::bot(11));
    let mut ask_ours = |line: &str| {
        let reply = ours.handle(line).unwrap();
        assert!(reply.success, "our engine refused {line:?}: {}", reply.text);
        reply.text
    };
    // Our engine is black, GNU Go white, for 20 moves each or until GNU Go resigns.
    for _ in 0..20 {
        let ours_move = ask_ours("genmove black");
        gnugo
            .send(&format!("play black {ours_move}"))
            .unwrap_or_else(|e| panic!("GNU Go refused our move {ours_move}: {e}"));
        let theirs = gnugo.send("genmove white").unwrap();
        if theirs.eq_ignore_ascii_case("resign") {
            break;
        }
        ask_ours(&format!("play white {theirs}"));
    }
    // Both boards agree stone for stone, captures included.
    let sorted = |text: String| {
        let mut v: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        v.sort();
        v
    };
    let mut theirs = gnugo.send("list_stones black").unwrap();
    theirs.push(' ');
    theirs.push_str(&gnugo.send("list_stones white").unwrap());
    assert_eq!(sorted(theirs), sorted(ask_ours("final_status_list alive")));
    assert!(ask_ours("toroid-board").contains("\"game\":\"go\""));
    let pid = gnugo.id();
    gnugo.quit(Duration::from_secs(5));
    assert!(!process_exists(pid), "GNU Go still runs");
}

#[test]
fn a_hanging_engine_times_out_and_is_killed() {
    let mut client = Client::spawn("sleep 30", Duration::from_millis(300)).unwrap();
    let pid = client.id();
    let start = Instant::now();
    assert!(matches!(
        client.send("name"),
        Err(ClientError::Timeout { .. })
    ));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(!process_exists(pid), "the hung engine was not killed");
    assert!(matches!(
        client.send("name"),
        Err(ClientError::Crashed { .. })
    ));
}

#[test]
fn dropping_a_client_kills_its_engine() {
    let client = Client::spawn("sleep 30", Duration::from_secs(1)).unwrap();
    let pid = client.id();
    assert!(process_exists(pid));
    drop(client);
    assert!(!process_exists(pid), "the engine outlived its client");
}

#[test]
fn an_engine_that_exits_has_crashed() {
    let mut client = Client::spawn("sh -c 'exit 3'", Duration::from_secs(5)).unwrap();
    match client.send("name") {
        Err(ClientError::Crashed { status, .. }) => assert!(status.contains('3'), "{status}"),
        other => panic!("expected a crash, got {other:?}"),
    }
    let mut client = Client::spawn("true", Duration::from_secs(5)).unwrap();
    assert!(matches!(
        client.send("name"),
        Err(ClientError::Crashed { .. })
    ));
}

#[test]
fn garbage_and_bad_command_lines_are_errors() {
    // `cat` echoes the command back: not a GTP response.
    let mut client = Client::spawn("cat", Duration::from_secs(5)).unwrap();
    assert!(matches!(
        client.send("name"),
        Err(ClientError::Malformed { line, .. }) if line == "name"
    ));
    for bad in ["", "   ", "'unterminated", "/no/such/engine --gtp"] {
        assert!(
            matches!(
                Client::spawn(bad, Duration::from_secs(1)),
                Err(ClientError::Spawn { .. })
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn the_engine_loop_answers_until_quit() {
    // `Engine::run` is what `toroid gtp` runs on standard input and output.
    let input = b"1 name\n\n# comment\nboardsize 5\n2 genmove black\nshowboard\nquit\nname\n";
    let mut output = Vec::new();
    let mut engine = Engine::new(Random::bot(3));
    engine.run(&input[..], &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert!(text.starts_with("=1 toroid\n\n= \n\n=2 "), "{text}");
    assert!(text.ends_with("= \n\n"), "{text}");
    assert_eq!(text.matches("\n\n").count(), 5);
    assert_eq!(engine.game().topology().width(), 5);
}

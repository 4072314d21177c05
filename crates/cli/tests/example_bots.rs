//! The example bots of examples/ (Python with a `toroid gtp` oracle, Rust on toroid-rules)
//! driven through GTP: every rule set with legal answers, error answers, ids, comments and
//! blank lines, and a clean quit that leaves no process behind.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use toroid_protocol::gtp::vertex::{move_vertex, parse_move};
use toroid_protocol::gtp::Client;
use toroid_rules::{AnyGame, Color, GameKind, Move, Position, Reason};

const TOROID: &str = env!("CARGO_BIN_EXE_toroid");
const PYTHON_BOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/python/toroid_bot.py"
);
const TIMEOUT: Duration = Duration::from_secs(20);

fn python_bot() -> Vec<String> {
    ["python3", PYTHON_BOT, "--toroid", TOROID, "--seed", "1"]
        .map(String::from)
        .into()
}

/// The Rust example, whose binary `cargo test` builds next to the test binaries.
fn rust_bot() -> Vec<String> {
    let exe = std::env::current_exe().expect("the test binary has a path");
    // target/<profile>/deps/example_bots-HASH -> target/<profile>/examples/rust_bot
    let path = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test binary lies in target/<profile>/deps")
        .join("examples")
        .join(format!("rust_bot{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: `cargo test` builds it; when running this test alone, first run \
         `cargo build -p toroid --example rust_bot` (same profile)",
        path.display()
    );
    vec![path.display().to_string(), "--seed".into(), "1".into()]
}

/// Each example bot: the name it answers and its program with arguments.
fn bots() -> [(&'static str, Vec<String>); 2] {
    [
        ("toroid-python-example", python_bot()),
        ("toroid-rust-example", rust_bot()),
    ]
}

/// A command line for [`Client::spawn`], every word quoted.
fn command_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn spawn(words: &[String]) -> Child {
    Command::new(&words[0])
        .args(&words[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {words:?}: {e}"))
}

/// Waits for `child` to exit, killing it and failing after [`TIMEOUT`].
fn wait(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().expect("the bot can be waited for") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the bot did not exit within {TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Feeds `script` to a fresh bot, then closes its input; returns its answers (each without
/// the empty line that ends it) once it has exited successfully.
fn session(words: &[String], script: &str) -> Vec<String> {
    let mut child = spawn(words);
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin
        .write_all(script.as_bytes())
        .expect("the bot reads its input");
    drop(stdin);
    let status = wait(&mut child);
    let mut output = String::new();
    child
        .stdout
        .take()
        .expect("stdout is piped")
        .read_to_string(&mut output)
        .expect("the bot writes UTF-8");
    assert!(status.success(), "{words:?} exited with {status}");
    let answers = output
        .strip_suffix("\n\n")
        .unwrap_or_else(|| panic!("output not ended by an empty line: {output:?}"));
    answers.split("\n\n").map(String::from).collect()
}

#[test]
fn framing_and_error_answers_follow_gtp() {
    let script = "12 name\n\n   # only a comment\nprotocol_version\nfrobnicate\n\
                  7 known_command toroid-genmove\nknown_command frobnicate\n\
                  toroid-game go size=5\nplay black C3\nplay white C3\nplay white Z9\n\
                  genmove black\ngenmove white\n\
                  toroid-game chess\ntoroid-game ctor size=3\ntoroid-game ctor size=4\n\
                  toroid-play white aa\ntoroid-play black zz\ntoroid-play black aa\n\
                  toroid-play white aa\ntoroid-genmove black\n4 toroid-genmove white\n\
                  8 quit\nname\n";
    for (name, words) in bots() {
        let answers = session(&words, script);
        let expected = [
            format!("=12 {name}"),
            "= 2".into(),
            "? unknown command".into(),
            "=7 true".into(),
            "= false".into(),
            "= ".into(),
            "= ".into(),
            "? illegal move".into(), // prefix: the reason may follow
            "? syntax error".into(),
            "? wrong colour".into(),
            "= VERTEX".into(),
            "? unknown game 'chess' (known: torus, hex-torus, m-torus, ctor, capture-go, go)"
                .into(),
            "? bad value '3' for parameter 'size': expected an integer from 4 to 26".into(),
            "= ".into(),
            "? wrong colour".into(),
            "? syntax error".into(),
            "= ".into(),
            "? illegal move: the cell is occupied".into(),
            "? wrong colour".into(),
            "=4 MOVE".into(),
            "=8 ".into(),
        ];
        assert_eq!(answers.len(), expected.len(), "{name}: {answers:#?}");
        for (answer, expected) in answers.iter().zip(&expected) {
            match expected.as_str() {
                "? illegal move" => assert!(answer.starts_with(expected), "{name}: {answer}"),
                // White's reply to black C3 on an empty 5×5 Go board: any other point.
                "= VERTEX" => {
                    let vertex = answer.strip_prefix("= ").unwrap_or(answer);
                    let mut game = new_game("go", &["size=5"]);
                    game.play(parse_move("C3", game.topology()).unwrap())
                        .unwrap();
                    let mv = parse_move(vertex, game.topology());
                    assert!(
                        mv.is_some_and(|mv| game.check(mv).is_ok()
                            && move_vertex(mv, game.topology()) == vertex),
                        "{name}: genmove white answered {answer:?}"
                    );
                }
                // White's turn in CTOR after black aa: any other point of the 4×4 board.
                "=4 MOVE" => {
                    let point = answer.strip_prefix("=4 ").unwrap_or(answer);
                    let mut game = new_game("ctor", &["size=4"]);
                    game.play(Move::parse("aa", game.topology()).unwrap())
                        .unwrap();
                    let mv = Move::parse(point, game.topology());
                    assert!(
                        mv.is_ok_and(|mv| mv.cell().is_some() && game.check(mv).is_ok()),
                        "{name}: toroid-genmove white answered {answer:?}"
                    );
                }
                _ => assert_eq!(answer, expected, "{name}"),
            }
        }
    }
}

/// Small boards of every rule set, so that whole games take moments.
const GAMES: [(&str, &[&str]); 6] = [
    ("torus", &["size=5"]),
    ("hex-torus", &["width=4", "height=4"]),
    ("m-torus", &["width=4", "height=5"]),
    ("ctor", &["size=4"]),
    ("capture-go", &["size=5", "topology=torus", "target=3"]),
    ("go", &["size=5", "topology=cylinder", "komi=0.5"]),
];

/// A new game of the rule set called `name`.
fn new_game(name: &str, params: &[&str]) -> AnyGame {
    let kind: GameKind = name.parse().expect("a rule set");
    kind.new_game(params).expect("valid parameters")
}

const MAX_PLIES: usize = 300;

/// How a controller talks to a bot (docs/protocol.md, "What a controller sends").
#[derive(Clone, Copy, Debug)]
enum Dialect {
    /// `toroid match` to a bot that lists `toroid-game`, in every rule set: `toroid-game`
    /// with every parameter, `toroid-play`, `toroid-genmove`, toroid notation.
    Extension,
    /// A Go controller: `boardsize`, `clear_board`, `komi`, `play`, `genmove`, GTP vertices.
    PlainGo,
}

fn new_game_commands(dialect: Dialect, game: &AnyGame) -> Vec<String> {
    let params = game.params();
    match dialect {
        Dialect::Extension => {
            let mut command = format!("toroid-game {}", game.kind());
            for (key, value) in params.iter() {
                if let Some(value) = value {
                    command.push_str(&format!(" {key}={value}"));
                }
            }
            vec![command]
        }
        Dialect::PlainGo => vec![
            format!("boardsize {}", game.topology().width()),
            "clear_board".into(),
            format!("komi {}", params.float("komi").expect("a go game")),
        ],
    }
}

/// The test's own moves: placements spread over the board by the ply number, `pass` or
/// `end` only when nothing else is legal.
fn opponent_move(game: &AnyGame) -> Move {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let placements: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.cell().is_some())
        .collect();
    let pool = if placements.is_empty() {
        &moves
    } else {
        &placements
    };
    pool[game.ply() * 7 % pool.len()]
}

/// Plays one game to its end between `bot` (as `bot_color`) and [`opponent_move`], checking
/// that the bot accepts every move and that every move it answers is legal and well written.
fn play_game(bot: &mut Client, name: &str, dialect: Dialect, start: &AnyGame, bot_color: Color) {
    let mut game = start.clone();
    let kind = game.kind();
    for command in new_game_commands(dialect, &game) {
        bot.send(&command)
            .unwrap_or_else(|e| panic!("{name}, {kind}: {e}"));
    }
    let (play, genmove) = match dialect {
        Dialect::Extension => ("toroid-play", "toroid-genmove"),
        Dialect::PlainGo => ("play", "genmove"),
    };
    let write = |mv: Move, game: &AnyGame| match dialect {
        Dialect::Extension => mv.notation(game.topology()).to_string(),
        Dialect::PlainGo => move_vertex(mv, game.topology()),
    };
    while let Some(color) = game.turn().filter(|_| game.ply() < MAX_PLIES) {
        if color == bot_color {
            let answer = bot
                .send(&format!("{genmove} {color}"))
                .unwrap_or_else(|e| panic!("{name}, {kind}: {e}"));
            let mv = parse_move(&answer, game.topology())
                .filter(|&mv| write(mv, &game) == answer)
                .unwrap_or_else(|| panic!("{name}, {kind}: '{answer}' is not a move"));
            game.play(mv)
                .unwrap_or_else(|e| panic!("{name}, {kind}: '{answer}' is illegal: {e}"));
        } else {
            let mv = opponent_move(&game);
            bot.send(&format!("{play} {color} {}", write(mv, &game)))
                .unwrap_or_else(|e| panic!("{name}, {kind}: {e}"));
            game.play(mv).unwrap();
        }
    }
    assert!(
        game.outcome().is_some(),
        "{name}, {kind}: no end in {MAX_PLIES} plies"
    );
}

#[test]
fn every_answer_is_a_legal_move_in_every_rule_set_and_dialect() {
    for (name, words) in bots() {
        // One process for every game: each game's first commands must reset the bot. A
        // fresh bot plays go, as a Go controller expects.
        let mut bot = Client::spawn(&command_line(&words), TIMEOUT).unwrap();
        let plain_go = new_game("go", &["size=5", "komi=0.5"]);
        let games = GAMES.map(|(name, params)| (Dialect::Extension, new_game(name, params)));
        for (dialect, start) in [(Dialect::PlainGo, plain_go)].into_iter().chain(games) {
            for color in Color::BOTH {
                play_game(&mut bot, name, dialect, &start, color);
            }
        }
        bot.quit(TIMEOUT);
    }
}

/// Two games of `toroid match` between `bot` and a house bot, which must end by the rules
/// (any other reason in the report is a resignation or a player's fault).
fn match_against(kind: &str, params: &[&str], bot: &str, house: &str) {
    let mut command = Command::new(TOROID);
    command.args(["match", kind]);
    for param in params {
        command.args(["-p", param]);
    }
    command.args(["--black", bot, "--white", house, "--games", "2", "--json"]);
    let out = command.output().expect("the toroid binary runs");
    let context = format!("{kind}, {bot} against {house}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{context}: {stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    let games = report["games"].as_array().expect("a list of games");
    assert_eq!(games.len(), 2, "{context}: {report}");
    for game in games {
        let reason = game["reason"].as_str().unwrap_or_default();
        assert!(
            reason.parse::<Reason>().is_ok_and(Reason::is_by_rules),
            "{context}: {}",
            game["detail"]
        );
    }
}

#[test]
fn matches_against_house_bots_end_by_the_rules_in_every_rule_set() {
    let bots = bots().map(|(_, words)| command_line(&words));
    thread::scope(|scope| {
        for (i, (kind, params)) in GAMES.into_iter().enumerate() {
            for (j, bot) in bots.iter().enumerate() {
                // Each bot meets random in three rule sets and greedy in the other three.
                let house = ["random", "greedy"][(i + j) % 2];
                scope.spawn(move || match_against(kind, params, bot, house));
            }
        }
    });
}

/// The processes whose parent is `pid`.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let entries = std::fs::read_dir("/proc").expect("/proc is readable");
    entries
        .filter_map(|entry| {
            let child: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
            // "pid (name) state ppid ...": the name may hold spaces, so read after ')'.
            let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?;
            (ppid.parse() == Ok(pid)).then_some(child)
        })
        .collect()
}

/// Whether `pid` still runs (a zombie has ended; only its entry is left).
#[cfg(target_os = "linux")]
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.starts_with(" Z"))
    })
}

/// Sends one command and reads its answer up to the empty line that ends it.
#[cfg(target_os = "linux")]
fn ask(stdin: &mut impl Write, stdout: &mut impl BufRead, command: &str) -> String {
    writeln!(stdin, "{command}")
        .and_then(|()| stdin.flush())
        .unwrap();
    let mut answer = String::new();
    while !answer.ends_with("\n\n") {
        assert_ne!(
            stdout.read_line(&mut answer).unwrap(),
            0,
            "no answer to {command}"
        );
    }
    answer.trim_end_matches('\n').to_string()
}

/// The oracle is gone by the time the bot answers `quit` (a controller may kill the bot
/// right after that answer), and once the bot has exited at the end of its input.
#[cfg(target_os = "linux")]
#[test]
fn the_python_bot_ends_its_oracle_on_quit_and_at_end_of_input() {
    for quit in [true, false] {
        let mut bot = spawn(&python_bot());
        let mut stdin = bot.stdin.take().unwrap();
        let mut stdout = BufReader::new(bot.stdout.take().unwrap());
        assert_eq!(
            ask(&mut stdin, &mut stdout, "name"),
            "= toroid-python-example"
        );
        let oracles = children(bot.id());
        assert_eq!(oracles.len(), 1, "one oracle process: {oracles:?}");
        assert!(running(oracles[0]));
        if quit {
            assert_eq!(ask(&mut stdin, &mut stdout, "quit"), "= ");
            assert!(
                !running(oracles[0]),
                "the oracle runs after the answer to quit"
            );
        }
        drop(stdin);
        let status = wait(&mut bot);
        assert!(status.success(), "quit {quit}: {status}");
        assert!(
            !running(oracles[0]),
            "the oracle runs after the end of input"
        );
    }
}

#[test]
fn the_python_bot_says_when_it_cannot_start_its_oracle() {
    let out = Command::new("python3")
        .args([PYTHON_BOT, "--toroid", "/nonexistent/toroid"])
        .stdin(Stdio::null())
        .output()
        .expect("python3 runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("toroid_bot.py: cannot start the oracle '/nonexistent/toroid'"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

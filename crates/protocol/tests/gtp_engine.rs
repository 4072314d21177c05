//! Conformance of the GTP engine: a scripted session through every command with every
//! reply checked, error answers included, and fuzzing.

use proptest::prelude::*;
use toroid_protocol::gtp::engine::COMMANDS;
use toroid_protocol::gtp::Engine;
mod support;

use support::Random;
use toroid_rules::{AnyGame, Bot, Move, Position, TimeLeft};

/// Plays the first legal placement in cell order (or the first legal move): predictable
/// replies for the script. Remembers the time it was last given.
struct FirstLegal {
    last_time: std::sync::Arc<std::sync::Mutex<Option<TimeLeft>>>,
}

impl Bot for FirstLegal {
    fn name(&self) -> String {
        "first-legal".into()
    }
    fn choose(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Move {
        *self.last_time.lock().unwrap() = time;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|m| m.cell().is_some())
            .unwrap_or(moves[0])
    }
}

type GtpClock = std::sync::Arc<std::sync::Mutex<Option<TimeLeft>>>;

fn engine() -> (Engine, GtpClock) {
    let clock = GtpClock::default();
    let bot = FirstLegal {
        last_time: clock.clone(),
    };
    (Engine::new(Box::new(bot)), clock)
}

/// Sends each command and checks the complete reply (`None`: no reply at all).
fn script(engine: &mut Engine, steps: &[(&str, Option<&str>)]) {
    for (i, (line, expected)) in steps.iter().enumerate() {
        let reply = engine.handle(line).map(|r| r.to_string());
        assert_eq!(
            reply.as_deref(),
            *expected,
            "step {i}: {line:?} answered {reply:?}"
        );
    }
}

#[test]
fn administrative_commands_and_framing() {
    let (mut e, _) = engine();
    let list = format!("= {}\n\n", COMMANDS.join("\n"));
    let version = format!("= {}\n\n", env!("CARGO_PKG_VERSION"));
    script(
        &mut e,
        &[
            ("protocol_version", Some("= 2\n\n")),
            ("1 name", Some("=1 toroid\n\n")),
            ("version", Some(&version)),
            ("", None),
            ("   \t ", None),
            ("# a comment line", None),
            (
                "42 known_command play # trailing comment",
                Some("=42 true\n\n"),
            ),
            ("known_command toroid-legal", Some("= true\n\n")),
            ("known_command PLAY", Some("= false\n\n")),
            ("known_command", Some("? syntax error\n\n")),
            ("list_commands", Some(&list)),
            ("PLAY black D4", Some("? unknown command\n\n")),
            ("7 frobnicate", Some("?7 unknown command\n\n")),
            ("7", Some("?7 syntax error\n\n")),
            ("\x01protocol\x7f_version\r", Some("= 2\n\n")),
            ("\tname\t", Some("= toroid\n\n")),
            ("gogui-analyze_commands", Some("= \n\n")),
        ],
    );
    assert!(!e.quit_requested());
    script(&mut e, &[("9 quit", Some("=9 \n\n"))]);
    assert!(e.quit_requested());
}

#[test]
fn every_command_is_implemented() {
    let (mut e, _) = engine();
    for name in COMMANDS {
        let reply = e.handle(name).unwrap();
        assert_ne!(reply.text, "unknown command", "{name}");
    }
}

#[test]
fn go_session_with_moves_undo_and_scoring() {
    let (mut e, _) = engine();
    script(
        &mut e,
        &[
            ("boardsize 7", Some("= \n\n")),
            ("boardsize 1", Some("? unacceptable size\n\n")),
            ("boardsize 26", Some("? unacceptable size\n\n")),
            ("boardsize seven", Some("? syntax error\n\n")),
            ("clear_board", Some("= \n\n")),
            ("komi 0.5", Some("= \n\n")),
            ("komi lots", Some("? syntax error\n\n")),
            ("komi 5000", Some("? bad value '5000' for parameter 'komi': expected a number from -1000 to 1000\n\n")),
            ("play black D4", Some("= \n\n")),
            ("play white d4", Some("? illegal move\n\n")),
            ("play white Z9", Some("? syntax error\n\n")),
            ("play white H1", Some("? syntax error\n\n")),
            ("play green A1", Some("? syntax error\n\n")),
            ("play white", Some("? syntax error\n\n")),
            ("play w A1", Some("= \n\n")),
            // Out of turn: white passes in between.
            ("play b B1", Some("= \n\n")),
            ("play B A2", Some("= \n\n")),
            ("showboard", Some("= \n    A B C D E F G\n 7  . . . . . . . 7\n 6  . . . . . . . 6\n 5  . . . . . . . 5\n 4  . . . X . . . 4\n 3  . . . . . . . 3\n 2  X . . . . . . 2\n 1  . X . . . . . 1\n    A B C D E F G\ngo · captures black 1, white 0 · white to move\n\n")),
            ("final_score", Some("= B+48.5\n\n")),
            ("final_status_list alive", Some("= D4 A2 B1\n\n")),
            ("final_status_list dead", Some("= \n\n")),
            ("final_status_list seki", Some("= \n\n")),
            ("final_status_list zombie", Some("? syntax error\n\n")),
            ("undo", Some("= \n\n")),
            ("undo", Some("= \n\n")),
            ("final_status_list alive", Some("= D4 A1\n\n")),
            ("undo", Some("= \n\n")),
            ("undo", Some("= \n\n")),
            ("undo", Some("? cannot undo\n\n")),
            ("final_score", Some("= W+0.5\n\n")),
            // genmove plays for either colour; the test bot takes the first empty point.
            ("genmove white", Some("= A7\n\n")),
            ("genmove black", Some("= B7\n\n")),
            ("reg_genmove white", Some("= C7\n\n")),
            ("genmove white", Some("= C7\n\n")),
            ("genmove w", Some("= D7\n\n")),
            ("genmove purple", Some("? syntax error\n\n")),
            ("play black pass", Some("= \n\n")),
            ("play white PASS", Some("= \n\n")),
            // Two passes end the game: nothing more is legal, and genmove passes.
            ("play black E1", Some("? illegal move\n\n")),
            ("genmove black", Some("= pass\n\n")),
            ("final_score", Some("= W+2.5\n\n")),
            ("clear_board", Some("= \n\n")),
            ("final_score", Some("= W+0.5\n\n")),
        ],
    );
}

#[test]
fn komi_changes_keep_the_moves() {
    let (mut e, _) = engine();
    script(
        &mut e,
        &[
            ("play black C3", Some("= \n\n")),
            ("komi -3", Some("= \n\n")),
            ("final_score", Some("= B+84\n\n")),
            ("undo", Some("= \n\n")),
            ("final_score", Some("= B+3\n\n")),
        ],
    );
}

#[test]
fn kgs_rules_set_the_scoring_and_keep_the_moves() {
    let (mut e, _) = engine();
    script(
        &mut e,
        &[
            ("boardsize 5", Some("= \n\n")),
            ("komi 0", Some("= \n\n")),
            ("play black C3", Some("= \n\n")),
            // Area: the stone and the 24 empty points around it.
            ("final_score", Some("= B+25\n\n")),
            ("kgs-rules japanese", Some("= \n\n")),
            ("final_score", Some("= B+24\n\n")),
            ("kgs-rules new_zealand", Some("= \n\n")),
            ("final_score", Some("= B+25\n\n")),
            ("kgs-rules tromp-taylor", Some("? unknown rules\n\n")),
            ("kgs-rules", Some("? syntax error\n\n")),
            ("kgs-rules Japanese", Some("= \n\n")),
        ],
    );
    let board = e.handle("toroid-board").unwrap().to_string();
    let rules = [r#""scoring":"japanese""#, r#""ko":"simple""#, r#""ply":1"#];
    assert!(rules.iter().all(|r| board.contains(r)), "{board}");
}

#[test]
fn handicap_commands() {
    let (mut e, _) = engine();
    script(
        &mut e,
        &[
            ("fixed_handicap 1", Some("? invalid number of stones\n\n")),
            ("fixed_handicap 10", Some("? invalid number of stones\n\n")),
            ("fixed_handicap x", Some("? syntax error\n\n")),
            ("fixed_handicap 5", Some("= C3 G7 C7 G3 E5\n\n")),
            ("fixed_handicap 2", Some("? board not empty\n\n")),
            ("undo", Some("? cannot undo\n\n")),
            ("genmove black", Some("= A9\n\n")),
            ("clear_board", Some("= \n\n")),
            ("place_free_handicap 3", Some("= C3 G7 C7\n\n")),
            ("play white E5", Some("= \n\n")),
            ("clear_board", Some("= \n\n")),
            (
                "place_free_handicap 11",
                Some("= C3 G7 C7 G3 C5 G5 E3 E7 E5 A9 B9\n\n"),
            ),
            ("clear_board", Some("= \n\n")),
            ("set_free_handicap A1 J9 E5", Some("= \n\n")),
            ("final_status_list alive", Some("= J9 E5 A1\n\n")),
            ("genmove black", Some("= A9\n\n")),
            ("clear_board", Some("= \n\n")),
            ("set_free_handicap A1", Some("? bad vertex list\n\n")),
            ("set_free_handicap A1 A1", Some("? bad vertex list\n\n")),
            ("set_free_handicap A1 Q1", Some("? syntax error\n\n")),
            ("set_free_handicap A1 pass", Some("? syntax error\n\n")),
            ("boardsize 5", Some("= \n\n")),
            ("fixed_handicap 2", Some("? invalid number of stones\n\n")),
            ("toroid-game torus", Some("= \n\n")),
            (
                "fixed_handicap 2",
                Some("? not available in torus: only in capture-go and go\n\n"),
            ),
        ],
    );
}

#[test]
fn time_settings_reach_the_bot() {
    let (mut e, clock) = engine();
    let seen = |clock: &GtpClock| {
        clock
            .lock()
            .unwrap()
            .map(|t| (t.remaining + t.overtime).as_secs_f64())
    };
    script(&mut e, &[("genmove black", Some("= A9\n\n"))]);
    assert_eq!(seen(&clock), None);
    script(
        &mut e,
        &[
            ("time_settings 300 30 5", Some("= \n\n")),
            ("time_settings 300 30", Some("? syntax error\n\n")),
            ("time_settings 300 inf 5", Some("? syntax error\n\n")),
            ("genmove white", Some("= B9\n\n")),
        ],
    );
    assert_eq!(seen(&clock), Some(300.0));
    script(
        &mut e,
        &[
            ("time_left black 40 4", Some("= \n\n")),
            ("time_left black 40", Some("? syntax error\n\n")),
            ("time_left red 40 4", Some("? syntax error\n\n")),
            ("genmove black", Some("= C9\n\n")),
        ],
    );
    assert_eq!(seen(&clock), Some(10.0));
    script(
        &mut e,
        &[
            ("kgs-time_settings absolute 120", Some("= \n\n")),
            ("genmove white", Some("= D9\n\n")),
        ],
    );
    assert_eq!(seen(&clock), Some(120.0));
    script(
        &mut e,
        &[
            ("kgs-time_settings byoyomi 0 20 3", Some("= \n\n")),
            ("genmove black", Some("= E9\n\n")),
        ],
    );
    assert_eq!(seen(&clock), Some(20.0));
    script(
        &mut e,
        &[
            ("kgs-time_settings canadian 0 60 10", Some("= \n\n")),
            ("genmove white", Some("= F9\n\n")),
        ],
    );
    assert_eq!(seen(&clock), Some(6.0));
    script(
        &mut e,
        &[
            ("kgs-time_settings none", Some("= \n\n")),
            ("kgs-time_settings absolute", Some("? syntax error\n\n")),
            ("kgs-time_settings fischer 60 5", Some("? syntax error\n\n")),
            ("genmove black", Some("= G9\n\n")),
        ],
    );
    assert_eq!(seen(&clock), None);
    script(
        &mut e,
        &[
            ("time_settings 0 30 0", Some("= \n\n")),
            ("genmove white", Some("= H9\n\n")),
        ],
    );
    assert_eq!(seen(&clock), None);
}

#[test]
fn capture_go_scores_captures() {
    let (mut e, _) = engine();
    script(
        &mut e,
        &[
            ("toroid-game capture-go size=5 target=1", Some("= \n\n")),
            ("komi 6.5", Some("= \n\n")),
            ("play black B1", Some("= \n\n")),
            ("play white A1", Some("= \n\n")),
            ("final_score", Some("= 0\n\n")),
            ("play black A2", Some("= \n\n")),
            ("final_score", Some("= B+1\n\n")),
            ("toroid-board", Some("= {\"board\":[\".....\",\".....\",\".....\",\"b....\",\".b...\"],\"captures\":{\"black\":1,\"white\":0},\"game\":\"capture-go\",\"height\":5,\"over\":true,\"params\":{\"size\":5,\"target\":1,\"topology\":\"plane\"},\"ply\":3,\"reason\":\"capture-target\",\"to_move\":null,\"width\":5,\"winner\":\"black\"}\n\n")),
            ("genmove white", Some("= pass\n\n")),
            ("toroid-genmove white", Some("? game is over\n\n")),
            ("toroid-play white C3", Some("? syntax error\n\n")),
            ("toroid-play white cc", Some("? illegal move: the game is over\n\n")),
            ("toroid-legal", Some("= \n\n")),
        ],
    );
}

#[test]
fn the_extension_plays_every_game() {
    let (mut e, _) = engine();
    let rules = e.handle("toroid-rules").unwrap();
    assert!(rules.success);
    let lines: Vec<&str> = rules.text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(
        lines.contains(&"go size=9 topology=plane komi=7.5 scoring=area ko=simple max_moves=243 scoring_phase=none")
    );
    assert!(lines.iter().any(|l| l.starts_with("hex-torus ")));
    script(
        &mut e,
        &[
            ("toroid-game", Some("? syntax error\n\n")),
            ("toroid-game chess", Some("? unknown game 'chess' (known: torus, hex-torus, m-torus, ctor, capture-go, go)\n\n")),
            ("toroid-game ctor size=3", Some("? bad value '3' for parameter 'size': expected an integer from 4 to 26\n\n")),
            ("toroid-game ctor colour=red", Some("? unknown parameter 'colour' (this game takes: size)\n\n")),
            ("toroid-game ctor size=4", Some("= \n\n")),
            ("toroid-legal", Some("= aa ba ca da ab bb cb db ac bc cc dc ad bd cd dd\n\n")),
            ("toroid-play white aa", Some("? wrong colour\n\n")),
            ("toroid-play black A1", Some("? syntax error\n\n")),
            ("toroid-play black end", Some("? illegal move: 'end' is only allowed after the first placement of a CTOR turn\n\n")),
            ("toroid-play black aa", Some("= \n\n")),
            // Black's first turn is one placement; then white places twice.
            ("toroid-play black bb", Some("? wrong colour\n\n")),
            ("toroid-play white bb", Some("= \n\n")),
            ("toroid-legal", Some("= ba ca da ab cb db ac bc cc dc ad bd cd dd end\n\n")),
            ("toroid-genmove white", Some("= ba\n\n")),
            ("toroid-genmove white", Some("? wrong colour\n\n")),
            ("genmove white", Some("? wrong colour\n\n")),
            ("play black cc", Some("= \n\n")),
            ("play black end", Some("= \n\n")),
            ("play white aa", Some("? illegal move\n\n")),
            ("play white ca", Some("= \n\n")),
            ("undo", Some("= \n\n")),
            ("genmove white", Some("= ca\n\n")),
            ("showboard", Some("= \n    a b c d\n a  X O O . a\n b  . O . . b\n c  . . X . c\n d  . . . . d\n    a b c d\nctor · captures black 0, white 0 · white to move\n\n")),
            ("final_score", Some("? not available in ctor: only in capture-go and go\n\n")),
            ("boardsize 5", Some("= \n\n")),
            ("toroid-board", Some("= {\"board\":[\".....\",\".....\",\".....\",\".....\",\".....\"],\"captures\":{\"black\":0,\"white\":0},\"game\":\"ctor\",\"height\":5,\"over\":false,\"params\":{\"size\":5},\"ply\":0,\"reason\":null,\"to_move\":\"black\",\"width\":5,\"winner\":null}\n\n")),
            ("toroid-game hex-torus", Some("= \n\n")),
            ("boardsize 6", Some("= \n\n")),
            ("boardsize 5", Some("? unacceptable size\n\n")),
            ("play black A1", Some("= \n\n")),
            ("toroid-play white pass", Some("? illegal move: passing is not allowed while a placement is possible\n\n")),
            ("final_status_list alive", Some("= af\n\n")),
        ],
    );
}

#[test]
fn random_games_run_to_the_end_in_every_rule_set() {
    for (i, kind) in toroid_rules::GameKind::ALL.iter().enumerate() {
        let mut e = Engine::new(Random::bot(i as u64));
        assert!(e.handle(&format!("toroid-game {kind}")).unwrap().success);
        let mut plies = 0;
        while let Some(color) = e.game().turn() {
            let reply = e.handle(&format!("toroid-genmove {color}")).unwrap();
            assert!(reply.success, "{kind}: {reply:?}");
            plies += 1;
            assert!(plies < 100_000);
        }
        assert!(e
            .handle("toroid-board")
            .unwrap()
            .text
            .contains("\"over\":true"));
        assert!(!e.handle("toroid-genmove black").unwrap().success);
    }
}

/// A line of command-like words and arbitrary characters.
fn line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        // `printsgf FILE` would write files named by the fuzzer; records_load_and_print
        // covers it.
        prop::sample::select(
            COMMANDS
                .iter()
                .filter(|&&c| c != "printsgf")
                .copied()
                .collect::<Vec<_>>()
        )
        .prop_map(str::to_string),
        prop::sample::select(vec![
            "black",
            "white",
            "b",
            "W",
            "pass",
            "end",
            "A1",
            "J9",
            "I5",
            "ee",
            "zz",
            "0",
            "-1",
            "2",
            "9",
            "26",
            "1e400",
            "NaN",
            "size=5",
            "go",
            "ctor",
            "torus",
            "hex-torus",
            "m-torus",
            "capture-go",
            "none",
            "absolute",
            "byoyomi",
            "canadian",
            "alive",
            "#",
        ])
        .prop_map(str::to_string),
        "\\PC{0,6}",
        "[\\x00-\\x20]{0,3}",
    ];
    prop::collection::vec(word, 0..6).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(toroid_testkit::cases(300))]

    #[test]
    fn no_line_makes_the_engine_panic(lines in prop::collection::vec(line(), 1..40)) {
        let mut e = Engine::new(Random::bot(7));
        for l in &lines {
            if let Some(reply) = e.handle(l) {
                let text = reply.to_string();
                prop_assert!(text.ends_with("\n\n"));
                prop_assert!(!text[..text.len() - 2].contains("\n\n"), "{l:?} -> {text:?}");
                prop_assert!(text.starts_with('=') || text.starts_with('?'));
            }
        }
    }
}

/// The text of a success reply, or a panic naming the command.
fn success(e: &mut Engine, line: &str) -> String {
    let reply = e.handle(line).expect("a reply").to_string();
    let text = reply
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("{line}: {reply:?}"));
    text.strip_suffix("\n\n")
        .expect("an empty line ends it")
        .to_string()
}

#[test]
fn records_load_and_print() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let go = dir.join("gtp-printsgf-go.sgf");
    let go = go.to_str().unwrap();
    let (mut e, _) = engine();
    script(
        &mut e,
        &[
            ("komi 6.5", Some("= \n\n")),
            ("play black E5", Some("= \n\n")),
            ("play white C3", Some("= \n\n")),
            ("play black G7", Some("= \n\n")),
            (&format!("printsgf {go}"), Some("= \n\n")),
            ("clear_board", Some("= \n\n")),
            (&format!("loadsgf {go}"), Some("= white\n\n")),
            ("final_status_list alive", Some("= G7 E5 C3\n\n")),
            ("undo", Some("? cannot undo\n\n")),
            (&format!("loadsgf {go} 2"), Some("= white\n\n")),
            ("final_status_list alive", Some("= E5\n\n")),
            (&format!("loadsgf {go} 1"), Some("= black\n\n")),
            ("final_status_list alive", Some("= \n\n")),
            ("loadsgf", Some("? syntax error\n\n")),
            (&format!("loadsgf {go} x"), Some("? syntax error\n\n")),
        ],
    );
    let text = success(&mut e, "printsgf");
    assert!(text.starts_with("(;FF[4]"), "{text}");
    assert!(text.contains("KM[6.5]"), "{text}");
    let missing = e.handle("loadsgf /no/such/file.sgf").unwrap().to_string();
    assert!(
        missing.starts_with("? cannot read '/no/such/file.sgf': "),
        "{missing}"
    );
    // Only regular files of at most 4 MiB are read, and only regular files are written:
    // a device, a pipe or a folder could never end, block, or is no record.
    for (command, why) in [
        ("loadsgf /dev/zero".to_string(), "not a regular file"),
        (format!("loadsgf {}", dir.display()), "not a regular file"),
        ("printsgf /dev/null".to_string(), "not a regular file"),
        (format!("printsgf {}", dir.display()), "not a regular file"),
    ] {
        let reply = e.handle(&command).unwrap().to_string();
        assert!(
            reply.starts_with("? cannot ") && reply.contains(why),
            "{command}: {reply}"
        );
    }
    let huge = dir.join("gtp-huge.sgf");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(toroid_protocol::gtp::engine::MAX_SGF_FILE_BYTES + 1)
        .unwrap();
    let reply = e
        .handle(&format!("loadsgf {}", huge.display()))
        .unwrap()
        .to_string();
    assert!(reply.contains("larger than 4194304 bytes"), "{reply}");
    let garbage = dir.join("gtp-garbage.sgf");
    std::fs::write(&garbage, "(;GM[1]SZ[9];B[zz])").unwrap();
    let reply = e
        .handle(&format!("loadsgf {}", garbage.display()))
        .unwrap()
        .to_string();
    assert!(reply.starts_with("? cannot load '"), "{reply}");
    assert_eq!(
        success(&mut e, "final_status_list alive"),
        "",
        "a failed load changes nothing"
    );

    // Handicap stones are set up, not played, and travel as AB.
    script(
        &mut e,
        &[
            ("clear_board", Some("= \n\n")),
            ("fixed_handicap 2", Some("= C3 G7\n\n")),
        ],
    );
    let text = success(&mut e, "printsgf");
    assert!(
        text.contains("AB[cg][gc]") || text.contains("AB[gc][cg]"),
        "{text}"
    );

    // Every rule set travels through its own SGF properties.
    let hex = dir.join("gtp-printsgf-hex.sgf");
    let hex = hex.to_str().unwrap();
    script(
        &mut e,
        &[
            ("toroid-game hex-torus width=6 height=6", Some("= \n\n")),
            ("toroid-play black aa", Some("= \n\n")),
            (&format!("printsgf {hex}"), Some("= \n\n")),
            ("toroid-game go", Some("= \n\n")),
            (&format!("loadsgf {hex}"), Some("= white\n\n")),
        ],
    );
    let board: serde_json::Value = serde_json::from_str(&success(&mut e, "toroid-board")).unwrap();
    assert_eq!(board["game"], "hex-torus");
    assert_eq!(board["width"], 6);
}

#[test]
fn gui_extras_answer() {
    let (mut e, _) = engine();
    let seconds: f64 = success(&mut e, "cputime").parse().unwrap();
    assert!(seconds >= 0.0);
    script(
        &mut e,
        &[
            ("kgs-genmove_cleanup black", Some("= A9\n\n")),
            ("kgs-game_over", Some("= \n\n")),
        ],
    );
}

/// What a pondering bot saw: for each ponder, the ply of the position and how long it went on
/// before it was stopped.
type Ponders = std::sync::Arc<std::sync::Mutex<Vec<(usize, std::time::Duration)>>>;

/// Plays like [`FirstLegal`] and ponders by waiting for the stop flag.
struct Ponderer {
    inner: FirstLegal,
    ponders: Ponders,
}

impl Ponderer {
    /// The bot, and what it will have seen.
    fn new() -> (Ponderer, Ponders) {
        let ponders = Ponders::default();
        let bot = Ponderer {
            inner: FirstLegal {
                last_time: GtpClock::default(),
            },
            ponders: ponders.clone(),
        };
        (bot, ponders)
    }
}

impl Bot for Ponderer {
    fn name(&self) -> String {
        "ponderer".into()
    }
    fn choose(&mut self, game: &AnyGame, time: Option<TimeLeft>) -> Move {
        self.inner.choose(game, time)
    }
    fn ponder(&mut self, game: &AnyGame, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        let start = std::time::Instant::now();
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        (self.ponders.lock().unwrap()).push((game.ply(), start.elapsed()));
    }
}

#[test]
fn a_pondering_engine_thinks_after_its_own_moves_until_the_next_command() {
    use std::io::Write;
    let (bot, ponders) = Ponderer::new();
    let (reader, mut writer) = std::io::pipe().unwrap();
    let mut output = Vec::new();
    std::thread::scope(|scope| {
        let engine = scope.spawn(|| {
            let mut engine = Engine::new(Box::new(bot)).pondering();
            engine.run(std::io::BufReader::new(reader), &mut output)
        });
        // The opponent takes 300 ms over its reply to the engine's first move.
        writer.write_all(b"boardsize 9\ngenmove b\n").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        writer
            .write_all(b"play w E5\nreg_genmove b\ngenmove b\nplay w E6\nquit\n")
            .unwrap();
        engine.join().unwrap().unwrap();
    });
    assert_eq!(
        String::from_utf8(output).unwrap(),
        "= \n\n= A9\n\n= \n\n= B9\n\n= B9\n\n= \n\n= \n\n"
    );
    let ponders = ponders.lock().unwrap();
    // After each genmove, and only then (not after play or reg_genmove, which plays nothing),
    // on the position the opponent is to move in.
    let plies: Vec<usize> = ponders.iter().map(|p| p.0).collect();
    assert_eq!(plies, [1, 3]);
    // The first went on until the opponent's reply arrived.
    assert!(
        ponders[0].1 >= std::time::Duration::from_millis(250),
        "{:?}",
        ponders[0].1
    );
}

#[test]
fn an_engine_ponders_only_when_asked() {
    let (bot, ponders) = Ponderer::new();
    let mut output = Vec::new();
    (Engine::new(Box::new(bot)).run(&b"genmove b\nplay w E5\ngenmove b\nquit\n"[..], &mut output))
        .unwrap();
    assert!(ponders.lock().unwrap().is_empty());
}

//! Conformance of `toroid gtp` itself: one scripted session through the real binary that
//! uses every command it lists, bad input included, with every reply checked.

use std::io::Write;
use std::process::{Command, Stdio};

/// What a reply must be.
enum Expect {
    /// Exactly this text after `= `.
    Is(&'static str),
    /// A success whose text starts with this.
    Starts(&'static str),
    /// A failure whose message starts with this.
    Fails(&'static str),
}

use Expect::{Fails, Is, Starts};

fn session(level: &str, steps: &[(&str, Expect)]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["gtp", "--level", level, "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("toroid gtp starts");
    let mut input = String::new();
    for (line, _) in steps {
        input.push_str(line);
        input.push('\n');
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("\n\n"), "{text:?}");
    let replies: Vec<String> = text
        .trim_end_matches('\n')
        .split("\n\n")
        .map(str::to_string)
        .collect();
    // Empty and comment lines get no reply, nor does anything after `quit`.
    let quit = steps.iter().position(|(line, _)| *line == "quit");
    let answered: Vec<&(&str, Expect)> = steps[..quit.map_or(steps.len(), |q| q + 1)]
        .iter()
        .filter(|(line, _)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .collect();
    assert_eq!(replies.len(), answered.len(), "{text}");
    for ((line, expect), reply) in answered.iter().zip(&replies) {
        // The id, if any, comes right after the `=` or `?`.
        let (status, rest) = reply.split_at(1);
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let text = rest.strip_prefix(' ').unwrap_or(rest);
        let ok = match expect {
            Is(expected) => status == "=" && text == *expected,
            Starts(expected) => status == "=" && text.starts_with(expected),
            Fails(expected) => status == "?" && text.starts_with(expected),
        };
        assert!(ok, "{line:?} answered {reply:?}");
    }
    replies
}

#[test]
fn a_scripted_session_uses_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("toroid-gtp-session.sgf");
    let printsgf = format!("printsgf {}", sgf.display());
    let loadsgf = format!("loadsgf {} 3", sgf.display());
    let steps: Vec<(&str, Expect)> = vec![
        ("protocol_version", Is("2")),
        ("1 name", Is("toroid")),
        ("version", Is(env!("CARGO_PKG_VERSION"))),
        ("known_command genmove", Is("true")),
        ("known_command frobnicate", Is("false")),
        ("known_command", Fails("syntax error")),
        ("list_commands", Starts("protocol_version\nname\n")),
        ("# a comment gets no reply", Is("")),
        ("", Is("")),
        ("frobnicate", Fails("unknown command")),
        ("boardsize 7", Is("")),
        ("boardsize 99", Fails("unacceptable size")),
        ("boardsize seven", Fails("syntax error")),
        ("clear_board", Is("")),
        ("komi 6.5", Is("")),
        ("komi lots", Fails("syntax error")),
        ("kgs-rules chinese", Is("")),
        ("kgs-rules tromp-taylor", Fails("unknown rules")),
        ("play black D4", Is("")),
        ("play black D4", Fails("illegal move")),
        ("play purple D5", Fails("syntax error")),
        ("play white Z99", Fails("syntax error")),
        ("genmove white", Starts("")),
        ("reg_genmove black", Starts("")),
        ("kgs-genmove_cleanup black", Starts("")),
        ("undo", Is("")),
        ("undo", Is("")),
        ("undo", Is("")),
        ("undo", Fails("cannot undo")),
        ("play black D4", Is("")),
        ("play white C3", Is("")),
        ("play black E5", Is("")),
        ("showboard", Starts("\n    A B C D E F G\n")),
        ("final_score", Starts("")),
        ("final_status_list alive", Is("E5 D4 C3")),
        ("final_status_list dead", Is("")),
        ("final_status_list seki", Is("")),
        ("final_status_list sleepy", Fails("syntax error")),
        (&printsgf, Is("")),
        ("printsgf", Starts("(;FF[4]")),
        ("printsgf a b", Fails("syntax error")),
        (&loadsgf, Is("black")),
        ("final_status_list alive", Is("D4 C3")),
        (
            "loadsgf /no/such/file.sgf",
            Fails("cannot read '/no/such/file.sgf'"),
        ),
        // Only regular files: /dev/zero would never end.
        (
            "loadsgf /dev/zero",
            Fails("cannot read '/dev/zero': not a regular file"),
        ),
        (
            "printsgf /dev/null",
            Fails("cannot write '/dev/null': not a regular file"),
        ),
        ("boardsize 9", Is("")),
        ("fixed_handicap 2", Is("C3 G7")),
        ("fixed_handicap 2", Fails("board not empty")),
        ("clear_board", Is("")),
        ("place_free_handicap 2", Is("C3 G7")),
        ("clear_board", Is("")),
        ("set_free_handicap A1 J9", Is("")),
        ("set_free_handicap A1", Fails("bad vertex list")),
        ("time_settings 300 30 5", Is("")),
        ("time_settings soon 30 5", Fails("syntax error")),
        ("kgs-time_settings byoyomi 300 30 5", Is("")),
        ("kgs-time_settings hourglass 3", Fails("syntax error")),
        ("time_left white 290 0", Is("")),
        ("time_left white", Fails("syntax error")),
        ("cputime", Starts("")),
        ("gogui-analyze_commands", Is("")),
        ("kgs-game_over", Is("")),
        ("toroid-rules", Starts("torus ")),
        ("toroid-game chess", Fails("unknown game 'chess'")),
        ("toroid-game ctor size=6", Is("")),
        ("toroid-legal", Starts("aa ba ca ")),
        ("toroid-play white aa", Fails("wrong colour")),
        ("toroid-play black aa", Is("")),
        (
            "toroid-play white aa",
            Fails("illegal move: the cell is occupied"),
        ),
        ("toroid-play white bb", Is("")),
        ("toroid-play white end", Is("")),
        ("toroid-genmove black", Starts("")),
        ("toroid-board", Starts("{\"board\":[\"b.....\",\".w....\"")),
        (
            "final_score",
            Fails("not available in ctor: only in capture-go and go"),
        ),
        ("quit", Is("")),
        ("protocol_version", Is("never answered")),
    ];
    let replies = session("random", &steps);
    let listed = replies
        .iter()
        .find_map(|r| r.strip_prefix("= protocol_version\n"))
        .expect("list_commands answered");
    for command in std::iter::once("protocol_version").chain(listed.lines()) {
        assert!(
            steps.iter().any(|(line, _)| {
                let mut words = line.split_whitespace();
                let first = words.next();
                let name = match first {
                    Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next(),
                    other => other,
                };
                name == Some(command)
            }),
            "the session never uses '{command}'"
        );
    }
}

#[test]
fn the_pie_rule_swap_is_a_move_at_move_2() {
    session(
        "random",
        &[
            ("toroid-game hex-torus width=4 height=4 swap=true", Is("")),
            ("toroid-play white swap", Fails("wrong colour")),
            (
                "toroid-play black swap",
                Fails("illegal move: 'swap' is only allowed at move 2"),
            ),
            ("toroid-play black bb", Is("")),
            (
                "toroid-legal",
                Is("aa ba ca da ab cb db ac bc cc dc ad bd cd dd swap"),
            ),
            ("toroid-play white swap", Is("")),
            ("toroid-board", Starts("{\"board\":[\"....\",\".w..\"")),
            (
                "toroid-play black swap",
                Fails("illegal move: 'swap' is only allowed"),
            ),
            ("toroid-game m-torus", Is("")),
            ("play black A1", Is("")),
            ("play white swap", Fails("illegal move")),
        ],
    );
}

#[test]
fn a_bad_level_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(["gtp", "--level", "godlike"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("toroid: unknown level 'godlike'"),
        "{stderr}"
    );
}

/// The processor seconds `toroid gtp --level casual [--ponder]` spends from before its first
/// move to a second after it, while the controller waits; the seconds from its move's reply
/// to the next reply (the engine ponders until its next command); and its replies.
fn seconds_across_a_wait(ponder: bool) -> (f64, f64, String) {
    use std::io::{BufRead, BufReader};
    let mut args = vec!["gtp", "--level", "casual", "--seed", "1"];
    if ponder {
        args.push("--ponder");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("toroid gtp starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |command: &str| {
        writeln!(stdin, "{command}").unwrap();
        let (mut reply, mut line) = (String::new(), String::new());
        while stdout.read_line(&mut line).unwrap() > 0 && line != "\n" {
            reply.push_str(&line);
            line.clear();
        }
        reply.trim_end().to_string()
    };
    let cpu = |reply: String| -> f64 { reply[2..].parse().unwrap() };
    let before = cpu(ask("cputime"));
    let mut replies = vec![ask("genmove b")];
    let waiting = std::time::Instant::now();
    std::thread::sleep(std::time::Duration::from_secs(1));
    let after = cpu(ask("cputime"));
    let waited = waiting.elapsed().as_secs_f64();
    replies.push(ask("play w E5"));
    replies.push(ask("genmove b"));
    replies.push(ask("quit"));
    assert!(child.wait().unwrap().success());
    (after - before, waited, replies.join(" | "))
}

#[test]
fn a_pondering_engine_thinks_while_the_controller_waits() {
    let (idle, _, replies) = seconds_across_a_wait(false);
    assert!(replies.starts_with("= "), "{replies}");
    let (pondering, waited, replies) = seconds_across_a_wait(true);
    // Its move, the opponent's, its next move and quit, all answered.
    let answers: Vec<&str> = replies.split(" | ").collect();
    assert_eq!(answers.len(), 4, "{replies}");
    assert!(answers.iter().all(|a| a.starts_with('=')), "{replies}");
    // Most of the waiting second went into the search of the opponent's move, on one thread
    // (casual has one): at most the wait, give or take 0.2 s between the two runs' first
    // moves (same seed, alike).
    let thought = pondering - idle;
    assert!(
        (waited / 2.0..=waited + 0.2).contains(&thought),
        "{pondering} s pondering, {idle} s without, over a wait of {waited} s"
    );
}

/// The GNU Go binary that scripts/test installs (Debian puts it in /usr/games).
fn gnugo() -> &'static str {
    ["/usr/games/gnugo", "/usr/bin/gnugo"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists())
        .expect("GNU Go is installed (scripts/test installs the gnugo package)")
}

/// What the GTP engine run by `command` answers to `final_status_list dead` after `setup`:
/// the points, upper case, sorted.
fn dead_list(command: &str, setup: &[String]) -> Vec<String> {
    use toroid_protocol::gtp::client::Client;
    let mut engine = Client::spawn(command, std::time::Duration::from_secs(60))
        .unwrap_or_else(|e| panic!("{command}: {e}"));
    for line in setup {
        engine
            .send(line)
            .unwrap_or_else(|e| panic!("{command}: {line}: {e}"));
    }
    let dead = engine.send("final_status_list dead").unwrap();
    let mut dead: Vec<String> = dead.split_whitespace().map(str::to_uppercase).collect();
    dead.sort();
    dead
}

fn house_bot() -> String {
    format!("{} gtp --level strong", env!("CARGO_BIN_EXE_toroid"))
}

/// At the end of a game, `final_status_list dead` of a house bot names the stones GNU Go
/// names: a white stone in black's area and a black one in white's, each in atari, while
/// both walls live; before the two passes that end the game and after them.
#[test]
fn dead_stones_agree_with_gnu_go() {
    let mut setup = vec!["boardsize 9".to_string(), "clear_board".into()];
    for row in 1..=9 {
        setup.push(format!("play black E{row}"));
        setup.push(format!("play white F{row}"));
    }
    for stone in ["black B8", "black C7", "black B6", "white B7"] {
        setup.push(format!("play {stone}"));
    }
    for stone in ["white H6", "white G5", "white H4", "black H5"] {
        setup.push(format!("play {stone}"));
    }
    let mut ended = setup.clone();
    ended.extend(["play white pass".into(), "play black pass".into()]);
    for setup in [setup, ended] {
        let theirs = dead_list(&format!("{} --mode gtp", gnugo()), &setup);
        assert_eq!(theirs, ["B7", "H5"], "GNU Go");
        assert_eq!(
            dead_list(&house_bot(), &setup),
            theirs,
            "toroid against GNU Go"
        );
    }
}

/// Finished games of `max` against GNU Go (`scripts/strength gnugo` and `gnugo-territory`),
/// each ended by two passes with dead stones on the board, loaded by both engines: the
/// house bot calls dead exactly the stones GNU Go calls dead.
#[test]
fn dead_stones_of_finished_games_agree_with_gnu_go() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/finished");
    let mut records: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    records.sort();
    assert_eq!(records.len(), 4);
    for record in records {
        let name = record.file_name().unwrap().to_string_lossy().into_owned();
        let rules = if name.starts_with("territory") {
            "--japanese-rules"
        } else {
            "--chinese-rules"
        };
        let setup = [format!("loadsgf {}", record.display())];
        let theirs = dead_list(&format!("{} --mode gtp {rules}", gnugo()), &setup);
        assert!(!theirs.is_empty(), "{name}: GNU Go finds dead stones");
        assert_eq!(dead_list(&house_bot(), &setup), theirs, "{name}");
    }
}

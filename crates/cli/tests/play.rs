//! `toroid play` driven through the real binary with scripted standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toroid"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the toroid binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Standard output of a session that must end with status 0 and nothing on standard error.
fn transcript(args: &[&str], input: &str) -> String {
    let out = play(args, input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "toroid play {args:?}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    String::from_utf8(out.stdout).unwrap()
}

const SMALL_HEX: [&str; 8] = [
    "hex-torus",
    "-p",
    "width=4",
    "-p",
    "height=4",
    "--level",
    "random",
    "--seed",
];

fn small_hex(seed: &str) -> Vec<&str> {
    let mut args = SMALL_HEX.to_vec();
    args.push(seed);
    args
}

#[test]
fn a_scripted_session_plays_refuses_undoes_and_quits() {
    let text = transcript(
        &small_hex("3"),
        "aa\nzz\nxyz\naa\nmoves\nundo\nundo\nhelp\nquit\n",
    );
    assert!(
        text.starts_with("hex-torus: you play black against the random bot (seed 3)"),
        "{text}"
    );
    // The first board has the ghost frame of the torus.
    assert!(text.contains("(outside the frame, lower case"), "{text}");
    assert!(text.contains("move 1 (black)> aa\n"), "{text}");
    // The bot replied and the board shows both stones with the reply marked.
    assert!(text.contains("white (random) plays "), "{text}");
    assert!(text.contains("move 3: black to move"), "{text}");
    assert!(text.contains(" a  , X"), "black's stone at aa: {text}");
    // A malformed move, an off-board move and an occupied cell: one line each, asked again.
    assert!(
        text.contains("move 3 (black)> zz\n'zz': off the board: x=25, y=25 on a 4×4 board"),
        "{text}"
    );
    assert!(text.contains("'xyz': not a move"), "{text}");
    assert!(
        text.contains(
            "move 3 (black)> aa\nillegal move 'aa': the cell is occupied\nmove 3 (black)> "
        ),
        "{text}"
    );
    // 16 cells less two stones.
    assert!(text.contains("legal moves (14): "), "{text}");
    assert!(text.contains("took back 2 moves\n"), "{text}");
    assert!(
        text.contains("move 1 (black)> undo\nnothing to undo\n"),
        "{text}"
    );
    assert!(
        text.contains("undo        take back your last move"),
        "{text}"
    );
    assert!(text.ends_with("move 1 (black)> quit\nleft the game unfinished after 0 moves\n"));
}

#[test]
fn undo_restores_the_position_before_the_persons_move() {
    let text = transcript(&small_hex("5"), "bb\nundo\nmoves\n");
    let legal: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("legal moves ("))
        .collect();
    assert_eq!(legal.len(), 1, "{text}");
    assert!(legal[0].ends_with("legal moves (16): aa ba ca da ab bb cb db ac bc cc dc ad bd cd dd"));
}

#[test]
fn the_end_of_the_input_ends_the_session_cleanly() {
    let text = transcript(&small_hex("1"), "");
    assert!(text.ends_with("move 1 (black)> \n"), "{text}");
    let text = transcript(&small_hex("1"), "cc");
    assert!(text.contains("move 1 (black)> cc\n"), "{text}");
}

#[test]
fn the_bot_moves_first_when_the_person_plays_white() {
    let text = transcript(
        &[
            "go", "-p", "size=3", "--color", "white", "--level", "random", "--seed", "1",
        ],
        "",
    );
    assert!(
        text.contains("you play white against the random bot"),
        "{text}"
    );
    assert!(text.contains("black (random) plays "), "{text}");
    assert!(text.contains("move 2 (white)> "), "{text}");
}

#[test]
fn the_result_is_printed_when_the_game_ends() {
    // The move limit of one move ends the game at the person's pass; komi wins it for white.
    let text = transcript(
        &[
            "go",
            "-p",
            "size=3",
            "-p",
            "max_moves=1",
            "--level",
            "random",
            "--seed",
            "1",
        ],
        "pass\nmoves\n",
    );
    assert!(
        text.contains("white wins by 7.5: the move limit was reached"),
        "{text}"
    );
    assert!(text.ends_with("game over: you lose\n"), "{text}");
    assert!(
        !text.contains("legal moves"),
        "input after the end is not read: {text}"
    );
}

#[test]
fn the_same_seed_gives_the_same_bot_replies() {
    let script = "aa\nbb\ncc\n";
    assert_eq!(
        transcript(&small_hex("9"), script),
        transcript(&small_hex("9"), script)
    );
}

#[test]
fn bad_setups_are_refused_with_one_line() {
    for args in [
        vec!["chess"],
        vec!["go", "--level", "grandmaster"],
        vec!["go", "-p", "size=99"],
        vec!["go", "--color", "red"],
    ] {
        let out = play(&args, "");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("toroid: "), "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

//! Differential test of `go` against GNU Go (`gnugo --mode gtp`, Debian package `gnugo`).
//!
//! Along random games on the plane, after every move, GNU Go's legal points for the player
//! to move (`all_legal`), its stones (`list_stones`) and its capture counts (`captures`)
//! must equal ours. GNU Go's defaults are our rules: suicide is forbidden (its
//! `--forbid-suicide` is the default) and its ko rule is simple ko through a ko point that
//! it sets exactly when a move captured one stone with a lone stone left with one liberty.
//! With `--positional-superko` it forbids every earlier board, as `ko=positional` does.
//! No difference had to be excluded.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::games::go::GO_PARAMS;
use toroid_rules::games::Go;
use toroid_rules::{Cell, Color, IllegalMove, Move, Params, Position};

/// GTP column letters: 'I' is skipped.
const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

fn gnugo_binary() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("gnugo"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "GNU Go is not installed: this differential test needs `gnugo` on the PATH or \
                 in /usr/games. Install the `gnugo` package (apt-get install gnugo); the \
                 project's test script installs it."
            )
        })
}

/// A GNU Go process spoken to in GTP.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(args: &[&str]) -> Gtp {
        let mut child = Command::new(gnugo_binary())
            .args(["--mode", "gtp", "--quiet"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("GNU Go starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            input,
            output,
        }
    }

    /// Sends the commands at once and returns the answers, in order.
    fn run(&mut self, commands: &[String]) -> Vec<String> {
        let text: String = commands.iter().map(|c| format!("{c}\n")).collect();
        self.input.write_all(text.as_bytes()).unwrap();
        self.input.flush().unwrap();
        commands
            .iter()
            .map(|command| {
                let mut answer = String::new();
                loop {
                    let mut line = String::new();
                    assert!(self.output.read_line(&mut line).unwrap() > 0, "GNU Go quit");
                    if line.trim().is_empty() && !answer.is_empty() {
                        break;
                    }
                    answer.push_str(&line);
                }
                let answer = answer.trim();
                assert!(
                    answer.starts_with('='),
                    "GNU Go refused '{command}': {answer}"
                );
                answer[1..].trim().to_string()
            })
            .collect()
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.input.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

fn vertex(g: &Go, c: Cell) -> String {
    let (x, y) = g.topology().xy(c);
    format!(
        "{}{}",
        COLUMNS.as_bytes()[x] as char,
        g.topology().height() - y
    )
}

fn cell_of(g: &Go, vertex: &str) -> Cell {
    let x = COLUMNS
        .find(vertex[..1].to_ascii_uppercase().as_str())
        .unwrap();
    let row: usize = vertex[1..].parse().unwrap();
    g.topology()
        .cell_at(x, g.topology().height() - row)
        .unwrap()
}

fn vertices(g: &Go, answer: &str) -> Vec<Cell> {
    let mut cells: Vec<Cell> = answer.split_whitespace().map(|v| cell_of(g, v)).collect();
    cells.sort();
    cells
}

fn name(c: Color) -> &'static str {
    c.name()
}

/// What the games went through, to show that the comparison saw the hard cases.
#[derive(Default, Debug)]
struct Seen {
    moves: usize,
    captures: usize,
    /// Empty points where the player to move may not play, by reason.
    suicide_points: usize,
    repetition_points: usize,
}

/// Plays one random game on both engines, comparing after every move.
fn compare_game(gtp: &mut Gtp, size: usize, ko: &str, seed: u64, seen: &mut Seen) {
    let params = Params::parse(GO_PARAMS, &[format!("size={size}"), format!("ko={ko}")]).unwrap();
    let mut g = Go::go(&params).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut commands = vec![format!("boardsize {size}"), "clear_board".to_string()];
    loop {
        let turn = g.turn();
        let mover = turn.unwrap_or(Color::Black);
        commands.extend([
            format!("all_legal {}", name(mover)),
            "list_stones black".to_string(),
            "list_stones white".to_string(),
            "captures black".to_string(),
            "captures white".to_string(),
        ]);
        let answers = gtp.run(&commands);
        let answers = &answers[answers.len() - 5..];
        let context = || format!("size {size}, ko {ko}, seed {seed}, after {} moves", g.ply());
        for (color, answer) in Color::BOTH.into_iter().zip(&answers[1..3]) {
            let ours: Vec<Cell> = g
                .topology()
                .cells()
                .filter(|&c| g.stone(c) == Some(color))
                .collect();
            assert_eq!(vertices(&g, answer), ours, "{color} stones, {}", context());
        }
        let captures: Vec<u32> = answers[3..].iter().map(|a| a.parse().unwrap()).collect();
        assert_eq!(captures, g.captures(), "captures, {}", context());
        if turn.is_none() {
            return;
        }
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        let placements: Vec<Cell> = legal.iter().filter_map(|m| m.cell()).collect();
        assert_eq!(
            vertices(&g, &answers[0]),
            placements,
            "legal points for {mover}, {}",
            context()
        );
        for c in g.topology().cells().filter(|&c| g.stone(c).is_none()) {
            match g.check(Move::Place(c)) {
                Err(IllegalMove::Suicide) => seen.suicide_points += 1,
                Err(IllegalMove::Ko | IllegalMove::Superko) => seen.repetition_points += 1,
                _ => {}
            }
        }

        let m = random_move(&g, &placements, &mut rng);
        let captured_before: u32 = g.captures().iter().sum();
        g.play(m).unwrap();
        seen.moves += 1;
        seen.captures += usize::from(g.captures().iter().sum::<u32>() > captured_before);
        commands = vec![format!(
            "play {} {}",
            name(mover),
            m.cell().map_or("pass".to_string(), |c| vertex(&g, c))
        )];
    }
}

/// Often a capture (so that kos arise), mostly points next to stones, now and then
/// anywhere, rarely a pass.
fn random_move(g: &Go, placements: &[Cell], rng: &mut Xoshiro256PlusPlus) -> Move {
    let taken: u32 = g.captures().iter().sum();
    let captures: Vec<Cell> = placements
        .iter()
        .copied()
        .filter(|&c| {
            let mut after = g.clone();
            after.play(Move::Place(c)).unwrap();
            after.captures().iter().sum::<u32>() > taken
        })
        .collect();
    let near: Vec<Cell> = placements
        .iter()
        .copied()
        .filter(|&c| g.topology().adjacent(c).any(|a| g.stone(a).is_some()))
        .collect();
    if placements.is_empty() || rng.random_bool(0.03) {
        Move::Pass
    } else if !captures.is_empty() && rng.random_bool(0.5) {
        Move::Place(*captures.choose(rng).unwrap())
    } else if !near.is_empty() && rng.random_bool(0.8) {
        Move::Place(*near.choose(rng).unwrap())
    } else {
        Move::Place(*placements.choose(rng).unwrap())
    }
}

#[test]
fn legal_points_and_boards_match_gnu_go() {
    let mut gtp = Gtp::start(&[]);
    let mut seen = Seen::default();
    let mut seed = 0;
    for (size, games) in [(5, 40), (7, 24), (9, 16)] {
        for _ in 0..games {
            seed += 1;
            compare_game(&mut gtp, size, "simple", seed, &mut seen);
        }
    }
    eprintln!("compared with GNU Go: {seen:?}");
    assert!(seen.moves > 8000, "{seen:?}");
    assert!(seen.captures > 1000, "{seen:?}");
    assert!(seen.repetition_points > 100, "{seen:?}");
    assert!(seen.suicide_points > 1000, "{seen:?}");
}

#[test]
fn positional_superko_matches_gnu_go() {
    let mut gtp = Gtp::start(&["--positional-superko"]);
    let mut seen = Seen::default();
    for seed in 0..30 {
        compare_game(&mut gtp, 5, "positional", 1000 + seed, &mut seen);
    }
    eprintln!("compared with GNU Go (positional superko): {seen:?}");
    assert!(seen.moves > 1500, "{seen:?}");
    assert!(seen.repetition_points > 30, "{seen:?}");
}

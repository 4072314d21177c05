//! An example GTP bot for every toroid rule set, in Rust. The rules come from the
//! `toroid-rules` library, so the bot needs no oracle; the GTP framing is written out with
//! the standard library, to show how little a bot needs.
//!
//! Its move: one that wins at once if there is one, else a random legal placement (`pass`
//! or `end` only when no placement is legal), from a seeded generator.
//!
//! ```sh
//! cargo build --release --example rust_bot     # target/release/examples/rust_bot
//! target/release/examples/rust_bot [--seed N]
//! ```
//!
//! docs/protocol.md ("Writing a bot") lists the commands a controller such as
//! `toroid match` sends.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid::seed::clock_seed;
use toroid_protocol::gtp::vertex::{move_vertex, parse_color, parse_move};
use toroid_rules::{AnyGame, Color, GameKind, Move, Position, UnknownGame};

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "toroid-game",
    "toroid-play",
    "toroid-genmove",
];

struct Bot {
    kind: GameKind,
    /// The game's `KEY=VALUE` parameters (the others at their defaults).
    settings: Vec<String>,
    game: AnyGame,
    rng: Xoshiro256PlusPlus,
}

type Answer = Result<String, String>;

impl Bot {
    /// Answers one command: `Ok` for `=`, `Err` for `?`.
    fn handle(&mut self, command: &str, args: &[&str]) -> Answer {
        match (command, args) {
            ("protocol_version", []) => Ok("2".into()),
            ("name", []) => Ok("toroid-rust-example".into()),
            ("version", []) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [name]) => Ok(COMMANDS.contains(name).to_string()),
            ("list_commands", []) => Ok(COMMANDS.join("\n")),
            ("quit", _) => Ok(String::new()),
            ("toroid-game", [name, settings @ ..]) => {
                let kind = name.parse().map_err(|e: UnknownGame| e.to_string())?;
                self.new_game(kind, settings.iter().map(|s| s.to_string()).collect())
            }
            ("boardsize", [size]) => {
                let settings = self.settings_with("size", size);
                self.new_game(self.kind, settings)
                    .map_err(|_| "unacceptable size".into())
            }
            ("clear_board", []) => self.new_game(self.kind, self.settings.clone()),
            // Only go counts komi; controllers send it before the first move.
            ("komi", [_]) if self.kind != GameKind::Go => Ok(String::new()),
            ("komi", [_]) if self.game.ply() > 0 => Err("komi is set before the first move".into()),
            ("komi", [komi]) => self.new_game(self.kind, self.settings_with("komi", komi)),
            ("play" | "toroid-play", [color, mv]) => self.play(color, mv),
            ("genmove" | "toroid-genmove", [color]) => self.genmove(color, command == "genmove"),
            _ if COMMANDS.contains(&command) => Err("syntax error".into()),
            _ => Err("unknown command".into()),
        }
    }

    /// Starts a new game, keeping the old one if the rules refuse the settings.
    fn new_game(&mut self, kind: GameKind, settings: Vec<String>) -> Answer {
        self.game = kind.new_game(&settings).map_err(|e| e.to_string())?;
        self.kind = kind;
        self.settings = settings;
        Ok(String::new())
    }

    fn settings_with(&self, key: &str, value: &str) -> Vec<String> {
        let prefix = format!("{key}=");
        let mut settings: Vec<String> = self
            .settings
            .iter()
            .filter(|s| !s.starts_with(&prefix))
            .cloned()
            .collect();
        settings.push(format!("{prefix}{value}"));
        settings
    }

    /// The opponent's move, in toroid notation or as a GTP vertex.
    fn play(&mut self, color: &str, mv: &str) -> Answer {
        let color = parse_color(color).ok_or("syntax error")?;
        let mv = parse_move(mv, self.game.topology()).ok_or("syntax error")?;
        if self.game.turn().is_some_and(|c| c != color) {
            return Err("wrong colour".into());
        }
        self.game
            .play(mv)
            .map_err(|e| format!("illegal move: {e}"))?;
        Ok(String::new())
    }

    /// The bot's own move, played and answered: as a GTP vertex for `genmove` in go and
    /// capture-go, else in toroid notation.
    fn genmove(&mut self, color: &str, vertex: bool) -> Answer {
        let color = parse_color(color).ok_or("syntax error")?;
        match self.game.turn() {
            None => return Err("game is over".into()),
            Some(c) if c != color => return Err("wrong colour".into()),
            Some(_) => {}
        }
        let mv = self.choose(color).ok_or("no legal move")?;
        self.game.play(mv).map_err(|e| e.to_string())?;
        let topology = self.game.topology();
        Ok(match self.kind {
            GameKind::Go | GameKind::CaptureGo if vertex => move_vertex(mv, topology),
            _ => mv.notation(topology).to_string(),
        })
    }

    /// A move that wins at once (one ply ahead), else a random placement, else `pass` or
    /// `end`.
    fn choose(&mut self, me: Color) -> Option<Move> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let wins = |mv: &Move| {
            let mut next = self.game.clone();
            next.play(*mv).is_ok() && next.outcome().is_some_and(|o| o.winner == Some(me))
        };
        if let Some(&mv) = moves.iter().find(|mv| wins(mv)) {
            return Some(mv);
        }
        let placements: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.cell().is_some())
            .collect();
        placements.choose(&mut self.rng).or(moves.first()).copied()
    }
}

/// `--seed N`, else a seed from the clock.
fn seed() -> Result<u64, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(clock_seed()),
        [flag, n] if flag == "--seed" => n.parse().map_err(|_| format!("bad seed '{n}'")),
        _ => Err("usage: rust_bot [--seed N]".into()),
    }
}

/// Answers GTP commands from standard input until `quit` or its end.
fn serve(bot: &mut Bot) -> io::Result<()> {
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        // GTP: control characters go, `#` starts a comment, a blank line gets no answer.
        let line: String = line
            .chars()
            .filter(|c| !c.is_control() || c.is_whitespace())
            .collect();
        let mut words: Vec<&str> = line
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let Some(first) = words.first() else { continue };
        let id = if first.bytes().all(|b| b.is_ascii_digit()) {
            words.remove(0)
        } else {
            ""
        };
        let answer = match words.split_first() {
            Some((command, args)) => bot.handle(command, args),
            None => Err("syntax error".into()),
        };
        let (status, text) = match answer {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        write!(out, "{status}{id} {text}\n\n")?;
        out.flush()?;
        if words.first() == Some(&"quit") {
            break;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let seed = match seed() {
        Ok(seed) => seed,
        Err(e) => {
            eprintln!("rust_bot: {e}");
            return ExitCode::from(2);
        }
    };
    let mut bot = Bot {
        kind: GameKind::Go,
        settings: Vec::new(),
        game: GameKind::Go.default_game(),
        rng: Xoshiro256PlusPlus::seed_from_u64(seed),
    };
    match serve(&mut bot) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rust_bot: {e}");
            ExitCode::FAILURE
        }
    }
}

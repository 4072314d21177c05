//! `toroid play`: a person plays a house bot in the terminal, one command per line on
//! standard input. Works the same when the input is a script: each line read is echoed
//! after its prompt, and the end of the input ends the session.

use std::io::{self, BufRead, IsTerminal, Write};

use toroid::arena::{Offence, Played};
use toroid::render::game_text;
use toroid::seed::clock_seed;
use toroid::setup::{new_game, parse_move};
use toroid_rules::{AnyGame, Bot, Color, Move, Outcome, Position};
use toroid_search::Level;

use super::Failure;

/// A colour as a command-line value.
#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    Black,
    White,
}

#[derive(clap::Args)]
pub struct Args {
    /// Rule set: torus, hex-torus, m-torus, ctor, capture-go or go.
    game: String,
    /// A parameter of the rule set (see `toroid games`); repeat for several.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// The bot's level: random, greedy, beginner, casual, strong, max, or zero on the rule
    /// sets with a network (docs/strength.md).
    #[arg(long, default_value = "casual")]
    level: String,
    /// Your colour (black moves first).
    #[arg(long, value_enum, default_value_t = Side::Black)]
    color: Side,
    /// The bot's seed (default: from the clock; it is printed so that a game can be repeated).
    #[arg(long)]
    seed: Option<u64>,
}

const HELP: &str = "\
commands:
  a move      a point like 'ee' (column, then row), 'pass', or 'end' (ends a CTOR turn)
  moves       list the legal moves (also 'legal')
  undo        take back your last move and the bot's reply
  board       draw the board again
  help        this text
  quit        leave the game (also 'exit'; the end of the input does the same)
";

pub fn run(args: Args) -> Result<(), Failure> {
    let game = new_game(&args.game, &args.params).map_err(Failure::usage)?;
    let level: Level = args.level.parse().map_err(Failure::usage)?;
    let level = level.for_game(game.kind()).map_err(Failure::usage)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let person = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let mut session = Session {
        game,
        history: Vec::new(),
        undo: Vec::new(),
        person,
        bot: level.bot(seed),
        bot_name: format!("{} ({level})", person.opponent()),
        forfeit: None,
    };
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}: you play {person} against the {level} bot (seed {seed}); type 'help' for the commands.\n",
        session.game.kind()
    )?;
    session.run(&mut stdin.lock(), &mut out, echo)?;
    Ok(())
}

/// What a line of input asks for once it is handled.
enum Next {
    /// Ask for another line; the position did not change.
    Ask,
    /// The position changed (or a redraw was asked for): let the bot move, draw the board.
    Draw,
    Quit,
}

struct Session {
    game: AnyGame,
    history: Vec<Move>,
    /// The game and the length of `history` before each of the person's moves.
    undo: Vec<(AnyGame, usize)>,
    person: Color,
    bot: Box<dyn Bot>,
    /// `white (casual)`.
    bot_name: String,
    /// Set when the bot chose an illegal move, which ends the game.
    forfeit: Option<Played>,
}

impl Session {
    fn run(
        &mut self,
        input: &mut impl BufRead,
        out: &mut impl Write,
        echo: bool,
    ) -> io::Result<()> {
        loop {
            self.bot_moves(out)?;
            write!(out, "{}", game_text(&self.game, &self.history))?;
            if let Some(ending) = self.ending() {
                return self.announce(ending, out);
            }
            loop {
                write!(out, "move {} ({})> ", self.game.ply() + 1, self.person)?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    return writeln!(out);
                }
                if echo {
                    writeln!(out, "{}", line.trim_end())?;
                }
                match self.command(line.trim(), out)? {
                    Next::Ask => {}
                    Next::Draw => {
                        writeln!(out)?;
                        break;
                    }
                    Next::Quit => {
                        return writeln!(
                            out,
                            "left the game unfinished after {} moves",
                            self.history.len()
                        );
                    }
                }
            }
        }
    }

    /// How the game ended, if it has.
    fn ending(&self) -> Option<Outcome> {
        (self.forfeit.as_ref().map(|played| played.ending)).or_else(|| self.game.outcome())
    }

    /// Lets the bot play until it is the person's turn or the game is over.
    fn bot_moves(&mut self, out: &mut impl Write) -> io::Result<()> {
        while self.ending().is_none() && self.game.turn() != Some(self.person) {
            let mv = self.bot.choose(&self.game, None);
            let name = mv.notation(self.game.topology()).to_string();
            match self.game.play(mv) {
                Ok(()) => {
                    self.history.push(mv);
                    writeln!(out, "{} plays {name}", self.bot_name)?;
                }
                Err(error) => {
                    let offence = Offence::IllegalMove {
                        attempted: mv,
                        error,
                    };
                    let (moves, offender) = (self.history.clone(), self.person.opponent());
                    self.forfeit = Some(Played::forfeit(moves, &self.game, offender, offence));
                }
            }
        }
        Ok(())
    }

    fn announce(&self, ending: Outcome, out: &mut impl Write) -> io::Result<()> {
        if let Some(played) = &self.forfeit {
            writeln!(out, "{}", played.describe())?;
        }
        let verdict = match ending.winner {
            None => "a draw",
            Some(color) if color == self.person => "you win",
            Some(_) => "you lose",
        };
        writeln!(out, "game over: {verdict}")
    }

    fn command(&mut self, line: &str, out: &mut impl Write) -> io::Result<Next> {
        match line {
            "" => Ok(Next::Ask),
            "help" | "?" => {
                write!(out, "{HELP}")?;
                Ok(Next::Ask)
            }
            "quit" | "exit" => Ok(Next::Quit),
            "board" => Ok(Next::Draw),
            "moves" | "legal" => {
                let mut legal = Vec::new();
                self.game.legal_moves(&mut legal);
                let names: Vec<String> = legal
                    .iter()
                    .map(|m| m.notation(self.game.topology()).to_string())
                    .collect();
                writeln!(out, "legal moves ({}): {}", names.len(), names.join(" "))?;
                Ok(Next::Ask)
            }
            "undo" => match self.undo.pop() {
                None => {
                    writeln!(out, "nothing to undo")?;
                    Ok(Next::Ask)
                }
                Some((game, length)) => {
                    let taken = self.history.len() - length;
                    self.game = game;
                    self.history.truncate(length);
                    let plural = if taken == 1 { "" } else { "s" };
                    writeln!(out, "took back {taken} move{plural}")?;
                    Ok(Next::Draw)
                }
            },
            text => {
                let mv = match parse_move(text, self.game.topology()) {
                    Ok(mv) => mv,
                    Err(why) => {
                        writeln!(out, "'{text}': {why}; type 'help' for the commands")?;
                        return Ok(Next::Ask);
                    }
                };
                let before = self.game.clone();
                match self.game.play(mv) {
                    Ok(()) => {
                        self.undo.push((before, self.history.len()));
                        self.history.push(mv);
                        Ok(Next::Draw)
                    }
                    Err(error) => {
                        writeln!(out, "illegal move '{text}': {error}")?;
                        Ok(Next::Ask)
                    }
                }
            }
        }
    }
}

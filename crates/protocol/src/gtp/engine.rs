//! The GTP engine: a game of any rule set, a bot, and the commands that drive them.
//!
//! Standard GTP commands work for every rule set; for `go` and `capture-go` they speak GTP
//! vertices (`D4`), for the other games toroid notation (`ee`). The `toroid-*` extension
//! chooses the rule set, lists legal moves and plays in toroid notation with strict colour
//! checks. `docs/protocol.md` documents every command.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use toroid_rules::Bot;
use toroid_rules::{
    AnyGame, Color, GameKind, IllegalMove, Move, ParamValue, Params, Position, SetupChange,
};

use crate::gtp::board::{diagram, json, speaks_vertices};
use crate::gtp::clock::{GtpClock, TimeSystem};
use crate::gtp::command::{Command, Response};
use crate::gtp::handicap::fixed_points;
use crate::gtp::vertex::{move_vertex, parse_color, parse_move};
use crate::record::Record;

/// Every command the engine knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
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
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "gogui-analyze_commands",
    "kgs-genmove_cleanup",
    "kgs-game_over",
    "kgs-rules",
    "loadsgf",
    "printsgf",
    "cputime",
    "toroid-game",
    "toroid-rules",
    "toroid-legal",
    "toroid-play",
    "toroid-genmove",
    "toroid-board",
];

const SYNTAX: &str = "syntax error";

/// The largest file `loadsgf` reads (docs/protocols.md): far more than any game record,
/// small enough that a wrong path cannot exhaust memory.
pub const MAX_SGF_FILE_BYTES: u64 = 4 << 20;

/// The bytes of the SGF file at `path`: a regular file (not a device, a pipe or a folder,
/// which could never end or block) of at most [`MAX_SGF_FILE_BYTES`].
fn read_sgf_file(path: &str) -> io::Result<Vec<u8>> {
    use std::io::{Error, Read};
    // `metadata` does not open the file: opening a pipe would wait for a writer.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(Error::other("not a regular file"));
    }
    let too_big = || Error::other(format!("larger than {MAX_SGF_FILE_BYTES} bytes"));
    if meta.len() > MAX_SGF_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    // The cap holds even if the file grows after it was measured.
    std::fs::File::open(path)?
        .take(MAX_SGF_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SGF_FILE_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Writes `text` to `path`, which must be a regular file or not exist yet.
fn write_sgf_file(path: &str, text: &str) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(io::Error::other("not a regular file")),
        _ => std::fs::write(path, text),
    }
}

/// A GTP engine for one game at a time.
pub struct Engine {
    kind: GameKind,
    /// The parameter values the game was set up with (derived defaults left for the rule
    /// set to work out again, so that `boardsize` changes Go's move limit with the board).
    params: Params,
    game: AnyGame,
    /// Stones set up before the first move (a handicap, or a loaded record's `AB`/`AW`),
    /// and who moves after them.
    setup: Vec<SetupChange>,
    setup_turn: Color,
    /// Every move since the setup, inserted passes included.
    moves: Vec<Move>,
    /// For each command `undo` can take back, the length of `moves` before it.
    undo_marks: Vec<usize>,
    bot: Box<dyn Bot>,
    clock: GtpClock,
    quit: bool,
    /// Whether the bot thinks on the opponent's time ([`Engine::pondering`]).
    ponder: bool,
    /// Whether the last command played the bot's move, so the opponent is thinking now.
    opponent_thinking: bool,
}

/// Why a move was refused.
enum Refusal {
    WrongColour,
    Illegal(IllegalMove),
}

fn number<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| SYNTAX.to_string())
}

/// A non-negative, finite number of seconds.
fn seconds(s: &str) -> Result<f64, String> {
    let value: f64 = number(s)?;
    if value.is_finite() {
        Ok(value.max(0.0))
    } else {
        Err(SYNTAX.into())
    }
}

fn color_arg(s: &str) -> Result<Color, String> {
    parse_color(s).ok_or_else(|| SYNTAX.to_string())
}

/// Exactly `n` arguments.
fn arity(args: &[String], n: usize) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err(SYNTAX.to_string())
    }
}

/// Refuses a standard Go command (scoring, handicap) in a rule set that is not Go-like.
fn go_only(kind: GameKind) -> Result<(), String> {
    if kind.rule_set().go_like {
        return Ok(());
    }
    let go_like: Vec<&str> = (GameKind::ALL.into_iter())
        .filter(|k| k.rule_set().go_like)
        .map(GameKind::name)
        .collect();
    Err(format!(
        "not available in {kind}: only in {}",
        go_like.join(" and ")
    ))
}

impl Engine {
    /// An engine playing the default rule set, `go`, at its defaults (9×9) with `bot`
    /// choosing its moves.
    pub fn new(bot: Box<dyn Bot>) -> Engine {
        Engine {
            kind: GameKind::default(),
            params: Params::defaults(GameKind::default().params()),
            game: GameKind::default().default_game(),
            setup: Vec::new(),
            setup_turn: Color::Black,
            moves: Vec::new(),
            undo_marks: Vec::new(),
            bot,
            clock: GtpClock::default(),
            quit: false,
            ponder: false,
            opponent_thinking: false,
        }
    }

    /// The same engine, its bot thinking on the opponent's time: after a `genmove` that
    /// played a move, [`Engine::run`] lets the bot search the position ([`Bot::ponder`])
    /// until the next command arrives, which it then answers as usual.
    pub fn pondering(mut self) -> Engine {
        self.ponder = true;
        self
    }

    /// The game as it stands.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Whether `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Answers one input line; `None` for lines that get no response (empty, comments).
    pub fn handle(&mut self, line: &str) -> Option<Response> {
        let command = Command::parse(line)?;
        self.opponent_thinking = false;
        let mut response = match self.execute(&command.name, &command.args) {
            Ok(text) => Response::success(text),
            Err(text) => Response::failure(text),
        };
        response.id = command.id;
        Some(response)
    }

    /// Reads commands from `input` and writes responses to `output` until `quit` or the
    /// end of the input.
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        // Bytes, not `lines()`: a line that is not UTF-8 is still a command to answer.
        let mut lines = input.split(b'\n');
        loop {
            let next = if self.ponder && self.opponent_thinking {
                self.ponder_while(|| lines.next())
            } else {
                lines.next()
            };
            let Some(line) = next else {
                break;
            };
            let line = String::from_utf8_lossy(&line?).into_owned();
            if let Some(response) = self.handle(&line) {
                output.write_all(response.to_string().as_bytes())?;
                output.flush()?;
            }
            if self.quit {
                break;
            }
        }
        Ok(())
    }

    /// Lets the bot ponder the current position on its own thread while `wait` runs (reads the
    /// next command), then stops it and waits for it to return.
    fn ponder_while<T>(&mut self, wait: impl FnOnce() -> T) -> T {
        let stop = Arc::new(AtomicBool::new(false));
        let (bot, game) = (&mut self.bot, &self.game);
        thread::scope(|scope| {
            let flag = Arc::clone(&stop);
            let thinker = scope.spawn(move || bot.ponder(game, flag));
            let waited = wait();
            stop.store(true, Ordering::Relaxed);
            if let Err(panic) = thinker.join() {
                std::panic::resume_unwind(panic);
            }
            waited
        })
    }

    fn execute(&mut self, name: &str, args: &[String]) -> Result<String, String> {
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("toroid".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                arity(args, 1)?;
                Ok(COMMANDS.contains(&args[0].as_str()).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.reset(self.kind, self.params.clone())?;
                Ok(String::new())
            }
            "komi" => self.komi(args),
            "kgs-rules" => self.kgs_rules(args),
            "play" => self.play(args, false),
            "toroid-play" => self.play(args, true),
            // KGS asks for a move that captures dead stones before scoring; every move of
            // this engine is played out to the end anyway.
            "genmove" | "kgs-genmove_cleanup" => self.genmove(args, true, false),
            "reg_genmove" => self.genmove(args, false, false),
            "toroid-genmove" => self.genmove(args, true, true),
            "undo" => self.undo(),
            "showboard" => Ok(diagram(&self.game)),
            "final_score" => self.final_score(),
            "final_status_list" => self.final_status_list(args),
            "fixed_handicap" => self.fixed_handicap(args),
            "place_free_handicap" => self.place_free_handicap(args),
            "set_free_handicap" => self.set_free_handicap(args),
            "time_settings" => self.time_settings(args),
            "kgs-time_settings" => self.kgs_time_settings(args),
            "time_left" => {
                arity(args, 3)?;
                let color = color_arg(&args[0])?;
                self.clock
                    .report(color, seconds(&args[1])?, number(&args[2])?);
                Ok(String::new())
            }
            "gogui-analyze_commands" | "kgs-game_over" => Ok(String::new()),
            "loadsgf" => self.loadsgf(args),
            "printsgf" => self.printsgf(args),
            "cputime" => Ok(format!("{:.3}", cpu_seconds())),
            "toroid-game" => self.choose_game(args),
            "toroid-rules" => Ok(rules_list()),
            "toroid-legal" => {
                let mut moves = Vec::new();
                self.game.legal_moves(&mut moves);
                let names: Vec<String> = moves
                    .iter()
                    .map(|m| m.notation(self.game.topology()).to_string())
                    .collect();
                Ok(names.join(" "))
            }
            "toroid-board" => Ok(json(&self.game)),
            "" => Err(SYNTAX.into()),
            _ => Err("unknown command".into()),
        }
    }

    /// Starts a new game of `kind` with `params`, keeping the old one if they are refused.
    fn reset(&mut self, kind: GameKind, params: Params) -> Result<(), String> {
        self.game = kind.start(&params).map_err(|e| e.to_string())?;
        self.kind = kind;
        self.params = params;
        self.setup.clear();
        self.setup_turn = Color::Black;
        self.moves.clear();
        self.undo_marks.clear();
        Ok(())
    }

    /// The parameter values with `pairs` assigned.
    fn params_with(&self, pairs: &[(&str, ParamValue)]) -> Result<Params, String> {
        let mut params = self.params.clone();
        for &(key, ref value) in pairs {
            params
                .assign(key, value.clone())
                .map_err(|e| e.to_string())?;
        }
        Ok(params)
    }

    /// The game of the current rule set and `params` with the setup stones placed and
    /// `moves` played.
    fn replay(&self, params: &Params, moves: &[Move]) -> Result<AnyGame, String> {
        let mut game = self.kind.start(params).map_err(|e| e.to_string())?;
        if !self.setup.is_empty() {
            game.setup(&self.setup, self.setup_turn)
                .map_err(|e| format!("cannot set the stones up: {e}"))?;
        }
        for &mv in moves {
            game.play(mv)
                .map_err(|e| format!("cannot replay the game: {e}"))?;
        }
        Ok(game)
    }

    fn boardsize(&mut self, args: &[String]) -> Result<String, String> {
        arity(args, 1)?;
        let size: u32 = number(&args[0])?;
        let pairs = (self.kind.rule_set().board)
            .assignments(size as usize, size as usize)
            .expect("a square board fits every rule set");
        let params = self.params_with(&pairs);
        (params.and_then(|params| self.reset(self.kind, params)))
            .map_err(|_| "unacceptable size".to_string())?;
        Ok(String::new())
    }

    fn komi(&mut self, args: &[String]) -> Result<String, String> {
        arity(args, 1)?;
        let komi: f64 = number(&args[0])?;
        if !komi.is_finite() {
            return Err(SYNTAX.into());
        }
        // Rule sets without komi accept it too (controllers always send it).
        if let Some(key) = self.kind.rule_set().komi {
            let params = self.params_with(&[(key, ParamValue::Float(komi))])?;
            self.game = self.replay(&params, &self.moves)?;
            self.params = params;
        }
        Ok(String::new())
    }

    /// KGS's `kgs-rules NAME` (`japanese`, `chinese`, `aga`, `new_zealand`, or any of the
    /// rule set's named rules): the scoring and ko rule those rules mean, for the game so
    /// far, which the bot then plays for.
    fn kgs_rules(&mut self, args: &[String]) -> Result<String, String> {
        arity(args, 1)?;
        let name = match args[0].as_str() {
            "new_zealand" => "NZ",
            name => name,
        };
        let named =
            (self.kind.rule_set().rules_named(name)).ok_or_else(|| "unknown rules".to_string())?;
        let pairs: Vec<_> = named.assignments().collect();
        let params = self.params_with(&pairs)?;
        self.game = self.replay(&params, &self.moves)?;
        self.params = params;
        Ok(String::new())
    }

    /// How a move is written in answers to standard commands.
    fn vertex(&self, mv: Move) -> String {
        if speaks_vertices(&self.game) {
            move_vertex(mv, self.game.topology())
        } else {
            mv.notation(self.game.topology()).to_string()
        }
    }

    /// `game` with `color` to move: unchanged if it is, after a pass for the other player if
    /// the rules allow one here and `strict` is off.
    fn bring_turn(&self, game: &mut AnyGame, color: Color, strict: bool) -> Result<(), Refusal> {
        match game.turn() {
            None => Err(Refusal::Illegal(IllegalMove::GameOver)),
            Some(c) if c == color => Ok(()),
            // GTP lets a controller play either colour at any time: where a pass is always
            // legal, the other player passes first.
            Some(_) if strict || !self.kind.rule_set().pass_always_legal => {
                Err(Refusal::WrongColour)
            }
            Some(_) => game.play(Move::Pass).map_err(Refusal::Illegal),
        }
    }

    /// Keeps `game`, reached from the current one by `played`, as one undo step.
    fn commit(&mut self, game: AnyGame, played: &[Move]) {
        self.undo_marks.push(self.moves.len());
        self.moves.extend_from_slice(played);
        self.game = game;
    }

    fn play(&mut self, args: &[String], strict: bool) -> Result<String, String> {
        arity(args, 2)?;
        let color = color_arg(&args[0])?;
        let topology = self.game.topology();
        let mv = if strict {
            Move::parse(&args[1], topology).ok()
        } else {
            parse_move(&args[1], topology)
        }
        .ok_or_else(|| SYNTAX.to_string())?;
        let mut game = self.game.clone();
        let ply = game.ply();
        let result = self
            .bring_turn(&mut game, color, strict)
            .and_then(|()| game.play(mv).map_err(Refusal::Illegal));
        match result {
            Ok(()) => {
                let mut played = Vec::new();
                if game.ply() - ply == 2 {
                    played.push(Move::Pass);
                }
                played.push(mv);
                self.commit(game, &played);
                Ok(String::new())
            }
            Err(Refusal::WrongColour) => Err("wrong colour".into()),
            Err(Refusal::Illegal(why)) if strict => Err(format!("illegal move: {why}")),
            Err(Refusal::Illegal(_)) => Err("illegal move".into()),
        }
    }

    /// `genmove` (plays the move), `reg_genmove` (does not), `toroid-genmove` (`strict`).
    fn genmove(&mut self, args: &[String], keep: bool, strict: bool) -> Result<String, String> {
        arity(args, 1)?;
        let color = color_arg(&args[0])?;
        let mut game = self.game.clone();
        let mut played = Vec::new();
        match self.bring_turn(&mut game, color, strict) {
            Ok(()) => {}
            Err(Refusal::WrongColour) => return Err("wrong colour".into()),
            // A Go engine passes once the game is over; nothing is played.
            Err(Refusal::Illegal(_)) if !strict && self.kind.rule_set().pass_always_legal => {
                return Ok("pass".into())
            }
            Err(Refusal::Illegal(_)) => return Err("game is over".into()),
        }
        if game.ply() != self.game.ply() {
            played.push(Move::Pass);
            if game.turn().is_none() {
                return Ok("pass".into());
            }
        }
        let mv = self.bot.choose(&game, self.clock.time_left(color));
        game.play(mv)
            .map_err(|e| format!("the bot chose an illegal move: {e}"))?;
        played.push(mv);
        let answer = if strict {
            mv.notation(game.topology()).to_string()
        } else {
            self.vertex(mv)
        };
        if keep {
            self.commit(game, &played);
            self.opponent_thinking = self.game.turn().is_some();
        }
        Ok(answer)
    }

    fn undo(&mut self) -> Result<String, String> {
        let mark = *self.undo_marks.last().ok_or("cannot undo")?;
        self.game = self.replay(&self.params, &self.moves[..mark])?;
        self.moves.truncate(mark);
        self.undo_marks.pop();
        Ok(String::new())
    }

    fn final_score(&self) -> Result<String, String> {
        go_only(self.kind)?;
        let [b, w] = match self.game.score() {
            Some(score) => score,
            None => self.game.captures().map(f64::from),
        };
        let margin = b - w;
        Ok(if margin > 0.0 {
            format!("B+{margin}")
        } else if margin < 0.0 {
            format!("W+{}", -margin)
        } else {
            "0".into()
        })
    }

    /// The stones that the bot judges alive or dead (`Bot::dead_stones`); no seki is told
    /// apart (those stones are alive).
    fn final_status_list(&mut self, args: &[String]) -> Result<String, String> {
        arity(args, 1)?;
        let wanted_dead = match args[0].as_str() {
            "alive" => false,
            "dead" => true,
            "seki" => return Ok(String::new()),
            _ => return Err(SYNTAX.into()),
        };
        let dead = self.bot.dead_stones(&self.game);
        let stones: Vec<String> = (self.game.topology().cells())
            .filter(|&c| self.game.stone(c).is_some() && dead.contains(&c) == wanted_dead)
            .map(|c| self.vertex(Move::Place(c)))
            .collect();
        Ok(stones.join(" "))
    }

    /// Places handicap stones on an empty board: black placements with white passes between
    /// them (the rules have no setup moves), leaving white to move. Not undoable.
    fn place_handicap(
        &mut self,
        stones: impl IntoIterator<Item = Option<Move>>,
    ) -> Result<Vec<Move>, String> {
        const REFUSED: &str = "cannot place the handicap stones";
        go_only(self.kind)?;
        if !self.moves.is_empty() || !self.setup.is_empty() {
            return Err("board not empty".into());
        }
        // Black "moves" while the stones are chosen, so that the bot chooses for black.
        let mut game = self.game.clone();
        let mut placed = Vec::new();
        for stone in stones {
            let mv = stone.unwrap_or_else(|| self.bot.choose(&game, None));
            let cell = mv.cell().ok_or(REFUSED)?;
            game.setup(&[(cell, Some(Color::Black))], Color::Black)
                .map_err(|_| REFUSED)?;
            placed.push(mv);
        }
        let changes: Vec<SetupChange> = placed
            .iter()
            .filter_map(|mv| Some((mv.cell()?, Some(Color::Black))))
            .collect();
        let mut game = self.game.clone();
        game.setup(&changes, Color::White).map_err(|_| REFUSED)?;
        self.game = game;
        self.setup = changes;
        self.setup_turn = Color::White;
        Ok(placed)
    }

    /// `loadsgf FILE [MOVE_NUMBER]`: the record's game, up to (not including) that move.
    /// Answers the colour to move, as GNU Go does.
    fn loadsgf(&mut self, args: &[String]) -> Result<String, String> {
        let (path, before) = match args {
            [path] => (path, None),
            [path, move_number] => (path, Some(number::<usize>(move_number)?.max(1))),
            _ => return Err(SYNTAX.into()),
        };
        let bytes = read_sgf_file(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        let record = Record::read(&String::from_utf8_lossy(&bytes))
            .map_err(|e| format!("cannot load '{path}': {e}"))?;
        let recorded = record.moves();
        let count = before.map_or(recorded.len(), |n| (n - 1).min(recorded.len()));
        let first_move_node = record.nodes().iter().position(|n| n.play.is_some());
        let setup = record.setup();
        if setup
            .iter()
            .any(|s| first_move_node.is_some_and(|first| s.node > first))
        {
            return Err(format!(
                "cannot load '{path}': it sets stones up after its first move"
            ));
        }
        let game = record
            .replay_moves(count)
            .map_err(|e| format!("cannot load '{path}': {e}"))?;
        self.kind = record.kind();
        self.params = record.params().clone();
        self.setup = setup.iter().map(|s| (s.cell, s.color)).collect();
        self.setup_turn = recorded.first().map_or(Color::Black, |&(color, _)| color);
        self.moves = recorded[..count].iter().map(|&(_, mv)| mv).collect();
        self.undo_marks.clear();
        self.game = game;
        Ok(self.game.turn().map_or("", Color::name).to_string())
    }

    /// `printsgf [FILE]`: the game as SGF, written to FILE or answered.
    fn printsgf(&mut self, args: &[String]) -> Result<String, String> {
        if args.len() > 1 {
            return Err(SYNTAX.into());
        }
        let record = self.record()?;
        let text = record.to_sgf();
        match args.first() {
            Some(path) => {
                write_sgf_file(path, &text).map_err(|e| format!("cannot write '{path}': {e}"))?;
                Ok(String::new())
            }
            // An SGF text holds no empty line that would end the response early.
            None => Ok(text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n")),
        }
    }

    /// The game as a record: its setup, its moves and, once over, its result.
    fn record(&self) -> Result<Record, String> {
        // The record starts the game itself, which resolves derived defaults.
        let mut record = Record::new(self.kind, &self.params).map_err(|e| e.to_string())?;
        record.set_up(&self.setup);
        let mut game = self.replay(&self.params, &[])?;
        for &mv in &self.moves {
            let color = game.turn().ok_or("the game is over")?;
            game.play(mv).map_err(|e| e.to_string())?;
            record.push_move(color, mv).map_err(|e| e.to_string())?;
        }
        record.result = game.outcome();
        Ok(record)
    }

    fn handicap_count(&self, args: &[String]) -> Result<usize, String> {
        arity(args, 1)?;
        let n: usize = number(&args[0])?;
        if n < 2 || n >= self.game.topology().len() {
            return Err("invalid number of stones".into());
        }
        Ok(n)
    }

    fn fixed_handicap(&mut self, args: &[String]) -> Result<String, String> {
        go_only(self.kind)?;
        let n = self.handicap_count(args)?;
        let topology = self.game.topology().clone();
        let points = fixed_points(topology.width(), n).ok_or("invalid number of stones")?;
        let stones = points
            .iter()
            .map(|&(x, y)| topology.cell_at(x, y).map(Move::Place));
        let placed = self.place_handicap(stones.collect::<Vec<_>>())?;
        Ok(self.vertices(&placed))
    }

    fn place_free_handicap(&mut self, args: &[String]) -> Result<String, String> {
        go_only(self.kind)?;
        let n = self.handicap_count(args)?;
        let topology = self.game.topology().clone();
        let width = topology.width();
        // The fixed points first, as far as they go; the bot chooses the rest.
        let fixed = (2..=n)
            .rev()
            .find_map(|k| fixed_points(width, k))
            .unwrap_or_default();
        let stones: Vec<Option<Move>> = (0..n)
            .map(|i| {
                fixed
                    .get(i)
                    .and_then(|&(x, y)| topology.cell_at(x, y).map(Move::Place))
            })
            .collect();
        let placed = self.place_handicap(stones)?;
        Ok(self.vertices(&placed))
    }

    fn set_free_handicap(&mut self, args: &[String]) -> Result<String, String> {
        go_only(self.kind)?;
        let topology = self.game.topology();
        let mut stones = Vec::new();
        for arg in args {
            let mv = parse_move(arg, topology)
                .filter(|m| m.cell().is_some())
                .ok_or_else(|| SYNTAX.to_string())?;
            if stones.contains(&Some(mv)) {
                return Err("bad vertex list".into());
            }
            stones.push(Some(mv));
        }
        if stones.len() < 2 || stones.len() >= topology.len() {
            return Err("bad vertex list".into());
        }
        self.place_handicap(stones)?;
        Ok(String::new())
    }

    fn vertices(&self, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|&m| self.vertex(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn time_settings(&mut self, args: &[String]) -> Result<String, String> {
        arity(args, 3)?;
        self.clock = GtpClock::standard(seconds(&args[0])?, seconds(&args[1])?, number(&args[2])?);
        Ok(String::new())
    }

    /// `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS |
    /// canadian MAIN PERIOD STONES`.
    fn kgs_time_settings(&mut self, args: &[String]) -> Result<String, String> {
        let system = args.first().map(String::as_str);
        self.clock = match (system, args.len()) {
            (Some("none"), 1) => GtpClock::default(),
            (Some("absolute"), 2) => GtpClock::with(TimeSystem::Limited {
                main: seconds(&args[1])?,
                period: 0.0,
                stones: 0,
            }),
            (Some("byoyomi"), 4) => {
                let _periods: u32 = number(&args[3])?;
                GtpClock::with(TimeSystem::Limited {
                    main: seconds(&args[1])?,
                    period: seconds(&args[2])?,
                    stones: 1,
                })
            }
            (Some("canadian"), 4) => {
                GtpClock::standard(seconds(&args[1])?, seconds(&args[2])?, number(&args[3])?)
            }
            _ => return Err(SYNTAX.into()),
        };
        Ok(String::new())
    }

    fn choose_game(&mut self, args: &[String]) -> Result<String, String> {
        let (name, settings) = args.split_first().ok_or_else(|| SYNTAX.to_string())?;
        let kind: GameKind = name
            .parse()
            .map_err(|e: toroid_rules::UnknownGame| e.to_string())?;
        let params = Params::parse(kind.params(), settings).map_err(|e| e.to_string())?;
        self.reset(kind, params)?;
        Ok(String::new())
    }
}

/// `toroid-rules`: one line per rule set, its name and every parameter at its default.
fn rules_list() -> String {
    GameKind::ALL
        .iter()
        .map(|kind| {
            let game = kind.default_game();
            let params: Vec<String> = game
                .params()
                .iter()
                .filter_map(|(name, value)| value.map(|v| format!("{name}={v}")))
                .collect();
            format!("{kind} {}", params.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The processor time this process has used, in seconds (0 where it cannot be read).
#[allow(unsafe_code)] // A system call with no safe wrapper in the standard library.
fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec, which `time` is.
        if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) } == 0 {
            return time.tv_sec as f64 + time.tv_nsec as f64 / 1e9;
        }
    }
    0.0
}

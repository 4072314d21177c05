//! The subcommands, and how their failures reach the user: one line on standard error.

pub mod admin;
pub mod backup;
pub mod bench;
pub mod bridge;
pub mod config_file;
pub mod games;
pub mod gtp;
pub mod match_;
pub mod patterns;
pub mod play;
pub mod replay;
pub mod serve;
pub mod topology;
pub mod tournament;
pub mod train;

use std::fmt::Display;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::error::ErrorKind;
use toroid_protocol::record::Record;

/// Ctrl-C or a termination signal would end the program without dropping the engines'
/// clients, and engines run in process groups of their own that the terminal's signal does
/// not reach: kill them before leaving.
pub fn kill_engines_on_interrupt() {
    // Fails only when a handler is already set, which then does the same.
    let _ = ctrlc::set_handler(|| {
        toroid_protocol::gtp::kill_all_engines();
        std::process::exit(130);
    });
}

/// Why a command stopped.
pub enum Failure {
    /// Bad input (game, parameter, move, flag): exit status 2.
    Usage(String),
    /// Output could not be written: exit status 1, or quietly 0 when the reader went away.
    Output(io::Error),
    /// Clap's help or version text, printed as clap formats it.
    Clap(clap::Error),
}

impl Failure {
    pub fn usage(message: impl Display) -> Failure {
        Failure::Usage(message.to_string())
    }

    /// Help and version requests stay as clap prints them; every other clap error becomes
    /// one line (clap's own message runs to its first blank line, usage hints follow).
    pub fn from_clap(error: clap::Error) -> Failure {
        match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Failure::Clap(error),
            _ => {
                let text = error.render().to_string();
                let message: Vec<&str> = text
                    .lines()
                    .take_while(|l| !l.trim().is_empty())
                    .map(str::trim)
                    .collect();
                let message = message.join(" ");
                let message = message.strip_prefix("error: ").unwrap_or(&message);
                Failure::Usage(format!("{message} (see 'toroid --help')"))
            }
        }
    }

    pub fn report(self) -> ExitCode {
        match self {
            Failure::Usage(message) => {
                eprintln!("toroid: {}", one_line(&message));
                ExitCode::from(2)
            }
            Failure::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Failure::Output(e) => {
                eprintln!("toroid: cannot write the output: {e}");
                ExitCode::from(1)
            }
            Failure::Clap(e) => {
                let _ = e.print();
                ExitCode::from(e.exit_code().clamp(0, 255) as u8)
            }
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

/// `message` with control characters (a newline in a move given on the command line)
/// escaped, so that an error is always exactly one line.
fn one_line(message: &str) -> String {
    let mut line = String::with_capacity(message.len());
    for c in message.chars() {
        if c.is_control() {
            line.extend(c.escape_default());
        } else {
            line.push(c);
        }
    }
    line
}

/// Writes `text` to standard output.
pub fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes `value` to standard output as one line of JSON.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), Failure> {
    let mut text = serde_json::to_string(value).map_err(io::Error::from)?;
    text.push('\n');
    print(&text)
}

/// Reads a game record, SGF or JSON.
pub fn read_record(path: &Path) -> Result<Record, Failure> {
    let bytes = fs::read(path)
        .map_err(|e| Failure::usage(format!("cannot read '{}': {e}", path.display())))?;
    // SGF files in old encodings still hold ASCII moves; their odd bytes are in comments.
    let text = String::from_utf8_lossy(&bytes);
    Record::read(&text).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))
}

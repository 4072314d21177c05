//! A GTP client: runs an external engine as a child process and exchanges commands and
//! responses with it, each within a time limit.
//!
//! A thread reads the child's standard output into a channel so that a response can be
//! awaited with a timeout. The child is killed when the client is dropped, and also after a
//! timeout (its answers could no longer be matched to commands).
//!
//! On Unix every engine runs in a process group of its own and the whole group is killed,
//! so an engine that is a script starting other programs leaves nothing behind. Because a
//! group of its own no longer hears the terminal's Ctrl-C, the groups of running engines
//! are listed, and [`kill_all_engines`] kills them from a program's signal handler.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

/// What went wrong talking to an engine.
#[derive(Debug, Error)]
pub enum ClientError {
    #[error("cannot start '{command}': {reason}")]
    Spawn { command: String, reason: String },
    #[error("no answer to '{command}' within {timeout:?}")]
    Timeout { command: String, timeout: Duration },
    #[error("the engine stopped ({status}) while answering '{command}'")]
    Crashed { command: String, status: String },
    #[error("malformed answer to '{command}': {line:?}")]
    Malformed { command: String, line: String },
    #[error("the engine refused '{command}': {message}")]
    Refused { command: String, message: String },
}

/// The process groups of the engines running now.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Kills every engine started by [`Client::spawn`] that still runs, with all the processes
/// it started: for a signal handler that is about to end the program.
pub fn kill_all_engines() {
    let groups = RUNNING.lock().map(|g| g.clone()).unwrap_or_default();
    for group in groups {
        kill_group(group);
    }
}

/// Sends SIGKILL to process group `group` (a no-op where there are no process groups).
#[allow(unsafe_code)] // A system call with no safe wrapper in the standard library.
fn kill_group(group: u32) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(group) {
        // SAFETY: kill(2) with a negative pid signals a process group; it touches no memory.
        // The group is the engine's own, made by `process_group(0)` at spawn.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// Splits a command line into words the way a shell would for simple cases: white space
/// separates words, `'...'` is literal, `"..."` allows `\"` and `\\`, and a backslash
/// outside quotes escapes the next character. No expansion of any kind.
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated ' quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unterminated \" quote".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated \" quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next().ok_or("a backslash ends the line")?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A running external GTP engine.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<io::Result<String>>,
    timeout: Duration,
    /// Set once the engine has failed: every later command fails the same way.
    dead: Option<String>,
}

impl Client {
    /// Starts `command_line` (split by [`split_command_line`], run without a shell); each
    /// command must be answered within `timeout`. The engine's standard error is discarded.
    pub fn spawn(command_line: &str, timeout: Duration) -> Result<Client, ClientError> {
        let spawn_error = |reason: String| ClientError::Spawn {
            command: command_line.to_string(),
            reason,
        };
        let words = split_command_line(command_line).map_err(spawn_error)?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| spawn_error("empty command line".into()))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| spawn_error(e.to_string()))?;
        if let Ok(mut running) = RUNNING.lock() {
            running.push(child.id());
        }
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        Ok(Client {
            stdin: child.stdin.take(),
            child,
            lines,
            timeout,
            dead: None,
        })
    }

    /// The operating system's id of the engine process.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Changes the time each later command may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Sends one command (without id) and returns the text of a `=` response; a `?`
    /// response is [`ClientError::Refused`].
    pub fn send(&mut self, command: &str) -> Result<String, ClientError> {
        if let Some(status) = &self.dead {
            return Err(ClientError::Crashed {
                command: command.to_string(),
                status: status.clone(),
            });
        }
        let result = self.exchange(command);
        if let Err(e) = &result {
            if !matches!(e, ClientError::Refused { .. }) {
                self.dead = Some(self.stop());
            }
        }
        result
    }

    fn exchange(&mut self, command: &str) -> Result<String, ClientError> {
        let crashed = |client: &mut Client| ClientError::Crashed {
            command: command.to_string(),
            status: client.stop(),
        };
        let written = self.stdin.as_mut().map_or(Err(()), |stdin| {
            writeln!(stdin, "{command}")
                .and_then(|()| stdin.flush())
                .map_err(|_| ())
        });
        if written.is_err() {
            return Err(crashed(self));
        }
        let deadline = Instant::now() + self.timeout;
        let mut first: Option<String> = None;
        let mut body = Vec::new();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(wait) {
                Ok(Ok(line)) => line.trim_end_matches('\r').to_string(),
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Err(crashed(self)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ClientError::Timeout {
                        command: command.to_string(),
                        timeout: self.timeout,
                    })
                }
            };
            match &first {
                // Blank lines before a response are tolerated; the empty line after ends it.
                None if line.trim().is_empty() => {}
                None if line.starts_with(['=', '?']) => first = Some(line),
                None => {
                    return Err(ClientError::Malformed {
                        command: command.to_string(),
                        line,
                    })
                }
                Some(_) if line.is_empty() => break,
                Some(_) => body.push(line),
            }
        }
        let first = first.expect("the loop ends only after the first line");
        let success = first.starts_with('=');
        let rest = &first[1..];
        // No id is sent, so none may come back: the text starts after a space, or at once.
        let text = rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim();
        let mut text = text.to_string();
        for line in body {
            text.push('\n');
            text.push_str(&line);
        }
        if success {
            Ok(text)
        } else {
            Err(ClientError::Refused {
                command: command.to_string(),
                message: text,
            })
        }
    }

    /// Asks the engine to quit, giving it `grace` to answer, then stops it.
    pub fn quit(mut self, grace: Duration) {
        self.timeout = grace;
        let _ = self.send("quit");
    }

    /// Kills the engine (if it still runs) with every process it started, and says how it
    /// ended.
    fn stop(&mut self) -> String {
        self.stdin = None;
        // The group goes first: once the engine is reaped its id could be reused.
        kill_group(self.child.id());
        let _ = self.child.kill();
        let status = self
            .child
            .wait()
            .map_or_else(|e| e.to_string(), |s: ExitStatus| s.to_string());
        if let Ok(mut running) = RUNNING.lock() {
            running.retain(|&group| group != self.child.id());
        }
        status
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if self.dead.is_none() {
            self.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let split = |s| split_command_line(s).unwrap();
        assert_eq!(
            split("gnugo --mode gtp --level 10"),
            ["gnugo", "--mode", "gtp", "--level", "10"]
        );
        assert_eq!(
            split("  a  'b c' \"d \\\" e\" f\\ g ''"),
            ["a", "b c", "d \" e", "f g", ""]
        );
        assert_eq!(split("x'y'\"z\""), ["xyz"]);
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("a \\").is_err());
        assert!(split("").is_empty());
    }
}

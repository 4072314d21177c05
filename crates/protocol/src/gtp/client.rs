//! A GTP client: runs an external engine as a child process and exchanges commands and
//! responses with it, each within a time limit.
//!
//! A thread reads the child's standard output into a channel so that a response can be
//! awaited with a timeout. The child is killed when the client is dropped, and also after a
//! timeout (its answers could no longer be matched to commands).

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
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
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| spawn_error(e.to_string()))?;
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

    /// Kills the engine (if it still runs) and says how it ended.
    fn stop(&mut self) -> String {
        self.stdin = None;
        let _ = self.child.kill();
        self.child
            .wait()
            .map_or_else(|e| e.to_string(), |s: ExitStatus| s.to_string())
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

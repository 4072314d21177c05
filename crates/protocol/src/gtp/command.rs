//! GTP framing: one input line into a [`Command`], a [`Response`] into its text.
//!
//! Preprocessing follows GTP 2 §2.4: control characters other than tab and newline are
//! removed, tabs become spaces, everything after `#` is a comment, and a line left with
//! only white space is ignored (no response).

use std::fmt;

/// A command line: an optional numeric id, the command name and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id as written (digits only), echoed in the response.
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

impl Command {
    /// Parses one line; `None` for lines that get no response (empty, comment only).
    /// A line holding only an id is a command with an empty name.
    pub fn parse(line: &str) -> Option<Command> {
        let cleaned: String = line
            .chars()
            .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
            .map(|c| if c == '\t' || c == '\n' { ' ' } else { c })
            .collect();
        let content = cleaned.split('#').next().unwrap_or("");
        let mut words = content.split(' ').filter(|w| !w.is_empty());
        let first = words.next()?;
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (Some(first.to_string()), words.next().unwrap_or(""))
        } else {
            (None, first)
        };
        Some(Command {
            id,
            name: name.to_string(),
            args: words.map(str::to_string).collect(),
        })
    }
}

/// An answer: success (`=`) or failure (`?`) with its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub id: Option<String>,
    pub success: bool,
    pub text: String,
}

impl Response {
    pub fn success(text: impl Into<String>) -> Response {
        Response {
            id: None,
            success: true,
            text: text.into(),
        }
    }

    pub fn failure(text: impl Into<String>) -> Response {
        Response {
            id: None,
            success: false,
            text: text.into(),
        }
    }
}

/// The wire form: `=id text` or `?id text`, then an empty line. Like GNU Go, a space always
/// follows the status and id, so an empty success is `= ` and a multi-line text (a board)
/// starts on the first line.
impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = if self.success { '=' } else { '?' };
        let id = self.id.as_deref().unwrap_or("");
        write!(f, "{status}{id} {}\n\n", self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_follows_the_spec() {
        assert_eq!(Command::parse(""), None);
        assert_eq!(Command::parse("   \t "), None);
        assert_eq!(Command::parse("# just a comment"), None);
        let c = Command::parse("12\tplay  black\x07 D4 # comment\r\n").unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["black", "D4"]);
        let c = Command::parse("7").unwrap();
        assert_eq!((c.id.as_deref(), c.name.as_str()), (Some("7"), ""));
    }

    #[test]
    fn responses_end_with_an_empty_line() {
        let mut r = Response::success("2");
        r.id = Some("3".into());
        assert_eq!(r.to_string(), "=3 2\n\n");
        assert_eq!(
            Response::failure("illegal move").to_string(),
            "? illegal move\n\n"
        );
        assert_eq!(Response::success("").to_string(), "= \n\n");
    }
}

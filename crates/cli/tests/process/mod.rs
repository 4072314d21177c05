//! `toroid serve` as a process on loopback, for the tests that drive the binary.
#![allow(dead_code)] // Each test binary uses its own part of it.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A `toroid serve` process on a free port, and its address.
pub struct Serve {
    child: Child,
    pub base: String,
}

impl Serve {
    pub fn start(data: &Path) -> Serve {
        Serve::start_with(data, &[])
    }

    /// A server started with `options` besides its port and data directory.
    pub fn start_with(data: &Path, options: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toroid"))
            .args(["serve", "--port", "0", "--data"])
            .arg(data)
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("toroid serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "toroid: serving on http://127.0.0.1:PORT/ (data in ...)"
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Serve { child, base }
    }

    /// SIGKILL: no chance to clean up.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

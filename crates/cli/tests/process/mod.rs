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
        Serve::spawn(data, options, Stdio::null())
    }

    /// A server whose log (stderr) goes to the file `log`.
    pub fn start_logged(data: &Path, log: &Path) -> Serve {
        Serve::start_logged_with(data, &[], log)
    }

    /// A server started with `options`, its log (stderr) going to the file `log`.
    pub fn start_logged_with(data: &Path, options: &[&str], log: &Path) -> Serve {
        let log = std::fs::File::create(log).expect("the log file opens");
        Serve::spawn(data, options, Stdio::from(log))
    }

    fn spawn(data: &Path, options: &[&str], log: Stdio) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toroid"))
            .args(["serve", "--port", "0", "--data"])
            .arg(data)
            .args(options)
            .stdout(Stdio::piped())
            .stderr(log)
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

    /// A server that must refuse to start on `data`: its exit status, its error output,
    /// and how long it took to give up (killed after 60 s).
    pub fn refused(data: &Path) -> (std::process::ExitStatus, String, std::time::Duration) {
        Serve::refused_with(data, &[])
    }

    /// [`Serve::refused`], with more `options`.
    pub fn refused_with(
        data: &Path,
        options: &[&str],
    ) -> (std::process::ExitStatus, String, std::time::Duration) {
        let started = std::time::Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_toroid"))
            .args(["serve", "--port", "0", "--data"])
            .arg(data)
            .args(options)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("toroid serve starts");
        let deadline = started + std::time::Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = child.kill();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status, stderr, started.elapsed())
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The processor time the process has used so far (user and system, from /proc).
    pub fn cpu_time(&self) -> std::time::Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid()))
            .expect("/proc/PID/stat is readable");
        // The fields after the command name, which is in parentheses: utime and stime are
        // the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        std::time::Duration::from_millis(ticks * 10)
    }

    /// SIGTERM, as a service manager stops it: a clean stop.
    pub fn stop(mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        self.child.wait().unwrap();
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

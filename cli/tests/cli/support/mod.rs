//! Shared by the CLI tests: running the real binary; and, from the
//! workspace's test support, a loopback HTTP server that records every
//! request and sample inputs and bodies derived from the operation table, so
//! a new action of the spec is covered with no edit here.

#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::Value;

/// The key the tests pass; it must never be printed.
pub const KEY: &str = "SECRET-CLI-KEY-991";

/// The CLI's outcome.
#[derive(Debug)]
pub struct Run {
    /// Exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Assert the exit code, showing the output when it differs.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit code\nstdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self
    }

    /// Assert that the key appears nowhere in the output.
    #[track_caller]
    pub fn expect_no_key(&self) -> &Self {
        assert!(
            !self.stdout.contains(KEY) && !self.stderr.contains(KEY),
            "the key was printed\nstdout: {}\nstderr: {}",
            self.stdout,
            self.stderr
        );
        self
    }

    /// The standard output as JSON.
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

/// Run the binary with these arguments and a clean environment for its own
/// variables.
pub fn run<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    run_with_env(args, &[])
}

/// Run the binary with these arguments and these environment variables.
pub fn run_with_env<I, S>(args: I, env: &[(&str, &str)]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut command = binary();
    command.args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the binary runs");
    Run {
        code: status.code().expect("exited, not killed"),
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// The binary, with a clean environment for its own variables, and no store
/// unless a test names one: the tests count what reaches their servers (a
/// cache would answer repeated calls), and must not write to the user's data
/// directory.
pub fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_seozoom"));
    command
        .env_remove("SEOZOOM_API_KEY")
        .env_remove("SEOZOOM_BASE_URL")
        .env_remove("SEOZOOM_RATE_WINDOW")
        .env_remove("RUST_LOG")
        .env("SEOZOOM_STORE", "none")
        // Tables fit the terminal's width: none unless a test sets one.
        .env_remove("COLUMNS");
    command
}

/// A sandbox on loopback started from `builder` (the sandbox serves on its own
/// threads), for a run of the binary to call and for the test to count its
/// requests.
pub fn start_sandbox(builder: seozoom::sandbox::SandboxBuilder) -> seozoom::sandbox::Sandbox {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(builder.start())
        .unwrap()
}

pub use seozoom_test_support::table_samples::*;
pub use seozoom_test_support::{Seen, Server, closed_port_url};

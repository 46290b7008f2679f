//! The `seozoom` command of the wheel: the command line's library
//! (`seozoom_cli::run`, what the Rust binary's `main` calls), so the Python
//! package installs the same CLI, sandbox and MCP server, with the same
//! arguments, output and exit codes, without a second program or a Rust
//! toolchain. `seozoom/_command.py` is the console script that calls it.

use std::ffi::OsString;

use pyo3::prelude::*;

/// Runs the command line `args` (the program's name first) with the GIL
/// released, and returns its exit code.
#[pyfunction]
pub fn run_command_line(py: Python<'_>, args: Vec<OsString>) -> u8 {
    py.detach(|| seozoom_cli::run(args))
}

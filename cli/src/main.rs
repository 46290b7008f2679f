//! The `seozoom` binary: the command line of the SEOZoom API v2, all of it in
//! the `seozoom_cli` library ([`seozoom_cli::run`]), which the Python package's
//! `seozoom` command runs too.

#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(seozoom_cli::run(std::env::args_os()))
}

//! `seozoom-codegen [SPEC]`: print the code generated from a spec, for review.
//!
//! With no argument it reads `spec/seozoom-v2.toml`. On a bad spec it prints every
//! located error to stderr and exits with status 1.

use std::path::PathBuf;
use std::process::ExitCode;

const DEFAULT_SPEC: &str = "spec/seozoom-v2.toml";

fn main() -> ExitCode {
    let path = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from(DEFAULT_SPEC), PathBuf::from);
    match seozoom_codegen::generate_file(&path) {
        Ok(code) => {
            print!("{code}");
            ExitCode::SUCCESS
        }
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            ExitCode::FAILURE
        }
    }
}

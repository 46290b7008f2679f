//! `seozoom-codegen publish [--check] [--out DIR] [SPEC]`: write the published
//! files, or check that they are what the spec gives. The writing and checking
//! are shared with `seozoom-codegen python` (`python_surface.rs`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Files;
use crate::spec_file::{DEFAULT_SPEC, load};

/// Writes the spec for other languages (canonical JSON, JSON Schemas, OpenAPI
/// 3.1 and 3.0.3), or with `--check` writes nothing and fails when the files are
/// not exactly what the spec gives.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write nothing; exit with status 1 when the files are stale.
    #[arg(long)]
    check: bool,
    /// Where the files go.
    #[arg(long, value_name = "DIR", default_value = "spec/published")]
    out: PathBuf,
    /// The spec.
    #[arg(value_name = "SPEC", default_value = DEFAULT_SPEC)]
    spec: PathBuf,
}

/// Runs `publish`; status 1 when the spec cannot be read, is invalid, or (with
/// `--check`) the files are stale.
pub fn run(args: &Args) -> ExitCode {
    let Some((text, spec)) = load(&args.spec) else {
        return ExitCode::FAILURE;
    };
    match super::files(&text, &spec) {
        Ok(files) => write_or_check(&args.out, &files, args.check, "publish", true),
        Err(err) => {
            eprintln!("{}: error: {err}", args.spec.display());
            ExitCode::FAILURE
        }
    }
}

/// Writes `files` under `out`, or with `check` writes nothing and fails
/// (status 1) when they differ from what is there; `strays`: a file under
/// `out` that is not generated is stale too. `command` is the subcommand that
/// writes them, for the message.
pub fn write_or_check(
    out: &Path,
    files: &Files,
    check: bool,
    command: &str,
    strays: bool,
) -> ExitCode {
    if check {
        let problems = super::stale(out, files, strays);
        if problems.is_empty() {
            println!("{}: {} files, up to date", out.display(), files.len());
            return ExitCode::SUCCESS;
        }
        eprintln!(
            "{} is stale; run `cargo run -p seozoom-codegen -- {command}` and commit the result:",
            out.display()
        );
        for problem in problems {
            eprintln!("  {problem}");
        }
        return ExitCode::FAILURE;
    }
    match super::write(out, files) {
        Ok(()) => {
            println!("wrote {} files to {}", files.len(), out.display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("cannot write {}: {err}", out.display());
            ExitCode::FAILURE
        }
    }
}

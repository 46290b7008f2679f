//! `seozoom-codegen publish [--check] [--out DIR] [SPEC]`: write the published
//! files, or check that they are what the spec gives.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Files;

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
    #[arg(value_name = "SPEC", default_value = crate::DEFAULT_SPEC)]
    spec: PathBuf,
}

/// Runs `publish`; status 1 when the spec cannot be read, is invalid, or (with
/// `--check`) the files are stale.
pub fn run(args: &Args) -> ExitCode {
    let name = args.spec.display().to_string();
    let text = match std::fs::read_to_string(&args.spec) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("{name}: error: cannot read the spec: {err}");
            return ExitCode::FAILURE;
        }
    };
    let spec = match seozoom_codegen::load_str(&name, &text) {
        Ok(spec) => spec,
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            return ExitCode::FAILURE;
        }
    };
    let files = match super::files(&text, &spec) {
        Ok(files) => files,
        Err(err) => {
            eprintln!("{name}: error: {err}");
            return ExitCode::FAILURE;
        }
    };
    if args.check {
        return check(&args.out, &files);
    }
    match super::write(&args.out, &files) {
        Ok(()) => {
            println!("wrote {} files to {}", files.len(), args.out.display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("cannot write {}: {err}", args.out.display());
            ExitCode::FAILURE
        }
    }
}

fn check(out: &Path, files: &Files) -> ExitCode {
    let problems = super::stale(out, files);
    if problems.is_empty() {
        println!("{}: {} files, up to date", out.display(), files.len());
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "{} is stale; run `cargo run -p seozoom-codegen -- publish` and commit the result:",
        out.display()
    );
    for problem in problems {
        eprintln!("  {problem}");
    }
    ExitCode::FAILURE
}

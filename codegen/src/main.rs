//! `seozoom-codegen [SPEC]`: print the code generated from a spec, for review.
//!
//! With no argument it reads `spec/seozoom-v2.toml`. On a bad spec it prints every
//! located error to stderr and exits with status 1.
//!
//! `seozoom-codegen publish [--check] [--out DIR] [SPEC]`: write the spec for
//! other languages (canonical JSON, JSON Schemas, OpenAPI 3.1 and 3.0.3) to
//! `spec/published/`, or with `--check` write nothing and exit with status 1 when
//! those files are not exactly what the spec gives.
//!
//! `seozoom-codegen python [--check] [--out DIR] [SPEC]`: write the Python
//! package's typed surface (`python/seozoom/_generated.py` and `.pyi`), or with
//! `--check` exit with status 1 when the committed files are stale.
//!
//! `seozoom-codegen diff [--format text|json|changelog] [--current VERSION] OLD NEW`: what changed for
//! users between two specs, each change BREAKING, minor or patch, and the version
//! bump; exits with status 3 when a change is breaking (see `seozoom_codegen::diff`).
//!
//! `seozoom-codegen apply PATCH [SPEC]`: merge a patch (`seozoom drift
//! --patch`) into the spec, keeping its formatting and comments; a patch that
//! conflicts with it is refused and nothing is written (status 1). See
//! `seozoom_codegen::apply`.
//!
//! A bad command line exits with status 2: `seozoom-codegen[ SUBCOMMAND]: what is
//! wrong`, then the usage.

#![forbid(unsafe_code)]

mod publish;
mod python_surface;
mod spec_file;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};
use seozoom_codegen::{apply, diff};
use spec_file::DEFAULT_SPEC;

const USAGE: &str = "usage: seozoom-codegen [SPEC]\n       seozoom-codegen publish [--check] [--out DIR] [SPEC]\n       seozoom-codegen python [--check] [--out DIR] [SPEC]\n       seozoom-codegen diff [--format text|json|changelog] [--current VERSION] OLD NEW\n       seozoom-codegen apply PATCH [SPEC]";

/// The seozoom generator: prints the Rust generated from the spec, publishes the
/// spec for other languages, writes the Python package's typed surface, and
/// compares two specs.
#[derive(Debug, Parser)]
#[command(
    name = "seozoom-codegen",
    version,
    override_usage = "seozoom-codegen [SPEC]\n       seozoom-codegen publish [--check] [--out DIR] [SPEC]\n       seozoom-codegen python [--check] [--out DIR] [SPEC]\n       seozoom-codegen diff [--format text|json|changelog] [--current VERSION] OLD NEW\n       seozoom-codegen apply PATCH [SPEC]"
)]
struct Cli {
    /// The spec whose generated code to print.
    #[arg(value_name = "SPEC", default_value = DEFAULT_SPEC)]
    spec: PathBuf,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    Publish(publish::command::Args),
    Python(python_surface::Args),
    Diff(diff::Args),
    Apply(apply::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    match &cli.command {
        Some(Command::Publish(args)) => publish::command::run(args),
        Some(Command::Python(args)) => python_surface::run(args),
        Some(Command::Diff(args)) => diff::run(args),
        Some(Command::Apply(args)) => apply::run(args),
        None => generate(&cli.spec),
    }
}

fn generate(path: &std::path::Path) -> ExitCode {
    match seozoom_codegen::generate_file(path) {
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

/// Help and version go to stdout (status 0). Anything else is a bad command line
/// (status 2), said as `seozoom-codegen diff: what is wrong` and the usage, as the
/// tool always has; clap's own text gives what is wrong.
fn usage_error(err: &clap::Error) -> ExitCode {
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = err.print();
        return ExitCode::SUCCESS;
    }
    // clap's text without the parts said here otherwise: its `error: ` prefix,
    // its usage and its pointer to `--help`.
    let rendered = err.render().to_string();
    let what: Vec<&str> = rendered
        .trim_start_matches("error: ")
        .split("\n\n")
        .map(str::trim_end)
        .filter(|part| !part.starts_with("Usage:") && !part.starts_with("For more information"))
        .collect();
    let what = what.join("\n\n");
    let subcommand = std::env::args_os().nth(1);
    match subcommand.as_ref().and_then(|a| a.to_str()) {
        Some("diff") => eprintln!("seozoom-codegen diff: {what}\nusage: {}", diff::USAGE),
        Some(command @ ("publish" | "python" | "apply")) => {
            eprintln!("seozoom-codegen {command}: {what}\n{USAGE}")
        }
        _ => eprintln!("seozoom-codegen: {what}\n{USAGE}"),
    }
    ExitCode::from(diff::EXIT_USAGE)
}

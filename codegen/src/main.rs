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
//! `seozoom-codegen diff [--json] [--current VERSION] OLD NEW`: what changed for
//! users between two specs, each change BREAKING, minor or patch, and the version
//! bump; exits with status 3 when a change is breaking (see `seozoom_codegen::diff`).

#![forbid(unsafe_code)]

mod publish;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const DEFAULT_SPEC: &str = "spec/seozoom-v2.toml";
const DEFAULT_OUT: &str = "spec/published";
const USAGE: &str = "usage: seozoom-codegen [SPEC]\n       seozoom-codegen publish [--check] [--out DIR] [SPEC]\n       seozoom-codegen diff [--json] [--current VERSION] OLD NEW";

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == "publish") {
        return publish_command(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "diff") {
        return seozoom_codegen::diff::run(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let path = args
        .first()
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

struct PublishArgs {
    check: bool,
    out: PathBuf,
    spec: PathBuf,
}

fn publish_args(args: &[OsString]) -> Result<PublishArgs, String> {
    let mut parsed = PublishArgs {
        check: false,
        out: PathBuf::from(DEFAULT_OUT),
        spec: PathBuf::from(DEFAULT_SPEC),
    };
    let mut spec = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--check") => parsed.check = true,
            Some("--out") => {
                parsed.out = args
                    .next()
                    .map(PathBuf::from)
                    .ok_or("`--out` needs a directory")?;
            }
            Some(flag) if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
            _ if spec.is_none() => spec = Some(PathBuf::from(arg)),
            _ => return Err("more than one spec given".into()),
        }
    }
    if let Some(spec) = spec {
        parsed.spec = spec;
    }
    Ok(parsed)
}

fn publish_command(args: &[OsString]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let args = match publish_args(args) {
        Ok(args) => args,
        Err(err) => {
            eprintln!("seozoom-codegen publish: {err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
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
    let files = match publish::files(&text, &spec) {
        Ok(files) => files,
        Err(err) => {
            eprintln!("{name}: error: {err}");
            return ExitCode::FAILURE;
        }
    };
    if args.check {
        check(&args.out, &files)
    } else {
        match publish::write(&args.out, &files) {
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
}

fn check(out: &Path, files: &publish::Files) -> ExitCode {
    let problems = publish::stale(out, files);
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

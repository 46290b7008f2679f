//! `seozoom-codegen python [--check] [--out DIR] [SPEC]`: write the Python
//! package's typed surface (`_generated.py` and `_generated.pyi`, see
//! `seozoom_codegen::python`) into its package folder, or check that the
//! committed files are what the spec gives.
//!
//! They are committed, like `spec/published/`, rather than written by the
//! package's build script: a build script writes only to its `OUT_DIR`
//! (`cargo package` verifies it, and a read-only checkout must build), and a
//! reader of the repository, a type checker or an editor sees the surface
//! without building. The package's build script writes only the Rust dispatch,
//! into `OUT_DIR`.

use std::path::PathBuf;
use std::process::ExitCode;

use seozoom_codegen::model::Spec;
use seozoom_codegen::python::{self, MODULE_FILE, STUB_FILE};

use crate::publish::Files;
use crate::publish::command::write_or_check;
use crate::spec_file::{DEFAULT_SPEC, load};

/// Writes the Python package's typed surface, or with `--check` writes
/// nothing and fails when the committed files are not what the spec gives.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write nothing; exit with status 1 when the files are stale.
    #[arg(long)]
    check: bool,
    /// The package folder the files go in (beside the hand-written runtime).
    #[arg(long, value_name = "DIR", default_value = "python/seozoom")]
    out: PathBuf,
    /// The spec.
    #[arg(value_name = "SPEC", default_value = DEFAULT_SPEC)]
    spec: PathBuf,
}

/// The two files, by name.
fn files(spec: &Spec) -> Result<Files, String> {
    let surface = python::emit(spec)?;
    Ok(Files::from([
        (MODULE_FILE.to_owned(), surface.module),
        (STUB_FILE.to_owned(), surface.stub),
    ]))
}

/// Runs `python`; status 1 when the spec cannot be read, is invalid, or (with
/// `--check`) the files are stale. The package's hand-written files beside
/// them are not looked at.
pub fn run(args: &Args) -> ExitCode {
    let Some((_, spec)) = load(&args.spec) else {
        return ExitCode::FAILURE;
    };
    match files(&spec) {
        Ok(files) => write_or_check(&args.out, &files, args.check, "python", false),
        Err(err) => {
            eprintln!("{}: error: {err}", args.spec.display());
            ExitCode::FAILURE
        }
    }
}

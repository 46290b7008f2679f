//! The `apply` subcommand: read the patch and the spec, merge, write the spec.

use std::path::PathBuf;
use std::process::ExitCode;

/// Merges a patch into the spec in place.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The patch (`seozoom drift --patch > PATCH`).
    #[arg(value_name = "PATCH")]
    patch: PathBuf,
    /// The spec to merge it into, in place.
    #[arg(value_name = "SPEC", default_value = "spec/seozoom-v2.toml")]
    spec: PathBuf,
}

/// Runs `apply`: status 0 when merged (each change said on stdout), 1 when
/// a file cannot be read or written, or the patch conflicts with the spec
/// (each conflict said on stderr; the spec is left as it was).
pub fn run(args: &Args) -> ExitCode {
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read it: {e}", path.display()))
    };
    let (patch, spec) = match (read(&args.patch), read(&args.spec)) {
        (Ok(patch), Ok(spec)) => (patch, spec),
        (patch, spec) => {
            for error in [patch.err(), spec.err()].into_iter().flatten() {
                eprintln!("seozoom-codegen apply: {error}");
            }
            return ExitCode::FAILURE;
        }
    };
    let name = args.spec.display().to_string();
    match super::apply(&name, &spec, &patch) {
        Ok(applied) => {
            if applied.text != spec
                && let Err(e) = std::fs::write(&args.spec, &applied.text)
            {
                eprintln!("seozoom-codegen apply: {name}: cannot write it: {e}");
                return ExitCode::FAILURE;
            }
            for change in &applied.changes {
                println!("{change}");
            }
            println!(
                "{} change(s) merged into {name}; `seozoom-codegen diff` shows their effect",
                applied.changes.len()
            );
            ExitCode::SUCCESS
        }
        Err(conflicts) => {
            for conflict in &conflicts {
                eprintln!("seozoom-codegen apply: {conflict}");
            }
            eprintln!(
                "seozoom-codegen apply: the patch conflicts with {name}: nothing was written"
            );
            ExitCode::FAILURE
        }
    }
}

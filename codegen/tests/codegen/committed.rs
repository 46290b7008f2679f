//! What the tests of committed generated files share (`spec/published/`, the
//! Python surface): running a subcommand of the generator, and the freshness
//! check of the committed files.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

use crate::common;

/// Run `seozoom-codegen SUBCOMMAND ARGS... --out OUT SPEC`.
pub fn codegen(subcommand: &str, args: &[&str], out: &Path, spec: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seozoom-codegen"))
        .arg(subcommand)
        .args(args)
        .arg("--out")
        .arg(out)
        .arg(spec)
        .output()
        .expect("the generator runs")
}

/// The files under `dir` are what `seozoom-codegen SUBCOMMAND` makes of the
/// spec, or the test fails saying how to write them; with the variable
/// `update` set, it writes them instead (for `cargo test` to accept a
/// reviewed change).
pub fn assert_fresh(subcommand: &str, dir: &Path, update: impl AsRef<OsStr>) {
    let spec = common::spec_path();
    let update = update.as_ref();
    if std::env::var_os(update).is_some() {
        let output = codegen(subcommand, &[], dir, &spec);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        return;
    }
    let output = codegen(subcommand, &["--check"], dir, &spec);
    assert!(
        output.status.success(),
        "{}\nrun `cargo run -p seozoom-codegen -- {subcommand}` (or set {} for the test) and review the diff",
        String::from_utf8_lossy(&output.stderr),
        update.to_string_lossy()
    );
}

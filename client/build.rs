//! Runs the generator (`seozoom-codegen`, a build-dependency without its default
//! features) on the spec (`seozoom-spec`) and writes the Rust it produces to
//! `$OUT_DIR/generated.rs`, which `src/lib.rs` includes.
//!
//! The spec is a build-dependency, so editing it rebuilds `seozoom-spec`, which
//! rebuilds and reruns this script; nothing else in this package does.

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let code = match seozoom_codegen::generate_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT) {
        Ok(code) => code,
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            std::process::exit(1);
        }
    };
    let out =
        Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("generated.rs");
    if let Err(err) = std::fs::write(&out, code) {
        eprintln!("cannot write {}: {err}", out.display());
        std::process::exit(1);
    }
}

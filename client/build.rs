//! Runs the generator on the spec that travels with this crate and writes the
//! Rust it produces to `$OUT_DIR/generated.rs`.
//!
//! The generator's modules are compiled straight into this build script from
//! `codegen/` (a link to the `seozoom-codegen` sources in the workspace, packaged
//! as files), so the published crate builds on its own.

#[path = "codegen/lib.rs"]
#[allow(dead_code, unused_imports)]
mod seozoom_codegen;

// The generator's modules refer to each other through `crate::`; re-export them at
// this crate's root so those paths resolve here as they do in `seozoom-codegen`.
#[allow(unused_imports)]
use seozoom_codegen::{diagnostics, emit, model, names, parse, resolve, validate};

use std::path::Path;

fn main() {
    let spec = Path::new("spec").join("seozoom-v2.toml");
    println!("cargo::rerun-if-changed={}", spec.display());
    println!("cargo::rerun-if-changed=codegen");
    let code = match seozoom_codegen::generate_file(&spec) {
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

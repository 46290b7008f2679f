//! Writes each operation's typed result type (`dispatch.rs`, generated from
//! the spec) into `OUT_DIR`, where `src/typed.rs` includes it.
//!
//! The package's typed surface (`seozoom/_generated.py` and `.pyi`) is
//! generated too, but committed: `cargo run -p seozoom-codegen -- python`
//! writes it, and a test fails while it is stale. A build script writes only
//! to `OUT_DIR`.

use std::path::Path;

fn main() {
    let python =
        match seozoom_codegen::python::generate_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT) {
            Ok(python) => python,
            Err(diagnostics) => panic!("{diagnostics}"),
        };
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let dispatch = Path::new(&out_dir).join(seozoom_codegen::python::DISPATCH_FILE);
    if let Err(error) = std::fs::write(&dispatch, &python.dispatch) {
        panic!("cannot write {}: {error}", dispatch.display());
    }
    println!("cargo::rerun-if-changed=build.rs");
}

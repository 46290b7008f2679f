//! Writes the package's typed surface, generated from the spec, into the
//! package folder (`seozoom/_generated.py` and `.pyi`), where maturin packs
//! it with the hand-written modules.
//!
//! It also writes each operation's typed result type (`dispatch.rs`) into
//! `OUT_DIR`, where `src/typed.rs` includes it.
//!
//! Generated at build time rather than committed: `pip install ./python`
//! runs this script, so an action added to the spec is a typed method with no
//! other step, and no stale copy can be committed. The files are ignored by
//! git and rewritten only when their text changes.

use std::path::Path;

fn main() {
    let python =
        match seozoom_codegen::python::generate_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT) {
            Ok(python) => python,
            Err(diagnostics) => panic!("{diagnostics}"),
        };
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("seozoom");
    for (name, text) in [
        (seozoom_codegen::python::MODULE_FILE, &python.module),
        (seozoom_codegen::python::STUB_FILE, &python.stub),
    ] {
        let path = package.join(name);
        let unchanged = std::fs::read_to_string(&path).ok().as_ref() == Some(text);
        if !unchanged && let Err(error) = std::fs::write(&path, text) {
            panic!("cannot write {}: {error}", path.display());
        }
    }
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let dispatch = Path::new(&out_dir).join(seozoom_codegen::python::DISPATCH_FILE);
    if let Err(error) = std::fs::write(&dispatch, &python.dispatch) {
        panic!("cannot write {}: {error}", dispatch.display());
    }
    println!("cargo::rerun-if-changed=build.rs");
    println!(
        "cargo::rerun-if-changed=seozoom/{}",
        seozoom_codegen::python::MODULE_FILE
    );
    println!(
        "cargo::rerun-if-changed=seozoom/{}",
        seozoom_codegen::python::STUB_FILE
    );
}

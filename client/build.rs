//! Runs the generator (`seozoom-codegen`, a build-dependency without its default
//! features) on the spec (`seozoom-spec`) and writes the Rust it produces to
//! `$OUT_DIR/generated.rs`, which `src/lib.rs` includes.
//!
//! With the `schemars` feature it also writes the envelope's and the SERP's
//! JSON Schemas, made by the generator's schema module (its `schema` feature,
//! which this feature turns on) as the published documents' are, to
//! `$OUT_DIR/envelope.schema.json` and `serp.schema.json`, which the generated
//! `JsonSchema` of `Envelope<T>` and of `Serp` include.
//!
//! The spec is a build-dependency, so editing it rebuilds `seozoom-spec`, which
//! rebuilds and reruns this script; nothing else in this package does.

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let spec = match seozoom_codegen::load_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT) {
        Ok(spec) => spec,
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            std::process::exit(1);
        }
    };
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    write(
        &Path::new(&out).join("generated.rs"),
        &seozoom_codegen::emit::plain(&spec),
    );
    #[cfg(feature = "schemars")]
    {
        use seozoom_codegen::{emit, schema};
        write(
            &Path::new(&out).join(emit::ENVELOPE_SCHEMA_FILE),
            &schema::envelope_frame(&spec).to_string(),
        );
        write(
            &Path::new(&out).join(emit::SERP_SCHEMA_FILE),
            &schema::serp(schema::Dialect::Schema).to_string(),
        );
    }
}

fn write(path: &Path, text: &str) {
    if let Err(err) = std::fs::write(path, text) {
        eprintln!("cannot write {}: {err}", path.display());
        std::process::exit(1);
    }
}

//! The seozoom generator: spec (TOML) -> validated model -> Rust.
//!
//! Three stages, each in its own module: [`parse`] reads the file with spans
//! (and [`resolve`] expands its references to shared definitions),
//! [`validate`] checks it and builds the [`model`] (collecting every error, each
//! with file, line and column), and [`emit`] turns the model into a
//! deterministic Rust file. A bad spec gives [`Diagnostics`], never a panic.
//!
//! The `seozoom` crate's build script uses it as a build-dependency, with the
//! spec from the `seozoom-spec` crate:
//!
//! ```no_run
//! let out = std::path::Path::new(&std::env::var_os("OUT_DIR").unwrap()).join("generated.rs");
//! match seozoom_codegen::generate_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT) {
//!     Ok(code) => std::fs::write(out, code).unwrap(),
//!     Err(diagnostics) => panic!("{diagnostics}"),
//! }
//! ```
//!
//! # Features
//!
//! - `format` (default): the generated file is formatted by prettyplease (which
//!   needs syn). Without it, [`generate_str`] gives the same code unformatted
//!   ([`emit::plain`]: a line per item and statement), what a build script
//!   compiles, at the cost of neither.
//! - `cli` (default): the `seozoom-codegen` binary (print the generated code,
//!   `publish` the spec for other languages) and [`diff`], what changed for users
//!   between two specs. It adds clap, serde and serde_json.
//!
//! A build script depends on it with `default-features = false`, and builds
//! only `toml` (its parser, without serde), `proc-macro2` and `quote`.

#![forbid(unsafe_code)]

#[cfg(feature = "cli")]
pub mod apply;
pub mod diagnostics;
#[cfg(feature = "cli")]
pub mod diff;
pub mod emit;
mod lines;
pub mod model;
pub mod names;
pub mod parse;
pub mod plausible;
#[cfg(feature = "python")]
pub mod python;
pub mod resolve;
#[cfg(feature = "schema")]
pub mod schema;
pub mod validate;

use std::path::Path;

pub use diagnostics::{Diagnostic, Diagnostics, SourceFile};

/// Parse and validate a spec held in memory; `name` is used in messages.
///
/// # Errors
///
/// Every problem of the spec (syntax, shape, names, limits, cross-references), each located by
/// file, line and column.
pub fn load_str(name: &str, text: &str) -> Result<model::Spec, Diagnostics> {
    let file = SourceFile::new(name, text);
    let parsed = parse::parse(&file).map_err(|d| Diagnostics(vec![d]))?;
    validate::validate(&file, &parsed)
}

/// [`load_str`] of a spec that may be written in an earlier version of the
/// format ([`validate::Reading::Older`]): what `diff` compares with.
///
/// # Errors
///
/// As [`load_str`].
pub fn load_str_older(name: &str, text: &str) -> Result<model::Spec, Diagnostics> {
    let file = SourceFile::new(name, text);
    let parsed = parse::parse(&file).map_err(|d| Diagnostics(vec![d]))?;
    validate::validate_reading(&file, &parsed, validate::Reading::Older)
}

/// [`load_str_older`] of the spec file at `path`.
///
/// # Errors
///
/// As [`load_file`].
pub fn load_file_older(path: &Path) -> Result<model::Spec, Diagnostics> {
    let (name, text) = read_spec(path)?;
    load_str_older(&name, &text)
}

/// Generate the Rust module for a spec held in memory.
///
/// # Errors
///
/// As [`load_str`].
pub fn generate_str(name: &str, text: &str) -> Result<String, Diagnostics> {
    let spec = load_str(name, text)?;
    emit::emit(&spec).map_err(|err| {
        Diagnostics(vec![Diagnostic {
            file: name.to_owned(),
            line: 0,
            column: 0,
            message: format!("internal generator error, please report it: {err}"),
        }])
    })
}

/// The spec file at `path` and the name it is reported under.
fn read_spec(path: &Path) -> Result<(String, String), Diagnostics> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|err| {
        Diagnostics(vec![Diagnostic {
            file: name.clone(),
            line: 0,
            column: 0,
            message: format!("cannot read the spec: {err}"),
        }])
    })?;
    Ok((name, text))
}

/// Parse and validate the spec file at `path`.
///
/// # Errors
///
/// A file that cannot be read, as one diagnostic, then as [`load_str`].
pub fn load_file(path: &Path) -> Result<model::Spec, Diagnostics> {
    let (name, text) = read_spec(path)?;
    load_str(&name, &text)
}

/// Generate the Rust module for the spec file at `path`.
///
/// # Errors
///
/// As [`load_file`].
pub fn generate_file(path: &Path) -> Result<String, Diagnostics> {
    let (name, text) = read_spec(path)?;
    generate_str(&name, &text)
}

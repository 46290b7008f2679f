//! The spec file the subcommands read: its default path, and reading it.

use std::path::Path;

use seozoom_codegen::model::Spec;

/// The spec a command reads when it is given none.
pub const DEFAULT_SPEC: &str = "spec/seozoom-v2.toml";

/// The spec at `path`, its text and its validated model; `None` when it
/// cannot be read or is invalid (every error printed, located).
pub fn load(path: &Path) -> Option<(String, Spec)> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("{name}: error: cannot read the spec: {err}");
            return None;
        }
    };
    match seozoom_codegen::load_str(&name, &text) {
        Ok(spec) => Some((text, spec)),
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            None
        }
    }
}

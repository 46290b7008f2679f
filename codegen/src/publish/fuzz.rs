//! The fuzzing setup published beside the documents: schemathesis's
//! configuration (`schemathesis.toml`) and hooks (`schemathesis_hooks.py`),
//! so that a user fuzzes a server with one command (`README.md`, "Fuzzing").
//!
//! The hooks read every fact from the document under test (`x-seozoom-query`,
//! the `no_data` example), so they are the same file for every document; the
//! configuration takes the key's security scheme and the no-match status
//! from the spec.

use seozoom_codegen::model::Spec;

use super::template::fill;

const CONFIG: &str = include_str!("schemathesis.toml");
const HOOKS: &str = include_str!("schemathesis_hooks.py");

/// Where each file goes under the published directory.
pub const CONFIG_PATH: &str = "schemathesis.toml";
/// See [`CONFIG_PATH`].
pub const HOOKS_PATH: &str = "schemathesis_hooks.py";

/// Both files, as (path, text).
pub fn files(spec: &Spec) -> [(String, String); 2] {
    let values = [
        ("key", spec.common.key.wire.clone()),
        ("no_data_status", spec.no_data.status.to_string()),
    ];
    [
        (CONFIG_PATH.into(), fill(CONFIG_PATH, CONFIG, &values)),
        (HOOKS_PATH.into(), fill(HOOKS_PATH, HOOKS, &[])),
    ]
}

//! The linters' configurations published beside the documents: Redocly's
//! (`redocly.yaml`, which also lists every document, so that `redocly lint`
//! alone lints them all) and Spectral's (`.spectral.yaml`, which Spectral
//! finds in the directory it runs in). A user's `redocly lint` or
//! `spectral lint` in `spec/published/` then passes as CI's does, with the
//! same rules off, each with its reason in the file.

use seozoom_codegen::model::Spec;

use super::paths::document_path;
use super::template::fill;

const REDOCLY: &str = include_str!("redocly.yaml");
const SPECTRAL: &str = include_str!("spectral.yaml");

/// Where each file goes under the published directory.
pub const REDOCLY_PATH: &str = "redocly.yaml";
/// See [`REDOCLY_PATH`].
pub const SPECTRAL_PATH: &str = ".spectral.yaml";

/// Both files, as (path, text).
pub fn files(spec: &Spec) -> [(String, String); 2] {
    let mut apis = vec![
        ("whole".to_owned(), "openapi.json".to_owned()),
        ("whole-3.0".to_owned(), "openapi-3.0.json".to_owned()),
    ];
    apis.extend(spec.actions.iter().map(|a| {
        (
            format!("{}.{}", a.group, a.wire),
            document_path(&a.group, &a.wire),
        )
    }));
    let apis: Vec<String> = apis
        .iter()
        .map(|(name, root)| format!("  {name}:\n    root: {root}"))
        .collect();
    let path = spec
        .groups
        .first()
        .map(|g| g.path.clone())
        .unwrap_or_default();
    let values = [("path", path), ("apis", apis.join("\n"))];
    [
        (REDOCLY_PATH.into(), fill(REDOCLY_PATH, REDOCLY, &values)),
        (
            SPECTRAL_PATH.into(),
            fill(SPECTRAL_PATH, SPECTRAL, &values[..1]),
        ),
    ]
}

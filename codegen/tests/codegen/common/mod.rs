//! Shared by the codegen tests: the real spec, and ways to change it.

#![allow(dead_code)] // each test module uses a different part of it

use std::path::PathBuf;

/// The spec file in the workspace, for the commands that take a path: the
/// `seozoom-spec` crate's file.
pub fn spec_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../spec")
        .join(seozoom_spec::FILE_NAME)
}

/// The spec's text, as the client's build script gets it (`seozoom-spec`).
pub fn spec_text() -> String {
    seozoom_spec::TEXT.to_owned()
}

/// The spec with the first occurrence of `from` replaced by `to`; panics (in the
/// test) when `from` is not in the spec, so a stale test cannot pass silently.
pub fn edited(from: &str, to: &str) -> String {
    let text = spec_text();
    assert!(text.contains(from), "the spec no longer contains {from:?}");
    text.replacen(from, to, 1)
}

/// 1-based line and column of the first occurrence of `needle` in `text`.
pub fn position_of(text: &str, needle: &str) -> (usize, usize) {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

/// `text` with the first occurrence of `from` replaced by `to`; panics when `from`
/// is not there (for a chain of edits: `replaced(&edited(a, b), c, d)`).
pub fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the text no longer contains {from:?}");
    text.replacen(from, to, 1)
}

/// The text of `codegen/tests/fixtures/NAME`.
pub fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The real spec with the `keywords suggestions` action and its `keyword_suggestion`
/// record appended (`tests/fixtures/keywords-suggestions.toml`).
pub fn spec_with_keywords_suggestions() -> String {
    format!("{}\n{}", spec_text(), fixture("keywords-suggestions.toml"))
}

/// Writes `text` to a file named `name` in a directory of its own under the
/// test's scratch space (`CARGO_TARGET_TMPDIR`), and returns its path.
pub fn scratch_file(dir: &str, name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).expect("scratch directory created");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file written");
    path
}

/// `text` without the table (`[[...]]` or `[...]` header and its keys) that holds
/// the first occurrence of `needle`; panics when `needle` is not there.
pub fn without_table(text: &str, needle: &str) -> String {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("the text no longer contains {needle:?}"));
    let start = text[..at].rfind("\n[").map_or(0, |i| i + 1);
    let end = text[at..].find("\n[").map_or(text.len(), |i| at + i + 1);
    format!("{}{}", &text[..start], &text[end..])
}

/// `text` without the line that holds the first occurrence of `needle` (a field,
/// an enum value or a rule written on one line); panics when `needle` is not there.
pub fn without_line(text: &str, needle: &str) -> String {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("the text no longer contains {needle:?}"));
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    format!("{}{}", &text[..start], &text[end..])
}

/// `text` with `table` inserted after the table that holds the first occurrence
/// of `needle`; panics when `needle` is not there.
pub fn with_table_after(text: &str, needle: &str, table: &str) -> String {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("the text no longer contains {needle:?}"));
    let end = text[at..].find("\n[").map_or(text.len(), |i| at + i + 1);
    format!("{}{}\n\n{}", &text[..end], table.trim(), &text[end..])
}

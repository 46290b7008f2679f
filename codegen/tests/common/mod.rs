//! Shared by the codegen tests: the real spec, and ways to change it.

#![allow(dead_code)] // each test binary uses a different part of it

use std::path::PathBuf;

pub fn spec_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec/seozoom-v2.toml")
}

pub fn spec_text() -> String {
    std::fs::read_to_string(spec_path()).expect("the spec is readable")
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

//! The runtime, the sandbox and the command line are generic: everything
//! per-operation comes from the spec. This test reads every string literal of
//! `client/src`, `cli/src` and `mcp/src` (test modules aside) and fails on one that is a
//! parameter's or a field's wire name: such code finds a parameter or a field
//! by name instead of by the role or hint the spec gives it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use seozoom::operations::{OPERATIONS, RECORDS, SERVICE};

/// Literals that are the same word as a wire name but name something else:
/// (file, literal, what it is).
const NOT_NAMES: &[(&str, &str, &str)] = &[
    (
        "client/src/serp.rs",
        "type",
        "a JSON Schema keyword in the SERP's schema",
    ),
    (
        "cli/src/rows.rs",
        "position",
        "the column of a SERP result's position (a SERP is a map, not a record)",
    ),
    (
        "cli/src/rows.rs",
        "url",
        "the column of a SERP result's URL",
    ),
    (
        "client/src/error/partial.rs",
        "page",
        "the English noun of a stopped paged job's message (\"up to 40 rows in 4 pages\")",
    ),
    (
        "mcp/src/json_schema.rs",
        "type",
        "the JSON Schema keyword of a value's type, in the MCP tools' schemas",
    ),
    (
        "cli/src/usage.rs",
        "action",
        "a member of `seozoom usage --format json`: an operation's action, as the usage report's contract names it",
    ),
    (
        "client/src/drift/observation.rs",
        "action",
        "a member of `seozoom drift --format json`: an operation's action, as the usage report names it",
    ),
    (
        "client/src/drift/patch.rs",
        "type",
        "a Rust keyword, which the Rust name a patch proposes for a field avoids",
    ),
    (
        "mcp/src/jsonrpc.rs",
        "id",
        "the JSON-RPC member of a message's id, in the error answer to input that is not a message",
    ),
    (
        "mcp/src/fixture.rs",
        "name",
        "a property of the conformance suite's JSON Schema 2020-12 test tool, as the suite asks",
    ),
    (
        "mcp/src/fixture.rs",
        "id",
        "the member the conformance suite's templated test resource answers with, as the suite asks",
    ),
];

/// Every parameter and field wire name of the spec.
fn wire_names() -> BTreeSet<&'static str> {
    let common = [SERVICE.key.wire, SERVICE.database.wire, SERVICE.action.wire];
    let params = OPERATIONS
        .iter()
        .flat_map(|op| op.params.iter().map(|p| p.wire));
    let fields = RECORDS.iter().flat_map(|r| r.fields.iter().map(|f| f.wire));
    common.into_iter().chain(params).chain(fields).collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its unit-test module (which, by this crate's
/// convention, ends the file).
fn code(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// The contents of the string literals of `code`, with comments skipped, and
/// without the labels given to `Seed::child` (text mixed into a hash, never
/// looked up).
fn string_literals(code: &str) -> Vec<String> {
    let is_label = |at: usize, chars: &[char]| {
        chars[at.saturating_sub(6)..at].iter().collect::<String>() == "child("
    };
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            // A char literal ('"', '\'', 'x'); a lifetime has no closing quote.
            '\'' => {
                let close = if chars.get(i + 1) == Some(&'\\') {
                    i + 3
                } else {
                    i + 2
                };
                i = if chars.get(close) == Some(&'\'') {
                    close + 1
                } else {
                    i + 1
                };
            }
            'r' if matches!(chars.get(i + 1), Some('#') | Some('"'))
                && (i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '_') =>
            {
                let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                let start = i + 1 + hashes + 1;
                let end_marker: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let rest: String = chars[start.min(chars.len())..].iter().collect();
                match rest.find(&end_marker) {
                    Some(end) => {
                        found.push(rest[..end].to_owned());
                        i = start + rest[..end].chars().count() + end_marker.len();
                    }
                    None => break,
                }
            }
            '"' => {
                let label = is_label(i, &chars);
                let mut text = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    if let Some(c) = chars.get(i) {
                        text.push(*c);
                    }
                    i += 1;
                }
                if !label {
                    found.push(text);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

#[test]
fn the_scanner_sees_literals_and_skips_comments() {
    let code = "let a = \"limit\"; // \"offset\"\nlet b = r#\"page\"#; let c = '\"'; let d: &'static str = \"x\\\"y\"; s.child(\"date\");";
    assert_eq!(string_literals(code), ["limit", "page", "x\"y"]);
}

#[test]
fn no_runtime_code_names_a_parameter_or_a_field() {
    let names = wire_names();
    assert!(
        names.contains("limit") && names.contains("keyword"),
        "{names:?}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&root.join("client/src"), &mut files);
    rust_files(&root.join("cli/src"), &mut files);
    rust_files(&root.join("mcp/src"), &mut files);
    assert!(files.len() > 10, "sources found: {files:?}");
    let mut offenders = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let relative = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        for literal in string_literals(code(&text)) {
            let excused = NOT_NAMES
                .iter()
                .any(|(f, l, _)| *f == relative && *l == literal);
            if names.contains(literal.as_str()) && !excused {
                offenders.push(format!("{}: \"{literal}\"", file.display()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "wire names in runtime code (use the spec's roles and hints):\n{}",
        offenders.join("\n")
    );
}

//! No two public names in one namespace of `seozoom` are a letter apart, as
//! `DomainMetrics` (a record) and `DomainsMetrics` (a builder) were when every
//! generated item sat at the crate root.
//!
//! The namespaces are read from the sources: the crate root and the facade
//! modules of `client/src/lib.rs`, the public modules it declares from files,
//! and the generated modules (`types`, `builder`, `operations`) of the
//! whole-spec golden, which is the file the crate compiles
//! (`client/tests/client/golden.rs`). Names are compared within one kind (types,
//! constants, modules and functions), since Rust's case conventions keep a
//! module `error` and a type `Error` apart; case is ignored within a kind.

use std::collections::BTreeMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

fn read(relative: &str) -> String {
    let path = root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The names an item line declares: `pub struct A`, `pub use x::{A, B};`
/// (`use` lists on one line), `pub mod a`, ...; none for a glob.
fn declared(line: &str) -> Vec<String> {
    let line = line.trim();
    if let Some(path) = line.strip_prefix("pub use ") {
        let path = path.trim_end_matches(';');
        let list = match path.split_once('{') {
            Some((_, list)) => list.trim_end_matches('}').to_owned(),
            None => path.to_owned(),
        };
        return list
            .split(',')
            .map(|item| {
                let item = item.trim();
                let item = item.rsplit(" as ").next().unwrap_or(item);
                item.rsplit("::").next().unwrap_or(item).trim().to_owned()
            })
            .filter(|name| !name.is_empty() && name != "*")
            .collect();
    }
    for kind in [
        "pub struct ",
        "pub enum ",
        "pub trait ",
        "pub type ",
        "pub fn ",
        "pub const fn ",
        "pub const ",
        "pub static ",
        "pub mod ",
    ] {
        if let Some(rest) = line.strip_prefix(kind) {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            return vec![name];
        }
    }
    Vec::new()
}

/// The public names declared at indentation `depth` (in spaces) of `code`,
/// skipping items marked `#[doc(hidden)]`.
fn names_at(code: &str, depth: usize) -> Vec<String> {
    let mut names = Vec::new();
    let mut hidden = false;
    for line in code.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent != depth || line.trim().is_empty() {
            continue;
        }
        if line.trim() == "#[doc(hidden)]" {
            hidden = true;
            continue;
        }
        if line.trim_start().starts_with("#[") || line.trim_start().starts_with("//") {
            continue;
        }
        if !hidden {
            names.extend(declared(line));
        }
        hidden = false;
    }
    names
}

/// The text of the block `pub mod NAME {` at the top level of `code`.
fn module_block<'a>(code: &'a str, name: &str) -> Option<&'a str> {
    let start = code.find(&format!("\npub mod {name} {{\n"))? + 1;
    let end = code[start..].find("\n}\n")? + start;
    Some(&code[start..end])
}

/// Every public namespace of the crate and the names in it.
fn namespaces() -> BTreeMap<String, Vec<String>> {
    let lib = read("client/src/lib.rs");
    let golden = read("codegen/tests/golden/generated.rs");
    let generated = |module: &str| {
        names_at(
            module_block(&golden, module).unwrap_or_else(|| panic!("no generated {module}")),
            4,
        )
    };
    let mut spaces = BTreeMap::new();
    // The root: outside the facade blocks, at depth 0.
    spaces.insert("seozoom".to_owned(), names_at(&lib, 0));
    for module in names_at(&lib, 0) {
        let mut names = Vec::new();
        if let Some(block) = module_block(&lib, &module) {
            names.extend(names_at(block, 4));
            if block.contains(&format!("crate::generated::{module}::*")) {
                names.extend(generated(&module));
            }
        } else if lib.contains(&format!("pub use generated::{module};")) {
            names.extend(generated(&module));
        } else if lib.contains(&format!("pub mod {module};")) {
            let file = ["", "/mod"]
                .iter()
                .map(|tail| format!("client/src/{module}{tail}.rs"))
                .find(|f| root().join(f).exists())
                .unwrap_or_else(|| panic!("no file for module {module}"));
            names.extend(names_at(&read(&file), 0));
        } else {
            continue;
        }
        spaces.insert(format!("seozoom::{module}"), names);
    }
    spaces
}

#[derive(PartialEq)]
enum Kind {
    Type,
    Constant,
    Lower,
}

fn kind(name: &str) -> Kind {
    if name.chars().next().is_some_and(char::is_uppercase) {
        if name.chars().any(char::is_lowercase) {
            Kind::Type
        } else {
            Kind::Constant
        }
    } else {
        Kind::Lower
    }
}

/// Whether `a` becomes `b` by adding, removing or changing one letter (case
/// ignored).
fn a_letter_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (
        a.to_lowercase().chars().collect(),
        b.to_lowercase().chars().collect(),
    );
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    if long.len() - short.len() > 1 {
        return false;
    }
    let same_start = short
        .iter()
        .zip(long.iter())
        .take_while(|(x, y)| x == y)
        .count();
    let tail = |s: &Vec<char>, skip: usize| s[skip..].to_vec();
    if short.len() == long.len() {
        tail(short, same_start + 1) == tail(long, same_start + 1)
    } else {
        tail(short, same_start) == tail(long, same_start + 1)
    }
}

/// The pairs of distinct names a letter apart, per namespace.
fn near_pairs(spaces: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (space, names) in spaces {
        let mut names = names.clone();
        names.sort();
        names.dedup();
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                if kind(a) == kind(b) && a_letter_apart(a, b) {
                    found.push(format!("{space}: {a} / {b}"));
                }
            }
        }
    }
    found
}

#[test]
fn no_two_public_names_in_a_namespace_are_a_letter_apart() {
    let spaces = namespaces();
    // The namespaces were found, and hold what they should.
    for (space, name) in [
        ("seozoom", "Client"),
        ("seozoom::types", "DomainMetrics"),
        ("seozoom::types", "Serp"),
        ("seozoom::builder", "DomainsMetrics"),
        ("seozoom::operations", "OPERATIONS"),
        ("seozoom::operation_table", "Requirement"),
        ("seozoom::job", "Partial"),
        ("seozoom::error", "InvalidInput"),
    ] {
        assert!(
            spaces
                .get(space)
                .is_some_and(|n| n.iter().any(|n| n == name)),
            "{name} not found in {space}: {spaces:#?}"
        );
    }
    let root = &spaces["seozoom"];
    assert!(
        !root.iter().any(|n| n == "DomainMetrics" || n == "Request"),
        "the root holds only the everyday names: {root:?}"
    );
    assert_eq!(near_pairs(&spaces), Vec::<String>::new());
}

/// The check finds the pairs of the old layout, where every generated item
/// was at the root.
#[test]
fn the_old_flat_root_fails_the_check() {
    let spaces = namespaces();
    let flat: Vec<String> = ["seozoom::types", "seozoom::builder"]
        .iter()
        .flat_map(|space| spaces[*space].clone())
        .collect();
    let pairs = near_pairs(&BTreeMap::from([("seozoom".to_owned(), flat)]));
    for pair in [
        "DomainMetrics / DomainsMetrics",
        "UrlMetrics / UrlsMetrics",
        "KeywordMetrics / KeywordsMetrics",
    ] {
        assert!(
            pairs.iter().any(|p| p.ends_with(pair)),
            "{pair} not found in {pairs:?}"
        );
    }
}

#[test]
fn a_letter_apart_is_one_added_removed_or_changed_letter() {
    assert!(a_letter_apart("Role", "Rule"));
    assert!(a_letter_apart("DomainMetrics", "DomainsMetrics"));
    assert!(a_letter_apart("Db", "DB"));
    assert!(!a_letter_apart("Domains", "Keywords"));
    assert!(!a_letter_apart("DomainKeyword", "DomainsKeywords"));
    assert!(!a_letter_apart("Urls", "UrlsPza"));
}

/// The `.rs` files under `relative` (none when it does not exist), by path.
fn rust_files(relative: &str) -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                out.push((path.display().to_string(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(relative), &mut out);
    out
}

/// `seozoom::__private` is the generated code's path to the runtime, hidden
/// and free to change: the faces (the command line, the MCP server, the
/// Python extension) and the benches use the public API, as a user's program
/// does (a saved body decodes with `Operation::decode`, for one).
#[test]
fn faces_and_benches_use_the_public_api_only() {
    let mut files = Vec::new();
    for dir in ["cli/src", "mcp/src", "python/src", "benches"] {
        files.extend(rust_files(dir));
    }
    assert!(
        files.iter().any(|(path, _)| path.ends_with("core.rs")),
        "the faces' sources were found"
    );
    let private: Vec<&String> = files
        .iter()
        .filter(|(_, text)| text.contains("__private"))
        .map(|(path, _)| path)
        .collect();
    assert!(
        private.is_empty(),
        "`seozoom::__private` named in {private:?}"
    );
}

//! The import graph between the module files of each crate's `src/`.
//!
//! Each source file is a node (`lib.rs`/`main.rs` the root; an inline
//! `mod x { }` belongs to its file). A file imports another when it names a
//! `crate::`, `self::` or `super::` path, or a path starting with one of its
//! child modules (`child::f`), in a `use` tree or in code, whose longest
//! module prefix is that file; `crate::Item` of a non-module item is
//! the root. A path through a module's public re-export (`crate::a::X`, with
//! `a` passing on `x::X` by name, alias or glob) imports that module and, on
//! through the re-export, the file defining the item, as a reader follows it.
//! `mod x;` declarations are not imports, nor is a module's re-export of its
//! own descendants (a facade). Modules and items under
//! `#[cfg(test)]` are left out: tests may use anything.
//!
//! Rules: (a) no import loop between files; (d) no import loop between sibling
//! modules, whichever of their files the imports run between (as a reader sees
//! `envelope` and `decode`); (b) in the library, no runtime file imports the
//! root or generated code (the generated module and the modules re-exporting
//! it); (c) the library's `lib.rs` holds module declarations, re-exports and
//! docs only. (a) and (d) hold in every crate of the workspace with Rust
//! sources (`client`, `cli`, `mcp`, `codegen`'s library and binary, `python`'s
//! extension), (b) in the library, (c) in the library and `mcp`. Paths inside
//! `quote!` are code the generator writes for another crate, not imports.
//! Every violation is printed, then the test fails.

mod graph;
mod tree;

use std::collections::BTreeMap;
use std::path::Path;

use graph::{
    edges, facade_violations, loop_violations, sibling_loop_violations, upward_violations,
};
use tree::Tree;

/// The library modules that are or re-export generated code.
const GENERATED: [&str; 4] = ["generated", "operations", "types", "builder"];

/// Every `.rs` file under `dir`, by path relative to it (with `/`).
fn sources(dir: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let relative = path.strip_prefix(base).unwrap_or(&path);
                let name: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.insert(name.join("/"), text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn crate_src(name: &str) -> BTreeMap<String, String> {
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(name)
            .join("src"),
    )
}

/// Prints every violation and fails if there is one.
fn report(what: &str, violations: Vec<String>) {
    for line in &violations {
        eprintln!("{line}");
    }
    assert!(
        violations.is_empty(),
        "{what}: {} violation line(s), printed above",
        violations.len()
    );
}

fn check_client(sources: &BTreeMap<String, String>) -> Vec<String> {
    let tree = Tree::read(sources, "lib.rs");
    let edges = edges(&tree);
    let mut violations = tree.problems.clone();
    violations.extend(loop_violations(&edges));
    violations.extend(sibling_loop_violations(&tree, &edges));
    violations.extend(upward_violations(&tree, &edges, "lib.rs", &GENERATED));
    violations.extend(facade_violations(&tree, "lib.rs"));
    violations
}

#[test]
fn client_imports_run_one_way_without_loops() {
    report("client/src", check_client(&crate_src("client")));
}

/// Rules (a) and (d): no import loop, between files or between sibling
/// modules, in the crate tree rooted at `root`.
fn check_loops(sources: &BTreeMap<String, String>, root: &str) -> Vec<String> {
    let tree = Tree::read(sources, root);
    let edges = edges(&tree);
    let mut violations = tree.problems.clone();
    violations.extend(loop_violations(&edges));
    violations.extend(sibling_loop_violations(&tree, &edges));
    violations
}

/// The command line's crate: its library holds every module (`main.rs` only
/// calls it), so rules (a) and (d), and (c) for its `lib.rs`.
#[test]
fn cli_imports_have_no_loops() {
    let sources = crate_src("cli");
    let mut violations = check_loops(&sources, "lib.rs");
    violations.extend(facade_violations(&Tree::read(&sources, "lib.rs"), "lib.rs"));
    report("cli/src", violations);
}

/// The MCP server's crate: rules (a) and (d), and (c) for its `lib.rs`, its
/// entry point's facade.
#[test]
fn mcp_imports_have_no_loops() {
    let sources = crate_src("mcp");
    let mut violations = check_loops(&sources, "lib.rs");
    violations.extend(facade_violations(&Tree::read(&sources, "lib.rs"), "lib.rs"));
    report("mcp/src", violations);
}

#[test]
fn codegen_imports_have_no_loops() {
    let sources = crate_src("codegen");
    report("codegen/src (library)", check_loops(&sources, "lib.rs"));
    report("codegen/src (binary)", check_loops(&sources, "main.rs"));
}

#[test]
fn python_imports_have_no_loops() {
    report("python/src", check_loops(&crate_src("python"), "lib.rs"));
}

/// The checker finds what it is for: a loop through `super::` and `crate::`,
/// an import of the root, an item in `lib.rs`; and a facade, a test module
/// and an outside crate are no imports.
#[test]
fn checker_finds_loops_upward_imports_and_items() {
    let tree: BTreeMap<String, String> = [
        ("lib.rs", "mod a; mod b; pub use a::A; pub fn helper() {}"),
        ("a.rs", "use crate::b::B; pub struct A(B);"),
        (
            "b/mod.rs",
            "mod c; pub use self::c::C; pub struct B(Box<c::C>);",
        ),
        ("b/c.rs", "pub struct C(super::super::a::A, crate::helper);"),
        ("b/tests.rs", "use crate::helper;"),
    ]
    .into_iter()
    .map(|(path, text)| (path.to_string(), text.to_string()))
    .collect();
    let violations = check_client(&tree).join("\n");
    assert!(
        violations.contains("import loop between a.rs, b/c.rs, b/mod.rs"),
        "{violations}"
    );
    assert!(
        violations.contains("a.rs -> b/mod.rs via `crate::b::B`"),
        "{violations}"
    );
    assert!(
        violations.contains("b/c.rs -> a.rs via `super::super::a::A`"),
        "{violations}"
    );
    assert!(
        violations.contains("runtime reaches up: b/c.rs -> lib.rs via `crate::helper`"),
        "{violations}"
    );
    assert!(
        violations.contains("lib.rs holds `fn helper`"),
        "{violations}"
    );
    assert!(
        !violations.contains("lib.rs -> a.rs"),
        "a facade is no import: {violations}"
    );

    let clean: BTreeMap<String, String> = [
        ("lib.rs", "mod a; mod b; pub use a::A;"),
        ("a.rs", "use serde::Serialize; pub struct A(crate::b::B);"),
        (
            "b.rs",
            "pub struct B; #[cfg(test)] mod tests { use crate::a::A; }",
        ),
    ]
    .into_iter()
    .map(|(path, text)| (path.to_string(), text.to_string()))
    .collect();
    assert_eq!(check_client(&clean), Vec::<String>::new());
}

/// Rule (d) finds a loop between two sibling modules that no file closes on
/// its own (`a/x.rs -> b`, `b/mod.rs -> a`), in the library rules and in the
/// loop rules of the other crates; a module's own file importing its child is
/// no such edge, nor is a path inside `quote!` (code written for another crate).
#[test]
fn checker_finds_loops_between_sibling_modules() {
    let tree: BTreeMap<String, String> = [
        ("lib.rs", "mod a; mod b; mod c;"),
        (
            "a/mod.rs",
            "mod x; pub struct A; pub use self::x::X; fn e() { crate::c::f(); }",
        ),
        ("a/x.rs", "pub struct X(crate::b::B);"),
        ("b/mod.rs", "pub struct B(Box<crate::a::A>);"),
        (
            "c/mod.rs",
            "mod y; pub fn f() -> y::Y { y::Y } fn g() { quote!(crate::a::A); }",
        ),
        ("c/y.rs", "pub struct Y;"),
    ]
    .into_iter()
    .map(|(path, text)| (path.to_string(), text.to_string()))
    .collect();
    for violations in [check_client(&tree), check_loops(&tree, "lib.rs")] {
        let violations = violations.join("\n");
        assert!(
            violations.contains("module loop under the crate root between a, b"),
            "{violations}"
        );
        assert!(
            violations.contains("a/x.rs -> b/mod.rs via `crate::b::B`"),
            "{violations}"
        );
        assert!(!violations.contains("import loop"), "{violations}");
        assert!(!violations.contains("c/"), "{violations}");
        assert!(!violations.contains("between a, b, c"), "{violations}");
    }
}

/// A path through a module's re-export leads on to the file defining the
/// item, as a reader follows it: `b.rs` naming `super::A` (which `mod.rs`
/// re-exports from `a.rs`) imports `a.rs`, so `a.rs -> b.rs` closes a loop;
/// so does a name passed on by a glob (`pub use d::*`), and an alias
/// (`pub use e::E as Renamed`).
#[test]
fn checker_follows_reexports() {
    let tree: BTreeMap<String, String> = [
        ("lib.rs", "mod s;"),
        (
            "s/mod.rs",
            "mod a; mod b; mod c; mod d; mod e; mod f; pub(crate) use a::A; pub(crate) use d::*; pub(crate) use self::e::E as Renamed;",
        ),
        ("s/a.rs", "pub struct A(super::b::B);"),
        ("s/b.rs", "use super::A; pub struct B;"),
        ("s/c.rs", "pub struct C(Box<super::G>);"),
        ("s/d.rs", "pub(crate) struct G(super::c::C);"),
        ("s/e.rs", "pub struct E(super::f::F);"),
        ("s/f.rs", "pub struct F(Box<super::Renamed>);"),
    ]
    .into_iter()
    .map(|(path, text)| (path.to_string(), text.to_string()))
    .collect();
    for violations in [check_client(&tree), check_loops(&tree, "lib.rs")] {
        let violations = violations.join("\n");
        for expected in [
            "import loop between s/a.rs, s/b.rs",
            "s/b.rs -> s/a.rs via `super::A`",
            "import loop between s/c.rs, s/d.rs",
            "s/c.rs -> s/d.rs via `super::G`",
            "import loop between s/e.rs, s/f.rs",
            "s/f.rs -> s/e.rs via `super::Renamed`",
        ] {
            assert!(violations.contains(expected), "{expected}: {violations}");
        }
    }
}

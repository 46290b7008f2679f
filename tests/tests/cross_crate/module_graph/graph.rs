//! The import graph between module files, and the rules it is checked by.

use std::collections::{BTreeMap, BTreeSet};

use super::tree::{ModPath, Tree};

/// One import: `from` names `via`, which lives in `to`.
#[derive(Debug, Clone)]
pub struct Edge {
    /// The file that names the path.
    pub from: String,
    /// The file holding the module the path leads to.
    pub to: String,
    /// The path as written.
    pub via: String,
}

impl std::fmt::Display for Edge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} -> {} via `{}`", self.from, self.to, self.via)
    }
}

/// Every import between two different files of `tree`. A path leads to the
/// longest prefix of it that is a module file (an item of the root leads to
/// the root), and on through that module's public re-exports to the file
/// that defines the item (`crate::a::X`, with `a` re-exporting `x::X`, is an
/// import of `a` and of `a/x.rs`, as a reader follows it); a re-export of
/// the file's own descendants is a facade, no edge.
pub fn edges(tree: &Tree) -> Vec<Edge> {
    let mut edges = Vec::new();
    for (file, module_file) in &tree.files {
        for named in &module_file.named {
            let Some((target, _)) = resolve(tree, &named.segments) else {
                continue;
            };
            let facade = named.reexport
                && target.len() > module_file.module.len()
                && target.starts_with(&module_file.module);
            if facade {
                continue;
            }
            for to in reached(tree, &named.segments) {
                if &to == file {
                    continue;
                }
                let edge = Edge {
                    from: file.clone(),
                    to,
                    via: named.written.clone(),
                };
                let repeated = edges
                    .iter()
                    .any(|e: &Edge| e.from == edge.from && e.to == edge.to && e.via == edge.via);
                if !repeated {
                    edges.push(edge);
                }
            }
        }
    }
    edges
}

/// The module file holding the longest prefix of `segments`.
fn resolve<'t>(tree: &'t Tree, segments: &[String]) -> Option<(ModPath, &'t String)> {
    (0..=segments.len()).rev().find_map(|len| {
        let prefix = segments[..len].to_vec();
        tree.module_files.get(&prefix).map(|file| (prefix, file))
    })
}

/// The files a path leads through: the module file holding its longest
/// prefix, then, while the next segment is a name that file re-exports (by
/// name or through a glob), the file the re-export leads to.
fn reached(tree: &Tree, segments: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut segments = segments.to_vec();
    // A re-export chain is short; the bound stops a `pub use` cycle.
    for _ in 0..16 {
        let Some((prefix, file)) = resolve(tree, &segments) else {
            break;
        };
        if out.contains(file) {
            break;
        }
        out.push(file.clone());
        let Some(name) = segments.get(prefix.len()) else {
            break;
        };
        let module_file = &tree.files[file];
        let named = module_file
            .reexports
            .iter()
            .find(|(exported, _)| exported == name)
            .map(|(_, target)| target.clone());
        let globbed = || {
            module_file.globs.iter().find_map(|glob| {
                let (_, holder) = resolve(tree, glob)?;
                let holder = &tree.files[holder];
                let passes = holder.defined.contains(name)
                    || holder
                        .reexports
                        .iter()
                        .any(|(exported, _)| exported == name);
                passes.then(|| {
                    let mut target = glob.clone();
                    target.push(name.clone());
                    target
                })
            })
        };
        let Some(mut next) = named.or_else(globbed) else {
            break;
        };
        next.extend(segments[prefix.len() + 1..].iter().cloned());
        segments = next;
    }
    out
}

/// Each import loop, as the set of files that reach one another (a strongly
/// connected component of more than one file) with the edges inside it.
pub fn cycles(edges: &[Edge]) -> Vec<(Vec<String>, Vec<Edge>)> {
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for edge in edges {
        next.entry(&edge.from).or_default().insert(&edge.to);
        next.entry(&edge.to).or_default();
    }
    // Two files are in one loop when each reaches the other.
    let reach = |start: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start];
        while let Some(at) = todo.pop() {
            for &to in next.get(at).into_iter().flatten() {
                if seen.insert(to.to_string()) {
                    todo.push(to);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&str, BTreeSet<String>> =
        next.keys().map(|&file| (file, reach(file))).collect();
    let mut placed = BTreeSet::new();
    let mut found = Vec::new();
    for (&file, from_file) in &reached {
        if placed.contains(file) || !from_file.contains(file) {
            continue;
        }
        let members: Vec<String> = from_file
            .iter()
            .filter(|other| reached[other.as_str()].contains(file))
            .cloned()
            .collect();
        placed.extend(members.iter().cloned());
        let inside = edges
            .iter()
            .filter(|e| members.contains(&e.from) && members.contains(&e.to))
            .cloned()
            .collect();
        found.push((members, inside));
    }
    found
}

/// Rule (a): every import loop, one report line per loop and per edge in it.
pub fn loop_violations(edges: &[Edge]) -> Vec<String> {
    let mut out = Vec::new();
    for (members, inside) in cycles(edges) {
        out.push(format!("import loop between {}", members.join(", ")));
        out.extend(inside.iter().map(|edge| format!("  {edge}")));
    }
    out
}

/// Rule (b): no import from a runtime file to the root or to a file of the
/// modules in `generated` (generated code, or the modules re-exporting it).
pub fn upward_violations(
    tree: &Tree,
    edges: &[Edge],
    root: &str,
    generated: &[&str],
) -> Vec<String> {
    let is_generated = |file: &str| {
        tree.files
            .get(file)
            .and_then(|f| f.module.first())
            .is_some_and(|top| generated.contains(&top.as_str()))
    };
    edges
        .iter()
        .filter(|edge| edge.from != root && !is_generated(&edge.from))
        .filter(|edge| edge.to == root || is_generated(&edge.to))
        .map(|edge| format!("runtime reaches up: {edge}"))
        .collect()
}

/// Rule (c): the root holds module declarations, re-exports and docs only.
pub fn facade_violations(tree: &Tree, root: &str) -> Vec<String> {
    tree.files
        .get(root)
        .map(|file| {
            file.other_items
                .iter()
                .map(|item| format!("{root} holds `{}`, not a module or re-export", item.what))
                .collect()
        })
        .unwrap_or_default()
}

/// Rule (d): no loop between sibling modules, as a reader sees them: an
/// import from a file under module `a` to a file under its sibling `b` (both
/// children of the same module) is an edge `a -> b`, whatever files hold
/// them; the edges under each module must not loop. (`envelope/decode.rs ->
/// decode/quirks.rs` with `decode/mod.rs -> envelope/mod.rs` is such a loop,
/// though no file reaches itself.)
pub fn sibling_loop_violations(tree: &Tree, edges: &[Edge]) -> Vec<String> {
    let module_of = |file: &str| tree.files.get(file).map(|f| f.module.clone());
    // Per parent module: edges between two of its children, labelled by child.
    let mut by_parent: BTreeMap<ModPath, Vec<Edge>> = BTreeMap::new();
    for edge in edges {
        let (Some(from), Some(to)) = (module_of(&edge.from), module_of(&edge.to)) else {
            continue;
        };
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        // An edge between a module's own file and its descendants is no
        // edge between siblings.
        if common == from.len() || common == to.len() {
            continue;
        }
        let parent = from[..common].to_vec();
        by_parent.entry(parent).or_default().push(Edge {
            from: from[common].clone(),
            to: to[common].clone(),
            via: format!("{edge}"),
        });
    }
    let mut out = Vec::new();
    for (parent, sibling_edges) in by_parent {
        let under = if parent.is_empty() {
            "the crate root".to_owned()
        } else {
            format!("`{}`", parent.join("::"))
        };
        for (members, inside) in cycles(&sibling_edges) {
            out.push(format!(
                "module loop under {under} between {}",
                members.join(", ")
            ));
            out.extend(inside.iter().map(|edge| format!("  {}", edge.via)));
        }
    }
    out
}

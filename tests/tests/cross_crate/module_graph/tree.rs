//! A crate's module tree, read from its source files: which file holds which
//! module, and the `crate::`/`self::`/`super::` paths each file names.

use std::collections::BTreeMap;
use std::str::FromStr;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// A module path from the crate root (`["client", "memory"]`).
pub type ModPath = Vec<String>;

/// One path a file names, already made absolute (from the crate root).
#[derive(Debug, Clone)]
pub struct Named {
    /// The absolute segments, without `crate`.
    pub segments: ModPath,
    /// The path as written, for the report.
    pub written: String,
    /// A `pub`/`pub(..)` re-export: a facade when it points into the file's
    /// own descendants.
    pub reexport: bool,
}

/// A top-level item of a file that is not a module declaration or a `use`
/// (rule (c) reads it for `lib.rs`).
#[derive(Debug, Clone)]
pub struct OtherItem {
    /// The item's keyword and name as written (`fn main`, `struct X`).
    pub what: String,
}

/// One module file.
#[derive(Debug, Default)]
pub struct ModFile {
    /// The module it holds.
    pub module: ModPath,
    /// Paths named in it (outside `#[cfg(test)]` items).
    pub named: Vec<Named>,
    /// Items other than modules and `use`s, with any inline module's.
    pub other_items: Vec<OtherItem>,
    /// The names of the items it defines (a glob re-export of the module
    /// reaches them).
    pub defined: Vec<String>,
    /// Its public re-exports: the name another module reaches through it,
    /// and the absolute path of what it names.
    pub reexports: Vec<(String, ModPath)>,
    /// Its public glob re-exports (`pub use x::*`): the modules whose items
    /// it passes on.
    pub globs: Vec<ModPath>,
}

/// Every module file of a crate, by its path relative to `src/`.
#[derive(Debug, Default)]
pub struct Tree {
    /// Files by relative path (`client/mod.rs`).
    pub files: BTreeMap<String, ModFile>,
    /// Which file holds each module (inline modules have no entry: they
    /// belong to the file they are written in).
    pub module_files: BTreeMap<ModPath, String>,
    /// Files that could not be read or tokenised, and `mod x;` with no file.
    pub problems: Vec<String>,
}

impl Tree {
    /// Reads the tree from `sources` (relative path → text), starting at
    /// `root` (`lib.rs` or `main.rs`) and following `mod x;` declarations, so
    /// that files only a `#[cfg(test)] mod` declares are left out.
    pub fn read(sources: &BTreeMap<String, String>, root: &str) -> Tree {
        let mut tree = Tree::default();
        tree.load(sources, root.to_string(), Vec::new(), String::new());
        tree
    }

    /// Loads one file holding `module`, whose children live under `dir`.
    fn load(
        &mut self,
        sources: &BTreeMap<String, String>,
        file: String,
        module: ModPath,
        dir: String,
    ) {
        let Some(text) = sources.get(&file) else {
            self.problems
                .push(format!("{file}: declared but not found"));
            return;
        };
        let tokens = match TokenStream::from_str(text) {
            Ok(tokens) => tokens,
            Err(error) => {
                self.problems
                    .push(format!("{file}: does not tokenise: {error}"));
                return;
            }
        };
        self.module_files.insert(module.clone(), file.clone());
        let mut scan = Scan {
            named: Vec::new(),
            other_items: Vec::new(),
            defined: Vec::new(),
            reexports: Vec::new(),
            globs: Vec::new(),
            children: Vec::new(),
        };
        scan.items(tokens, &module, &dir);
        self.files.insert(
            file,
            ModFile {
                module,
                named: scan.named,
                other_items: scan.other_items,
                defined: scan.defined,
                reexports: scan.reexports,
                globs: scan.globs,
            },
        );
        for (child_module, child_dir) in scan.children {
            let name = child_module.last().cloned().unwrap_or_default();
            let flat = format!("{child_dir}{name}.rs");
            let nested = format!("{child_dir}{name}/mod.rs");
            let (file, dir) = if sources.contains_key(&flat) {
                (flat, format!("{child_dir}{name}/"))
            } else {
                (nested, format!("{child_dir}{name}/"))
            };
            self.load(sources, file, child_module, dir);
        }
    }
}

/// Macros whose body is code written for another crate (a generator's
/// output), whose paths are not this crate's.
const QUOTING: [&str; 3] = ["quote", "quote_spanned", "parse_quote"];

/// What one file's tokens hold.
struct Scan {
    named: Vec<Named>,
    other_items: Vec<OtherItem>,
    defined: Vec<String>,
    reexports: Vec<(String, ModPath)>,
    globs: Vec<ModPath>,
    /// `mod x;` declarations: the module and the directory its file is in.
    children: Vec<(ModPath, String)>,
}

impl Scan {
    /// Reads the items of a module body (`module`, children files in `dir`).
    fn items(&mut self, tokens: TokenStream, module: &ModPath, dir: &str) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut at = 0;
        while at < tokens.len() {
            // Attributes (doc comments included) of the next item.
            let mut test_only = false;
            let mut doctest_only = false;
            while let Some(TokenTree::Punct(p)) = tokens.get(at) {
                if p.as_char() != '#' {
                    break;
                }
                let mut next = at + 1;
                if matches!(tokens.get(next), Some(TokenTree::Punct(p)) if p.as_char() == '!') {
                    next += 1;
                }
                let Some(TokenTree::Group(g)) = tokens.get(next) else {
                    break;
                };
                test_only |= is_cfg_test(&g.stream());
                doctest_only |= is_cfg(&g.stream(), "doctest");
                at = next + 1;
            }
            if at >= tokens.len() {
                break;
            }
            let start = at;
            // Visibility.
            let mut public = false;
            if is_ident(tokens.get(at), "pub") {
                public = true;
                at += 1;
                if matches!(tokens.get(at), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
                {
                    at += 1;
                }
            }
            let end = item_end(&tokens, at);
            let stray_semicolon =
                matches!(tokens.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ';');
            if test_only || stray_semicolon {
                at = end;
                continue;
            }
            if is_ident(tokens.get(at), "mod") {
                if let Some(TokenTree::Ident(name)) = tokens.get(at + 1) {
                    let mut child = module.clone();
                    child.push(name.to_string());
                    match tokens.get(at + 2) {
                        Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => {
                            let child_dir = format!("{dir}{name}/");
                            self.items(body.stream(), &child, &child_dir);
                        }
                        _ => self.children.push((child, dir.to_string())),
                    }
                }
            } else if is_ident(tokens.get(at), "use") {
                let mut leaves = Vec::new();
                use_tree(&tokens[at + 1..end], Vec::new(), &mut leaves);
                for leaf in leaves {
                    let Some(segments) = self.absolute(module, &leaf.path) else {
                        continue;
                    };
                    if public {
                        if leaf.glob {
                            self.globs.push(segments.clone());
                        } else if let Some(name) = leaf.alias.or_else(|| segments.last().cloned()) {
                            self.reexports.push((name, segments.clone()));
                        }
                    }
                    self.named.push(Named {
                        segments,
                        written: leaf.path.join("::"),
                        reexport: public,
                    });
                }
            } else {
                if let Some(name) = item_name(&tokens[at..end]) {
                    self.defined.push(name);
                }
                if !doctest_only && !is_ident(tokens.get(at), "macro_rules") {
                    let what: Vec<String> = tokens[at..end.min(at + 2)]
                        .iter()
                        .map(|t| t.to_string())
                        .collect();
                    self.other_items.push(OtherItem {
                        what: what.join(" "),
                    });
                }
                // A macro's `use` lines are written for the module it
                // expands in, not this one: only its paths count.
                let in_macro = is_ident(tokens.get(at), "macro_rules");
                self.code(&tokens[start..end], module, in_macro);
            }
            at = end;
        }
    }

    /// Collects the `crate::`/`self::`/`super::` paths named in code. The
    /// body of a quasi-quoting macro (`quote!`) is code this crate writes
    /// for another, not paths of its own: it is skipped.
    fn code(&mut self, tokens: &[TokenTree], module: &ModPath, in_macro: bool) {
        let mut at = 0;
        while at < tokens.len() {
            if QUOTING.iter().any(|name| is_ident(tokens.get(at), name))
                && matches!(tokens.get(at + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
                && matches!(tokens.get(at + 2), Some(TokenTree::Group(_)))
            {
                at += 3;
                continue;
            }
            // A `use` inside a body: its tree, as at the top level.
            if !in_macro && is_ident(tokens.get(at), "use") {
                let end = item_end(tokens, at);
                let mut leaves = Vec::new();
                use_tree(&tokens[at + 1..end], Vec::new(), &mut leaves);
                for leaf in leaves {
                    if let Some(segments) = self.absolute(module, &leaf.path) {
                        self.named.push(Named {
                            segments,
                            written: leaf.path.join("::"),
                            reexport: false,
                        });
                    }
                }
                at = end;
                continue;
            }
            match &tokens[at] {
                TokenTree::Group(g) => self.code(
                    &g.stream().into_iter().collect::<Vec<_>>(),
                    module,
                    in_macro,
                ),
                // `crate::`, `self::`, `super::`, or a path starting with a
                // child module's name (`child::f()`), not the tail of `a::b`.
                TokenTree::Ident(i)
                    if is_path_sep(tokens, at + 1)
                        && !(at >= 1
                            && matches!(&tokens[at - 1], TokenTree::Punct(p) if p.as_char() == ':')) =>
                {
                    let mut written = vec![i.to_string()];
                    let mut next = at + 1;
                    while is_path_sep(tokens, next) {
                        match tokens.get(next + 2) {
                            Some(TokenTree::Ident(seg)) => {
                                written.push(seg.to_string());
                                next += 3;
                            }
                            _ => break,
                        }
                    }
                    if written.len() > 1
                        && let Some(segments) = self.absolute(module, &written)
                    {
                        self.named.push(Named {
                            segments,
                            written: written.join("::"),
                            reexport: false,
                        });
                    }
                    at = next.max(at + 1);
                    continue;
                }
                _ => {}
            }
            at += 1;
        }
    }

    /// Makes `written` absolute from `module`. A first segment that is no
    /// keyword is taken as a child module: when there is none of that name
    /// (an outside crate, a type), the path resolves to the file itself,
    /// which the graph leaves out.
    fn absolute(&self, module: &ModPath, written: &[String]) -> Option<ModPath> {
        let mut base = module.clone();
        let mut rest = written;
        match written.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                rest = &written[1..];
            }
            Some("self") => rest = &written[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                if rest.first().map(String::as_str) == Some("self") {
                    rest = &rest[1..];
                }
            }
            Some(_) => {}
            None => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }
}

/// One leaf of a `use` tree: the path, the name it is brought in as (`as`),
/// and whether it is a glob (`path::*`).
struct Leaf {
    path: Vec<String>,
    alias: Option<String>,
    glob: bool,
}

/// Expands a `use` tree into its leaf paths (`a::{b, c::*}` → `a::b`, `a::c`).
fn use_tree(tokens: &[TokenTree], prefix: Vec<String>, out: &mut Vec<Leaf>) {
    let mut path = prefix;
    let mut alias = None;
    let mut glob = false;
    let mut at = 0;
    // A leading `::` names an outside crate.
    if is_path_sep(tokens, 0) {
        return;
    }
    while at < tokens.len() {
        match &tokens[at] {
            TokenTree::Ident(i) if i == "as" => {
                alias = match tokens.get(at + 1) {
                    Some(TokenTree::Ident(name)) if name != "_" => Some(name.to_string()),
                    _ => None,
                };
                break;
            }
            TokenTree::Ident(i) => {
                path.push(i.to_string());
                at += 1;
            }
            TokenTree::Punct(p) if p.as_char() == ':' => at += 1,
            TokenTree::Punct(p) if p.as_char() == '*' => {
                glob = true;
                break;
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for part in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                {
                    if !part.is_empty() {
                        use_tree(part, path.clone(), out);
                    }
                }
                return;
            }
            _ => at += 1,
        }
    }
    // `use super::x::{self}` names `super::x`.
    if path.last().map(String::as_str) == Some("self") && path.len() > 1 {
        path.pop();
    }
    if !path.is_empty() {
        out.push(Leaf { path, alias, glob });
    }
}

/// The name an item defines (`fn f`, `pub(crate) const fn g`, `struct S`,
/// `const N: T`), if it is one that names one.
fn item_name(tokens: &[TokenTree]) -> Option<String> {
    const KINDS: [&str; 9] = [
        "fn",
        "struct",
        "enum",
        "union",
        "trait",
        "type",
        "const",
        "static",
        "macro_rules",
    ];
    let mut at = 0;
    while let Some(TokenTree::Ident(word)) = tokens.get(at) {
        let word = word.to_string();
        if KINDS.contains(&word.as_str()) {
            match tokens.get(at + 1) {
                // `const fn`, `unsafe fn` and the like: the kind comes next.
                Some(TokenTree::Ident(next)) if KINDS.contains(&next.to_string().as_str()) => {}
                Some(TokenTree::Ident(name)) => return Some(name.to_string()),
                Some(TokenTree::Punct(bang)) if bang.as_char() == '!' => {
                    return match tokens.get(at + 2) {
                        Some(TokenTree::Ident(name)) => Some(name.to_string()),
                        _ => None,
                    };
                }
                _ => return None,
            }
        } else if word == "impl" || word == "use" || word == "mod" {
            return None;
        }
        at += 1;
    }
    None
}

/// Where the item starting at `at` ends: after its `;`, or after its body
/// (the first brace group, unless a `;` follows it as in `const X: T = T {..};`
/// or `use a::{b, c};`).
fn item_end(tokens: &[TokenTree], at: usize) -> usize {
    let is_use = is_ident(tokens.get(at), "use");
    let mut i = at;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == ';' => return i + 1,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                let assigned = tokens[at..i]
                    .iter()
                    .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '='));
                if !assigned && !is_use {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    tokens.len()
}

/// `::` starting at `at`.
fn is_path_sep(tokens: &[TokenTree], at: usize) -> bool {
    matches!(
        (tokens.get(at), tokens.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

fn is_ident(token: Option<&TokenTree>, word: &str) -> bool {
    matches!(token, Some(TokenTree::Ident(i)) if i == word)
}

/// `cfg(test)`, or `cfg(all(.., test, ..))`: compiled for tests only.
fn is_cfg_test(attr: &TokenStream) -> bool {
    let tokens: Vec<TokenTree> = attr.clone().into_iter().collect();
    match (tokens.first(), tokens.get(1)) {
        (Some(TokenTree::Ident(cfg)), Some(TokenTree::Group(args))) if cfg == "cfg" => {
            let args: Vec<TokenTree> = args.stream().into_iter().collect();
            match (args.first(), args.get(1)) {
                (Some(TokenTree::Ident(t)), None) => t == "test",
                (Some(TokenTree::Ident(all)), Some(TokenTree::Group(inner))) if all == "all" => {
                    inner
                        .stream()
                        .into_iter()
                        .any(|t| matches!(t, TokenTree::Ident(i) if i == "test"))
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// `cfg(word)`.
fn is_cfg(attr: &TokenStream, word: &str) -> bool {
    let tokens: Vec<TokenTree> = attr.clone().into_iter().collect();
    matches!(
        (tokens.first(), tokens.get(1)),
        (Some(TokenTree::Ident(cfg)), Some(TokenTree::Group(args)))
            if cfg == "cfg" && args.stream().to_string() == word
    )
}

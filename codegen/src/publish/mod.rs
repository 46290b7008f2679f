//! `seozoom-codegen publish`: the spec for other languages, in `spec/published/`.
//!
//! Every file is made from the validated spec (JSON files written as canonical
//! JSON, `json.rs`), so the same spec always gives the same bytes:
//!
//! - `seozoom-v2.json`: the spec file's data as JSON (`spec_json`), and
//!   `spec.schema.json`, the schema of the spec format (`spec_schema.rs`);
//! - `schemas/`: a standalone JSON Schema (draft 2020-12) per record, for the
//!   SERP, for the no-match body and for the envelope of every action (`wire.rs`);
//! - `openapi.json` (3.1) and `openapi-3.0.json` (3.0.3) (`openapi.rs`, with
//!   `params.rs`, `examples.rs` and `answers.rs`, the refusals and media types
//!   both kinds of document share, with their examples from `refusal_examples.rs`);
//! - `actions/GROUP.ACTION.openapi.json`, one OpenAPI 3.1 document per action
//!   (`action_doc.rs`), and `schemas/queries/`, each action's query as one JSON
//!   Schema with its rules (`query.rs`);
//! - `schemathesis.toml` and `schemathesis_hooks.py`, the fuzzing setup
//!   (`fuzz.rs`);
//! - `redocly.yaml` and `.spectral.yaml`, the linters' configurations, each
//!   rule that is off with its reason (`lint.rs`);
//! - `seozoom.postman_collection.json`, the API as a Postman collection
//!   (`postman.rs`);
//! - `README.md`, an index and the notes for client generators (`readme.rs`,
//!   from the template `readme.md`).
//!
//! The README, the fuzzing setup and the linters' configurations are text
//! from templates (`template.rs`).
//!
//! This module belongs to the binary, not to the library: publishing has no
//! part in building the client, whose build script depends on the library.
//! `command.rs` is the subcommand.

mod action_doc;
mod answers;
pub mod command;
mod examples;
mod fuzz;
mod json;
mod lint;
mod openapi;
mod params;
mod paths;
mod plain;
mod postman;
mod query;
mod readme;
mod refusal_examples;
mod spec_schema;
mod template;
mod wire;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use seozoom_codegen::diagnostics::{Collector, SourceFile};
use seozoom_codegen::model::Spec;
use seozoom_codegen::{parse, resolve};

use paths::{action_path, document_path, query_path, record_path};
use seozoom_codegen::schema::{self, Dialect, SERP};
use wire::{ERROR, NO_DATA};

/// Files under the output directory, by relative path (`/`-separated).
pub type Files = BTreeMap<String, String>;

/// The spec's data as JSON, every reference to a shared definition written out
/// in place (`plain.rs`).
fn spec_json(spec_text: &str) -> Result<serde_json::Value, String> {
    let file = SourceFile::new("spec", spec_text);
    let parsed = parse::parse(&file).map_err(|d| d.to_string())?;
    let mut found = Collector::new(&file);
    let resolved = resolve::resolve(&mut found, &parsed);
    found.finish().map_err(|d| d.to_string())?;
    Ok(plain::plain(&parsed, &resolved))
}

/// Every published file, made from the spec's text and its validated model.
pub fn files(spec_text: &str, spec: &Spec) -> Result<Files, String> {
    let mut files = Files::new();
    files.insert(
        "seozoom-v2.json".into(),
        json::canonical(&spec_json(spec_text)?),
    );
    files.insert(
        "spec.schema.json".into(),
        json::canonical(&spec_schema::spec_schema()),
    );
    files.insert(
        "openapi.json".into(),
        json::canonical(&openapi::document(Dialect::Oas31, spec)?),
    );
    files.insert(
        "openapi-3.0.json".into(),
        json::canonical(&openapi::document(Dialect::Oas30, spec)?),
    );

    let defs = wire::definitions(Dialect::Schema, spec)?;
    let standalone = |name: &str| json::canonical(&schema::standalone(&defs, name));
    for r in &spec.records {
        files.insert(record_path(&r.name), standalone(&r.type_name));
    }
    files.insert("schemas/serp.schema.json".into(), standalone(SERP));
    files.insert("schemas/no_data.schema.json".into(), standalone(NO_DATA));
    files.insert("schemas/error.schema.json".into(), standalone(ERROR));
    for a in &spec.actions {
        files.insert(
            action_path(&a.group, &a.wire),
            standalone(&wire::envelope_name(a)),
        );
        let mut query = query::query(spec, a)?;
        query["$schema"] = serde_json::json!("https://json-schema.org/draft/2020-12/schema");
        files.insert(query_path(&a.group, &a.wire), json::canonical(&query));
        files.insert(
            document_path(&a.group, &a.wire),
            json::canonical(&action_doc::document(spec, a)?),
        );
    }
    files.insert(
        postman::PATH.into(),
        json::canonical(&postman::collection(spec)),
    );
    files.insert("README.md".into(), readme::readme(spec));
    files.extend(fuzz::files(spec));
    files.extend(lint::files(spec));
    Ok(files)
}

/// Relative paths (`/`-separated) of the files under `dir`.
fn existing(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            // Python's bytecode cache, left by running the hooks from here.
            if path.file_name().is_some_and(|n| n == "__pycache__") {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else if let Ok(relative) = path.strip_prefix(root) {
                let parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(parts.join("/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn full(dir: &Path, relative: &str) -> PathBuf {
    relative
        .split('/')
        .fold(dir.to_path_buf(), |p, c| p.join(c))
}

/// What differs between `files` and `dir`: missing and changed files, and
/// with `strays` the files under `dir` that are not generated.
pub fn stale(dir: &Path, files: &Files, strays: bool) -> Vec<String> {
    let mut problems = Vec::new();
    for (relative, text) in files {
        match std::fs::read_to_string(full(dir, relative)) {
            Ok(on_disk) if on_disk == *text => {}
            Ok(_) => problems.push(format!("{relative}: differs from the spec")),
            Err(_) => problems.push(format!("{relative}: missing")),
        }
    }
    for relative in existing(dir).into_iter().filter(|_| strays) {
        if !files.contains_key(&relative) {
            problems.push(format!("{relative}: not generated from the spec"));
        }
    }
    problems
}

/// Write `files` under `dir`, and remove the schema and per-action files the
/// spec no longer makes (a renamed record or action).
pub fn write(dir: &Path, files: &Files) -> std::io::Result<()> {
    for (relative, text) in files {
        let path = full(dir, relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text)?;
        }
    }
    for relative in existing(dir) {
        let generated = (relative.starts_with("schemas/") && relative.ends_with(".schema.json"))
            || (relative.starts_with("actions/") && relative.ends_with(".openapi.json"));
        if generated && !files.contains_key(&relative) {
            std::fs::remove_file(full(dir, &relative))?;
        }
    }
    Ok(())
}

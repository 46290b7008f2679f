//! Writes the JSON Schemas the tools state, made from the spec by the
//! generator's schema module (`seozoom_codegen::schema`, as the published
//! documents are), to `$OUT_DIR/tool_schemas.json`, which `src/shared_schemas.rs`
//! includes. The server adds what is its own on top (`src/input_schema.rs`,
//! `src/output_schema.rs`).
//!
//! The file holds:
//!
//! - `operations`: per operation (`"group action"`), its parameters' schemas
//!   as a caller gives them (a list as an array), by wire name, and its
//!   payload's schema: its record (or the SERP) as the client decodes it
//!   (`View::Decoded`: what a tool's `structuredContent` holds), the records
//!   it holds written out in place, [`DEPTH`] levels deep;
//!   Each enum parameter's schema also holds what each value means, from the
//!   spec, as `x-seozoom-values` (`[[value, meaning], ...]`), which the server
//!   moves into the parameter's description;
//! - `database`: the common database parameter's schema, with its values'
//!   meanings alike;
//! - `envelope`: the envelope around a payload, its `response` left empty.

use std::path::Path;

use seozoom_codegen::model::{Param, Payload, Spec};
use seozoom_codegen::schema::{self, Dialect, SERP, View, param};
use serde_json::{Map, Value, json};

/// How deep records are written out inside a payload: the spec's records
/// nest once; a deeper (or circular) one is any value.
const DEPTH: usize = 4;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let spec = match seozoom_codegen::load_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT) {
        Ok(spec) => spec,
        Err(diagnostics) => panic!("{diagnostics}"),
    };
    let d = Dialect::Schema;
    let definitions = match schema::definitions(d, View::Decoded, &spec) {
        Ok(definitions) => definitions,
        Err(error) => panic!("{error}"),
    };
    let mut operations = Map::new();
    for a in &spec.actions {
        let params: Map<String, Value> = a
            .params
            .iter()
            .map(|p| (p.wire.clone(), with_meanings(&spec, p)))
            .collect();
        let payload = match &a.response.payload {
            Payload::Record { type_name, .. } => type_name.as_str(),
            Payload::Serp => SERP,
        };
        operations.insert(
            format!("{} {}", a.group, a.wire),
            json!({
                "params": params,
                "payload": schema::inline(&definitions, &d.reference(payload), DEPTH),
            }),
        );
    }
    let schemas = json!({
        "operations": operations,
        "database": with_meanings(&spec, &spec.common.database),
        "envelope": schema::envelope(d, View::Decoded, &spec, None, json!({})),
    });
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("tool_schemas.json");
    if let Err(error) = std::fs::write(&out, schemas.to_string()) {
        panic!("cannot write {}: {error}", out.display());
    }
}

/// The schema of `p` as a caller gives it, with what each of its values means
/// when it is an enum ([`VALUES`]).
fn with_meanings(spec: &Spec, p: &Param) -> Value {
    let mut schema = param::as_array(spec, p);
    let meanings = param::value_meanings(spec, p);
    if !meanings.is_empty()
        && let Value::Object(members) = &mut schema
    {
        members.insert(VALUES.into(), json!(meanings));
    }
    schema
}

/// The member of a parameter's schema that holds its values' meanings.
const VALUES: &str = "x-seozoom-values";

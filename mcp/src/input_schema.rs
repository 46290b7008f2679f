//! A tool's `inputSchema`: each parameter's schema as the generator's schema
//! module makes it from the spec (`shared_schemas`, the same as the published
//! documents'), with what is the server's own on top. Nothing here names a
//! parameter.
//!
//! On top of the shared schema:
//!
//! - the batch parameter takes any number of values (a longer list is a
//!   batched job), so its `maxItems` goes, and its description says the
//!   per-request figure;
//! - a description is the spec's sentence alone: limits the schema states are
//!   not repeated in words (every session pays for the tool list in tokens);
//! - a text value says `minLength: 1` rather than the published pattern (not
//!   blank, no list separator), which would cost about 100 bytes per text
//!   parameter; the validator refuses the rest with a message naming the
//!   parameter, the value and the rule;
//! - an enum parameter's description says what each value means, from the
//!   spec (an `enum` lists the values alone);
//! - the database defaults to the session's database (its `default` says
//!   which);
//! - `fields`, `max_rows`, `resume` and `max_wait_s`, the server's own
//!   arguments, each with a description that says how the call uses it;
//! - [`trim`](super::agent_schema::trim) takes off what tells an agent nothing.
//!
//! The schema says what the validator checks, so that a client can catch a
//! mistake before calling; the validator still checks everything. Conditional
//! rules are in the tool's description, not here: JSON Schema `if`/`then` is
//! hard for an agent to read and for many clients to use.

use seozoom::operation_table::Operation;
use seozoom::operation_table::{Param, ParamKind};
use seozoom::operations::SERVICE;
use serde_json::{Map, Value, json};

use super::agent_schema::trim;
use super::json_schema::TYPE;
use super::shared_schemas;
use super::tool_names::{ARG_FIELDS, ARG_MAX_ROWS, ARG_MAX_WAIT_S, RESUME};

/// The `inputSchema` of `op`'s tool: one property per parameter the caller
/// gives, and the database, whose default is `default_database`.
pub fn input_schema(op: &Operation, default_database: &str) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for param in op.params.iter().filter(|p| !p.implicit) {
        properties.insert(param.wire.to_owned(), param_schema(op, param));
        if param.required {
            required.push(json!(param.wire));
        }
    }
    if !properties.contains_key(SERVICE.database.wire) {
        properties.insert(
            SERVICE.database.wire.to_owned(),
            database_schema(default_database),
        );
    }
    if let Some(fields) = super::fields::schema(op) {
        properties.insert(ARG_FIELDS.to_owned(), fields);
    }
    if let Some(paging) = op.paging() {
        properties.insert(ARG_MAX_ROWS.to_owned(), max_rows_schema(&paging));
    }
    // A job that can stop part-way goes on by its handle (said once, in the
    // server's instructions).
    if op.batch_param().is_some() || op.paging().is_some() {
        properties.insert(RESUME.to_owned(), json!({TYPE: "string"}));
    }
    properties.insert(
        ARG_MAX_WAIT_S.to_owned(),
        json!({
            TYPE: "number",
            "minimum": 0,
            "description": "Longest rate-limit wait, in seconds.",
        }),
    );
    object(properties, required)
}

/// An object schema with these properties, of which `required` must be given,
/// and no others.
pub fn object(properties: Map<String, Value>, required: Vec<Value>) -> Map<String, Value> {
    let mut schema = Map::new();
    schema.insert(TYPE.into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    schema
}

/// The database parameter: optional, one of the spec's values, the
/// session's by default.
fn database_schema(default_database: &str) -> Value {
    let mut schema = shared_schemas::database();
    let description = with_values(sentence(SERVICE.database.description), &mut schema);
    schema.insert("description".into(), json!(description));
    schema.insert("default".into(), json!(default_database));
    trimmed(schema)
}

/// The row cap of a paged operation's tool: with it, the rows come page by
/// page (`limit` a page) until a short page or the cap.
fn max_rows_schema(paging: &seozoom::job::Paging) -> Value {
    json!({
        TYPE: "integer",
        "minimum": 1,
        "description": format!(
            "Rows wanted: pages of `{}` rows from `{}` on, until a short page or this many (estimated and budgeted whole).",
            paging.limit.wire, paging.offset.wire
        ),
    })
}

/// The schema of one parameter: the shared one, with the server's own on top.
fn param_schema(op: &Operation, param: &Param) -> Value {
    let mut schema = shared_schemas::param(op, param.wire);
    if op.batch_param().is_some_and(|p| p.wire == param.wire) {
        schema.remove("maxItems");
    }
    if param.kind == ParamKind::Text {
        let value = match schema.get_mut("items") {
            Some(Value::Object(items)) => items,
            _ => &mut schema,
        };
        value.remove("pattern");
        value.insert("minLength".into(), json!(1));
    }
    let description = with_values(describe(op, param), &mut schema);
    schema.insert("description".into(), json!(description));
    trimmed(schema)
}

/// `description` followed by what each value of an enum parameter means, as
/// `build.rs` put it in the shared schema (taken out of it here).
fn with_values(description: String, schema: &mut Map<String, Value>) -> String {
    let Some(Value::Array(values)) = schema.remove(shared_schemas::VALUES) else {
        return description;
    };
    let meanings: Vec<String> = values
        .iter()
        .filter_map(|pair| {
            let value = pair.get(0)?.as_str()?;
            let meaning = pair.get(1)?.as_str()?;
            Some(format!(
                "`{value}` {}",
                meaning.trim().trim_end_matches('.')
            ))
        })
        .collect();
    if meanings.is_empty() {
        return description;
    }
    format!("{description} {}.", meanings.join("; "))
}

fn trimmed(schema: Map<String, Value>) -> Value {
    let mut schema = Value::Object(schema);
    trim(&mut schema);
    schema
}

/// A parameter's description: what it means, and how a long list is sent.
///
/// Limits the schema states (`minimum`, `maximum`, `minItems`, `maxItems`,
/// `required`, the date's `format`) are not repeated in words: the tool list
/// is paid for in tokens by every session. The batch parameter's per-request
/// limit, which is not a limit on the call, is said here.
fn describe(op: &Operation, param: &Param) -> String {
    let mut parts = vec![sentence(param.description)];
    if let Some(max) = &param.max_items
        && op.batch_param().is_some_and(|p| p.wire == param.wire)
    {
        parts.push(format!(
            "At most {} per request; a longer list is a batched job.",
            max.value
        ));
    }
    parts.join(" ")
}

/// `text` ending in one full stop.
pub fn sentence(text: &str) -> String {
    format!("{}.", text.trim().trim_end_matches('.'))
}

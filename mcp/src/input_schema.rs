//! A tool's `inputSchema`, from its operation's parameters in the table: types,
//! `required`, enums, `minimum`/`maximum`, the date format, lists as arrays, and
//! the country database as an optional enum. Nothing here names a parameter.
//!
//! The schema says what the validator checks, so that a client can catch a
//! mistake before calling; the validator still checks everything, and its
//! message names the parameter, the value and the limit. Conditional rules are
//! in the tool's description, not here: JSON Schema `if`/`then` is hard for an
//! agent to read and for many clients to use.

use seozoom::operation_table::Operation;
use seozoom::operation_table::{Param, ParamKind};
use seozoom::operations::SERVICE;
use serde_json::{Map, Value, json};

use super::json_schema::{DATE, TYPE};

/// `^...$` pattern of a date written `yyyy-MM-dd`.
const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

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

/// The database parameter: optional, one of the spec's values.
fn database_schema(default_database: &str) -> Value {
    let param = &SERVICE.database;
    let mut schema = value_schema(param);
    schema.insert(
        "description".into(),
        json!(format!(
            "{} Default: {default_database}.",
            sentence(param.description)
        )),
    );
    schema.insert("default".into(), json!(default_database));
    Value::Object(schema)
}

/// The schema of one parameter: its value's, or an array of them for a list.
fn param_schema(op: &Operation, param: &Param) -> Value {
    let value = value_schema(param);
    let mut schema = if param.list {
        let mut list = Map::new();
        list.insert(TYPE.into(), json!("array"));
        list.insert("items".into(), Value::Object(value));
        if let Some(min) = &param.min_items {
            list.insert("minItems".into(), json!(min.value.max(0)));
        }
        // The batch parameter takes any number of values: a longer list is a
        // batched job. Another list is refused past its limit.
        let batched = op.batch_param().is_some_and(|p| p.wire == param.wire);
        if let (Some(max), false) = (&param.max_items, batched) {
            list.insert("maxItems".into(), json!(max.value.max(0)));
        }
        list
    } else {
        value
    };
    if let Some(default) = param.default {
        let default = match param.kind {
            ParamKind::Integer => default
                .parse::<i64>()
                .map_or_else(|_| json!(default), |n| json!(n)),
            _ => json!(default),
        };
        schema.insert("default".into(), default);
    }
    schema.insert("description".into(), json!(describe(op, param)));
    Value::Object(schema)
}

/// The schema of one value of a parameter.
fn value_schema(param: &Param) -> Map<String, Value> {
    let mut schema = Map::new();
    match param.kind {
        ParamKind::Integer => {
            schema.insert(TYPE.into(), json!("integer"));
            if let Some(min) = &param.min {
                schema.insert("minimum".into(), json!(min.value));
            }
            if let Some(max) = &param.max {
                schema.insert("maximum".into(), json!(max.value));
            }
        }
        ParamKind::Date => {
            schema.insert(TYPE.into(), json!("string"));
            schema.insert("format".into(), json!(DATE));
            schema.insert("pattern".into(), json!(DATE_PATTERN));
        }
        ParamKind::Enum { values, .. } => {
            schema.insert(TYPE.into(), json!("string"));
            schema.insert("enum".into(), json!(values));
        }
        // Text, and any kind a later spec adds: the validator checks it.
        _ => {
            schema.insert(TYPE.into(), json!("string"));
            schema.insert("minLength".into(), json!(1));
        }
    }
    schema
}

/// A parameter's description: what it means, its limits with their provenance,
/// and how a long list is sent.
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
            "At most {} per request; a longer list is a batched job of several requests (see `estimate`).",
            max.value
        ));
    }
    parts.join(" ")
}

/// `text` ending in one full stop.
pub fn sentence(text: &str) -> String {
    format!("{}.", text.trim().trim_end_matches('.'))
}

//! A record's schema, member by member, and the SERP's; the named definitions
//! they make together, and the two ways a document holds them: referenced from
//! `$defs` ([`standalone`]) or written out in place ([`inline`]).
//!
//! An integer is a whole number ([`integer`]: on the wire a `number` with
//! `multipleOf: 1`, since the service writes some as `12.0`), an optional
//! member is left out of `required`, and the quirk types are strings with a
//! `pattern`. Records do not forbid members the spec does not list, as the
//! client ignores them.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::dialect::{Dialect, View};
use super::patterns::{
    BOOL_WORD_PATTERN, DATE_PATTERN, DATETIME_PATTERN, POSITION_PATTERN, TIME_PATTERN, regex_escape,
};
use crate::model::{Field, FieldType, ListItem, Record, SERP, Spec};

/// The schema of an integer in a body, as `view` sees it.
///
/// On the wire ([`View::Wire`]) a whole number: `number` with `multipleOf: 1`
/// and format `double`, not `integer`. The service writes some integers as
/// integral floats (`12.0`); JSON Schema counts those as integers, but the
/// types generators make from `integer` (pydantic's `int` in strict mode,
/// serde's `i64`, `int64` or `long` in Go, C# and Kotlin) refuse them, and a
/// paid row would be lost for its spelling. As a whole `number`, every
/// generator gives a float type that reads both `12` and `12.0` (pydantic:
/// `confloat(multiple_of=1.0)`; TypeScript: `number`), and validators still
/// refuse `12.5`. Format `double`, not `int64`: OpenAPI gives `int64` to
/// `integer`, datamodel-code-generator does not understand it on a `number`,
/// and a generator that honours it picks an integer type again. The seozoom
/// client reads such a member as an `i64`, either way it is written.
///
/// Decoded ([`View::Decoded`]) an `integer`: the client writes its `i64` back
/// as one.
pub fn integer(d: Dialect, view: View, nullable: bool) -> Map<String, Value> {
    match view {
        View::Wire => {
            let mut schema = with_format(d.typed("number", nullable), "double");
            schema.insert("multipleOf".into(), json!(1));
            schema
        }
        View::Decoded => with_format(d.typed("integer", nullable), "int64"),
    }
}

fn with_format(mut schema: Map<String, Value>, format: &str) -> Map<String, Value> {
    schema.insert("format".into(), json!(format));
    schema
}

fn with_pattern(mut schema: Map<String, Value>, pattern: &str) -> Map<String, Value> {
    schema.insert("pattern".into(), json!(pattern));
    schema
}

/// The note of a comma list and, on the wire, the pattern of a closed set.
fn comma_list(view: View, spec: &Spec, item: &ListItem, schema: &mut Map<String, Value>) -> String {
    let note = match view {
        View::Wire => {
            "Comma-separated values in one string; empty segments can occur and carry nothing."
        }
        View::Decoded => "Comma-separated values in one string.",
    };
    let ListItem::Enum { type_name } = item else {
        return note.to_owned();
    };
    let Some(e) = spec.enums.iter().find(|e| &e.type_name == type_name) else {
        return note.to_owned();
    };
    let words: Vec<String> = e.values.iter().map(|v| format!("`{}`", v.wire)).collect();
    let set = if e.open {
        "an open set: other values can occur"
    } else {
        if view == View::Wire {
            let alternatives: Vec<String> = e
                .values
                .iter()
                .map(|v| v.wire.chars().map(regex_escape).collect())
                .collect();
            let item = format!("\\s*(?:(?:{})\\s*)?", alternatives.join("|"));
            schema.insert("pattern".into(), json!(format!("^{item}(?:,{item})*$")));
        }
        "a closed set"
    };
    format!("{note} Values: {} ({set}).", words.join(", "))
}

/// Whether a member may be `null` in `view`: on the wire where the spec says
/// so; decoded, also where it may be absent, and a boolean word, whose empty
/// answer decodes to nothing.
fn nullable(view: View, f: &Field) -> bool {
    match view {
        View::Wire => f.nullable,
        View::Decoded => f.may_be_missing() || f.ty == FieldType::BoolWord,
    }
}

/// The schema of one member of a record.
pub fn field(d: Dialect, view: View, spec: &Spec, f: &Field) -> Value {
    let nullable = nullable(view, f);
    let string = || d.typed("string", nullable);
    let (mut schema, note) = match &f.ty {
        FieldType::Integer => (integer(d, view, nullable), None),
        FieldType::Number => (with_format(d.typed("number", nullable), "double"), None),
        FieldType::String => (string(), None),
        FieldType::BoolWord if view == View::Decoded => {
            let mut schema = string();
            schema.insert("enum".into(), json!(["true", "false", null]));
            (
                schema,
                Some("A boolean word: \"true\", \"false\", or null for no answer.".to_owned()),
            )
        }
        FieldType::BoolWord => (
            with_pattern(string(), BOOL_WORD_PATTERN),
            Some(
                "A boolean word in a string: `true`/`false`, `1`/`0` or `yes`/`no`, in any case; an empty string means no answer."
                    .to_owned(),
            ),
        ),
        FieldType::Flag => {
            let mut schema = d.typed("integer", nullable);
            let mut values = vec![json!(0), json!(1)];
            if nullable {
                values.push(Value::Null);
            }
            schema.insert("enum".into(), Value::Array(values));
            (schema, Some("A flag: 1 or 0.".to_owned()))
        }
        FieldType::Date => (
            with_pattern(with_format(string(), "date"), DATE_PATTERN),
            None,
        ),
        FieldType::DateTime => (
            with_pattern(string(), DATETIME_PATTERN),
            Some("No time zone.".to_owned()),
        ),
        FieldType::Time => (
            with_pattern(string(), TIME_PATTERN),
            Some("No time zone.".to_owned()),
        ),
        // The spec allows neither `nullable` nor `optional` on a SERP member.
        FieldType::Serp => return d.described_reference(SERP, &f.description),
        FieldType::CommaList(item) => {
            let mut schema = string();
            let note = comma_list(view, spec, item, &mut schema);
            (schema, Some(note))
        }
        FieldType::List { type_name, .. } => {
            let mut schema = d.typed("array", nullable);
            schema.insert("items".into(), d.reference(type_name));
            (schema, None)
        }
    };
    let description = match note {
        Some(note) => format!("{} {note}", f.description),
        None => f.description.clone(),
    };
    schema.insert("description".into(), json!(description));
    // Value hints are annotations, never constraints: data outside a hinted
    // range is still valid.
    if let Some(hint) = &f.hint {
        schema.insert("x-seozoom-kind".into(), json!(hint.kind.word()));
        if let Some((lo, hi)) = hint.range {
            schema.insert("x-seozoom-range".into(), json!([lo, hi]));
        }
    }
    Value::Object(schema)
}

/// The schema of one record.
pub fn record(d: Dialect, view: View, spec: &Spec, r: &Record) -> Value {
    let properties: Map<String, Value> = r
        .fields
        .iter()
        .map(|f| (f.wire.clone(), field(d, view, spec, f)))
        .collect();
    let required: Vec<&str> = r
        .fields
        .iter()
        .filter(|f| !f.optional)
        .map(|f| f.wire.as_str())
        .collect();
    let mut schema = json!({
        "title": r.type_name,
        "description": r.description,
        "type": "object",
        "properties": properties,
    });
    // OpenAPI 3.0 wants at least one name in `required`, when it is there.
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// The schema of a search-result list.
pub fn serp(d: Dialect) -> Value {
    let mut schema = Map::new();
    schema.insert("title".into(), json!(SERP));
    schema.insert(
        "description".into(),
        json!(
            "A search-result list: an object of result positions to result URLs. Positions are numbered from 1 and written as strings (\"1\", \"2\", ...), so order by their numeric value (\"10\" comes after \"9\"). In URLs, `&` arrives as the HTML entity `&amp;`."
        ),
    );
    schema.insert("type".into(), json!("object"));
    d.property_names(&mut schema, POSITION_PATTERN);
    schema.insert("additionalProperties".into(), json!({"type": "string"}));
    Value::Object(schema)
}

/// Adds a named schema to `defs`; fails when the name is taken.
pub fn define(
    defs: &mut BTreeMap<String, Value>,
    name: String,
    schema: Value,
) -> Result<(), String> {
    match defs.insert(name.clone(), schema) {
        None => Ok(()),
        Some(_) => Err(format!(
            "two schemas would be named `{name}`; rename a record or an action"
        )),
    }
}

/// The named schemas of every record (by type name) and of the SERP. Fails
/// when two of them would share a name.
pub fn definitions(d: Dialect, view: View, spec: &Spec) -> Result<BTreeMap<String, Value>, String> {
    let mut defs = BTreeMap::new();
    for r in &spec.records {
        define(&mut defs, r.type_name.clone(), record(d, view, spec, r))?;
    }
    define(&mut defs, SERP.to_owned(), serp(d))?;
    Ok(defs)
}

/// Names referenced from `value` with `{base}NAME`.
fn referenced(value: &Value, base: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                if key == "$ref"
                    && let Some(name) = item.as_str().and_then(|r| r.strip_prefix(base))
                {
                    out.push(name.to_owned());
                }
                referenced(item, base, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| referenced(item, base, out)),
        _ => {}
    }
}

/// The definitions that `value` reaches, directly or through others, by their
/// references in dialect `d`.
pub fn reached(
    d: Dialect,
    defs: &BTreeMap<String, Value>,
    value: &Value,
) -> BTreeMap<String, Value> {
    let mut reached = BTreeMap::new();
    let mut pending = Vec::new();
    referenced(value, d.base(), &mut pending);
    while let Some(name) = pending.pop() {
        if reached.contains_key(&name) {
            continue;
        }
        let Some(def) = defs.get(&name) else {
            continue;
        };
        referenced(def, d.base(), &mut pending);
        reached.insert(name, def.clone());
    }
    reached
}

/// A standalone schema file for `root`: the definition itself, with the
/// definitions it reaches (directly or not) in `$defs`, so the file needs no other.
pub fn standalone(defs: &BTreeMap<String, Value>, root: &str) -> Value {
    let mut schema = defs.get(root).cloned().unwrap_or_else(|| json!({}));
    let reached = reached(Dialect::Schema, defs, &schema);
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    if !reached.is_empty() {
        schema["$defs"] = json!(reached);
    }
    schema
}

/// `value` with each reference to a definition of `defs` (written as
/// [`Dialect::Schema`] writes it) replaced by the definition, written out in
/// place, `depth` levels deep; past that (or for a name `defs` lacks) a
/// reference becomes any value (`{}`). Members beside a `$ref` are kept.
pub fn inline(defs: &BTreeMap<String, Value>, value: &Value, depth: usize) -> Value {
    match value {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(Dialect::Schema.base()));
            let Some(name) = target else {
                let map = map
                    .iter()
                    .map(|(k, v)| (k.clone(), inline(defs, v, depth)))
                    .collect();
                return Value::Object(map);
            };
            let mut out = match (defs.get(name), depth) {
                (Some(def), 1..) => match inline(defs, def, depth - 1) {
                    Value::Object(def) => def,
                    _ => Map::new(),
                },
                _ => Map::new(),
            };
            for (k, v) in map.iter().filter(|(k, _)| *k != "$ref") {
                out.insert(k.clone(), inline(defs, v, depth));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| inline(defs, v, depth)).collect()),
        other => other.clone(),
    }
}

//! A tool's `outputSchema`: the envelope its `structuredContent` is, with the
//! operation's `response` described from the spec's records
//! ([`seozoom::operations::RECORDS`]) by each field's wire kind. Nothing here
//! names a record or a field.
//!
//! It describes what the server sends, which is the client's typed result
//! re-encoded with the API's names (see [`seozoom::operation_table::Operation::decode`]): an
//! integral float comes back as an integer, a boolean word as `"true"`,
//! `"false"` or `null`, a comma list as one string, and a field that is absent
//! or `null` on the wire as `null`. Records do not forbid members the spec
//! does not list.

use seozoom::operation_table::Operation;
use seozoom::operation_table::{FieldInfo, FieldKind, RecordInfo, Shape};
use seozoom::operations::{RECORDS, SERVICE};
use serde_json::{Map, Value, json};

use super::json_schema::{DATE, TYPE};

use super::envelope;
use seozoom::operation_table::SERP_PAYLOAD as SERP;

/// Deepest nesting of records followed; the spec's records nest once, and a
/// deeper (or circular) one is described as any object.
const MAX_DEPTH: usize = 4;

const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
const DATETIME_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$";
const TIME_PATTERN: &str = "^[0-9]{2}:[0-9]{2}:[0-9]{2}$";
/// A SERP position: a positive number without leading zeros.
const POSITION_PATTERN: &str = "^[1-9][0-9]*$";

/// The `outputSchema` of `op`'s tool, without its descriptions
/// ([`compact`]).
pub fn output_schema(op: &Operation) -> Map<String, Value> {
    let mut schema = Value::Object(described_output_schema(op));
    compact(&mut schema);
    match schema {
        Value::Object(schema) => schema,
        _ => Map::new(),
    }
}

/// `schema` without `description` and `title` members: every session pays
/// for the tool list in tokens, and the output schemas were two thirds of it.
/// The types stay (clients validate the results with them); the meaning of
/// each field is in the published spec and the record's docs, and the
/// envelope's in the server's instructions.
pub fn compact(schema: &mut Value) {
    match schema {
        Value::Object(members) => {
            members.remove("description");
            if members.get("title").is_some_and(Value::is_string) {
                members.remove("title");
            }
            members.values_mut().for_each(compact);
        }
        Value::Array(items) => items.iter_mut().for_each(compact),
        _ => {}
    }
}

/// The `outputSchema` of `op`'s tool, described member by member.
fn described_output_schema(op: &Operation) -> Map<String, Value> {
    let payload = payload_schema(op.response.payload, 0);
    let response = match op.response.shape {
        Shape::Array => json!({
            TYPE: "array",
            "items": payload,
            "description": format!("{} At most the session's row cap; see `rows` and `more`.", op.response.description),
        }),
        Shape::Map { key } => json!({
            TYPE: "object",
            "additionalProperties": payload,
            "description": format!(
                "{} Keyed by the values of `{key}`; at most the session's row cap of them, see `rows` and `more`.",
                op.response.description
            ),
        }),
        // One object, or `null` when the service found nothing; an empty
        // search-result list is an empty object.
        _ => json!({
            "anyOf": [payload, {TYPE: "null"}],
            "description": format!("{} `null` when no data was found.", op.response.description),
        }),
    };
    envelope_schema(response)
}

/// The envelope around `response`: the service's members, then this server's.
fn envelope_schema(response: Value) -> Map<String, Value> {
    let integer = |description: &str| json!({TYPE: "integer", "description": description});
    let mut properties = Map::new();
    properties.insert(
        SERVICE.envelope_result_rows.into(),
        integer("Rows the service returned for the whole call (all its requests), before any cut."),
    );
    properties.insert(
        SERVICE.envelope_units_used.into(),
        integer("Units charged for this call (summed over the requests of a batched job)."),
    );
    properties.insert(
        SERVICE.envelope_units_remaining.into(),
        integer("Units left on the account after the call, as the service reported."),
    );
    properties.insert(SERVICE.envelope_response.into(), response);
    properties.insert(
        envelope::FROM_CACHE.into(),
        json!({TYPE: "boolean", "description": "Whether the whole result came from the store's cache (no units charged); when only part did, the members `cached_items` and `cached_requests` (not listed: the schema allows them) say how much."}),
    );
    properties.insert(
        envelope::NO_DATA.into(),
        json!({TYPE: "boolean", "description": "Whether the service found no data (then nothing was charged)."}),
    );
    properties.insert(envelope::ROWS.into(), rows_schema());
    properties.insert(envelope::MORE.into(), more_schema());
    let required = [
        SERVICE.envelope_result_rows,
        SERVICE.envelope_units_used,
        SERVICE.envelope_units_remaining,
        SERVICE.envelope_response,
        envelope::FROM_CACHE,
        envelope::NO_DATA,
        envelope::ROWS,
    ];
    let mut schema = Map::new();
    schema.insert(TYPE.into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), json!(required));
    schema
}

/// Which rows of the whole result `response` holds.
pub fn rows_schema() -> Value {
    json!({
        TYPE: "object",
        "description": "Which items of the whole result `response` holds (array items, or object members).",
        "properties": {
            envelope::START: {TYPE: "integer", "minimum": 0, "description": "Position of the first item shown in the whole result."},
            envelope::RETURNED: {TYPE: "integer", "minimum": 0, "description": "Items shown."},
            envelope::TOTAL: {TYPE: "integer", "minimum": 0, "description": "Items in the whole result."},
        },
        "required": [envelope::START, envelope::RETURNED, envelope::TOTAL],
    })
}

/// How to get the rows that were cut.
pub fn more_schema() -> Value {
    json!({
        TYPE: ["object", "null"],
        "description": "Present when the result was cut: call the `more` tool with these arguments for the next items (no units charged). `null` when nothing is left.",
        "properties": {
            envelope::RESULT: {TYPE: "string", "description": "Id of the held result."},
            envelope::START: {TYPE: "integer", "minimum": 0, "description": "Position of the next item."},
            envelope::HINT: {TYPE: "string", "description": "The same, in words."},
        },
        "required": [envelope::RESULT, envelope::START],
    })
}

/// The schema of one payload value: a record of the spec, or a search-result
/// list. A payload the table does not describe is any value.
fn payload_schema(payload: &str, depth: usize) -> Value {
    if payload == SERP {
        return serp_schema();
    }
    match RECORDS.iter().find(|r| r.name == payload) {
        Some(record) if depth < MAX_DEPTH => record_schema(record, depth),
        _ => json!({}),
    }
}

fn record_schema(record: &RecordInfo, depth: usize) -> Value {
    let properties: Map<String, Value> = record
        .fields
        .iter()
        .map(|f| (f.wire.to_owned(), field_schema(f, depth)))
        .collect();
    // An absent member is written as `null`, so it is there all the same;
    // `required` lists the members the spec says are always sent.
    let required: Vec<&str> = record
        .fields
        .iter()
        .filter(|f| !f.optional)
        .map(|f| f.wire)
        .collect();
    let mut schema = json!({
        TYPE: "object",
        "title": record.type_name,
        "description": record.description,
        "properties": properties,
    });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

fn field_schema(field: &FieldInfo, depth: usize) -> Value {
    // `null` for a nullable or optional member, and for a boolean word, which
    // decodes "" (no answer) to nothing.
    let nullable = field.nullable || field.optional || matches!(field.kind, FieldKind::BoolWord);
    let typed = |ty: &str| {
        if nullable {
            json!([ty, "null"])
        } else {
            json!(ty)
        }
    };
    let mut schema = match field.kind {
        FieldKind::Integer => json!({TYPE: typed("integer")}),
        FieldKind::Number => json!({TYPE: typed("number")}),
        FieldKind::Text => json!({TYPE: typed("string")}),
        FieldKind::BoolWord => json!({TYPE: typed("string"), "enum": ["true", "false", null]}),
        FieldKind::Flag => {
            let mut values = vec![json!(0), json!(1)];
            if nullable {
                values.push(Value::Null);
            }
            json!({TYPE: typed("integer"), "enum": values})
        }
        FieldKind::Date => {
            json!({TYPE: typed("string"), "format": DATE, "pattern": DATE_PATTERN})
        }
        FieldKind::DateTime => json!({TYPE: typed("string"), "pattern": DATETIME_PATTERN}),
        FieldKind::Time => json!({TYPE: typed("string"), "pattern": TIME_PATTERN}),
        FieldKind::Serp => {
            let serp = serp_schema();
            if nullable {
                json!({"anyOf": [serp, {TYPE: "null"}]})
            } else {
                serp
            }
        }
        FieldKind::CommaList { .. } => json!({TYPE: typed("string")}),
        FieldKind::List { record } => {
            json!({TYPE: typed("array"), "items": payload_schema(record, depth + 1)})
        }
        // A kind a later spec adds: any value, until it is described here.
        _ => json!({}),
    };
    schema["description"] = json!(field_description(field));
    schema
}

fn field_description(field: &FieldInfo) -> String {
    let note = match field.kind {
        FieldKind::BoolWord => " A boolean word: \"true\", \"false\", or null for no answer.",
        FieldKind::Flag => " A flag: 1 or 0.",
        FieldKind::CommaList { .. } => " Comma-separated values in one string.",
        FieldKind::DateTime | FieldKind::Time => " No time zone.",
        _ => "",
    };
    format!("{}{note}", field.description)
}

/// A search-result list: result positions to result URLs.
fn serp_schema() -> Value {
    json!({
        TYPE: "object",
        "description": "A search-result list: result position (\"1\", \"2\", ...) to result URL, in position order.",
        "propertyNames": {"pattern": POSITION_PATTERN},
        "additionalProperties": {TYPE: "string"},
    })
}

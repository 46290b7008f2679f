//! A tool's `outputSchema`: the envelope its `structuredContent` is. The
//! service's envelope and the operation's records come from the generator's
//! schema module (`shared_schemas`, as the published documents' do), in its
//! decoded view: the client's typed result re-encoded with the API's names
//! (see [`seozoom::operation_table::Operation::decode`]), so an integral float
//! comes back as an integer, a boolean word as `"true"`, `"false"` or `null`,
//! a comma list as one string, and a field that is absent or `null` on the
//! wire as `null`. Records do not forbid members the spec does not list.
//!
//! On top: the `response` as this server sends it (at most the session's row
//! cap, a single object `null` when nothing was found), this server's own
//! members (`from_cache`, `no_data`, `rows`, `more`), its wording of the
//! figures, and [`trim`] and [`without_descriptions`] (an agent pays for
//! every byte of the tool list). Nothing here names a record or a field.

use seozoom::operation_table::{Operation, Shape};
use seozoom::operations::SERVICE;
use serde_json::{Map, Value, json};

use super::agent_schema::{trim, without_descriptions};
use super::envelope;
use super::json_schema::TYPE;
use super::shared_schemas;

/// The `outputSchema` of `op`'s tool, without its descriptions.
pub fn output_schema(op: &Operation) -> Map<String, Value> {
    let mut schema = Value::Object(described_output_schema(op));
    trim(&mut schema);
    without_descriptions(&mut schema);
    match schema {
        Value::Object(schema) => schema,
        _ => Map::new(),
    }
}

/// The `outputSchema` of `op`'s tool, described member by member.
fn described_output_schema(op: &Operation) -> Map<String, Value> {
    let mut payload = shared_schemas::payload(op);
    // A call given `fields` gets rows holding only those members: a row
    // requires none.
    if super::fields::names(op).is_some()
        && let Value::Object(record) = &mut payload
    {
        record.remove("required");
    }
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
    let mut schema = shared_schemas::envelope();
    let mut properties = match schema.remove("properties") {
        Some(Value::Object(properties)) => properties,
        _ => Map::new(),
    };
    // The figures of the whole call, as this server reports them.
    for (member, description) in [
        (
            SERVICE.envelope_result_rows,
            "Rows the service returned for the whole call (all its requests), before any cut.",
        ),
        (
            SERVICE.envelope_units_used,
            "Units charged for this call (summed over the requests of a batched job).",
        ),
        (
            SERVICE.envelope_units_remaining,
            "Units left on the account after the call, as the service reported.",
        ),
    ] {
        if let Some(Value::Object(figure)) = properties.get_mut(member) {
            figure.insert("description".into(), json!(description));
        }
    }
    // A charge or a balance the answer did not report is `null`.
    for member in [
        SERVICE.envelope_units_used,
        SERVICE.envelope_units_remaining,
    ] {
        if let Some(Value::Object(figure)) = properties.get_mut(member)
            && figure.get(TYPE) == Some(&json!("integer"))
        {
            figure.insert(TYPE.into(), json!(["integer", "null"]));
        }
    }
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
    let mut required = match schema.remove("required") {
        Some(Value::Array(required)) => required,
        _ => Vec::new(),
    };
    required.extend([envelope::FROM_CACHE, envelope::NO_DATA, envelope::ROWS].map(|m| json!(m)));
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(required));
    schema
}

/// Which rows of the whole result `response` holds. Its members (`start`,
/// `returned`, `total`) are named once, in the server's instructions, not
/// in each of the tools' output schemas: every session pays for the tool
/// list in tokens.
pub fn rows_schema() -> Value {
    json!({TYPE: "object"})
}

/// How to get the rows that were cut: `null`, or the `more` tool's
/// arguments for the next items and a `hint` in words (said once, in the
/// server's instructions, as for [`rows_schema`]).
pub fn more_schema() -> Value {
    json!({TYPE: ["object", "null"]})
}

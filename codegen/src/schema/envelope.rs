//! The envelope every answer comes in: the service's three figures and the
//! `response` member.

use serde_json::{Map, Value, json};

use super::dialect::{Dialect, View};
use super::record::integer;
use super::words::cost_words;
use crate::model::{Action, Spec};

/// The schema of an envelope around `response`, every member required, its
/// figures integers as `view` sees them ([`integer`]). With an `action`, the
/// units' description says how that action is charged.
pub fn envelope(
    d: Dialect,
    view: View,
    spec: &Spec,
    action: Option<&Action>,
    response: Value,
) -> Value {
    let e = &spec.envelope;
    let integer = |description: String| {
        let mut schema = integer(d, view, false);
        schema.insert("description".into(), json!(description));
        Value::Object(schema)
    };
    let units_used = match action {
        Some(action) => format!(
            "{} This action: {}.",
            e.units_used.description,
            cost_words(action)
        ),
        None => e.units_used.description.clone(),
    };
    let mut properties = Map::new();
    properties.insert(
        e.result_rows.wire.clone(),
        integer(e.result_rows.description.clone()),
    );
    properties.insert(e.units_used.wire.clone(), integer(units_used));
    properties.insert(
        e.units_remaining.wire.clone(),
        integer(e.units_remaining.description.clone()),
    );
    properties.insert(e.response.wire.clone(), response);
    json!({
        "type": "object",
        "required": [e.result_rows.wire, e.units_used.wire, e.units_remaining.wire, e.response.wire],
        "properties": properties,
    })
}

/// The envelope of any operation as the client decodes it ([`View::Decoded`]),
/// with the spec's descriptions, its `response` holding only its
/// description: the frame into which a caller puts the payload's schema (the
/// `seozoom` crate's `JsonSchema` of `Envelope<T>`, whose build script writes
/// it).
pub fn envelope_frame(spec: &Spec) -> Value {
    let e = &spec.envelope;
    let response = json!({"description": e.response.description});
    let mut schema = envelope(Dialect::Schema, View::Decoded, spec, None, response);
    schema["description"] = json!(e.description);
    schema
}

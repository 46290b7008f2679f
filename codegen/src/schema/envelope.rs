//! The envelope every answer comes in: the service's three figures and the
//! `response` member.

use serde_json::{Map, Value, json};

use super::words::cost_words;
use crate::model::{Action, Spec};

/// The schema of an envelope around `response`, every member required. With
/// an `action`, the units' description says how that action is charged.
pub fn envelope(spec: &Spec, action: Option<&Action>, response: Value) -> Value {
    let e = &spec.envelope;
    let integer = |description: String| json!({"type": "integer", "format": "int64", "description": description});
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

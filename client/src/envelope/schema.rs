//! The JSON Schema of an envelope (feature `schemars`): the frame the build
//! script wrote from the spec (the service's member names and the spec's
//! descriptions, made by the generator's schema module as the published
//! envelopes are), with the payload's schema put in its `response`.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;

use crate::operation_table::Service;

/// The schema of an envelope of `T`: `frame` (the envelope's JSON Schema as
/// JSON text, its `response` member, named as `service` names it, holding
/// only a description) with `T`'s schema in `response`.
pub fn envelope_schema<T: JsonSchema>(
    generator: &mut SchemaGenerator,
    service: &Service,
    frame: &str,
) -> Schema {
    let mut schema: Value = serde_json::from_str(frame).unwrap_or_default();
    let response = schema
        .get_mut("properties")
        .and_then(|properties| properties.get_mut(service.envelope_response));
    if let (Some(Value::Object(response)), Value::Object(payload)) =
        (response, generator.subschema_for::<T>().to_value())
    {
        for (key, value) in payload {
            response.entry(key).or_insert(value);
        }
    }
    // An object is always a schema.
    Schema::try_from(schema).unwrap_or_default()
}

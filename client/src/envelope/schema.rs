//! The JSON Schema of an envelope (feature `schemars`), with a service's
//! member names and the spec's descriptions.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::operation_table::Service;

/// The spec's descriptions of the envelope and of its members.
#[derive(Debug, Clone, Copy)]
pub struct EnvelopeDocs {
    /// The envelope's.
    pub envelope: &'static str,
    /// `result_rows`'s.
    pub result_rows: &'static str,
    /// `units_used`'s.
    pub units_used: &'static str,
    /// `units_remaining`'s.
    pub units_remaining: &'static str,
    /// `response`'s.
    pub response: &'static str,
}

/// The schema of an envelope of `T` with `service`'s member names, all
/// required, as a derive of the struct with those names would make it.
pub fn envelope_schema<T: JsonSchema>(
    generator: &mut SchemaGenerator,
    service: &Service,
    docs: &EnvelopeDocs,
) -> Schema {
    let integer = |description: &str| json!({"description": description, "type": "integer", "format": "int64"});
    let mut response = generator.subschema_for::<T>().to_value();
    if let Value::Object(members) = &mut response {
        members.insert("description".into(), docs.response.into());
    }
    let mut properties = Map::new();
    properties.insert(
        service.envelope_result_rows.into(),
        integer(docs.result_rows),
    );
    properties.insert(service.envelope_units_used.into(), integer(docs.units_used));
    properties.insert(
        service.envelope_units_remaining.into(),
        integer(docs.units_remaining),
    );
    properties.insert(service.envelope_response.into(), response);
    let schema = json!({
        "description": docs.envelope,
        "type": "object",
        "properties": properties,
        "required": [
            service.envelope_result_rows,
            service.envelope_units_used,
            service.envelope_units_remaining,
            service.envelope_response,
        ],
    });
    // An object is always a schema.
    Schema::try_from(schema).unwrap_or_default()
}

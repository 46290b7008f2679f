//! Wire-level schemas of the response bodies as the published documents name
//! them: the records and the SERP (made by the shared schema module,
//! `seozoom_codegen::schema`), the no-match body, every refusal's body and the
//! envelope of every action, in three dialects.
//!
//! They describe what the service sends, member by member, as the spec says
//! ([`View::Wire`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use seozoom_codegen::model::{Action, Counts, Payload, Shape, Spec};
use seozoom_codegen::schema::{self, Dialect, SERP, View, class_escape, define, provenance};

/// Name of the schema of the no-match body.
pub const NO_DATA: &str = "NoData";
/// Name of the schema of every refusal's body (`{status, message}`).
pub const ERROR: &str = "Error";

/// Name of the envelope schema of an action (`ProjectsListResponse`).
pub fn envelope_name(action: &Action) -> String {
    format!("{}Response", action.type_name)
}

/// The schema of the no-match body.
pub fn no_data(spec: &Spec) -> Value {
    json!({
        "title": NO_DATA,
        "description": format!(
            "The answer to a query that matches nothing: HTTP {} with this body ({}; the reference shows no error shape). The seozoom client turns it into an empty result for list and map operations, and a \"no data\" error for single-object operations.",
            spec.no_data.status,
            provenance(spec.no_data.source, None),
        ),
        "type": "object",
        "required": ["status", "message"],
        "properties": {
            "status": {"type": "integer", "enum": [spec.no_data.status], "description": "The HTTP status, repeated."},
            "message": {"type": "string", "enum": [spec.no_data.message], "description": "What happened."},
        },
    })
}

/// The schema of every refusal's body: the no-match answer's shape, with any
/// status and message.
pub fn error(spec: &Spec) -> Value {
    json!({
        "title": ERROR,
        "description": format!(
            "A refusal: the HTTP status, repeated, and what happened. The no-match answer is one (HTTP {}, `{}`); an invalid parameter, a missing or invalid key, too few units left, an unknown action and too many requests are others. The reference shows no error shape: this is the shape of the no-match answer ({}), which the seozoom sandbox gives every refusal.",
            spec.no_data.status,
            spec.no_data.message,
            provenance(spec.no_data.source, None),
        ),
        "type": "object",
        "required": ["status", "message"],
        "properties": {
            "status": {"type": "integer", "description": "The HTTP status, repeated."},
            "message": {"type": "string", "description": "What happened."},
        },
    })
}

fn payload_name(payload: &Payload) -> &str {
    match payload {
        Payload::Record { type_name, .. } => type_name,
        Payload::Serp => SERP,
    }
}

fn payload(d: Dialect, spec: &Spec, action: &Action) -> Value {
    let r = &action.response;
    let name = payload_name(&r.payload);
    match &r.shape {
        Shape::Single => d.described_reference(name, &r.description),
        Shape::Array => {
            let mut schema = json!({"type": "array", "items": d.reference(name)});
            let mut description = r.description.clone();
            if action.cost.per_request_counts == Counts::Rows {
                let limit = &action.cost.per_request;
                schema["maxItems"] = json!(limit.value);
                description = format!(
                    "{description} At most {} rows per request ({}).",
                    limit.value,
                    provenance(limit.source, limit.note.as_deref())
                );
            }
            schema["description"] = json!(description);
            schema
        }
        Shape::Map { key } => {
            let mut object = Map::new();
            object.insert("type".into(), json!("object"));
            d.property_names(
                &mut object,
                &format!("^[^{}]+$", class_escape(spec.list_separator)),
            );
            object.insert("additionalProperties".into(), d.reference(name));
            let max = action
                .params
                .iter()
                .find(|p| &p.wire == key)
                .and_then(|p| p.max_items.as_ref());
            if let Some(max) = max {
                object.insert("maxProperties".into(), json!(max.value));
            }
            json!({
                "description": format!(
                    "{} Keys are the values of `{key}`. An empty map arrives as `[]`: the service is written in PHP, which encodes an empty map as an empty array.",
                    r.description
                ),
                "anyOf": [
                    Value::Object(object),
                    {"type": "array", "maxItems": 0, "items": {}},
                ],
            })
        }
    }
}

/// The envelope schema of one action.
pub fn envelope(d: Dialect, spec: &Spec, action: &Action) -> Value {
    let payload = payload(d, spec, action);
    let mut schema = schema::envelope(d, View::Wire, spec, Some(action), payload);
    schema["title"] = json!(envelope_name(action));
    schema["description"] = json!(format!(
        "Response of `{}` on `{}` (`action={}`): {} {}",
        action.group, action.path, action.wire, action.description, spec.envelope.description
    ));
    schema
}

/// Every named schema: records, the SERP, the no-match body and the envelopes.
/// Fails when two of them would share a name.
pub fn definitions(d: Dialect, spec: &Spec) -> Result<BTreeMap<String, Value>, String> {
    let mut defs = schema::definitions(d, View::Wire, spec)?;
    define(&mut defs, NO_DATA.to_owned(), no_data(spec))?;
    define(&mut defs, ERROR.to_owned(), error(spec))?;
    for a in &spec.actions {
        define(&mut defs, envelope_name(a), envelope(d, spec, a))?;
    }
    Ok(defs)
}

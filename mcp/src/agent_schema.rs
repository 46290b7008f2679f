//! What the server takes off the shared schemas (`shared_schemas`) before an
//! agent sees them: every session pays for the tool list in tokens, so a
//! member that tells an agent nothing it can use goes.
//!
//! - [`trim`], on every schema: the formats `int64` and `double` (an
//!   `integer` or a `number` says enough), bounds that are only an integer
//!   type's own range (`i64::MIN`, `i64::MAX`), and the spec's value hints
//!   (`x-seozoom-*`, annotations for tools that show or make up values);
//!   A `type` beside an `enum` goes too: the enum lists every value (`null`
//!   among them where it may be), so the type repeats it.
//! - [`without_descriptions`], on the output schemas: `description` and
//!   `title` (the meaning of each field is in the published spec and the
//!   record's docs, the envelope's in the server's instructions; the output
//!   schemas were two thirds of the tool list), and what constrains a value
//!   without telling what it is (bounds, lengths, patterns, `multipleOf`, and
//!   `type: "object"` beside `properties`): an output schema says what the
//!   server sends, and the agent never sends it. Once metrics became `null`
//!   where the reference does not say they are always sent, every record
//!   field said so in its `type`; this keeps the tool list within half the
//!   size it has with the shared schemas sent whole.
//!
//! Both read keywords only where a schema has them: a property named like a
//! keyword (a record field `description`, say) is kept.

use serde_json::{Map, Value};

use super::json_schema::TYPE;

/// Formats that add nothing to an agent's reading of `integer` or `number`.
const PLAIN_FORMATS: [&str; 2] = ["int64", "double"];

/// The members of a schema object that hold other schemas by name, whose
/// keys are property names, not keywords.
const NAMED: [&str; 3] = ["properties", "$defs", "patternProperties"];

/// Applies `strip` to every schema object in `schema` (the object itself,
/// and the schemas under its keywords).
fn each_schema(schema: &mut Value, strip: &impl Fn(&mut Map<String, Value>)) {
    match schema {
        Value::Object(members) => {
            strip(members);
            for (key, value) in members.iter_mut() {
                match (NAMED.contains(&key.as_str()), value) {
                    (true, Value::Object(named)) => {
                        named.values_mut().for_each(|s| each_schema(s, strip));
                    }
                    (_, value) => each_schema(value, strip),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|s| each_schema(s, strip)),
        _ => {}
    }
}

/// `schema` without plain formats, type-range bounds and value hints.
pub fn trim(schema: &mut Value) {
    each_schema(schema, &|members| {
        if members
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| PLAIN_FORMATS.contains(&f))
        {
            members.remove("format");
        }
        if members.get("minimum").and_then(Value::as_i64) == Some(i64::MIN) {
            members.remove("minimum");
        }
        if members.get("maximum").and_then(Value::as_i64) == Some(i64::MAX) {
            members.remove("maximum");
        }
        members.retain(|key, _| !key.starts_with("x-seozoom-"));
        if members.get("enum").is_some_and(Value::is_array) {
            members.remove(TYPE);
        }
    });
}

/// Keywords that constrain a value an output schema describes without
/// telling what the value is.
const BOUNDS: [&str; 10] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
];

/// `schema` (an output schema) without its `description` and (text) `title`
/// members, its bounds, and `type: "object"` beside `properties` (but at
/// its root).
pub fn without_descriptions(schema: &mut Value) {
    // MCP asks an output schema to say `type: "object"` at its root.
    let root = schema.get(TYPE).cloned();
    each_schema(schema, &|members| {
        members.remove("description");
        if members.get("title").is_some_and(Value::is_string) {
            members.remove("title");
        }
        members.retain(|key, _| !BOUNDS.contains(&key.as_str()));
        if members.contains_key("properties") && members.get(TYPE) == Some(&"object".into()) {
            members.remove(TYPE);
        }
    });
    if let (Some(root), Value::Object(members)) = (root, schema) {
        members.insert(TYPE.into(), root);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{trim, without_descriptions};

    #[test]
    fn keywords_go_and_properties_named_like_them_stay() {
        let mut schema = json!({
            "title": "Row",
            "description": "A row.",
            "properties": {
                "description": {"type": "string", "description": "The row's text."},
                "n": {"type": "integer", "format": "int64", "minimum": i64::MIN, "maximum": 9, "x-seozoom-kind": "count"},
                "day": {"type": "string", "format": "date"},
                "yes": {"type": ["string", "null"], "enum": ["true", null]},
            },
        });
        trim(&mut schema);
        let trimmed = schema.clone();
        assert_eq!(
            trimmed["properties"]["n"],
            json!({"type": "integer", "maximum": 9})
        );
        assert_eq!(
            trimmed["properties"]["yes"],
            json!({"enum": ["true", null]})
        );
        without_descriptions(&mut schema);
        assert_eq!(
            schema,
            json!({
                "properties": {
                    "description": {"type": "string"},
                    "n": {"type": "integer"},
                    "day": {"type": "string", "format": "date"},
                    "yes": {"enum": ["true", null]},
                },
            })
        );
        let mut object =
            json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}});
        without_descriptions(&mut object);
        assert_eq!(
            object,
            json!({"type": "object", "properties": {"a": {"properties": {}}}}),
            "the root keeps its type, as MCP asks"
        );
    }
}

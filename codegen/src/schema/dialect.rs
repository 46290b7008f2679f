//! How a schema is spelled ([`Dialect`]) and which body it describes ([`View`]).

use serde_json::{Map, Value, json};

/// Where a schema is used, which decides how references, `null` and key patterns
/// are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// A standalone JSON Schema (draft 2020-12), definitions in `$defs`.
    Schema,
    /// OpenAPI 3.1 (draft 2020-12 schemas), definitions in `components/schemas`.
    Oas31,
    /// OpenAPI 3.0.3: `nullable` instead of type arrays, no `propertyNames`, no
    /// siblings next to a `$ref`.
    Oas30,
}

/// Which JSON a record's schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The body as the service sends it: a member is `null` only where the spec
    /// says nullable, a boolean word is any of the words the client reads, a
    /// comma list of a closed set is held to its values.
    Wire,
    /// The client's typed result written back as JSON with the API's names (what
    /// the generated `operations::decode_json` gives): an absent or `null`
    /// member is `null`, a boolean word is `"true"`, `"false"` or `null`, a
    /// comma list is one string again.
    Decoded,
}

impl Dialect {
    /// The prefix of a reference to a named schema.
    pub fn base(self) -> &'static str {
        match self {
            Dialect::Schema => "#/$defs/",
            Dialect::Oas31 | Dialect::Oas30 => "#/components/schemas/",
        }
    }

    /// A reference to a named schema.
    pub fn reference(self, name: &str) -> Value {
        json!({"$ref": format!("{}{name}", self.base())})
    }

    /// A reference that carries its own description (OpenAPI 3.0 ignores siblings
    /// of `$ref`, so there it is wrapped in `allOf`).
    pub fn described_reference(self, name: &str, description: &str) -> Value {
        match self {
            Dialect::Oas30 => json!({"allOf": [self.reference(name)], "description": description}),
            Dialect::Schema | Dialect::Oas31 => {
                let mut schema = self.reference(name);
                schema["description"] = json!(description);
                schema
            }
        }
    }

    /// `{"type": ty}`, letting `null` in when `nullable`.
    pub fn typed(self, ty: &str, nullable: bool) -> Map<String, Value> {
        let mut schema = Map::new();
        match (nullable, self) {
            (false, _) => {
                schema.insert("type".into(), json!(ty));
            }
            (true, Dialect::Oas30) => {
                schema.insert("type".into(), json!(ty));
                schema.insert("nullable".into(), json!(true));
            }
            (true, Dialect::Schema | Dialect::Oas31) => {
                schema.insert("type".into(), json!([ty, "null"]));
            }
        }
        schema
    }

    /// `propertyNames`, which OpenAPI 3.0 lacks (the description says it there).
    pub fn property_names(self, schema: &mut Map<String, Value>, pattern: &str) {
        if self != Dialect::Oas30 {
            schema.insert("propertyNames".into(), json!({"pattern": pattern}));
        }
    }
}

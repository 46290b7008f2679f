//! Wire-level schemas of the response bodies: one per record, the SERP, the
//! no-match body and the envelope of every action, in three dialects.
//!
//! They describe what the service sends, member by member, as the spec says:
//! an integer is a whole number (`whole_number`), a nullable member lets `null`
//! in, an optional member is left out of `required`, and the quirk types are
//! strings with a `pattern`. Records do not forbid members the spec does not
//! list, as the Rust client ignores them.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use seozoom_codegen::model::{
    Action, Charged, Counts, Field, FieldType, ListItem, Payload, Record, Shape, Source, Spec,
};

/// Where a schema is used, which decides how references, `null` and key patterns
/// are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// A standalone JSON Schema (draft 2020-12) file, definitions in `$defs`.
    Schema,
    /// OpenAPI 3.1 (draft 2020-12 schemas), definitions in `components/schemas`.
    Oas31,
    /// OpenAPI 3.0.3: `nullable` instead of type arrays, no `propertyNames`, no
    /// siblings next to a `$ref`.
    Oas30,
}

/// Name of the SERP schema.
pub const SERP: &str = "Serp";
/// Name of the schema of the no-match body.
pub const NO_DATA: &str = "NoData";
/// Name of the schema of every refusal's body (`{status, message}`).
pub const ERROR: &str = "Error";

/// `^...$` pattern of a date, `YYYY-MM-DD`.
pub const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
const DATETIME_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$";
const TIME_PATTERN: &str = "^[0-9]{2}:[0-9]{2}:[0-9]{2}$";
/// The boolean words the client reads (`true`/`false`, `1`/`0`, `yes`/`no`, any
/// case), and the empty string, which reads as no answer.
const BOOL_WORD_PATTERN: &str =
    "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo]|1|0)?$";
/// A SERP position: a positive number without leading zeros.
const POSITION_PATTERN: &str = "^[1-9][0-9]*$";

impl Dialect {
    /// A reference to a named schema.
    pub fn reference(self, name: &str) -> Value {
        let base = match self {
            Dialect::Schema => "#/$defs/",
            Dialect::Oas31 | Dialect::Oas30 => "#/components/schemas/",
        };
        json!({"$ref": format!("{base}{name}")})
    }

    /// A reference that carries its own description (OpenAPI 3.0 ignores siblings
    /// of `$ref`, so there it is wrapped in `allOf`).
    fn described_reference(self, name: &str, description: &str) -> Value {
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
    fn typed(self, ty: &str, nullable: bool) -> Map<String, Value> {
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
    fn property_names(self, schema: &mut Map<String, Value>, pattern: &str) {
        if self != Dialect::Oas30 {
            schema.insert("propertyNames".into(), json!({"pattern": pattern}));
        }
    }
}

/// `c` written literally in a regular expression.
pub fn regex_escape(c: char) -> String {
    if "^$\\.*+?()[]{}|/".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// `c` written literally inside a character class.
pub fn class_escape(c: char) -> String {
    if "\\]^-[".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// `decided: why` / `stated`.
pub fn provenance(source: Source, note: Option<&str>) -> String {
    let word = source.variant().to_lowercase();
    match note {
        Some(note) => format!("{word}: {note}"),
        None => word,
    }
}

/// Name of the envelope schema of an action (`ProjectsListResponse`).
pub fn envelope_name(action: &Action) -> String {
    format!("{}Response", action.type_name)
}

/// The schema of an integer the service sends: `number` with `multipleOf: 1`
/// and format `double`, not `integer`. The service writes some integers as
/// integral floats (`12.0`); JSON Schema counts those as integers, but the
/// types generators make from `integer` (pydantic's `int` in strict mode,
/// `i64` in serde, `long` in C#, Go and Kotlin) refuse them, and a paid row
/// would be lost for its spelling. As a whole `number`, every generator gives
/// a float type that reads both `12` and `12.0` (pydantic: `confloat(multiple_of=1.0)`;
/// TypeScript: `number`), and validators still refuse `12.5`. Format `double`,
/// not `int64`: OpenAPI gives `int64` to `integer`, and generators that honour
/// formats turn `double` into a 64-bit float (Go's `float64`, where a bare
/// `number` is a `float32` that would round large volumes). The seozoom Rust
/// client reads the member as an `i64`, either way it is written.
pub fn whole_number(d: Dialect, nullable: bool) -> Map<String, Value> {
    let mut schema = with_format(d.typed("number", nullable), "double");
    schema.insert("multipleOf".into(), json!(1));
    schema
}

fn with_format(mut schema: Map<String, Value>, format: &str) -> Map<String, Value> {
    schema.insert("format".into(), json!(format));
    schema
}

fn with_pattern(mut schema: Map<String, Value>, pattern: &str) -> Map<String, Value> {
    schema.insert("pattern".into(), json!(pattern));
    schema
}

/// The note and pattern of a comma list.
fn comma_list(spec: &Spec, item: &ListItem, schema: &mut Map<String, Value>) -> String {
    let note = "Comma-separated values in one string; empty segments can occur and carry nothing.";
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
        let alternatives: Vec<String> = e
            .values
            .iter()
            .map(|v| v.wire.chars().map(regex_escape).collect())
            .collect();
        let item = format!("\\s*(?:(?:{})\\s*)?", alternatives.join("|"));
        schema.insert("pattern".into(), json!(format!("^{item}(?:,{item})*$")));
        "a closed set"
    };
    format!("{note} Values: {} ({set}).", words.join(", "))
}

fn field(d: Dialect, spec: &Spec, f: &Field) -> Value {
    let string = || d.typed("string", f.nullable);
    let (mut schema, note) = match &f.ty {
        FieldType::Integer => (whole_number(d, f.nullable), None),
        FieldType::Number => (with_format(d.typed("number", f.nullable), "double"), None),
        FieldType::String => (string(), None),
        FieldType::BoolWord => (
            with_pattern(string(), BOOL_WORD_PATTERN),
            Some(
                "A boolean word in a string: `true`/`false`, `1`/`0` or `yes`/`no`, in any case; an empty string means no answer."
                    .to_owned(),
            ),
        ),
        FieldType::Flag => {
            let mut schema = d.typed("integer", f.nullable);
            let mut values = vec![json!(0), json!(1)];
            if f.nullable {
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
            let note = comma_list(spec, item, &mut schema);
            (schema, Some(note))
        }
        FieldType::List { type_name, .. } => {
            let mut schema = d.typed("array", f.nullable);
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
pub fn record(d: Dialect, spec: &Spec, r: &Record) -> Value {
    let properties: Map<String, Value> = r
        .fields
        .iter()
        .map(|f| (f.wire.clone(), field(d, spec, f)))
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

/// How the units of an action are charged, in words.
pub fn cost_words(action: &Action) -> String {
    let c = &action.cost;
    let units = match c.units.as_slice() {
        [one] => format!("{one} units"),
        figures => {
            let figures: Vec<String> = figures.iter().map(i64::to_string).collect();
            format!(
                "{} units (printed \"{}\")",
                figures.join(" or "),
                c.printed.as_deref().unwrap_or_default()
            )
        }
    };
    let reading = match c.charged {
        Charged::PerRow => format!("{units} per row: `UnitsUsed` = figure x `ResultRows`"),
        Charged::PerCall => format!("{units} per call, whatever the row count"),
        Charged::Unknown => {
            "unknown: the reference prints no unit cost; `UnitsUsed` says what a call cost"
                .to_owned()
        }
    };
    format!(
        "{reading} ({})",
        provenance(c.charged_source.source, c.charged_source.note.as_deref())
    )
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
    let e = &spec.envelope;
    let integer = |description: String| {
        let mut schema = whole_number(d, false);
        schema.insert("description".into(), json!(description));
        Value::Object(schema)
    };
    let mut properties = Map::new();
    properties.insert(
        e.result_rows.wire.clone(),
        integer(e.result_rows.description.clone()),
    );
    properties.insert(
        e.units_used.wire.clone(),
        integer(format!(
            "{} This action: {}.",
            e.units_used.description,
            cost_words(action)
        )),
    );
    properties.insert(
        e.units_remaining.wire.clone(),
        integer(e.units_remaining.description.clone()),
    );
    properties.insert(e.response.wire.clone(), payload(d, spec, action));
    json!({
        "title": envelope_name(action),
        "description": format!(
            "Response of `{}` on `{}` (`action={}`): {} {}",
            action.group, action.path, action.wire, action.description, e.description
        ),
        "type": "object",
        "required": [e.result_rows.wire, e.units_used.wire, e.units_remaining.wire, e.response.wire],
        "properties": properties,
    })
}

/// Every named schema: records, the SERP, the no-match body and the envelopes.
/// Fails when two of them would share a name.
pub fn definitions(d: Dialect, spec: &Spec) -> Result<BTreeMap<String, Value>, String> {
    let mut defs = BTreeMap::new();
    let mut add = |name: String, schema: Value| match defs.insert(name.clone(), schema) {
        None => Ok(()),
        Some(_) => Err(format!(
            "two published schemas would be named `{name}`; rename a record or an action"
        )),
    };
    for r in &spec.records {
        add(r.type_name.clone(), record(d, spec, r))?;
    }
    add(SERP.to_owned(), serp(d))?;
    add(NO_DATA.to_owned(), no_data(spec))?;
    add(ERROR.to_owned(), error(spec))?;
    for a in &spec.actions {
        add(envelope_name(a), envelope(d, spec, a))?;
    }
    Ok(defs)
}

/// Names referenced from `value` with `{base}NAME` (`base` as in [`Dialect::reference`]).
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
    let reference = d.reference("");
    let base = reference["$ref"].as_str().unwrap_or_default();
    let mut reached = BTreeMap::new();
    let mut pending = Vec::new();
    referenced(value, base, &mut pending);
    while let Some(name) = pending.pop() {
        if reached.contains_key(&name) {
            continue;
        }
        let def = defs[&name].clone();
        referenced(&def, base, &mut pending);
        reached.insert(name, def);
    }
    reached
}

/// A standalone schema file for `root`: the definition itself, with the
/// definitions it reaches (directly or not) in `$defs`, so the file needs no other.
pub fn standalone(defs: &BTreeMap<String, Value>, root: &str) -> Value {
    let mut schema = defs[root].clone();
    let reached = reached(Dialect::Schema, defs, &schema);
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    if !reached.is_empty() {
        schema["$defs"] = json!(reached);
    }
    schema
}

//! One example response per action, made from the model alone: every member of
//! the payload record (optional ones included, nullable ones with a value), a
//! value of its wire type, and the envelope's figures worked out from the cost.
//! The same spec always gives the same examples.

use serde_json::{Map, Value, json};

use seozoom_codegen::model::{
    Action, Charged, Field, FieldType, ListItem, Param, ParamType, Payload, Record, Shape, Spec,
};

use seozoom_codegen::plausible::{other_text, text};
use seozoom_codegen::schema::param::default_value;

/// Units the example account has left after the call, plus what the call used.
const STARTING_UNITS: i64 = 100_000;

/// FNV-1a: a stable spread of example figures, keyed by the member's wire name.
fn spread(name: &str, modulo: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in name.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash % modulo
}

/// An example value of a parameter as a generated client takes it: one value,
/// or two different ones for a list.
pub fn parameter(p: &Param) -> Value {
    let one = param_value(p);
    if !p.list {
        return one;
    }
    let two = match &p.ty {
        ParamType::String => json!(other_text(&p.wire)),
        ParamType::Integer => json!(one.as_i64().unwrap_or(1) + 1),
        ParamType::Enum { values, .. } => json!(values.get(1).unwrap_or(&values[0])),
        ParamType::Date => json!("2024-06-30"),
    };
    json!([one, two])
}

/// A SERP with three results, one URL showing the `&amp;` the service writes.
fn serp() -> Value {
    json!({
        "1": "https://www.example.com/running-shoes/",
        "2": "https://shop.example.org/search?q=running+shoes&amp;page=1",
        "3": "https://www.example.net/guides/running-shoes",
    })
}

/// An example value of one action parameter (one value for a list).
fn param_value(p: &Param) -> Value {
    if let Some(default) = default_value(p) {
        return default;
    }
    match &p.ty {
        ParamType::String => json!(text(&p.wire)),
        ParamType::Integer => json!(p.min.as_ref().map_or(1, |l| l.value.max(1))),
        ParamType::Date => json!("2024-05-31"),
        ParamType::Enum { values, .. } => json!(values[0]),
    }
}

fn field(spec: &Spec, action: &Action, f: &Field, top: bool) -> Value {
    if top
        && f.ty == FieldType::String
        && let Some(p) = action.params.iter().find(|p| p.wire == f.wire)
    {
        // A top-level member named like a parameter echoes the input.
        return param_value(p);
    }
    match &f.ty {
        FieldType::Integer => json!(spread(&f.wire, 100) + 1),
        // A quarter keeps the figure exact in binary, so it prints as written.
        FieldType::Number => json!(spread(&f.wire, 100) as f64 + 0.25),
        FieldType::String => json!(text(&f.wire)),
        FieldType::BoolWord => json!("true"),
        FieldType::Flag => json!(1),
        FieldType::Date => json!("2024-05-31"),
        FieldType::DateTime => json!("2024-05-31 08:30:00"),
        FieldType::Time => json!("08:30:00"),
        FieldType::Serp => serp(),
        FieldType::CommaList(ListItem::String) => json!("running,shoes"),
        FieldType::CommaList(ListItem::Enum { type_name }) => {
            let values: Vec<&str> = spec
                .enums
                .iter()
                .find(|e| &e.type_name == type_name)
                .map(|e| e.values.iter().take(2).map(|v| v.wire.as_str()).collect())
                .unwrap_or_default();
            json!(values.join(","))
        }
        FieldType::List { record, .. } => match spec.records.iter().find(|r| &r.name == record) {
            Some(r) => json!([self::record(spec, action, r, false)]),
            None => json!([]),
        },
    }
}

fn record(spec: &Spec, action: &Action, r: &Record, top: bool) -> Value {
    let members: Map<String, Value> = r
        .fields
        .iter()
        .map(|f| (f.wire.clone(), field(spec, action, f, top)))
        .collect();
    Value::Object(members)
}

fn payload_value(spec: &Spec, action: &Action) -> Value {
    match &action.response.payload {
        Payload::Serp => serp(),
        Payload::Record { name, .. } => spec
            .records
            .iter()
            .find(|r| &r.name == name)
            .map_or(json!({}), |r| record(spec, action, r, true)),
    }
}

/// The example response of one action: its envelope, one row.
pub fn response(spec: &Spec, action: &Action) -> Value {
    let response = match &action.response.shape {
        Shape::Array => json!([payload_value(spec, action)]),
        Shape::Single => payload_value(spec, action),
        Shape::Map { key } => {
            let key = action
                .params
                .iter()
                .find(|p| &p.wire == key)
                .map(param_value)
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_else(|| text(key));
            let mut map = Map::new();
            map.insert(key, payload_value(spec, action));
            Value::Object(map)
        }
    };
    let rows = 1;
    let figure = action.cost.units.iter().copied().max().unwrap_or(0);
    let used = match action.cost.charged {
        Charged::PerRow => figure * rows,
        Charged::PerCall => figure,
        // No figure to show: the example says nothing was charged.
        Charged::Unknown => 0,
    };
    let e = &spec.envelope;
    let mut envelope = Map::new();
    envelope.insert(e.result_rows.wire.clone(), json!(rows));
    envelope.insert(e.units_used.wire.clone(), json!(used));
    envelope.insert(e.units_remaining.wire.clone(), json!(STARTING_UNITS - used));
    envelope.insert(e.response.wire.clone(), response);
    Value::Object(envelope)
}

/// The body of the no-match answer.
pub fn no_data(spec: &Spec) -> Value {
    json!({"status": spec.no_data.status, "message": spec.no_data.message})
}

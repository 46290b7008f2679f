//! Sample inputs and answers derived from the operation table, so that a
//! new action of the spec is covered with no edit of a test: values for every
//! parameter within its limits, the query the runtime must send for them, and
//! a body the decoder takes (feature `table`).

use seozoom::operation_table::Operation;
use seozoom::operation_table::{FieldKind, ParamKind, RecordInfo, Shape};
use seozoom::operations::RECORDS;
use serde_json::{Map, Value, json};

/// The operation `group action`.
pub fn op(group: &str, action: &str) -> &'static Operation {
    Operation::find(group, action).unwrap_or_else(|| panic!("no operation {group} {action}"))
}

/// The long flag of a parameter.
pub fn flag(wire: &str) -> String {
    format!("--{}", wire.replace('_', "-"))
}

/// Sample values for every parameter of `op` (optional ones too), chosen by the
/// parameter's kind and within its limits, and consistent with its rules: a text
/// value with characters that must be percent-encoded, two values for a list,
/// `3` clamped to the integer's range, a fixed date, an enum's first value.
pub fn sample_params(op: &Operation) -> Vec<(&'static str, Vec<String>)> {
    let mut params: Vec<(&'static str, Vec<String>)> = op
        .params
        .iter()
        .filter(|p| !p.implicit)
        .map(|p| {
            let one = |i: usize| match p.kind {
                ParamKind::Text => format!("{}{i} x&y", p.wire),
                ParamKind::Integer => {
                    let low = p.min.map_or(i64::MIN, |m| m.value);
                    let high = p.max.map_or(i64::MAX, |m| m.value);
                    3i64.clamp(low, high).to_string()
                }
                ParamKind::Date => "2024-03-04".to_owned(),
                ParamKind::Enum { values, .. } => values[0].to_owned(),
                _ => panic!("a parameter kind the tests do not know: {:?}", p.kind),
            };
            let count = if p.list {
                2.min(p.max_items.map_or(2, |m| m.value as usize))
            } else {
                1
            };
            (p.wire, (1..=count).map(one).collect())
        })
        .collect();
    for rule in op.rules {
        let triggered = params.iter().any(|(w, v)| {
            *w == rule.if_param && v.first().map(String::as_str) == Some(rule.if_value)
        });
        if let (true, Some(wanted)) = (triggered, rule.equal_to) {
            for (w, v) in &mut params {
                if *w == rule.require {
                    *v = vec![wanted.to_owned()];
                }
            }
        }
    }
    params
}

/// The flags for these parameter values.
pub fn param_args(params: &[(&'static str, Vec<String>)]) -> Vec<String> {
    params
        .iter()
        .flat_map(|(wire, values)| values.iter().flat_map(move |v| [flag(wire), v.clone()]))
        .collect()
}

/// RFC 3986 percent-encoding of a query value (unreserved characters kept), as
/// the runtime is specified to send it.
pub fn encode(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The raw query the runtime must send for these values: key, database, action,
/// then every parameter in spec order, lists joined by a literal `|`.
pub fn expected_query(
    op: &Operation,
    key: &str,
    db: &str,
    params: &[(&'static str, Vec<String>)],
) -> String {
    let mut query = format!("api_key={}&db={db}&action={}", encode(key), op.action);
    for param in op.params.iter().filter(|p| !p.implicit) {
        let values: Vec<String> = match params.iter().find(|(w, _)| *w == param.wire) {
            Some((_, values)) => values.iter().map(|v| encode(v)).collect(),
            None => match param.default {
                Some(default) => vec![encode(default)],
                None => continue,
            },
        };
        query.push_str(&format!("&{}={}", param.wire, values.join("|")));
    }
    query
}

/// The record of the spec with this name.
pub fn record(name: &str) -> Option<&'static RecordInfo> {
    RECORDS.iter().find(|r| r.name == name)
}

/// A search-result list on the wire.
pub fn sample_serp() -> Value {
    json!({"2": "https://b.example/", "1": "https://a.example/page"})
}

/// A sample value of a field of this kind, in the wire format (and such that it
/// is re-encoded unchanged).
fn sample_field(kind: FieldKind, wire: &str) -> Value {
    match kind {
        FieldKind::Integer | FieldKind::Flag => json!(1),
        FieldKind::Number => json!(1.5),
        FieldKind::Text => json!(format!("{wire}-text")),
        FieldKind::BoolWord => json!("true"),
        FieldKind::Date => json!("2024-03-04"),
        FieldKind::DateTime => json!("2024-03-04 05:06:07"),
        FieldKind::Time => json!("05:06:07"),
        FieldKind::Serp => sample_serp(),
        FieldKind::CommaList { values, .. } if values.len() >= 2 => {
            json!(format!("{},{}", values[0], values[1]))
        }
        FieldKind::CommaList { .. } => json!("a,b"),
        FieldKind::List { record: name } => {
            let inner = sample_payload(name);
            json!([inner.clone(), inner])
        }
        _ => panic!("a field kind the tests do not know: {kind:?}"),
    }
}

/// A sample row of a payload (a record or a SERP).
pub fn sample_payload(payload: &str) -> Value {
    match record(payload) {
        Some(record) => Value::Object(
            record
                .fields
                .iter()
                .map(|f| (f.wire.to_owned(), sample_field(f.kind, f.wire)))
                .collect::<Map<_, _>>(),
        ),
        None if payload == "serp" => sample_serp(),
        None => panic!("a payload the tests do not know: {payload}"),
    }
}

/// A sample `response` for `op` given these parameter values: two rows for an
/// array, one payload for a single object, a payload per key value for a map.
pub fn sample_response(op: &Operation, params: &[(&'static str, Vec<String>)]) -> Value {
    let payload = sample_payload(op.response.payload);
    match op.response.shape {
        Shape::Array => json!([payload.clone(), payload]),
        Shape::Map { key } => {
            let keys = &params.iter().find(|(w, _)| *w == key).unwrap().1;
            Value::Object(keys.iter().map(|k| (k.clone(), payload.clone())).collect())
        }
        _ => payload,
    }
}

/// A canned envelope around a response.
pub fn envelope(response: &Value) -> String {
    json!({"ResultRows": 2, "UnitsUsed": 20, "UnitsRemaining": 980, "response": response})
        .to_string()
}

//! Property tests of decoding, for every operation of the table (and so every
//! record, nested ones included): arbitrary bytes, arbitrary JSON and bodies of
//! the right shape with random values never panic and end in a value or a typed
//! error; a valid body decodes, and what it decodes to, written back to the
//! wire and decoded again, is equal. A fixed seed (see `props`).

use crate::props;

use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use seozoom::error::ErrorKind;
use seozoom::operation_table::{FieldInfo, FieldKind, Operation, RecordInfo, Shape};
use seozoom::operations::{OPERATIONS, RECORDS, SERVICE};
use seozoom::{Envelope, Error};
use serde_json::{Map, Value, json};

use props::runner;

/// Statuses a body may come with.
fn status() -> impl Strategy<Value = u16> {
    prop_oneof![
        4 => Just(200u16),
        1 => prop::sample::select(vec![201u16, 204, 400, 401, 403, 404, 429, 500, 502, 503]),
        1 => 100u16..600,
    ]
}

/// Decode with the operation's own decoder; a panic fails the property.
fn decode(op: &Operation, status: u16, body: &[u8]) -> Result<Envelope<Value>, Error> {
    seozoom::operations::decode_json(op, status, body)
}

/// Every failure is one of the errors a sent call can give.
fn typed(result: &Result<Envelope<Value>, Error>) -> Result<(), TestCaseError> {
    match result {
        Ok(_) => Ok(()),
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::Decode { .. }
                    | ErrorKind::Service { .. }
                    | ErrorKind::OutOfUnits { .. }
                    | ErrorKind::NoData
            ) =>
        {
            Ok(())
        }
        Err(other) => Err(TestCaseError::fail(format!(
            "not a decode outcome: {other:?}"
        ))),
    }
}

/// Any JSON value, nested a few levels.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "true",
            "1",
            "0",
            "2024-01-31",
            "12:00:00",
            "12.0",
            "a,b",
            "No data found!"
        ])
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    "[a-zA-Z_]{1,8}",
                    prop::sample::select(wire_names()).prop_map(str::to_owned)
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every member name of the envelope and of the records.
fn wire_names() -> Vec<&'static str> {
    let mut names = vec![
        SERVICE.envelope_response,
        SERVICE.envelope_result_rows,
        SERVICE.envelope_units_used,
        SERVICE.envelope_units_remaining,
        "message",
        "error",
        "status",
    ];
    names.extend(RECORDS.iter().flat_map(|r| r.fields.iter().map(|f| f.wire)));
    names
}

pub(crate) fn record(name: &str) -> Option<&'static RecordInfo> {
    RECORDS.iter().find(|r| r.name == name)
}

/// A SERP on the wire: positions `"1"`.. to URLs, some with `&amp;`.
fn serp() -> BoxedStrategy<Value> {
    prop::collection::vec("https://[a-z]{1,8}\\.it/[a-z]{0,6}(\\?a=1&amp;b=2)?", 0..12)
        .prop_map(|urls| {
            Value::Object(
                urls.into_iter()
                    .enumerate()
                    .map(|(i, url)| ((i + 1).to_string(), Value::String(url)))
                    .collect(),
            )
        })
        .boxed()
}

/// A valid wire value of a field (never `null`: see [`valid_record`]).
fn valid_field(field: &'static FieldInfo, depth: u32) -> BoxedStrategy<Value> {
    match field.kind {
        FieldKind::Integer => prop_oneof![
            3 => any::<i64>().prop_map(Value::from),
            1 => (-1_000_000i64..1_000_000).prop_map(|n| json!(n as f64)),
        ]
        .boxed(),
        FieldKind::Number => prop_oneof![
            any::<i64>().prop_map(Value::from),
            (-1e12f64..1e12).prop_map(|f| json!(f)),
        ]
        .boxed(),
        FieldKind::Text => any::<String>().prop_map(Value::String).boxed(),
        FieldKind::BoolWord => prop::sample::select(vec![
            json!("true"),
            json!("false"),
            json!("1"),
            json!("0"),
            json!("YES"),
            json!("no"),
            json!(true),
            json!(""),
        ])
        .boxed(),
        FieldKind::Flag => prop::sample::select(vec![json!(0), json!(1), json!("1"), json!(true)]).boxed(),
        FieldKind::Date => (1990i32..2030, 1u8..=12, 1u8..=28)
            .prop_map(|(y, m, d)| json!(format!("{y:04}-{m:02}-{d:02}")))
            .boxed(),
        FieldKind::DateTime => (1990i32..2030, 1u8..=12, 1u8..=28, 0u8..24, 0u8..60)
            .prop_map(|(y, mo, d, h, mi)| json!(format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:07")))
            .boxed(),
        FieldKind::Time => (0u8..24, 0u8..60, 0u8..60)
            .prop_map(|(h, m, s)| json!(format!("{h:02}:{m:02}:{s:02}")))
            .boxed(),
        FieldKind::Serp => serp(),
        FieldKind::CommaList { values, .. } if !values.is_empty() => {
            prop::collection::vec(
                prop_oneof![4 => prop::sample::select(values).prop_map(str::to_owned), 1 => "[a-z]{1,6}"],
                1..4,
            )
            .prop_map(|items| json!(items.join(",")))
            .boxed()
        }
        FieldKind::CommaList { .. } => prop::collection::vec("[a-z ]{0,6}", 0..4)
            .prop_map(|items| json!(items.join(",")))
            .boxed(),
        FieldKind::List { record: name } => match record(name) {
            Some(inner) if depth < 3 => prop::collection::vec(valid_record(inner, depth + 1), 0..3)
                .prop_map(Value::Array)
                .boxed(),
            _ => Just(json!([])).boxed(),
        },
        _ => Just(Value::Null).boxed(),
    }
}

/// A valid wire object of a record: every field, `null` now and then where it
/// may be, absent now and then where it may be.
fn valid_record(info: &'static RecordInfo, depth: u32) -> BoxedStrategy<Value> {
    let fields: Vec<BoxedStrategy<Option<Value>>> = info
        .fields
        .iter()
        .map(|field| {
            let value = valid_field(field, depth);
            let value = if field.nullable {
                prop_oneof![4 => value, 1 => Just(Value::Null)].boxed()
            } else {
                value
            };
            if field.optional {
                prop::option::weighted(0.8, value).boxed()
            } else {
                value.prop_map(Some).boxed()
            }
        })
        .collect();
    fields
        .prop_map(move |values| {
            let members: Map<String, Value> = info
                .fields
                .iter()
                .zip(values)
                .filter_map(|(field, value)| Some((field.wire.to_owned(), value?)))
                .collect();
            Value::Object(members)
        })
        .boxed()
}

/// A valid payload of the operation: a record, a SERP or anything else it
/// returns.
fn payload(op: &Operation) -> BoxedStrategy<Value> {
    match record(op.response.payload) {
        Some(info) => valid_record(info, 0),
        None => serp(),
    }
}

/// A valid `response` of the operation and its row count.
pub(crate) fn valid_response(op: &'static Operation) -> BoxedStrategy<(Value, usize)> {
    match op.response.shape {
        Shape::Array => prop::collection::vec(payload(op), 0..5)
            .prop_map(|rows| {
                let n = rows.len();
                (Value::Array(rows), n)
            })
            .boxed(),
        Shape::Map { .. } => prop::collection::btree_map("[a-z ]{1,10}", payload(op), 1..4)
            .prop_map(|map| {
                let n = map.len();
                (Value::Object(map.into_iter().collect()), n)
            })
            .boxed(),
        _ => payload(op).prop_map(|one| (one, 1)).boxed(),
    }
}

pub(crate) fn body(rows: usize, used: i64, response: &Value) -> Vec<u8> {
    // The service's escaping of `/`, which every decoder must read.
    let mut envelope = Map::new();
    envelope.insert(SERVICE.envelope_result_rows.into(), json!(rows));
    envelope.insert(SERVICE.envelope_units_used.into(), json!(used));
    envelope.insert(SERVICE.envelope_units_remaining.into(), json!(1000));
    envelope.insert(SERVICE.envelope_response.into(), response.clone());
    serde_json::to_string(&Value::Object(envelope))
        .unwrap()
        .replace('/', "\\/")
        .into_bytes()
}

pub(crate) fn any_op() -> impl Strategy<Value = &'static Operation> {
    prop::sample::select(OPERATIONS)
}

#[test]
fn arbitrary_bytes_never_panic_and_end_in_a_typed_outcome() {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..256),
        // JSON-looking bytes, cut anywhere.
        (any_json(), any::<prop::sample::Index>()).prop_map(|(v, cut)| {
            let text = v.to_string().into_bytes();
            let at = cut.index(text.len() + 1);
            text[..at].to_vec()
        }),
    ];
    runner(2048)
        .run(&(bytes, status()), |(bytes, status)| {
            for op in OPERATIONS {
                typed(&decode(op, status, &bytes))?;
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn arbitrary_json_never_panics_and_ends_in_a_typed_outcome() {
    runner(2048)
        .run(&(any_json(), status()), |(value, status)| {
            let text = value.to_string();
            for op in OPERATIONS {
                typed(&decode(op, status, text.as_bytes()))?;
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_right_shape_with_random_values_never_panics() {
    // An envelope around rows whose members are the record's, with any values.
    let random_rows = any_op().prop_flat_map(|op| {
        let names: Vec<&'static str> = record(op.response.payload)
            .map(|r| r.fields.iter().map(|f| f.wire).collect())
            .unwrap_or_else(|| vec!["1", "2"]);
        let row = prop::collection::vec((prop::sample::select(names), any_json()), 0..8).prop_map(
            |members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            },
        );
        (
            Just(op),
            prop::collection::vec(row, 0..4),
            any::<i64>(),
            status(),
        )
    });
    let ok = Cell::new(0u32);
    runner(2048)
        .run(&random_rows, |(op, rows, count, status)| {
            let response = match op.response.shape {
                Shape::Array => Value::Array(rows),
                Shape::Map { .. } => Value::Object(
                    rows.into_iter()
                        .enumerate()
                        .map(|(i, r)| (format!("k{i}"), r))
                        .collect(),
                ),
                _ => rows.into_iter().next().unwrap_or(Value::Null),
            };
            let result = decode(
                op,
                status,
                &body(count.unsigned_abs() as usize % 10, count, &response),
            );
            typed(&result)?;
            if result.is_ok() {
                ok.set(ok.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    // Some random rows are valid by chance (few or no required fields).
    assert!(ok.get() > 0);
}

#[test]
fn valid_bodies_decode_and_survive_a_round_trip_through_the_wire() {
    let valid = any_op().prop_flat_map(|op| (Just(op), valid_response(op), 0i64..100_000));
    runner(1024)
        .run(&valid, |(op, (response, rows), used)| {
            let first = decode(op, 200, &body(rows, used, &response)).map_err(|e| {
                TestCaseError::fail(format!("{}: a valid body refused: {e}", op.label()))
            })?;
            prop_assert_eq!(first.result_rows, rows as i64);
            prop_assert_eq!(first.units_used, used);
            // What the client decoded, written back in the wire form (the
            // records' own serialization, `/` escaped), decodes to the same.
            let again = decode(op, 200, &body(rows, used, &first.response)).map_err(|e| {
                TestCaseError::fail(format!("{}: its own output refused: {e}", op.label()))
            })?;
            prop_assert_eq!(&again.response, &first.response, "{}", op.label());
            prop_assert_eq!(again, first);
            Ok(())
        })
        .unwrap();
}

//! Property test of drift: realistic bodies of every operation (the valid
//! bodies of `properties_decode`), each row changed at random the ways a
//! service drifts from its spec (a member added, one left out, one `null`, a
//! number sent as a string), never fail a call whose envelope parses. Every
//! row is typed or kept raw, the added members are kept in the row they came
//! in, a value of another type is kept as sent in its place, and a row that
//! cannot be typed lacks, or has unreadable, what names it. The envelope
//! drifts too (its figures missing, `null`, floats or numeric strings, a
//! member it does not know, an array `response` sent keyed): the rows are
//! the same, and the member is kept.

use crate::properties_decode::{any_op, body, record, valid_response};
use crate::props::runner;

use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use seozoom::error::ErrorKind;
use seozoom::operation_table::{FieldInfo, FieldKind, Operation, RecordInfo, Shape};
use serde_json::{Value, json};

/// One change of one row.
#[derive(Debug, Clone)]
enum Drift {
    /// A member the spec does not know, with a value.
    Add(String, Value),
    /// The member at this index (of the row's members) left out.
    Remove(prop::sample::Index),
    /// The member at this index sent as `null`.
    Null(prop::sample::Index),
    /// The number at this index sent as a string.
    Stringify(prop::sample::Index),
    /// The member at this index sent as an object, which no field of these
    /// records reads: kept as sent.
    Retype(prop::sample::Index),
}

/// The value [`Drift::Retype`] sends.
fn retyped() -> Value {
    json!({"sent_as": ["an", "object"]})
}

/// One change of the envelope.
#[derive(Debug, Clone)]
enum EnvelopeDrift {
    /// A figure (by its index among the three) sent as this value, or left
    /// out (`None`).
    Figure(usize, Option<Value>),
    /// A member the spec does not know.
    Extra(Value),
    /// An array `response` sent as an object keyed by place.
    Keyed,
}

fn envelope_drift() -> impl Strategy<Value = EnvelopeDrift> {
    let figure = prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        (0i64..100_000).prop_map(|n| Some(json!(n as f64))),
        (0i64..100_000).prop_map(|n| Some(json!(n.to_string()))),
        "[a-z/ ]{0,6}".prop_map(|text| Some(Value::String(text))),
    ];
    prop_oneof![
        (0usize..3, figure).prop_map(|(at, value)| EnvelopeDrift::Figure(at, value)),
        "[a-z ]{0,12}".prop_map(|text| EnvelopeDrift::Extra(json!([text]))),
        Just(EnvelopeDrift::Keyed),
    ]
}

/// `body` (an envelope) changed by `drifts`; the extra member, when one was added.
fn apply_to_envelope(body: &mut Value, drifts: &[EnvelopeDrift]) -> Option<Value> {
    use seozoom::operations::SERVICE;
    let figures = [
        SERVICE.envelope_result_rows,
        SERVICE.envelope_units_used,
        SERVICE.envelope_units_remaining,
    ];
    let members = body.as_object_mut()?;
    let mut extra = None;
    for drift in drifts {
        match drift {
            EnvelopeDrift::Figure(at, Some(value)) => {
                members.insert(figures[*at].into(), value.clone());
            }
            EnvelopeDrift::Figure(at, None) => {
                members.remove(figures[*at]);
            }
            EnvelopeDrift::Extra(value) => {
                members.insert("Warnings".into(), value.clone());
                extra = Some(value.clone());
            }
            EnvelopeDrift::Keyed => {
                let response = members.get_mut(SERVICE.envelope_response)?;
                if let Value::Array(rows) = response
                    && rows.iter().all(Value::is_object)
                {
                    let keyed = rows
                        .drain(..)
                        .enumerate()
                        .map(|(i, row)| (format!("r{i:03}"), row));
                    *response = Value::Object(keyed.collect());
                }
            }
        }
    }
    extra
}

fn drift() -> impl Strategy<Value = Drift> {
    let extra = prop_oneof![
        any::<i64>().prop_map(Value::from),
        (-4000i32..4000).prop_map(|n| json!(f64::from(n) / 4.0)),
        "[a-z ]{0,10}".prop_map(Value::String),
        Just(Value::Null),
        Just(json!({"nested": [1, "two"]})),
    ];
    prop_oneof![
        ("x_[a-z]{1,8}", extra).prop_map(|(name, value)| Drift::Add(name, value)),
        any::<prop::sample::Index>().prop_map(Drift::Remove),
        any::<prop::sample::Index>().prop_map(Drift::Null),
        any::<prop::sample::Index>().prop_map(Drift::Stringify),
        any::<prop::sample::Index>().prop_map(Drift::Retype),
    ]
}

/// What names a row: a member the spec says is always sent, never `null`.
fn names_the_row(field: &FieldInfo) -> bool {
    !field.optional && !field.nullable
}

/// `row` changed by `drifts`; the members added, and whether a member that
/// names the row was left out, nulled or sent as a string.
fn apply(row: &mut Value, info: &RecordInfo, drifts: &[Drift]) -> (Vec<(String, Value)>, bool) {
    let Value::Object(members) = row else {
        return (Vec::new(), false);
    };
    let mut added = Vec::new();
    let mut touched_name = false;
    let is_name = |wire: &str| {
        info.fields
            .iter()
            .any(|f| f.wire == wire && names_the_row(f))
    };
    let is_field = |wire: &str| info.fields.iter().any(|f| f.wire == wire);
    for drift in drifts {
        // A field sent as another type, then changed again, is the field's
        // again: no longer a value kept as sent.
        if let Drift::Null(index) | Drift::Stringify(index) = drift
            && !members.is_empty()
        {
            let key = members.keys().nth(index.index(members.len())).cloned();
            added.retain(|(name, _)| Some(name) != key.as_ref() || !is_field(name));
        }
        let keys: Vec<String> = members.keys().cloned().collect();
        let pick = |index: &prop::sample::Index| {
            (!keys.is_empty()).then(|| keys[index.index(keys.len())].clone())
        };
        match drift {
            Drift::Add(name, value) => {
                if info.fields.iter().any(|f| f.wire == name) || members.contains_key(name) {
                    continue;
                }
                members.insert(name.clone(), value.clone());
                added.push((name.clone(), value.clone()));
            }
            Drift::Remove(index) => {
                if let Some(key) = pick(index) {
                    touched_name |= is_name(&key);
                    members.remove(&key);
                    added.retain(|(name, _)| *name != key);
                }
            }
            Drift::Null(index) => {
                if let Some(key) = pick(index) {
                    touched_name |= is_name(&key);
                    members.insert(key.clone(), Value::Null);
                    for (name, value) in &mut added {
                        if *name == key {
                            *value = Value::Null;
                        }
                    }
                }
            }
            Drift::Retype(index) => {
                if let Some(key) = pick(index) {
                    touched_name |= is_name(&key);
                    members.insert(key.clone(), retyped());
                    added.retain(|(name, _)| *name != key);
                    added.push((key, retyped()));
                }
            }
            Drift::Stringify(index) => {
                if let Some(key) = pick(index)
                    && let Some(Value::Number(n)) = members.get(&key)
                {
                    let text = Value::String(n.to_string());
                    touched_name |= is_name(&key);
                    members.insert(key.clone(), text.clone());
                    for (name, value) in &mut added {
                        if *name == key {
                            *value = text.clone();
                        }
                    }
                }
            }
        }
    }
    (added, touched_name)
}

/// Each row of a `response` of `op` (a single object is one row) given to
/// `f` with its key in a map.
fn each_row(op: &Operation, response: &mut Value, mut f: impl FnMut(Option<&str>, &mut Value)) {
    match (op.response.shape, response) {
        (Shape::Array, Value::Array(rows)) => rows.iter_mut().for_each(|row| f(None, row)),
        (Shape::Map { .. }, Value::Object(map)) => {
            map.iter_mut().for_each(|(key, row)| f(Some(key), row))
        }
        (_, one @ Value::Object(_)) => f(None, one),
        _ => {}
    }
}

#[test]
fn random_drift_never_fails_a_call_and_every_row_is_typed_or_kept_raw() {
    let cases = any_op()
        .prop_filter("rows of a record", |op| {
            record(op.response.payload)
                .is_some_and(|r| r.fields.iter().all(|f| !matches!(f.kind, FieldKind::Serp)))
        })
        .prop_flat_map(|op| {
            (
                Just(op),
                valid_response(op),
                prop::collection::vec(prop::collection::vec(drift(), 0..4), 5),
                prop::collection::vec(envelope_drift(), 0..3),
            )
        });
    // How many rows were kept raw, and members added were found, in all: the
    // drift must reach both paths.
    let (raw_seen, kept_seen) = (Cell::new(0usize), Cell::new(0usize));
    runner(512)
        .run(
            &cases,
            |(op, (mut response, rows), drifts, envelope_drifts)| {
                let info = record(op.response.payload).unwrap();
                // Per row: its key in a map, the members added, whether what
                // names it was touched.
                let mut changed = Vec::new();
                each_row(op, &mut response, |key, row| {
                    let (added, touched) = apply(row, info, &drifts[changed.len() % drifts.len()]);
                    changed.push((key.map(str::to_owned), added, touched));
                });
                let single = !matches!(op.response.shape, Shape::Array | Shape::Map { .. });
                let mut sent: Value = serde_json::from_slice(&body(rows, 10, &response)).unwrap();
                let extra = apply_to_envelope(&mut sent, &envelope_drifts);
                let sent = serde_json::to_vec(&sent).unwrap();
                let decoded = seozoom::operations::decode_json(op, 200, &sent);
                let envelope = match decoded {
                    Ok(envelope) => envelope,
                    // One object without what names it cannot be typed at all:
                    // the call fails (its body is kept in the store).
                    Err(e) if single && changed[0].2 => {
                        prop_assert!(matches!(e.kind(), ErrorKind::Decode { .. }), "{e}");
                        return Ok(());
                    }
                    Err(e) => {
                        return Err(TestCaseError::fail(format!(
                            "{}: a drifted body failed the call: {e}\n{response}",
                            op.label()
                        )));
                    }
                };
                prop_assert_eq!(
                    typed_rows(&envelope.response, single).len() + envelope.raw_rows.len(),
                    rows,
                    "{}: every row typed or kept raw",
                    op.label()
                );
                prop_assert_eq!(envelope.extras.get("Warnings"), extra.as_ref());
                raw_seen.set(raw_seen.get() + envelope.raw_rows.len());
                for raw in &envelope.raw_rows {
                    prop_assert!(raw.index < rows);
                    prop_assert!(
                        changed[raw.index].2,
                        "{}: row {} kept raw though what names it was sent: {}",
                        op.label(),
                        raw.index,
                        raw.error
                    );
                }
                // The members added are kept, in the row they came in: a typed
                // row (by its place, or its key in a map) or a raw one.
                let mut typed = typed_rows(&envelope.response, single).into_iter();
                for (i, (key, added, _)) in changed.iter().enumerate() {
                    let row = match envelope.raw_rows.iter().find(|r| r.index == i) {
                        Some(raw) => &raw.row,
                        None => match key {
                            Some(key) => &envelope.response[key.as_str()],
                            None => typed.next().unwrap_or(&Value::Null),
                        },
                    };
                    kept_seen.set(kept_seen.get() + added.len());
                    for (name, value) in added {
                        prop_assert_eq!(
                            row.get(name),
                            Some(value),
                            "{}: row {}: {}",
                            op.label(),
                            i,
                            row
                        );
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    assert!(
        raw_seen.get() > 0 && kept_seen.get() > 0,
        "{raw_seen:?} {kept_seen:?}"
    );
}

/// The typed rows of a decoded `response`.
fn typed_rows(response: &Value, single: bool) -> Vec<&Value> {
    match (response, single) {
        (Value::Array(rows), false) => rows.iter().collect(),
        (Value::Object(map), false) => map.values().collect(),
        (one, _) => vec![one],
    }
}

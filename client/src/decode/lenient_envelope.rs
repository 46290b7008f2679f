//! The envelope read as leniently as a record, for the slow path: a body the
//! typed decode refused, parsed, is put in the envelope's documented form
//! before it is decoded again, and what was changed is noted as drift.
//!
//! A paid answer is never lost to the envelope's shape: a figure missing,
//! `null`, an integral float or a numeric string; a `response` that is `null`
//! (an empty answer, for a single object as for rows) or an object where the spec says a list (its values are
//! the rows when they are objects, else the whole response is kept raw); and
//! members the spec does not know, kept as the envelope's extras.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::envelope_seed::ENVELOPE;
use crate::drift::seen::{DriftKind, Found, note};
use crate::envelope::{Envelope, RawRow, Unreported};
use crate::operation_table::{Operation, Shape};
use crate::record::UnknownMembers;

/// An envelope put in its documented form, and what it took.
pub(super) struct Reshaped {
    /// The body with the four documented members only, each of its
    /// documented type.
    pub value: Value,
    /// The members the spec does not know.
    pub extras: UnknownMembers,
    /// The figures it did not report.
    pub unreported: Unreported,
    /// The balance it reported, if it did (the value to decode holds 0 in
    /// its place, since the typed decode reads an integer there).
    pub units_remaining: Option<i64>,
    /// The whole response, kept raw when its rows could not be told.
    pub raw: Option<RawRow>,
    /// Whether anything but the extras was changed (if not, what failed the
    /// typed decode is elsewhere).
    pub changed: bool,
}

impl Reshaped {
    /// `envelope`, decoded from [`Reshaped::value`], with what the reshaping
    /// kept.
    pub(super) fn finish<T>(self, mut envelope: Envelope<T>) -> Envelope<T> {
        envelope.extras = self.extras;
        envelope.unreported = self.unreported;
        envelope.units_remaining = self.units_remaining;
        envelope.raw_rows.splice(0..0, self.raw);
        envelope
    }
}

/// `body` (a parsed answer of `op`) in the envelope's documented form;
/// `None` when it is no envelope (not an object, or no `response`), which
/// the caller judges as it is.
/// `text` is the body as sent, for the order of an object's members (a
/// parsed object keeps them by name).
pub(super) fn reshape(op: &Operation, body: Value, text: &[u8]) -> Option<Reshaped> {
    let service = op.service;
    let Value::Object(mut members) = body else {
        return None;
    };
    let sent = members.remove(service.envelope_response)?;
    let (response, raw, mut changed) = rows_of(op, sent, text);
    let mut figure = |name: &'static str| {
        let (value, same) = figure(name, members.remove(name));
        changed |= !same;
        value
    };
    let used = figure(service.envelope_units_used);
    let remaining = figure(service.envelope_units_remaining);
    let counted = figure(service.envelope_result_rows);
    let mut extras = UnknownMembers::default();
    for (name, value) in members {
        note(
            ENVELOPE,
            &name,
            DriftKind::UnknownMember,
            Found::Value(&value),
        );
        extras.insert(name, value);
    }
    let rows = match (&response, op.response.shape) {
        (Value::Array(rows), _) => rows.len(),
        // One object is one row, none when it is empty.
        (Value::Object(members), Shape::Single) => usize::from(!members.is_empty()),
        (Value::Object(rows), _) => rows.len(),
        _ => 1,
    } + usize::from(raw.is_some());
    let result_rows = counted.unwrap_or(rows as i64);
    let mut value = Map::new();
    value.insert(service.envelope_result_rows.into(), result_rows.into());
    value.insert(service.envelope_units_used.into(), used.unwrap_or(0).into());
    value.insert(
        service.envelope_units_remaining.into(),
        remaining.unwrap_or(0).into(),
    );
    value.insert(service.envelope_response.into(), response);
    Some(Reshaped {
        value: Value::Object(value),
        extras,
        unreported: Unreported {
            units_used: used.is_none(),
        },
        units_remaining: remaining,
        raw,
        changed,
    })
}

/// The rows of a `response` as the spec shapes it, the response kept raw
/// when they cannot be told, and whether it was reshaped (noted).
fn rows_of(op: &Operation, sent: Value, text: &[u8]) -> (Value, Option<RawRow>, bool) {
    let name = op.service.envelope_response;
    let empty = match op.response.shape {
        Shape::Array => Value::Array(Vec::new()),
        // One object: its empty form is an object with no members (a SERP
        // with no positions, a record whose every field is empty).
        Shape::Map { .. } | Shape::Single => Value::Object(Map::new()),
    };
    match (op.response.shape, sent) {
        (_, Value::Null) => {
            note(ENVELOPE, name, DriftKind::Null, Found::Null);
            (empty, None, true)
        }
        (Shape::Array, Value::Object(rows)) => {
            let found = Value::Object(rows);
            note(
                ENVELOPE,
                name,
                DriftKind::UnexpectedType,
                Found::Value(&found),
            );
            let Value::Object(rows) = found else {
                return (empty, None, true);
            };
            if rows.values().all(Value::is_object) {
                let in_order = in_order(text, name)
                    .unwrap_or_else(|| rows.into_iter().map(|(_, row)| row).collect());
                return (Value::Array(in_order), None, true);
            }
            let error = "an object where the spec says a list, not every member a row".to_owned();
            (
                empty,
                Some(RawRow::new(0, None, error, Value::Object(rows))),
                true,
            )
        }
        (_, sent) => (sent, None, false),
    }
}

/// A figure of the envelope (`None` when it was not reported: missing, `null`
/// or not a number), and whether it was sent as the spec says (an integer).
fn figure(name: &str, sent: Option<Value>) -> (Option<i64>, bool) {
    let Some(sent) = sent else {
        note(ENVELOPE, name, DriftKind::Missing, Found::Nothing);
        return (None, false);
    };
    if let Some(n) = sent.as_i64() {
        return (Some(n), true);
    }
    let read = match &sent {
        Value::Null => {
            note(ENVELOPE, name, DriftKind::Null, Found::Null);
            return (None, false);
        }
        // An integral float is an integer, as in a record.
        Value::Number(n) => n.as_f64().and_then(whole),
        Value::String(text) => exact_count(text),
        _ => None,
    };
    if !matches!(sent, Value::Number(_)) || read.is_none() {
        note(
            ENVELOPE,
            name,
            DriftKind::UnexpectedType,
            Found::Value(&sent),
        );
    }
    (read, false)
}

/// A whole number in an `f64`, if it is one exactly.
fn whole(v: f64) -> Option<i64> {
    (v.fract() == 0.0 && v.abs() <= super::quirks::F64_EXACT).then_some(v as i64)
}

/// A count sent as text that reads exactly as a whole number (`"10"`,
/// `"10.0"`).
fn exact_count(text: &str) -> Option<i64> {
    let text = text.trim();
    text.parse()
        .ok()
        .or_else(|| text.parse::<f64>().ok().and_then(whole))
}

/// The values of the object under `name` in `text`, in the order sent.
fn in_order(text: &[u8], name: &str) -> Option<Vec<Value>> {
    let mut de = serde_json::Deserializer::from_slice(text);
    MemberValues(name).deserialize(&mut de).ok().flatten()
}

/// The values, in order, of the object under one member of an object.
struct MemberValues<'a>(&'a str);

/// The values of an object, in order.
struct Values;

impl<'de> DeserializeSeed<'de> for MemberValues<'_> {
    type Value = Option<Vec<Value>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for MemberValues<'_> {
    type Value = Option<Vec<Value>>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            match key == self.0 {
                true => found = Some(map.next_value_seed(Values)?),
                false => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        Ok(found)
    }
}

impl<'de> DeserializeSeed<'de> for Values {
    type Value = Vec<Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Values {
    type Value = Vec<Value>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut values = Vec::new();
        while let Some((_, value)) = map.next_entry::<IgnoredAny, Value>()? {
            values.push(value);
        }
        Ok(values)
    }
}

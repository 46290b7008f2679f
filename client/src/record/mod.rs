//! Decoding a generated record from a JSON object, and writing it back.
//!
//! serde's derive writes, for every record, a field enum, a visitor for maps
//! and another for sequences, and a wrapper type per field decoded by a quirk
//! function: about 800 lines per record once expanded, half of this crate's
//! code, compiled by every user. A generated record says only what differs
//! between records (its wire names, and how each field is read and filled);
//! the loop over the object, unknown members, duplicates and missing fields
//! are handled here, once.
//!
//! A row is read leniently, so that a paid answer is not lost to its shape
//! ([`lenient`]): a member of an unexpected type leaves its field empty, a
//! member the spec does not know is kept ([`UnknownMembers`]), and either is
//! noted as drift ([`crate::drift`]). Only a member the spec says is always
//! sent (what names the row) fails the row when it is missing, `null` or
//! unreadable; errors are then serde's own (`missing field`), tracked to
//! their path as the derive's.

mod kept_value;
pub mod lenient;
mod unknown;
mod write;

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::drift::seen::{DriftKind, Found, note};
pub(crate) use kept_value::Kept;
pub use lenient::{Kind, Lenient, Place, Read};
pub use unknown::UnknownMembers;
pub use write::Writer;

/// A record the generator wrote a decoder for.
pub trait Record: Sized {
    /// The record's type name, for the error that meets something other than an object.
    const NAME: &'static str;
    /// The record's name in the spec, for the drift it notes.
    const RECORD: &'static str;
    /// The wire names of its fields, in the order of its struct's fields.
    const FIELDS: &'static [&'static str];
    /// Where each of its fields is read, in the same order (what a note of
    /// drift names).
    const PLACES: &'static [Place];

    /// The index in [`Record::FIELDS`] of a wire name (a `match` on string
    /// constants, which compiles to a few integer comparisons per key).
    fn field_index(wire: &str) -> Option<usize>;

    /// The record from the fields of one object.
    fn from_fields<'de, A: MapAccess<'de>>(fields: Fields<'de, A, Self>) -> Result<Self, A::Error>;
}

/// The `Deserialize` of a [`Record`].
#[inline]
pub fn deserialize<'de, D: Deserializer<'de>, R: Record>(deserializer: D) -> Result<R, D::Error> {
    deserializer.deserialize_struct(R::NAME, R::FIELDS, RecordVisitor(PhantomData))
}

struct RecordVisitor<R>(PhantomData<R>);

impl<'de, R: Record> Visitor<'de> for RecordVisitor<R> {
    type Value = R;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", R::NAME)
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<R, A::Error> {
        R::from_fields(Fields {
            map,
            current: 0,
            nulls: 0,
            unread: 0,
            unknown: UnknownMembers::default(),
            record: PhantomData,
            de: PhantomData,
        })
    }
}

/// The place of a field index past a record's table, which the generated
/// decoders never pass.
static NOWHERE: Place = Place {
    record: "",
    member: "",
};

/// Where field `index` of `R` is read: the runtime's one source of a field's
/// wire name (`R::FIELDS` repeats them only for serde's `deserialize_struct`).
#[inline]
fn place<R: Record>(index: usize) -> &'static Place {
    R::PLACES.get(index).unwrap_or(&NOWHERE)
}

/// The bit of field `index` in a [`Fields`] mask (fields past the 64th are
/// not tracked: they are only reported as missing rather than null).
fn bit(index: usize) -> u64 {
    1u64.checked_shl(u32::try_from(index).unwrap_or(u32::MAX))
        .unwrap_or(0)
}

/// The fields of one object, as the record it decodes into knows them.
pub struct Fields<'de, A, R> {
    map: A,
    /// The index in `R::FIELDS` of the field last returned by [`Fields::next_field`].
    current: usize,
    /// The fields that were `null`, one bit each.
    nulls: u64,
    /// The fields whose value the field cannot hold, one bit each.
    unread: u64,
    /// The members `R` does not know.
    unknown: UnknownMembers,
    record: PhantomData<R>,
    de: PhantomData<&'de ()>,
}

impl<'de, A: MapAccess<'de>, R: Record> Fields<'de, A, R> {
    /// The index in `R::FIELDS` of the next field the record knows; the
    /// members it does not know are kept, by name, and noted.
    #[inline]
    pub fn next_field(&mut self) -> Result<Option<usize>, A::Error> {
        loop {
            match self.map.next_key_seed(FieldIndex::<R>(PhantomData))? {
                None => return Ok(None),
                Some(Key::Known(index)) => {
                    self.current = index;
                    return Ok(Some(index));
                }
                Some(Key::Unknown(name)) => {
                    let value: Value = self.map.next_value()?;
                    note(
                        R::RECORD,
                        &name,
                        DriftKind::UnknownMember,
                        Found::Value(&value),
                    );
                    self.unknown.insert(name, value);
                }
            }
        }
    }

    /// Reads the current field's value into `slot` as `kind` reads it; a
    /// field seen twice is an error. A `null` leaves the slot empty, as does
    /// a value the field cannot hold (noted as drift).
    #[inline]
    pub fn read<K: Kind<'de>>(
        &mut self,
        slot: &mut Option<K::Value>,
        kind: K,
    ) -> Result<(), A::Error> {
        let place = place::<R>(self.current);
        if slot.is_some() {
            return Err(de::Error::duplicate_field(place.member));
        }
        match self.map.next_value_seed(Lenient { kind, place, slot })? {
            Read::Value => {}
            Read::Null => self.nulls |= bit(self.current),
            Read::Unreadable(sent) => self.keep_unreadable(place, sent),
        }
        Ok(())
    }

    /// Keeps a value the current field cannot hold with the row, under its
    /// wire name, as sent. Out of line: the rare case's map insertion would
    /// otherwise make [`Fields::read`] too large to inline into a record's
    /// loop over its keys, a call per value on every row.
    #[cold]
    #[inline(never)]
    #[expect(
        clippy::boxed_local,
        reason = "unboxed here, not in `read`: the move out of the box and its free there \
                  kept `read` from being inlined (BENCHMARKS.md)"
    )]
    fn keep_unreadable(&mut self, place: &Place, sent: Box<Value>) {
        self.unread |= bit(self.current);
        self.unknown.insert(place.member.to_owned(), *sent);
    }

    /// The value of the field at `index`, which the spec says is always
    /// sent and never `null`: without one the row cannot be typed.
    #[inline]
    pub fn required<T>(&self, slot: Option<T>, index: usize) -> Result<T, A::Error> {
        match slot {
            Some(value) => Ok(value),
            None => Err(self.absent(index, DriftKind::Missing)),
        }
    }

    /// The value of the field at `index`, which the spec says may be absent
    /// but is never `null`: a `null` is noted.
    #[inline]
    pub fn optional<T>(&self, slot: Option<T>, index: usize) -> Option<T> {
        if slot.is_none() && self.nulls & bit(index) != 0 {
            note(R::RECORD, self.name(index), DriftKind::Null, Found::Null);
        }
        slot
    }

    /// The value of the field at `index`, which the spec says may be `null`
    /// but is always sent: its absence is noted.
    #[inline]
    pub fn nullable<T>(&self, slot: Option<T>, index: usize) -> Option<T> {
        if slot.is_none() && (self.nulls | self.unread) & bit(index) == 0 {
            note(
                R::RECORD,
                self.name(index),
                DriftKind::Missing,
                Found::Nothing,
            );
        }
        slot
    }

    /// The members of the object the record does not know.
    #[inline]
    pub fn unknown(&mut self) -> UnknownMembers {
        std::mem::take(&mut self.unknown)
    }

    /// Why a required field has no value, noted (a value of another type was
    /// noted when read), as the error that fails the row.
    #[cold]
    fn absent(&self, index: usize, missing: DriftKind) -> A::Error {
        let name = self.name(index);
        if self.unread & bit(index) != 0 {
            return de::Error::custom(format_args!(
                "field `{name}` holds a value of another type than the spec's"
            ));
        }
        if self.nulls & bit(index) != 0 {
            note(R::RECORD, name, DriftKind::Null, Found::Null);
            return de::Error::custom(format_args!("field `{name}` is null"));
        }
        note(R::RECORD, name, missing, Found::Nothing);
        de::Error::missing_field(name)
    }

    #[inline]
    fn name(&self, index: usize) -> &'static str {
        place::<R>(index).member
    }
}

/// A key: one of a record's fields, or a member it does not know.
enum Key {
    Known(usize),
    Unknown(String),
}

/// A key, as the index of a record's field.
struct FieldIndex<R>(PhantomData<R>);

impl<'de, R: Record> DeserializeSeed<'de> for FieldIndex<R> {
    type Value = Key;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, R: Record> Visitor<'de> for FieldIndex<R> {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    #[inline]
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(match R::field_index(key) {
            Some(index) => Key::Known(index),
            None => Key::Unknown(key.to_owned()),
        })
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Self::Value, E> {
        self.visit_str(&String::from_utf8_lossy(key))
    }
}

#[cfg(test)]
mod tests {
    use serde::de::{Deserializer, MapAccess};
    use serde::{Deserialize, Serialize, Serializer};
    use serde_json::json;

    use super::{Fields, Record, UnknownMembers, Writer};
    use crate::decode::quirks::kind;
    use crate::drift::seen::{DriftKind, JsonType, watch};

    /// A record written as the generator writes one: a required field (it
    /// names the row), one that may be absent or `null`, one that may be
    /// absent only.
    #[derive(Debug, PartialEq)]
    struct Pair {
        count: i64,
        label: Option<String>,
        ratio: Option<f64>,
        unknown_members: UnknownMembers,
    }

    impl<'de> Deserialize<'de> for Pair {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            super::deserialize(deserializer)
        }
    }

    impl Serialize for Pair {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut out = Writer::start::<Self>(serializer, &self.unknown_members)?;
            out.field("n", &self.count)?;
            out.field("label", &self.label)?;
            out.field("ratio", &self.ratio)?;
            out.end(&self.unknown_members)
        }
    }

    impl Record for Pair {
        const NAME: &'static str = "Pair";
        const RECORD: &'static str = "pair";
        const FIELDS: &'static [&'static str] = &["n", "label", "ratio"];
        const PLACES: &'static [super::Place] = &[
            super::Place {
                record: "pair",
                member: "n",
            },
            super::Place {
                record: "pair",
                member: "label",
            },
            super::Place {
                record: "pair",
                member: "ratio",
            },
        ];

        fn field_index(wire: &str) -> Option<usize> {
            match wire {
                "n" => Some(0),
                "label" => Some(1),
                "ratio" => Some(2),
                _ => None,
            }
        }

        fn from_fields<'de, A: MapAccess<'de>>(
            mut fields: Fields<'de, A, Self>,
        ) -> Result<Self, A::Error> {
            let mut count = None;
            let mut label = None;
            let mut ratio = None;
            while let Some(index) = fields.next_field()? {
                match index {
                    0 => fields.read(&mut count, kind::Integer)?,
                    1 => fields.read(&mut label, kind::Text)?,
                    2 => fields.read(&mut ratio, kind::Number)?,
                    _ => {}
                }
            }
            Ok(Pair {
                count: fields.required(count, 0)?,
                label,
                ratio: fields.optional(ratio, 2),
                unknown_members: fields.unknown(),
            })
        }
    }

    fn decode(json: &str) -> Result<Pair, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    fn pair(count: i64, label: Option<&str>) -> Pair {
        Pair {
            count,
            label: label.map(str::to_owned),
            ratio: None,
            unknown_members: UnknownMembers::default(),
        }
    }

    #[test]
    fn fields_are_read_in_any_order() {
        assert_eq!(decode(r#"{"n": 3, "label": "x"}"#), Ok(pair(3, Some("x"))));
        assert_eq!(
            decode(r#"{"label": "x", "n": 3.0}"#),
            Ok(pair(3, Some("x")))
        );
        assert_eq!(decode(r#"{"n": 3, "label": null}"#), Ok(pair(3, None)));
        // From a `Value` too (keys are owned strings there), as the cache decodes.
        let value = serde_json::json!({"label": "y", "n": 4});
        assert_eq!(Pair::deserialize(value).ok(), Some(pair(4, Some("y"))));
    }

    #[test]
    fn unknown_members_are_kept_noted_and_written_back_after_the_fields() {
        let body = r#"{"other": {"n": [1, {"label": 2}]}, "n": 3, "more": null}"#;
        let (decoded, seen) = watch(|| decode(body));
        let decoded = decoded.unwrap();
        assert_eq!(decoded.count, 3);
        assert_eq!(decoded.unknown_members.len(), 2);
        assert_eq!(
            decoded.unknown_members.get("other"),
            Some(&serde_json::json!({"n": [1, {"label": 2}]}))
        );
        let kinds: Vec<_> = seen.iter().map(|s| (s.member.as_str(), s.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("other", DriftKind::UnknownMember),
                ("more", DriftKind::UnknownMember)
            ]
        );
        assert!(seen[0].types.contains(JsonType::Object));
        let written = serde_json::to_value(&decoded).unwrap();
        assert_eq!(
            written,
            serde_json::json!({"n": 3, "label": null, "ratio": null, "other": {"n": [1, {"label": 2}]}, "more": null})
        );
        // Without unknown members the record is written as a struct.
        let plain = serde_json::to_string(&pair(1, Some("a"))).unwrap();
        assert_eq!(plain, r#"{"n":1,"label":"a","ratio":null}"#);
    }

    #[test]
    fn values_of_another_type_leave_the_field_empty_and_are_noted() {
        let (decoded, seen) =
            watch(|| decode(r#"{"n": "12", "label": 7, "ratio": [1, 2], "x": 1}"#));
        let decoded = decoded.unwrap();
        assert_eq!(decoded.count, 12, "a number sent as a string is read");
        assert_eq!(decoded.label.as_deref(), Some("7"), "a number read as text");
        assert_eq!(decoded.ratio, None, "an array is no number");
        let unexpected: Vec<_> = seen
            .iter()
            .filter(|s| s.kind == DriftKind::UnexpectedType)
            .map(|s| (s.member.as_str(), s.example.as_str()))
            .collect();
        assert_eq!(
            unexpected,
            [("n", "\"12\""), ("label", "7"), ("ratio", "[1,2]")]
        );
    }

    #[test]
    fn a_value_that_does_not_fit_is_kept_as_sent_and_written_in_its_place() {
        for (ratio, n) in [
            (json!("1,5"), json!(55.5)),
            (json!({"a": 1}), json!("1.234")),
            (json!(true), json!("n/a")),
        ] {
            let body = json!({"label": "x", "ratio": ratio, "n": 1, "other": n});
            let decoded = Pair::deserialize(&body).unwrap();
            assert_eq!(decoded.ratio, None);
            assert_eq!(decoded.unknown_members.get("ratio"), Some(&ratio));
            let written = serde_json::to_value(&decoded).unwrap();
            assert_eq!(written, body, "every member as sent, each once");
        }
        // A numeric string that reads exactly as the number fills the field.
        let (exact, inexact) = (
            decode(r#"{"n": "12.0"}"#),
            decode(r#"{"label": "x", "n": 7, "ratio": "14800"}"#),
        );
        assert_eq!(exact.map(|p| p.count), Ok(12));
        assert_eq!(inexact.unwrap().ratio, Some(14800.0));
        let integer = decode(r#"{"n": "1.234"}"#).unwrap_err();
        assert!(integer.contains("another type"), "{integer}");
    }

    #[test]
    fn a_null_where_the_spec_says_absent_only_is_noted() {
        let (decoded, seen) = watch(|| decode(r#"{"n": 1, "ratio": null}"#));
        assert_eq!(decoded.unwrap().ratio, None);
        assert_eq!(seen.len(), 1);
        assert_eq!(
            (seen[0].member.as_str(), seen[0].kind),
            ("ratio", DriftKind::Null)
        );
    }

    #[test]
    fn a_missing_null_mistyped_or_duplicate_required_field_fails_the_row() {
        let (missing, seen) = watch(|| decode(r#"{"label": "x"}"#));
        let missing = missing.unwrap_err();
        assert!(missing.starts_with("missing field `n`"), "{missing}");
        assert_eq!(seen[0].kind, DriftKind::Missing);
        let (null, seen) = watch(|| decode(r#"{"n": null}"#));
        assert!(null.unwrap_err().contains("`n` is null"));
        assert_eq!(seen[0].kind, DriftKind::Null);
        let mistyped = decode(r#"{"n": "many"}"#).unwrap_err();
        assert!(mistyped.contains("another type"), "{mistyped}");
        let twice = decode(r#"{"n": 1, "n": 2}"#).unwrap_err();
        assert!(twice.starts_with("duplicate field `n`"), "{twice}");
        let array = decode(r#"[1, "x"]"#).unwrap_err();
        assert!(array.contains("expected struct Pair"), "{array}");
        let mut json = serde_json::Deserializer::from_str(r#"{"label": "x", "n": "many"}"#);
        let error = serde_path_to_error::deserialize::<_, Pair>(&mut json).unwrap_err();
        assert!(error.to_string().contains("`n`"), "{error}");
    }
}

//! Decoding a generated record from a JSON object.
//!
//! serde's derive writes, for every record, a field enum, a visitor for maps
//! and another for sequences, and a wrapper type per field decoded by a quirk
//! function: about 800 lines per record once expanded, half of this crate's
//! code, compiled by every user. A generated record says only what differs
//! between records (its wire names, and how each field is read and filled);
//! the loop over the object, unknown fields, duplicates and missing fields are
//! handled here, once. Errors are serde's own (`missing field`, `duplicate
//! field`), so they read, and are tracked to their path, as the derive's.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

/// A record the generator wrote a decoder for.
pub trait Record: Sized {
    /// The record's type name, for the error that meets something other than an object.
    const NAME: &'static str;
    /// The wire names of its fields, in the order of its struct's fields.
    const FIELDS: &'static [&'static str];

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
            record: PhantomData,
            de: PhantomData,
        })
    }
}

/// The fields of one object, as the record it decodes into knows them.
pub struct Fields<'de, A, R> {
    map: A,
    /// The index in `R::FIELDS` of the field last returned by [`Fields::next_field`].
    current: usize,
    record: PhantomData<R>,
    de: PhantomData<&'de ()>,
}

impl<'de, A: MapAccess<'de>, R: Record> Fields<'de, A, R> {
    /// The index in `R::FIELDS` of the next field the record knows; the
    /// values of fields it does not know are skipped.
    #[inline]
    pub fn next_field(&mut self) -> Result<Option<usize>, A::Error> {
        loop {
            match self.map.next_key_seed(FieldIndex::<R>(PhantomData))? {
                None => return Ok(None),
                Some(Some(index)) => {
                    self.current = index;
                    return Ok(Some(index));
                }
                Some(None) => {
                    self.map.next_value::<IgnoredAny>()?;
                }
            }
        }
    }

    /// Reads the current field's value into `slot` with `seed`; a field seen
    /// twice is an error.
    #[inline]
    pub fn read<S: DeserializeSeed<'de>>(
        &mut self,
        slot: &mut Option<S::Value>,
        seed: S,
    ) -> Result<(), A::Error> {
        if slot.is_some() {
            return Err(de::Error::duplicate_field(self.name(self.current)));
        }
        *slot = Some(self.map.next_value_seed(seed)?);
        Ok(())
    }

    /// The value of the field at `index`, which the object must have had.
    #[inline]
    pub fn required<T>(&self, slot: Option<T>, index: usize) -> Result<T, A::Error> {
        slot.ok_or_else(|| de::Error::missing_field(self.name(index)))
    }

    #[inline]
    fn name(&self, index: usize) -> &'static str {
        R::FIELDS.get(index).copied().unwrap_or("")
    }
}

/// A key, as the index of a record's field (`None`: not one of them).
struct FieldIndex<R>(PhantomData<R>);

impl<'de, R: Record> DeserializeSeed<'de> for FieldIndex<R> {
    type Value = Option<usize>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, R: Record> Visitor<'de> for FieldIndex<R> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    #[inline]
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(R::field_index(key))
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Self::Value, E> {
        Ok(std::str::from_utf8(key).ok().and_then(R::field_index))
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde::de::{Deserializer, MapAccess};

    use super::{Fields, Record};
    use crate::decode::quirks::seed;

    /// A record written as the generator writes one: a required field with a
    /// quirk, and one that may be absent.
    #[derive(Debug, PartialEq)]
    struct Pair {
        count: i64,
        label: Option<String>,
    }

    impl<'de> Deserialize<'de> for Pair {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            super::deserialize(deserializer)
        }
    }

    impl Record for Pair {
        const NAME: &'static str = "Pair";
        const FIELDS: &'static [&'static str] = &["n", "label"];

        fn field_index(wire: &str) -> Option<usize> {
            match wire {
                "n" => Some(0),
                "label" => Some(1),
                _ => None,
            }
        }

        fn from_fields<'de, A: MapAccess<'de>>(
            mut fields: Fields<'de, A, Self>,
        ) -> Result<Self, A::Error> {
            let mut count = None;
            let mut label = None;
            while let Some(index) = fields.next_field()? {
                match index {
                    0 => fields.read(&mut count, seed::Integer)?,
                    1 => fields.read(&mut label, std::marker::PhantomData)?,
                    _ => {}
                }
            }
            Ok(Pair {
                count: fields.required(count, 0)?,
                label: label.unwrap_or_default(),
            })
        }
    }

    fn decode(json: &str) -> Result<Pair, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn fields_are_read_in_any_order_and_unknown_ones_skipped() {
        let pair = |count, label: Option<&str>| Pair {
            count,
            label: label.map(str::to_owned),
        };
        assert_eq!(decode(r#"{"n": 3, "label": "x"}"#), Ok(pair(3, Some("x"))));
        assert_eq!(
            decode(r#"{"label": "x", "n": 3.0}"#),
            Ok(pair(3, Some("x")))
        );
        assert_eq!(
            decode(r#"{"other": {"n": [1, {"label": 2}]}, "n": 3, "more": null}"#),
            Ok(pair(3, None))
        );
        assert_eq!(decode(r#"{"n": 3, "label": null}"#), Ok(pair(3, None)));
        // From a `Value` too (keys are owned strings there), as the cache decodes.
        let value = serde_json::json!({"label": "y", "n": 4});
        assert_eq!(Pair::deserialize(value).ok(), Some(pair(4, Some("y"))));
    }

    #[test]
    fn a_missing_duplicate_or_mistyped_field_is_named() {
        let missing = decode(r#"{"label": "x"}"#).unwrap_err();
        assert!(missing.starts_with("missing field `n`"), "{missing}");
        let twice = decode(r#"{"n": 1, "n": 2}"#).unwrap_err();
        assert!(twice.starts_with("duplicate field `n`"), "{twice}");
        let array = decode(r#"[1, "x"]"#).unwrap_err();
        assert!(array.contains("expected struct Pair"), "{array}");
        let mut json = serde_json::Deserializer::from_str(r#"{"label": "x", "n": "many"}"#);
        let error = serde_path_to_error::deserialize::<_, Pair>(&mut json).unwrap_err();
        assert_eq!(error.path().to_string(), "n");
    }
}

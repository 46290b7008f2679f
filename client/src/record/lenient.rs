//! Reading one member of a record leniently: whatever JSON value it holds is
//! read whole, so that the rest of the row can still be read, and what does
//! not fit the field is noted as drift rather than failing the row.
//!
//! Each field type is a [`Kind`]: the JSON values it accepts (its wire form,
//! and the forms the service has been seen to use instead, such as a number
//! sent as a string that reads exactly as one) and which of those are its
//! own. A value of another type leaves the field empty and is handed back as
//! sent, for the row to keep; a value the kind accepts but that is not of
//! its own type is read, and noted.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::kept_value::Kept;
use crate::drift::seen::{DriftKind, Found, JsonType, note};

/// Where a value is read: the spec's record name and the member's wire name.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    /// The spec's name of the record.
    pub record: &'static str,
    /// The member's wire name.
    pub member: &'static str,
}

impl Place {
    /// Note that the value met here was of another JSON type than the field's.
    #[cold]
    pub fn unexpected(&self, found: Found<'_>) {
        note(self.record, self.member, DriftKind::UnexpectedType, found);
    }
}

/// How a field type reads the JSON values it may meet. Each method gets one
/// value and returns the field's value, or `None` when it cannot read it.
pub trait Kind<'de>: Copy {
    /// The field's value.
    type Value;

    /// Whether `ty` is a JSON type of the field's wire form (a value of
    /// another type that is read all the same is noted).
    fn native(ty: JsonType) -> bool;

    /// A boolean.
    fn bool(self, _value: bool) -> Option<Self::Value> {
        None
    }

    /// A whole number.
    fn int(self, _value: i64) -> Option<Self::Value> {
        None
    }

    /// A whole number too large for `i64`.
    fn uint(self, value: u64) -> Option<Self::Value> {
        i64::try_from(value).ok().and_then(|v| self.int(v))
    }

    /// A number with a fraction or an exponent.
    fn float(self, _value: f64) -> Option<Self::Value> {
        None
    }

    /// A string, read at `place` (a list of values notes those it does not know).
    fn text(self, _value: &str, _place: &Place) -> Option<Self::Value> {
        None
    }

    /// An array: the field's value, or (a kind that reads none) the array
    /// as sent.
    ///
    /// # Errors
    ///
    /// A failure of the parser, or of a record of the array (the row then
    /// cannot be typed).
    fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Result<Self::Value, Value>, A::Error> {
        Kept::TOP.visit_seq(seq).map(Err)
    }

    /// An object: the field's value, or (a kind that reads none) the object
    /// as sent.
    ///
    /// # Errors
    ///
    /// A failure of the parser, or of what the object holds.
    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Result<Self::Value, Value>, A::Error> {
        Kept::TOP.visit_map(map).map(Err)
    }
}

/// What reading a member gave (its value, if any, is in the slot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// A value, now in the slot.
    Value,
    /// `null`.
    Null,
    /// A value the field cannot hold (noted as drift), as sent.
    Unreadable(Box<Value>),
}

/// Reads one value of a [`Kind`] at a place into a field's slot, leniently.
///
/// The value is written to the slot here rather than handed back: a record's
/// decoder then keeps its slots in memory, where a returned value would let
/// LLVM hold them all in registers and shuffle them at every turn of the loop
/// over the keys (a third more instructions per row; BENCHMARKS.md, "Members
/// the spec does not know").
pub struct Lenient<'s, 'de, K: Kind<'de>> {
    /// How the field's values are read.
    pub kind: K,
    /// Where (a record's own table of places: the seed is two words, passed
    /// in registers).
    pub place: &'static Place,
    /// The field's slot, empty until now.
    pub slot: &'s mut Option<K::Value>,
}

impl<'de, K: Kind<'de>> Lenient<'_, 'de, K> {
    /// Keeps the value the kind made of what was met as `found`, noting one
    /// that is not of the field's own type; or notes it as unreadable.
    #[inline(always)]
    fn made(self, made: Option<K::Value>, found: Found<'_>, ty: JsonType) -> Read {
        match made {
            Some(value) => {
                if !K::native(ty) {
                    self.place.unexpected(found);
                }
                *self.slot = Some(value);
                Read::Value
            }
            None => self.unreadable(found),
        }
    }

    /// Notes a value the field cannot hold, and hands it back as sent.
    #[cold]
    fn unreadable(self, found: Found<'_>) -> Read {
        self.place.unexpected(found);
        Read::Unreadable(Box::new(found.as_sent()))
    }

    /// What a kind made of an array or an object: its value, or the
    /// value as sent when it reads none.
    #[inline(always)]
    fn made_whole(self, made: Result<K::Value, Value>, ty: JsonType) -> Read {
        match made {
            Ok(value) => {
                let found = match ty {
                    JsonType::Array => Found::Array,
                    _ => Found::Object,
                };
                self.made(Some(value), found, ty)
            }
            Err(sent) => {
                self.place.unexpected(Found::Value(&sent));
                Read::Unreadable(Box::new(sent))
            }
        }
    }
}

impl<'de, K: Kind<'de>> DeserializeSeed<'de> for Lenient<'_, 'de, K> {
    type Value = Read;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

// The shapes rare in the service's rows (null, a boolean, an array, an
// object) are visited out of line, so that the common ones (numbers, text)
// inline with the seed into serde_json's `next_value_seed`: measured by the
// decode benchmark (BENCHMARKS.md, what keeps leniency cheap).
impl<'de, K: Kind<'de>> Visitor<'de> for Lenient<'_, 'de, K> {
    type Value = Read;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    #[inline(never)]
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Read::Null)
    }

    #[inline(never)]
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Read::Null)
    }

    #[inline(never)]
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    #[inline(never)]
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        let made = self.kind.bool(v);
        Ok(self.made(made, Found::Bool(v), JsonType::Boolean))
    }

    #[inline]
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        let made = self.kind.int(v);
        Ok(self.made(made, Found::Int(v), JsonType::Integer))
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        let made = self.kind.uint(v);
        Ok(self.made(made, Found::Uint(v), JsonType::Integer))
    }

    #[inline]
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        let made = self.kind.float(v);
        Ok(self.made(made, Found::Float(v), JsonType::Number))
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let made = self.kind.text(v, self.place);
        Ok(self.made(made, Found::Text(v), JsonType::Text))
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        self.visit_str(v)
    }

    #[inline(never)]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let made = self.kind.seq(seq)?;
        Ok(self.made_whole(made, JsonType::Array))
    }

    #[inline(never)]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let made = self.kind.map(map)?;
        Ok(self.made_whole(made, JsonType::Object))
    }
}

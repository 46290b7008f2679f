//! Reading one member of a record leniently: whatever JSON value it holds is
//! read whole, so that the rest of the row can still be read, and what does
//! not fit the field is noted as drift rather than failing the row.
//!
//! Each field type is a [`Kind`]: the JSON values it accepts (its wire form,
//! and the forms the service has been seen to use instead, such as a number
//! sent as a string) and which of those are its own. A value of another type
//! leaves the field empty; a value the kind accepts but that is not of its
//! own type is read, and noted.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

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
    pub fn unexpected(self, found: Found<'_>) {
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
    fn text(self, _value: &str, _place: Place) -> Option<Self::Value> {
        None
    }

    /// An array; a kind that reads none skips it whole.
    ///
    /// # Errors
    ///
    /// A failure of the parser, or of a record of the array (the row then
    /// cannot be typed).
    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Self::Value>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    /// An object; a kind that reads none skips it whole.
    ///
    /// # Errors
    ///
    /// A failure of the parser, or of what the object holds.
    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Self::Value>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// What reading a member gave.
#[derive(Debug)]
pub enum Read<T> {
    /// Its value.
    Value(T),
    /// `null`.
    Null,
    /// A value the field cannot hold (noted as drift).
    Unreadable,
}

/// Reads one value of a [`Kind`] at a place, leniently.
pub struct Lenient<K> {
    /// How the field's values are read.
    pub kind: K,
    /// Where.
    pub place: Place,
}

impl<'de, K: Kind<'de>> Lenient<K> {
    /// The value the kind made of what was met as `found`, noting one that is
    /// not of the field's own type; or `Unreadable`, noted.
    #[inline]
    fn made(&self, made: Option<K::Value>, found: Found<'_>, ty: JsonType) -> Read<K::Value> {
        match made {
            Some(value) => {
                if !K::native(ty) {
                    self.place.unexpected(found);
                }
                Read::Value(value)
            }
            None => {
                self.place.unexpected(found);
                Read::Unreadable
            }
        }
    }
}

impl<'de, K: Kind<'de>> DeserializeSeed<'de> for Lenient<K> {
    type Value = Read<K::Value>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, K: Kind<'de>> Visitor<'de> for Lenient<K> {
    type Value = Read<K::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Read::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Read::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    #[inline]
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(self.made(self.kind.bool(v), Found::Bool(v), JsonType::Boolean))
    }

    #[inline]
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(self.made(self.kind.int(v), Found::Int(v), JsonType::Integer))
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(self.made(self.kind.uint(v), Found::Uint(v), JsonType::Integer))
    }

    #[inline]
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(self.made(self.kind.float(v), Found::Float(v), JsonType::Number))
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let made = self.kind.text(v, self.place);
        Ok(self.made(made, Found::Text(v), JsonType::Text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let made = self.kind.seq(seq)?;
        Ok(self.made(made, Found::Array, JsonType::Array))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let made = self.kind.map(map)?;
        Ok(self.made(made, Found::Object, JsonType::Object))
    }
}

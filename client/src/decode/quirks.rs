//! Decoders for the service's documented quirks: the envelope's integers,
//! open enums, and each field type's [`kind`] (what the generated records'
//! decoders read a field with, `crate::record`). Each decoder accepts what the
//! service sends and each encoder ([`write`]) writes the wire form back, so a
//! decoded value re-encodes to a body of the same shape.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::Serializer;
use serde::de::{self, Deserializer, Visitor};

/// Largest magnitude below which every integer is exactly representable in `f64`.
pub(crate) const F64_EXACT: f64 = 9_007_199_254_740_992.0;

struct IntegerVisitor;

impl<'de> Visitor<'de> for IntegerVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer (an integral float such as 12.0 is accepted)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        if v.fract() == 0.0 && v.abs() <= F64_EXACT {
            // Exact: integral and within f64's exact-integer range.
            Ok(v as i64)
        } else {
            Err(E::invalid_value(de::Unexpected::Float(v), &self))
        }
    }
}

/// An integer that may arrive as an integral float (`12.0`).
pub fn integer<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    d.deserialize_any(IntegerVisitor)
}

/// A value of an open enum: any string, known or not.
pub fn open_enum<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: for<'a> From<&'a str>,
{
    struct Open<T>(PhantomData<T>);
    impl<T: for<'a> From<&'a str>> Visitor<'_> for Open<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            Ok(T::from(v.trim()))
        }
    }
    d.deserialize_str(Open(PhantomData))
}

/// A boolean sent as a word: `"true"`/`"false"`, `"1"`/`"0"`, `"yes"`/`"no"` (any case),
/// or a JSON boolean; `null`, `""` and absence are `None`.
pub mod bool_word {
    use super::*;

    struct Word;

    impl<'de> Visitor<'de> for Word {
        type Value = Option<bool>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a boolean word (true/false, 1/0, yes/no)")
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            match v {
                0 => Ok(Some(false)),
                1 => Ok(Some(true)),
                _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
            }
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            let word = v.trim();
            if word.is_empty() {
                return Ok(None);
            }
            for (yes, no) in [("true", "false"), ("1", "0"), ("yes", "no")] {
                if word.eq_ignore_ascii_case(yes) {
                    return Ok(Some(true));
                }
                if word.eq_ignore_ascii_case(no) {
                    return Ok(Some(false));
                }
            }
            Err(E::invalid_value(de::Unexpected::Str(v), &self))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(Word)
        }
    }

    /// Decode.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
        d.deserialize_option(Word)
    }

    /// Encode as the service does: `"true"` / `"false"`, or `null`.
    pub fn serialize<S: Serializer>(v: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(true) => s.serialize_str("true"),
            Some(false) => s.serialize_str("false"),
            None => s.serialize_none(),
        }
    }
}

/// An integer flag, 1 or 0 (a JSON boolean is accepted too).
pub mod flag {
    use super::*;

    /// Decode.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        struct Flag;
        impl Visitor<'_> for Flag {
            type Value = bool;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a flag, 1 or 0")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
                Ok(v)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
                match v {
                    0 => Ok(false),
                    1 => Ok(true),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<bool, E> {
                IntegerVisitor.visit_f64(v).and_then(|i| self.visit_i64(i))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
                match v.trim() {
                    "0" => Ok(false),
                    "1" => Ok(true),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(Flag)
    }

    /// Encode as 1 or 0.
    pub fn serialize<S: Serializer>(v: &bool, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(i64::from(*v))
    }
}

macro_rules! civil {
    ($(#[$doc:meta])* $module:ident, $ty:ty) => {
        $(#[$doc])*
        pub mod $module {
            use super::*;

            /// Decode (blanks around the text are allowed).
            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                crate::date::deserialize_trimmed(d)
            }

            /// Encode in the wire format.
            pub fn serialize<S: Serializer>(v: &$ty, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(v)
            }
        }
    };
}

civil!(
    /// A date written `YYYY-MM-DD`.
    date, crate::date::Date
);
civil!(
    /// A date and time written `YYYY-MM-DD HH:MM:SS`.
    datetime, crate::date::DateTime
);
civil!(
    /// A time of day written `HH:MM:SS`.
    time, crate::date::Time
);

/// A comma-separated list in one string: items trimmed, empty segments dropped,
/// `null` and `""` read as an empty list.
pub mod comma_list {
    use super::*;

    /// Decode.
    pub fn deserialize<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: FromStr,
        T::Err: fmt::Display,
    {
        struct List<T>(PhantomData<T>);
        impl<'de, T> Visitor<'de> for List<T>
        where
            T: FromStr,
            T::Err: fmt::Display,
        {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a comma-separated string or null")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<T>, E> {
                v.split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(|item| item.parse().map_err(E::custom))
                    .collect()
            }
            fn visit_none<E: de::Error>(self) -> Result<Vec<T>, E> {
                Ok(Vec::new())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Vec<T>, E> {
                Ok(Vec::new())
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
                d.deserialize_str(self)
            }
        }
        d.deserialize_option(List(PhantomData))
    }

    /// Encode as one comma-separated string.
    pub fn serialize<S, T>(v: &[T], s: S) -> Result<S::Ok, S::Error>
    where
        S: Serializer,
        T: fmt::Display,
    {
        let joined: Vec<String> = v.iter().map(ToString::to_string).collect();
        s.serialize_str(&joined.join(","))
    }
}

/// A comma list's item: a string, or a value of an enum of the spec.
pub trait ListItem: Sized {
    /// The item written `text`; `Err` when the spec does not list it, with
    /// the item to keep (an open enum's `Other`) or `None` (a closed enum's:
    /// the item is left out).
    ///
    /// # Errors
    ///
    /// As said above.
    fn item(text: &str) -> Result<Self, Option<Self>>;
}

impl ListItem for String {
    fn item(text: &str) -> Result<Self, Option<Self>> {
        Ok(text.to_owned())
    }
}

/// How each field type reads what the service sends (its [`Kind`]), for the
/// generated records' decoders (`crate::record`): the wire form, and the forms
/// the service is known to use instead.
///
/// [`Kind`]: crate::record::Kind
pub mod kind {
    use std::marker::PhantomData;

    use serde::Deserialize;
    use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
    use serde::de::{MapAccess, SeqAccess};
    use serde_json::Value;

    use super::{F64_EXACT, ListItem};
    use crate::drift::seen::{DriftKind, Found, JsonType, note};
    use crate::record::{Kind, Place};

    /// A whole number in an `f64`, if it is one exactly.
    fn integral(v: f64) -> Option<i64> {
        (v.fract() == 0.0 && v.abs() <= F64_EXACT).then_some(v as i64)
    }

    /// `integer`: a JSON number with no fraction (`12.0` too); a string
    /// holding one is read, and noted.
    #[derive(Debug, Clone, Copy)]
    pub struct Integer;

    impl Kind<'_> for Integer {
        type Value = i64;
        #[inline]
        fn native(ty: JsonType) -> bool {
            matches!(ty, JsonType::Integer | JsonType::Number)
        }
        #[inline]
        fn int(self, v: i64) -> Option<i64> {
            Some(v)
        }
        #[inline]
        fn float(self, v: f64) -> Option<i64> {
            integral(v)
        }
        #[inline]
        fn text(self, v: &str, _: &Place) -> Option<i64> {
            let v = v.trim();
            v.parse().ok().or_else(|| v.parse().ok().and_then(integral))
        }
    }

    /// `number`: any JSON number; a string holding one is read, and noted.
    #[derive(Debug, Clone, Copy)]
    pub struct Number;

    impl Kind<'_> for Number {
        type Value = f64;
        #[inline]
        fn native(ty: JsonType) -> bool {
            matches!(ty, JsonType::Integer | JsonType::Number)
        }
        #[inline]
        fn int(self, v: i64) -> Option<f64> {
            Some(v as f64)
        }
        #[inline]
        fn uint(self, v: u64) -> Option<f64> {
            Some(v as f64)
        }
        #[inline]
        fn float(self, v: f64) -> Option<f64> {
            Some(v)
        }
        #[inline]
        fn text(self, v: &str, _: &Place) -> Option<f64> {
            v.trim().parse::<f64>().ok().filter(|v| v.is_finite())
        }
    }

    /// `string`: a JSON string; a number or a boolean is read as its text,
    /// and noted.
    #[derive(Debug, Clone, Copy)]
    pub struct Text;

    impl Kind<'_> for Text {
        type Value = String;
        #[inline]
        fn native(ty: JsonType) -> bool {
            ty == JsonType::Text
        }
        #[inline]
        fn bool(self, v: bool) -> Option<String> {
            Some(v.to_string())
        }
        #[inline]
        fn int(self, v: i64) -> Option<String> {
            Some(v.to_string())
        }
        #[inline]
        fn uint(self, v: u64) -> Option<String> {
            Some(v.to_string())
        }
        #[inline]
        fn float(self, v: f64) -> Option<String> {
            serde_json::to_string(&v).ok()
        }
        #[inline]
        fn text(self, v: &str, _: &Place) -> Option<String> {
            Some(v.to_owned())
        }
    }

    /// `bool_word`: a boolean word (`"true"`/`"false"`, `"1"`/`"0"`,
    /// `"yes"`/`"no"`, any case), a JSON boolean, or 1/0; `""` is no answer.
    #[derive(Debug, Clone, Copy)]
    pub struct BoolWord;

    impl Kind<'_> for BoolWord {
        type Value = Option<bool>;
        #[inline]
        fn native(ty: JsonType) -> bool {
            matches!(ty, JsonType::Text | JsonType::Boolean | JsonType::Integer)
        }
        #[inline]
        fn bool(self, v: bool) -> Option<Option<bool>> {
            Some(Some(v))
        }
        #[inline]
        fn int(self, v: i64) -> Option<Option<bool>> {
            match v {
                0 => Some(Some(false)),
                1 => Some(Some(true)),
                _ => None,
            }
        }
        #[inline]
        fn text(self, v: &str, _: &Place) -> Option<Option<bool>> {
            let word = v.trim();
            if word.is_empty() {
                return Some(None);
            }
            [("true", "false"), ("1", "0"), ("yes", "no")]
                .into_iter()
                .find_map(|(yes, no)| {
                    if word.eq_ignore_ascii_case(yes) {
                        Some(Some(true))
                    } else if word.eq_ignore_ascii_case(no) {
                        Some(Some(false))
                    } else {
                        None
                    }
                })
        }
    }

    /// `flag`: 1 or 0 (a JSON boolean, `1.0` and `"1"` too).
    #[derive(Debug, Clone, Copy)]
    pub struct Flag;

    impl Kind<'_> for Flag {
        type Value = bool;
        #[inline]
        fn native(ty: JsonType) -> bool {
            matches!(
                ty,
                JsonType::Integer | JsonType::Number | JsonType::Boolean | JsonType::Text
            )
        }
        #[inline]
        fn bool(self, v: bool) -> Option<bool> {
            Some(v)
        }
        #[inline]
        fn int(self, v: i64) -> Option<bool> {
            match v {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            }
        }
        #[inline]
        fn float(self, v: f64) -> Option<bool> {
            integral(v).and_then(|v| self.int(v))
        }
        #[inline]
        fn text(self, v: &str, _: &Place) -> Option<bool> {
            match v.trim() {
                "0" => Some(false),
                "1" => Some(true),
                _ => None,
            }
        }
    }

    /// `Clone` and `Copy` for kinds that only carry a type (derived, they
    /// would need the type to be `Copy`).
    macro_rules! copy_kind {
        ($($kind:ident),*) => {$(
            impl<T> Clone for $kind<T> {
                fn clone(&self) -> Self {
                    *self
                }
            }
            impl<T> Copy for $kind<T> {}
        )*};
    }

    copy_kind!(Civil, CommaList, List);

    /// `date`, `datetime` and `time`: their wire text, blanks around it allowed.
    #[derive(Debug)]
    pub struct Civil<T>(pub PhantomData<T>);

    /// `date`.
    pub const DATE: Civil<crate::date::Date> = Civil(PhantomData);
    /// `datetime`.
    pub const DATE_TIME: Civil<crate::date::DateTime> = Civil(PhantomData);
    /// `time`.
    pub const TIME: Civil<crate::date::Time> = Civil(PhantomData);

    impl<T: std::str::FromStr> Kind<'_> for Civil<T> {
        type Value = T;
        #[inline]
        fn native(ty: JsonType) -> bool {
            ty == JsonType::Text
        }
        #[inline]
        fn text(self, v: &str, _: &Place) -> Option<T> {
            v.trim().parse().ok()
        }
    }

    /// `comma_list`: items in one string, trimmed, empty segments dropped.
    /// An item the spec does not list is noted (and, for a closed enum, left
    /// out).
    #[derive(Debug)]
    pub struct CommaList<T>(pub PhantomData<T>);

    impl<T: ListItem> Kind<'_> for CommaList<T> {
        type Value = Vec<T>;
        #[inline]
        fn native(ty: JsonType) -> bool {
            ty == JsonType::Text
        }
        #[inline]
        fn text(self, v: &str, place: &Place) -> Option<Vec<T>> {
            let mut items = Vec::new();
            for item in v.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                match T::item(item) {
                    Ok(item) => items.push(item),
                    Err(kept) => {
                        note(
                            place.record,
                            place.member,
                            DriftKind::UnlistedValue,
                            Found::Text(item),
                        );
                        items.extend(kept);
                    }
                }
            }
            Some(items)
        }
    }

    /// `list`: an array of records, each read as its record reads it (a row
    /// that cannot be typed fails the outer row).
    #[derive(Debug)]
    pub struct List<R>(pub PhantomData<R>);

    impl<'de, R: Deserialize<'de>> Kind<'de> for List<R> {
        type Value = Vec<R>;
        #[inline]
        fn native(ty: JsonType) -> bool {
            ty == JsonType::Array
        }
        fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Result<Vec<R>, Value>, A::Error> {
            let mut rows = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
            while let Some(row) = seq.next_element()? {
                rows.push(row);
            }
            Ok(Ok(rows))
        }
    }

    /// `serp`: positions to URLs (an object, or an array in position order).
    #[derive(Debug, Clone, Copy)]
    pub struct Serp;

    impl<'de> Kind<'de> for Serp {
        type Value = crate::serp::Serp;
        #[inline]
        fn native(ty: JsonType) -> bool {
            matches!(ty, JsonType::Object | JsonType::Array)
        }
        fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Result<Self::Value, Value>, A::Error> {
            Self::Value::deserialize(SeqAccessDeserializer::new(seq)).map(Ok)
        }
        fn map<A: MapAccess<'de>>(self, map: A) -> Result<Result<Self::Value, Value>, A::Error> {
            Self::Value::deserialize(MapAccessDeserializer::new(map)).map(Ok)
        }
    }
}

/// How a field's value is written back in its wire form, for the generated
/// records' `Serialize` (`crate::record::Writer`): a decoded value re-encodes
/// to a body of the same shape.
pub mod write {
    use std::fmt;

    use serde::{Serialize, Serializer};

    /// A boolean word: `"true"` / `"false"`, or `null`.
    pub struct BoolWord<'a>(pub &'a Option<bool>);

    impl Serialize for BoolWord<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::bool_word::serialize(self.0, s)
        }
    }

    /// A flag: 1 or 0 (`null` for an absent one).
    pub struct Flag<'a, T>(pub &'a T);

    impl Serialize for Flag<'_, bool> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::flag::serialize(self.0, s)
        }
    }

    impl Serialize for Flag<'_, Option<bool>> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self.0 {
                Some(flag) => super::flag::serialize(flag, s),
                None => s.serialize_none(),
            }
        }
    }

    /// A comma list: its items joined with commas in one string.
    pub struct CommaList<'a, T>(pub &'a [T]);

    impl<T: fmt::Display> Serialize for CommaList<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::comma_list::serialize(self.0, s)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    struct Row {
        #[serde(deserialize_with = "super::integer")]
        n: i64,
        #[serde(default, with = "super::bool_word")]
        b: Option<bool>,
        #[serde(default, with = "super::comma_list")]
        tags: Vec<String>,
        #[serde(with = "super::datetime")]
        at: crate::date::DateTime,
    }

    fn row(json: &str) -> Result<Row, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn integral_floats_are_integers() {
        assert_eq!(
            row(r#"{"n":12.0,"at":"2024-01-02 03:04:05"}"#).unwrap().n,
            12
        );
        assert!(row(r#"{"n":12.5,"at":"2024-01-02 03:04:05"}"#).is_err());
        assert!(row(r#"{"n":1e300,"at":"2024-01-02 03:04:05"}"#).is_err());
    }

    #[test]
    fn boolean_words() {
        let at = r#""at":"2024-01-02 03:04:05""#;
        for (word, want) in [
            (r#""true""#, Some(true)),
            (r#""False""#, Some(false)),
            (r#""1""#, Some(true)),
            ("null", None),
            (r#""""#, None),
        ] {
            assert_eq!(
                row(&format!(r#"{{"n":1,"b":{word},{at}}}"#)).unwrap().b,
                want,
                "{word}"
            );
        }
        assert_eq!(row(&format!(r#"{{"n":1,{at}}}"#)).unwrap().b, None);
        assert!(row(&format!(r#"{{"n":1,"b":"maybe",{at}}}"#)).is_err());
    }

    #[test]
    fn comma_lists_drop_empty_segments() {
        let r = row(r#"{"n":1,"tags":"seo,, blog ,","at":"2024-01-02 03:04:05"}"#).unwrap();
        assert_eq!(r.tags, ["seo", "blog"]);
        let r = row(r#"{"n":1,"tags":null,"at":"2024-01-02 03:04:05"}"#).unwrap();
        assert!(r.tags.is_empty());
    }

    #[test]
    fn date_times_need_the_wire_format() {
        let r = row(r#"{"n":1,"at":"2023-10-31 23:59:01"}"#).unwrap();
        assert_eq!(r.at.to_string(), "2023-10-31 23:59:01");
        let r = row(r#"{"n":1,"at":" 2023-10-31 23:59:01 "}"#).unwrap();
        assert_eq!(r.at.to_string(), "2023-10-31 23:59:01", "blanks around");
        let err = row(r#"{"n":1,"at":"2023-02-30 10:00:00"}"#).unwrap_err();
        assert!(
            err.to_string().contains(
                r#"invalid value: string "2023-02-30 10:00:00", expected a date-time written YYYY-MM-DD HH:MM:SS"#
            ),
            "{err}"
        );
        assert!(row(r#"{"n":1,"at":"2023-10-31"}"#).is_err());
        assert!(row(r#"{"n":1,"at":20231031}"#).is_err());
    }
}

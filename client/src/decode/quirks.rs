//! Decoders for the service's documented quirks: the envelope's integers,
//! open enums, and each field type's [`kind`] (what the generated records'
//! decoders read a field with, `crate::record`). Each decoder accepts what the
//! service sends and each encoder ([`write`]) writes the wire form back, so a
//! decoded value re-encodes to a body of the same shape.

use std::fmt;
use std::marker::PhantomData;

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
    pub struct SerpPositions;

    impl<'de> Kind<'de> for SerpPositions {
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
    pub struct AsBoolWord<'a>(pub &'a Option<bool>);

    impl Serialize for AsBoolWord<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self.0 {
                Some(true) => s.serialize_str("true"),
                Some(false) => s.serialize_str("false"),
                None => s.serialize_none(),
            }
        }
    }

    /// A flag: 1 or 0 (`null` for an absent one).
    pub struct AsFlag<'a, T>(pub &'a T);

    impl Serialize for AsFlag<'_, bool> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_i64(i64::from(*self.0))
        }
    }

    impl Serialize for AsFlag<'_, Option<bool>> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self.0 {
                Some(flag) => AsFlag(flag).serialize(s),
                None => s.serialize_none(),
            }
        }
    }

    /// A comma list: its items joined with commas in one string.
    pub struct AsCommaList<'a, T>(pub &'a [T]);

    impl<T: fmt::Display> Serialize for AsCommaList<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let joined: Vec<String> = self.0.iter().map(ToString::to_string).collect();
            s.serialize_str(&joined.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeSeed;
    use serde_json::{Value, json};

    use super::{kind, write};
    use crate::drift::seen::{DriftKind, watch};
    use crate::record::{Kind, Lenient, Place, Read};

    static PLACE: Place = Place {
        record: "row",
        member: "field",
    };

    /// What a field of `kind` holds after reading `json` as a generated
    /// record reads it, and whether the value was read.
    fn read<'a, K: Kind<'a>>(kind: K, json: &'a str) -> (Option<K::Value>, Read) {
        let mut slot = None;
        let mut de = serde_json::Deserializer::from_str(json);
        let seed = Lenient {
            kind,
            place: &PLACE,
            slot: &mut slot,
        };
        let read = seed.deserialize(&mut de).expect("a JSON value");
        (slot, read)
    }

    /// A value the kind cannot read: the field stays empty, and the value is
    /// noted as drift and handed back as sent.
    fn assert_unreadable<'a, K: Kind<'a>>(kind: K, json: &'a str)
    where
        K::Value: std::fmt::Debug,
    {
        let ((slot, read), seen) = watch(|| read(kind, json));
        assert!(slot.is_none(), "{json}: {slot:?}");
        let sent: Value = serde_json::from_str(json).unwrap();
        assert_eq!(read, Read::Unreadable(Box::new(sent)), "{json}");
        assert_eq!(seen.len(), 1, "{json}");
        assert_eq!(seen[0].kind, DriftKind::UnexpectedType, "{json}");
    }

    #[test]
    fn integral_floats_are_integers() {
        assert_eq!(read(kind::Integer, "12").0, Some(12));
        assert_eq!(read(kind::Integer, "12.0").0, Some(12));
        assert_unreadable(kind::Integer, "12.5");
        assert_unreadable(kind::Integer, "1e300");
    }

    #[test]
    fn boolean_words() {
        for (word, want) in [
            (r#""true""#, Some(true)),
            (r#""False""#, Some(false)),
            (r#""1""#, Some(true)),
            (r#""0""#, Some(false)),
            (r#"" YES ""#, Some(true)),
            (r#""no""#, Some(false)),
            ("true", Some(true)),
            ("0", Some(false)),
            (r#""""#, None),
        ] {
            let (slot, read) = read(kind::BoolWord, word);
            assert_eq!(read, Read::Value, "{word}");
            assert_eq!(slot, Some(want), "{word}");
        }
        // `null` leaves the field empty: the record reads it as no answer.
        assert_eq!(read(kind::BoolWord, "null"), (None, Read::Null));
        assert_unreadable(kind::BoolWord, r#""maybe""#);
        assert_unreadable(kind::BoolWord, "2");
    }

    #[test]
    fn flags_are_one_or_zero() {
        for (flag, want) in [("1", true), ("0", false), ("1.0", true), ("true", true)] {
            assert_eq!(read(kind::Flag, flag).0, Some(want), "{flag}");
        }
        assert_eq!(read(kind::Flag, r#"" 0 ""#).0, Some(false));
        assert_unreadable(kind::Flag, "2");
        assert_unreadable(kind::Flag, r#""yes""#);
    }

    #[test]
    fn comma_lists_drop_empty_segments() {
        let tags = kind::CommaList::<String>(std::marker::PhantomData);
        let (slot, _) = read(tags, r#""seo,, blog ,""#);
        assert_eq!(slot.unwrap(), ["seo", "blog"]);
        let (slot, _) = read(tags, r#""""#);
        assert_eq!(slot, Some(Vec::new()));
        // `null` leaves the field empty: the record reads it as no items.
        assert_eq!(read(tags, "null"), (None, Read::Null));
    }

    #[test]
    fn date_times_need_the_wire_format() {
        let (at, _) = read(kind::DATE_TIME, r#""2023-10-31 23:59:01""#);
        assert_eq!(at.unwrap().to_string(), "2023-10-31 23:59:01");
        let (at, _) = read(kind::DATE_TIME, r#"" 2023-10-31 23:59:01 ""#);
        assert_eq!(
            at.unwrap().to_string(),
            "2023-10-31 23:59:01",
            "blanks around"
        );
        assert_unreadable(kind::DATE_TIME, r#""2023-02-30 10:00:00""#);
        assert_unreadable(kind::DATE_TIME, r#""2023-10-31""#);
        assert_unreadable(kind::DATE_TIME, "20231031");
        let (day, _) = read(kind::DATE, r#""2024-02-29""#);
        assert_eq!(day.unwrap().to_string(), "2024-02-29");
        let (time, _) = read(kind::TIME, r#""07:05:00""#);
        assert_eq!(time.unwrap().to_string(), "07:05:00");
        assert_unreadable(kind::TIME, r#""25:00:00""#);
    }

    #[test]
    fn written_back_in_the_wire_form() {
        let written = json!([
            serde_json::to_value(write::AsBoolWord(&Some(true))).unwrap(),
            serde_json::to_value(write::AsBoolWord(&Some(false))).unwrap(),
            serde_json::to_value(write::AsBoolWord(&None)).unwrap(),
            serde_json::to_value(write::AsFlag(&true)).unwrap(),
            serde_json::to_value(write::AsFlag(&Some(false))).unwrap(),
            serde_json::to_value(write::AsFlag(&None::<bool>)).unwrap(),
            serde_json::to_value(write::AsCommaList(&["seo", "blog"])).unwrap(),
        ]);
        assert_eq!(
            written,
            json!(["true", "false", null, 1, 0, null, "seo,blog"])
        );
        // Each reads back as the value written.
        let word = written[0].to_string();
        assert_eq!(read(kind::BoolWord, &word).0, Some(Some(true)));
        let list = written[6].to_string();
        let tags = kind::CommaList::<String>(std::marker::PhantomData);
        assert_eq!(read(tags, &list).0.unwrap(), ["seo", "blog"]);
    }
}

//! Decoders for the service's documented quirks, used by the generated records'
//! decoders through their seeds ([`seed`], `crate::record`) and by the derived
//! envelope through `#[serde(deserialize_with = ...)]`. Each decoder accepts what the service sends and
//! each encoder writes the wire form back, so a decoded value re-encodes to a body
//! of the same shape.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serializer};

/// Largest magnitude below which every integer is exactly representable in `f64`.
const F64_EXACT: f64 = 9_007_199_254_740_992.0;

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

/// Like [`integer`], with `null` as `None`.
pub fn option_integer<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    struct Opt;
    impl<'de> Visitor<'de> for Opt {
        type Value = Option<i64>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an integer or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            integer(d).map(Some)
        }
    }
    d.deserialize_option(Opt)
}

/// `null` (or absence, with `#[serde(default)]`) as the type's empty value.
pub fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
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

/// The decoders above as seeds, for the generated records' decoders
/// (`crate::record`), which read each field with `MapAccess::next_value_seed`.
pub mod seed {
    use std::fmt;
    use std::marker::PhantomData;
    use std::str::FromStr;

    use serde::Deserialize;
    use serde::de::{DeserializeSeed, Deserializer};

    macro_rules! seeds {
        ($($(#[$doc:meta])* $name:ident: $value:ty => $decode:path;)*) => {$(
            $(#[$doc])*
            pub struct $name;

            impl<'de> DeserializeSeed<'de> for $name {
                type Value = $value;

                fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<$value, D::Error> {
                    $decode(d)
                }
            }
        )*};
    }

    seeds! {
        /// [`integer`](super::integer).
        Integer: i64 => super::integer;
        /// [`option_integer`](super::option_integer).
        OptionInteger: Option<i64> => super::option_integer;
        /// [`bool_word`](super::bool_word).
        BoolWord: Option<bool> => super::bool_word::deserialize;
        /// [`flag`](super::flag).
        Flag: bool => super::flag::deserialize;
        /// [`date`](super::date).
        Date: crate::date::Date => super::date::deserialize;
        /// [`datetime`](super::datetime).
        DateTime: crate::date::DateTime => super::datetime::deserialize;
        /// [`time`](super::time).
        Time: crate::date::Time => super::time::deserialize;
    }

    /// [`null_as_default`](super::null_as_default).
    pub struct NullAsDefault<T>(pub PhantomData<T>);

    impl<'de, T: Deserialize<'de> + Default> DeserializeSeed<'de> for NullAsDefault<T> {
        type Value = T;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
            super::null_as_default(d)
        }
    }

    /// [`comma_list`](super::comma_list).
    pub struct CommaList<T>(pub PhantomData<T>);

    impl<'de, T: FromStr<Err: fmt::Display>> DeserializeSeed<'de> for CommaList<T> {
        type Value = Vec<T>;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
            super::comma_list::deserialize(d)
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

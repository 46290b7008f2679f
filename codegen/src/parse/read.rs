//! Reading toml's spanned tables (`toml::de::DeTable`) into the spec's types.
//!
//! Not serde: the generator runs in the `seozoom` crate's build script, in
//! every user's build. There serde would be compiled a second time (build
//! scripts and their dependencies are built apart, unoptimised), and its
//! derives, instantiated against toml's deserializers, were three fifths of
//! the generator's code (BENCHMARKS.md, "Build cost"). toml still parses;
//! this maps its values onto the types of [`super`], keeping their spans.
//!
//! A table's keys are checked against the ones its type reads before any is
//! read, so a misspelt key is reported as unknown rather than its correct
//! spelling as missing.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeString, DeValue};

/// A value of the spec file, with where it is written.
pub type Value<'i> = Spanned<DeValue<'i>>;

/// A value of the wrong shape: what is wrong, and where.
#[derive(Debug)]
pub struct ShapeError {
    /// Byte range in the spec text.
    pub span: Range<usize>,
    /// What was found, and what was expected.
    pub message: String,
}

/// Result of reading one value.
pub type Read<T> = Result<T, ShapeError>;

/// A type the spec file's values are read into.
pub trait FromToml: Sized {
    /// The value read, or where and why it has the wrong shape.
    ///
    /// # Errors
    ///
    /// A value of another TOML type, or a table with an unknown key or
    /// without a required one.
    fn from_toml(value: Value<'_>) -> Read<Self>;

    /// What a key left out gives; `None`: the key is required.
    fn absent() -> Option<Self> {
        None
    }
}

/// The error for `found`, written at `span`, when `expected` was wanted.
pub fn invalid<T>(span: Range<usize>, found: &DeValue<'_>, expected: &str) -> Read<T> {
    Err(ShapeError {
        span,
        message: format!("invalid type: {}, expected {expected}", found.type_str()),
    })
}

/// One table of the spec, its keys taken as they are read.
pub struct Table<'i> {
    span: Range<usize>,
    entries: Vec<(Spanned<DeString<'i>>, Value<'i>)>,
}

impl<'i> Table<'i> {
    /// The table `value` is, when every key of it is one of `known`.
    ///
    /// # Errors
    ///
    /// `value` is not a table, or has a key not in `known`.
    pub fn of(value: Value<'i>, known: &[&str]) -> Read<Self> {
        let span = value.span();
        let entries: Vec<_> = match value.into_inner() {
            DeValue::Table(table) => table.into_iter().collect(),
            other => return invalid(span, &other, "a table"),
        };
        if let Some((key, _)) = entries
            .iter()
            .find(|(key, _)| !known.contains(&key.get_ref().as_ref()))
        {
            let expected: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            return Err(ShapeError {
                span: key.span(),
                message: format!(
                    "unknown field `{}`, expected one of {}",
                    key.get_ref(),
                    expected.join(", ")
                ),
            });
        }
        Ok(Table { span, entries })
    }

    fn take(&mut self, key: &str) -> Option<Value<'i>> {
        let at = self.entries.iter().position(|(k, _)| k.get_ref() == key)?;
        Some(self.entries.swap_remove(at).1)
    }

    /// The value under `key`; a required one left out is an error.
    ///
    /// # Errors
    ///
    /// The value's own error, or `missing field` at the table.
    pub fn field<T: FromToml>(&mut self, key: &str) -> Read<T> {
        match self.take(key) {
            Some(value) => T::from_toml(value),
            None => T::absent().ok_or_else(|| ShapeError {
                span: self.span.clone(),
                message: format!("missing field `{key}`"),
            }),
        }
    }

    /// The value under `key`, or the type's default when it is left out.
    ///
    /// # Errors
    ///
    /// The value's own error.
    pub fn field_or_default<T: FromToml + Default>(&mut self, key: &str) -> Read<T> {
        self.take(key)
            .map_or_else(|| Ok(T::default()), T::from_toml)
    }
}

/// `FromToml` for a struct read from a table: each field from its key
/// (`field: "key"`), `or default` when the key may be left out.
macro_rules! from_table {
    ($ty:ident { $($field:ident: $key:literal $(or $default:ident)?),* $(,)? }) => {
        impl $crate::parse::read::FromToml for $ty {
            fn from_toml(
                value: $crate::parse::read::Value<'_>,
            ) -> $crate::parse::read::Read<Self> {
                let mut table = $crate::parse::read::Table::of(value, &[$($key),*])?;
                Ok($ty {
                    $($field: from_table!(@field table, $key $(, $default)?),)*
                })
            }
        }
    };
    (@field $table:ident, $key:literal) => { $table.field($key)? };
    (@field $table:ident, $key:literal, default) => { $table.field_or_default($key)? };
}
pub(crate) use from_table;

impl FromToml for String {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        match value.get_ref() {
            DeValue::String(s) => Ok(s.to_string()),
            other => invalid(value.span(), other, "a string"),
        }
    }
}

impl FromToml for i64 {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        match value.get_ref() {
            DeValue::Integer(n) => {
                i64::from_str_radix(n.as_str(), n.radix()).map_err(|_| ShapeError {
                    span: value.span(),
                    message: "invalid value: integer out of range for i64".to_owned(),
                })
            }
            other => invalid(value.span(), other, "an integer"),
        }
    }
}

impl FromToml for bool {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        match value.get_ref() {
            DeValue::Boolean(b) => Ok(*b),
            other => invalid(value.span(), other, "a boolean"),
        }
    }
}

impl<T: FromToml> FromToml for Option<T> {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        T::from_toml(value).map(Some)
    }

    fn absent() -> Option<Self> {
        Some(None)
    }
}

impl<T: FromToml> FromToml for Spanned<T> {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        let span = value.span();
        T::from_toml(value).map(|inner| Spanned::new(span, inner))
    }
}

impl<T: FromToml> FromToml for Vec<T> {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        let span = value.span();
        match value.into_inner() {
            DeValue::Array(items) => items.into_iter().map(T::from_toml).collect(),
            other => invalid(span, &other, "an array"),
        }
    }
}

impl<T: FromToml> FromToml for BTreeMap<String, T> {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        let span = value.span();
        match value.into_inner() {
            DeValue::Table(table) => table
                .into_iter()
                .map(|(key, value)| Ok((key.into_inner().into_owned(), T::from_toml(value)?)))
                .collect(),
            other => invalid(span, &other, "a table"),
        }
    }
}

//! Writing a record back: its fields by wire name, in spec order, then the
//! members the spec does not know. A row with none is written as a struct
//! (what a serializer that builds objects per record, as the Python package's
//! does, reads fastest); a row with some as a map, since their names are not
//! known until the row is read.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};

use super::{Record, UnknownMembers};

/// A record being written ([`Writer::start`], a [`field`](Writer::field) per
/// field, [`end`](Writer::end)).
pub enum Writer<S: Serializer> {
    /// A row without unknown members.
    Struct(S::SerializeStruct),
    /// A row with some.
    Map(S::SerializeMap),
}

impl<S: Serializer> Writer<S> {
    /// Begin writing a record of type `R` whose unknown members are `unknown`.
    ///
    /// # Errors
    ///
    /// The serializer's.
    #[inline]
    pub fn start<R: Record>(serializer: S, unknown: &UnknownMembers) -> Result<Self, S::Error> {
        if unknown.is_empty() {
            serializer
                .serialize_struct(R::NAME, R::FIELDS.len())
                .map(Writer::Struct)
        } else {
            serializer
                .serialize_map(Some(R::FIELDS.len() + unknown.len()))
                .map(Writer::Map)
        }
    }

    /// Write one field under its wire name.
    ///
    /// # Errors
    ///
    /// The serializer's.
    #[inline]
    pub fn field<T: Serialize + ?Sized>(
        &mut self,
        wire: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        match self {
            Writer::Struct(out) => out.serialize_field(wire, value),
            Writer::Map(out) => out.serialize_entry(wire, value),
        }
    }

    /// Write the unknown members after the fields, and end the record.
    ///
    /// # Errors
    ///
    /// The serializer's.
    #[inline]
    pub fn end(self, unknown: &UnknownMembers) -> Result<S::Ok, S::Error> {
        match self {
            Writer::Struct(out) => out.end(),
            Writer::Map(mut out) => {
                for (name, value) in unknown {
                    out.serialize_entry(name, value)?;
                }
                out.end()
            }
        }
    }
}

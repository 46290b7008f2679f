//! Writing a record back: its fields by wire name, in spec order, then the
//! members the spec does not know. A field whose value did not fit its type
//! is written as the service sent it (kept with the unknown members), so
//! that what was paid for is shown, not an empty field. A row with none is
//! written as a struct (what a serializer that builds objects per record, as
//! the Python package's does, reads fastest); a row with some as a map, since
//! their names are not known until the row is read.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};

use super::{Record, UnknownMembers};

/// A record being written ([`Writer::start`], a [`field`](Writer::field) per
/// field, [`end`](Writer::end)).
pub enum Writer<'a, S: Serializer> {
    /// A row without unknown members.
    Struct(S::SerializeStruct),
    /// A row with some, and the wire names of its record's fields.
    Map(S::SerializeMap, &'a UnknownMembers, &'static [&'static str]),
}

impl<'a, S: Serializer> Writer<'a, S> {
    /// Begin writing a record of type `R` whose unknown members are `unknown`.
    ///
    /// # Errors
    ///
    /// The serializer's.
    #[inline]
    pub fn start<R: Record>(serializer: S, unknown: &'a UnknownMembers) -> Result<Self, S::Error> {
        if unknown.is_empty() {
            serializer
                .serialize_struct(R::NAME, R::FIELDS.len())
                .map(Writer::Struct)
        } else {
            let extra = unknown.iter().filter(|(name, _)| !R::FIELDS.contains(name));
            serializer
                .serialize_map(Some(R::FIELDS.len() + extra.count()))
                .map(|out| Writer::Map(out, unknown, R::FIELDS))
        }
    }

    /// Write one field under its wire name (the value as sent instead, when
    /// it did not fit the field).
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
            Writer::Map(out, unknown, _) => match unknown.get(wire) {
                Some(sent) => out.serialize_entry(wire, sent),
                None => out.serialize_entry(wire, value),
            },
        }
    }

    /// Write the unknown members after the fields (but those written in a
    /// field's place), and end the record.
    ///
    /// # Errors
    ///
    /// The serializer's.
    #[inline]
    pub fn end(self, unknown: &UnknownMembers) -> Result<S::Ok, S::Error> {
        match self {
            Writer::Struct(out) => out.end(),
            Writer::Map(mut out, _, fields) => {
                for (name, value) in unknown {
                    if !fields.contains(&name) {
                        out.serialize_entry(name, value)?;
                    }
                }
                out.end()
            }
        }
    }
}

//! An envelope written with the wire member names of a service.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{Envelope, RawRow};
use crate::operation_table::Service;

/// `envelope` serialised with `service`'s member names, and the rows kept raw
/// (`raw_rows`, the client's own member) when there are any; `no_data` and
/// `fetched_at` are the client's own and not written.
pub struct WithWireNames<'a, T> {
    /// The envelope.
    pub envelope: &'a Envelope<T>,
    /// Whose member names to write.
    pub service: &'a Service,
}

impl<T: Serialize> Serialize for WithWireNames<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (e, service) = (self.envelope, self.service);
        let raw = !e.raw_rows.is_empty();
        let mut out = s.serialize_struct("Envelope", 4 + usize::from(raw))?;
        out.serialize_field(service.envelope_result_rows, &e.result_rows)?;
        out.serialize_field(service.envelope_units_used, &e.units_used)?;
        out.serialize_field(service.envelope_units_remaining, &e.units_remaining)?;
        out.serialize_field(service.envelope_response, &e.response)?;
        if raw {
            out.serialize_field(RawRow::MEMBER, &e.raw_rows)?;
        }
        out.end()
    }
}

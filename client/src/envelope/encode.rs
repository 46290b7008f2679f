//! An envelope written with the wire member names of a service.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::{Envelope, RawRow};
use crate::operation_table::Service;

/// `envelope` serialised with `service`'s member names (a figure the answer
/// did not report as `null`), the members the spec does not know after them
/// as the service sent them, and the rows kept raw (`raw_rows`, the client's
/// own member) when there are any; `no_data` and `fetched_at` are the
/// client's own and not written.
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
        let mut out = s.serialize_map(Some(4 + e.extras.len() + usize::from(raw)))?;
        out.serialize_entry(service.envelope_result_rows, &e.result_rows)?;
        let used = (!e.unreported.units_used).then_some(e.units_used);
        out.serialize_entry(service.envelope_units_used, &used)?;
        out.serialize_entry(service.envelope_units_remaining, &e.units_remaining)?;
        for (name, value) in &e.extras {
            out.serialize_entry(name, value)?;
        }
        out.serialize_entry(service.envelope_response, &e.response)?;
        if raw {
            out.serialize_entry(RawRow::MEMBER, &e.raw_rows)?;
        }
        out.end()
    }
}

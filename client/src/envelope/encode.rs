//! An envelope written with the wire member names of a service.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::Envelope;
use crate::operation_table::Service;

/// `envelope` serialised with `service`'s member names; `no_data` and
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
        let mut out = s.serialize_struct("Envelope", 4)?;
        out.serialize_field(service.envelope_result_rows, &e.result_rows)?;
        out.serialize_field(service.envelope_units_used, &e.units_used)?;
        out.serialize_field(service.envelope_units_remaining, &e.units_remaining)?;
        out.serialize_field(service.envelope_response, &e.response)?;
        out.end()
    }
}

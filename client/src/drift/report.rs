//! What the store holds of one origin's drift, as a client reads it
//! ([`Client::drift`](crate::Client::drift)).

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::observation::Observation;
use crate::operation_table::RecordInfo;

/// The drift recorded for a client's key and origin: what the service sent
/// that the spec does not say, per operation, summed over every call made
/// through the store (by any process on it). [`patch`](Self::patch) turns it
/// into a change of the spec.
#[derive(Debug, Clone)]
pub struct DriftReport {
    origin: String,
    observations: Vec<Observation>,
    records: &'static [RecordInfo],
}

impl DriftReport {
    /// The report of `observations` (one origin's) against the spec's
    /// `records`.
    pub(crate) fn new(
        origin: String,
        observations: Vec<Observation>,
        records: &'static [RecordInfo],
    ) -> Self {
        DriftReport {
            origin,
            observations,
            records,
        }
    }

    /// The service's origin the report is about.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Every observation, ordered by operation, record, member and kind.
    pub fn observations(&self) -> &[Observation] {
        &self.observations
    }

    /// Whether nothing was observed: the service sent what the spec says.
    pub fn is_empty(&self) -> bool {
        self.observations.is_empty()
    }

    /// The report as a patch in the spec's own TOML format: new fields
    /// (a type inferred from the values seen), presence widened where
    /// members were missing or `null`, new enum values, each `observed` with
    /// its counts and dates; what the spec has no place for is listed in
    /// comments. `seozoom-codegen apply` merges it into the spec.
    pub fn patch(&self) -> String {
        super::patch::patch(&self.origin, &self.observations, self.records)
    }
}

impl Serialize for DriftReport {
    /// `{"origin": ..., "observations": [...]}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("DriftReport", 2)?;
        out.serialize_field("origin", &self.origin)?;
        out.serialize_field("observations", &self.observations)?;
        out.end()
    }
}

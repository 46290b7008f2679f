//! What the service sends that the spec does not say: drift.
//!
//! The service is the truth and the reference lags it. A call's decode notes
//! what it meets that the spec does not describe (a member it does not know,
//! a `null` or missing member the spec calls required, a value of another
//! JSON type, an enum value it does not list); the call notes an HTTP status
//! or message the spec does not name and a charge that differs from the
//! spec's cost. The store keeps what every call saw, summed per origin and
//! operation ([`Observation`]); [`Client::drift`](crate::Client::drift) reads
//! it back as a [`DriftReport`], whose [`patch`](DriftReport::patch) is a
//! change of the spec in its own format.

mod observation;
pub(crate) mod observe;
mod patch;
mod report;
pub(crate) mod seen;

pub(crate) use observation::DriftKey;
pub use observation::Observation;
pub use report::DriftReport;
pub use seen::{DriftKind, JsonType, JsonTypeSet};

//! A request checked and ready to go ([`Prepared`]): what the call, its
//! accounting and its use of the cache share.

use crate::operation_table::Operation;
use crate::units::Estimate;

/// A request checked and ready to go.
pub(crate) struct Prepared {
    pub(crate) op: &'static Operation,
    pub(crate) database: String,
    /// The URL it is sent to, with the key.
    pub(super) url: String,
    pub(crate) estimate: Estimate,
    /// The validated query, without the key.
    pub(crate) query: Vec<(&'static str, String)>,
    /// What its answer is cached under: the base URL's origin, the
    /// operation and the query, without the key.
    pub(crate) cache_key: String,
}

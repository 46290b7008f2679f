//! A request checked and ready to go ([`Prepared`]), and the boxed step of a
//! call ([`Step`]): what the call, its accounting and its use of the cache
//! share.

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

/// A step of a call that its generic code (the part that decodes) awaits:
/// boxed, and built by a function that is never inlined.
///
/// An `async fn`'s body is compiled where its future is polled, and in a
/// release build a crate that awaits one from another crate compiles its own
/// copy; boxed behind `dyn Future`, it is compiled once, here, and a crate that
/// makes a call compiles only its decoder and the few lines of `Client::call`.
pub(crate) type Step<'a, T> = futures_util::future::BoxFuture<'a, T>;

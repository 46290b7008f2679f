//! What a run of [`Client::run`](crate::Client::run) came to: its result in
//! the service's envelope, and the exact figures of what the run did (what
//! it sent, what the cache answered, what it was charged).

use serde::Serialize;

use crate::envelope::Envelope;

/// A run's result and its figures: what [`Client::run`](crate::Client::run)
/// returns, and what a [`Partial`](crate::job::Partial) keeps of a run that
/// stopped part-way.
///
/// `envelope` is the result as one answer of the service would carry it:
/// the rows (in input order for a batched job, in page order for a paged
/// one), `result_rows` and `units_used` summed over the run's answers, and
/// the empty result when nothing was found. `figures` are the same run's
/// exact numbers.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Outcome<T> {
    /// The result.
    pub envelope: Envelope<T>,
    /// What the run did.
    pub figures: Figures,
}

impl<T> Outcome<T> {
    /// The result alone.
    pub fn into_response(self) -> T {
        self.envelope.response
    }
}

/// The exact figures of a run: what it sent, what the store's cache answered,
/// what it was charged and the balance after it. Serialized with these
/// names (`units_remaining` is `null` when no answer said it).
///
/// # Examples
///
/// ```
/// let figures = seozoom::job::Figures::default();
/// assert!(!figures.from_cache && figures.units_remaining.is_none());
/// assert_eq!(
///     serde_json::to_value(figures).unwrap()["units_remaining"],
///     serde_json::Value::Null
/// );
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Figures {
    /// Requests of the run that reached the service (answered, or failed
    /// after they were sent); a request retried counts once.
    pub requests_sent: usize,
    /// Whether the whole result came from the cache: `true` exactly when
    /// nothing was sent and the cache answered.
    pub from_cache: bool,
    /// Inputs of a batched job answered from the cache item by item.
    pub cached_items: usize,
    /// Requests answered whole from the cache (a call, a batch of a job, a
    /// page).
    pub cached_requests: usize,
    /// Units charged for the run's own requests (other calls on the same
    /// client at the same time are not counted).
    pub units_used: i64,
    /// The account's balance after the run: the latest one an answer of
    /// the run reported, else the last one the client knows; `None` when
    /// no answer has said it (a "No data found!" answer before any other).
    pub units_remaining: Option<i64>,
    /// Whether nothing was found: the service answered "No data found!"
    /// (or, for a paged job, nothing was found and nothing charged), or the
    /// cache holds that answer for every input; the same whether the
    /// answer is fresh or from the cache.
    pub no_data: bool,
}

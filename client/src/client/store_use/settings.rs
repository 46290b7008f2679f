//! The client's store settings, as its builder made them.

use std::time::Duration;

use crate::store::{BudgetWindow, Scope, Store};

/// What the client's store settings are.
#[derive(Debug, Clone)]
pub(crate) struct StoreUse {
    pub store: Store,
    pub scope: Scope,
    /// Skip cache reads (answers are still cached).
    pub refresh: bool,
    /// The caller's time to live for live data, instead of the spec's.
    pub ttl: Option<Duration>,
    /// A budget per UTC day or month, kept in the store's ledger.
    pub window: Option<(i64, BudgetWindow)>,
    /// When the store fails, read no cache and hold this process's rate limits
    /// (with a warning) rather than fail the call.
    pub fallback: bool,
    /// The longest a request may be in flight (connect and read timeouts):
    /// how long a shared rate-limit slot is held for a holder that never
    /// says its request was answered.
    pub in_flight: Duration,
}

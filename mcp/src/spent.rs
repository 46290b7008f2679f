//! What one MCP session spent, for `usage`'s `session`: over HTTP one
//! process serves many sessions on one client (one budget, one ledger), so a
//! session's own figures are counted from its calls' outcomes, not read from
//! the client.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use seozoom::job::Figures;

/// The figures of one MCP session's calls.
#[derive(Debug, Default)]
pub struct Spent {
    /// Requests that reached the service.
    calls: AtomicU64,
    /// Units charged.
    units_used: AtomicI64,
    /// Answers that came whole from the store's cache.
    cache_hits: AtomicU64,
    /// Inputs of batched jobs answered from the cache while the rest was sent.
    cached_items: AtomicU64,
}

/// [`Spent`] read at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpentNow {
    /// Requests that reached the service.
    pub calls: u64,
    /// Units charged.
    pub units_used: i64,
    /// Answers that came whole from the store's cache.
    pub cache_hits: u64,
    /// Inputs of batched jobs answered from the cache while the rest was sent.
    pub cached_items: u64,
}

impl Spent {
    /// Count one call's outcome (whole, or what a stopped job received).
    pub fn add(&self, figures: &Figures) {
        self.calls
            .fetch_add(figures.requests_sent as u64, Ordering::Relaxed);
        self.units_used
            .fetch_add(figures.units_used, Ordering::Relaxed);
        if figures.from_cache {
            self.cache_hits.fetch_add(1, Ordering::Relaxed);
        } else {
            self.cached_items
                .fetch_add(figures.cached_items as u64, Ordering::Relaxed);
        }
    }

    /// The figures so far.
    pub fn now(&self) -> SpentNow {
        SpentNow {
            calls: self.calls.load(Ordering::Relaxed),
            units_used: self.units_used.load(Ordering::Relaxed),
            cache_hits: self.cache_hits.load(Ordering::Relaxed),
            cached_items: self.cached_items.load(Ordering::Relaxed),
        }
    }
}

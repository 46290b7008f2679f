//! A call's use of the store ([`crate::store`]), one concern a file:
//! - `cache`: a fresh cached answer instead of a request (whole, or item by
//!   item for a batched one), and the answers kept once received;
//! - `window`: the hold of a budget per day or month;
//! - `slots`: the rate-limit slot, shared by every process on the store;
//! - `settings`: what the client's store settings are;
//! - here: the ledger rows every part writes.
//!
//! Store failures before a request is sent refuse the call
//! ([`ErrorKind::Store`](crate::error::ErrorKind::Store)); after it was answered they are logged and the
//! answer is returned all the same, since it was paid for.

mod cache;
pub(super) mod settings;
mod slots;
mod window;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::Client;
use crate::envelope::Envelope;
use crate::error::Error;
use crate::request::Request;
use crate::store::{CacheEntry, LedgerEntry, StoreError};

pub(crate) use cache::{found_nothing, unreadable_stored};
pub(crate) use window::WindowHold;

impl Client {
    pub(super) fn store_error(&self, what: &str, error: StoreError) -> Error {
        self.inner.key.hide(error.into_call_error(what))
    }

    /// Record a call in the ledger; a failure is logged (the call was made).
    pub(crate) async fn record(&self, entry: LedgerEntry) {
        self.record_with(entry, Vec::new()).await;
    }

    /// Record a call in the ledger and keep `entries` in the cache, in one
    /// step; a failure is logged (the call was made).
    pub(crate) async fn record_with(&self, entry: LedgerEntry, entries: Vec<CacheEntry>) {
        let memory = &self.inner.memory;
        let backend = memory.store.backend();
        let written = match entries.is_empty() {
            true => backend.record(&memory.scope, entry).await,
            false => backend.remember(&memory.scope, entry, entries).await,
        };
        if let Err(error) = written {
            tracing::warn!(store = %error.store, error = %error.message, "cannot record a call in the ledger");
        }
    }
}

/// What the ledger and the cache keep of an envelope (not the envelope itself,
/// whose rows need not be shareable between threads).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AnswerFigures {
    pub no_data: bool,
    pub result_rows: i64,
    pub units_used: i64,
    pub units_remaining: Option<i64>,
    pub unreported: crate::envelope::Unreported,
}

impl AnswerFigures {
    /// The balance the answer reported: none for "no data", or when it
    /// did not report one.
    pub fn balance(&self) -> Option<i64> {
        self.units_remaining.filter(|_| !self.no_data)
    }

    /// What the answer says it was charged (unknown when it did not say).
    pub fn charge(&self) -> crate::charge::Charge {
        match self.unreported.units_used {
            true => crate::charge::Charge::Unknown,
            false => crate::charge::Charge::Units(self.units_used),
        }
    }
}

impl<T> From<&Envelope<T>> for AnswerFigures {
    fn from(envelope: &Envelope<T>) -> Self {
        AnswerFigures {
            no_data: envelope.no_data,
            result_rows: envelope.result_rows,
            units_used: envelope.units_used,
            units_remaining: envelope.units_remaining,
            unreported: envelope.unreported,
        }
    }
}

/// The input items a request asks for: its batch parameter's values, else 1.
pub(super) fn items_of(request: &Request) -> i64 {
    let op = request.operation();
    op.batch_param()
        .and_then(|p| request.get(p.wire))
        .map_or(1, |values| values.len() as i64)
}

/// What an answered call's ledger row carries besides its figures: the
/// budget hold it shrinks, and what the answer held that the spec does not
/// say.
pub(crate) struct RowExtras {
    pub hold: Option<(String, i64)>,
    pub drift: Vec<crate::drift::Observation>,
}

/// `ms` since the epoch as a time.
pub(crate) fn time_of(ms: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

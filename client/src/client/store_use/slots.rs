//! The rate-limit slot of a request: this process's, or, on a store that
//! shares them, one counted across every process on the key.

use std::time::Duration;

use crate::client::Client;
use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::rate_limits::{RateLimitMode, Slot};
use crate::wait::{WaitCause, Waits};

impl Client {
    /// Take a rate-limit slot: shared by every process on the store, when the
    /// store shares them; else this process's. Hold it until the request's
    /// answer is in ([`settle_slot`](Self::settle_slot)).
    pub(crate) async fn take_slot(
        &self,
        op: &Operation,
        waits: &mut Waits,
        attempt: u32,
    ) -> Result<Taken<'_>, Error> {
        let memory = &self.inner.memory;
        let limits = &self.inner.rate_limits;
        let figure = op.cost.requests_per_minute.value;
        let shared = memory.store.backend().shared_slots();
        let Some(shared) = shared.filter(|_| limits.mode() != RateLimitMode::Off && figure > 0)
        else {
            return limits.acquire(op, waits, attempt).await.map(Taken::Local);
        };
        let label = op.label();
        loop {
            let taken = match shared
                .take_slot(
                    &memory.scope,
                    &label,
                    figure,
                    limits.window(),
                    memory.in_flight,
                )
                .await
            {
                Ok(taken) => taken,
                Err(error) if memory.fallback => {
                    tracing::warn!(store = %error.store, error = %error.message, "the store failed: this call holds the rate limits of this process only (store fallback); other processes on the key are not counted");
                    return limits.acquire(op, waits, attempt).await.map(Taken::Local);
                }
                Err(error) => return Err(self.store_error(&label, error)),
            };
            let wait = match taken {
                Ok(id) => return Ok(Taken::Shared(id)),
                Err(wait) => wait,
            };
            if limits.mode() == RateLimitMode::Refuse {
                return Err(Error::new(
                    label,
                    ErrorKind::RateLimited {
                        per_minute: figure,
                        retry_in: wait,
                    },
                ));
            }
            let reason = format!("{figure} requests a minute, shared by the store's processes");
            waits
                .wait(wait, WaitCause::RateLimit, &reason, attempt)
                .await?;
        }
    }

    /// The request of a slot was answered (or failed): the slot counts for a
    /// window from now. A store failure here is logged; the slot then ends on
    /// its own, after its longest time in flight.
    pub(crate) async fn settle_slot(&self, op: &Operation, taken: Taken<'_>) {
        let id = match taken {
            Taken::Local(slot) => return drop(slot),
            Taken::Shared(id) => id,
        };
        let memory = &self.inner.memory;
        // Taken from the store, so the store has them.
        let Some(shared) = memory.store.backend().shared_slots() else {
            return;
        };
        // A millisecond more: stores date slots in whole milliseconds, and a
        // slot that freed a fraction early would let a request arrive inside
        // the service's window.
        let window = self.inner.rate_limits.window() + Duration::from_millis(1);
        if let Err(error) = shared
            .settle_slot(&memory.scope, &op.label(), &id, window)
            .await
        {
            tracing::warn!(store = %error.store, error = %error.message, "cannot settle a rate-limit slot");
        }
    }
}

/// A rate-limit slot taken for one request.
pub(crate) enum Taken<'a> {
    /// This process's.
    Local(Slot<'a>),
    /// The store's, by id.
    Shared(String),
}
